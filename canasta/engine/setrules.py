"""Extended set-meld rules on the Classic turn structure: Modern American Canasta's moves and checks.

A variant that sets ``EXTENDED_SET_RULES`` keeps Classic's state and turn (draw or
take, melds and additions, discard), played by :class:`~canasta.engine.american.AmericanGame`,
whose overridden steps send these decision points here:

- the take of the pile (always with a natural pair; a meld never over ``MELD_MAX``;
  dead ranks; the initial meld before the pile: the top card and a lone pair never count);
- meld validity (the variant's ``wild_problem``, wild melds, dead ranks, ``MELD_MAX``,
  never melding down to no card, one card left only to go out or before bonus cards);
- discards (the variant's restrictions by card and pile state, checked by the engine:
  the text's 'show your hand' cases);
- the legal actions of the play phase, and whether a player can still go out (the search
  behind a binding yes to 'may I go out?').

The table these read (the initial meld, dead ranks, threes, bonus cards, special hands) is
:mod:`canasta.engine.american_table`'s, below this module. The functions take the game as
their first argument; the variant supplies the data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.cards import JOKER, format_card, format_rank
from canasta.engine.actions import (
    ADD,
    ADD_NATURAL_ACTIONS,
    ASK_ACTION,
    DISCARD,
    DISCARD_ACTIONS,
    END_ACTION,
    MELD,
    RETRACT_ACTION,
    Action,
    add_wild_action,
    meld_action,
)
from canasta.engine.setmeld import Meld, wild_mixes

if TYPE_CHECKING:
    pass


from canasta.engine.american_table import (
    ACE,
    SEVEN,
    WILD_RANK,
    SetRulesGame,
    _bonus_due,
    _can_go_out,
    _canastas,
    _citing,
    _first_cards,
    _light_copy,
    _opening_possible,
    _overflow_ok,
    _placeable,
    _plain_counts,
    _v,
    check_three_layout,
    dead_ranks,
    discard_problem,
    initial_turn,
    is_dead,
    is_three_layout,
    is_wild,
    opening,
    pending_met,
    special_actions,
    three_layout_actions,
)

_WILD_BLOCK = ("your side has an incomplete meld of wild cards: 'you cannot add any wild cards to any of your other "
               "melds until your wild card canasta is complete' (Terms)")

_WILD = tuple(c == JOKER or 8 <= c <= 11 for c in range(64))

#: wild cards and threes: discards with rules of their own
_ODD_DISCARD = tuple(c == JOKER or 8 <= c <= 15 for c in range(64))

#: (variant class, rank, naturals, wild cards) -> may a meld put down in the initial meld's turn
#: hold them (the variant's wild_problem with initial=True; it reads only class constants)
_INITIAL_WILDS_OK: dict[tuple[type, int, int, int], bool] = {}

#: (variant class, rank, naturals, wild cards, meld put down this initial turn) -> may a wild card be
#: added (the variant's wild_capacity and wild_problem: class constants, American fixing wild_limit)
_WILD_ADD_OK: dict[tuple[type, int, int, int, bool], bool] = {}

#: the interned actions of canasta.engine.actions and their makers, bound to locals by _natural_plays
_INTERNED = (ADD_NATURAL_ACTIONS, DISCARD_ACTIONS, add_wild_action, meld_action)

#: nodes a going-out search may visit before giving up (then the yes cannot bind: see may_ask)
GO_OUT_SEARCH_LIMIT = 150


def check_take(g: SetRulesGame, action: Action, raise_error: bool) -> bool:
    v = _v(g)
    seat = g.turn
    side = g._sides[seat]
    f = _citing(g)
    if g.pile_barred:
        return f(raise_error, "pile-barred", "you took back a pile take this turn: draw from the stock")
    if not g.pile:
        return f(raise_error, "pile-empty", "the discard pile is empty")
    top = g.pile[-1]
    if g._blocks_pile[top]:
        return f(raise_error, "pile-blocked",
                 f"the pile is topped by {format_card(top)}: no natural pair can match it " + (v.FROZEN_PILE_TEXT or ""))
    cards = action.cards
    r = top >> 2
    if len(cards) != 2 or any(is_wild(c) for c in cards):
        return f(raise_error, "pile-frozen", "take the pile only with two natural cards of the top card's rank "
                 + (v.FROZEN_PILE_TEXT or ""))
    if any(c >> 2 != r for c in cards):
        return f(raise_error, "take-rank", f"the cards shown must match the top card's rank ({format_rank(r)})")
    if not g._has_cards(g.hands[seat], cards):
        return f(raise_error, "not-in-hand", "you do not hold those cards")
    if is_dead(g, r):
        return f(raise_error, "dead-rank",
                 f"{format_rank(r)}s are dead (a closed natural canasta): 'neither team is allowed to begin or add "
                 "to a meld of that rank' (Terms)")
    meld = g.melds[side].get(r)
    if meld is not None and len(meld.cards) + 3 > v.MELD_MAX:
        return f(raise_error, "meld-max",
                 f"your side has {len(meld.cards)} {format_rank(r)}s: taking would make a meld of more than seven cards "
                 "(Terms: 'they cannot take the pile since this would create a meld of more than seven cards')")
    hand_after = g.hand_sizes[seat] - 2
    if not g.opened[side]:
        if not v.take_on_initial:
            return f(raise_error, "initial-take",
                     "your side has not melded: with table rule take_pile_on_initial_meld off, meld first and draw "
                     "(Encyclopedia: 'Many groups do not allow taking the pile and making your team's initial meld on "
                     "the same turn')")
        left = list(g.hands[seat])
        for c in cards:
            left[c] -= 1
        if not _opening_possible(g, side, left, r):
            return f(raise_error, "minimum-count",
                     f"your side's initial meld needs {g.minimum(side)} points and a pure meld from your hand, laid "
                     "down before any card of the pile is taken (Terms 'The Initial Meld'): your hand cannot make it")
        return True
    after = hand_after + len(g.pile) - 1
    if after == 0:
        return f(raise_error, "no-discard-left", "taking that pile would leave you no card to discard")
    if after == 1:
        counts = _canastas(g, side) + (1 if meld is not None and len(meld.cards) + 3 >= 7 else 0)
        why = _can_go_out(g, side, counts)
        if why:
            return f(raise_error, "cannot-go-out", why)
    return True


def check_meld_like(g: SetRulesGame, action: Action, raise_error: bool) -> bool:
    seat = g.turn
    side = g._sides[seat]
    f = _citing(g)
    cards = action.cards
    if g.phase != "play":
        return f(raise_error, "draw-first", "draw first")
    if len(cards) == 1 and action.kind == MELD and cards[0] >> 2 == 3:
        return check_three_layout(g, action, raise_error)
    if not cards:
        return f(raise_error, "no-cards", "name the cards to meld")
    if not g._has_cards(g.hands[seat], cards):
        return f(raise_error, "not-in-hand", "you do not hold those cards")
    nat_codes = [c for c in cards if not _WILD[c]]
    for c in nat_codes:
        if c >> 2 == 3:
            return f(raise_error, "three-meld", "threes are laid out, never melded (Terms 'Threes in American Canasta')")
    if action.kind == MELD:
        refusal = _new_meld_refusal(g, action, nat_codes)
        closes = len(cards) >= 7
    else:
        refusal = _addition_refusal(g, action, nat_codes)
        m = g.melds[side].get(action.target)
        closes = m is not None and len(m.cards) < 7 <= len(m.cards) + len(cards)
    if refusal is None:
        refusal = _what_is_left_refusal(g, action, int(closes))
    if refusal is not None:
        return f(raise_error, *refusal)
    return True


def _wild_block(g: SetRulesGame, side: int, initial: bool) -> bool:
    """Terms: a started meld of wild cards must be completed before wild cards go anywhere else."""
    wild_meld = g.melds[side].get(WILD_RANK)
    return wild_meld is not None and len(wild_meld.cards) < 7 and not initial


def _new_meld_refusal(g: SetRulesGame, action: Action, nat_codes: list[int]) -> tuple[str, str] | None:
    """Why a new meld of these cards is refused (rule, message), or None."""
    v = _v(g)
    side = g._sides[g.turn]
    melds = g.melds[side]
    cards = action.cards
    wilds = len(cards) - len(nat_codes)
    if not nat_codes:
        if len(cards) < 3:
            return "meld-size", "a meld needs at least three cards"
        if WILD_RANK in melds:
            return "duplicate-meld", "your side already has a meld of wild cards"
        if len(cards) > v.MELD_MAX and not _overflow_ok(g, action, _canastas(g, side) + 1):
            return "meld-max", "a meld can never contain more than seven cards (Terms)"
        return None
    rank = nat_codes[0] >> 2
    for c in nat_codes:
        if c >> 2 != rank:
            return "meld-rank", "a meld is three or more cards of one rank"
    if rank in melds:
        return "duplicate-meld", (f"your side already has a meld of {format_rank(rank)}s: 'One team is not allowed to "
                                  "have more than one meld of the same rank' (Terms)")
    if is_dead(g, rank):
        return "dead-rank", (f"{format_rank(rank)}s are dead (a closed natural canasta): 'neither team is allowed to "
                             "begin or add to a meld of that rank' (Terms)")
    if len(nat_codes) < 2:
        return "meld-naturals", "a meld must contain at least two natural cards"
    if len(cards) < 3:
        return "meld-size", "a meld needs at least three cards"
    if len(cards) > v.MELD_MAX and not _overflow_ok(g, action, _canastas(g, side) + 1):
        return "meld-max", "a meld can never contain more than seven cards (Terms)"
    if wilds:
        initial = initial_turn(g, side)
        if _wild_block(g, side, initial):
            return "wild-meld-open", _WILD_BLOCK
        if not initial:
            return "wild-limit", ("a meld begun after the initial meld must be clean until it holds five natural "
                                  "cards (Terms: 'any new melds begun ... in future turns must be clean')")
        why = v.wild_problem(rank, len(nat_codes), wilds, initial=True, created_dirty=True)
        if why:
            return "wild-limit", why
    return None


def _addition_refusal(g: SetRulesGame, action: Action, nat_codes: list[int]) -> tuple[str, str] | None:
    """Why adding these cards to the side's meld of ``action.target`` is refused (rule, message), or None."""
    v = _v(g)
    side = g._sides[g.turn]
    cards = action.cards
    wilds = len(cards) - len(nat_codes)
    rank = action.target
    m = g.melds[side].get(rank)
    if m is None:
        return "no-such-meld", "your side has no meld of that rank"
    if len(m.cards) + len(cards) > v.MELD_MAX and not _overflow_ok(g, action, _canastas(g, side) + (len(m.cards) < 7)):
        return "meld-max", "a meld can never contain more than seven cards (Terms)"
    if rank != WILD_RANK and len(m.cards) >= 7 and m.wilds == 0:  # (only reachable past seven cards)
        return "dead-rank", (f"{format_rank(rank)}s are dead (a closed natural canasta): 'neither team is allowed to "
                             "begin or add to a meld of that rank' (Terms)")
    if rank == WILD_RANK:
        if nat_codes:
            return "meld-rank", "only wild cards go on a meld of wild cards"
        return None
    if any(c >> 2 != rank for c in nat_codes):
        return "meld-rank", f"only {format_rank(rank)}s and wild cards can be added to that meld"
    if wilds:
        initial = initial_turn(g, side)
        if _wild_block(g, side, initial):
            return "wild-meld-open", _WILD_BLOCK
        fresh = initial and rank in g.turn_created
        # naturals named with the wild cards go on first
        # within the initial meld's turn a meld is still being 'put down': A-A-A and a joker
        # is the dirty ace meld A-A-A-joker (the only way when the pile's top card is an ace)
        why = v.wild_problem(rank, m.naturals + len(nat_codes), m.wilds + wilds, initial=fresh,
                             created_dirty=m.wilds > 0 or fresh)
        if why:
            return "wild-limit", why
    return None


