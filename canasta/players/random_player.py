"""A player that picks uniformly among the legal actions (a baseline and a fuzzer)."""

from __future__ import annotations

import random

from canasta.engine.actions import Action
from canasta.players.base import Observation


class RandomPlayer:
    """Uniform over legal actions, with its own seeded generator (no global RNG)."""

    name = "random"

    def __init__(self, seed: int | str | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        return self.rng.choice(legal)
