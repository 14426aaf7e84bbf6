"""Set melds on Classic Canasta's turn: Classic, Uruguayan, Cuban and Mille, and the steps Modern American
(:mod:`canasta.engine.american`) and Hand and Foot (:mod:`canasta.engine.feet`) start from.

Melds are kept per side by rank (``Meld``: naturals of one rank plus wild cards; ``WILD_RANK`` for a meld of
wild cards where the variant has one). The pile is taken with cards from the hand that meld with its top card
(a natural pair when it is frozen), red threes are laid out and replaced, the initial meld must reach the side's
minimum, and going out needs the variant's canastas; the variant supplies the tables and hooks.
"""

from __future__ import annotations

from typing import Any

from canasta.cards import (
    BLACK_THREE_CODES,
    JOKER,
    NUM_CODES,
    THREE,
    TWO_CODES,
    format_card,
    format_rank,
    is_black_three,
    is_red_three,
    sort_key,
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
from canasta.engine.setmeld import WILD_RANK, Meld  # defined there (setrules and feet use them too); re-exported
from canasta.engine.setmeld import max_meld_value as _max_meld_value
from canasta.engine.setmeld import wild_mixes as wild_mixes
from canasta.errors import IllegalActionError
from canasta.scoring import SideScore, score_side

_NATURAL_RANKS = range(4, 15)


def _rank_name(rank: int, threes_ordinary: bool = False) -> str:
    if rank == WILD_RANK:
        return "wild cards"
    if rank == THREE:
        return "3s" if threes_ordinary else "black threes"
    if not 4 <= rank <= 14:
        return f"rank {rank}"
    return format_rank(rank) + "s"


class SetMeldGame(Game, plays=frozenset()):
    """Melds keyed by rank, the pile frozen and taken with a natural pair, red threes laid out."""

    def _set_card_tables(self) -> None:
        """The per-card tables of the set-meld moves and checks, read from the variant once."""
        v = self.variant
        #: per card code: a pile topped by it cannot be taken
        self._blocks_pile = [v.blocks_pile(c) for c in range(NUM_CODES)]
        self._threes_ordinary = v.THREES_ORDINARY
        self._meld_ranks = range(3, 15) if v.THREES_ORDINARY else _NATURAL_RANKS
        self._min_naturals = v.min_naturals()
        #: black threes meld (going out) unless the variant forbids it (Hand and Foot)
        self._black_three_melds = not v.THREES_ORDINARY and v.BLACK_THREES_MELD
        #: most cards in a meld (Hand and Foot's piles close at seven)
        self._meld_max: int = v.MELD_MAX or 1 << 30
        #: codes worth more than the others of their rank (Mille's Q of spades, J of diamonds):
        #: listed as moves of their own, not folded into the rank's canonical card
        self._special_codes: tuple[int, ...] = _special_codes(v.values, self._meld_ranks)
        #: per card code: laid out and replaced when it comes into a hand (red threes; all threes in American)
        self._laid_out = [False] * NUM_CODES
        if not self._threes_ordinary:
            for c in self.LAID_OUT_THREES:
                self._laid_out[c] = True
            if not getattr(v, "red_threes_laid_out", True):  # Hand and Foot's table rule: kept in hand
                self._laid_out[13] = self._laid_out[14] = False

    def _deal(self) -> None:
        v = self.variant
        n = self.num_players
        deck = self._shuffled_deck()
        self.stock: list[int] = deck
        self.hands: list[list[int]] = [[0] * NUM_CODES for _ in range(n)]
        self.hand_sizes = [0] * n
        dealt: list[list[int]] = [[] for _ in range(n)]
        for _ in range(v.hand_size):
            for i in range(n):
                seat = (self.dealer + 1 + i) % n
                c = self.stock.pop()
                self.hands[seat][c] += 1
                dealt[seat].append(c)
        self.hand_sizes = [v.hand_size] * n
        self._deal_after_hands(dealt)
        self.pile: list[int] = []
        self.frozen = False
        upcards = []
        while not v.NO_UPCARD:  # Bicycle: 'a card (or cards) from the stock must be turned up until a natural card appears'
            c = self.stock.pop()
            if self._bury_upcard(c):
                continue
            self.pile.append(c)
            upcards.append(c)
            if v.upcard_freezes(c):
                self.frozen = True
            if not v.upcard_must_be_covered(c):
                break
        self.melds: list[dict[int, Meld]] = [{} for _ in range(self.num_sides)]
        self.red_threes = [list[int]() for _ in range(self.num_sides)]
        #: cards a side took out of play (Cuban: black threes from a taken pile)
        self.removed = [list[int]() for _ in range(self.num_sides)]
        self.opened = [False] * self.num_sides
        self.minimum_extra = [0] * self.num_sides
        self.penalties = [list[tuple[str, int]]() for _ in range(self.num_sides)]
        self.melded_before = [False] * n
        #: per seat, cards every player saw go into that hand (from a taken pile) and still there
        self.known = [list[int]() for _ in range(n)]
        self._deal_family_state()
        replacements: list[list[int]] = [[] for _ in range(n)]
        self.deals.append({"hand": self.hand_no, "dealer": self.dealer,
                           "hands": [list(h) for h in dealt], "upcards": upcards,
                           "replacements": replacements})
        self.hand_over = False
        self.turn = (self.dealer + 1) % n
        self._reset_turn()
        if self._after_deal():
            return
        # Red threes in the dealt hands go out at once and are replaced (Encyclopedia).
        for i in range(n if not self._threes_ordinary else 0):
            seat = (self.dealer + 1 + i) % n
            if not self._lay_out_red_threes(seat, replacements[seat]):
                return

    def _deal_family_state(self) -> None:
        """Set up the per-seat state a family adds for each new hand (none here)."""

    def _deal_after_hands(self, dealt: list[list[int]]) -> None:
        """Deal the family's piles after the hands (Hand and Foot's feet and knees); none by default."""

    def _bury_upcard(self, code: int) -> bool:
        """Whether a turned-up card goes back into the stock instead of onto the pile (Hand and Foot); never here."""
        return False

    def _after_deal(self) -> bool:
        """The family's steps once the deal is recorded; True if play waits for them (Hand and Foot's passing)."""
        return False

    def _lay_out_red_threes(self, seat: int, got: list[int]) -> bool:
        """Lay out red threes from ``seat``'s hand and replace them; False if that ended the hand."""
        if not self._laid_out[13]:
            return True  # red threes stay in the hand (Hand and Foot's table rule red_threes_laid_out)
        hand = self.hands[seat]
        side = self._sides[seat]
        while True:
            reds = [c for c in (13, 14) if hand[c]]  # 3h, 3d
            if not reds:
                return True
            for c in reds:
                k = hand[c]
                hand[c] = 0
                self.hand_sizes[seat] -= k
                self.red_threes[side].extend([c] * k)
                for _ in range(k):
                    if not self._draw_one(seat, got):
                        return False

    def _draw_one(self, seat: int, got: list[int]) -> bool:
        """Move the top stock card to ``seat``; False if the stock was empty (play ends)."""
        if not self.stock:
            self._stock_exhausted_by_red_three()
            return False
        c = self.stock.pop()
        got.append(c)
        self.hands[seat][c] += 1
        self.hand_sizes[seat] += 1
        return True

    def _stock_exhausted_by_red_three(self) -> None:
        # Fragment: 'Play immediately ends if the last card drawn in the stockpile is a red three'.
        if self.variant.rules["red_three_last_card"] == "meld_then_end" and self.phase == P_PLAY:
            self.no_discard = True
        else:
            self._end_hand(None)

    def _canastas(self, side: int) -> tuple[int, int]:
        total = natural = 0
        for m in self.melds[side].values():
            if len(m.cards) >= 7:
                total += 1
                if m.wilds == 0:
                    natural += 1
        return total, natural

    def _usable(self, seat: int) -> list[int]:
        if self.unusable is None:
            return self.hands[seat]
        return [a - b for a, b in zip(self.hands[seat], self.unusable, strict=True)]

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

    def _can_draw(self) -> bool:
        """Cards to draw: the stock, or the pile to turn over where the table rule allows it.

        The pile is turned over once a hand: turning it over again and again could go on
        forever when nobody can meld or go out.
        """
        if self.stock:
            return True
        v = self.variant
        if not v.rules["stock_reshuffle"] or not self.pile:
            return False
        if v.restock_limit is not None and self.reshuffles >= v.restock_limit:
            return False
        return len(self.pile) >= 2 or not v.RESTOCK_KEEPS_UPCARD

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
        out: list[Action] = []
        append = out.append
        discards: list[Action] = []
        ordinary = self._threes_ordinary
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
        if self._special_codes:
            self._special_actions(hand, full, melds, out, discards)
        if wilds:
            for r, m in melds.items():
                if r == THREE and not ordinary:
                    continue
                n = len(m.cards)
                if r == WILD_RANK:
                    ok = n < v.WILD_MELD_MAX
                else:
                    ok = v.wild_capacity(m.naturals, m.wilds, n >= 7) > 0
                if ok:
                    for w in wilds:
                        append(_add_wild(w, r))
        bt = hand[12] + hand[15] if self._black_three_melds else 0
        if bt >= 3 and size - bt <= 1:
            codes = [c for c in BLACK_THREE_CODES for _ in range(hand[c])]
            append(Action(MELD, tuple(codes[:3])))
            if bt == 4:
                append(Action(MELD, tuple(codes)))
        if bt and THREE in melds:  # the black threes melded in going out, and the rest of them after
            append(Action(ADD, (12 if hand[12] else 15,), THREE))
        if v.wild_canastas and WILD_RANK not in melds:
            out.extend(_meld(cards) for cards in wild_mixes(hand, 3))
        if size <= 4:
            out.extend(self._completions(hand, melds, wilds, ordinary))
        if size <= 4 or bt >= 3 or self.permission is not None or (bt and THREE in melds):
            # an action may leave 0 or 1 card (going out), or a yes/no binds: check each fully
            out = self._checked_plays(out)
            append = out.append
        pending_ok = self._pending_met(side)
        if not self.no_discard and (pending_ok or size == 1):
            for code in () if ordinary else (12, 15):  # one black three stands for both (only the colour matters)
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
                out.extend(discards)
            else:
                out.extend(a for a in discards if self._check_discard(a, raise_error=False))
        if not pending_ok:
            append(RETRACT_ACTION)
        if self.no_discard and pending_ok:
            append(END_ACTION)
        if not self.asked and self._may_ask():
            append(ASK_ACTION)
        return self._finish_play_actions(out, pending_ok)

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

    def _pending_met(self, side: int) -> bool:
        return self.opened[side] or not self.turn_created or self.pending_value >= self.minimum(side)

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
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now."""
        if not isinstance(action, Action):
            raise IllegalActionError("not-an-action", f"{action!r} is not an action")
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

    def _check_keep(self, action: Action) -> None:
        """A pile kept as the foot: only Hand and Foot's hand-passing deal (:class:`FootGame`) has one."""
        raise IllegalActionError("keep-timing", "a pile is kept as the foot only in the hand-passing deal, "
                                 "before the first turn (Encyclopedia, table rule hand_passing)")

    def _check_end(self) -> None:
        """An 'end' after drawing: the turn ends without a discard only when the stock ran out on a red three."""
        if not self.no_discard:
            raise IllegalActionError("end-timing", "end your turn with a discard")
        if not self._pending_met(self._sides[self.turn]):
            raise IllegalActionError(
                "minimum-count", "your initial meld is below the minimum: meld more or retract "
                f"({self.variant.rule_source('minimum-count')})")

    def _check_special(self, action: Action) -> None:
        """A special hand (Modern American's: the whole hand laid down at once); refused where there is none."""
        raise IllegalActionError("no-special-hands", f"{self.variant_name} has no special hands")

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

    def _concealed_now(self, seat: int, created: set[int], added_existing: bool, side: int) -> bool:
        """Bicycle 'Concealed Hand': no prior meld, no additions to partner's melds, a canasta made."""
        if self.variant.rules["concealed_rule"] == "side":
            if any(r not in created for r in self.melds[side]):
                return False
        elif self.melded_before[seat] or added_existing:
            return False
        return any(self.melds[side][r].size >= 7 for r in created if r in self.melds[side])

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

    def _cards_joining_hand(self, cards: list[int], n: int | None = None) -> int:
        """How many of the first ``n`` cards of a taken pile go into the hand (red threes are
        laid out; Cuban black threes leave play)."""
        if self._threes_ordinary:
            return len(cards[:n])
        black_out = self.variant.REMOVES_BLACK_THREES_ON_TAKE
        return sum(1 for c in cards[:n] if not ((is_red_three(c) and self._laid_out[c])
                                                or (black_out and is_black_three(c))))

    def _frozen_reason(self, side: int) -> str:
        if self.variant.FROZEN_PILE_TEXT:
            return "take the pile only with two natural cards of the top card's rank " + self.variant.FROZEN_PILE_TEXT
        if not self.opened[side]:
            return "your side has not melded, so the pile is frozen for you: take it only with a natural pair (Bicycle 'Taking the Pile')"
        return "the pile is frozen: take it only with a natural pair matching the top card (Bicycle 'Frozen Pile')"

    def _check_meld_like(self, action: Action, raise_error: bool) -> bool:
        if self._melds_after_retract(action):
            return self._retracted_problem(raise_error)
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        f = self._fail
        cards = action.cards
        if self.phase != P_PLAY:
            return f(raise_error, "draw-first", "draw first")
        if not cards:
            return f(raise_error, "no-cards", "name the cards to meld")
        if not self._has_cards(self._usable(seat), cards):
            if self.unusable is not None and self._has_cards(self.hands[seat], cards):
                return f(raise_error, "pile-cards-unusable",
                         "cards taken with the pile cannot be melded this turn (table rule only_top_card_usable)")
            return f(raise_error, "not-in-hand", "you do not hold those cards")
        melds = self.melds[side]
        wilds = sum(1 for c in cards if _is_wild(c))
        nat_codes = [c for c in cards if not _is_wild(c)]
        size = self.hand_sizes[seat]
        counts = self._canastas(side)
        ordinary = self._threes_ordinary
        if action.kind == MELD and v.MELDS_JOIN:
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
        if action.kind == MELD:
            if not ordinary and nat_codes and all(is_black_three(c) for c in nat_codes):
                if not v.BLACK_THREES_MELD:
                    return f(raise_error, "black-three-meld", "black 3s cannot be melded (Denexa 'Hand and Foot')")
                if wilds or not 3 <= len(cards) <= 4:
                    return f(raise_error, "black-three-meld",
                             "black threes meld only as three or four black threes without wild cards (Fragment)")
                if size - len(cards) > 1:
                    return f(raise_error, "black-three-timing",
                             "black threes may only be melded when going out (Bicycle 'Melds')")
                if THREE in melds:
                    return f(raise_error, "duplicate-meld", "your side already has a meld of black threes")
                why = self._can_finish(side, counts, self.took_pile,
                                       self._concealed_now(seat, self.turn_created | {THREE}, self.turn_added_existing, side))
                if why:
                    return f(raise_error, "black-three-timing", "black threes may only be melded when going out: " + why)
                return True
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
                r = nat_codes[0] >> 2
                if any(c >> 2 != r for c in nat_codes) or (r == THREE and not ordinary):
                    if not ordinary and any(is_red_three(c) for c in nat_codes):
                        return f(raise_error, "red-three", v.red_three_meld_text())
                    return f(raise_error, "meld-rank", f"a meld is three or more cards of one rank ({v.rule_source('meld-rank')})")
                if r in melds:
                    return f(raise_error, "duplicate-meld",
                             f"your side already has a meld of {_rank_name(r)}: add to it instead (Denexa: no 'two separate melds of the same rank')")
                if len(nat_codes) < self._min_naturals:
                    if self._min_naturals == 1:
                        return f(raise_error, "meld-naturals", "a meld must contain a natural card")
                    return f(raise_error, "meld-naturals",
                             f"a meld must contain at least two natural cards ({v.rule_source('meld-naturals')})")
                if len(cards) < 3:
                    return f(raise_error, "meld-size", f"a meld needs at least three cards ({v.rule_source('meld-size')})")
                if wilds > v.wild_capacity(len(nat_codes), 0, False):
                    return f(raise_error, "wild-limit", self._wild_limit_text())
                new_rank, nat, w = r, len(nat_codes), wilds
            new_size = nat + w
            created = self.turn_created | {new_rank}
            if new_size >= 7:
                counts = (counts[0] + 1, counts[1] + (0 if w else 1))
            added_existing = self.turn_added_existing
        else:  # ADD
            r = action.target
            m = melds.get(r)
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
            if new_size >= 7 and not was_canasta:
                counts = (counts[0] + 1, counts[1] + (0 if w else 1))
            elif was_canasta and m.wilds == 0 and w > 0:
                counts = (counts[0], counts[1] - 1)
            created = self.turn_created
            added_existing = self.turn_added_existing or r not in self.turn_created
        if new_size > self._meld_max and not self._grows_past_max(nat, w):
            return f(raise_error, "meld-size", f"a pile cannot contain more than {self._meld_max} cards "
                     "(Denexa 'Hand and Foot')")
        if wilds and v.NO_WILD_RANKS and (new_rank if action.kind == MELD else action.target) in v.NO_WILD_RANKS:
            return f(raise_error, "wild-limit", "melds of 5s and 7s can never contain wild cards (Denexa 'Triple Play')")
        left = size - len(cards)
        if self.pile_aside is not None and \
                self.pending_value + sum(v.values[c] for c in cards) >= self.minimum(side):
            # this meld completes the initial meld: the pile set aside joins the hand
            left += self._cards_joining_hand(self.pile_aside)
        # With no discard to follow (stock ended on a red three) only an empty hand is going out.
        if left == 0 or (left == 1 and not self.no_discard):
            concealed = self._concealed_now_hyp(seat, side, created, added_existing, action, new_size)
            book_rank = new_rank if action.kind == MELD else action.target
            why = self._can_finish(side, counts, self.took_pile, concealed,
                                   (book_rank, w) if new_size >= self._meld_max else None, left)
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

    def _knocks(self) -> bool:
        """Whether the turn ends with a knock, not a discard (Triple Play, after a pile take); never here."""
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

    def _do(self, action: Action) -> None:
        seat = self.actor
        got: list[int] = []
        kind = action.kind
        entry = (seat, action, ())
        self.history.append(entry)
        if kind == DRAW:
            self._do_draw(got)
        elif kind == TAKE:
            self._do_take(action)
        elif kind == MELD:
            self._do_meld(action)
        elif kind == ADD:
            self._do_add(action)
        elif kind == DISCARD:
            self._do_discard(action)
        elif kind == ASK:
            self._do_ask()
        elif kind in (YES, NO):
            self.permission = kind == YES
            self.phase = self.return_phase
        elif kind == RETRACT:
            self._do_retract()
        elif kind == SPECIAL:
            self._do_special(action)
        elif kind == KEEP:
            self._do_keep(action)
        elif kind == END:
            self._do_end(seat)
        if got:
            self.history[-1] = (seat, action, tuple(got))

    def _do_ask(self) -> None:
        """Ask 'may I go out?': the partner answers next."""
        self.asked = True
        self.return_phase = self.phase
        self.phase = P_ANSWER

    def _do_special(self, action: Action) -> None:
        """Lay down a special hand (refused where the variant has none)."""
        self._check_special(action)

    def _do_keep(self, action: Action) -> None:
        """Refused as :meth:`check` refuses it: only :class:`FootGame`'s hand-passing deal keeps a pile."""
        self._check_keep(action)

    def _do_end(self, seat: int) -> None:
        """'end' (``seat`` acting): no card left to draw or discard, so the hand ends."""
        self._end_hand(None)

    def _do_draw(self, got: list[int]) -> None:
        seat = self.turn
        if not self.stock:
            self._reshuffle()
        self.phase = P_PLAY
        self.drawn = True
        for _ in range(self.variant.draw_count):
            if not self.stock:
                break
            before = len(got)
            if not self._draw_one(seat, got):
                return
            if self._laid_out[got[before]] and not self._lay_out_red_threes(seat, got):
                return
        self._after_draw(seat)

    def _after_draw(self, seat: int) -> None:
        """The family's step after ``seat`` drew (Triple Play: a knee due is picked up); none by default."""

    def _reshuffle(self) -> None:
        """Encyclopedia: 'flipping over the discard pile and turning it into a new stock'."""
        self.reshuffles += 1
        cards = self.pile
        self.pile = []
        if self.variant.RESTOCK_KEEPS_UPCARD:  # Mille: 'the upcard is set aside'; it stays face up as the pile
            self.pile = [cards.pop()]
        self.frozen = False
        self.chance(f"{self.hand_no}/reshuffle/{self.reshuffles}").shuffle(cards)
        self.stock = cards

    def _do_take(self, action: Action) -> None:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        top = self.pile.pop()
        r = top >> 2
        self.take_snapshot = {"cards": action.cards, "top": top, "frozen": self.frozen,
                              "pile": list(self.pile), "red_threes": len(self.red_threes[side])}
        for c in action.cards:
            hand[c] -= 1
        self.hand_sizes[seat] -= len(action.cards)
        if self.known[seat]:
            self._forget_known(seat, action.cards)
        meld = self.melds[side].get(r)
        if meld is None:
            meld = Meld(r)
            self.melds[side][r] = meld
            self.turn_created.add(r)
        elif r not in self.turn_created:
            self.turn_added_existing = True
        meld.put(top)
        for c in action.cards:
            meld.put(c)
        self.phase = P_PLAY
        self.drawn = True
        self.took_pile = True
        rest = self.pile
        self.pile = []
        self.frozen = False
        if not self.opened[side]:
            counted_top = 0 if v.rules.get("initial_meld_from_hand", False) else v.values[top]
            self.pending_value += counted_top + sum(v.values[c] for c in action.cards)
            self.pile_aside = rest
            self._check_opened(side)
        else:
            self._take_rest(seat, rest)
        self._after_hand_change(seat)

    def _take_rest(self, seat: int, rest: list[int]) -> None:
        side = self._sides[seat]
        hand = self.hands[seat]
        if self.variant.rules["only_top_card_usable"]:
            self.unusable = [0] * NUM_CODES
        removes_black_threes = self.variant.REMOVES_BLACK_THREES_ON_TAKE
        known = self.known[seat]
        for c in rest:
            if is_red_three(c) and self._laid_out[c]:  # Bicycle: 'place the card face up but do not draw a new card'
                self.red_threes[side].append(c)
                continue
            if removes_black_threes and is_black_three(c):
                self.removed[side].append(c)
                continue
            hand[c] += 1
            self.hand_sizes[seat] += 1
            known.append(c)
            if self.unusable is not None:
                self.unusable[c] += 1

    def _check_opened(self, side: int) -> None:
        if self.pending_value >= self.minimum(self.variant.side_of(self.turn)):
            self.opened[side] = True
            if self.pile_aside is not None:
                rest = self.pile_aside
                self.pile_aside = None
                self._take_rest(self.turn, rest)

    def _do_meld(self, action: Action) -> None:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        cards = action.cards
        nat = [c for c in cards if not _is_wild(c)]
        rank = nat[0] >> 2 if nat else WILD_RANK
        if rank in self.melds[side]:  # a variant where melds of one rank join (MELDS_JOIN)
            self._do_add(Action(ADD, cards, rank))
            return
        m = Meld(rank, list(cards))
        self.melds[side][rank] = m
        self.turn_created.add(rank)
        self._remove_from_hand(seat, cards)
        if not self.opened[side]:
            self.pending_value += sum(v.values[c] for c in cards)
            self._check_opened(side)
        self._after_hand_change(seat)

    def _do_add(self, action: Action) -> None:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        m = self.melds[side][action.target]
        # naturals first, so that a meld that becomes a canasta may take extra wilds
        for c in sorted(action.cards, key=_is_wild):
            m.put(c)
        if action.target not in self.turn_created:
            self.turn_added_existing = True
        self._remove_from_hand(seat, action.cards)
        if not self.opened[side]:
            self.pending_value += sum(v.values[c] for c in action.cards)
            self._check_opened(side)
        self._after_hand_change(seat)

    @staticmethod
    def _new_meld(rank: int) -> Meld:
        return Meld(rank)

    def _after_hand_change(self, seat: int) -> None:
        if self.hand_sizes[seat] == 0 and self.pile_aside is None:
            self._go_out(seat)

    def _do_discard(self, action: Action) -> None:
        seat = self.turn
        side = self._sides[seat]
        c = action.cards[0]
        self._remove_from_hand(seat, action.cards)
        self.pile.append(c)
        if _is_wild(c) or (is_black_three(c) and self.variant.black_three_freezes):
            self.frozen = True
        if self.hand_sizes[seat] == 0 and self._empty_hand_goes_out(seat):
            self._go_out(seat)
            return
        if self.permission is True:
            # Denexa penalties: 'Not being able to go out after having asked "May I go out?"'
            self.penalties[side].append(("failed_go_out", -self.variant.rules["failed_go_out_penalty"]))
        self._next_turn()

    def _empty_hand_goes_out(self, seat: int) -> bool:
        """Whether ``seat`` goes out by discarding its last card (Hand and Foot: only from the foot)."""
        return True

    def _next_turn(self) -> None:
        seat = self.turn
        if self.turn_created or self.turn_added_existing:
            self.melded_before[seat] = True
        self.turn = (seat + 1) % self.num_players
        self._reset_turn()
        self._begin_turn()
        if self.variant.rules["stock_out"] == "end" and not self._can_draw():
            self._end_hand(None)
        else:
            self._turn_begins()

    def _turn_begins(self) -> None:
        """The next seat's turn begins, the hand going on: a family's start-of-turn step (none here)."""

    def _begin_turn(self) -> None:
        """The family's step as a turn begins, before the stock is checked (Hand and Foot: a foot due is picked up)."""

    def _do_retract(self) -> None:
        """Bicycle 'Insufficient Melds': retract all, and the side's minimum rises by ten for the deal."""
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        snap = self.take_snapshot if self.took_pile else None
        for r in list(self.turn_created):
            m = self.melds[side].pop(r, None)
            if m is None:  # it closed into a book (Hand and Foot), returned by FootGame._do_retract
                continue
            for c in m.cards:
                hand[c] += 1
            self.hand_sizes[seat] += m.size
            self.known[seat].extend(m.cards)  # everyone saw them on the table
        if snap is not None:
            hand[snap["top"]] -= 1
            self.hand_sizes[seat] -= 1
            self._forget_known(seat, (snap["top"],))
            self.pile = [*snap["pile"], snap["top"]]
            self.frozen = snap["frozen"]
            self.pile_aside = None
            self.took_pile = False
            self.drawn = False
            self.phase = P_DRAW
            self.pile_barred = True
        self.known[seat].sort()  # the melds came back in set order: keep the state canonical
        self.turn_created = set()
        self.pending_value = 0
        self.retracted = True
        self.minimum_extra[side] += self.variant.rules["retract_raises_minimum"]

    def _go_out(self, seat: int) -> None:
        side = self._sides[seat]
        concealed = self._concealed_now(seat, self.turn_created, self.turn_added_existing, side)
        self._end_hand(seat, concealed)

    # ------------------------------------------------------------- scoring
    def score_sides(self, went_out: int | None, concealed: bool = False,
                    special: str | None = None) -> list[SideScore]:
        """Each side's score for the hand if it ended now with ``went_out`` (None: nobody out), from
        the melds and hands as they stand (sets variants; the hand's end and the expert's leaves)."""
        v = self.variant
        n = self.num_players
        red_total = sum(len(r) for r in self.red_threes)
        results = []
        for side in range(self.num_sides):
            if special is not None and went_out is not None and v.side_of(went_out) == side:
                # Modern American: 'the team that went out scores only the amount shown below for the special hand'
                results.append(v.score_special(special))  # type: ignore[attr-defined]
                continue
            seats = [s for s in range(n) if v.side_of(s) == side]
            melds, hands = self._scored_melds_and_hands(side, seats)
            results.append(score_side(
                v, melds=melds, red_threes=list(self.red_threes[side]), hands=hands,
                went_out=went_out is not None and v.side_of(went_out) == side,
                concealed=concealed and went_out is not None and v.side_of(went_out) == side,
                all_red_threes=len(self.red_threes[side]) == 4 and red_total == 4,
                penalties=list(self.penalties[side]), removed_black_threes=len(self.removed[side])))
        return results

    def _scored_melds_and_hands(self, side: int, seats: list[int]) -> tuple[list[tuple[int, list[int]]], list[list[int]]]:
        """The melds of ``side`` and the hands of its ``seats`` as the hand's score counts them."""
        return [(m.rank, list(m.cards)) for m in self.melds[side].values()], [self.hand_cards(s) for s in seats]

    def _end_hand(self, went_out: int | None, concealed: bool = False, special: str | None = None) -> None:
        v = self.variant
        self.hand_over = True
        results = self.score_sides(went_out, concealed, special)
        totals = [r["total"] for r in results]
        for side, t in enumerate(totals):
            self.scores[side] += t
        self.hand_results.append({"hand": self.hand_no, "went_out": went_out, "concealed": concealed,
                                  "sides": results, "totals": list(self.scores),
                                  "actions_end": len(self.history)})
        self._record_deal_in_result(self.deals[-1] if self.deals else {})
        if special is not None:
            self.hand_results[-1]["special_hand"] = special
        top = max(self.scores)
        if v.hands_per_game is not None and self.hand_no >= v.hands_per_game:
            # Hand and Foot: 'The game ends after four hands ... The partnership with the highest score'
            self.winner = self.scores.index(top) if self.scores.count(top) == 1 else None
            self.phase = P_OVER
            return
        if top >= v.target_score and self.scores.count(top) == 1:
            self.winner = self.scores.index(top)
            self.phase = P_OVER
            return
        self._deal()

    def _record_deal_in_result(self, deal: dict[str, Any]) -> None:
        """Copy the family's records of the hand's ``deal`` into its result (Hand and Foot's self-deal); none here."""

    # ---------------------------------------------------------- observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, and everything face up on the table.

        ``seat=None`` is a spectator's view: only what every seat sees (no hand, no seat's
        private choice), with ``seat``, ``side`` and ``partner`` None.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise IllegalActionError("no-such-seat", f"there is no seat {seat}")
        v = self.variant
        side = None if seat is None else self._sides[seat]
        obs: dict[str, Any] = {
            "variant": self.variant_name,
            "rules": dict(v.rules),
            "players": self.num_players,
            "seat": seat,
            "side": side,
            "partner": None if seat is None else v.partner_of(seat),
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "turn": self.turn,
            "actor": self.actor if not self.is_over else None,
            "phase": self.phase,
            "hand": [] if seat is None else [format_card(c) for c in self.hand_cards(seat)],
            "hand_sizes": list(self.hand_sizes),
            # cards every player saw go into each hand (a taken pile, a retracted meld) and still there
            "known_hands": [[format_card(c) for c in sorted(k, key=sort_key)] for k in self.known],
            "stock_size": len(self.stock),
            "pile_size": len(self.pile),
            "pile_top": format_card(self.pile[-1]) if self.pile else None,
            # Every card in the pile was seen face up when it was discarded or turned.
            "pile": [format_card(c) for c in self.pile],
            "frozen": self.frozen or v.always_frozen,
            "melds": [[{"rank": _meld_rank_text(m.rank), "cards": [format_card(c) for c in m.cards],
                        "canasta": v.HAS_CANASTAS and m.size >= 7, "natural": m.wilds == 0}
                       for m in self.melds[s].values()] for s in range(self.num_sides)],
            "red_threes": [[format_card(c) for c in r] for r in self.red_threes],
            "removed": [[format_card(c) for c in r] for r in self.removed],
            "opened": list(self.opened),
            "minimum": [self.minimum(s) for s in range(self.num_sides)],
            "pending_value": self.pending_value,
            # the rest of a pile taken below the initial meld, kept aside until the meld completes:
            # it lay face up in the pile, so every seat (and a spectator) sees it
            "pile_taken_aside": self._pile_aside_view(),
            # everyone at the table sees a retract: after it, no new initial meld this turn
            "retracted_this_turn": self.retracted,
            "scores": list(self.scores),
            "asked": self.asked,
            "permission": self.permission,
            "hand_results": self.hand_results,
            "winner": self.winner,
            "settlement": self.settlement(),
        }
        return obs

    @staticmethod
    def _loaded_melds(saved: list[Any]) -> list[dict[int, Any]]:
        """The melds of a saved position, per side (``to_dict``'s ``melds``)."""
        return [{rank: Meld(rank, list(cards)) for rank, cards in side_melds} for side_melds in saved]

    def _loaded_meld_problem(self, key: int, meld: Any) -> str | None:
        """Why a loaded meld (filed under ``key``) is not one the rules can build, or None."""
        natural_ranks = {c >> 2 for c in meld.cards if not (c == JOKER or 8 <= c <= 11)}
        if natural_ranks and natural_ranks != {key}:
            return f"it is filed under rank {key}"
        problem: str | None = self.variant.meld_problem(list(meld.cards))
        return problem


def _special_codes(values: list[int], ranks: range) -> tuple[int, ...]:
    """Suited cards of these meldable ranks whose value differs from most cards of their rank."""
    out: list[int] = []
    for r in ranks:
        vals = [values[r * 4 + s] for s in range(4)]
        usual = max(set(vals), key=vals.count)
        out.extend(r * 4 + s for s in range(4) if vals[s] != usual)
    return tuple(out)


def _meld_rank_text(rank: int) -> str:
    if rank == WILD_RANK:
        return "wild"
    return format_rank(rank)
