"""Extended set-meld rules on the Classic turn structure: Modern American Canasta.

A variant that sets ``EXTENDED_SET_RULES`` keeps Classic's state and turn (draw or
take, melds and additions, discard), played by :class:`~canasta.engine.american.AmericanGame`,
whose overridden steps send these decision points here:

- the take of the pile (always with a natural pair; a meld never over ``MELD_MAX``;
  dead ranks; the initial meld before the pile: the top card and a lone pair never count);
- meld validity (the variant's ``wild_problem``, wild melds, dead ranks, ``MELD_MAX``,
  never melding down to no card, one card left only to go out or before bonus cards);
- the initial meld (``opening``: minimum, the required pure meld, the splash);
- discards (the variant's restrictions by card and pile state, checked by the engine:
  the text's 'show your hand' cases);
- threes of both colours laid out and replaced, the last card of the stock a three;
- bonus cards: a per-seat face-down stack drawn after the discard of the initial meld's
  turn while the turn card is in the stock, added to the hand at the seat's next turn.

The functions take the game as their first argument; the variant supplies the data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

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
    SPECIAL,
    SPECIAL_HANDS,
    Action,
    add_wild_action,
    meld_action,
)
from canasta.engine.setmeld import wild_mixes
from canasta.errors import IllegalActionError

if TYPE_CHECKING:
    from canasta.engine.setmeld import Meld
    from canasta.variants.american import American
    from canasta.variants.classic import Classic


class SetRulesGame(Protocol):
    """The game as these rules read and change it: the part of ``AmericanGame`` they use.

    :mod:`canasta.engine.american` imports this module (its ``AmericanGame`` sends Modern American's decision
    points here), so this module names the game by what it uses instead of importing it back: the one
    implementation is ``AmericanGame``, and mypy checks that it fits wherever the game passes itself to these
    functions.
    """

    variant: Classic
    num_sides: int
    hand_no: int
    turn: int
    phase: str
    stock: list[int]
    pile: list[int]
    hands: list[list[int]]
    hand_sizes: list[int]
    melds: list[dict[int, Meld]]
    red_threes: list[list[int]]
    opened: list[bool]
    known: list[list[int]]
    bonus: list[list[int]]
    history: list[tuple[int, Action, tuple[int, ...]]]
    deals: list[dict[str, Any]]
    hand_results: list[dict[str, Any]]
    drawn: bool
    took_pile: bool
    opened_turn: bool
    turn_created: set[int]
    turn_added_existing: bool
    pile_aside: list[int] | None
    pile_barred: bool
    pending_value: int
    unusable: list[int] | None
    no_discard: bool
    permission: bool | None
    asked: bool
    asked_hand: list[bool]
    take_snapshot: dict[str, Any] | None
    _sides: list[int]
    _partners: list[int | None]
    _blocks_pile: list[bool]

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[Action]: ...

    def push(self, action: Action) -> object: ...

    def copy(self) -> SetRulesGame: ...

    def minimum(self, side: int) -> int: ...

    def _has_cards(self, hand: list[int], cards: tuple[int, ...]) -> bool: ...

    def _remove_from_hand(self, seat: int, cards: tuple[int, ...]) -> None: ...

    def _take_rest(self, seat: int, rest: list[int]) -> None: ...

    def _next_turn(self) -> None: ...

    def _go_out(self, seat: int) -> None: ...

    def _end_hand(self, went_out: int | None, concealed: bool = False, special: str | None = None) -> None: ...

WILD_RANK = 1
THREE_CODES = (12, 13, 14, 15)
SEVEN = 7
ACE = 14


def _v(g: SetRulesGame) -> American:
    return g.variant  # type: ignore[return-value]  # a variant with EXTENDED_SET_RULES


def turn_card_drawn(g: SetRulesGame) -> bool:
    """Terms: the turn card is the ninth card from the bottom: once drawn, 8 or fewer cards remain."""
    return len(g.stock) < _v(g).TURN_CARD_DEPTH


def is_wild(code: int) -> bool:
    return code == JOKER or 8 <= code <= 11


def _fail(raise_error: bool, rule: str, message: str) -> bool:
    if raise_error:
        raise IllegalActionError(rule, message)
    return False


def _citing(g: SetRulesGame) -> Callable[[bool, str, str], bool]:
    """:func:`_fail` whose refusals name the variant's text for their rule (``Variant.cite``)."""
    v = g.variant

    def fail(raise_error: bool, rule: str, message: str) -> bool:
        if raise_error:
            raise IllegalActionError(rule, v.cite(rule, message))
        return False
    return fail


def dead_ranks(g: SetRulesGame) -> list[int]:
    """Ranks of a closed natural canasta of either side: 'neither team is allowed to begin or add to a meld'."""
    out = []
    for side_melds in g.melds:
        for r, m in side_melds.items():
            if len(m.cards) >= 7 and not m.wilds and r != WILD_RANK:
                out.append(r)
    return sorted(set(out)) if len(out) > 1 else out


