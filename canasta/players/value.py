"""A linear value of a Classic-family position: the expected hand margin of one side.

ExpertPlayer's search stops its rollouts after a few actions and scores the position with
this value instead of playing the hand out (at the tables it was fitted at): a rollout to the end of the
hand varies with the draws by hundreds of points, a short rollout plus a value far less.

The value is linear in features of the *full* position (the sampled worlds of the search
are full positions), each the side's figure minus the opponents' mean: melded points,
natural and mixed canastas, melds of five or six and of three or four cards, points, cards,
wild cards and pairs in the side's hands, red threes, whether the side has opened, has a
canasta, and has a canasta with a player down to three cards or fewer, and red threes
held by a side that has not opened; and the pile's size, signed by whose turn it is, alone
and when frozen. Its weights are fitted by least squares to the final hand margins
(the side's hand score minus the opponents') of hands played by BasicPlayer with the
expert's style at every seat, at every start of a turn: ``python3 -m research.value_fit
--hands 3000 --seed 0`` prints them (the constant below was made by that command).

Values by name (:data:`VALUE_MODELS`, the name versioned with its features): ``linear-v1``, the
linear value above (the frozen baseline, level ``expert-v1``); ``linear-tables``, the same features with
weights fitted at each table of :data:`TABLE_WEIGHTS` (4-player Classic's are ``linear-v1``'s, 2-player
Classic's its own; the expert's default). A small network over richer features (``net-v2``) did not
measurably beat the linear weights and lives in ``research/net_value.py`` (docs/experiments.md, "Value leaves").

Hand and Foot, Triple Play and Modern American score a hand very differently from Classic (books of seven,
unplayed feet and knees, penalties for incomplete melds), so their positions are described by
:data:`SCORE_FEATURES` instead: the items of the hand's score if it ended now, and what the side holds and has
still to pick up, with weights fitted by the same command at each of those tables (:data:`SCORED_TABLE_WEIGHTS`,
part of ``linear-tables`` since 2026-11: docs/experiments.md, "Value leaves").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Protocol

import numpy as np

from canasta.cards import JOKER
from canasta.engine.american import AmericanGame
from canasta.engine.feet import FootGame
from canasta.engine.game import Game
from canasta.engine.setgame import SetMeldGame
from canasta.variants import find_variant
from canasta.variants.american import American
from canasta.variants.base import SideScore
from canasta.variants.hand_and_foot import HandAndFoot

_WILDS = (JOKER, 8, 9, 10, 11)

#: the features' names, in order (side figures are the side's minus the opponents' mean)
FEATURES = (
    "melded_points", "natural_canastas", "mixed_canastas", "melds_5_6", "melds_3_4",
    "hand_points", "hand_cards", "hand_wilds", "hand_pairs", "red_threes", "opened",
    "has_canasta", "canasta_and_short_hand", "red_threes_unopened",
    "pile_to_move", "frozen_pile_to_move",
)

#: fitted by ``python3 -m research.value_fit --hands 3000 --seed 0`` (see the module docstring)
WEIGHTS: tuple[float, ...] = (
    1.404, 427.57, 223.43, 67.043, 26.573, 0.423, -9.468, 84.894, 28.845, 125.408, 7.35,
    -4.733, 39.621, -18.604, 5.566, -2.2,
)  # R^2 on 500 fresh hands: 0.435


#: a table: the variant's name and the number of players
Table = tuple[str, int]
#: where ``linear-v1`` was fitted and measured
CLASSIC_FOUR: Table = ("classic", 4)
#: the :data:`FEATURES` weights fitted at each table (``linear-tables``), each by
#: ``python3 -m research.value_fit --variant V --players N --hands 3000 --seed 0`` with the expert's base
#: style of that variant; the R^2 is on 500 fresh hands (seed 1). Mille's (R^2 0.304) are left out: its
#: expert scored by them lost to the played-out rollouts (docs/experiments.md, "2026-11-26, `babd152`")
TABLE_WEIGHTS: dict[Table, tuple[float, ...]] = {
    CLASSIC_FOUR: WEIGHTS,
    ("classic", 2): (1.284, 405.84, 163.614, 44.864, -35.394, 1.379, -60.404, 111.631, 45.331, 131.905, -172.542,
                     -3.255, -8.36, -23.123, 4.41, -0.647),  # R^2 0.338
}

#: the :data:`SCORE_FEATURES` weights of Hand and Foot, Triple Play and Modern American with four players, each
#: fitted by ``python3 -m research.value_fit --variant V --players 4 --hands 3000 --seed 0``; R^2 on 500 fresh
#: hands
SCORED_TABLE_WEIGHTS: dict[Table, tuple[float, ...]] = {
    ("hand-and-foot", 4): (1.474, -0.336, 0.903, 0.665, 0.444, 0.944, 0.0, 0.0, 0.0, 309.924, 222.273, 31.232,
                           22.116, 66.734, 88.082, -239.701, 2.027),  # R^2 0.248
    # refitted on 2026-11-27, `1ae67ed` to hands of Modern American's own base style (AMERICAN_EXPERT_STYLE: the 2026-11-26, `0a14efe` run's settings
    # and the 2026-11-27, `1ae67ed` run's priced discards); the defaults' fit was (0.818, -2.634, 0.94, 1.194, 0, 0, 0.477, 0.362,
    # 0.191, 230.716, 77.506, -19.205, 2.335, 34.47, 0, 491.621, 2.996), R^2 0.26
    ("american", 4): (0.533, -3.063, 0.968, 1.196, -0.0, -0.0, 0.281, 0.371, 0.242, 173.066, 49.143, -14.764,
                      -19.677, 42.625, 0.0, 549.596, 2.415),  # R^2 0.188
    # refitted on 2026-11-27, `8e10827` to hands of Triple Play's own base style (TRIPLE_PLAY_EXPERT_STYLE); the defaults' fit,
    # which the search followed away from that style, was (-0.665, 0.498, 0.769, 0.976, 0.095, 0.783, 0, 0, 0,
    # 757.619, 494.504, 137.463, -248.661, -33.404, -85.242, -1104.978, 7.837), R^2 0.427
    ("triple-play", 4): (1.026, 0.321, 0.587, 0.233, 0.722, 0.981, 0.0, -0.0, 0.0, 563.154, 410.379, -3.663,
                         -62.37, 209.523, 199.727, -915.027, 8.329),  # R^2 0.238
}


def supports_table(variant: str, players: int) -> bool:
    """``linear-v1`` is fitted to, and measured on, Classic with four players in partnerships; other
    variants and tables score differently (their rollouts are played out, or ``linear-tables`` has weights
    of their own)."""
    return (variant, players) == CLASSIC_FOUR


def supports(game: Game) -> bool:
    """:func:`supports_table` for ``game``."""
    return supports_table(game.variant.name, game.num_players)


def _side_figures(game: Game, side: int) -> list[float]:
    values = game.variant.values
    melds = game.melds[side].values()
    sizes = [len(m.cards) for m in melds]
    melded = float(sum(values[c] for m in melds for c in m.cards))
    natural = sum(1 for m in melds if len(m.cards) >= 7 and m.wilds == 0)
    mixed = sum(1 for m in melds if len(m.cards) >= 7 and m.wilds > 0)
    points = cards = wilds = pairs = 0
    shortest = 99
    for seat in range(game.num_players):
        if game.side_of(seat) != side:
            continue
        hand = game.hands[seat]
        n = sum(hand)
        cards += n
        shortest = min(shortest, n)
        points += sum(values[c] * k for c, k in enumerate(hand) if k)
        wilds += sum(hand[c] for c in _WILDS)
        pairs += sum(1 for r in range(4, 15) if hand[4 * r] + hand[4 * r + 1] + hand[4 * r + 2] + hand[4 * r + 3] >= 2)
    red = len(game.red_threes[side])
    opened = 1.0 if game.opened[side] else 0.0
    canasta = 1.0 if natural + mixed else 0.0
    return [melded, natural, mixed, sum(1 for n in sizes if 5 <= n <= 6), sum(1 for n in sizes if n <= 4),
            points, cards, wilds, pairs, red, opened, canasta, canasta * (shortest <= 3), red * (1.0 - opened)]


def features(game: Game, side: int) -> list[float]:
    """:data:`FEATURES` of ``game`` for ``side``."""
    own = _side_figures(game, side)
    others = [_side_figures(game, s) for s in range(game.num_sides) if s != side]
    diff = [o - sum(f[i] for f in others) / len(others) for i, o in enumerate(own)]
    to_move = 1.0 if game.side_of(game.actor) == side else -1.0
    pile = len(game.pile) * to_move
    return [*diff, pile, pile if game.frozen else 0.0]


#: the features of a Hand and Foot, Triple Play or Modern American position (side figures are the side's minus
#: the opponents' mean): the items of the hand's score if it ended now (an unplayed knee or foot counts as cards
#: in hand; American's penalties for incomplete melds and for aces or sevens left in hand, and its threes, are
#: items of their own; an item a variant does not score is 0), the open melds of five or six and of three or four
#: cards, the cards, wild cards and pairs held, the knees and feet not yet picked up, whether the side has
#: opened, and the pile's size signed by whose turn it is
SCORE_FEATURES = (
    "melded_cards", "cards_in_hand", "natural_canastas", "mixed_canastas", "wild_canastas", "red_threes",
    "incomplete_melds", "aces_sevens_in_hand", "threes",
    "melds_5_6", "melds_3_4", "held_cards", "held_wilds", "held_pairs", "piles_to_pick_up", "opened",
    "pile_to_move",
)
_SCORE_ITEMS = SCORE_FEATURES[:9]
#: the games whose positions :data:`SCORE_FEATURES` describe (their hands score very differently from Classic's)
_SCORED_GAMES = (FootGame, AmericanGame)
_SCORED_VARIANTS = (HandAndFoot, American)


def _scored_side_figures(game: SetMeldGame, side: int, score: SideScore) -> list[float]:
    items = [float(score["items"].get(name, 0)) for name in _SCORE_ITEMS]
    sizes = [len(m.cards) for m in game.melds[side].values()]
    held = wilds = pairs = piles = 0
    for seat in range(game.num_players):
        if game.side_of(seat) != side:
            continue
        hand = game.hands[seat]
        held += sum(hand)
        wilds += sum(hand[c] for c in _WILDS)
        pairs += sum(1 for r in range(4, 15) if hand[4 * r] + hand[4 * r + 1] + hand[4 * r + 2] + hand[4 * r + 3] >= 2)
        if isinstance(game, FootGame):
            piles += (1 if game.knees[seat] else 0) + (1 if game.feet[seat] else 0)
    return [*items, sum(1 for n in sizes if 5 <= n <= 6), sum(1 for n in sizes if n <= 4), held, wilds, pairs,
            piles, 1.0 if game.opened[side] else 0.0]


def score_features(game: SetMeldGame, side: int) -> list[float]:
    """:data:`SCORE_FEATURES` of ``game`` for ``side``."""
    scores = game.score_sides(None)
    own = _scored_side_figures(game, side, scores[side])
    others = [_scored_side_figures(game, s, scores[s]) for s in range(game.num_sides) if s != side]
    diff = [o - sum(f[i] for f in others) / len(others) for i, o in enumerate(own)]
    return [*diff, len(game.pile) * (1.0 if game.side_of(game.actor) == side else -1.0)]


def table_features(game: Game, side: int) -> list[float]:
    """The features a linear value of ``game``'s family is fitted on: :data:`SCORE_FEATURES` in Hand and Foot,
    Triple Play and Modern American, :data:`FEATURES` elsewhere."""
    return score_features(game, side) if isinstance(game, _SCORED_GAMES) else features(game, side)


def feature_names(variant: str) -> tuple[str, ...]:
    """The names of :func:`table_features` in ``variant``."""
    return SCORE_FEATURES if issubclass(find_variant(variant), _SCORED_VARIANTS) else FEATURES


def value(game: Game, side: int, weights: Sequence[float] = WEIGHTS) -> float:
    """The expected hand margin of ``side`` (its hand score minus the opponents' mean)."""
    return float(np.dot(weights, table_features(game, side)))


class PositionValue(Protocol):
    """A learned value: the expected hand margin of ``side`` in the full position ``game``, at the
    tables it was fitted at (elsewhere the expert plays its rollouts out)."""

    def __call__(self, game: Game, side: int) -> float: ...

    def supports_table(self, variant: str, players: int) -> bool: ...


class LinearValue:
    """:func:`value` with weights fixed per table: ``linear-v1`` has only Classic with four players'
    (:data:`WEIGHTS`, the frozen baseline's), ``linear-tables`` every table of :data:`TABLE_WEIGHTS` and
    :data:`SCORED_TABLE_WEIGHTS` (over :func:`table_features`, which picks the features of the game's family)."""

    def __init__(self, weights: dict[Table, tuple[float, ...]] | None = None) -> None:
        self.weights = {CLASSIC_FOUR: WEIGHTS} if weights is None else dict(weights)

    def supports_table(self, variant: str, players: int) -> bool:
        return (variant, players) in self.weights

    def __call__(self, game: Game, side: int) -> float:
        return value(game, side, self.weights[game.variant.name, game.num_players])


#: the values by name; the name carries the version of the features the weights were fitted on
VALUE_MODELS: dict[str, Callable[[], PositionValue]] = {
    "linear-v1": LinearValue, "linear-tables": partial(LinearValue, TABLE_WEIGHTS | SCORED_TABLE_WEIGHTS),
}


@lru_cache(maxsize=8)
def load_value(name: str) -> PositionValue:
    """A value by name (:data:`VALUE_MODELS`), loaded once per process."""
    try:
        return VALUE_MODELS[name]()
    except KeyError:
        raise ValueError(f"unknown value {name!r}; known: {', '.join(sorted(VALUE_MODELS))}") from None
