"""A Gymnasium single-agent environment: one seat learns, computer players take the others.

>>> import gymnasium as gym
>>> import canasta.env.gym_env  # registers canasta/Classic-v0 ... (one id per variant)
>>> env = gym.make("canasta/Classic-v0", players=2, opponents="basic")
>>> obs, info = env.reset(seed=1)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

The observation is ``{"observation": float32[obs_size(variant, players)], "action_mask": int8[num_actions(variant)]}``
(canasta.encoding, from ``Game.observation(seat)`` only; the Box's bounds are
``canasta.encoding.obs_bounds``). It is encoded once per step; ``action_masks()`` returns the
step's mask (for maskable policy-gradient libraries) without encoding again. ``opponents`` names
a computer player (``get_player``) for every other seat, or lists one name per other seat in seat
order; the partner in a partnership game is one of them. Each ``step`` plays the agent's action
and then the other seats until the agent must act again or the episode ends.

Episodes, rewards and truncation as in canasta.env.episode and canasta.env.rewards: ``hands``
hands (0: the whole game), ``reward="margin"`` (hand score margins times ``reward_scale``, 0.01)
or ``"win"``, and a forfeit of the side to act when ``max_steps`` actions truncate the episode.
The last observation of an episode shows the finished hand.

An action that is not legal leaves the position unchanged and returns ``illegal_action_reward``
(-1.0 by default; it counts towards ``max_steps``); ``illegal_action_reward=None`` raises
ValueError instead. ``render_mode`` follows Gymnasium: None (``render()`` returns None), "ansi"
(``render()`` returns the text) or "human" (prints it after every step).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from canasta.encoding import action_mask, describe_index, encode_position, legal_indices, num_actions, obs_bounds
from canasta.engine.game import Game
from canasta.env.episode import Episode, render_by_mode
from canasta.env.rewards import DEFAULT_REWARD_SCALE, check_reward_mode
from canasta.players import Player, get_player
from canasta.players.random_player import RandomPlayer
from canasta.variants import VARIANTS, find_variant

#: Penalty of an action the mask does not allow (the position is unchanged).
ILLEGAL_ACTION_REWARD = -1.0


class CanastaGymEnv(gym.Env):  # type: ignore[type-arg,misc,unused-ignore]
    """Single-agent Canasta; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(self, variant: str = "classic", players: int = 4, opponents: str | Sequence[str] = "basic",
                 seat: int = 0, rules: dict[str, Any] | None = None, hands: int = 1,
                 max_steps: int = 20_000, reward: str = "margin", reward_scale: float = DEFAULT_REWARD_SCALE,
                 render_mode: str | None = None, illegal_action_reward: float | None = ILLEGAL_ACTION_REWARD) -> None:
        super().__init__()
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"name {players - 1} opponents, not {len(names)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.variant, self.players, self.seat = variant, players, seat
        self.opponent_names = names
        self.rules = dict(rules or {})
        self.hands, self.max_steps = hands, max_steps
        self.reward, self.reward_scale = check_reward_mode(reward), reward_scale
        self.render_mode = render_mode
        self.illegal_action_reward = illegal_action_reward
        self.game = Game(variant, players, 0, self.rules)  # validates the parameters
        self._low, self._high = obs_bounds(variant, players, self.rules)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(self._low, self._high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions(variant),), np.int8),
        })
        self.action_space = spaces.Discrete(num_actions(variant))
        self._seeder = random.Random()
        self.episode = Episode(self.game, hands, max_steps, self.reward, reward_scale)
        self._others: dict[int, Player] = {}
        self._last_obs: dict[str, Any] | None = None
        self._legal: dict[int, Any] = {}  # index -> legal action of the agent, for the current step
        self._mask = np.zeros(num_actions(variant), dtype=bool)  # the current step's, for action_masks()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeder = random.Random(seed)
        game_seed = self._seeder.getrandbits(63)
        self.game = Game(self.variant, self.players, game_seed, self.rules)
        self.episode = Episode(self.game, self.hands, self.max_steps, self.reward, self.reward_scale)
        others = [s for s in range(self.players) if s != self.seat]
        self._others = {s: get_player(name, f"{game_seed}/{s}") for s, name in zip(others, self.opponent_names, strict=True)}
        reward = self._advance()
        self._last_obs = self._encode()
        return self._last_obs, {"reward_before_first_action": reward}

    def _encode(self) -> dict[str, Any]:
        """The agent's observation, encoded once for the step (and its mask kept for action_masks)."""
        g = self.game
        mine = not self.episode.done and g.actor == self.seat
        self._legal = legal_indices(g.legal_actions(), self.variant) if mine else {}
        mask = action_mask(self._legal, self.variant)
        vector = encode_position(g, self.seat)
        np.minimum(vector, self._high, out=vector)  # clipped to the bounds: the ufuncs skip np.clip's wrapper
        np.maximum(vector, self._low, out=vector)
        self._mask = mask.astype(bool)
        return {"observation": vector, "action_mask": mask}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions of the current step (computed with its observation)."""
        if self._last_obs is None:
            raise RuntimeError("call reset() first")
        return self._mask

    def _advance(self) -> float:
        """Let the other seats play until the agent must act or the episode ends; the agent's reward."""
        g, ep = self.game, self.episode
        reward = 0.0
        while not ep.done and g.actor != self.seat:
            actor = g.actor
            player = self._others[actor]
            # RandomPlayer never reads its observation: building the dict cost more than its move
            obs = {} if isinstance(player, RandomPlayer) else g.observation(actor)
            reward += ep.push(player.choose(obs, g.legal_actions()))[self.seat]
        return reward

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        ep = self.episode
        if ep.done or self._last_obs is None:
            raise RuntimeError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        chosen = self._legal.get(int(action))
        if chosen is None:
            if self.illegal_action_reward is None:
                raise ValueError(f"action index {int(action)} ({describe_index(int(action), self.variant)}) "
                                 "is not legal here")
            reward = self.illegal_action_reward + ep.count_idle_step()[self.seat]
            info["illegal_action"] = True
            if ep.done:  # refusing until max_steps: the forfeit
                self._last_obs = self._encode()
            else:  # the same position: a copy, since callers keep what a step returns
                self._last_obs = {k: v.copy() for k, v in self._last_obs.items()}
            return self._last_obs, reward, ep.terminated, ep.truncated, info
        reward = ep.push(chosen)[self.seat]
        reward += self._advance()
        self._last_obs = self._encode()
        if self.render_mode == "human":
            print(self._text())
        return self._last_obs, reward, ep.terminated, ep.truncated, info

    def _text(self) -> str:
        g = self.game
        return f"hand {g.hand_no}; scores {g.scores}; hand {g.observation(self.seat)['hand']}"

    def render(self) -> str | None:
        return render_by_mode(self.render_mode, self._text)


def gym_id(variant: str) -> str:
    """The registered id of a variant: ``canasta/Classic-v0``, ``canasta/HandAndFoot-v0``, ... Every keyword
    of :class:`CanastaGymEnv` passes through ``gym.make``; ``players`` defaults to 4 (Mille: 2)."""
    return "canasta/" + "".join(part.capitalize() for part in variant.split("-")) + "-v0"


def register_envs() -> list[str]:
    """Register one Gymnasium id per variant (done on import); the ids."""
    ids = []
    for variant in sorted(VARIANTS):
        env_id = gym_id(variant)
        counts = find_variant(variant).player_counts
        players = 4 if 4 in counts else counts[0]  # a table the variant is played at (Mille: 2)
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point="canasta.env.gym_env:CanastaGymEnv",
                         kwargs={"variant": variant, "players": players})
        ids.append(env_id)
    return ids


GYM_IDS = register_envs()
