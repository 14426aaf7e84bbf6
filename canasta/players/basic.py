"""BasicPlayer: a simple player that follows the rule texts' advice.

The advice (shared/rules: Bicycle "Strategies" and the Fragment) boils down to:
take the pile whenever possible; open with the minimum number of cards but not
if that leaves fewer than six in hand; lay out melds and add to the side's
melds; keep pairs and wild cards; discard what the next opponent can least use
(a black three blocks); go out when possible, asking the partner first; and
answer "may I go out?" with yes unless holding many points that could be melded
soon.

The player decides one atomic step at a time and re-plans at every step from
the observation alone, so it needs no memory between calls and acts the same
on equal observations (the hidden-information test relies on that).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb
from typing import cast

from canasta.cards import JOKER, NATURAL_RANKS, THREE, counts_of, parse_card, parse_rank
from canasta.engine.actions import (
    ADD,
    ASK,
    DISCARD,
    DRAW,
    END,
    MELD,
    NO_ACTION,
    RETRACT,
    TAKE,
    YES_ACTION,
    Action,
)
from canasta.players.american_basic import AMERICAN_DEFAULT_STYLE, AMERICAN_EXPERT_STYLE, AmericanStyle, choose_american
from canasta.players.base import Observation
from canasta.players.card_reading import is_wild_code as _is_wild
from canasta.players.card_reading import pile_passes as pile_passes  # defined there (American reads it too)
from canasta.players.card_reading import pile_throws
from canasta.players.feet_basic import (
    FEET_DEFAULT_STYLE,
    HAND_AND_FOOT_EXPERT_STYLE,
    TRIPLE_PLAY_EXPERT_STYLE,
    FeetStyle,
    choose_feet,
)
from canasta.players.runs_basic import choose_runs
from canasta.variants import find_variant
from canasta.variants.classic import Classic

WILD_RANK = 1  # the engine's pseudo-rank of a meld of wild cards ("wild" in observations)
_TWOS = (8, 9, 10, 11)
_BLACK_THREES = (12, 15)

#: Bicycle: "don't make an initial meld if it will reduce your hand to fewer than six cards".
HOLD_BACK = 6
#: Below this stock size the hand may end soon: open even if it leaves few cards.
LATE_STOCK = 20
#: Smallest pile worth a wild card from hand to take it.
WILD_TAKE_PILE = 5
#: Points that could be melded soon for which a partner is told "no, don't go out yet".
SAY_NO_POINTS = 100
#: Size of a side meld that a wild card from hand turns into a canasta (Bicycle: complete canastas).
WILD_COMPLETES = 6
#: Cost of discarding a black three onto a small pile (a black three blocks only one turn).
BLACK_THREE_COST = 12.0
#: Cost of freezing an unfrozen pile of at least FREEZE_PILE cards with a wild card while the side is not
#: behind in melds (Bicycle: "don't freeze the pile if your side is behind in melds"); otherwise a wild
#: card costs WILD_DISCARD_COST, more than any natural card.
FREEZE_COST = 300.0
FREEZE_PILE = 8
WILD_DISCARD_COST = 1000.0


@dataclass(frozen=True)
class BasicStyle:
    """BasicPlayer's judgement calls as numbers: the defaults are the texts' advice as read by
    BasicPlayer; ExpertPlayer's base policy is a style tuned by self-play (docs/research.md)."""

    hold_back: int = HOLD_BACK
    late_stock: int = LATE_STOCK
    wild_take_pile: int = WILD_TAKE_PILE
    say_no_points: int = SAY_NO_POINTS
    #: a wild card goes onto a side meld of at least this many cards (and at most six)
    wild_completes: int = WILD_COMPLETES
    black_three_cost: float = BLACK_THREE_COST
    #: cost of freezing a pile of at least ``freeze_pile`` cards with a wild card (not when behind in melds)
    freeze_cost: float = FREEZE_COST
    freeze_pile: int = FREEZE_PILE
    #: weight of the risk of feeding the pile to an opponent in a discard's cost (1: as written)
    danger: float = 1.0
    #: cost of breaking a pair (per card kept, up to two) and of throwing a rank the side has melded
    keep_pair: float = 25.0
    keep_melded: float = 30.0
    #: weight of the pile-feeding risk for a rank the next player has passed on (pile_passes; 1: not read)
    pass_danger: float = 1.0
    #: the same for a rank the next player has thrown onto the pile (pile_throws; 1: not read); a rank both
    #: passed on and thrown takes the smaller weight
    thrown_danger: float = 1.0
    #: points per pile card (up to 20) of the risk that a seat takes the pile, weighed by the chance that it holds
    #: what takes it (a natural pair; one natural with a wild card on an opened side's unfrozen pile), counted
    #: from the unseen cards (0: the older weight of 0.5 per unseen copy and pile card, not a probability)
    pair_danger: float = 0.0
    #: the judgement calls of Modern American's rules of thumb (canasta.players.american_basic)
    american: AmericanStyle = AMERICAN_DEFAULT_STYLE
    #: the judgement calls of Hand and Foot's and Triple Play's rules of thumb (canasta.players.feet_basic)
    feet: FeetStyle = FEET_DEFAULT_STYLE