def is_dead(g: SetRulesGame, rank: int) -> bool:
    for side_melds in g.melds:
        m = side_melds.get(rank)
        if m is not None and len(m.cards) >= 7 and m.wilds == 0:
            return True
    return False


def initial_turn(g: SetRulesGame, side: int) -> bool:
    """Melds put down now are part of the side's initial meld (wild cards allowed with two naturals).

    After a pile take the pile joins the hand once the initial meld is complete; melds after that
    are later melds (Terms: the initial meld 'must be laid down before you are allowed to take any
    card from the pile')."""
    return not g.opened[side] or (g.opened_turn and not g.took_pile)


def _take_rank(g: SetRulesGame) -> int:
    """The rank of the meld made with the pile's top card in this turn of an initial meld, or 0."""
    snap = g.take_snapshot
    if g.took_pile and snap is not None and g.pile_aside is not None:
        return int(snap["top"]) >> 2
    return 0


def opening(g: SetRulesGame, side: int, extra: Action | None = None) -> tuple[int, bool]:
    """(count, complete) of the side's initial meld this turn, with ``extra`` made hypothetically.

    Terms 'The Initial Meld': the count is of cards melded from the hand; it 'Must include a pure
    meld of at least three matching natural cards' (or a wild card meld); with the pile, 'the point
    value of the cards in this pair do not count ... since they are not a complete meld from your
    hand', and the top card never counts. 'The Splash': a natural or wild canasta from the hand
    needs no count.
    """
    v = _v(g)
    values = v.values
    take_rank = _take_rank(g)
    if extra is None and not take_rank:  # the hot path: the melds as they are, no pile
        value = 0
        pure = splash = False
        melds = g.melds[side]
        for r in g.turn_created:
            m = melds.get(r)
            if m is None:
                continue
            cards = m.cards
            n = len(cards)
            if n < 3:
                continue
            value += sum(map(values.__getitem__, cards))
            if r == WILD_RANK:
                pure = True
                splash = splash or n >= 7
                continue
            w = m.wilds
            if n - w >= 3 and (w == 0 or not v.initial_pure):
                pure = True
            if n >= 7 and w == 0:
                splash = True
        return value, splash or (pure and value >= g.minimum(side))
    top = g.take_snapshot["top"] if take_rank and g.take_snapshot is not None else -1
    groups: dict[int, list[int]] = {}
    for r in g.turn_created:
        m = g.melds[side].get(r)
        if m is not None:
            groups[r] = list(m.cards)
    if extra is not None:
        nat = [c for c in extra.cards if not is_wild(c)]
        r = extra.target if extra.kind == ADD else (nat[0] >> 2 if nat else WILD_RANK)
        groups.setdefault(r, []).extend(extra.cards)
    value = 0
    pure = splash = False
    for r, cards in groups.items():
        if r == take_rank and top in cards:
            cards = list(cards)
            cards.remove(top)
        n = len(cards)
        if n < 3:
            continue  # 'not a complete meld from your hand'
        value += sum(values[c] for c in cards)
        if r == WILD_RANK:
            pure = True
            splash = splash or n >= 7
            continue
        w = sum(1 for c in cards if is_wild(c))
        if n - w >= 3 and (w == 0 or not v.initial_pure):
            pure = True
        if n >= 7 and w == 0:
            splash = True
    return value, splash or (pure and value >= g.minimum(side))


def pending_met(g: SetRulesGame, side: int) -> bool:
    if g.opened[side] or not g.turn_created:
        return True
    return opening(g, side)[1]


def check_opened(g: SetRulesGame, side: int) -> None:
    value, ok = opening(g, side)
    g.pending_value = value
    if ok:
        g.opened[side] = True
        g.opened_turn = True
        if g.pile_aside is not None:
            rest = g.pile_aside
            g.pile_aside = None
            g._take_rest(g.turn, rest)
        _force_threes(g, g.turn)


def _bonus_due(g: SetRulesGame, side: int, opening_now: bool) -> bool:
    """Terms 'Bonus cards': drawn after the initial meld's discard 'if the turn card is still in the draw pile'."""
    v = _v(g)
    return opening_now and v.bonus_cards and not turn_card_drawn(g)


def _can_go_out(g: SetRulesGame, side: int, counts: int) -> str | None:
    if g.permission is False:
        return "partner said no to 'may I go out?'"
    if counts < g.variant.canastas_to_go_out:
        return ("your side needs two canastas to go out, so you must keep at least one card after discarding "
                "(Terms 'End of the Play')")
    return None


def _canastas(g: SetRulesGame, side: int) -> int:
    return sum(1 for m in g.melds[side].values() if len(m.cards) >= 7)


# ------------------------------------------------------------------- taking
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


