"""Classic Canasta's turn on melds with ids: the Samba family.

A variant that sets both ``MELD_IDS`` and ``CLASSIC_TURN`` (Samba) is played by :class:`SambaGame`:
it keeps the meld-id mechanisms of :class:`~canasta.engine.idmelds.MeldIdGame` (several sets of a
rank, runs kept in order, melds named ``#n``) and overrides the steps of the turn with Classic's
(here its legal actions and checks; the state changes they end in are
:class:`~canasta.engine.sambaplay.SambaPlay`'s, below it):

- the upcard and discards of a red three or wild card freeze the pile; a pile topped by a
  wild card, a red three or a black three cannot be taken;
- ``take a b`` takes the pile with a natural pair of the top card's rank (a new set of three
  naturals), ``take #n`` (not frozen) puts the top card alone on meld ``n``: never to start a
  new run;
- red threes are laid out: dealt or drawn ones are replaced from the stock, those in a taken
  pile are not;
- the initial meld must reach the side's minimum (``Game.minimum``) over the melds of the
  turn; until then the rest of a taken pile is set aside, and a player who cannot reach it
  ``retract`` s (the side's minimum rises by the table rule ``retract_raises_minimum``);
- going out needs ``canastas_to_go_out`` melds of ``CANASTA_SIZE`` cards; "may I go out?"
  (``ask``/``yes``/``no``) binds as in Classic;
- ``merge #a #b`` combines two of the side's sets of one rank into set ``a`` (variants with
  ``MERGE_SETS``: Samba's 'A player may combine two existing sets into one big set'), within the
  meld's size and wild-card limits; it moves no card from the hand;
- when the stock is used up a player takes the pile if able, or ``end`` s the hand; a red
  three drawn as the last card lets the player meld but not discard (``end``).

Additions are one card at a time. A meld or addition may leave one card only if that card can
then go out (discarded or added to a meld), so a live game always has a legal action.
"""

from __future__ import annotations

from typing import ClassVar

from canasta.cards import JOKER, NUM_CODES, TWO_CODES, format_card, is_black_three, is_red_three
from canasta.engine.actions import (
    ADD,
    ASK,
    ASK_ACTION,
    DISCARD,
    DRAW,
    DRAW_ACTION,
    END,
    END_ACTION,
    MELD,
    MERGE,
    NO,
    NO_ACTION,
    RETRACT,
    RETRACT_ACTION,
    TAKE,
    YES,
    YES_ACTION,
    Action,
    add_action,
    meld_action,
    take_action,
    target_action,
)
from canasta.engine.actions import DISCARD_ACTIONS as _DISCARDS
from canasta.engine.game import RETRACTED_THIS_TURN, Game
from canasta.engine.idmeld import IdMeld
from canasta.engine.sambaplay import SambaPlay, cannot_take, sevens_after_growth
from canasta.errors import IllegalActionError
from canasta.notation import ID_BASE, merge_ids, merge_target
from canasta.runs import is_wild