DEFAULT_STYLE = BasicStyle()
#: ExpertPlayer's base and rollout policy: BasicPlayer with the style that beat the texts' defaults in
#: self-play (docs/research.md): a wild card onto a meld of five, and black threes thrown freely. Here,
#: below the expert and the learned value (fitted to hands played in this style), so both import it.
EXPERT_STYLE = BasicStyle(wild_completes=5, black_three_cost=0.0, pass_danger=0.25, american=AMERICAN_EXPERT_STYLE)
#: the expert's base style in a variant where EXPERT_STYLE is not the best measured (docs/experiments.md,
#: "The base style in each set variant"): Mille's wild cards are unlimited, and putting them on melds of five
#: (``wild_completes=5``) costs 3.4 points of win rate there; Hand and Foot and Triple Play play their own
#: family styles. Elsewhere the tuned style wins, or the family's
#: basic player (Samba, Burraco) reads no style. Here for the same reason.
VARIANT_STYLES: dict[str, BasicStyle] = {"mille": DEFAULT_STYLE,
                                          "hand-and-foot": replace(EXPERT_STYLE, feet=HAND_AND_FOOT_EXPERT_STYLE),
                                          "triple-play": replace(EXPERT_STYLE, feet=TRIPLE_PLAY_EXPERT_STYLE)}


@lru_cache(maxsize=16)
def _variant(name: str, players: int, rules_json: str) -> tuple[Classic, tuple[int, ...]]:
    """The bound variant (public rules, not the game) and the copies of each rank in the pack."""
    v = cast(Classic, find_variant(name)(players, json.loads(rules_json)))
    copies = [0] * 16
    for c in v.deck():
        copies[15 if c == JOKER else c >> 2] += 1
    return v, tuple(copies)


@dataclass
class _Meld:
    naturals: int
    wilds: int

    @property
    def size(self) -> int:
        return self.naturals + self.wilds


@dataclass(frozen=True)
class _Step:
    """One meld (new) or addition (existing) in an opening plan."""

    rank: int
    naturals: int
    jokers: int
    twos: int
    new: bool

    @property
    def cards(self) -> int:
        return self.naturals + self.jokers + self.twos


