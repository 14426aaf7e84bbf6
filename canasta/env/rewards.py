"""Rewards shared by the environments (PettingZoo, Gymnasium, OpenSpiel): one meaning, one scale.

``reward="margin"`` (the default): at the end of each hand every seat gets ``reward_scale`` times its
side's hand score minus the mean hand score of all sides (zero-sum). The default scale,
:data:`DEFAULT_REWARD_SCALE` = 0.01, counts in hundreds of points in every environment.

``reward="win"``: at the end of the episode, the sides with the highest total over the episode's hands
share a win: with ``n`` sides, a sole winner gets +1 and every other side -1/(n-1) (+1 and -1 with two
sides; zero-sum; a tie shares it). ``reward_scale`` does not apply.

**Truncation.** An episode cut short (``max_steps``, or OpenSpiel's ``max_game_length``) is scored as
a forfeit of the side to act: a hand only runs on while someone keeps acting (a meld taken back again
and again), so the side to act is the one stalling. In margin mode the truncated hand counts as though
that side scored ``-bound`` and every other side ``+bound``, where ``bound`` (:func:`hand_margin_bound`)
is larger than any side's score in one hand, so a forfeit is never better for the staller than any
finished hand; in win mode the forfeiting side loses (-1/(n-1) ... as above, the others share the win).
Hands finished before the truncation keep their rewards.
"""

from __future__ import annotations

from typing import Any

from canasta.engine.game import Game

REWARD_MODES = ("margin", "win")
DEFAULT_REWARD_SCALE = 0.01
#: No card moves a side's score in one hand by this many points or more (its value, its share of a
#: canasta or book bonus, of a red-three bonus or penalty, of a special hand or an incomplete-meld penalty:
#: the largest, Modern American's 2,500 for an unfinished meld of aces or sevens, is 833 a card).
POINTS_PER_CARD_BOUND = 1000


def check_reward_mode(reward: str) -> str:
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
    return reward


def hand_margin_bound(game: Game) -> int:
    """Points no side's score in one hand of this game reaches (in absolute value)."""
    return POINTS_PER_CARD_BOUND * len(game.variant.deck())


def reward_bound(game: Game, reward: str, scale: float, hands: int) -> float:
    """The largest absolute reward one seat can get over an episode of ``hands`` hands."""
    if reward == "win":
        return 1.0
    sides = game.num_sides
    return 2 * hand_margin_bound(game) * (sides - 1) / sides * scale * hands


def normalized_reward_scale(variant: str, players: int, rules: dict[str, Any] | None = None, hands: int = 1) -> float:
    """The ``reward_scale`` under which every margin reward of an episode of ``hands`` hands, a forfeit included,
    lies within [-1, 1] (:func:`reward_bound` is 1). The default scale (0.01) counts in hundreds of points:
    a hand's margin is then a few units while a forfeit is about ``bound / 100`` (1,080 in Classic); this scale
    puts the forfeit at 1 and a typical hand near 0.005 (use ``reward="win"`` for a win/loss signal)."""
    game = Game(variant, players, 0, rules or {})
    return 1.0 / reward_bound(game, "margin", 1.0, max(hands, 1))


def hand_rewards(game: Game, hand_results_before: int, scale: float) -> list[float]:
    """Per seat: ``scale`` * (own side's score in the hands finished since, minus the sides' mean)."""
    return _spread(game, episode_totals(game, hand_results_before), scale)


def episode_totals(game: Game, hand_results_before: int) -> list[float]:
    """Per side: its score in the hands finished since ``hand_results_before``."""
    totals = [0.0] * game.num_sides
    for result in game.hand_results[hand_results_before:]:
        for s, score in enumerate(_hand_totals(result)):
            totals[s] += score
    return totals


def win_rewards(game: Game, totals: list[float]) -> list[float]:
    """Per seat: the win/loss reward of the sides' episode ``totals`` (see the module docstring)."""
    top = max(totals)
    winners = sum(1 for t in totals if t == top)
    share = [1.0 / winners if t == top else 0.0 for t in totals]
    n = len(totals)
    mean = sum(share) / n
    return [(share[game.side_of(seat)] - mean) * n / (n - 1) for seat in range(game.num_players)]


def episode_end_rewards(game: Game, hand_results_before: int, reward: str) -> list[float]:
    """Per seat, at the end of an episode that began with ``hand_results_before`` results: the win mode's
    reward (the margin mode pays at each hand's end instead, so nothing more here)."""
    if reward != "win":
        return [0.0] * game.num_players
    return win_rewards(game, episode_totals(game, hand_results_before))


def forfeit_rewards(game: Game, seat: int, reward: str, scale: float) -> list[float]:
    """Per seat, when the episode is truncated with ``seat`` to act (see the module docstring)."""
    bound = float(hand_margin_bound(game))
    forfeiting = game.side_of(seat)
    totals = [-bound if s == forfeiting else bound for s in range(game.num_sides)]
    if reward == "win":
        return win_rewards(game, totals)
    return _spread(game, totals, scale)


def _spread(game: Game, totals: list[float], scale: float) -> list[float]:
    mean = sum(totals) / len(totals)
    return [scale * (totals[game.side_of(seat)] - mean) for seat in range(game.num_players)]


def _hand_totals(result: Any) -> list[int]:
    """The per-side totals of one entry of ``Game.hand_results``."""
    if isinstance(result, dict):
        sides = result.get("sides")
        if isinstance(sides, list):
            return [int(s["total"]) for s in sides]
    raise ValueError(f"unexpected hand result {result!r}")


def stop_after_hand(game: Game) -> None:
    """Let the hand being played end without the next deal, so that the episode's last observation shows
    the finished hand (its melds, the cards left in the hands) rather than a fresh deal. The soak's final-
    table check suppresses the deal the same way (the engine's ``deals_next_hand``)."""
    game.deals_next_hand = False
