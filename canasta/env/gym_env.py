"""A Gymnasium single-agent environment: one seat learns, computer players take the others.

>>> from canasta.env.gym_env import CanastaGymEnv
>>> env = CanastaGymEnv("classic", players=4, opponents="basic")
>>> obs, info = env.reset(seed=1)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is ``{"observation": float32[obs_size(variant, players)], "action_mask": int8[num_actions(variant)]}``
(canasta.encoding, from ``Game.observation(seat)`` only); ``action_masks()`` returns
the mask too, for maskable policy-gradient libraries. ``opponents`` names a computer
player (``get_player``) for every other seat, or lists one name per other seat in
seat order; the partner in a partnership game is one of them. Each ``step`` plays the
agent's action and then the other seats until the agent must act again or the
episode ends. Rewards and episode length as in canasta.env.pettingzoo_env. An
action that is not legal raises ValueError, unless ``illegal_action_reward`` is set:
then the position is unchanged and the step returns that reward.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from canasta.encoding import action_mask, decode, encode_observation, num_actions, obs_size
from canasta.engine.game import Game
from canasta.env.rewards import hand_rewards
from canasta.players import Player, get_player


class CanastaGymEnv(gym.Env):  # type: ignore[type-arg,misc,unused-ignore]
    """Single-agent Canasta; see the module docstring."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(self, variant: str = "classic", players: int = 4, opponents: str | Sequence[str] = "basic",
                 seat: int = 0, rules: dict[str, Any] | None = None, hands: int = 1,
                 max_steps: int = 20_000, reward_scale: float = 0.01, render_mode: str | None = None,
                 illegal_action_reward: float | None = None) -> None:
        super().__init__()
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"name {players - 1} opponents, not {len(names)}")
        self.variant, self.players, self.seat = variant, players, seat
        self.opponent_names = names
        self.rules = dict(rules or {})
        self.hands, self.max_steps, self.reward_scale = hands, max_steps, reward_scale
        self.render_mode = render_mode
        self.illegal_action_reward = illegal_action_reward
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (obs_size(variant, players),), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions(variant),), np.int8),
        })
        self.action_space = spaces.Discrete(num_actions(variant))
        self._seeder = random.Random()
        self.game = Game(variant, players, 0, self.rules)
        self._others: dict[int, Player] = {}
        self._done = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeder = random.Random(seed)
        game_seed = self._seeder.getrandbits(63)
        self.game = Game(self.variant, self.players, game_seed, self.rules)
        others = [s for s in range(self.players) if s != self.seat]
        self._others = {s: get_player(name, f"{game_seed}/{s}") for s, name in zip(others, self.opponent_names, strict=True)}
        self._start_hand = self.game.hand_no
        self._steps = 0
        self._done = False
        reward, _ = self._advance()
        return self._obs(), {"reward_before_first_action": reward}

    def _obs(self) -> dict[str, Any]:
        g = self.game
        mine = not self._done and g.actor == self.seat
        mask = action_mask(g.legal_actions(), self.variant) if mine else np.zeros(num_actions(self.variant), dtype=np.int8)
        return {"observation": encode_observation(g.observation(self.seat)), "action_mask": mask}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        return self._obs()["action_mask"].astype(bool)  # type: ignore[no-any-return]

    def _push(self, action: Any) -> float:
        """Play one action; the agent's reward if a hand ended."""
        g = self.game
        before, hand_no = len(g.hand_results), g.hand_no
        g.push(action)
        self._steps += 1
        reward = 0.0
        if len(g.hand_results) > before:
            reward = hand_rewards(g, before, self.reward_scale)[self.seat]
        if g.is_over or (g.hand_no != hand_no and g.hand_no - self._start_hand >= self.hands):
            self._done = True
        return reward

    def _advance(self) -> tuple[float, bool]:
        """Let the other seats play until the agent must act; (reward, truncated)."""
        g = self.game
        reward = 0.0
        while not self._done and g.actor != self.seat:
            if self._steps >= self.max_steps:
                return reward, True
            actor = g.actor
            legal = g.legal_actions()
            reward += self._push(self._others[actor].choose(g.observation(actor), legal))
        return reward, not self._done and self._steps >= self.max_steps

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            chosen = decode(int(action), self.game.legal_actions(), self.variant)
        except ValueError:
            if self.illegal_action_reward is None:
                raise
            return self._obs(), self.illegal_action_reward, False, False, {"illegal_action": True}
        reward = self._push(chosen)
        more, truncated = self._advance()
        return self._obs(), reward + more, self._done, truncated, {}

    def render(self) -> str:
        g = self.game
        return f"hand {g.hand_no}; scores {g.scores}; hand {g.observation(self.seat)['hand']}"
