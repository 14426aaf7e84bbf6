"""The basic player's rules of thumb for Modern American Canasta (variants with ``EXTENDED_SET_RULES``).

From the observation alone, one atomic step at a time: open with pure melds (and pairs with a
wild card) once they reach the minimum and leave cards to play on; take the pile with a natural
pair once the side has melded; add naturals to the side's melds and close canastas with a wild card;
meld sevens and aces only with four or more in hand (an incomplete meld of them costs 2500); discard
dead cards and cards the opponents cannot take first, never feeding a pair. Lay down a special hand
whenever one is legal (the straight first); keep the one three the engine keeps for a straight only
while the hand has ten or more of the straight's fourteen ranks, and lay it out otherwise. Answering
"may I go out?" is :class:`~canasta.players.basic.BasicPlayer`'s answer. The judgement calls are numbers
of an :class:`AmericanStyle` (the expert's base policy plays :data:`AMERICAN_EXPERT_STYLE`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from canasta.cards import JOKER, counts_of, parse_card, parse_rank
from canasta.engine.actions import ADD, DISCARD, DRAW, END, MELD, RETRACT, SPECIAL, TAKE, Action
from canasta.players.base import Observation
from canasta.players.card_reading import is_wild_code as _is_wild
from canasta.players.card_reading import pile_passes

WILD_RANK = 1
SEVEN, ACE = 7, 14
#: keep at least this many cards after opening while the stock is long
HOLD_BACK = 3
#: keep a three for a straight only with at least this many of its 14 ranks (A-2-3-...-K-joker) in hand
STRAIGHT_HOPE = 10
#: meld pure sevens or aces only holding this many (a meld of them short of seven costs 2500)
ACES_SEVENS_TO_MELD = 6
#: stock cards left once the turn card is drawn (Terms: 'there are only 8 cards left to draw')
TURN_CARD_STOCK = 8
#: Terms: 'Two 52 card standard packs plus 4 jokers are shuffled together to make a 108 card pack'
DECKS = 2
AMERICAN_DECK = DECKS * 52 + 4


@dataclass(frozen=True)
class AmericanStyle:
    """The judgement calls of the rules of thumb as numbers: the defaults are the texts' advice as read
    by the basic player; the expert's base policy plays a style tuned by self-play (AMERICAN_EXPERT_STYLE)."""

    hold_back: int = HOLD_BACK
    straight_hope: int = STRAIGHT_HOPE
    aces_sevens_to_meld: int = ACES_SEVENS_TO_MELD
    #: a wild card from hand goes onto a side meld of this many cards (it closes a canasta at six)
    wild_closes: int = 6
    #: canastas after which the wild cards in hand go onto melds (Terms: two canastas to go out)
    out_canastas: int = 2
    #: cost of breaking a pair (per card kept, up to two) and of throwing a rank the side has melded
    keep_pair: float = 40.0
    keep_melded: float = 30.0
    #: start a new pure meld once open (False: only add to melds, holding the rest for the pile)
    start_melds: bool = True
    #: stock size under which three or more aces or sevens in hand are thrown (-1500 each if held at the end)
    aces_sevens_stock: int = 15
    #: take the pile for the initial meld where the engine allows it (the hand can make the minimum)
    take_to_open: bool = False
    #: weight of the pile a discard may feed to the next player: the chance that it holds a natural pair of
    #: the rank (from the unseen cards, what it was seen to take, and the ranks it passed on) times the
    #: pile's size (0: not read; Terms: 'You can only take the discard pile if you have a pair of natural
    #: cards in your hand which are of the same rank as the top card')
    danger: float = 0.0


AMERICAN_DEFAULT_STYLE = AmericanStyle()
#: the expert's base and rollout policy in Modern American: a wild card onto a meld of five (not only the
#: sixth), wild cards onto melds once the side has one canasta (2026-11-26, `0a14efe`: 51.8% [50.3%, 53.4%] of 4,000
#: one-hand games against the defaults), and discards priced by the pile they may feed (2026-11-27, `1ae67ed`: 52.0% of
#: 4,000 against the 2026-11-26, `0a14efe` style, 53.5% [52.0%, 55.1%] against the defaults, margin +176 a hand;
#: docs/experiments.md, "The base style in each set variant")
AMERICAN_EXPERT_STYLE = AmericanStyle(wild_closes=5, out_canastas=1, danger=10.0)


def _rank(a: Action) -> int:
    if a.kind == ADD:
        return a.target
    nat = [c for c in a.cards if not _is_wild(c)]
    return nat[0] >> 2 if nat else WILD_RANK