class _View:
    """The observation decoded into card codes and counts."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.v, self.copies = _variant(obs["variant"], obs["players"], json.dumps(obs["rules"], sort_keys=True))
        self.seat: int = obs["seat"]
        self.players: int = obs["players"]
        self.side: int = obs["side"]
        self.partner: int | None = obs["partner"]
        self.num_sides = len(obs["melds"])
        self.hand = counts_of(parse_card(c) for c in obs["hand"])
        self.size = len(obs["hand"])
        self.melds: list[dict[int, _Meld]] = []
        for side_melds in obs["melds"]:
            d: dict[int, _Meld] = {}
            for m in side_melds:
                rank = WILD_RANK if m["rank"] == "wild" else parse_rank(m["rank"])
                cards = [parse_card(c) for c in m["cards"]]
                if rank in (WILD_RANK, THREE):
                    d[rank] = _Meld(len(cards), 0)
                else:
                    w = sum(1 for c in cards if _is_wild(c))
                    d[rank] = _Meld(len(cards) - w, w)
            self.melds.append(d)
        self.own = self.melds[self.side]
        self.opened: bool = obs["opened"][self.side]
        self.minimum: int = obs["minimum"][self.side]
        self.pending: int = obs["pending_value"]
        self.frozen: bool = obs["frozen"]
        self.pile = [parse_card(c) for c in obs["pile"]]
        self.stock: int = obs["stock_size"]
        self.next_side = ((self.seat + 1) % self.players) % self.num_sides
        self.values = self.v.values
        self._passes: list[set[int]] | None = None
        self._throws: list[set[int]] | None = None

    @property
    def next_passed(self) -> set[int]:
        """Ranks the next player has passed on (:func:`pile_passes`)."""
        if self._passes is None:
            self._passes = pile_passes(self.obs)
        return self._passes[(self.seat + 1) % self.players]

    @property
    def next_thrown(self) -> set[int]:
        """Ranks the next player has thrown onto the pile (:func:`pile_throws`)."""
        if self._throws is None:
            self._throws = pile_throws(self.obs)
        return self._throws[(self.seat + 1) % self.players]

    def rank_count(self, r: int, hand: list[int] | None = None) -> int:
        h = self.hand if hand is None else hand
        b = r * 4
        return h[b] + h[b + 1] + h[b + 2] + h[b + 3]

    def wild_room(self, m: _Meld) -> int:
        return self.v.wild_capacity(m.naturals, m.wilds, m.size >= 7)

    def canastas(self, melds: dict[int, _Meld]) -> tuple[int, int]:
        total = sum(1 for m in melds.values() if m.size >= 7)
        natural = sum(1 for m in melds.values() if m.size >= 7 and m.wilds == 0)
        return total, natural

    def canastas_ok(self, melds: dict[int, _Meld]) -> bool:
        total, natural = self.canastas(melds)
        return total >= self.v.canastas_to_go_out and natural >= self.v.natural_canastas_to_go_out

    def visible(self, r: int) -> int:
        """Copies of natural rank ``r`` seen: own hand, every meld, the discard pile."""
        n = self.rank_count(r) + sum(1 for c in self.pile if not _is_wild(c) and c >> 2 == r)
        return n + sum(d[r].naturals for d in self.melds if r in d)

    def wilds_seen(self) -> int:
        """Wild cards seen: own hand, the discard pile, every meld."""
        n = self.hand[JOKER] + self.rank_count(2) + sum(1 for c in self.pile if _is_wild(c))
        return n + sum(m.naturals if rank == WILD_RANK else m.wilds for d in self.melds for rank, m in d.items())

    def hand_points(self) -> int:
        return sum(self.values[c] * k for c, k in enumerate(self.hand) if k)


# --------------------------------------------------------------------- planning
def _opening_plan(view: _View, hand: list[int], melds: dict[int, _Meld], need: int) -> list[_Step] | None:
    """Fewest cards (then fewest wild cards) whose melds count at least ``need``; None if impossible.

    Bicycle: "Try to make your first meld with the minimum number of cards."
    """
    vals = view.values
    jokers, twos = hand[JOKER], sum(hand[c] for c in _TWOS)
    jv, tv = vals[JOKER], vals[_TWOS[0]]
    groups: list[list[tuple[_Step, int]]] = []
    for r in NATURAL_RANKS:
        n = view.rank_count(r, hand)
        rv = vals[r * 4]
        opts: list[_Step] = []
        m = melds.get(r)
        if m is None:
            if n >= 3:
                opts.append(_Step(r, 3, 0, 0, True))
                if n > 3:
                    opts.append(_Step(r, n, 0, 0, True))
            if n >= 2 and view.v.wild_capacity(2, 0, False) > 0:
                for k in sorted({2, n}):
                    if jokers:
                        opts.append(_Step(r, k, 1, 0, True))
                    if twos:
                        opts.append(_Step(r, k, 0, 1, True))
        else:
            if n:
                opts.append(_Step(r, n, 0, 0, False))
                if n > 1:
                    opts.append(_Step(r, 1, 0, 0, False))
            if view.wild_room(_Meld(m.naturals + n, m.wilds)) > 0:
                if jokers:
                    opts.append(_Step(r, n, 1, 0, False))
                if twos:
                    opts.append(_Step(r, n, 0, 1, False))
        if opts:
            groups.append([(s, s.naturals * rv + s.jokers * jv + s.twos * tv) for s in opts])
    # suffix bound: the most the remaining groups could add
    bound = [0] * (len(groups) + 1)
    for i in range(len(groups) - 1, -1, -1):
        bound[i] = bound[i + 1] + max(val for _, val in groups[i])
    best: list[tuple[tuple[int, int, int, int], list[_Step]]] = []

    def dfs(i: int, value: int, cards: int, jk: int, tw: int, chosen: list[_Step]) -> None:
        if value >= need:
            key = (cards, jk + tw, jk, -value)
            if not best or key < best[0][0]:
                best[:] = [(key, list(chosen))]
            return
        if i == len(groups) or value + bound[i] < need or (best and cards >= best[0][0][0]):
            return
        dfs(i + 1, value, cards, jk, tw, chosen)
        for step, val in groups[i]:
            if jk + step.jokers > jokers or tw + step.twos > twos:
                continue
            chosen.append(step)
            dfs(i + 1, value + val, cards + step.cards, jk + step.jokers, tw + step.twos, chosen)
            chosen.pop()

    if need <= 0:
        return []
    dfs(0, 0, 0, 0, 0, [])
    return best[0][1] if best else None


def _go_out_possible(view: _View) -> bool:
    """Could this hand be melded down to at most one card (the discard) with the side's canastas?"""
    hand = view.hand
    melds = {r: _Meld(m.naturals, m.wilds) for r, m in view.own.items()}
    vals = view.values
    left = value = 0
    pairs: list[int] = []
    for r in NATURAL_RANKS:
        n = view.rank_count(r)
        if not n:
            continue
        if r in melds:
            melds[r].naturals += n
            value += n * vals[r * 4]
        elif n >= 3:
            melds[r] = _Meld(n, 0)
            value += n * vals[r * 4]
        elif n == 2:
            pairs.append(r)
        else:
            left += 1
    wilds = [JOKER] * hand[JOKER] + [c for c in _TWOS for _ in range(hand[c])]
    for r in pairs:
        if wilds and view.v.wild_capacity(2, 0, False) > 0:
            w = wilds.pop()
            melds[r] = _Meld(2, 1)
            value += 2 * vals[r * 4] + vals[w]
        else:
            left += 2
    for w in wilds:
        room = [(m.size >= 7, -m.size, r) for r, m in melds.items()
                if r not in (THREE, WILD_RANK) and view.wild_room(m) > 0]
        if not room:
            left += 1
            continue
        r = min(room)[2]
        melds[r].wilds += 1
        value += vals[w]
    bt = hand[12] + hand[15]
    if bt >= 3 and THREE not in melds:
        melds[THREE] = _Meld(bt, 0)
    else:
        left += bt
    if left > 1 or not view.canastas_ok(melds):
        return False
    return view.opened or view.pending + value >= view.minimum