def _what_is_left_refusal(g: SetRulesGame, action: Action, canastas: int) -> tuple[str, str] | None:
    """A meld must leave a card to discard, and leaves one only to go out (or in the initial meld before the
    turn card); a 'yes' to going out binds. ``canastas``: the canastas this action closes."""
    seat = g.turn
    side = g._sides[seat]
    left = g.hand_sizes[seat] - len(action.cards)
    if g.pile_aside is not None and opening(g, side, action)[1]:
        left += len(g.pile_aside)
    if left == 0:
        return "must-discard", ("you may not meld all your cards: 'you must have a card to discard at the end of your "
                                "turn' (Terms)")
    if left == 1:
        why = _can_go_out(g, side, _canastas(g, side) + canastas)
        if why and not (_bonus_due(g, side, initial_turn(g, side))):
            return "one-card", ("you may not meld down to one card unless you can go out, or you are making your "
                                "side's initial meld before the turn card is drawn (Terms): " + why)
    if g.permission is True:
        why3 = binding_problem(g, action)
        if why3:
            return "must-go-out", why3
    return None


def filter_play(g: SetRulesGame, actions: list[Action], pending_ok: bool | None = None) -> list[Action]:
    """The legal ones of the Classic candidate moves of the play phase (where :func:`play_actions` leaves the
    decision to the general path: the per-position facts are computed once; edge cases go through the full
    checks)."""
    facts = _PlayFacts(g, pending_ok)
    out: list[Action] = []
    for a in actions:
        kind = a.kind
        if kind == DISCARD:
            keep = facts.keeps_discard(a)
        elif kind in (MELD, ADD):
            keep = facts.keeps_meld(a)
        else:
            keep = True
        if keep:
            out.append(a)
    if g.permission is True:
        out = [a for a in out if binding_problem(g, a) is None]
    return out