def _opening_possible(g: SetRulesGame, side: int, left: list[int], take_rank: int) -> bool:
    """An upper bound: could this hand (the pair already shown) lay down a complete initial meld and
    keep a card?  (A take that cannot be completed can be taken back with ``retract``.)"""
    v = _v(g)
    values = v.values
    wilds = left[JOKER] + left[8] + left[9] + left[10] + left[11]
    wild_value = left[JOKER] * values[JOKER] + (wilds - left[JOKER]) * values[8]
    total = 0
    pure = wilds >= 3
    size = sum(left)
    if size < 2:
        return False
    for r in range(4, 15):
        base = r * 4
        n = left[base] + left[base + 1] + left[base + 2] + left[base + 3]
        if r == take_rank:
            n += 2  # the pair counts with a third card from the hand
            if n >= 3 or wilds:
                total += 2 * values[base] + (n - 2) * values[base]
            if n >= 3:
                pure = True
            continue
        if n >= 2 and not is_dead(g, r) and r not in g.melds[side]:
            if n >= 3:
                pure = True
            total += n * values[base]
    if not pure:
        return False
    return total + wild_value >= g.minimum(side) or any(
        sum(left[r * 4:r * 4 + 4]) >= 7 for r in range(4, 15))


# ------------------------------------------------------------------- melds
def check_meld_like(g: SetRulesGame, action: Action, raise_error: bool) -> bool:
    v = _v(g)
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
    melds = g.melds[side]
    wild_of = _WILD
    nat_codes = [c for c in cards if not wild_of[c]]
    wilds = len(cards) - len(nat_codes)
    initial = initial_turn(g, side)
    wild_meld = melds.get(WILD_RANK)
    wild_block = wild_meld is not None and len(wild_meld.cards) < 7 and not initial
    for c in nat_codes:
        if c >> 2 == 3:
            return f(raise_error, "three-meld", "threes are laid out, never melded (Terms 'Threes in American Canasta')")
    canastas = 0  # canastas this action closes (the side's others are counted where they matter)
    if action.kind == MELD:
        if not nat_codes:
            if len(cards) < 3:
                return f(raise_error, "meld-size", "a meld needs at least three cards")
            if WILD_RANK in melds:
                return f(raise_error, "duplicate-meld", "your side already has a meld of wild cards")
            if len(cards) > v.MELD_MAX and not _overflow_ok(g, action, _canastas(g, side) + 1):
                return f(raise_error, "meld-max", "a meld can never contain more than seven cards (Terms)")
            rank = WILD_RANK
            size = len(cards)
        else:
            rank = nat_codes[0] >> 2
            for c in nat_codes:
                if c >> 2 != rank:
                    return f(raise_error, "meld-rank", "a meld is three or more cards of one rank")
            if rank in melds:
                return f(raise_error, "duplicate-meld",
                         f"your side already has a meld of {format_rank(rank)}s: 'One team is not allowed to have more "
                         "than one meld of the same rank' (Terms)")
            if is_dead(g, rank):
                return f(raise_error, "dead-rank",
                         f"{format_rank(rank)}s are dead (a closed natural canasta): 'neither team is allowed to begin "
                         "or add to a meld of that rank' (Terms)")
            if len(nat_codes) < 2:
                return f(raise_error, "meld-naturals", "a meld must contain at least two natural cards")
            if len(cards) < 3:
                return f(raise_error, "meld-size", "a meld needs at least three cards")
            if len(cards) > v.MELD_MAX and not _overflow_ok(g, action, _canastas(g, side) + 1):
                return f(raise_error, "meld-max", "a meld can never contain more than seven cards (Terms)")
            if wilds:
                if wild_block:
                    return f(raise_error, "wild-meld-open", _WILD_BLOCK)
                if not initial:
                    return f(raise_error, "wild-limit",
                             "a meld begun after the initial meld must be clean until it holds five natural cards "
                             "(Terms: 'any new melds begun ... in future turns must be clean')")
                why = v.wild_problem(rank, len(nat_codes), wilds, initial=True, created_dirty=True)
                if why:
                    return f(raise_error, "wild-limit", why)
            size = len(cards)
        if size >= 7:
            canastas += 1
    else:  # ADD
        rank = action.target
        m = melds.get(rank)
        if m is None:
            return f(raise_error, "no-such-meld", "your side has no meld of that rank")
        if len(m.cards) + len(cards) > v.MELD_MAX and not _overflow_ok(g, action, _canastas(g, side) + (len(m.cards) < 7)):
            return f(raise_error, "meld-max", "a meld can never contain more than seven cards (Terms)")
        if rank != WILD_RANK and len(m.cards) >= 7 and m.wilds == 0:  # (only reachable past seven cards)
            return f(raise_error, "dead-rank",
                     f"{format_rank(rank)}s are dead (a closed natural canasta): 'neither team is allowed to begin "
                     "or add to a meld of that rank' (Terms)")
        if rank == WILD_RANK:
            if nat_codes:
                return f(raise_error, "meld-rank", "only wild cards go on a meld of wild cards")
        else:
            if any(c >> 2 != rank for c in nat_codes):
                return f(raise_error, "meld-rank", f"only {format_rank(rank)}s and wild cards can be added to that meld")
            if wilds:
                if wild_block:
                    return f(raise_error, "wild-meld-open", _WILD_BLOCK)
                fresh = initial and rank in g.turn_created
                # naturals named with the wild cards go on first
                # within the initial meld's turn a meld is still being 'put down': A-A-A and a joker
                # is the dirty ace meld A-A-A-joker (the only way when the pile's top card is an ace)
                why = v.wild_problem(rank, m.naturals + len(nat_codes), m.wilds + wilds, initial=fresh,
                                     created_dirty=m.wilds > 0 or fresh)
                if why:
                    return f(raise_error, "wild-limit", why)
        if len(m.cards) < 7 <= len(m.cards) + len(cards):
            canastas += 1
    left = g.hand_sizes[seat] - len(cards)
    opening_now = initial
    if g.pile_aside is not None and opening(g, side, action)[1]:
        left += len(g.pile_aside)
    if left == 0:
        return f(raise_error, "must-discard",
                 "you may not meld all your cards: 'you must have a card to discard at the end of your turn' (Terms)")
    if left == 1:
        why = _can_go_out(g, side, _canastas(g, side) + canastas)
        if why and not (_bonus_due(g, side, opening_now)):
            return f(raise_error, "one-card",
                     "you may not meld down to one card unless you can go out, or you are making your side's "
                     "initial meld before the turn card is drawn (Terms): " + why)
    if g.permission is True:
        why3 = binding_problem(g, action)
        if why3:
            return f(raise_error, "must-go-out", why3)
    return True


