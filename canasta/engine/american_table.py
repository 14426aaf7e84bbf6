"""Modern American Canasta's table, as the rule functions of :mod:`canasta.engine.setrules` read it: the
initial meld (``opening``: minimum, the required pure meld, the splash), dead ranks, threes of both colours
laid out and replaced (and kept in hand where the variant allows), bonus cards (a per-seat face-down stack
drawn after the discard of the initial meld's turn while the turn card is in the stock, added to the hand at
the seat's next turn), the special hands, and the cheap counts the going-out search starts from.

The functions take the game as their first argument (a :class:`SetRulesGame`, the state they read, which
``AmericanGame`` extends); the variant supplies the data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from canasta.cards import JOKER
from canasta.engine.actions import (
    ADD,
    MELD,
    SPECIAL,
    SPECIAL_HANDS,
    Action,
)
from canasta.engine.setgame import SetMeldGame
from canasta.errors import IllegalActionError

if TYPE_CHECKING:
    from canasta.engine.setmeld import Meld
    from canasta.variants.american import American


class SetRulesGame(SetMeldGame):
    """The game as these rules read and change it: Classic's set melds and turn with Modern American's own state.

    :mod:`canasta.engine.american` imports this module (its ``AmericanGame``, the one subclass, sends Modern
    American's decision points here), so the state these functions use is declared here, below both: a real
    class rather than a Protocol, so that the compiled engine reads its fields directly.
    """

    #: per seat, bonus cards held face down until the seat's next turn
    bonus: list[list[int]]
    #: per seat, asked 'may I go out?' in this hand (Terms: 'only once in each hand')
    asked_hand: list[bool]
    #: the going-out search's memo (setrules.can_go_out), shared with the copies the search makes
    _go_out_memo: dict[tuple[object, ...], bool] | None = None

    def copy(self) -> SetRulesGame:
        g = cast(SetRulesGame, super().copy())
        g.bonus = [list(b) for b in self.bonus]
        g.asked_hand = list(self.asked_hand)
        return g


WILD_RANK = 1
THREE_CODES = (12, 13, 14, 15)
SEVEN = 7
ACE = 14


_FIRST_CARDS: dict[tuple[int, int, int, int, int], tuple[tuple[int, int], int]] = {}

_SPECIAL_ACTIONS = {kind: Action(SPECIAL, (), t) for t, kind in enumerate(SPECIAL_HANDS, 1)}


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


def _overflow_ok(g: SetRulesGame, action: Action, canastas_after: int) -> bool:
    """Table rule going_out_overflow (Encyclopedia: 'allow melds of 8 or more cards when going out'): a meld
    may pass seven cards on the step that leaves the player one card, the final discard, with the side's
    canastas made."""
    if not _v(g).going_out_overflow or g.pile_aside is not None:
        return False
    left = g.hand_sizes[g.turn] - len(action.cards)
    return left == 1 and _can_go_out(g, g._sides[g.turn], canastas_after) is None


def _first_cards(base: int, h0: int, h1: int, h2: int, h3: int) -> tuple[tuple[int, int], int]:
    """The first two cards of a rank held (suit order), and the third (-1 if none): canonical meld cards."""
    key = (base, h0, h1, h2, h3)
    got = _FIRST_CARDS.get(key)
    if got is None:
        codes = [c for c, k in zip(range(base, base + 4), (h0, h1, h2, h3), strict=True) for _ in range(k)]
        got = _FIRST_CARDS[key] = ((codes[0], codes[1]), codes[2] if len(codes) > 2 else -1)
    return got


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