class _PlayFacts:
    """What :func:`filter_play` asks of the position for each candidate, computed once (some only when asked)."""

    def __init__(self, g: SetRulesGame, pending_ok: bool | None) -> None:
        self.g = g
        self.v = _v(g)
        seat = g.turn
        self.side = side = g._sides[seat]
        self.melds = melds = g.melds[side]
        self.size = size = g.hand_sizes[seat]
        self.initial = initial_turn(g, side)
        wild_meld = melds.get(WILD_RANK)
        self.wild_block = wild_meld is not None and len(wild_meld.cards) < 7 and not self.initial
        self.hand = hand = g.hands[seat]
        self.all_wild = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11] == size
        self.pile = bool(g.pile)
        self.aside = g.pile_aside is not None
        self.pending_ok = pending_ok
        self.plain_discards = pending_ok is True and size > 1 and self.pile
        self._dead: list[int] | None = None
        self._empty_pile: tuple[int, int] | None = None

    def dead(self) -> list[int]:
        if self._dead is None:
            self._dead = dead_ranks(self.g)
        return self._dead

    def keeps_discard(self, a: Action) -> bool:
        g = self.g
        c = a.cards[0]
        if self.plain_discards and not _ODD_DISCARD[c]:
            return True  # a natural card onto a pile with cards, the hand keeping some
        if c >> 2 == 3:
            return self.size == 1 and check_discard(g, a, False)  # threes_optional: the final discard
        if self.pending_ok is None:
            self.pending_ok = pending_met(g, self.side)
        if not self.pending_ok:
            return False
        if self.size == 1:
            return check_discard(g, a, False)
        if _WILD[c]:
            return self.all_wild
        if not self.pile:
            if self._empty_pile is None:
                self._empty_pile = _plain_counts(self.hand, self.dead())
            r = c >> 2
            if r in (SEVEN, ACE):
                return not (self._empty_pile[0] or self._empty_pile[1])
            if r in self.dead() and self._empty_pile[0]:
                return False
        return True

    def keeps_meld(self, a: Action) -> bool:
        g, v = self.g, self.v
        kind, cards, target = a
        wild_of = _WILD
        n = len(cards)
        if self.aside or self.size - n <= 1 or (n == 1 and kind == MELD):
            return check_meld_like(g, a, False)
        wilds = sum(wild_of[c] for c in cards)
        if kind == MELD:
            if wilds == n:
                return n >= 3 and WILD_RANK not in self.melds
            r = (next(c for c in cards if not wild_of[c]) if wild_of[cards[0]] else cards[0]) >> 2
            if r == 3 or r in self.melds or r in self.dead():
                return False
            if wilds:
                if self.wild_block or not self.initial:
                    return False
                key = (type(v), r, n - wilds, wilds)
                ok = _INITIAL_WILDS_OK.get(key)
                if ok is None:
                    ok = _INITIAL_WILDS_OK[key] = v.wild_problem(r, n - wilds, wilds, initial=True,
                                                                 created_dirty=True) is None
                return ok
            return True
        m = self.melds.get(target)
        if m is None or len(m.cards) + n > v.MELD_MAX:
            return False
        if target == WILD_RANK:
            return wilds == n
        if wilds:
            if self.wild_block:
                return False
            fresh = self.initial and target in g.turn_created
            if v.wild_problem(target, m.naturals + n - wilds, m.wilds + wilds, initial=fresh,
                              created_dirty=m.wilds > 0 or fresh):
                return False
        return True


