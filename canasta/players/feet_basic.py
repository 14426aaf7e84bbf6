"""Rule-following play for Hand and Foot (variants with ``FEET``).

:class:`~canasta.players.basic.BasicPlayer` hands such observations here. A plain
heuristic, deterministic given the observation:

- the hand-passing deal (table rule ``hand_passing``): the pile not kept goes to the
  player on the left (an opponent in partnerships, the next player alone), so keep as
  the foot the pile whose turned-up card is worth more (:func:`keep_value`) and pass the other;
- answer "may I go out?" yes; at the start of a turn take the pile when it can be
  taken (a natural pair before a wild card), else draw two;
- below the opening minimum: the basic player's opening plan (fewest cards), or
  take the melds back when the minimum cannot be reached;
- once open: natural cards onto melds, new natural melds, a meld of wild cards while
  the side lacks its wild piles (or has fewer than the style's ``wild_books``), wild cards onto the wild meld, and wild cards onto a
  meld of four or more while dirty piles are missing;
- in the foot, with the books made and the partner (both, in teams of three) in the foot:
  ask to go out;
- discard the card the hand needs least: a black three, then a single card of the
  lowest value (the style's ``keep_ranks`` after every other natural card), a wild card
  only when nothing else is left.

The judgement calls are numbers of a :class:`FeetStyle` (the expert's base policy plays
:data:`HAND_AND_FOOT_EXPERT_STYLE` in Hand and Foot and :data:`TRIPLE_PLAY_EXPERT_STYLE` in Triple Play).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from canasta.cards import JOKER, parse_card
from canasta.engine.actions import (
    ADD,
    ASK,
    DISCARD,
    DRAW,
    END,
    KEEP,
    MELD,
    NO_ACTION,
    RETRACT,
    TAKE,
    YES_ACTION,
    Action,
)


@dataclass(frozen=True)
class FeetStyle:
    """The judgement calls above as numbers: the defaults are the basic player's; the expert's base policy
    in Hand and Foot plays a style tuned by self-play (HAND_AND_FOOT_EXPERT_STYLE)."""

    #: ask to go out holding at most this many cards
    ask_hand: int = 8
    #: a wild card goes onto a natural meld of at least this many cards while dirty piles are missing
    dirty_from: int = 4
    #: a pair with a wild card is melded toward a dirty pile only holding more than this many cards
    pair_wild_hand: int = 6
    #: throw the single card of the highest value first (False: the lowest, keeping high cards to meld)
    discard_high: bool = False
    #: take the pile only when it holds at least this many cards
    take_pile: int = 1
    #: ranks whose natural cards are thrown only after every other natural card (Triple Play's 5s and 7s, whose
    #: canastas score 3,000 and 5,000 and are part of the basic book)
    keep_ranks: tuple[int, ...] = ()
    #: build piles of wild cards while the side has fewer than this many (at least the piles going out needs)
    wild_books: int = 1


FEET_DEFAULT_STYLE = FeetStyle()
#: the expert's base and rollout policy in Hand and Foot: wild cards kept for the wild pile (and the last
#: discard), never put toward a dirty pile. 58.7% [56.5%, 60.8%] of 2,000 one-hand games against the defaults,
#: margin +446 a hand (docs/experiments.md, "The base style in each set variant"). Building more piles of wild
#: cards (``wild_books=9``) and taking only piles of three or more (``take_pile=3``) win 70.6% between basic
#: players, but the expert on them did worse on the same deals, so they are not part of it
HAND_AND_FOOT_EXPERT_STYLE = FeetStyle(pair_wild_hand=14, dirty_from=7)
#: the expert's base and rollout policy in Triple Play, where a canasta of wild cards scores 2,500 and the 5s'
#: and 7s' 3,000 and 5,000: 5s and 7s thrown last, piles of wild cards built beyond the basic book's one, and
#: pairs melded with a wild card only toward the mixed canasta the basic book needs (Hand and Foot's wild cards
#: kept off natural melds lose here)
TRIPLE_PLAY_EXPERT_STYLE = FeetStyle(keep_ranks=(5, 7), wild_books=9, pair_wild_hand=14)


def _wild(c: int) -> bool:
    return c == JOKER or 8 <= c <= 11


def keep_value(code: int) -> int:
    """What a turned-up card is worth to the seat whose pile holds it. A red three is laid out at once for 100
    and replaced by the one who gets it (kept in the foot: ours when the foot comes up; passed: the left-hand
    opponent's now), then jokers and 2s (wild), aces, high cards, low cards; a black three (never melded, only
    ever counted against) last."""
    if code in (13, 14):
        return 100
    if code in (12, 15):
        return -5
    if code == JOKER:
        return 50
    rank = code >> 2
    if rank in (2, 14):
        return 20
    return 10 if rank >= 8 else 5


def choose_keep(obs: dict[str, Any], legal: list[Action]) -> tuple[Action, str]:
    """The hand-passing deal: keep the pile with the better turned-up card as the foot (a tie keeps pile 1)."""
    keeps = {a.target: a for a in legal if a.kind == KEEP}
    tops = [parse_card(c) for c in obs["pass_shown"][obs["seat"]]]
    if len(keeps) < 2 or len(tops) != 2:
        return legal[0], "only choice"
    pile = 2 if keep_value(tops[1]) > keep_value(tops[0]) else 1
    return keeps[pile], (f"keep pile {pile} ({obs['pass_shown'][obs['seat']][pile - 1]} turned up) as the foot; "
                         "the other goes to the player on the left")


def choose_feet(obs: dict[str, Any], legal: list[Action], opening: Any = None,
                style: FeetStyle = FEET_DEFAULT_STYLE) -> tuple[Action, str]:
    """The chosen action and a one-line reason. ``opening(obs, legal)`` may give an opening step."""
    phase = obs["phase"]
    if phase == "pass":
        return choose_keep(obs, legal)
    if phase == "answer":
        if YES_ACTION in legal:
            return YES_ACTION, "partner may go out"
        return (NO_ACTION if NO_ACTION in legal else legal[0]), "only choice"
    if phase == "draw":
        return _choose_draw(obs, legal, style)
    side = obs["side"]
    seat = obs["seat"]
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    opened = obs["opened"][side]
    if not opened:
        step = opening(obs, legal) if opening is not None else None
        if step is not None:
            return step, "open: toward the minimum"
        if RETRACT in by_kind:
            return by_kind[RETRACT][0], "cannot reach the minimum count: take the melds back"
    books = {"clean": 0, "dirty": 0, "wild": 0}
    for b in obs["books"][side]:
        books[b["kind"]] += 1
    partner = obs["partner"]
    partner_needed = partner is not None and obs["rules"].get("partner_in_foot", True)
    # the side's other seats (sides are seat mod the number of sides): the partner, or two in teams of three
    sides = len(obs["opened"])
    mates = [s for s in range(obs["players"]) if s % sides == side and s != seat]
    ready = obs["books_ready"][side] and obs["in_foot"][seat] and (
        not partner_needed or all(obs["in_foot"][m] for m in mates))
    if ASK in by_kind and ready and obs["permission"] is None and len(obs["hand"]) <= style.ask_hand:
        return by_kind[ASK][0], "our piles are made and we are both in the foot: may I go out?"
    if opened:
        chosen = _choose_meld(obs, by_kind, books, style, ready)
        if chosen is not None:
            return chosen
    discards = by_kind.get(DISCARD, [])
    if discards:
        return _choose_discard(obs, discards, style), "discard the card the hand needs least"
    for kind in (END, RETRACT, MELD, ADD):
        if kind in by_kind:
            return by_kind[kind][0], "nothing else to do"
    others = [a for a in legal if a.kind != ASK] or legal
    return others[0], "only choice"


def _choose_draw(obs: dict[str, Any], legal: list[Action], style: FeetStyle) -> tuple[Action, str]:
    """Take the pile's top when it is big enough (with the fewest wild cards shown), else draw."""
    takes = [a for a in legal if a.kind == TAKE]
    if takes and (len(obs["pile"]) >= style.take_pile or not any(a.kind == DRAW for a in legal)):
        best = min(takes, key=lambda a: sum(1 for c in a.cards if _wild(c)))
        return best, "take the top of the pile: a meld and up to six cards"
    for a in legal:
        if a.kind == DRAW:
            return a, "draw two from the stock"
    for a in legal:
        if a.kind == END:
            return a, "the stock is used up and the pile is of no use"
    return legal[0], "only choice"


