"""A meld with an id and a kind (a set or a run): the melds of the variants with ``MELD_IDS``.

Its own module, below :mod:`canasta.engine.idmelds` (Burraco's rules) and
:mod:`canasta.engine.idturn` (Classic's turn on meld ids, the Samba family), which both make them.
"""

from __future__ import annotations

from typing import Any

from canasta.cards import format_cards
from canasta.engine.setmeld import Meld
from canasta.runs import is_wild


class IdMeld(Meld):
    """A meld with an id and a kind: a ``set`` of one rank or a ``run`` of one suit.

    ``cards`` are in table order (a run from its low end up); ``wild_index`` is the
    position of the card that plays wild in a run (-1: none); ``wilds`` counts wild
    cards (a 2 playing its natural value in a run is not one), ``naturals`` the others. A :class:`Meld`
    (cards, rank, wilds) for the core's steps, which treat every family's melds alike.
    """

    __slots__ = ("id", "kind", "low", "suit", "wild_index")

    # (every argument has a default: copy.deepcopy and pickle build the compiled class without arguments)
    def __init__(self, meld_id: int = 0, kind: str = "set", cards: tuple[int, ...] | list[int] = (), wild_index: int = -1,
                 low: int = 0) -> None:
        self.id = meld_id
        self.kind = kind
        self.cards = list(cards)
        self.wild_index = wild_index
        self.low = low
        if kind == "set":
            nat = [c for c in cards if not is_wild(c)]
            self.rank = nat[0] >> 2 if nat else 0
            self.suit = -1
            self.wilds = len(cards) - len(nat)
        else:
            self.rank = 0
            self.suit = next(c & 3 for i, c in enumerate(cards) if i != wild_index)
            self.wilds = 1 if wild_index >= 0 else 0
        self.naturals = len(self.cards) - self.wilds

    def copy(self) -> IdMeld:
        m = IdMeld()  # the cheapest construction: every field is set below
        m.id, m.kind, m.cards, m.wild_index = self.id, self.kind, list(self.cards), self.wild_index
        m.low, m.rank, m.suit, m.wilds, m.naturals = self.low, self.rank, self.suit, self.wilds, self.naturals
        return m

    def to_list(self) -> list[Any]:
        return [self.id, self.kind, list(self.cards), self.wild_index, self.low]

    @classmethod
    def from_list(cls, item: list[Any]) -> IdMeld:
        meld_id, kind, cards, wild_index, low = item
        if kind not in ("set", "run"):
            raise ValueError(f"unknown meld kind {kind!r}")
        return cls(int(meld_id), kind, [int(c) for c in cards], int(wild_index), int(low))

    def describe(self) -> str:
        return f"#{self.id} " + format_cards(self.cards)
