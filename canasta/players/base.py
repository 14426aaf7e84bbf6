"""The interface every computer player implements.

A player sees only what a human at its seat would see: the observation dict from
``Game.observation(seat)`` and the list of legal actions. It never gets the
:class:`~canasta.engine.game.Game`, so it cannot peek at the stock or other hands.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from canasta.engine.actions import Action

Observation = dict[str, Any]


@runtime_checkable
class Player(Protocol):
    """Chooses one atomic action at a time."""

    name: str

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        """Return one of ``legal`` (which is never empty)."""
        ...
