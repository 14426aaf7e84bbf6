"""Sequence melds (runs): arranging cards of one suit in order, with at most one wild card.

Pure functions shared by the engine (validity of ``meld``/``add`` on a run), the
scorekeeper and the clients. A run is stored as its cards in order from the low
end to the high end plus the index of the card that plays as a wild card (-1 if
none), so a 2 of the run's suit is either its natural value or the wild card.

The arrangement of a run is a function of its cards alone (the canonical
arrangement), which gives Burraco's placement rules for free: a wild card that
does not fill an inside gap stands at the low end (at the high end only when the
run already starts with a low ace); a natural card for the value a wild card
stands for takes its place and the wild card goes back to the low end; a 2 of
the suit is natural unless the run needs it as its wild card.
"""

from __future__ import annotations

from collections.abc import Iterable

from canasta.cards import JOKER, is_wild_card

ACE = 14
#: Values of a run position: 1 is the ace played low, 14 the ace played high.
LOW_ACE, HIGH_ACE = 1, 14


#: A joker or a 2 (the name the meld-shape code has always used).
is_wild = is_wild_card


#: (cards from the low end up, index of the wild card or -1, value of the lowest position)
Arrangement = tuple[tuple[int, ...], int, int]


def arrange_run(cards: Iterable[int], max_wilds: int = 1) -> Arrangement | None:
    """The canonical arrangement of ``cards`` as one run, or None if they are not a run.

    A run is three or more cards of one suit in consecutive order; the ace plays
    high or low but a run holds one ace at most (so never both ends); at most
    ``max_wilds`` (Burraco: one) joker or 2 stands for a missing card. A 2 of the
    run's suit is preferably its natural value. Returns ``(ordered cards, index
    of the wild card or -1, value of the low end)``. Only ``max_wilds`` of 0 or 1
    are supported.
    """
    cs = list(cards)
    if len(cs) < 3:
        return None
    jokers = cs.count(JOKER)
    suited = [c for c in cs if c != JOKER and not 8 <= c <= 11]
    twos = [c for c in cs if 8 <= c <= 11]
    if not suited:
        return None
    suit = suited[0] & 3
    if any(c & 3 != suit for c in suited):
        return None
    if jokers > max_wilds:
        return None
    # Which card plays wild: none, the joker, or one of the 2s (natural first).
    choices: list[int | None] = []
    if jokers:
        choices.append(JOKER)
    else:
        choices.append(None)
        if max_wilds:
            seen: set[int] = set()
            for t in sorted(twos, key=lambda c: (c & 3) == suit):  # off-suit 2s first: they can only be wild
                if t not in seen:
                    seen.add(t)
                    choices.append(t)
    for wild in choices:
        naturals = list(suited)
        rest_twos = list(twos)
        if wild is not None and wild != JOKER:
            rest_twos.remove(wild)
        if any(t & 3 != suit for t in rest_twos):
            continue
        naturals.extend(rest_twos)
        got = _place(naturals, wild)
        if got is not None:
            return got
    return None


def _place(naturals: list[int], wild: int | None) -> Arrangement | None:
    aces = [c for c in naturals if c >> 2 == ACE]
    if len(aces) > 1:
        return None
    others = [c >> 2 for c in naturals if c >> 2 != ACE]
    ace_values = (HIGH_ACE, LOW_ACE) if aces else (0,)
    for av in ace_values:
        values = others + ([av] if aces else [])
        if len(set(values)) != len(values):
            continue
        lo, hi = min(values), max(values)
        gaps = hi - lo + 1 - len(values)
        wild_value = 0
        if wild is None:
            if gaps:
                continue
        else:
            if gaps > 1:
                continue
            if gaps == 1:
                present = set(values)
                wild_value = next(x for x in range(lo, hi + 1) if x not in present)
            elif lo > LOW_ACE:
                wild_value = lo - 1
            elif hi < HIGH_ACE:
                wild_value = hi + 1
            else:
                continue
            lo, hi = min(lo, wild_value), max(hi, wild_value)
        if lo == LOW_ACE and hi == HIGH_ACE:
            continue  # one ace per run: never an ace (or a wild ace) at both ends
        by_value = {(av if c >> 2 == ACE else c >> 2): c for c in naturals}
        order: list[int] = []
        wild_index = -1
        for x in range(lo, hi + 1):
            if x == wild_value and wild is not None:
                wild_index = len(order)
                order.append(wild)
            else:
                order.append(by_value[x])
        return tuple(order), wild_index, lo
    return None


def set_problem(cards: Iterable[int], max_wilds: int = 1) -> str | None:
    """Why ``cards`` are not one set (three or more of a rank, at most ``max_wilds`` wild cards), or None."""
    cs = list(cards)
    wild = [c for c in cs if is_wild(c)]
    nat = [c for c in cs if not is_wild(c)]
    if len(cs) < 3:
        return "a meld needs at least three cards"
    if not nat:
        return "there is no set of jokers or 2s"
    if len({c >> 2 for c in nat}) > 1:
        return "a set is cards of one rank"
    if len(wild) > max_wilds:
        return f"a meld may hold only {max_wilds} wild card" + ("s" if max_wilds != 1 else "")
    return None
