"""Set melds on Classic Canasta's turn: Classic, Uruguayan, Cuban and Mille, and the family Modern American
(:mod:`canasta.engine.american`) and Hand and Foot (:mod:`canasta.engine.feet`) extend: what may be done.

Melds are kept per side by rank (``Meld``: naturals of one rank plus wild cards; ``WILD_RANK`` for a meld of
wild cards where the variant has one). The pile is taken with cards from the hand that meld with its top card
(a natural pair when it is frozen), red threes are laid out and replaced, the initial meld must reach the side's
minimum, and going out needs the variant's canastas; the variant supplies the tables and hooks.
:class:`SetMeldGame` lists the legal actions and checks an action; the state it changes, and how, is
:class:`~canasta.engine.setplay.SetMeldPlay`'s, below it.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from mypy_extensions import mypyc_attr

from canasta.cards import (
    BLACK_THREE_CODES,
    JOKER,
    THREE,
    TWO_CODES,
    format_card,
    format_rank,
    is_black_three,
    is_red_three,
)
from canasta.engine.actions import (
    ADD,
    ASK,
    ASK_ACTION,
    DISCARD,
    DRAW,
    DRAW_ACTION,
    END,
    END_ACTION,
    KEEP,
    MELD,
    NO,
    NO_ACTION,
    RETRACT,
    RETRACT_ACTION,
    SPECIAL,
    TAKE,
    YES,
    YES_ACTION,
    Action,
)
from canasta.engine.actions import ADD_NATURAL_ACTIONS as _ADD_NATURAL
from canasta.engine.actions import DISCARD_ACTIONS as _DISCARD_ACTIONS
from canasta.engine.actions import add_wild_action as _add_wild
from canasta.engine.actions import meld_action as _meld
from canasta.engine.game import (
    P_ANSWER,
    P_DRAW,
    P_OVER,
    P_PASS,
    P_PLAY,
    Game,
    _is_wild,
)
from canasta.engine.setmeld import WILD_RANK, Meld, wild_mixes
from canasta.engine.setmeld import max_meld_value as _max_meld_value
from canasta.engine.setplay import SetMeldPlay, _rank_name
from canasta.errors import IllegalActionError


class _Growth(NamedTuple):
    """A meld as a play would leave it, with the side's canasta counts and the turn's melding after it."""

    rank: int
    naturals: int
    wilds: int
    size: int
    counts: tuple[int, int]
    created: set[int]
    added_existing: bool


# a house game may extend this family in plain Python (tests/test_adding_a_variant.py) when the engine is compiled
@mypyc_attr(allow_interpreted_subclasses=True)
class SetMeldGame(SetMeldPlay):
    """Melds keyed by rank, the pile frozen and taken with a natural pair, red threes laid out."""

    PLAYS: ClassVar[frozenset[str]] = frozenset()

    def _legal_actions(self) -> list[Action]:
        if self.phase == P_DRAW:
            return self._draw_actions()
        if self.phase == P_PLAY:
            return self._play_actions()
        if self.phase == P_ANSWER:
            return [YES_ACTION, NO_ACTION]
        return []

    def _draw_actions(self) -> list[Action]:
        out: list[Action] = []
        can_draw = self._can_draw()
        if can_draw:
            out.append(DRAW_ACTION)
        takes = self._take_actions()
        out.extend(takes)
        if not can_draw and not self._take_is_forced(takes):
            out.append(END_ACTION)
        if self._may_ask():
            out.append(ASK_ACTION)
        return out

    def _take_is_forced(self, takes: list[Action]) -> bool:
        mode = self.variant.rules["stock_out"]
        if mode == "compulsory":  # Denexa: play goes on 'until a player ... is unable to take the discard pile'
            return bool(takes)
        if mode != "forced_if_matches":
            return False
        return any(a.cards == () for a in takes)

    def _take_actions(self) -> list[Action]:
        if self.pile_barred or not self.pile:
            return []
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        top = self.pile[-1]
        if self._blocks_pile[top]:
            return []  # Bicycle: 'When the discard pile is topped by a wild card or a black three ...'
        hand = self.hands[seat]
        if len(self.pile) == 1 and self.hand_sizes[seat] == 1 and self._can_draw():
            return []  # Bicycle: one-card pile, one-card hand, 'unless forced' (nothing to draw)
        r = top >> 2
        base = r * 4
        nat_codes = [base + s for s in range(4) if hand[base + s]]
        frozen = self.frozen or v.always_frozen or (not self.opened[side] and v.rules.get("unmelded_pile_frozen", True))
        meld = self.melds[side].get(r)
        out: list[Action] = []
        held = [c for c in nat_codes for _ in range(hand[c])]
        out.extend(Action(TAKE, pair) for pair in self._natural_mixes(held, 2))
        if not frozen:
            out.extend(Action(TAKE, (*one, w)) for one in self._natural_mixes(held, 1) for w in self._wild_kinds(hand))
        if meld is not None and (not frozen or (v.frozen_pile_add_to_meld and self.opened[side])):
            out.append(Action(TAKE))
        if not out:
            return out
        return [a for a in out if self._check_take(a, raise_error=False)]

    @staticmethod
    def _wild_kinds(hand: list[int]) -> list[int]:
        out = []
        if hand[JOKER]:
            out.append(JOKER)
        for c in TWO_CODES:
            if hand[c]:
                out.append(c)
                break
        return out

    def _play_actions(self) -> list[Action]:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        hand = self._usable(seat) if self.unusable is not None else self.hands[seat]
        full = self.hands[seat]
        size = self.hand_sizes[seat]
        melds = self.melds[side]
        wilds = self._wild_kinds(hand)
        ordinary = self._threes_ordinary
        out, discards = self._rank_plays(hand, full, melds, wilds)
        if self._special_codes:
            self._special_actions(hand, full, melds, out, discards)
        if wilds:
            out.extend(self._wild_additions(melds, wilds))
        bt = hand[12] + hand[15] if self._black_three_melds else 0
        out.extend(self._black_three_plays(hand, melds, size, bt))
        if v.wild_canastas and WILD_RANK not in melds:
            out.extend(_meld(cards) for cards in wild_mixes(hand, 3))
        if size <= 4:
            out.extend(self._completions(hand, melds, wilds, ordinary))
        if size <= 4 or bt >= 3 or self.permission is not None or (bt and THREE in melds):
            # an action may leave 0 or 1 card (going out), or a yes/no binds: check each fully
            out = self._checked_plays(out)
        pending_ok = self._pending_met(side)
        if not self.no_discard and (pending_ok or size == 1):
            out.extend(self._allowed_discards(full, size, discards))
        if not pending_ok:
            out.append(RETRACT_ACTION)
        if self.no_discard and pending_ok:
            out.append(END_ACTION)
        if not self.asked and self._may_ask():
            out.append(ASK_ACTION)
        return self._finish_play_actions(out, pending_ok)

    def _rank_plays(self, hand: list[int], full: list[int], melds: dict[int, Meld],
                    wilds: list[int]) -> tuple[list[Action], list[Action]]:
        """Rank by rank: the new melds and natural additions (one canonical suit each), and a discard of each
        rank held."""
        out: list[Action] = []
        append = out.append
        discards: list[Action] = []
        # a meld of one natural and two wild cards, where the variant allows it (Mille)
        # (each mix of jokers and 2s: a joker and a 2 differ in value)
        wild_pairs = wild_mixes(hand, 2) if self._min_naturals < 2 else []
        two_wild_starts = self._two_wild_starts(hand)
        for r in self._meld_ranks:
            base = r * 4
            h0, h1, h2, h3 = hand[base:base + 4]
            nat = h0 + h1 + h2 + h3
            if not nat:
                if full is not hand and (full[base] or full[base + 1] or full[base + 2] or full[base + 3]):
                    code = base if full[base] else base + 1 if full[base + 1] else base + 2 if full[base + 2] else base + 3
                    discards.append(_DISCARD_ACTIONS[code])
                continue
            # canonical cards of this rank: the first suits held
            first = base if h0 else base + 1 if h1 else base + 2 if h2 else base + 3
            discards.append(_DISCARD_ACTIONS[first])
            if r in melds:
                append(_ADD_NATURAL[first])
            elif nat >= 2:
                codes = [c for c, k in zip(range(base, base + 4), (h0, h1, h2, h3), strict=True) for _ in range(k)]
                for start in self._natural_mixes(codes, 3):
                    append(_meld(start))
                for start in self._natural_mixes(codes, 2):
                    for w in wilds:
                        append(_meld((*start, w)))
                    for pair in two_wild_starts:
                        append(_meld((*start, *pair)))
                for start in self._natural_mixes(codes, 1):
                    for pair in wild_pairs:
                        append(_meld((*start, *pair)))
            else:
                for pair in wild_pairs:
                    append(_meld((first, *pair)))
        return out, discards

    def _wild_additions(self, melds: dict[int, Meld], wilds: list[int]) -> list[Action]:
        """A wild card of each kind held onto each meld with room for one."""
        v = self.variant
        out: list[Action] = []
        for r, m in melds.items():
            if r == THREE and not self._threes_ordinary:
                continue
            n = len(m.cards)
            if r == WILD_RANK:
                ok = n < v.WILD_MELD_MAX
            else:
                ok = self._wild_room(m.naturals, m.wilds, n >= 7) > 0
            if ok:
                out.extend(_add_wild(w, r) for w in wilds)
        return out

    def _black_three_plays(self, hand: list[int], melds: dict[int, Meld], size: int, black_threes: int) -> list[Action]:
        """Black threes melded in going out (three or four of them), and the rest added after."""
        out: list[Action] = []
        if black_threes >= 3 and size - black_threes <= 1:
            codes = [c for c in BLACK_THREE_CODES for _ in range(hand[c])]
            out.append(Action(MELD, tuple(codes[:3])))
            if black_threes == 4:
                out.append(Action(MELD, tuple(codes)))
        if black_threes and THREE in melds:
            out.append(Action(ADD, (12 if hand[12] else 15,), THREE))
        return out

    def _allowed_discards(self, full: list[int], size: int, discards: list[Action]) -> list[Action]:
        """The discards of the ranks held, a black three, a 2 and a joker (one suit each); the last card only if
        discarding it goes out."""
        discards = list(discards)
        for code in () if self._threes_ordinary else (12, 15):  # one black three stands for both (only the colour matters)
            if full[code]:
                discards.append(_DISCARD_ACTIONS[code])
                break
        for code in TWO_CODES:
            if full[code]:
                discards.append(_DISCARD_ACTIONS[code])
                break
        if full[JOKER]:
            discards.append(_DISCARD_ACTIONS[JOKER])
        if size > 1:
            return discards
        return [a for a in discards if self._check_discard(a, raise_error=False)]

    def _two_wild_starts(self, hand: list[int]) -> list[tuple[int, ...]]:
        """The pairs of wild cards a meld of two naturals may start with (none: one wild card at most)."""
        return []

    def _checked_plays(self, out: list[Action]) -> list[Action]:
        """The melds and additions of ``out`` that pass the full check (they may go out, or a yes/no binds)."""
        return [a for a in out if self._check_meld_like(a, raise_error=False)]

    def _finish_play_actions(self, out: list[Action], pending_ok: bool) -> list[Action]:
        """The play phase's actions from those listed (``pending_ok``: the initial meld is complete or absent)."""
        return out

    def _natural_mixes(self, codes: list[int], n: int) -> list[tuple[int, ...]]:
        """Each distinct choice of ``n`` of the natural cards ``codes`` (one rank, with repeats): the first
        ``n``, and where a card worth more than the rest of its rank is held (Mille's Q of spades),
        each count of those cards (a meld with it and one without are different moves)."""
        if len(codes) < n:
            return []
        specials = self._special_codes
        if not specials or not any(c in specials for c in codes):
            return [tuple(codes[:n])]
        special = [c for c in codes if c in specials]
        plain = [c for c in codes if c not in specials]
        return [(*special[:k], *plain[:n - k]) for k in range(n + 1) if k <= len(special) and n - k <= len(plain)]

    def _special_actions(self, hand: list[int], full: list[int], melds: dict[int, Meld],
                         out: list[Action], discards: list[Action]) -> None:
        """Moves of a card worth more than others of its rank (Mille's Q of spades): its own discard and add."""
        specials = self._special_codes
        for c in specials:
            base = (c >> 2) * 4
            for have, listed, table in ((full, discards, _DISCARD_ACTIONS), (hand, out, _ADD_NATURAL)):
                if not have[c] or (table is _ADD_NATURAL and (c >> 2) not in melds):
                    continue
                # the special card and one plain card of its rank, each once
                plain = next((x for x in range(base, base + 4) if x not in specials and have[x]), None)
                for x in (c, plain):
                    if x is not None and table[x] not in listed:
                        listed.append(table[x])

    @staticmethod
    def _completions(hand: list[int], melds: dict[int, Meld], wilds: list[int],
                     threes_ordinary: bool = False) -> list[Action]:
        """Several cards onto one meld at once, for a hand of four cards or fewer.

        Going out may need the last cards to complete a canasta together: one at a time
        each step would leave a single card without a canasta, which is refused.
        """
        all_wilds = tuple(c for c in (JOKER, *TWO_CODES) for _ in range(hand[c]))
        out: list[Action] = []
        for r in melds:
            if r == THREE and not threes_ordinary:
                continue
            if r == WILD_RANK:
                if len(all_wilds) >= 2:
                    out.append(Action(ADD, all_wilds, r))
                continue
            base = r * 4
            nats = tuple(c for c in range(base, base + 4) for _ in range(hand[c]))
            options = []
            if len(nats) >= 2:
                options.append(nats)
            if nats and all_wilds:
                options.append(nats + all_wilds)
                options.extend((*nats, w) for w in wilds if len(all_wilds) > 1)
            if len(all_wilds) >= 2:
                options.append(all_wilds)
            out.extend(Action(ADD, cards, r) for cards in options)
        return out

    def _may_ask(self) -> bool:
        """Bicycle: ask only before or after drawing from stock, not after melding or taking the pile."""
        if self.asked or self._partners[self.turn] is None:
            return False
        if self.took_pile or self.turn_created or self.turn_added_existing or self.pending_value:
            return False
        if self.no_discard:
            return False
        side = self._sides[self.turn]
        return self._canastas_ok(side, self._canastas(side))

    def _canastas_ok(self, side: int, counts: tuple[int, int]) -> bool:
        v = self.variant
        return counts[0] >= v.canastas_to_go_out and counts[1] >= v.natural_canastas_to_go_out

    # ------------------------------------------------------------- checking
    def _check(self, action: Action) -> None:
        kind = action.kind
        ph = self.phase
        if ph == P_OVER:
            raise IllegalActionError("game-over", "the game is over")
        if ph == P_PASS or kind == KEEP:
            self._check_keep(action)
            return
        if kind == SPECIAL:
            self._check_special(action)
            return
        if kind not in (TAKE, MELD, ADD, DISCARD) and (action.cards or action.target):
            raise IllegalActionError("no-cards-expected", f"{kind} names no cards")
        if kind != ADD and action.target:
            raise IllegalActionError("no-target-expected", f"only add names a meld; {kind} does not")
        if ph == P_ANSWER:
            if kind not in (YES, NO):
                raise IllegalActionError("answer-pending", "your partner asked 'may I go out?': answer yes or no")
            return
        if kind in (YES, NO):
            raise IllegalActionError("nothing-to-answer", "nobody asked 'may I go out?'")
        if kind == ASK:
            if self.variant.partner_of(self.turn) is None:
                raise IllegalActionError("no-partner", "there is no partner to ask in this game")
            if not self._may_ask():
                raise IllegalActionError(
                    "ask-timing", "you may ask 'may I go out?' once, before melding or taking the pile, "
                    "and only when your side has the canastas needed to go out")
            return
        if ph == P_DRAW:
            if kind == DRAW:
                if not self._can_draw():
                    raise IllegalActionError("stock-empty", "the stock is used up: take the pile or end the hand")
                return
            if kind == TAKE:
                self._check_take(action, raise_error=True)
                return
            if kind == END:
                if self._can_draw():
                    raise IllegalActionError("end-timing", "the hand can only be ended this way when the stock is used up")
                if self._take_is_forced(self._take_actions()):
                    raise IllegalActionError(
                        "forced-take", "the stock is used up and the discard matches your meld: you must take it (Bicycle 'Forcing')")
                return
            if self._check_before_drawing(action):
                return
            raise IllegalActionError("draw-first", "start your turn by drawing from the stock or taking the pile")
        # P_PLAY
        if kind in (MELD, ADD):
            self._check_meld_like(action, raise_error=True)
            return
        if kind == DISCARD:
            self._check_discard(action, raise_error=True)
            return
        if kind == RETRACT:
            side = self._sides[self.turn]
            if not self.turn_created or self.opened[side] or self._pending_met(side):
                raise IllegalActionError("nothing-to-retract", "only an initial meld below the minimum can be retracted")
            return
        if kind == END:
            self._check_end()
            return
        if kind in (DRAW, TAKE):
            raise IllegalActionError("already-drawn", "you have already drawn this turn")
        raise IllegalActionError("unknown-action", f"unknown action {kind!r}")

    def _check_before_drawing(self, action: Action) -> bool:
        """Check a move other than draw, take and end before drawing; False: there is none such (refused)."""
        return False

    def _check_end(self) -> None:
        """An 'end' after drawing: the turn ends without a discard only when the stock ran out on a red three."""
        if not self.no_discard:
            raise IllegalActionError("end-timing", "end your turn with a discard")
        if not self._pending_met(self._sides[self.turn]):
            raise IllegalActionError(
                "minimum-count", "your initial meld is below the minimum: meld more or retract "
                f"({self.variant.rule_source('minimum-count')})")

    def _can_finish(self, side: int, counts: tuple[int, int], took_pile: bool,
                    concealed_possible: bool, book: tuple[int, int] | None = None, left: int = 0) -> str | None:
        """Why the player may not empty the hand now, or None if they may.

        ``book``: (rank, wild cards) of a meld the action completes (Hand and Foot's books);
        ``left``: cards the action leaves (1: the last card would be discarded; -1: a discard of the last card)."""
        if self.permission is False:
            return "partner said no to 'may I go out?': you may not go out this turn"
        if not self._canastas_ok(side, counts):
            v = self.variant
            need = f"{v.canastas_to_go_out} canasta(s)"
            if v.natural_canastas_to_go_out:
                need += f", {v.natural_canastas_to_go_out} of them natural"
            return f"your side needs {need} to go out, so you must keep a card (Bicycle 'Going Out')"
        if not self._pending_met(side) and not (concealed_possible and not took_pile):
            return "your initial meld has not reached the minimum count"
        return None

    def _check_take(self, action: Action, raise_error: bool) -> bool:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        f = self._fail
        if self.pile_barred:
            return f(raise_error, "pile-barred", "you retracted a pile take this turn: draw from the stock")
        if not self.pile:
            return f(raise_error, "pile-empty", "the discard pile is empty")
        top = self.pile[-1]
        if self._blocks_pile[top]:
            return f(raise_error, "pile-blocked",
                     f"the pile is topped by {format_card(top)}: it cannot be taken until another card covers it "
                     + (v.FROZEN_PILE_TEXT or "(Bicycle 'Frozen Pile')"))
        if len(self.pile) == 1 and self.hand_sizes[seat] == 1 and self._can_draw():
            return f(raise_error, "one-card-pile",
                     "holding one card you may not take a pile of one card (Bicycle 'A player holding only one card may not take a discard pile of only one card')")
        hand = self.hands[seat]
        cards = action.cards
        if not self._has_cards(hand, cards):
            return f(raise_error, "not-in-hand", "you do not hold those cards")
        r = top >> 2
        frozen = self.frozen or v.always_frozen or (not self.opened[side] and v.rules.get("unmelded_pile_frozen", True))
        meld = self.melds[side].get(r)
        nats = [c for c in cards if not _is_wild(c)]
        wilds = [c for c in cards if _is_wild(c)]
        if any(c >> 2 != r for c in nats):
            return f(raise_error, "take-rank", f"the cards shown must match the top card's rank ({format_rank(r)}; "
                     f"{v.rule_source('take')})")
        if len(cards) == 0:
            if meld is None:
                return f(raise_error, "take-needs-meld", "to take the pile show two cards that meld with the top "
                         f"card, or have a meld of its rank ({v.rule_source('take')})")
            if frozen and not (v.frozen_pile_add_to_meld and self.opened[side]):
                return f(raise_error, "pile-frozen", self._frozen_reason(side))
        elif len(cards) == 2:
            if len(nats) == 2:
                pass
            elif len(nats) == 1:
                if frozen:
                    return f(raise_error, "pile-frozen", self._frozen_reason(side))
            else:
                return f(raise_error, "take-naturals",
                         f"a meld needs at least two natural cards ({v.rule_source('meld-naturals')})")
        else:
            return f(raise_error, "take-cards", "take the pile with two cards from your hand (or none, to add the top "
                     f"card to your meld) ({v.rule_source('take')})")
        if meld is not None and wilds and \
                v.wild_capacity(meld.naturals + 1 + len(nats), meld.wilds, meld.size + 1 + len(nats) >= 7) < len(wilds):
            return f(raise_error, "wild-limit", f"that meld cannot take another wild card ({v.rule_source('wild-limit')})")
        rest = self._cards_joining_hand(self.pile, len(self.pile) - 1)
        after = self.hand_sizes[seat] - len(cards) + rest
        if not self.opened[side]:
            used = [*cards] if v.rules.get("initial_meld_from_hand", False) else [*cards, top]  # Terms: 'entirely from your hand'
            value = sum(v.values[c] for c in used)
            left = list(hand)
            for c in cards:
                left[c] -= 1
            if value + _max_meld_value(v, left, exclude_rank=r) < self.minimum(side):
                return f(raise_error, "minimum-count",
                         f"your side's initial meld needs {self.minimum(side)} points; the top card and your hand cannot make it")
            # Until the minimum is met the rest of the pile stays aside.
            after = self.hand_sizes[seat] - len(cards)
            if value >= self.minimum(side):
                after += rest
        if after <= 1:
            counts = self._canastas(side)
            if meld is not None and meld.size < 7 <= meld.size + 1 + len(cards):
                counts = (counts[0] + 1, counts[1] + (1 if not wilds and not meld.wilds else 0))
            why = self._can_finish(side, counts, True, False)
            if why:
                return f(raise_error, "cannot-go-out", why)
        return True

    def _frozen_reason(self, side: int) -> str:
        if self.variant.FROZEN_PILE_TEXT:
            return "take the pile only with two natural cards of the top card's rank " + self.variant.FROZEN_PILE_TEXT
        if not self.opened[side]:
            return "your side has not melded, so the pile is frozen for you: take it only with a natural pair (Bicycle 'Taking the Pile')"
        return "the pile is frozen: take it only with a natural pair matching the top card (Bicycle 'Frozen Pile')"

    def _check_meld_like(self, action: Action, raise_error: bool) -> bool:
        if self._melds_after_retract(action):
            return self._retracted_problem(raise_error)
        seat = self.turn
        f = self._fail
        if self.phase != P_PLAY:
            return f(raise_error, "draw-first", "draw first")
        if not action.cards:
            return f(raise_error, "no-cards", "name the cards to meld")
        if not self._has_cards(self._usable(seat), action.cards):
            if self.unusable is not None and self._has_cards(self.hands[seat], action.cards):
                return f(raise_error, "pile-cards-unusable",
                         "cards taken with the pile cannot be melded this turn (table rule only_top_card_usable)")
            return f(raise_error, "not-in-hand", "you do not hold those cards")
        if action.kind == MELD:
            growth = self._new_meld_growth(action, raise_error)
        else:
            growth = self._addition_growth(action, raise_error)
        if isinstance(growth, bool):
            return growth
        return self._growth_allowed(action, growth, raise_error)

    def _new_meld_growth(self, action: Action, raise_error: bool) -> _Growth | bool:
        """A new meld's shape after ``action`` (False: refused; True: accepted outright, black threes)."""
        v = self.variant
        f = self._fail
        cards = action.cards
        side = self._sides[self.turn]
        melds = self.melds[side]
        wilds = sum(1 for c in cards if _is_wild(c))
        nat_codes = [c for c in cards if not _is_wild(c)]
        if v.MELDS_JOIN:
            rank = nat_codes[0] >> 2 if nat_codes else WILD_RANK
            if rank in melds:
                # Mille: 'All cards of the same rank that are laid down by a player are considered to form one meld'
                if any(c >> 2 != rank for c in nat_codes):
                    return f(raise_error, "meld-rank", f"a meld is three or more cards of one rank ({v.rule_source('meld-rank')})")
                if len(cards) < 3:
                    return f(raise_error, "meld-size", f"a meld needs at least three cards ({v.rule_source('meld-size')})")
                if nat_codes and len(nat_codes) < self._min_naturals:
                    return f(raise_error, "meld-naturals",
                             f"a meld must contain at least {self._min_naturals} natural cards")
                return self._check_meld_like(Action(ADD, cards, rank), raise_error)
        if not self._threes_ordinary and nat_codes and all(is_black_three(c) for c in nat_codes):
            return self._check_black_three_meld(action, wilds, raise_error)
        if not nat_codes:
            if not v.wild_canastas:
                return f(raise_error, "meld-naturals",
                         f"wild cards may never be melded without natural cards ({v.rule_source('wild-meld')})")
            if len(cards) < 3:
                return f(raise_error, "meld-size", f"a meld needs at least three cards ({v.rule_source('meld-size')})")
            if WILD_RANK in melds:
                return f(raise_error, "duplicate-meld", "your side already has a meld of wild cards")
            if len(cards) > v.WILD_MELD_MAX:
                return f(raise_error, "meld-size", f"a meld of wild cards has at most {v.WILD_MELD_MAX} cards "
                         f"({v.rule_source('meld-size')})")
            new_rank, nat, w = WILD_RANK, len(cards), 0
        else:
            shape = self._natural_meld_problem(nat_codes, wilds, len(cards), raise_error)
            if shape is not None:
                return shape
            new_rank, nat, w = nat_codes[0] >> 2, len(nat_codes), wilds
        counts = self._canastas(side)
        if nat + w >= 7:
            counts = (counts[0] + 1, counts[1] + (0 if w else 1))
        return _Growth(new_rank, nat, w, nat + w, counts, self.turn_created | {new_rank}, self.turn_added_existing)

    def _natural_meld_problem(self, nat_codes: list[int], wilds: int, size: int, raise_error: bool) -> bool | None:
        """Why a new meld of natural cards (and ``wilds`` wild cards) is refused; None when it is not."""
        v = self.variant
        f = self._fail
        ordinary = self._threes_ordinary
        r = nat_codes[0] >> 2
        if any(c >> 2 != r for c in nat_codes) or (r == THREE and not ordinary):
            if not ordinary and any(is_red_three(c) for c in nat_codes):
                return f(raise_error, "red-three", v.red_three_meld_text())
            return f(raise_error, "meld-rank", f"a meld is three or more cards of one rank ({v.rule_source('meld-rank')})")
        if r in self.melds[self._sides[self.turn]]:
            return f(raise_error, "duplicate-meld",
                     f"your side already has a meld of {_rank_name(r)}: add to it instead (Denexa: no 'two separate melds of the same rank')")
        if len(nat_codes) < self._min_naturals:
            if self._min_naturals == 1:
                return f(raise_error, "meld-naturals", "a meld must contain a natural card")
            return f(raise_error, "meld-naturals",
                     f"a meld must contain at least two natural cards ({v.rule_source('meld-naturals')})")
        if size < 3:
            return f(raise_error, "meld-size", f"a meld needs at least three cards ({v.rule_source('meld-size')})")
        if wilds > v.wild_capacity(len(nat_codes), 0, False):
            return f(raise_error, "wild-limit", self._wild_limit_text())
        return None

    def _check_black_three_meld(self, action: Action, wilds: int, raise_error: bool) -> bool:
        v = self.variant
        f = self._fail
        seat = self.turn
        side = self._sides[seat]
        size = len(action.cards)
        if not v.BLACK_THREES_MELD:
            return f(raise_error, "black-three-meld", "black 3s cannot be melded (Denexa 'Hand and Foot')")
        if wilds or not 3 <= size <= 4:
            return f(raise_error, "black-three-meld",
                     "black threes meld only as three or four black threes without wild cards (Fragment)")
        if self.hand_sizes[seat] - size > 1:
            return f(raise_error, "black-three-timing",
                     "black threes may only be melded when going out (Bicycle 'Melds')")
        if THREE in self.melds[side]:
            return f(raise_error, "duplicate-meld", "your side already has a meld of black threes")
        why = self._can_finish(side, self._canastas(side), self.took_pile,
                               self._concealed_now(seat, self.turn_created | {THREE}, self.turn_added_existing, side))
        if why:
            return f(raise_error, "black-three-timing", "black threes may only be melded when going out: " + why)
        return True

    def _addition_growth(self, action: Action, raise_error: bool) -> _Growth | bool:
        """The shape of the meld ``action`` adds to, after it (False: refused)."""
        v = self.variant
        f = self._fail
        cards = action.cards
        side = self._sides[self.turn]
        ordinary = self._threes_ordinary
        wilds = sum(1 for c in cards if _is_wild(c))
        nat_codes = [c for c in cards if not _is_wild(c)]
        r = action.target
        m = self.melds[side].get(r)
        if m is None:
            return f(raise_error, "no-such-meld", f"your side has no meld of {_rank_name(r, ordinary) if r else 'that rank'}")
        if r == THREE and not ordinary:
            if wilds or any(not is_black_three(c) for c in cards) or m.size + len(cards) > 4:
                return f(raise_error, "black-three-meld", "a black-three meld holds three or four black threes")
        elif r == WILD_RANK:
            if nat_codes:
                return f(raise_error, "meld-rank", f"only wild cards go on a meld of wild cards ({v.rule_source('meld-rank')})")
            if m.size + len(cards) > v.WILD_MELD_MAX:
                return f(raise_error, "meld-size", f"a meld of wild cards has at most {v.WILD_MELD_MAX} cards "
                         f"({v.rule_source('meld-size')})")
        else:
            if any(c >> 2 != r for c in nat_codes):
                if not ordinary and any(is_red_three(c) for c in nat_codes):
                    return f(raise_error, "red-three", v.red_three_meld_text())
                return f(raise_error, "meld-rank", f"only {_rank_name(r, ordinary)} and wild cards can be added to "
                         f"that meld ({v.rule_source('meld-rank')})")
            n2 = m.naturals + len(nat_codes)
            w2 = m.wilds
            for _ in range(wilds):
                if v.wild_capacity(n2, w2, n2 + w2 >= 7) <= 0:
                    return f(raise_error, "wild-limit", self._wild_limit_text())
                w2 += 1
        was_canasta = m.size >= 7
        new_size = m.size + len(cards)
        if r == WILD_RANK:
            nat, w = new_size, 0
        else:
            nat, w = m.naturals + len(nat_codes), m.wilds + wilds
        counts = self._canastas(side)
        if new_size >= 7 and not was_canasta:
            counts = (counts[0] + 1, counts[1] + (0 if w else 1))
        elif was_canasta and m.wilds == 0 and w > 0:
            counts = (counts[0], counts[1] - 1)
        return _Growth(r, nat, w, new_size, counts, self.turn_created,
                       self.turn_added_existing or r not in self.turn_created)

    def _growth_allowed(self, action: Action, growth: _Growth, raise_error: bool) -> bool:
        """The limits on a meld's size and wild cards, and going out when the play empties the hand."""
        v = self.variant
        f = self._fail
        seat = self.turn
        side = self._sides[seat]
        if growth.size > self._meld_max and not self._grows_past_max(growth.naturals, growth.wilds):
            return f(raise_error, "meld-size", f"a pile cannot contain more than {self._meld_max} cards "
                     "(Denexa 'Hand and Foot')")
        if v.NO_WILD_RANKS and growth.rank in v.NO_WILD_RANKS and any(_is_wild(c) for c in action.cards):
            return f(raise_error, "wild-limit", "melds of 5s and 7s can never contain wild cards (Denexa 'Triple Play')")
        left = self.hand_sizes[seat] - len(action.cards)
        if self.pile_aside is not None and \
                self.pending_value + sum(v.values[c] for c in action.cards) >= self.minimum(side):
            # this meld completes the initial meld: the pile set aside joins the hand
            left += self._cards_joining_hand(self.pile_aside)
        # With no discard to follow (stock ended on a red three) only an empty hand is going out.
        if left == 0 or (left == 1 and not self.no_discard):
            concealed = self._concealed_now_hyp(seat, side, growth.created, growth.added_existing, action, growth.size)
            why = self._can_finish(side, growth.counts, self.took_pile, concealed,
                                   (growth.rank, growth.wilds) if growth.size >= self._meld_max else None, left)
            if why:
                return f(raise_error, "cannot-go-out", why)
        return True

    def _concealed_now_hyp(self, seat: int, side: int, created: set[int], added_existing: bool,
                           action: Action, new_size: int) -> bool:
        """Would the player's melds this turn, after ``action``, make a concealed hand?"""
        if self.variant.rules["concealed_rule"] == "side":
            if any(r not in created for r in self.melds[side]):
                return False
        elif self.melded_before[seat] or added_existing:
            return False
        target = action.target if action.kind == ADD else None
        for r in created:
            m = self.melds[side].get(r)
            size = m.size if m is not None else 0
            if r == target or (m is None and action.kind == MELD):
                size = new_size
            if size >= 7:
                return True
        return False

    def _wild_limit_text(self) -> str:
        return self.variant.wild_limit_text()

    def _grows_past_max(self, naturals: int, wilds: int) -> bool:
        """Whether a meld of these cards may pass the most cards a meld holds (Hand and Foot's option); no."""
        return False

    def _check_discard(self, action: Action, raise_error: bool) -> bool:
        seat = self.turn
        side = self._sides[seat]
        f = self._fail
        if len(action.cards) != 1:
            return f(raise_error, "discard-one", "discard exactly one card")
        c = action.cards[0]
        if not self._has_cards(self.hands[seat], action.cards):
            return f(raise_error, "not-in-hand", "you do not hold that card")
        if is_red_three(c) and self._laid_out[c]:
            return f(raise_error, "red-three", "a red three can never be discarded")
        if self.no_discard:
            return f(raise_error, "no-discard", "the stock ended on a red three: meld if you can, then end; no discard")
        if self._knocks():
            return f(raise_error, "no-discard", "after picking up the discard pile you do not discard: end your turn "
                     "with 'end' (Denexa 'Triple Play': 'they knock on the table')")
        if self.hand_sizes[seat] == 1:
            # Going out; a concealed hand from the stock need not meet the minimum (Bicycle 'Concealed Hand').
            concealed = self._concealed_now(seat, self.turn_created, self.turn_added_existing, side)
            why = self._can_finish(side, self._canastas(side), self.took_pile, concealed, left=-1)
            if why:
                return f(raise_error, "cannot-go-out", why)
            return True
        if not self._pending_met(side):
            return f(raise_error, "minimum-count",
                     f"your initial meld counts {self.pending_value} of the {self.minimum(side)} needed: meld more or retract "
                     f"({self.variant.rule_source('minimum-count')})")
        return True


Game.register_family(SetMeldGame)