class SambaGame(SambaPlay):
    """Samba and its family: meld ids and runs on Classic's turn (see the module text)."""

    PLAYS: ClassVar[frozenset[str]] = frozenset({"MELD_IDS", "CLASSIC_TURN"})

    # -------------------------------------------------------- legal actions
    def _legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == "answer":
            return [YES_ACTION, NO_ACTION]
        if ph == "draw":
            out: list[Action] = [DRAW_ACTION] if self.stock else []
            takes = self._take_actions()
            out.extend(takes)
            if not self.stock and not takes:
                out.append(END_ACTION)  # 'or is unable to take the discard pile, at which point the hand ends'
            if self._may_ask():
                out.append(ASK_ACTION)
            return out
        if ph != "play":
            return []
        return self._play_actions()

    def _take_actions(self) -> list[Action]:
        if self.pile_barred or not self.pile:
            return []
        top = self.pile[-1]
        if is_wild(top) or top >> 2 == 3:
            return []
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        r = top >> 2
        base = r * 4
        out: list[Action] = []
        if hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3] >= 2:  # (mostly not: no pair to list)
            held = [c for c in range(base, base + 4) for _ in range(min(hand[c], 2))]
            pairs = sorted({(held[i], held[j]) for i in range(len(held)) for j in range(i + 1, len(held))})
            for pair in pairs:
                out.append(take_action(pair))
        if not self.frozen and self.opened[side]:
            melds: dict[int, IdMeld] = self.melds[side]
            for mid, m in melds.items():
                if cannot_take(m, top):  # (the top card is natural here)
                    continue
                if self._add_arrangement(m, top) is not None:
                    out.append(target_action(TAKE, ID_BASE + mid))
        return [a for a in out if self._check_take(a, False)] if out else out

    def _play_actions(self) -> list[Action]:
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        v = self.variant
        two = next((c for c in TWO_CODES if hand[c]), None)
        # Italian: no 2 plays wild while the side's meld of deuces is short of a canasta
        two_wild = None if two is not None and self._deuces_melded(side) and v.deuces_barred(self, side) else two
        wild_codes = ([JOKER] if hand[JOKER] else []) + ([two_wild] if two_wild is not None else [])
        # one pass over the hand: the codes held, the naturals of each rank, each suit's ranks as bits
        held = [c for c in range(8, NUM_CODES) if hand[c]]
        of_rank = [0] * 16  # (the joker counts as rank 15)
        suit_ranks = [0, 0, 0, 0]
        for c in held:
            of_rank[c >> 2] += hand[c]
            if 16 <= c < JOKER:  # naturals 4 to ace (no 3s, no joker: escaleras start at 4)
                suit_ranks[c & 3] |= 1 << (c >> 2)
        # each meld below is listed once, its cards in code order
        out = self._new_set_melds(hand, of_rank, wild_codes)
        out += self._new_escaleras(suit_ranks)
        out += self._wild_and_three_melds(hand)
        out += self._additions(self.melds[side], hand, two, wild_codes)
        if self._merge_sets:
            out.extend(self._merge_actions(side))
        size = self.hand_sizes[seat]
        # an action that leaves at most one card (going out) is checked in full (black threes were, above):
        # with five cards or more in hand none does, every other action playing at most three cards
        if size <= 4:
            out = [a for a in out if a.kind == MERGE or len(a.cards) < size - 1 or self._check_meld(a, False)]
        pending_ok = self._pending_met(side)
        if not self.no_discard and (pending_ok or size == 1):
            out += self._held_discards(hand, held, two, size)
        if not pending_ok:
            out.append(RETRACT_ACTION)
        if self.no_discard and pending_ok:
            out.append(END_ACTION)
        if self._may_ask():
            out.append(ASK_ACTION)
        return out

    def _new_set_melds(self, hand: list[int], of_rank: list[int], wild_codes: list[int]) -> list[Action]:
        """New sets: three naturals of a rank, or two and a wild card (suits matter for escaleras)."""
        out: list[Action] = []
        add_meld = out.append
        for r in self._set_ranks:
            if of_rank[r] < 2:
                continue
            base = r * 4
            codes = [c for c in range(base, base + 4) if hand[c]]
            n = len(codes)
            for i in range(n):  # each pair x <= y of the codes held (a pair of one code: two copies held)
                x = codes[i]
                for j in range(i, n):
                    y = codes[j]
                    if i == j and hand[x] < 2:
                        continue
                    for w in wild_codes:  # a 2 sorts before naturals, the joker after
                        add_meld(meld_action((x, y, w) if w == JOKER else (w, x, y)))
                    for c in codes[j:]:  # a third natural, from y on
                        if hand[c] >= 1 + (c == y) + (c == x):
                            add_meld(meld_action((x, y, c)))
        return out

    @staticmethod
    def _new_escaleras(suit_ranks: list[int]) -> list[Action]:
        """New escaleras: three consecutive cards of a suit, 4 up to the ace."""
        out: list[Action] = []
        for s in range(4):
            bits = suit_ranks[s]
            starts = bits & (bits >> 1) & (bits >> 2)  # lowest rank of three in a row (4 at least: no 3s)
            while starts:
                lo = (starts & -starts).bit_length() - 1
                starts &= starts - 1
                out.append(meld_action((lo * 4 + s, (lo + 1) * 4 + s, (lo + 2) * 4 + s)))
        return out

    def _wild_and_three_melds(self, hand: list[int]) -> list[Action]:
        """Melds of deuces (Italian), of wild cards (Bolivian), and of black threes in going out."""
        out: list[Action] = []
        if self._deuce_sets:  # Italian: a meld of three deuces
            twos = [c for c in TWO_CODES for _ in range(hand[c])]
            if len(twos) >= 3:
                out.append(meld_action(tuple(twos[:3])))
        if self._wild_sets:  # melds of three wild cards (Bolivian): k jokers and the first 3 - k 2s held
            twos = [c for c in TWO_CODES for _ in range(hand[c])]
            for k in range(min(hand[JOKER], 3) + 1):
                if len(twos) >= 3 - k:
                    out.append(meld_action((*twos[:3 - k], *[JOKER] * k)))
        # Black threes: only when going out (each checked in full), so every size held is a start of its own:
        # with 3s 3s 3c 3c 7h the four threes go out and three of them cannot (two cards would be left).
        bt = hand[12] + hand[15]
        for count in range(3, min(bt, self._canasta_size) + 1):
            a = meld_action(tuple([12] * min(hand[12], count) + [15] * max(0, count - hand[12])))
            if self._check_meld(a, False):
                out.append(a)
        return out

    def _additions(self, melds: dict[int, IdMeld], hand: list[int], two: int | None,
                   wild_codes: list[int]) -> list[Action]:
        """Additions: one card onto one of the side's melds."""
        out: list[Action] = []
        for mid, m in melds.items():
            if len(m.cards) >= self._canasta_size:
                continue
            target = ID_BASE + mid
            if m.kind == "set" and m.rank == 0:  # a meld of wild cards (Bolivian's bolivia), of deuces (Italian)
                cands = [c for c in ([JOKER] if hand[JOKER] else []) + ([two] if two is not None else [])
                         if self._add_arrangement(m, c) is not None]
            elif m.kind == "set":
                base = m.rank * 4
                cands = [c for c in range(base, base + 4) if hand[c]]
                if m.rank == 3:  # black threes: only when going out, each checked in full
                    out.extend(a for a in (add_action(c, target) for c in cands) if self._check_meld(a, False))
                    continue
                if m.wilds < self._max_wilds:
                    cands += wild_codes
            else:
                lo, hi = m.cards[0] >> 2, m.cards[-1] >> 2
                cands = [c for c in ((lo - 1) * 4 + m.suit, (hi + 1) * 4 + m.suit)
                         if 16 <= c < 60 and hand[c]]
            # (the candidates fit: a set takes its rank and wild cards up to the limit, an
            # escalera its suit's next card at either end, until seven cards)
            out.extend(add_action(c, target) for c in cands)
        return out

    def _held_discards(self, hand: list[int], held: list[int], two: int | None, size: int) -> list[Action]:
        """A discard of each card held (one 2 for all, one black three for both); the last card only if
        discarding it goes out, and each checked in full while a yes or no binds."""
        out: list[Action] = []
        for c in held:
            if 8 <= c <= 11 and c != two:
                continue  # one 2 stands for all: suits of wild cards never matter
            if c == 15 and hand[12]:
                continue  # one black three stands for both
            a = _DISCARDS[c]
            if (size > 1 and self.permission is None) or self._check_discard(a, False):
                out.append(a)
        return out

    # ------------------------------------------------------------- checking
    def _check(self, action: Action) -> None:
        kind = action.kind
        ph = self.phase
        if ph == "over":
            raise IllegalActionError("game-over", "the game is over")
        if kind not in (TAKE, MELD, ADD, DISCARD) and (action.cards or (action.target and kind != MERGE)):
            raise IllegalActionError("no-cards-expected", f"{kind} names no cards")
        if kind not in (ADD, TAKE, MERGE) and action.target:
            raise IllegalActionError("no-target-expected", f"only add, take and merge name a meld; {kind} does not")
        if ph == "answer":
            if kind not in (YES, NO):
                raise IllegalActionError("answer-pending", "your partner asked 'may I go out?': answer yes or no")
            return
        if kind in (YES, NO):
            raise IllegalActionError("nothing-to-answer", "nobody asked 'may I go out?'")
        if kind == ASK:
            if not self._may_ask():
                raise IllegalActionError(
                    "ask-timing", "you may ask 'may I go out?' once, before melding or taking the pile, "
                    "and only when your side has the seven-card melds needed to go out")
            return
        if ph == "draw":
            if kind == DRAW:
                if not self.stock:
                    raise IllegalActionError("stock-empty", "the stock is used up: take the pile or end the hand")
                return
            if kind == TAKE:
                self._check_take(action, True)
                return
            if kind == END:
                if self.stock:
                    raise IllegalActionError("end-timing", "the hand can only be ended this way when the stock is used up")
                if self._take_actions():
                    raise IllegalActionError("forced-take", self.variant.cite(
                        "forced-take", "the stock is used up and you can take the discard pile: 'play continues "
                        "with players taking the discard pile ... until a player ... is unable to take'"))
                return
            raise IllegalActionError("draw-first", "start your turn by drawing from the stock or taking the pile")
        if kind in (MELD, ADD):
            self._check_meld(action, True)
            return
        if kind == MERGE:
            self._check_merge(action, True)
            return
        if kind == DISCARD:
            self._check_discard(action, True)
            return
        if kind == RETRACT:
            side = self._sides[self.turn]
            if self._pending_met(side):
                raise IllegalActionError("nothing-to-retract", "only an initial meld below the minimum can be retracted")
            return
        if kind == END:
            if not self.no_discard:
                raise IllegalActionError("end-timing", "end your turn with a discard")
            if not self._pending_met(self._sides[self.turn]):
                raise IllegalActionError("minimum-count", self.variant.cite(
                    "minimum-count", "your initial meld is below the minimum: meld more or retract"))
            return
        if kind in (DRAW, TAKE):
            raise IllegalActionError("already-drawn", "you have already drawn this turn")
        raise IllegalActionError("unknown-action", f"unknown action {kind!r}")

    def _check_take(self, action: Action, raise_error: bool) -> bool:
        f = self._fail_id
        seat = self.turn
        side = self._sides[seat]
        v = self.variant
        if self.pile_barred:
            return f(raise_error, "pile-barred", "you retracted a pile take this turn: draw from the stock")
        if not self.pile:
            return f(raise_error, "pile-empty", "the discard pile is empty")
        top = self.pile[-1]
        if is_wild(top):
            return f(raise_error, "pile-blocked", "'A discard pile topped by a wild card can never be taken.'")
        if is_black_three(top):
            return f(raise_error, "pile-blocked",
                     "black 3s 'prevent the discard pile from being taken when one is the upcard'")
        if is_red_three(top):
            return f(raise_error, "pile-blocked", "a red three on the pile melds with nothing: the pile cannot be taken")
        cards = action.cards
        r = top >> 2
        if cards:
            if action.target:
                return f(raise_error, "take-cards", "take with a natural pair (a new set) or onto a meld (#n), not both")
            if len(cards) != 2 or any(is_wild(c) or c >> 2 != r for c in cards):
                return f(raise_error, "take-naturals",
                         f"take the pile with two natural cards of the top card's rank ({format_card(top)}): "
                         "'they hold two other natural cards of the same rank to form a new meld with'")
            if not self._holds(seat, cards):
                return f(raise_error, "not-in-hand", "you do not hold those cards")
            new_cards = [top, *cards]
            sevens = self._sevens(side)
        else:
            if not action.target:
                return f(raise_error, "take-cards",
                         "name a natural pair to meld with the top card, or the meld (#n) it goes on")
            m = self.melds[side].get(action.target - ID_BASE)
            if m is None:
                return f(raise_error, "no-such-meld", "your side has no meld with that id")
            if self.frozen:
                return f(raise_error, "pile-frozen",
                         "'When the discard pile is frozen, it may only be taken if its top card can be used to form "
                         "a new meld with two or more natural cards of the same rank from the hand'")
            got = self._add_arrangement(m, top)
            if got is None:
                return f(raise_error, "take-top-card",
                         f"{format_card(top)} cannot go on {m.describe()} by itself: 'the discard pile cannot be "
                         "taken in order to form a new escalera'")
            new_cards = []
            sevens = sevens_after_growth(self._sevens(side), m, len(got[1][0]), self._canasta_size)
        after = self.hand_sizes[seat] - len(cards)  # and the pile's rest, unless it waits for the minimum
        rest_waits = False
        if not self.opened[side]:
            value = sum(v.values[c] for c in new_cards)
            left = sum(v.values[c] * (k - cards.count(c)) for c, k in enumerate(self.hands[seat]) if k)
            if value + left < self.minimum(side):
                return f(raise_error, "minimum-count",
                         f"your side's initial meld needs {self.minimum(side)} points; the top card and your hand "
                         "cannot make it")
            rest_waits = not self._initial_meld_ok(side, value)  # the rest waits until the minimum is met
        if after <= 1 and not rest_waits:  # (counted only where it decides: with two cards kept, no going out)
            after += sum(1 for c in self.pile[:-1] if not is_red_three(c))
        if after <= 1:
            why = self._going_out_problem(side, sevens, True)
            if why:
                return f(raise_error, "cannot-go-out", why)
        return True

    def _check_meld(self, action: Action, raise_error: bool) -> bool:
        f = self._fail_id
        if self.retracted and action.kind == MELD:  # one retract a turn, then no new initial meld (Game._do_retract)
            return f(raise_error, "retracted-this-turn", RETRACTED_THIS_TURN)
        seat = self.turn
        side = self._sides[seat]
        v = self.variant
        if not action.cards:
            return f(raise_error, "no-cards", "name the cards to meld")
        if not self._holds(seat, action.cards):
            return f(raise_error, "not-in-hand", "you do not hold those cards")
        m, bad = self._meld_made_by(action)
        if m is None:
            return f(raise_error, self._refusal_rule(bad), bad)
        if self._deuces_melded(side) and any(8 <= c <= 11 for c in action.cards):  # (only a 2 breaks the deuce rule)
            why = v.deuce_problem(self, side, m.cards, action.cards)
            if why:
                return f(raise_error, "deuce-wild", why)
        left = self.hand_sizes[seat] - len(action.cards)
        value = sum(v.values[c] for c in action.cards)
        pending_met = self.opened[side] or self._initial_meld_ok(side, self.pending_value + value, m)
        if self.pile_aside is not None and pending_met:
            left += sum(1 for c in self.pile_aside if not is_red_three(c))
        if m.kind == "set" and m.rank == 3 and left > 1:
            return f(raise_error, "black-three-timing", "black 3s 'can only be melded at the end of the hand'")
        if left > 1 or (left == 1 and self.no_discard):
            return True  # (the stock ended on a red three: the card stays in hand, play stops)
        sevens = self._sevens(side, m)
        why = self._going_out_problem(side, sevens, pending_met)
        if why is None:
            return True
        if left == 1 and self.permission is not False and pending_met:
            # One card left that cannot be discarded to go out: allowed if it can go on a meld and go out.
            last = next(c for c in range(NUM_CODES) if self.hands[seat][c] - action.cards.count(c) > 0)
            others = [m if x.id == m.id else x for x in self.melds[side].values()]
            if m.id not in self.melds[side]:
                others.append(m)
            natural = not is_wild(last)
            for cur in others:
                if natural and cannot_take(cur, last):
                    continue
                got = self._add_arrangement(cur, last)
                if got is None or (8 <= last <= 11 and self._deuces_melded(side)
                                   and v.deuce_problem(self, side, got[1][0], (last,))):
                    continue
                if self._going_out_problem(side, sevens_after_growth(sevens, cur, len(got[1][0]), self._canasta_size),
                                           pending_met) is None:
                    return True
        return f(raise_error, "cannot-go-out", why + " (a meld may leave one card only if you can then go out)")

    def _merge_actions(self, side: int) -> list[Action]:
        """The side's legal merges: pairs of sets of one rank (each 3 or 4 cards: at most seven together)."""
        size = self._canasta_size
        small = [m for m in self.melds[side].values() if m.kind == "set" and 2 * len(m.cards) < size + 2]
        out: list[Action] = []
        if len(small) < 2:
            return out
        for i, ma in enumerate(small):
            for mb in small[i + 1:]:
                a, b = sorted((ma.id, mb.id))
                if ma.rank == mb.rank and self._merged(side, a, b)[0] is not None:
                    out.append(target_action(MERGE, merge_target(a, b)))
        return out

    def _check_merge(self, action: Action, raise_error: bool) -> bool:
        a, b = merge_ids(action.target)
        m, rule, why = self._merged(self._sides[self.turn], a, b)
        if m is None:
            return self._fail_id(raise_error, rule, why)
        return True

    def _check_discard(self, action: Action, raise_error: bool) -> bool:
        f = self._fail_id
        seat = self.turn
        side = self._sides[seat]
        if len(action.cards) != 1:
            return f(raise_error, "discard-one", "discard exactly one card")
        if not self._holds(seat, action.cards):
            return f(raise_error, "not-in-hand", "you do not hold that card")
        if self.no_discard:
            return f(raise_error, "no-discard",
                     "the final card of the stock was a red 3: 'This player is not entitled to discard'")
        if self.hand_sizes[seat] == 1:
            why = self._going_out_problem(side, self._sevens(side), self._pending_met(side))
            if why:
                return f(raise_error, "cannot-go-out", why)
            return True
        if not self._pending_met(side):
            return f(raise_error, "minimum-count", self._initial_meld_shortfall(side))
        return True

    def _initial_meld_shortfall(self, side: int) -> str:
        """What this turn's melds lack to make the initial meld: its points, or the canasta the variant asks for."""
        need = self.minimum(side)
        if self.pending_value < need:
            return f"your initial meld counts {self.pending_value} of the {need} needed: meld more or retract"
        kind = "a natural canasta" if self.variant.initial_canasta(self.scores[side]) == "natural" else "a canasta"
        return f"at your side's score the initial meld must include {kind}: complete one this turn or retract"


Game.register_family(SambaGame)
__all__ = ["SambaGame"]
