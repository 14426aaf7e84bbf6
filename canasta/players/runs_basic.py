"""Rule-following play for variants with meld ids, sets and runs (Burraco).

:class:`~canasta.players.basic.BasicPlayer` and the expert hand such observations
here. A plain heuristic, deterministic given the observation:

- start of turn: take the pile when it holds three or more cards, or when its top
  card goes on one of the side's melds or makes a meld with the hand; else draw;
- then put cards on the table: additions that make a burraco first, then new melds
  and additions of natural cards; a wild card only to start a meld or to complete
  a burraco (Burraco allows one per meld, so it is kept for where it counts);
- discard the card the hand needs least: never a wild card if another will do, and
  a card with no neighbour (same rank, or same suit one or two apart) before one
  that has; higher values first (they count against the side if the hand ends).
"""

from __future__ import annotations

from typing import Any

from canasta.cards import JOKER, NUM_CODES, parse_card
from canasta.engine.actions import ADD, DISCARD, DRAW, END, MELD, NO, RETRACT, TAKE, YES, Action
from canasta.notation import ID_BASE
from canasta.runs import arrange_run, is_wild
from canasta.variants import find_variant


def _counts(cards: list[str]) -> list[int]:
    out = [0] * NUM_CODES
    for t in cards:
        out[parse_card(t)] += 1
    return out


def _neighbours(hand: list[int], c: int) -> int:
    if is_wild(c):
        return 0
    r, s = c >> 2, c & 3
    n = sum(hand[r * 4 + x] for x in range(4)) - 1
    for d in (-2, -1, 1, 2):
        rr = r + d
        if rr == 1:
            rr = 14
        if 2 <= rr <= 14:
            n += 1 if hand[rr * 4 + s] else 0
    return n


def choose_runs(obs: dict[str, Any], legal: list[Action]) -> tuple[Action, str]:
    """The action for a meld-id variant's observation, and a one-line reason."""
    if len(legal) == 1:
        return legal[0], "only choice"
    if getattr(find_variant(obs["variant"]), "CLASSIC_TURN", False):
        return _choose_classic_turn(obs, legal)
    hand = _counts(obs["hand"])
    side = obs["side"]
    own = {m["id"]: [parse_card(t) for t in m["cards"]] for m in obs["melds"][side]}
    size = sum(hand)
    if obs["phase"] == "draw":
        take = Action(TAKE)
        if take in legal and obs["pile"]:
            top = parse_card(obs["pile_top"])
            if obs["pile_size"] >= 3:
                return take, "a big pile is worth taking"
            if not is_wild(top) and _top_fits(hand, own, top):
                return take, "the top card fits my melds"
            if is_wild(top):
                return take, "a wild card is worth taking"
        return (Action(DRAW) if Action(DRAW) in legal else legal[0]), "draw from the stock"
    burraco = find_variant(obs["variant"]).CANASTA_SIZE  # type: ignore[attr-defined]
    melds = [a for a in legal if a.kind in (MELD, ADD)]
    best: tuple[int, Action] | None = None
    for a in melds:
        wild = any(is_wild(c) for c in a.cards)
        if a.kind == ADD:
            m = own.get(a.target - ID_BASE, [])
            makes = len(m) + 1 >= burraco > len(m)
            score = 100 if makes else (40 if not wild else -1)
        else:
            score = 50 if not wild else 10
        if size - len(a.cards) < 2 and obs["piles_taken"][side] and score < 100:
            score = -1  # keep cards to be able to close with a discard
        if score > 0 and (best is None or score > best[0]):
            best = (score, a)
    if best is not None:
        return best[1], "put cards on the table"
    discards = [a for a in legal if a.kind == DISCARD]
    if not discards:
        return legal[0], "no discard possible"

    def cost(a: Action) -> tuple[int, int, int]:
        c = a.cards[0]
        return (1 if is_wild(c) else 0, _neighbours(hand, c), -_value(c))

    pick = min(discards, key=cost)
    return pick, "discard what I need least"


