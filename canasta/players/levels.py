"""Difficulty levels mapped onto the computer players.

=========  ==================================================================
level      player
=========  ==================================================================
easy       BasicPlayer that plays a uniformly random legal action 35% of the
           time (seeded), so it blunders like a beginner
medium     BasicPlayer
hard       ExpertPlayer with a smaller budget (6 sampled deals, at most 72 rollouts
           and 6,000 rollout actions a decision)
expert     ExpertPlayer with its default budget (at most 144 rollouts and 6,000
           rollout actions a decision: in Classic with 4 or 2 players, Hand and
           Foot, Triple Play and American with 4, 24 sampled deals, rollouts of
           40 actions scored by the learned value ``linear-tables``
           (``linear-v1``'s weights in 4-player Classic); elsewhere 12 deals,
           rollouts of at most 200 actions: under a second)
expert-v1  the frozen baseline (:data:`BASELINE_SETTINGS`): the expert as first
           measured at strength, every setting spelled out so later defaults do
           not move it: 24 / 12 sampled deals, at most 144 rollouts, no bound on
           rollout actions, horizon 40, the linear value ``linear-v1``, card
           reading, its own base style (in 4-player Classic the same play as
           ``expert``); the baseline the expert is measured against
=========  ==================================================================

Measured against each other in 4-player Classic (docs/benchmarks.md, "The levels against each
other"), each level beats the one below it with a 95% interval above 50%: medium wins 69.4%
against easy, hard 58.4% against medium, expert 58.4% against hard (400 games each).
"""

from __future__ import annotations

import random

from canasta.engine.actions import Action
from canasta.players.base import Observation, Player
from canasta.players.basic import BasicPlayer, BasicStyle
from canasta.players.expert import ExpertPlayer, ExpertSettings

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


#: the ``hard`` level: the expert on a quarter of its sampled deals and half its rollouts
HARD_SETTINGS = ExpertSettings(worlds=6, max_rollouts=72)

#: the base style of the frozen baseline (the expert's style when it was first measured), kept apart from
#: EXPERT_STYLE so that tuning the expert's style does not move the baseline
BASELINE_STYLE = BasicStyle(wild_completes=5, black_three_cost=0.0, pass_danger=0.25)

#: no bound on a decision's rollout actions (the baseline had none)
UNBOUNDED_STEPS = 10**9

#: the ``expert-v1`` level: the frozen baseline, every setting written out so later defaults do not move it
#: (its base policy is still BasicPlayer's code: a change there changes it too). It was the shipped expert
#: at commit 53fdcf2.
BASELINE_SETTINGS = ExpertSettings(worlds=None, value_worlds=24, rollout_worlds=12, max_rollouts=144,
                                   max_steps=UNBOUNDED_STEPS, max_rollout=200, horizon=40, seconds=None,
                                   margin_se=1.0, discards=4, value="linear-v1", read_passes=True,
                                   style=BASELINE_STYLE)


def hard(seed: int | str | None = 0) -> Player:
    return ExpertPlayer(seed, HARD_SETTINGS)


def expert(seed: int | str | None = 0) -> Player:
    return ExpertPlayer(seed)


def expert_v1(seed: int | str | None = 0) -> Player:
    """The frozen baseline (:data:`BASELINE_SETTINGS`)."""
    return ExpertPlayer(seed, BASELINE_SETTINGS)


LEVELS = {"easy": easy, "medium": medium, "hard": hard, "expert": expert, "expert-v1": expert_v1}