def play_actions(g: SetRulesGame) -> list[Action] | None:
    """The legal moves of the play phase generated directly, in the order Classic's candidates filtered
    by :func:`filter_play` would give them; None where that general path must decide (a hand of four
    cards or fewer, a pile waiting for the initial meld, a yes or no given, the table rules of threes
    and overflowing melds). The common case of American's random playouts and searches; the test
    ``test_direct_play_moves_equal_the_filtered_candidates`` compares both paths."""
    v = _v(g)
    seat = g.turn
    size = g.hand_sizes[seat]
    if (size <= 4 or g.pile_aside is not None or g.permission is not None or g.unusable is not None
            or v.threes_optional or v.going_out_overflow):
        return None
    side = g._sides[seat]
    hand = g.hands[seat]
    melds = g.melds[side]
    initial = not g.opened[side] or (g.opened_turn and not g.took_pile)  # initial_turn()
    dead = [m.rank for side_melds in g.melds for m in side_melds.values()
            if len(m.cards) >= 7 and not m.wilds and m.rank != WILD_RANK]  # dead_ranks(), unsorted
    wilds = [JOKER] if hand[JOKER] else []  # one of each kind of wild card: a joker, the first two held
    two = 8 if hand[8] else 9 if hand[9] else 10 if hand[10] else 11 if hand[11] else None
    if two is not None:
        wilds.append(two)
    nw = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
    out, naturals = _natural_plays(g, hand, melds, dead, wilds, initial)
    if wilds:
        out += _wild_additions(g, melds, wilds, initial)
    if v.wild_canastas and melds.get(WILD_RANK) is None and nw >= 3:
        out.extend(meld_action(cards) for cards in wild_mixes(hand, 3))
    pending_ok = g.opened[side] or not g.turn_created or opening(g, side)[1]  # pending_met()
    if pending_ok and not g.no_discard:
        out += _direct_discards(g, hand, naturals, dead, two, nw == size)
    if not pending_ok:
        out.append(RETRACT_ACTION)
    if g.no_discard and pending_ok:
        out.append(END_ACTION)
    if not g.asked and may_ask(g):
        out.append(ASK_ACTION)
    if (hand[12] or hand[13] or hand[14] or hand[15]) and g.stock:
        out.extend(three_layout_actions(g))
    if size == 14:
        out.extend(special_actions(g))
    return out