def _meldable_points(view: _View) -> int:
    """Points in hand that could go onto the table soon: additions to side melds and natural triples."""
    pts = 0
    for r in NATURAL_RANKS:
        n = view.rank_count(r)
        if n and (r in view.own or n >= 3):
            pts += n * view.values[r * 4]
    if view.own:
        pts += sum(view.values[c] * view.hand[c] for c in (JOKER, *_TWOS))
    return pts


# --------------------------------------------------------------------- actions
def _describe_meld(a: Action) -> tuple[int, int, int]:
    """(rank, natural count, wild count) of a meld action."""
    nat = [c for c in a.cards if not _is_wild(c)]
    rank = nat[0] >> 2 if nat else WILD_RANK
    return rank, len(nat), len(a.cards) - len(nat)


def _discard_cost(view: _View, code: int, style: BasicStyle = DEFAULT_STYLE) -> float:
    """How much discarding ``code`` hurts: loss of a useful card plus the risk of feeding the next opponent."""
    if code in _BLACK_THREES:
        # Bicycle: black threes block the next player; they are meldable only when going out.
        return 0.0 if len(view.pile) >= 4 else style.black_three_cost
    pile = len(view.pile)
    if _is_wild(code):
        behind = len(view.own) < max(len(view.melds[s]) for s in range(view.num_sides) if s != view.side)
        # Freezing a big pile deliberately is fine, but not when behind in melds (Bicycle "Strategies").
        if not view.frozen and pile >= style.freeze_pile and not behind:
            return style.freeze_cost
        return WILD_DISCARD_COST
    r = code >> 2
    n = view.rank_count(r)
    cost = float(view.values[code])  # low cards are cheap to give away
    if n >= 2:
        cost += style.keep_pair * min(n - 1, 2)  # keep pairs (they take the pile) and triples
    if r in view.own:
        cost += style.keep_melded
    hidden = max(0, view.copies[r] - view.visible(r))
    # the next player passed on (or threw) this rank: unlikely to hold the natural pair to take it
    read = 1.0
    if style.pass_danger != 1.0 and r in view.next_passed:
        read = style.pass_danger
    if style.thrown_danger != 1.0 and r in view.next_thrown:
        read = min(read, style.thrown_danger)
    for s in range(view.num_sides):
        if s == view.side:
            continue
        weight = style.danger * (1.0 if s == view.next_side else 0.3)
        hand_weight = weight * read if s == view.next_side else weight
        opp_open = view.obs["opened"][s]
        if r in view.melds[s] and not view.frozen:
            cost += weight * (120.0 + 4.0 * pile)  # taken with no cards from hand
        if style.pair_danger > 0:
            cost += hand_weight * style.pair_danger * min(pile, 20) * _take_chance(view, s, hidden, opp_open)
            continue
        if hidden >= 2:
            cost += hand_weight * 0.5 * hidden * min(pile, 20)  # a natural pair takes any pile
        if hidden >= 1 and opp_open and not view.frozen:
            cost += hand_weight * 0.5 * hidden * min(pile, 20)  # one natural and a wild card
    return cost