def _overflow_ok(g: SetRulesGame, action: Action, canastas_after: int) -> bool:
    """Table rule going_out_overflow (Encyclopedia: 'allow melds of 8 or more cards when going out'): a meld
    may pass seven cards on the step that leaves the player one card, the final discard, with the side's
    canastas made."""
    if not _v(g).going_out_overflow or g.pile_aside is not None:
        return False
    left = g.hand_sizes[g.turn] - len(action.cards)
    return left == 1 and _can_go_out(g, g._sides[g.turn], canastas_after) is None


_WILD_BLOCK = ("your side has an incomplete meld of wild cards: 'you cannot add any wild cards to any of your other "
               "melds until your wild card canasta is complete' (Terms)")


_WILD = tuple(c == JOKER or 8 <= c <= 11 for c in range(64))
#: wild cards and threes: discards with rules of their own
_ODD_DISCARD = tuple(c == JOKER or 8 <= c <= 15 for c in range(64))
#: (variant class, rank, naturals, wild cards) -> may a meld put down in the initial meld's turn
#: hold them (the variant's wild_problem with initial=True; it reads only class constants)
_INITIAL_WILDS_OK: dict[tuple[type, int, int, int], bool] = {}


def filter_play(g: SetRulesGame, actions: list[Action], pending_ok: bool | None = None) -> list[Action]:
    """The legal ones of the Classic candidate moves of the play phase (the hot path of American:
    the per-position context is computed once; edge cases go through the full checks)."""
    v = _v(g)
    seat = g.turn
    side = g._sides[seat]
    melds = g.melds[side]
    size = g.hand_sizes[seat]
    initial = initial_turn(g, side)
    wild_meld = melds.get(WILD_RANK)
    wild_block = wild_meld is not None and len(wild_meld.cards) < 7 and not initial
    dead: list[int] | None = None
    aside = g.pile_aside is not None
    empty_pile: tuple[int, int] | None = None
    hand = g.hands[seat]
    all_wild = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11] == size
    meld_max = v.MELD_MAX
    pile = bool(g.pile)
    wild_of = _WILD
    initial_ok = _INITIAL_WILDS_OK
    vcls = type(v)
    plain_discards = pending_ok is True and size > 1 and pile
    odd_discard = _ODD_DISCARD
    out: list[Action] = []
    append = out.append
    for a in actions:
        kind, cards, target = a
        if kind == DISCARD:
            c = cards[0]
            if plain_discards and not odd_discard[c]:
                append(a)  # a natural card onto a pile with cards, the hand keeping some
                continue
            if c >> 2 == 3:
                if size == 1 and check_discard(g, a, False):  # threes_optional: the final discard
                    append(a)
                continue
            if pending_ok is None:
                pending_ok = pending_met(g, side)
            if not pending_ok:
                continue
            if size == 1:
                if check_discard(g, a, False):
                    append(a)
                continue
            if wild_of[c]:
                if all_wild:
                    append(a)
                continue
            if not pile:
                if dead is None:
                    dead = dead_ranks(g)
                if empty_pile is None:
                    empty_pile = _plain_counts(hand, dead)
                r = c >> 2
                if r in (SEVEN, ACE):
                    if empty_pile[0] or empty_pile[1]:
                        continue
                elif r in dead and empty_pile[0]:
                    continue
            append(a)
            continue
        if kind != MELD and kind != ADD:
            append(a)
            continue
        n = len(cards)
        if aside or size - n <= 1 or (n == 1 and kind == MELD):
            if check_meld_like(g, a, False):
                append(a)
            continue
        if n == 3:
            c0, c1, c2 = cards
            w0 = wild_of[c0]
            wilds = w0 + wild_of[c1] + wild_of[c2]
        else:
            c0 = cards[0]
            w0 = wild_of[c0]
            wilds = sum(wild_of[c] for c in cards)
        if kind == MELD:
            if wilds == n:
                if n >= 3 and WILD_RANK not in melds:
                    append(a)
                continue
            r = (next(c for c in cards if not wild_of[c]) if w0 else c0) >> 2
            if dead is None:
                dead = dead_ranks(g)
            if r == 3 or r in melds or r in dead:
                continue
            if wilds:
                if wild_block or not initial:
                    continue
                key = (vcls, r, n - wilds, wilds)
                ok = initial_ok.get(key)
                if ok is None:
                    ok = initial_ok[key] = v.wild_problem(r, n - wilds, wilds, initial=True, created_dirty=True) is None
                if not ok:
                    continue
            append(a)
            continue
        r = target
        m = melds.get(r)
        if m is None or len(m.cards) + n > meld_max:
            continue
        if r == WILD_RANK:
            if wilds == n:
                append(a)
            continue
        if wilds:
            if wild_block:
                continue
            fresh = initial and r in g.turn_created
            if v.wild_problem(r, m.naturals + n - wilds, m.wilds + wilds, initial=fresh,
                              created_dirty=m.wilds > 0 or fresh):
                continue
        append(a)
    if g.permission is True:
        out = [a for a in out if binding_problem(g, a) is None]
    return out