def _natural_plays(g: SetRulesGame, hand: list[int], melds: dict[int, Meld], dead: list[int], wilds: list[int],
                   initial: bool) -> tuple[list[Action], list[int]]:
    """Rank by rank: a natural addition, or new melds (wild cards only in the initial meld's turn); and the
    first card of each natural rank held, for the discards."""
    v = _v(g)
    add_natural, _, _, meld_action = _INTERNED
    vcls = type(v)
    size = g.hand_sizes[g.turn]
    nw = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
    out: list[Action] = []
    append = out.append
    naturals: list[int] = []
    for r in range(4, 15):
        base = r * 4
        h0, h1, h2, h3 = hand[base:base + 4]
        nat = h0 + h1 + h2 + h3
        if not nat:
            continue
        first = base if h0 else base + 1 if h1 else base + 2 if h2 else base + 3
        naturals.append(first)
        m = melds.get(r)
        if m is not None:
            if len(m.cards) < v.MELD_MAX:
                append(add_natural[first])
        elif nat >= 2 and r not in dead:
            pair, third = _first_cards(base, h0, h1, h2, h3)
            if nat >= 3:
                append(meld_action((*pair, third)))
            if initial and r != SEVEN:  # a new meld may hold a wild card only in the initial meld's turn
                for w in wilds:
                    append(meld_action((*pair, w)))
                if nw >= 2:  # Terms: 'mixed melds of two cards and up to two wild cards' (a start of its own)
                    two_wilds = (vcls, r, 2, 2)
                    ok = _INITIAL_WILDS_OK.get(two_wilds)
                    if ok is None:
                        ok = _INITIAL_WILDS_OK[two_wilds] = v.wild_problem(r, 2, 2, initial=True,
                                                                           created_dirty=True) is None
                    if ok:
                        for extra in wild_mixes(hand, 2):  # (four cards: leaving one is checked in full)
                            start = meld_action((*pair, *extra))
                            if size > 5 or check_meld_like(g, start, False):
                                append(start)
    return out, naturals