def _value(c: int) -> int:
    if c == JOKER:
        return 30
    r = c >> 2
    return 20 if r == 2 else 15 if r == 14 else 10 if r >= 8 else 5


def _top_fits(hand: list[int], own: dict[int, list[int]], top: int) -> bool:
    r, s = top >> 2, top & 3
    if sum(hand[r * 4 + x] for x in range(4)) >= 2:
        return True
    for cards in own.values():
        nat = [c for c in cards if not is_wild(c)]
        if nat and all(c >> 2 == r for c in nat):
            return True
        if arrange_run([*cards, top]) is not None and len({c & 3 for c in nat}) == 1 and (nat[0] & 3) == s:
            return True
    return False


def _choose_classic_turn(obs: dict[str, Any], legal: list[Action]) -> tuple[Action, str]:
    """Samba: take the pile whenever allowed; meld naturals, wild cards only on sets that become
    canastas; retract an initial meld that cannot reach the minimum; never ask to go out, and answer
    'yes' only with few points in hand."""
    hand = _counts(obs["hand"])
    if obs["phase"] == "answer":
        points = sum(_value(c) * k for c, k in enumerate(hand) if k)
        return (Action(YES), "few points in my hand") if points <= 60 else (Action(NO), "too many points in my hand")
    if obs["phase"] == "draw":
        takes = [a for a in legal if a.kind == TAKE]
        if takes:
            return takes[0], "the pile is worth taking"
        for a in legal:
            if a.kind in (DRAW, END):
                return a, "draw from the stock" if a.kind == DRAW else "the stock is used up"
        return legal[0], "only choice"
    side = obs["side"]
    own = {m["id"]: [parse_card(t) for t in m["cards"]] for m in obs["melds"][side]}
    size = sum(hand)
    best: tuple[int, Action] | None = None
    # Before the initial meld: start only if the sets in hand can reach the minimum (else a retract
    # follows, and the same melds again and again).
    hopeless = not obs["opened"][side] and not obs["pending_value"] and \
        _set_potential(hand) < obs["minimum"][side]
    for a in legal:
        if a.kind not in (MELD, ADD) or hopeless:
            continue
        wild = any(is_wild(c) for c in a.cards)
        if a.kind == ADD:
            m = own.get(a.target - ID_BASE, [])
            makes = len(m) + 1 >= 7 > len(m)
            score = 100 if makes else (40 if not wild else -1)
        else:
            score = 50 if not wild else 10
        if wild and size <= 3:
            score = max(score, 5)  # getting rid of the last cards
        if score > 0 and (best is None or score > best[0]):
            best = (score, a)
    if best is not None:
        return best[1], "put cards on the table"
    for kind, why in ((RETRACT, "my initial meld cannot reach the minimum"),
                      (END, "the stock ended on a red three")):
        if any(a.kind == kind for a in legal):
            return Action(kind), why
    discards = [a for a in legal if a.kind == DISCARD]
    if not discards:
        return legal[0], "no discard possible"

    def cost(a: Action) -> tuple[int, int, int]:
        c = a.cards[0]
        black_three = c in (12, 15)
        return (1 if is_wild(c) else 0, -1 if black_three else _neighbours(hand, c), -_value(c))

    return min(discards, key=cost), "discard what I need least"


def _set_potential(hand: list[int]) -> int:
    """Points of the sets the hand could meld at once (three naturals or more of a rank, or two
    and up to the wild cards held): an estimate for the initial meld."""
    wilds = [c for c in range(NUM_CODES) for _ in range(hand[c]) if is_wild(c)]
    wilds.sort(key=_value, reverse=True)
    total = 0
    pairs: list[int] = []
    for r in range(4, 15):
        n = sum(hand[r * 4 + x] for x in range(4))
        if n >= 3:
            total += n * _value(r * 4)
        elif n == 2:
            pairs.append(2 * _value(r * 4))
    pairs.sort(reverse=True)
    for p, w in zip(pairs, wilds, strict=False):
        total += p + _value(w)
    return total