#: (variant class, rank, naturals, wild cards, meld put down this initial turn) -> may a wild card be
#: added (the variant's wild_capacity and wild_problem: class constants, American fixing wild_limit)
_WILD_ADD_OK: dict[tuple[type, int, int, int, bool], bool] = {}
#: the interned actions of canasta.engine.actions and their makers, bound to locals by play_actions
_INTERNED = (ADD_NATURAL_ACTIONS, DISCARD_ACTIONS, add_wild_action, meld_action)
_FIRST_CARDS: dict[tuple[int, int, int, int, int], tuple[tuple[int, int], int]] = {}


def _first_cards(base: int, h0: int, h1: int, h2: int, h3: int) -> tuple[tuple[int, int], int]:
    """The first two cards of a rank held (suit order), and the third (-1 if none): canonical meld cards."""
    key = (base, h0, h1, h2, h3)
    got = _FIRST_CARDS.get(key)
    if got is None:
        codes = [c for c, k in zip(range(base, base + 4), (h0, h1, h2, h3), strict=True) for _ in range(k)]
        got = _FIRST_CARDS[key] = ((codes[0], codes[1]), codes[2] if len(codes) > 2 else -1)
    return got


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
    add_natural, discard_actions, add_wild, meld_action = _INTERNED
    side = g._sides[seat]
    hand = g.hands[seat]
    melds = g.melds[side]
    initial = not g.opened[side] or (g.opened_turn and not g.took_pile)  # initial_turn()
    wild_meld = melds.get(WILD_RANK)
    wild_block = wild_meld is not None and len(wild_meld.cards) < 7 and not initial
    dead = [m.rank for side_melds in g.melds for m in side_melds.values()
            if len(m.cards) >= 7 and not m.wilds and m.rank != WILD_RANK]  # dead_ranks(), unsorted
    vcls = type(v)
    wilds = [JOKER] if hand[JOKER] else []  # one of each kind of wild card: a joker, the first two held
    two = 8 if hand[8] else 9 if hand[9] else 10 if hand[10] else 11 if hand[11] else None
    if two is not None:
        wilds.append(two)
    nw = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
    dirty_new = initial  # a new meld may hold a wild card only in the initial meld's turn
    out: list[Action] = []
    append = out.append
    naturals: list[int] = []  # the first card of each natural rank held, for the discards
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
            if dirty_new and r != SEVEN:
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
    if wilds:
        turn_created = g.turn_created
        for r, m in melds.items():
            n = len(m.cards)
            if n >= v.MELD_MAX:
                continue
            if r == WILD_RANK:
                for w in wilds:
                    append(add_wild(w, r))
                continue
            if wild_block:
                continue
            fresh = initial and r in turn_created
            key = (vcls, r, m.naturals, m.wilds, fresh)
            ok = _WILD_ADD_OK.get(key)
            if ok is None:
                ok = _WILD_ADD_OK[key] = v.wild_capacity(m.naturals, m.wilds, False) > 0 and v.wild_problem(
                    r, m.naturals, m.wilds + 1, initial=fresh, created_dirty=m.wilds > 0 or fresh) is None
            if ok:
                for w in wilds:
                    append(add_wild(w, r))
    if v.wild_canastas and wild_meld is None and nw >= 3:
        out.extend(meld_action(cards) for cards in wild_mixes(hand, 3))
    pending_ok = g.opened[side] or not g.turn_created or opening(g, side)[1]  # pending_met()
    if pending_ok and not g.no_discard:
        if g.pile:
            out.extend(discard_actions[c] for c in naturals)
        else:  # Terms: onto an empty pile no ace or seven, and no dead card, while there is an alternative
            live, dead_n = _plain_counts(hand, dead)
            for c in naturals:
                r = c >> 2
                if r in (SEVEN, ACE) and (live or dead_n):
                    continue
                if r in dead and live:
                    continue
                append(discard_actions[c])
        if nw == size:  # a hand of only wild cards: a wild card may go
            if two is not None:
                append(discard_actions[two])
            if hand[JOKER]:
                append(discard_actions[JOKER])
    if not pending_ok:
        append(RETRACT_ACTION)
    if g.no_discard and pending_ok:
        append(END_ACTION)
    if not g.asked and may_ask(g):
        append(ASK_ACTION)
    if (hand[12] or hand[13] or hand[14] or hand[15]) and g.stock:
        out.extend(three_layout_actions(g))
    if size == 14:
        out.extend(special_actions(g))
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