def _wild_additions(g: SetRulesGame, melds: dict[int, Meld], wilds: list[int], initial: bool) -> list[Action]:
    """A wild card of each kind onto each meld that may take one (the pile of wild cards always)."""
    v = _v(g)
    add_wild = add_wild_action
    vcls = type(v)
    wild_meld = melds.get(WILD_RANK)
    wild_block = wild_meld is not None and len(wild_meld.cards) < 7 and not initial
    out: list[Action] = []
    for r, m in melds.items():
        if len(m.cards) >= v.MELD_MAX:
            continue
        if r == WILD_RANK:
            out.extend(add_wild(w, r) for w in wilds)
            continue
        if wild_block:
            continue
        fresh = initial and r in g.turn_created
        key = (vcls, r, m.naturals, m.wilds, fresh)
        ok = _WILD_ADD_OK.get(key)
        if ok is None:
            ok = _WILD_ADD_OK[key] = v.wild_capacity(m.naturals, m.wilds, False) > 0 and v.wild_problem(
                r, m.naturals, m.wilds + 1, initial=fresh, created_dirty=m.wilds > 0 or fresh) is None
        if ok:
            out.extend(add_wild(w, r) for w in wilds)
    return out


def _direct_discards(g: SetRulesGame, hand: list[int], naturals: list[int], dead: list[int], two: int | None,
                     only_wild: bool) -> list[Action]:
    """A discard of each natural rank (Terms: onto an empty pile no ace or seven, and no dead card, while
    there is an alternative); a wild card only from a hand of wild cards."""
    discard_actions = DISCARD_ACTIONS
    out: list[Action] = []
    if g.pile:
        out.extend(discard_actions[c] for c in naturals)
    else:
        live, dead_n = _plain_counts(hand, dead)
        for c in naturals:
            r = c >> 2
            if r in (SEVEN, ACE) and (live or dead_n):
                continue
            if r in dead and live:
                continue
            out.append(discard_actions[c])
    if only_wild:
        if two is not None:
            out.append(discard_actions[two])
        if hand[JOKER]:
            out.append(discard_actions[JOKER])
    return out


def extra_play_actions(g: SetRulesGame) -> list[Action]:
    """Candidates of the play phase that Classic does not list: laying out the kept three (Terms: 'you
    may lay the three face up in your team's meld area and draw a replacement card') and the special hands."""
    seat = g.turn
    out = three_layout_actions(g)
    if g.hand_sizes[seat] == 14:
        out.extend(special_actions(g))
    hand = g.hands[seat]
    if g.hand_sizes[seat] == 1 and (hand[13] or hand[14]) and _v(g).threes_optional:
        out.append(Action(DISCARD, (13 if hand[13] else 14,)))  # Classic lists only the black threes' discard
    return out


def check_discard(g: SetRulesGame, action: Action, raise_error: bool) -> bool:
    seat = g.turn
    side = g._sides[seat]
    f = _citing(g)
    if len(action.cards) != 1:
        return f(raise_error, "discard-one", "discard exactly one card")
    c = action.cards[0]
    hand = g.hands[seat]
    if not g._has_cards(hand, action.cards):
        return f(raise_error, "not-in-hand", "you do not hold that card")
    if c >> 2 == 3:
        if not _v(g).threes_optional:
            return f(raise_error, "three-discard", "threes can never be discarded (Terms)")
        if g.hand_sizes[seat] != 1 or _can_go_out(g, side, _canastas(g, side)) is not None:
            return f(raise_error, "three-discard", "a three may be discarded only as your final discard when going "
                     "out (Encyclopedia, table rule threes_optional)")
    if not pending_met(g, side):
        return f(raise_error, "minimum-count",
                 f"your initial meld counts {opening(g, side)[0]} of the {g.minimum(side)} needed and must include a "
                 "pure meld of three natural cards (Terms 'The Initial Meld'): meld more, or take it back with retract")
    if g.hand_sizes[seat] == 1:
        why = _can_go_out(g, side, _canastas(g, side))
        if why is None:
            return True  # 'This final discard is made face-down, and this is the only case in which a wild card can be discarded.'
        if not _bonus_due(g, side, g.opened_turn):
            return f(raise_error, "cannot-go-out", why)
    why2 = discard_problem(g, hand, c)
    if why2:
        return f(raise_error, "discard-restricted", why2)
    if g.permission is True:
        why3 = binding_problem(g, action)
        if why3:
            return f(raise_error, "must-go-out", why3)
    return True