class _View:
    def __init__(self, obs: Observation, style: AmericanStyle) -> None:
        self.obs = obs
        self.style = style
        self.side: int = obs["side"]
        self.hand = counts_of(parse_card(c) for c in obs["hand"])
        self.size = len(obs["hand"])
        self.opened: bool = obs["opened"][self.side]
        self.minimum: int = obs["minimum"][self.side]
        self.pending: int = obs["pending_value"]
        self.dead = {parse_rank(r) for r in obs.get("dead_ranks", [])}
        self.melds: list[dict[int, list[int]]] = []
        for side_melds in obs["melds"]:
            d: dict[int, list[int]] = {}
            for m in side_melds:
                rank = WILD_RANK if m["rank"] == "wild" else parse_rank(m["rank"])
                d[rank] = [parse_card(c) for c in m["cards"]]
            self.melds.append(d)
        self.own = self.melds[self.side]
        self.pile = [parse_card(c) for c in obs["pile"]]
        self.stock: int = obs["stock_size"]
        self.seen: tuple[list[int], int] | None = None  # _seen_ranks, once asked for
        self.passes: list[set[int]] | None = None  # pile_passes, once asked for

    def count(self, r: int) -> int:
        b = r * 4
        return self.hand[b] + self.hand[b + 1] + self.hand[b + 2] + self.hand[b + 3]

    def wilds(self) -> int:
        return self.hand[JOKER] + self.hand[8] + self.hand[9] + self.hand[10] + self.hand[11]

    def meld_worthy(self, r: int) -> bool:
        """Sevens and aces only with four or more (an incomplete meld of them costs 2500)."""
        return r not in self.dead and (r not in (SEVEN, ACE) or self.count(r) >= self.style.aces_sevens_to_meld)


def _opening_estimate(view: _View) -> tuple[int, bool, int]:
    """(points, has a pure meld, cards used) of the simple opening: pure melds, then pairs with a wild card."""
    values = [5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20]  # ranks 4..A
    value = used = 0
    pure = False
    for r in range(4, 15):
        n = view.count(r)
        if n >= 3 and view.meld_worthy(r):
            k = min(n, 7)
            value += k * values[r - 4]
            used += k
            pure = True
    wild_codes = [JOKER] * view.hand[JOKER] + [c for c in (8, 9, 10, 11) for _ in range(view.hand[c])]
    mixed = 0  # mixed melds made: each takes up to two wild cards (Terms: 'up to two wild cards')
    for r in sorted(_mixed_ranks(view), key=lambda r: -values[r - 4]):
        if not wild_codes or value >= view.minimum:
            break
        w = wild_codes.pop(0)
        value += view.count(r) * values[r - 4] + (50 if w == JOKER else 20)
        used += view.count(r) + 1
        mixed += 1
    while wild_codes and mixed and value < view.minimum and used < view.size:  # a second wild card in each
        w = wild_codes.pop(0)
        value += 50 if w == JOKER else 20
        used += 1
        mixed -= 1
    return value, pure, used


def _mixed_ranks(view: _View) -> list[int]:
    """Ranks the initial meld can hold as mixed melds: a natural pair, or two or more aces not melded pure
    (Terms: a dirty meld of aces only in the initial meld; never wild cards with sevens)."""
    out = []
    for r in range(4, 15):
        n = view.count(r)
        if r == SEVEN or r in view.dead or n < 2:
            continue
        if n == 2 or (r == ACE and not view.meld_worthy(r)):
            out.append(r)
    return out


def choose_american(obs: Observation, legal: list[Action],
                    style: AmericanStyle = AMERICAN_DEFAULT_STYLE) -> tuple[Action, str]:
    view = _View(obs, style)
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    if SPECIAL in by_kind:  # in SPECIAL_HANDS order: the straight (3000) first
        a = by_kind[SPECIAL][0]
        return a, "lay down a special hand: the whole hand, ending the play"
    if obs["phase"] == "draw":
        takes = [a for a in by_kind.get(TAKE, []) if _take_worthy(view, a)]
        if takes and (view.opened or view.style.take_to_open):
            return takes[0], f"take the pile ({len(view.pile)} cards) with a natural pair"
        if DRAW in by_kind:
            return by_kind[DRAW][0], "draw from the stock"
        if TAKE in by_kind:
            return by_kind[TAKE][0], "the stock is used up: take the pile"
        return legal[0], "the stock is used up"
    threes = [a for a in by_kind.get(MELD, []) if len(a.cards) == 1 and a.cards[0] >> 2 == 3]
    if threes and (view.opened or _straight_ranks(view) < style.straight_hope):  # (kept after melding: threes_optional)
        return threes[0], "lay out the three (no straight in sight) and draw a replacement"
    if not view.opened:
        step = _opening_step(view, by_kind)
        if step is not None:
            return step
        if RETRACT in by_kind:
            return by_kind[RETRACT][0], "the initial meld cannot be completed: take it back"
    else:
        step = _build_step(view, by_kind)
        if step is not None:
            return step
    discards = by_kind.get(DISCARD, [])
    if discards:
        best = min(discards, key=lambda a: (_discard_cost(view, a.cards[0]), a.cards[0]))
        return best, "discard the least useful, safest card"
    for kind in (END, RETRACT):
        if kind in by_kind:
            return by_kind[kind][0], "nothing else to do"
    return legal[0], "only choice"


