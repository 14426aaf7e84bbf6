"""One episode over an engine game, shared by the environments: how long it lasts, what each action
earns, when it is cut short (canasta.env.rewards documents the rewards).

An episode is ``hands`` hands (``hands=0``: the whole game, in every environment). The last hand of
an episode ends without the next deal, so the final observation shows the finished hand. ``max_steps``
actions truncate it: the side to act forfeits (:func:`canasta.env.rewards.forfeit_rewards`).
``max_hands`` caps a whole game (OpenSpiel's games need a bounded length): it then ends as it stands.

An episode keeps what an environment computed for the position (its legal actions' indices, OpenSpiel's
strings) until the next :meth:`Episode.push`: change the game only through ``push`` (a resample changes a
fresh copy, which starts without them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.env.rewards import (
    DEFAULT_REWARD_SCALE,
    check_reward_mode,
    episode_end_rewards,
    forfeit_rewards,
    hand_rewards,
    stop_after_hand,
)


class Episode:
    """The game of one episode and its running per-seat returns."""

    def __init__(self, game: Game, hands: int = 1, max_steps: int = 20_000, reward: str = "margin",
                 reward_scale: float = DEFAULT_REWARD_SCALE, max_hands: int | None = None) -> None:
        if hands < 0:
            raise ValueError(f"hands is a number of hands, or 0 for the whole game, not {hands}")
        if max_steps < 1:
            raise ValueError(f"max_steps must be positive, not {max_steps}")
        self.game = game
        self.hands = hands
        self.max_steps = max_steps
        self.reward = check_reward_mode(reward)
        self.reward_scale = reward_scale
        #: a whole game (``hands=0``) ends after this many hands if no side has won (OpenSpiel bounds its games)
        self.max_hands = max_hands
        self.start_results = len(game.hand_results)
        self.steps = 0
        self.terminated = game.is_over
        self.truncated = False
        self.returns = [0.0] * game.num_players
        #: index -> legal action of the position, for the environment that encodes them (canasta.encoding's
        #: legal_indices): emptied by every push and in every copy
        self.legal: dict[int, Action] | None = None
        #: texts of the position (OpenSpiel's observation and information-state strings), by the environment's
        #: key: emptied by every push and in every copy, as ``legal``
        self.texts: dict[Any, str] = {}
        self._arm()

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def hands_played(self) -> int:
        return len(self.game.hand_results) - self.start_results

    def _arm(self) -> None:
        """Entering the episode's last hand: let it end without dealing the next one."""
        limit = self.hands or self.max_hands
        if limit and self.hands_played() == limit - 1:
            stop_after_hand(self.game)

    def push(self, action: Action) -> list[float]:
        """Play one legal action; every seat's reward for it."""
        if self.done:
            raise RuntimeError("the episode is over")
        g = self.game
        before = len(g.hand_results)
        self.legal = None
        self.texts = {}
        g.push(action)
        return self._after(before, count_step=True)

    def count_idle_step(self) -> list[float]:
        """A step that played nothing (an illegal action refused with a penalty): it counts towards
        ``max_steps``, so that refusing forever ends in a forfeit too."""
        return self._after(len(self.game.hand_results), count_step=True)

    def _after(self, results_before: int, count_step: bool) -> list[float]:
        g = self.game
        self.steps += count_step
        rewards = [0.0] * g.num_players
        if len(g.hand_results) > results_before:
            if self.reward == "margin":
                rewards = hand_rewards(g, results_before, self.reward_scale)
            limit = self.hands or self.max_hands
            if g.is_over or (limit and self.hands_played() >= limit):
                self.terminated = True
                rewards = [r + e for r, e in zip(rewards, episode_end_rewards(g, self.start_results, self.reward),
                                                  strict=True)]
            else:
                self._arm()
        if not self.terminated and self.steps >= self.max_steps:
            self.truncated = True
            forfeit = forfeit_rewards(g, g.actor, self.reward, self.reward_scale)
            rewards = [r + f for r, f in zip(rewards, forfeit, strict=True)]
        self.returns = [t + r for t, r in zip(self.returns, rewards, strict=True)]
        return rewards

    def copy(self) -> Episode:
        new = Episode.__new__(Episode)
        new.__dict__.update(self.__dict__)
        new.game = self.game.copy()
        new.returns = list(self.returns)
        new.legal = None
        new.texts = {}
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        # OpenSpiel's State.clone() deep-copies a Python state's attributes: the engine's copy is that deep copy
        return self.copy()


def render_by_mode(render_mode: str | None, text: Callable[[], str]) -> str | None:
    """Gymnasium's render conventions, shared by the Gymnasium and PettingZoo environments: no mode
    renders nothing (with a warning), "human" prints, "ansi" returns the text."""
    if render_mode is None:
        import gymnasium  # only the environments that have Gymnasium render

        gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human' to the constructor")
        return None
    if render_mode == "human":
        print(text())
        return None
    return text()