def do_discard(g: SetRulesGame, action: Action) -> None:
    v = _v(g)
    seat = g.turn
    side = g._sides[seat]
    c = action.cards[0]
    g._remove_from_hand(seat, action.cards)
    g.pile.append(c)
    if g.hand_sizes[seat] == 0 and _can_go_out(g, side, _canastas(g, side)) is None:
        g._go_out(seat)
        return
    if _bonus_due(g, side, g.opened_turn):
        others = any(g.opened[s] for s in range(g.num_sides) if s != side)
        k = v.BONUS_CARDS[1] if others else v.BONUS_CARDS[0]
        for _ in range(k):
            g.bonus[seat].append(g.stock.pop())
    g._next_turn()


def _go_out_key(g: SetRulesGame) -> tuple[object, ...]:
    seat = g.turn
    side = g._sides[seat]
    melds = tuple(sorted((r, len(m.cards), m.wilds) for r, m in g.melds[side].items()))
    return (tuple(g.hands[seat]), melds, tuple(dead_ranks(g)), tuple(sorted(g.turn_created)), g.opened_turn,
            g.took_pile, g.pile_aside is None, bool(g.stock))


def can_go_out(g: SetRulesGame) -> bool:
    """Can the player to move still go out this turn (meld down to one card, then discard it)?

    For a side past its initial meld, counted directly (:func:`_go_out_by_counts`); otherwise a
    bounded search over the engine's own meld and add actions (memoised on the game), where a
    position the search cannot settle within :data:`GO_OUT_SEARCH_LIMIT` nodes counts as 'cannot'."""
    counted = _go_out_by_counts(g)
    if counted is not None:
        return counted
    if _surely_stuck(g):
        return False
    memo = g._go_out_memo
    if memo is None or len(memo) > 20000:
        memo = g._go_out_memo = {}
    return _go_out_search(_light_copy(g), memo, [0])


def _go_out_by_counts(g: SetRulesGame) -> bool | None:
    """Going out decided on card counts, for a side past its initial meld (None: not this case).

    After the initial meld every natural card can only go to its rank's meld (new melds are clean until
    five naturals: 'any new melds begun ... in future turns must be clean'), so the only choices are the
    final discard and where the wild cards go: onto melds with five naturals and fewer than two wild
    cards (not sevens, not pure aces), or into the wild meld, which takes every wild card until it is
    complete ('you cannot add any wild cards to any of your other melds until your wild card canasta is
    complete'). The side goes out if, with one card left to discard, every other card has a place and
    two canastas are made. tests/test_variants_american.py checks it against the search."""
    v = _v(g)
    seat = g.turn
    side = g._sides[seat]
    if (not g.opened[side] or initial_turn(g, side) or g.pile_aside is not None or v.going_out_overflow
            or v.threes_optional):
        return None
    hand = g.hands[seat]
    if hand[12] or hand[13] or hand[14] or hand[15]:
        return None  # (a three in hand past the initial meld only while the stock's last card ends the play)
    melds = g.melds[side]
    dead = dead_ranks(g)
    counts = {}
    stuck = 0  # naturals with no place: a rank of one or two cards and no meld, or a dead rank
    for r in range(4, 15):
        b = r * 4
        n = counts[r] = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        if n and ((n < 3 and r not in melds) or r in dead):
            stuck += n
            if stuck > 1:
                return False  # one of them could be the discard, not two
    wilds = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
    # the final discard: one natural of a rank, or one wild card
    for discard in [None, *(r for r, n in counts.items() if n)]:
        if discard is None and not wilds:
            continue
        if _placeable(v, melds, dead, counts, wilds - (discard is None), discard):
            return True
    return False


def _surely_stuck(g: SetRulesGame) -> bool:
    """A quick necessary test: more than one card of the hand has nowhere to go (a lone natural or a
    pair without a meld of its rank, a dead rank, a three)."""
    seat = g.turn
    hand = g.hands[seat]
    melds = g.melds[g._sides[seat]]
    need = g.variant.canastas_to_go_out - sum(1 for m in melds.values() if len(m.cards) >= 7)
    if need > 0:  # canastas still to close: an upper bound on those the hand can close
        wilds = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
        possible = 0
        for r, m in melds.items():
            if len(m.cards) < 7:
                nat = 0 if r == WILD_RANK else sum(hand[r * 4:r * 4 + 4])
                possible += len(m.cards) + nat + wilds >= 7
        possible += sum(1 for r in range(4, 15) if r not in melds and sum(hand[r * 4:r * 4 + 4]) + wilds >= 7)
        possible += WILD_RANK not in melds and wilds >= 7
        if possible < need:
            return True
    dead = dead_ranks(g)
    stuck = hand[12] + hand[13] + hand[14] + hand[15]
    wilds = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
    if wilds:  # wild cards need a meld that takes them (five naturals, not sevens), or a wild meld
        v = _v(g)
        wm = melds.get(WILD_RANK)
        home = (wm is not None and len(wm.cards) < 7) or (wm is None and wilds >= 3)
        for r, m in melds.items():
            if home:
                break
            if r != WILD_RANK and r != SEVEN and len(m.cards) < 7 and m.wilds < v.MAX_WILDS:
                home = m.naturals + sum(hand[r * 4:r * 4 + 4]) >= v.WILD_AFTER_NATURALS
        if not home:  # or a new meld of the hand with five naturals (or begun with a wild in the initial meld)
            home = any(r not in melds and r != SEVEN and sum(hand[r * 4:r * 4 + 4]) >= 2 for r in range(4, 15))
        if not home:
            stuck += wilds
    for r in range(4, 15):
        b = r * 4
        n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        if not n:
            continue
        if r in dead:
            stuck += n
        elif r in melds:
            if len(melds[r].cards) >= 7:
                stuck += n
        elif n < 3:
            stuck += n
        if stuck > 1:
            return True
    return False