@lru_cache(maxsize=4096)
def _at_least(unseen: int, copies: int, drawn: int) -> tuple[float, float]:
    """The chances that ``drawn`` cards dealt from ``unseen`` hold at least one and at least two of ``copies``."""
    if drawn <= 0 or copies <= 0 or unseen <= 0:
        return 0.0, 0.0
    drawn = min(drawn, unseen)
    total = comb(unseen, drawn)
    none = comb(unseen - copies, drawn) / total
    one = copies * comb(unseen - copies, drawn - 1) / total
    return 1.0 - none, max(0.0, 1.0 - none - one)


def _take_chance(view: _View, side: int, hidden: int, opened: bool) -> float:
    """The chance that the first seat of ``side`` after this one can take the pile with a discard of a rank of
    which ``hidden`` copies are unseen: a natural pair, or (its side opened, the pile not frozen) one natural and
    a wild card."""
    seat = next(s for k in range(1, view.players + 1)
                if (s := (view.seat + k) % view.players) % view.num_sides == side)
    sizes: list[int] = view.obs["hand_sizes"]
    unseen = view.stock + sum(n for k, n in enumerate(sizes) if k != view.seat)
    drawn = sizes[seat]
    one, two = _at_least(unseen, hidden, drawn)
    if not opened or view.frozen:
        return two
    wilds = max(0, view.copies[15] + view.copies[2] - view.wilds_seen())
    wild_one, _ = _at_least(unseen, wilds, drawn - 1)
    return two + (one - two) * wild_one


