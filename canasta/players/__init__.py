"""Computer players. Each sees only ``Game.observation(seat)`` and the legal actions.

>>> from canasta.players import get_player
>>> player = get_player("basic", seed=1)
>>> # action = player.choose(game.observation(game.actor), game.legal_actions())
"""

from __future__ import annotations

from collections.abc import Callable

from canasta.engine.actions import Action
from canasta.players.base import Observation, Player
from canasta.players.basic import BasicPlayer
from canasta.players.random_player import RandomPlayer

PLAYERS: dict[str, Callable[[int | str | None], Player]] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
}


def get_player(name: str, seed: int | str | None = 0) -> Player:
    """A computer player by name ("random" or "basic")."""
    try:
        factory = PLAYERS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown player {name!r}; known: {', '.join(sorted(PLAYERS))}") from None
    return factory(seed)


def hint(obs: Observation, legal: list[Action]) -> tuple[Action, str]:
    """BasicPlayer's suggestion for this position, with a one-line reason."""
    return BasicPlayer().decide(obs, legal)


__all__ = ["PLAYERS", "BasicPlayer", "Observation", "Player", "RandomPlayer", "get_player", "hint"]