def three_layout_actions(g: SetRulesGame) -> list[Action]:
    """``meld 3x`` for each colour of three held (the colour counts in the threes table), in the draw or
    the play phase: Terms 'during your turn you may lay the three face up ... and draw a replacement'."""
    hand = g.hands[g.turn]
    if not g.stock or not (hand[12] or hand[13] or hand[14] or hand[15]):
        return []
    out = []
    for pair in ((13, 14), (12, 15)):  # red, black
        code = next((c for c in pair if hand[c]), None)
        if code is not None:
            out.append(Action(MELD, (code,)))
    return out


# ------------------------------------------------------------------- discards
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


def _plain_counts(hand: list[int], dead: list[int]) -> tuple[int, int]:
    """(live, dead) natural cards in the hand other than aces and sevens."""
    live = dead_n = 0
    for rank in (4, 5, 6, 8, 9, 10, 11, 12, 13):
        b = rank * 4
        n = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        if n:
            if rank in dead:
                dead_n += n
            else:
                live += n
    return live, dead_n


def discard_problem(g: SetRulesGame, hand: list[int], c: int) -> str | None:
    """Terms 'There are certain restrictions on discards' (the 'show your hand' cases are checked here)."""
    wilds = hand[JOKER] + hand[8] + hand[9] + hand[10] + hand[11]
    size = sum(hand)
    if is_wild(c):
        if wilds < size:
            return ("a wild card may be discarded only when going out or from a hand of only wild cards "
                    "(Terms: 'It is illegal to discard a wild card, except ...')")
        return None
    if g.pile:
        return None
    r = c >> 2
    dead = dead_ranks(g)
    live_plain, dead_plain = _plain_counts(hand, dead)
    if r in (SEVEN, ACE):
        if live_plain or dead_plain:
            return ("onto an empty pile an ace or a seven may be discarded only if aces and sevens are the only natural "
                    "cards in your hand (Terms)")
        return None
    if r in dead and live_plain:
        return ("onto an empty pile a dead card may be discarded only if you have no legal alternative (Terms: "
                "'When the discard pile is empty it is illegal to discard a dead card')")
    return None


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


# ------------------------------------------------------------------- threes, bonus cards
def _threes_held(hand: list[int]) -> int:
    return hand[12] + hand[13] + hand[14] + hand[15]


def may_keep_three(g: SetRulesGame, side: int) -> bool:
    """Terms: 'You may only keep a three in your hand if your team has not yet melded.'"""
    return not g.opened[side]


def threes_kept(g: SetRulesGame, side: int) -> int:
    """How many threes a player of ``side`` may hold: Terms 'just one three', before the side melds; table
    rule threes_optional (Encyclopedia 'this is optional'): any number, at any time."""
    if _v(g).threes_optional:
        return 4 * 2
    return 1 if may_keep_three(g, side) else 0


def lay_out_threes(g: SetRulesGame, seat: int, got: list[int]) -> bool:
    """Terms: threes of both colours are laid out and replaced; 'If the last card drawn from the stock
    is a three the game ends immediately' (it stays in the hand and counts 5 against the side).

    While the side has not melded the seat keeps one three ('it is permissible to retain just one
    three in your hand ... for the purpose of collecting a straight'; 'You may never keep more than one
    three in your hand'): the engine keeps it, and ``meld 3h`` lays it out (:func:`lay_out_kept_three`).
    """
    hand = g.hands[seat]
    if got and not g.stock and got[-1] >> 2 == 3:
        g._end_hand(None)
        return False
    side = g._sides[seat]
    keep = threes_kept(g, side)
    while _threes_held(hand) > keep:
        c = next(c for c in THREE_CODES if hand[c])
        if not g.stock:
            g._end_hand(None)
            return False
        hand[c] -= 1
        g.hand_sizes[seat] -= 1
        g.red_threes[side].append(c)
        d = g.stock.pop()
        got.append(d)
        hand[d] += 1
        g.hand_sizes[seat] += 1
        if not g.stock and d >> 2 == 3:
            g._end_hand(None)
            return False
    return True


