"""A native PettingZoo AEC environment for every registered variant.

>>> from canasta.env.pettingzoo_env import CanastaEnv
>>> env = CanastaEnv("classic", players=4)
>>> env.reset(seed=1)
>>> obs, reward, term, trunc, info = env.last()
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> env.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seats). Each observation is a dict
``{"observation": float32[obs_size(variant, players)], "action_mask": int8[num_actions(variant)]}`` computed
from ``Game.observation(seat)`` only (canasta.encoding; docs/research.md). The
agent to act is the engine's ``actor``: turns are atomic steps, and "may I go
out?" hands one decision to the partner, so the order is not a fixed cycle.

An episode is ``hands`` hands (default 1) or the whole game (``hands=0``). At the
end of each hand every agent is rewarded ``reward_scale`` times its side's hand
score minus the mean hand score of all sides (zero-sum). ``max_steps`` truncates
an episode that runs too long (random play ends long before the default).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from canasta.encoding import action_mask, decode, encode_observation, num_actions, obs_size
from canasta.engine.game import Game
from canasta.env.rewards import hand_rewards
from canasta.notation import format_action


class CanastaEnv(AECEnv):  # type: ignore[misc,unused-ignore]
    """PettingZoo AEC environment; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "canasta_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "classic", players: int = 4, rules: dict[str, Any] | None = None,
                 hands: int = 1, max_steps: int = 20_000, reward_scale: float = 0.01,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.players = players
        self.rules = dict(rules or {})
        self.hands = hands
        self.max_steps = max_steps
        self.reward_scale = reward_scale
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (obs_size(variant, players),), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions(variant),), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions(variant)) for a in self.possible_agents}
        self._seeder = random.Random()
        self.game = Game(variant, players, 0, self.rules)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(seed)
        game_seed = self._seeder.getrandbits(63)
        self.game = Game(self.variant, self.players, game_seed, self.rules)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._start_hand = self.game.hand_no
        self.agent_selection = self.possible_agents[self.game.actor]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._index[agent]
        obs = encode_observation(self.game.observation(seat))
        if self._live() and self.game.actor == seat:
            mask = action_mask(self.game.legal_actions(), self.variant)
        else:
            mask = np.zeros(num_actions(self.variant), dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def _live(self) -> bool:
        return not any(self.terminations.values()) and not any(self.truncations.values())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if action is None:
            raise ValueError(f"{agent} must act: pass an action index")
        chosen = decode(int(action), game.legal_actions(), self.variant)
        results_before = len(game.hand_results)
        hand_before = game.hand_no
        game.push(chosen)
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if len(game.hand_results) > results_before:
            for seat, r in enumerate(hand_rewards(game, results_before, self.reward_scale)):
                self.rewards[self.possible_agents[seat]] = r
        done = game.is_over or (self.hands > 0 and game.hand_no - self._start_hand >= self.hands
                                and game.hand_no != hand_before)
        if done:
            self.terminations = {a: True for a in self.agents}
        elif self._steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        if self._live():
            self.agent_selection = self.possible_agents[game.actor]
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        g = self.game
        if g.history:
            seat, a, _ = g.history[-1]
            last = f"seat {seat}: {format_action(a)}"
        else:
            last = "new game"
        return (f"hand {g.hand_no}, {last}; scores {g.scores}; stock {len(g.stock)}, pile {len(g.pile)};"
                f" to act: seat {g.actor}")

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> CanastaEnv:
    """PettingZoo-style constructor."""
    return CanastaEnv(**kwargs)
