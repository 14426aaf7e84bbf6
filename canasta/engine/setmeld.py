"""A set meld (:class:`Meld`: cards of one rank plus wild cards) and the hand helpers on set melds.

The set-meld families (Classic and its relatives, Modern American, Hand and Foot) keep their melds as
:class:`Meld` s keyed by rank; :data:`WILD_RANK` is the pseudo-rank of a meld made only of wild cards.
Its own module, below :mod:`canasta.engine.game`, :mod:`canasta.engine.setrules` and
:mod:`canasta.engine.feet`, which all use it; ``canasta.engine.game`` re-exports these names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.cards import JOKER, TWO
from canasta.runs import is_wild

if TYPE_CHECKING:
    from canasta.variants.classic import Classic

WILD_RANK = 1  # pseudo-rank of a meld made only of wild cards (table-rule option)
_NATURAL_RANKS = range(4, 15)
_TWO_CODES = (8, 9, 10, 11)


class Meld:
    """A meld on the table: cards of one rank plus wild cards."""

    __slots__ = ("cards", "naturals", "rank", "wilds")

    # (every argument has a default: copy.deepcopy and pickle build the compiled class without arguments)
    def __init__(self, rank: int = 0, cards: list[int] | None = None) -> None:
        self.rank = rank
        self.cards: list[int] = []
        self.naturals = 0
        self.wilds = 0
        for c in cards or ():
            self.put(c)

    def put(self, code: int) -> None:
        self.cards.append(code)
        if is_wild(code) and self.rank != WILD_RANK:
            self.wilds += 1
        else:
            self.naturals += 1

    @property
    def size(self) -> int:
        return len(self.cards)

    def copy(self) -> Meld:
        m = Meld(self.rank)
        m.cards = list(self.cards)
        m.naturals = self.naturals
        m.wilds = self.wilds
        return m


def wild_mixes(hand: list[int], n: int) -> list[tuple[int, ...]]:
    """Every choice of ``n`` wild cards from ``hand``: each count of jokers held with 2s for the rest. A 2
    stands for every 2 (suits of wild cards never matter), but a joker and a 2 differ (their values, and
    American's pure-deuces canasta), so each mix is a move of its own."""
    twos = [c for c in _TWO_CODES for _ in range(hand[c])]
    return [(JOKER,) * jokers + tuple(twos[:n - jokers])
            for jokers in range(max(0, n - len(twos)), min(n, hand[JOKER]) + 1)]


def max_meld_value(v: Classic, counts: list[int], exclude_rank: int) -> int:
    """An upper bound on the points the hand could meld now (for the initial-meld take check)."""
    jokers = counts[JOKER]
    twos = sum(counts[c] for c in _TWO_CODES)
    total = 0
    pairs: list[int] = []
    for r in _NATURAL_RANKS:
        base = r * 4
        n = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
        if r == exclude_rank:
            total += n * v.values[base]  # joins the meld with the top card
            continue
        if n >= 3:
            total += n * v.values[base]
        elif n == 2:
            pairs.append(2 * v.values[base])
    wilds = jokers + twos
    pairs.sort(reverse=True)
    total += sum(pairs[:wilds])
    return total + jokers * v.values[JOKER] + twos * v.values[TWO * 4]