def _take_worthy(view: _View, take: Action) -> bool:
    """Not a take that starts a meld of sevens or aces the hand cannot hope to complete (Terms: 'if you
    start a meld of sevens but fail to complete your sevens canasta you incur a penalty')."""
    r = view.pile[-1] >> 2 if view.pile else 0
    return r not in (SEVEN, ACE) or r in view.own or view.count(r) + 1 >= view.style.aces_sevens_to_meld


def _straight_ranks(view: _View) -> int:
    """How many of the straight's 14 ranks (A, 2, 3, ..., K and a joker) the hand holds."""
    return sum(1 for r in range(2, 15) if view.count(r)) + (1 if view.hand[JOKER] else 0)


def _opening_step(view: _View, by_kind: dict[str, list[Action]]) -> tuple[Action, str] | None:
    started = view.pending > 0 or bool(view.own)
    if not started:
        value, pure, used = _opening_estimate(view)
        if not pure or value < view.minimum:
            return None
        # Terms: melding down to one card (the discard) is allowed for the initial meld before the turn card,
        # since 'making the initial meld entitles you to draw three or four bonus cards'
        bonus_due = bool(view.obs["rules"].get("bonus_cards")) and not view.obs.get("turn_card_drawn", True)
        if bonus_due:
            if view.size - used < 1:
                return None
        elif view.size - used < 2 or (view.size - used < view.style.hold_back and view.stock > 20):
            return None
    melds = by_kind.get(MELD, [])
    adds = by_kind.get(ADD, [])
    for a in melds:  # pure melds first: the required pure meld
        r = _rank(a)
        if r != WILD_RANK and not any(_is_wild(c) for c in a.cards) and view.meld_worthy(r):
            return a, f"initial meld: pure {r}s (counts {view.pending} of {view.minimum})"
    for a in adds:
        if not _is_wild(a.cards[0]) and len(a.cards) == 1:
            return a, "initial meld: add a natural card"
    mixed_ranks = _mixed_ranks(view)
    pairs = [a for a in melds if _rank(a) in mixed_ranks and sum(1 for c in a.cards if _is_wild(c)) == 1]
    if pairs:  # the highest pair (aces first), with a joker if there is one
        a = max(pairs, key=lambda a: (_rank(a) >= 8, JOKER in a.cards, _rank(a)))
        return a, "initial meld: a pair with a wild card"
    for a in adds:  # a second wild card on a mixed meld (the pure meld the opening needs stays pure)
        mixed = any(_is_wild(c) for c in view.own.get(a.target, []))
        if _is_wild(a.cards[0]) and len(a.cards) == 1 and a.target != WILD_RANK and mixed:
            return a, "initial meld: a wild card to reach the count"
    return None


def _build_step(view: _View, by_kind: dict[str, list[Action]]) -> tuple[Action, str] | None:
    for a in by_kind.get(ADD, []):
        if len(a.cards) == 1 and not _is_wild(a.cards[0]):
            return a, "add to our meld"
    for a in by_kind.get(MELD, []) if view.style.start_melds else ():
        r = _rank(a)
        if r != WILD_RANK and not any(_is_wild(c) for c in a.cards) and view.meld_worthy(r):
            return a, "start a pure meld"
    for a in by_kind.get(ADD, []):
        size = len(view.own.get(a.target, []))
        if len(a.cards) == 1 and _is_wild(a.cards[0]) and view.style.wild_closes <= size < 7:
            return a, "a wild card closes a canasta" if size == 6 else f"a wild card onto a meld of {size}, toward a canasta"
    for a in by_kind.get(ADD, []):
        if len(a.cards) > 1 and all(not _is_wild(c) for c in a.cards):
            return a, "add to our meld"
    if _going_for_out(view):  # a wild card held cannot be discarded and so blocks going out (Terms)
        wild_adds = [a for a in by_kind.get(ADD, []) if len(a.cards) == 1 and _is_wild(a.cards[0])
                     and a.target != WILD_RANK]
        if wild_adds:
            a = max(wild_adds, key=lambda a: (len(view.own.get(a.target, [])), a.cards[0] != JOKER))
            return a, "going for out: a wild card onto our longest meld"
    return None


def _going_for_out(view: _View) -> bool:
    """The side may go out (Terms: 'your team has completed two canastas') or the stock is nearly gone:
    the wild cards in hand go onto melds, since a wild card can be discarded only as the last card."""
    canastas = sum(1 for cards in view.own.values() if len(cards) >= 7)
    return canastas >= view.style.out_canastas or view.stock <= TURN_CARD_STOCK