def _go_out_search(g: SetRulesGame, memo: dict[tuple[object, ...], bool], nodes: list[int]) -> bool:
    key = _go_out_key(g)
    got = memo.get(key)
    if got is not None:
        return got
    nodes[0] += 1
    if nodes[0] > GO_OUT_SEARCH_LIMIT:
        return False
    if _surely_stuck(g):  # the quick bound prunes most branches before any copy
        memo[key] = False
        return False
    seat = g.turn
    side = g._sides[seat]
    c = g.copy()
    c.permission = None
    c.asked = True  # no asking inside the search
    c._go_out_memo = memo
    # each step is checked in full here (the search does not lean on filter_play's shortcuts)
    if g.hand_sizes[seat] == 1:
        ok = _canastas(g, side) >= c.variant.canastas_to_go_out and pending_met(g, side) and any(
            a.kind == DISCARD and check_discard(c, a, False) for a in c.legal_actions())
        memo[key] = ok
        return ok
    hand_no = g.hand_no
    ok = False
    for a in c.legal_actions():
        if (a.kind != MELD and a.kind != ADD) or is_three_layout(a) or not check_meld_like(c, a, False):
            continue
        child = c.copy()
        child.push(a)
        if child.hand_no != hand_no or child.is_over:
            continue
        if _go_out_search(child, memo, nodes):
            ok = True
            break
    if nodes[0] <= GO_OUT_SEARCH_LIMIT:
        memo[key] = ok
    return ok


def may_ask(g: SetRulesGame) -> bool:
    """Terms: 'When you are in a position to go out you may, if you wish, first ask your partner's
    permission. ... You may ask permission to go out only once in each hand.' In a position to go out:
    after drawing from the stock, before melding, with the side's two canastas already made, and a way
    out of the hand (:func:`can_go_out`)."""
    seat = g.turn
    if g.phase != "play" or not g.opened[g._sides[seat]] or g.asked_hand[seat] or g.asked or g.took_pile or g.turn_created or g.turn_added_existing or g.no_discard:
        return False
    if g.pending_value or g._partners[seat] is None:
        return False
    # with fewer than two canastas the position to go out is one that closes them on the way out:
    # can_go_out's quick bound (_surely_stuck) settles most such hands without a search
    return can_go_out(g)


def binding_problem(g: SetRulesGame, action: Action) -> str | None:
    """Terms: 'If you ask, and partner says yes, you must go out': after a yes every step must keep going
    out possible, and a discard must be the final one. (If the search cannot show a way out, the yes
    cannot bind and nothing is refused, so that a position always has a legal action.)"""
    kind = action.kind
    if kind != DISCARD and kind != MELD and kind != ADD:
        return None
    if not can_go_out(g):
        return None
    if kind == DISCARD:
        if g.hand_sizes[g.turn] == 1:
            return None
        return "your partner said yes to 'may I go out?': 'If you ask, and partner says yes, you must go out' (Terms)"
    child = _light_copy(g)
    child.permission = None
    child.asked = True
    child.push(action)
    if child.hand_no == g.hand_no and not child.is_over and not can_go_out(child):
        return ("your partner said yes to 'may I go out?': 'you must go out', and this would leave you unable to "
                "(Terms)")
    return None


__all__ = ["check_discard", "check_meld_like", "check_take", "dead_ranks", "opening", "pending_met"]
