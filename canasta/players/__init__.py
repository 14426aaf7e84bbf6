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
from canasta.players.expert import ExpertPlayer
from canasta.players.levels import LEVELS
from canasta.players.random_player import RandomPlayer

PLAYERS: dict[str, Callable[[int | str | None], Player]] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
    "expert": ExpertPlayer,
    # difficulty levels (canasta.players.levels); "expert" is the same player as above
    **{name: make for name, make in LEVELS.items() if name != "expert"},
}


def get_player(name: str, seed: int | str | None = 0) -> Player:
    """A computer player by name: "random", "basic", "expert", or a level "easy", "medium", "hard"."""
    try:
        factory = PLAYERS[name.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown player {name!r}; known: {', '.join(sorted(PLAYERS))}") from None
    return factory(seed)


def hint(obs: Observation, legal: list[Action], player: str = "basic") -> tuple[Action, str]:
    """A suggestion for this position with a one-line reason: BasicPlayer's (instant), or with
    ``player="expert"`` the ExpertPlayer's search (about a second)."""
    if player == "expert":
        return ExpertPlayer().decide(obs, legal)
    if player != "basic":
        raise ValueError(f"hints come from 'basic' or 'expert', not {player!r}")
    return BasicPlayer().decide(obs, legal)


__all__ = ["PLAYERS", "BasicPlayer", "ExpertPlayer", "Observation", "Player", "RandomPlayer", "get_player", "hint"]
