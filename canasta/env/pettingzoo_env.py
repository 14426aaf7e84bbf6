"""A native PettingZoo AEC environment for every registered variant.

>>> from canasta.env.pettingzoo_env import env
>>> e = env(variant="classic", players=4)   # wrapped as PettingZoo's classic environments are
>>> e.reset(seed=1)
>>> obs, reward, term, trunc, info = e.last()
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> e.step(action)

``env(**kwargs)`` returns :class:`CanastaEnv` wrapped in PettingZoo's standard wrappers, as its
classic environments are: ``TerminateIllegalWrapper`` (an illegal action ends the episode with
``illegal_reward``, -1.0, for the agent that took it), ``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper``; ``raw_env(**kwargs)`` (or ``CanastaEnv``) is the bare environment,
on which an illegal action raises ValueError.

Agents are ``player_0`` .. ``player_{n-1}`` (seats). Each observation is a dict
``{"observation": float32[obs_size(variant, players)], "action_mask": int8[num_actions(variant)]}`` computed
from ``Game.observation(seat)`` only (canasta.encoding; docs/research.md), bounded by
``canasta.encoding.obs_bounds`` and encoded at most once per agent and step. The agent to act is
the engine's ``actor``: turns are atomic steps, and "may I go out?" hands one decision to the
partner, so the order is not a fixed cycle.

Episodes, rewards and truncation as in canasta.env.episode and canasta.env.rewards: ``hands``
hands (0: the whole game), ``reward="margin"`` (at the end of each hand, ``reward_scale`` (0.01)
times the side's hand score minus the sides' mean; zero-sum) or ``"win"``, and a forfeit of the
side to act when ``max_steps`` actions truncate the episode. The last observation of an episode
shows the finished hand.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from canasta.encoding import action_mask, describe_index, encode_position, legal_indices, num_actions, obs_bounds
from canasta.engine.game import Game
from canasta.env.episode import Episode, render_by_mode
from canasta.env.rewards import DEFAULT_REWARD_SCALE, check_reward_mode
from canasta.notation import format_action

#: The reward of an illegal action under ``env()``'s TerminateIllegalWrapper.
ILLEGAL_ACTION_REWARD = -1.0


class CanastaEnv(AECEnv):  # type: ignore[misc,unused-ignore]
    """PettingZoo AEC environment; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "canasta_v0",
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, variant: str = "classic", players: int = 4, rules: dict[str, Any] | None = None,
                 hands: int = 1, max_steps: int = 20_000, reward: str = "margin",
                 reward_scale: float = DEFAULT_REWARD_SCALE, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.variant = variant
        self.players = players
        self.rules = dict(rules or {})
        self.hands = hands
        self.max_steps = max_steps
        self.reward = check_reward_mode(reward)
        self.reward_scale = reward_scale
        self.render_mode = render_mode
        self.game = Game(variant, players, 0, self.rules)  # validates the parameters
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._low, self._high = obs_bounds(variant, players, self.rules)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(self._low, self._high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions(variant),), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions(variant)) for a in self.possible_agents}
        self._seeder = random.Random()
        self.episode = Episode(self.game, hands, max_steps, self.reward, reward_scale)
        self._cache: dict[str, dict[str, Any]] = {}
        self._legal: dict[int, Any] | None = None

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
        self.episode = Episode(self.game, self.hands, self.max_steps, self.reward, self.reward_scale)
        self._cache, self._legal = {}, None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.actor]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation, encoded once per step (``last()`` and the wrappers ask again)."""
        cached = self._cache.get(agent)
        if cached is not None:
            return cached
        seat = self._index[agent]
        vector = encode_position(self.game, seat)
        np.minimum(vector, self._high, out=vector)  # clipped to the bounds: the ufuncs skip np.clip's wrapper
        np.maximum(vector, self._low, out=vector)
        if not self.episode.done and self.game.actor == seat:
            mask = action_mask(self._legal_now(), self.variant)
        else:
            mask = np.zeros(num_actions(self.variant), dtype=np.int8)
        self._cache[agent] = obs = {"observation": vector, "action_mask": mask}
        return obs

    def _legal_now(self) -> dict[int, Any]:
        """Index -> legal action of the agent to act, computed once per step."""
        if self._legal is None:
            self._legal = legal_indices(self.game.legal_actions(), self.variant)
        return self._legal

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        if action is None:
            raise ValueError(f"{agent} must act: pass an action index")
        chosen = self._legal_now().get(int(action))
        if chosen is None:
            raise ValueError(f"action index {int(action)} ({describe_index(int(action), self.variant)}) is not legal here")
        rewards = self.episode.push(chosen)
        self._cache, self._legal = {}, None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: rewards[self._index[a]] for a in self.agents}
        if self.episode.terminated:
            self.terminations = {a: True for a in self.agents}
        elif self.episode.truncated:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        if not self.episode.done:
            self.agent_selection = self.possible_agents[game.actor]
        if self.render_mode == "human":
            print(self._text())

    def _text(self) -> str:
        g = self.game
        if g.history:
            seat, a, _ = g.history[-1]
            last = f"seat {seat}: {format_action(a)}"
        else:
            last = "new game"
        to_act = "hand over" if self.episode.done else f"to act: seat {g.actor}"
        return (f"hand {g.hand_no}, {last}; scores {g.scores}; stock {len(g.stock)}, pile {len(g.pile)}; {to_act}")

    def render(self) -> str | None:
        return render_by_mode(self.render_mode, self._text)

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> CanastaEnv:
    """The bare environment (an illegal action raises ValueError)."""
    return CanastaEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment in PettingZoo's standard wrappers (see the module docstring)."""
    wrapped: Any = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_ACTION_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