def _record_drawn(g: SetRulesGame, got: list[int]) -> None:
    """Cards a play-phase action brought from the stock (a three's replacement) go into its history entry."""
    if got and g.history:
        seat, action, prev = g.history[-1]
        g.history[-1] = (seat, action, (*prev, *got))


def is_three_layout(action: Action) -> bool:
    """``meld 3h``: lay out the three kept in hand (Terms: 'you may lay the three face up in your team's
    meld area and draw a replacement card from the stock')."""
    return action.kind == MELD and len(action.cards) == 1 and action.cards[0] >> 2 == 3


def check_three_layout(g: SetRulesGame, action: Action, raise_error: bool) -> bool:
    seat = g.turn
    if g.phase not in ("draw", "play"):
        return _citing(g)(raise_error, "three-timing", "lay out a kept three during your own turn")
    if not g.hands[seat][action.cards[0]]:
        return _fail(raise_error, "not-in-hand", "you do not hold that three")
    if not g.stock:
        return _citing(g)(raise_error, "stock-empty", "laying out a three needs a replacement card from the stock, which is "
                     "used up")
    return True


def lay_out_kept_three(g: SetRulesGame, action: Action) -> None:
    seat = g.turn
    side = g._sides[seat]
    c = action.cards[0]
    hand = g.hands[seat]
    hand[c] -= 1
    g.hand_sizes[seat] -= 1
    g.red_threes[side].append(c)
    got = [g.stock.pop()]
    hand[got[0]] += 1
    g.hand_sizes[seat] += 1
    if got[0] >> 2 == 3:
        # a three as the stock's last card ends the play; another is kept (the one laid out is gone),
        # or laid out with its own replacement if the side has melded meanwhile
        lay_out_threes(g, seat, got)
    _record_drawn(g, got)


def _force_threes(g: SetRulesGame, seat: int) -> None:
    """Terms: 'As soon as your team puts down its initial meld ... you must lay down any three you are
    holding at your next opportunity' (for the player who melded: at once, with its replacement)."""
    if _threes_held(g.hands[seat]):
        got: list[int] = []
        lay_out_threes(g, seat, got)
        _record_drawn(g, got)


# ------------------------------------------------------------------- asking 'may I go out?'
#: nodes a going-out search may visit before giving up (then the yes cannot bind: see may_ask)
GO_OUT_SEARCH_LIMIT = 150


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
    memo: dict[tuple[object, ...], bool] | None = g.__dict__.get("_go_out_memo")
    if memo is None or len(memo) > 20000:
        memo = g.__dict__["_go_out_memo"] = {}
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


def _placeable(v: American, melds: dict[int, Meld], dead: list[int], counts: dict[int, int], wilds: int,
               discard: int | None) -> bool:
    """Every natural of ``counts`` (less one of rank ``discard``) and ``wilds`` wild cards placed, with
    the side's canastas reaching two (see :func:`_go_out_by_counts`)."""
    canastas = 0
    needs: list[int] = []  # wild cards each open meld needs to close
    capacity = 0  # wild cards the natural melds can take in all
    for r in range(4, 15):
        n = counts[r] - (r == discard)
        m = melds.get(r)
        if m is None:
            if not n:
                continue
            if n < 3 or n > v.MELD_MAX or r in dead:
                return False
            size, naturals, held = n, n, 0
            dirty_ok = r != ACE  # begun pure, it takes wild cards at five naturals; aces begun pure stay pure
        else:
            size, naturals, held = len(m.cards) + n, m.naturals + n, m.wilds
            if n and (r in dead or size > v.MELD_MAX):
                return False
            dirty_ok = r != ACE or held > 0
        if size >= 7:
            canastas += 1
            continue
        cap = 0
        if r != SEVEN and dirty_ok and naturals >= v.WILD_AFTER_NATURALS:
            cap = min(v.MAX_WILDS - held, 7 - size)
        capacity += max(cap, 0)
        if cap >= 7 - size:
            needs.append(7 - size)
    wm = melds.get(WILD_RANK)
    if wm is not None:
        if len(wm.cards) >= 7:
            canastas += 1
            splits = [(wilds, 0)]
        else:
            into_wild = min(wilds, 7 - len(wm.cards))  # the incomplete wild meld takes them first
            canastas += len(wm.cards) + into_wild >= 7
            splits = [(wilds - into_wild, 0)]
    else:  # k wild cards into a new wild meld (none, or three to seven), the rest onto natural melds
        splits = [(wilds - k, k == 7) for k in (0, 3, 4, 5, 6, 7) if k <= wilds]
    needs.sort()
    for rest, closed_wild in splits:
        if rest > capacity:
            continue
        made = canastas + closed_wild
        budget = rest
        for need in needs:
            if need > budget:
                break
            budget -= need
            made += 1
        if made >= v.canastas_to_go_out:
            return True
    return False