def _choose_meld(obs: dict[str, Any], by_kind: dict[str, list[Action]], books: dict[str, int], style: FeetStyle,
                 ready: bool) -> tuple[Action, str] | None:
    """An opened side's meld or addition: natural first, then toward the wild and dirty piles it needs."""
    side = obs["side"]
    need = obs["books_needed"]
    wild_meld = any(m["rank"] == "wild" for m in obs["melds"][side])
    for a in by_kind.get(ADD, []):
        if all(not _wild(c) for c in a.cards):
            return a, "add to our meld"
    for a in by_kind.get(MELD, []):
        if all(not _wild(c) for c in a.cards):
            return a, "a new natural meld"
    if books["wild"] < max(need["wild"], style.wild_books):
        for a in by_kind.get(MELD, []):
            if all(_wild(c) for c in a.cards) and not wild_meld:
                return a, "start the pile of wild cards"
        for a in by_kind.get(ADD, []):
            if a.target == 1:
                return a, "build the pile of wild cards"
    if books["dirty"] < max(need["dirty"], 1):
        for a in by_kind.get(ADD, []):
            if a.target != 1 and any(_wild(c) for c in a.cards):
                m = next((m for m in obs["melds"][side] if m["rank"] != "wild" and
                          len(m["cards"]) >= style.dirty_from and _rank_target(m["rank"]) == a.target), None)
                if m is not None:
                    return a, "a wild card toward a dirty pile"
        if len(obs["hand"]) > style.pair_wild_hand:
            for a in by_kind.get(MELD, []):
                if sum(1 for c in a.cards if _wild(c)) == 1:
                    return a, "a pair with a wild card toward a dirty pile"
    if ready and obs["permission"] is True:
        for kind in (MELD, ADD):
            if kind in by_kind:
                return by_kind[kind][0], "going out: meld everything"
    return None


def _choose_discard(obs: dict[str, Any], discards: list[Action], style: FeetStyle) -> Action:
    """A black three first, then a single of a rank the style does not keep, a wild card last."""
    counts: dict[int, int] = {}
    for c in (parse_card(c) for c in obs["hand"]):
        counts[c >> 2] = counts.get(c >> 2, 0) + 1

    def cost(a: Action) -> tuple[int, int, int]:
        c = a.cards[0]
        if c in (12, 15):
            return (0, 0, c)
        if _wild(c):
            return (5, 0, c)
        single = 1 if counts.get(c >> 2, 0) == 1 else 2
        if c >> 2 in style.keep_ranks:
            single += 2
        return (single, -(c >> 2) if style.discard_high else c >> 2, c)

    return min(discards, key=cost)


def _rank_target(rank: str) -> int:
    return parse_card(rank + "s") >> 2