def discard_costs(obs: Observation, hands: Sequence[Sequence[int]], style: BasicStyle = DEFAULT_STYLE
                  ) -> list[list[float]]:
    """The discard cost ``style`` gives each card of each hand, were ``obs``'s seat to hold it (``obs``'s own
    hand is ignored): the model of a seat's discards that ``research/inference.py`` reads worlds by."""
    view = _View(obs)
    out: list[list[float]] = []
    for hand in hands:
        view.hand = counts_of(hand)
        view.size = len(hand)
        cost = {c: _discard_cost(view, c, style) for c in set(hand)}
        out.append([cost[c] for c in hand])
    return out


def candidate_discards(obs: Observation, legal: list[Action], count: int, style: BasicStyle = DEFAULT_STYLE,
                       keep: Action | None = None) -> list[Action]:
    """``legal`` with its discards cut to the ``count`` that ``style`` rates cheapest (and ``keep``):
    what a search need consider. Only the Classic family's set variants are ranked; other
    variants' actions come back unchanged."""
    discards = [a for a in legal if a.kind == DISCARD]
    cls = find_variant(obs["variant"])
    if len(discards) <= count or any(getattr(cls, f, False) for f in ("MELD_IDS", "EXTENDED_SET_RULES", "FEET")):
        return legal
    view = _View(obs)
    ranked = sorted(discards, key=lambda a: (_discard_cost(view, a.cards[0], style), a.cards[0]))
    chosen = set(ranked[:count]) | ({keep} if keep is not None else set())
    return [a for a in legal if a.kind != DISCARD or a in chosen]