def _seen_ranks(view: _View) -> tuple[list[int], int]:
    """Per natural rank, the copies this seat has seen (its hand, the pile, every meld, the cards other seats
    were seen to take), and how many cards of the deck it has not seen; computed once per decision."""
    if view.seen is None:
        obs = view.obs
        counts = [view.count(r) if 3 <= r <= ACE else 0 for r in range(16)]  # natural ranks (codes of 2s: wild)
        seen = view.size + len(view.pile)
        for code in view.pile:
            counts[code >> 2] += not _is_wild(code)
        for side_melds in view.melds:
            for cards in side_melds.values():
                seen += len(cards)
                for code in cards:
                    counts[code >> 2] += not _is_wild(code)
        for s, texts in enumerate(obs["known_hands"]):
            if s != obs["seat"]:
                seen += len(texts)
                for text in texts:
                    code = parse_card(text)
                    counts[code >> 2] += not _is_wild(code)
        laid = sum(len(t) for t in obs["red_threes"]) + sum(len(t) for t in obs["removed"])
        view.seen = (counts, AMERICAN_DECK - seen - laid)
    return view.seen


def _pair_chance(view: _View, r: int, seat: int) -> float:
    """The chance that ``seat`` holds two or more natural cards of rank ``r``: the cards it was seen to take
    count as held, the rest of its hand is drawn at random from the cards this seat has not seen."""
    known = view.obs["known_hands"][seat]
    held = sum(1 for text in known if (code := parse_card(text)) >> 2 == r and not _is_wild(code))
    if held >= 2:
        return 1.0
    counts, unseen = _seen_ranks(view)
    copies = DECKS * 4 - counts[r]
    draws = view.obs["hand_sizes"][seat] - len(known)
    if copies <= 0 or draws <= 0 or unseen <= 0:
        return 0.0
    total = math.comb(unseen, draws)
    none = math.comb(unseen - copies, draws) / total
    if held:
        return 1.0 - none
    one = copies * math.comb(unseen - copies, draws - 1) / total
    return max(0.0, 1.0 - none - one)


def _discard_cost(view: _View, code: int) -> float:
    cost = _base_discard_cost(view, code)
    if view.style.danger and cost > 2.0 and not _is_wild(code):  # (dead, safe or thrown aces and sevens: as is)
        r = code >> 2
        nxt = (view.obs["seat"] + 1) % view.obs["players"]
        if view.passes is None:
            view.passes = pile_passes(view.obs)
        if r not in view.passes[nxt]:
            cost += view.style.danger * _pair_chance(view, r, nxt) * (len(view.pile) + 1)
    return cost


def american_candidate_discards(obs: Observation, legal: list[Action], count: int,
                                style: AmericanStyle = AMERICAN_DEFAULT_STYLE,
                                keep: Action | None = None) -> list[Action]:
    """``legal`` with its discards cut to the ``count`` that ``style`` rates cheapest (and ``keep``), by the
    same cost the American policy discards by: what a search need consider."""
    discards = [a for a in legal if a.kind == DISCARD]
    if len(discards) <= count:
        return legal
    view = _View(obs, style)
    ranked = sorted(discards, key=lambda a: (_discard_cost(view, a.cards[0]), a.cards[0]))
    chosen = set(ranked[:count]) | ({keep} if keep is not None else set())
    return [a for a in legal if a.kind != DISCARD or a in chosen]


def _base_discard_cost(view: _View, code: int) -> float:
    if _is_wild(code):
        return 1000.0
    r = code >> 2
    if r in view.dead:
        return 0.0  # 'Dead cards ... are also safe to discard'
    opp = [view.melds[s] for s in range(len(view.melds)) if s != view.side]
    if any(len(m.get(r, [])) >= 5 for m in opp):
        return 1.0  # 'cards that match the opponents' 5-card or 6-card meld are safe discards'
    n = view.count(r)
    cost = 10.0 + (5.0 if r in (SEVEN, ACE) and n < 3 else 0.0)
    if n >= 2:
        cost += view.style.keep_pair * min(n - 1, 2)
    if r in view.own:
        cost += view.style.keep_melded
    style = view.style
    if r in (SEVEN, ACE) and n >= 3 and (view.stock < style.aces_sevens_stock
                                         or (r not in view.own and n < style.aces_sevens_to_meld)):
        cost = 2.0  # 1500 for three or more aces or sevens left in a hand: keep at most two (Terms)
    return cost


__all__ = ["AMERICAN_DEFAULT_STYLE", "AMERICAN_EXPERT_STYLE", "AmericanStyle", "american_candidate_discards",
           "choose_american"]