def _light_copy(g: SetRulesGame) -> SetRulesGame:
    """A copy for searching this turn: without the game's history, deals and hand results (a long
    game's history made every copy of the search slow)."""
    kept = g.history, g.deals, g.hand_results
    g.history, g.deals, g.hand_results = [], [], []
    try:
        return g.copy()
    finally:
        g.history, g.deals, g.hand_results = kept


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
    c.__dict__["_go_out_memo"] = memo
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


# ------------------------------------------------------------------- special hands
def special_problem(g: SetRulesGame, action: Action) -> tuple[str, str] | None:
    """(rule, message) why ``special <hand>`` is illegal now, or None (Terms 'Special Hands')."""
    v = _v(g)
    seat = g.turn
    side = g._sides[seat]
    t = action.target
    if action.cards or not 1 <= t <= len(SPECIAL_HANDS):
        return "special-kind", f"special names one special hand ({', '.join(SPECIAL_HANDS)}) and no cards"
    kind = SPECIAL_HANDS[t - 1]
    if g.opened[side] or g.melds[side]:
        return ("special-after-meld", "'You are only allowed to put down a special hand if your team has not yet "
                "melded any cards' (Terms)")
    hand = g.hands[seat]
    if g.phase == "draw":
        if not v.rules["special_from_pile"]:
            return ("special-draw-first", "a special hand is laid down 'after drawing from the deck' (Terms); "
                    "completing it from the pile is the table rule special_from_pile")
        if len(g.pile) != 1 or g.pile_barred:
            return ("special-pile", "the 14th card may come from the pile 'only if the discard pile has just one "
                    "card in it' (table rule special_from_pile)")
        hand = list(hand)
        hand[g.pile[0]] += 1
    elif g.took_pile or not g.drawn:
        return ("special-draw", "'Since a special hand cannot use cards taken from the discard pile': it is laid "
                "down after drawing from the deck (Terms)")
    why = v.special_hand_problem(kind, hand)
    if why:
        return "special-hand", why
    return None


_SPECIAL_ACTIONS = {kind: Action(SPECIAL, (), t) for t, kind in enumerate(SPECIAL_HANDS, 1)}


def special_actions(g: SetRulesGame) -> list[Action]:
    """The legal ``special`` actions now (a cheap test first: the side has not melded, 14 cards)."""
    seat = g.turn
    side = g._sides[seat]
    if g.opened[side] or g.melds[side]:
        return []
    size = g.hand_sizes[seat]
    if g.phase == "draw":
        if size != 13 or len(g.pile) != 1 or not _v(g).rules["special_from_pile"]:
            return []
    elif size != 14 or g.took_pile or not g.drawn:
        return []
    hand = g.hands[seat]
    if g.phase == "draw":
        hand = list(hand)
        hand[g.pile[0]] += 1
    return [_SPECIAL_ACTIONS[kind] for kind in _v(g).special_kinds(hand)]


def do_special(g: SetRulesGame, action: Action) -> None:
    """Lay the whole hand down 'without a discard and thereby end the play' (Terms): scored by the
    variant's ``score_special`` (the scorekeeper's special-hand scores). The cards stay in the hand
    until the next deal (the pack stays whole); the side's score ignores them."""
    seat = g.turn
    if g.phase == "draw":  # table rule special_from_pile: the pile's only card
        c = g.pile.pop()
        g.hands[seat][c] += 1
        g.hand_sizes[seat] += 1
        g.known[seat].append(c)
        g.took_pile = True
        g.drawn = True
        g.phase = "play"
    g._end_hand(seat, special=SPECIAL_HANDS[action.target - 1])


def start_turn(g: SetRulesGame) -> None:
    """Terms: 'At the start of your next turn to play you add the bonus cards of your talon to your hand,
    place any threes ... face up ... and replace them'."""
    seat = g.turn
    bonus = g.bonus[seat]
    hand = g.hands[seat]
    if not bonus:
        # 'If it is your partner who lays down the initial meld this will be at the start of your next
        # turn: you lay down your three before drawing from the stock'
        if _threes_held(hand) and g.opened[g._sides[seat]]:
            lay_out_threes(g, seat, [])
        return
    for c in bonus:
        hand[c] += 1
    g.hand_sizes[seat] += len(bonus)
    g.bonus[seat] = []
    lay_out_threes(g, seat, [])


def bonus_to_hands(g: SetRulesGame) -> None:
    """At the end of the play, bonus cards still face down count as cards left in their holder's hand."""
    for seat, bonus in enumerate(g.bonus):
        for c in bonus:
            g.hands[seat][c] += 1
        g.hand_sizes[seat] += len(bonus)
        g.bonus[seat] = []


__all__ = ["check_discard", "check_meld_like", "check_take", "dead_ranks", "opening", "pending_met"]