class BasicPlayer:
    """The rule-following player. ``seed`` is accepted for the common factory; play is deterministic.

    ``style`` holds the judgement calls (BasicStyle); the Classic-family decisions read it."""

    name = "basic"

    def __init__(self, seed: int | str | None = 0, hold_back: int | None = None,
                 style: BasicStyle = DEFAULT_STYLE) -> None:
        self.seed = seed
        self.style = style if hold_back is None else replace(style, hold_back=hold_back)
        self.hold_back = self.style.hold_back

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        return self.decide(obs, legal)[0]

    def decide(self, obs: Observation, legal: list[Action]) -> tuple[Action, str]:
        """The chosen action and a one-line reason."""
        if not legal:
            raise ValueError("no legal actions")
        cls = find_variant(obs["variant"])
        if getattr(cls, "MELD_IDS", False):
            return choose_runs(obs, legal)
        if getattr(cls, "EXTENDED_SET_RULES", False):
            if obs["phase"] == "answer":
                return self._answer(_View(obs), legal)
            return choose_american(obs, legal, self.style.american)
        if getattr(cls, "FEET", False):
            return choose_feet(obs, legal, self._feet_opening, self.style.feet)
        view = _View(obs)
        phase = obs["phase"]
        if phase == "answer":
            return self._answer(view, legal)
        if phase == "draw":
            return self._draw(view, legal)
        return self._play(view, legal)

    def _feet_opening(self, obs: Observation, legal: list[Action]) -> Action | None:
        """Hand and Foot below its opening minimum: the next step of the opening plan."""
        view = _View(obs)
        pending = view.pending > 0 and view.pending < view.minimum
        if pending:
            return self._opening_step(view, legal, view.minimum - view.pending)
        got = self._maybe_open(view, legal)
        return got[0] if got is not None else None

    # -- answering "may I go out?" ---------------------------------------------
    def _answer(self, view: _View, legal: list[Action]) -> tuple[Action, str]:
        pts = _meldable_points(view)
        if NO_ACTION in legal and pts >= self.style.say_no_points and view.size >= 3:
            return NO_ACTION, f"I hold {pts} points I could meld soon: not yet"
        if YES_ACTION in legal:
            return YES_ACTION, "partner may go out"
        return legal[0], "only choice"

    # -- start of turn ---------------------------------------------------------
    def _draw(self, view: _View, legal: list[Action]) -> tuple[Action, str]:
        takes = [a for a in legal if a.kind == TAKE and self._take_ok(view, a)]
        if takes:
            # no cards from hand first (adds to a meld), then a natural pair, then one natural and a wild
            def order(a: Action) -> tuple[int, int]:
                wild = sum(1 for c in a.cards if _is_wild(c))
                return (len(a.cards) if not wild else 3, -a.cards[0] if a.cards else 0)

            best = min(takes, key=order)
            return best, f"take the pile ({len(view.pile)} cards): taking the pack is the best way to get cards"
        for a in legal:
            if a.kind == DRAW:
                return a, "draw from the stock"
        for a in legal:
            if a.kind == END:
                return a, "the stock is used up and the pile is of no use"
        return legal[0], "only choice"

    def _take_ok(self, view: _View, a: Action) -> bool:
        top = view.pile[-1]
        wilds = sum(1 for c in a.cards if _is_wild(c))
        if wilds and len(view.pile) < self.style.wild_take_pile:
            return False  # a wild card is worth more than a small pile
        if view.opened:
            return True
        # Not yet opened: the top card, the cards shown and more melds from hand must reach the minimum.
        hand = list(view.hand)
        for c in a.cards:
            hand[c] -= 1
        value = view.values[top] + sum(view.values[c] for c in a.cards)
        melds = dict(view.own)
        melds[top >> 2] = _Meld(1 + len(a.cards) - wilds, wilds)
        return _opening_plan(view, hand, melds, view.minimum - view.pending - value) is not None

    # -- after drawing -----------------------------------------------------------
    def _play(self, view: _View, legal: list[Action]) -> tuple[Action, str]:
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        pending = not view.opened and view.pending > 0 and view.pending < view.minimum
        if pending:
            step = self._opening_step(view, legal, view.minimum - view.pending)
            if step is not None:
                return step, f"initial meld counts {view.pending} of {view.minimum}: meld more"
            if RETRACT in by_kind:
                return by_kind[RETRACT][0], "cannot reach the minimum count: retract (penalty +10 to the minimum)"
        if view.obs["permission"] is not False and _go_out_possible(view):
            if ASK in by_kind and view.obs["permission"] is None and view.partner is not None:
                return by_kind[ASK][0], "I can go out: ask partner first"
            choice = self._going_out_step(view, legal)
            if choice is not None:
                return choice
        if not view.opened and not pending:
            choice = self._maybe_open(view, legal)
            if choice is not None:
                return choice
        if view.opened:
            choice = self._build_step(view, legal)
            if choice is not None:
                return choice
        discards = by_kind.get(DISCARD, [])
        if discards:
            best = self._discard(view, discards)
            return best, self._discard_reason(view, best.cards[0])
        for kind in (END, RETRACT):
            if kind in by_kind:
                return by_kind[kind][0], "nothing else to do"
        return legal[0], "only choice"

    def _discard(self, view: _View, discards: list[Action]) -> Action:
        """The discard that ends the turn: the cheapest by the style's cost (a subclass may judge otherwise)."""
        return min(discards, key=lambda a: (_discard_cost(view, a.cards[0], self.style), a.cards[0]))

    def _opening_step(self, view: _View, legal: list[Action], need: int) -> Action | None:
        plan = _opening_plan(view, view.hand, view.own, need)
        if not plan:
            return None
        step = plan[0]
        for a in legal:
            if step.new and a.kind == MELD:
                rank, _, wild = _describe_meld(a)
                if rank != step.rank or wild != step.jokers + step.twos:
                    continue
                if wild and (JOKER in a.cards) != bool(step.jokers):
                    continue
                return a
            if not step.new and a.kind == ADD and a.target == step.rank:
                c = a.cards[0]
                if step.naturals and not _is_wild(c):
                    return a
                if not step.naturals and _is_wild(c) and (c == JOKER) == bool(step.jokers):
                    return a
        return None

    def _maybe_open(self, view: _View, legal: list[Action]) -> tuple[Action, str] | None:
        plan = _opening_plan(view, view.hand, view.own, view.minimum - view.pending)
        if not plan:
            return None
        used = sum(s.cards for s in plan)
        if view.size - used < self.hold_back and view.stock > self.style.late_stock:
            return None  # Bicycle: not fewer than six cards left after the initial meld
        a = self._opening_step(view, legal, view.minimum - view.pending)
        if a is None:
            return None
        return a, f"open: {used} cards reach the minimum of {view.minimum}"

    def _going_out_step(self, view: _View, legal: list[Action]) -> tuple[Action, str] | None:
        """Meld everything, in an order that builds canastas before the hand runs out."""
        adds_nat = [a for a in legal if a.kind == ADD and not _is_wild(a.cards[0])]
        if adds_nat:
            return adds_nat[0], "going out: add to our meld"
        melds = [a for a in legal if a.kind == MELD]
        for a in melds:
            rank, _, wild = _describe_meld(a)
            if rank not in (THREE, WILD_RANK) and not wild:
                return a, "going out: meld"
        for a in melds:
            rank, _, wild = _describe_meld(a)
            if rank not in (THREE, WILD_RANK) and wild and view.rank_count(rank) == 2:
                return a, "going out: meld a pair with a wild card"
        add_wild = [a for a in legal if a.kind == ADD and _is_wild(a.cards[0]) and a.target in view.own]
        if add_wild:
            best = min(add_wild, key=lambda a: (view.own[a.target].size >= 7, -view.own[a.target].size))
            return best, "going out: wild card onto a meld"
        for a in melds:
            if _describe_meld(a)[0] == THREE and len(a.cards) == view.hand[12] + view.hand[15]:
                return a, "going out: meld the black threes"
        discards = [a for a in legal if a.kind == DISCARD]
        if view.size == 1 and discards:
            return discards[0], "going out with the last discard"
        return None

    def _build_step(self, view: _View, legal: list[Action]) -> tuple[Action, str] | None:
        """With the side open: add naturals, lay out natural melds, complete canastas with wild cards."""
        for a in legal:
            if a.kind == ADD and not _is_wild(a.cards[0]):
                return a, "add to our meld"
        for a in legal:
            if a.kind == MELD:
                rank, _, wild = _describe_meld(a)
                if not wild and rank not in (THREE, WILD_RANK):
                    return a, "lay out a variety of melds"
        need_canasta = not view.canastas_ok(view.own)
        for a in legal:
            if a.kind == ADD and _is_wild(a.cards[0]) and a.target in view.own:
                m = view.own[a.target]
                if self.style.wild_completes <= m.size <= 6 or (
                        need_canasta and m.size >= 5 and view.stock < self.style.late_stock):
                    return a, "a wild card completes a canasta"
        return None

    @staticmethod
    def _discard_reason(view: _View, code: int) -> str:
        if code in _BLACK_THREES:
            return "discard a black three: the next player cannot take the pile"
        if _is_wild(code):
            return "discard a wild card to freeze the pile"
        r = code >> 2
        if view.rank_count(r) == 1:
            return "discard a singleton the next opponent is unlikely to take"
        return "discard the least useful card"

