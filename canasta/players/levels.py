"""Difficulty levels mapped onto the computer players.

=========  ==================================================================
level      player
=========  ==================================================================
easy       BasicPlayer that plays a uniformly random legal action 35% of the
           time (seeded), so it blunders like a beginner
medium     BasicPlayer
hard       ExpertPlayer with a smaller budget (6 sampled deals, at most 72 rollouts
           a decision)
expert     ExpertPlayer with its default budget (at most 144 rollouts a decision:
           in 4-player Classic 24 sampled deals, rollouts of 40 actions scored by
           the learned value; elsewhere 12 deals, rollouts of at most 200
           actions: under a second)
=========  ==================================================================

Measured against each other (docs/research.md, "The levels against each other"): medium
beats easy and hard beats medium, with 95% intervals above 50%; expert led hard 57.7% over
the 150 games one session could afford, an interval reaching just below 50%.
"""

from __future__ import annotations

import random

from canasta.engine.actions import Action
from canasta.players.base import Observation, Player
from canasta.players.basic import BasicPlayer
from canasta.players.expert import ExpertPlayer

EASY_NOISE = 0.35


class NoisyBasicPlayer:
    """BasicPlayer that plays a random legal action with probability ``noise``."""

    name = "easy"

    def __init__(self, seed: int | str | None = 0, noise: float = EASY_NOISE) -> None:
        self.rng = random.Random(seed)
        self.noise = noise
        self.basic = BasicPlayer(seed)

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        if self.rng.random() < self.noise:
            return self.rng.choice(legal)
        return self.basic.choose(obs, legal)


def easy(seed: int | str | None = 0) -> Player:
    return NoisyBasicPlayer(seed)


def medium(seed: int | str | None = 0) -> Player:
    return BasicPlayer(seed)


def hard(seed: int | str | None = 0) -> Player:
    return ExpertPlayer(seed, worlds=6, max_rollouts=72)


def expert(seed: int | str | None = 0) -> Player:
    return ExpertPlayer(seed)


LEVELS = {"easy": easy, "medium": medium, "hard": hard, "expert": expert}
