"""Classic Canasta's turn on melds with ids: the Samba family.

A variant that sets both ``MELD_IDS`` and ``CLASSIC_TURN`` (Samba) is played by :class:`SambaGame`:
it keeps the meld-id mechanisms of :class:`~canasta.engine.idmelds.MeldIdGame` (several sets of a
rank, runs kept in order, melds named ``#n``) and overrides the steps of the turn with Classic's:

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

import json
from typing import Any, ClassVar

from canasta.cards import JOKER, NUM_CODES, format_card, is_black_three, is_red_three
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
from canasta.engine.idmelds import MEMO_LIMIT, MeldIdGame
from canasta.errors import IllegalActionError
from canasta.notation import ID_BASE, merge_ids, merge_target
from canasta.runs import is_wild

_TWOS = (8, 9, 10, 11)
_BLACK_THREES = (12, 15)



class _ArrangementMemos:
    """The memos of one variant with one set of table rules (``SambaGame._set_card_tables``)."""

    def __init__(self) -> None:
        self.melds: dict[tuple[int, ...], Any] = {}
        self.additions: dict[tuple[str, tuple[int, ...], int, int], Any] = {}
        self.going_out: dict[tuple[int, int], str | None] = {}


#: by (variant class, its table rules as JSON): answers of pure functions, so sharing them changes no result
#: (each memo is cleared when it passes MEMO_LIMIT answers; a variant subclass, a house rule, has its own)
_SHARED_MEMOS: dict[tuple[type, str], _ArrangementMemos] = {}


def _cannot_take(m: IdMeld, natural: int) -> bool:
    """A natural card joins only a set of its rank or an escalera of its suit: a quick test before the variant's."""
    return m.rank != natural >> 2 if m.kind == "set" else m.suit != natural & 3


def _grow(sevens: tuple[int, int], m: IdMeld, new_size: int, size: int) -> tuple[int, int]:
    """``sevens`` after meld ``m`` grows to ``new_size`` cards."""
    if len(m.cards) < size <= new_size:
        return sevens[0] + 1, sevens[1] + (m.kind == "run")
    return sevens


class SambaGame(MeldIdGame):
    """Samba and its family: meld ids and runs on Classic's turn (see the module text)."""

    PLAYS: ClassVar[frozenset[str]] = frozenset({"MELD_IDS", "CLASSIC_TURN"})

    #: the variant's constants the moves read at every decision, copied once (``_set_card_tables``)
    _canasta_size: int
    _deuce_sets: bool
    _wild_sets: bool
    _merge_sets: bool
    #: the variant's answers to 'how does this meld arrange?' and 'what does this card make of this meld?': pure
    #: functions of the cards (and the variant's constants and table rules), asked at every decision of the hot
    #: path, so each is computed once and shared by every game of the same variant and table rules
    #: (:data:`_SHARED_MEMOS`) and their copies (a search's)
    _meld_memo: dict[tuple[int, ...], Any]
    _add_memo: dict[tuple[str, tuple[int, ...], int, int], Any]
    #: the variant's ``going_out_problem`` by (seven-card melds, of them runs): a pure function of the counts
    _going_out_memo: dict[tuple[int, int], str | None]

    def _set_card_tables(self) -> None:
        super()._set_card_tables()
        v = self.variant
        self._canasta_size = int(v.CANASTA_SIZE)
        self._deuce_sets = bool(v.DEUCE_SETS)
        self._wild_sets = bool(v.WILD_SETS)
        self._merge_sets = bool(v.MERGE_SETS)
        key = (type(v), json.dumps(v.rules, sort_keys=True, default=str))
        shared = _SHARED_MEMOS.get(key)
        if shared is None:
            shared = _SHARED_MEMOS[key] = _ArrangementMemos()
        self._meld_memo = shared.melds
        self._add_memo = shared.additions
        self._going_out_memo = shared.going_out

    # ----------------------------------------------------------------- deal
    def _deal(self) -> None:
        super()._deal()
        self._start_classic_turn(self.pile[-1])

    def _start_classic_turn(self, up: int) -> None:
        """After the deal: 'This turned-up card is the first card in the discard pile'; a red three
        or wild upcard freezes it; red threes dealt are laid out and replaced."""
        self.frozen = is_red_three(up) or is_wild(up) or self.variant.ALWAYS_FROZEN
        self.opened = [False] * self.num_sides
        replacements = self.deals[-1]["replacements"]
        for i in range(self.num_players):
            seat = (self.turn + i) % self.num_players
            if not self._lay_out_red_threes(seat, replacements[seat]):
                return

    def _lay_out_red_threes(self, seat: int, got: list[int]) -> bool:
        """Lay out the red threes of ``seat`` and replace them; False if the stock ran out on one."""
        hand = self.hands[seat]
        side = self._sides[seat]
        while hand[13] or hand[14]:
            for c in (13, 14):
                k = hand[c]
                if not k:
                    continue
                hand[c] = 0
                self.hand_sizes[seat] -= k
                self.red_threes[side].extend([c] * k)
                for _ in range(k):
                    if not self.stock:
                        # 'If, however, the final card of the stock is a red 3 ... does any melding
                        # possible, after which play stops. This player is not entitled to discard.'
                        if self.phase == "play":
                            self.no_discard = True
                            return False
                        self._finish_hand(None)
                        return False
                    x = self.stock.pop()
                    got.append(x)
                    hand[x] += 1
                    self.hand_sizes[seat] += 1
        return True

    # -------------------------------------------------------- helpers
    def _sevens(self, side: int, changed: IdMeld | None = None) -> tuple[int, int]:
        """(seven-card melds, of them runs) of the side, with meld ``changed`` as given."""
        size = self._canasta_size
        n = runs = 0
        melds: dict[int, IdMeld] = self.melds[side]
        for m in melds.values():
            if changed is not None and m.id == changed.id:
                continue
            if len(m.cards) >= size:
                n += 1
                runs += m.kind == "run"
        if changed is not None and len(changed.cards) >= size:
            n += 1
            runs += changed.kind == "run"
        return n, runs

    def _pending_met(self, side: int) -> bool:
        return self.opened[side] or not self.turn_created or self._initial_meld_ok(side, self.pending_value)

    def _initial_meld_ok(self, side: int, value: int, changed: IdMeld | None = None) -> bool:
        """Do the melds of this turn (with meld ``changed`` as given), worth ``value``, make the initial meld?

        The minimum in points, and where the variant asks for it (Brazilian) a canasta among them."""
        if value < self.minimum(side):
            return False
        need: str | None = self.variant.initial_canasta(self.scores[side])
        if need is None:
            return True
        size = self._canasta_size
        ids = set(self.turn_created)
        if changed is not None:
            ids.add(changed.id)
        for mid in ids:
            m = changed if changed is not None and changed.id == mid else self.melds[side].get(mid)
            if m is not None and len(m.cards) >= size and (need == "any" or m.wilds == 0):
                return True
        return False

    def _going_out_problem(self, side: int, sevens: tuple[int, int], pending_met: bool) -> str | None:
        """Why the player may not empty the hand now, or None."""
        if self.permission is False:
            return "partner said no to 'may I go out?': you may not go out this turn"
        why = self._variant_going_out(sevens)
        if why:
            return why + ", so you must keep a card"
        if not pending_met:
            return "your initial meld has not reached the minimum count"
        return None

    def _may_ask(self) -> bool:
        if self.asked or self._partners[self.turn] is None or self.no_discard:
            return False
        if self.took_pile or self.turn_created or self.turn_added_existing or self.pending_value:
            return False
        side = self._sides[self.turn]
        return self._variant_going_out(self._sevens(side)) is None

    def _variant_going_out(self, sevens: tuple[int, int]) -> str | None:
        """The variant's ``going_out_problem`` for these counts (memoised: asked at every decision)."""
        memo = self._going_out_memo
        if sevens in memo:
            return memo[sevens]
        why: str | None = self.variant.going_out_problem(*sevens)
        memo[sevens] = why
        return why

    def _deuces_melded(self, side: int) -> bool:
        """Italian (``DEUCE_SETS``): has the side a set with no natural card? The deuce rule binds only then ('a
        partnership may not play deuces as wild cards if deuces have been melded ...'), so the variant's
        ``deuces_barred`` and ``deuce_problem`` are asked only then."""
        if not self._deuce_sets:
            return False
        melds: dict[int, IdMeld] = self.melds[side]
        return any(m.kind == "set" and m.rank == 0 for m in melds.values())

    def _add_arrangement(self, m: IdMeld, c: int) -> Any:
        key = (m.kind, tuple(m.cards), m.wilds, c)
        memo = self._add_memo
        if key in memo:
            return memo[key]
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        got = memo[key] = self.variant.add_arrangement(m.kind, m.cards, m.wilds, c)
        return got

    def _arrange_meld(self, cards: tuple[int, ...]) -> Any:
        """The variant's ``arrange_meld`` of ``cards`` (memoised, like :meth:`_add_arrangement`)."""
        memo = self._meld_memo
        if cards in memo:
            return memo[cards]
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        got = memo[cards] = self.variant.arrange_meld(cards)
        return got

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
                if _cannot_take(m, top):  # (the top card is natural here)
                    continue
                if self._add_arrangement(m, top) is not None:
                    out.append(target_action(TAKE, ID_BASE + mid))
        return [a for a in out if self._check_take(a, False)] if out else out

    def _play_actions(self) -> list[Action]:
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        v = self.variant
        out: list[Action] = []
        two = next((c for c in _TWOS if hand[c]), None)
        # Italian: no 2 plays wild while the side's meld of deuces is short of a canasta
        two_wild = None if two is not None and self._deuces_melded(side) and v.deuces_barred(self, side) else two
        wild_codes = ([JOKER] if hand[JOKER] else []) + ([two_wild] if two_wild is not None else [])
        add_meld = out.append  # each meld below is listed once, its cards in code order
        # one pass over the hand: the codes held, the naturals of each rank, each suit's ranks as bits
        held = [c for c in range(8, NUM_CODES) if hand[c]]
        of_rank = [0] * 16  # (the joker counts as rank 15)
        suit_ranks = [0, 0, 0, 0]
        for c in held:
            of_rank[c >> 2] += hand[c]
            if 16 <= c < JOKER:  # naturals 4 to ace (no 3s, no joker: escaleras start at 4)
                suit_ranks[c & 3] |= 1 << (c >> 2)

        # New sets: three naturals of a rank, or two and a wild card (suits matter for escaleras).
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
        # New escaleras: three consecutive cards of a suit, 4 up to the ace.
        for s in range(4):
            bits = suit_ranks[s]
            starts = bits & (bits >> 1) & (bits >> 2)  # lowest rank of three in a row (4 at least: no 3s)
            while starts:
                lo = (starts & -starts).bit_length() - 1
                starts &= starts - 1
                add_meld(meld_action((lo * 4 + s, (lo + 1) * 4 + s, (lo + 2) * 4 + s)))
        if self._deuce_sets:  # Italian: a meld of three deuces
            twos = [c for c in _TWOS for _ in range(hand[c])]
            if len(twos) >= 3:
                add_meld(meld_action(tuple(twos[:3])))
        if self._wild_sets:  # melds of three wild cards (Bolivian): k jokers and the first 3 - k 2s held
            twos = [c for c in _TWOS for _ in range(hand[c])]
            for k in range(min(hand[JOKER], 3) + 1):
                if len(twos) >= 3 - k:
                    add_meld(meld_action((*twos[:3 - k], *[JOKER] * k)))
        # Black threes: only when going out (each checked in full), so every size held is a start of its own:
        # with 3s 3s 3c 3c 7h the four threes go out and three of them cannot (two cards would be left).
        bt = hand[12] + hand[15]
        canasta_size = self._canasta_size
        for count in range(3, min(bt, canasta_size) + 1):
            a = meld_action(tuple([12] * min(hand[12], count) + [15] * max(0, count - hand[12])))
            if self._check_meld(a, False):
                add_meld(a)
        # Additions: one card onto one of the side's melds.
        melds: dict[int, IdMeld] = self.melds[side]
        for mid, m in melds.items():
            if len(m.cards) >= canasta_size:
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
            for c in cands:
                out.append(add_action(c, target))
        if self._merge_sets:
            out.extend(self._merge_actions(side))
        size = self.hand_sizes[seat]
        # an action that leaves at most one card (going out) is checked in full (black threes were, above):
        # with five cards or more in hand none does, every other action playing at most three cards
        if size <= 4:
            out = [a for a in out if a.kind == MERGE or len(a.cards) < size - 1 or self._check_meld(a, False)]
        pending_ok = self._pending_met(side)
        if not self.no_discard and (pending_ok or size == 1):
            for c in held:
                if 8 <= c <= 11 and c != two:
                    continue  # one 2 stands for all: suits of wild cards never matter
                if c == 15 and hand[12]:
                    continue  # one black three stands for both
                a = _DISCARDS[c]
                if (size > 1 and self.permission is None) or self._check_discard(a, False):
                    out.append(a)
        if not pending_ok:
            out.append(RETRACT_ACTION)
        if self.no_discard and pending_ok:
            out.append(END_ACTION)
        if self._may_ask():
            out.append(ASK_ACTION)
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
            sevens = _grow(self._sevens(side), m, len(got[1][0]), self._canasta_size)
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

    def _meld_made_by(self, action: Action) -> tuple[IdMeld | None, str]:
        side = self._sides[self.turn]
        if action.kind == MELD:
            got = self._arrange_meld(action.cards)
            if isinstance(got, str):
                return None, got
            kind, (cards, wild_index, low) = got
            return IdMeld(self.next_meld_id, kind, cards, wild_index, low), ""
        old = self.melds[side].get(action.target - ID_BASE)
        if old is None:
            return None, "your side has no meld with that id"
        if len(action.cards) != 1:
            return None, "add one card at a time"
        c = action.cards[0]
        res = self._add_arrangement(old, c)
        if res is None:
            if len(old.cards) >= self._canasta_size:
                return None, "no more cards can be added to a canasta or samba"
            if self._deuce_sets and old.kind == "set" and old.rank == 0:
                return None, "a meld of deuces holds deuces only (no joker)"
            if is_wild(c) and old.kind == "run":
                return None, "wild cards can only be used in sets; they are prohibited in escaleras"
            if is_wild(c):
                return None, "any given set may not contain more than two wild cards"
            return None, f"{format_card(c)} cannot go on {old.describe()}"
        kind, (cards, wild_index, low) = res
        return IdMeld(old.id, kind, cards, wild_index, low), ""

    def _refusal_rule(self, why: str) -> str:
        if why.startswith("your side has no meld"):
            return "no-such-meld"
        if "wild" in why and ("two wild" in why or "prohibited" in why):
            return "wild-limit"
        if why.startswith("no more cards"):
            return "canasta-closed"
        if "red three" in why:
            return "red-three"
        return "meld-invalid"

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
                if natural and _cannot_take(cur, last):
                    continue
                got = self._add_arrangement(cur, last)
                if got is None or (8 <= last <= 11 and self._deuces_melded(side)
                                   and v.deuce_problem(self, side, got[1][0], (last,))):
                    continue
                if self._going_out_problem(side, _grow(sevens, cur, len(got[1][0]), self._canasta_size),
                                           pending_met) is None:
                    return True
        return f(raise_error, "cannot-go-out", why + " (a meld may leave one card only if you can then go out)")

    def _merged(self, side: int, a: int, b: int) -> tuple[IdMeld | None, str, str]:
        """(meld a with meld b combined into it, or None; the rule and the reason when it cannot be)."""
        v = self.variant
        if not v.MERGE_SETS:
            return None, "unknown-action", f"{v.title} has no 'merge' action"
        ma, mb = self.melds[side].get(a), self.melds[side].get(b)
        if ma is None or mb is None:
            return None, "no-such-meld", "your side has no meld with that id"
        if a >= b:
            return None, "merge-order", "name the lower meld id first: 'merge #a #b' combines set b into set a"
        if ma.kind != "set" or mb.kind != "set":
            return None, "merge-sets", "only sets combine: 'Escaleras may not be merged or split'"
        if ma.rank != mb.rank:
            return None, "merge-rank", "'A player may combine two existing sets into one big set': sets of one rank"
        if len(ma.cards) + len(mb.cards) > self._canasta_size:
            return None, "canasta-closed", "'Melds are capped at a maximum size of seven cards'"
        got = self._arrange_meld((*ma.cards, *mb.cards))
        if isinstance(got, str):
            return None, self._refusal_rule(got), got
        why = v.merge_problem(self, side, ma, mb)
        if why:
            return None, why[0], why[1]
        kind, (cards, wild_index, low) = got
        return IdMeld(a, kind, cards, wild_index, low), "", ""

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
            return f(raise_error, "minimum-count",
                     f"your initial meld counts {self.pending_value} of the {self.minimum(side)} needed: "
                     "meld more or retract")
        return True

    # ---------------------------------------------------------- transitions
    def _do(self, action: Action) -> None:
        seat = self.turn if self.phase != "answer" else self._partners[self.turn]
        assert seat is not None
        side = self._sides[seat]
        kind = action.kind
        got: list[int] = []
        self.history.append((seat, action, ()))
        v = self.variant
        if kind == DRAW:
            self.phase = "play"
            self.drawn = True
            c = self.stock.pop()
            self.hands[seat][c] += 1
            self.hand_sizes[seat] += 1
            got.append(c)
            if is_red_three(c):
                self._lay_out_red_threes(seat, got)
        elif kind == TAKE:
            self._do_take(action)
        elif kind in (MELD, ADD):
            m, _ = self._meld_made_by(action)
            assert m is not None  # (performed actions were checked)
            if kind == MELD:
                self.next_meld_id += 1
                self.turn_created.add(m.id)
            elif m.id not in self.turn_created:
                self.turn_added_existing = True
            self.melds[side][m.id] = m
            self._remove_cards(seat, action.cards)
            if not self.opened[side]:
                self.pending_value += sum(v.values[c] for c in action.cards)
                self._check_opened(side)
            if self.hand_sizes[seat] == 0 and self.pile_aside is None:
                self._finish_hand(seat)
        elif kind == MERGE:
            a, b = merge_ids(action.target)
            m, _, _ = self._merged(side, a, b)
            del self.melds[side][b]
            self.melds[side][a] = m
            if b in self.turn_created:
                self.turn_created.discard(b)
            if a not in self.turn_created:
                self.turn_added_existing = True
            if not self.opened[side]:
                self._check_opened(side)  # (Brazilian: the canasta the initial meld needs)
        elif kind == DISCARD:
            c = action.cards[0]
            self._remove_cards(seat, action.cards)
            self.pile.append(c)
            if is_wild(c):
                self.frozen = True  # 'by being intentionally discarded there'
            if self.hand_sizes[seat] == 0:
                self._finish_hand(seat)
            else:
                if self.permission is True:
                    self.penalties[side].append(("failed_go_out", -v.rules["failed_go_out_penalty"]))
                self.turn = (self.turn + 1) % self.num_players
                self._reset_turn()
        elif kind == ASK:
            self.asked = True
            self.return_phase = self.phase
            self.phase = "answer"
        elif kind in (YES, NO):
            self.permission = kind == YES
            self.phase = self.return_phase
        elif kind == RETRACT:
            self._do_retract()
        elif kind == END:
            self._finish_hand(None)
        if got:
            self.history[-1] = (seat, action, tuple(got))

    def _remove_cards(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand[c] -= 1
        self.hand_sizes[seat] -= len(cards)
        if self.known[seat]:
            self._forget_known(seat, cards)

    def _do_take(self, action: Action) -> None:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        top = self.pile.pop()
        self.take_snapshot = {"cards": action.cards, "top": top, "frozen": self.frozen,
                              "pile": list(self.pile), "red_threes": len(self.red_threes[side])}
        self._remove_cards(seat, action.cards)
        if action.cards:
            m = IdMeld(self.next_meld_id, "set", [top, *action.cards])
            self.next_meld_id += 1
            self.turn_created.add(m.id)
        else:
            old = self.melds[side][action.target - ID_BASE]
            kind, (cards, wild_index, low) = self._add_arrangement(old, top)
            m = IdMeld(old.id, kind, cards, wild_index, low)
            self.turn_added_existing = True
        self.melds[side][m.id] = m
        self.phase = "play"
        self.drawn = True
        self.took_pile = True
        rest = self.pile
        self.pile = []
        self.frozen = v.ALWAYS_FROZEN  # Italian: 'The discard pile is always frozen.'
        if not self.opened[side]:
            self.pending_value += v.values[top] + sum(v.values[c] for c in action.cards)
            self.pile_aside = rest
            self._check_opened(side)
        else:
            self._take_rest(seat, rest)
        if self.hand_sizes[seat] == 0 and self.pile_aside is None:
            self._finish_hand(seat)

    def _take_rest(self, seat: int, rest: list[int]) -> None:
        side = self._sides[seat]
        hand = self.hands[seat]
        for c in rest:
            if is_red_three(c):  # laid out; not replaced (Classic, Bicycle 'Taking the Pile')
                self.red_threes[side].append(c)
                continue
            hand[c] += 1
            self.hand_sizes[seat] += 1
            self.known[seat].append(c)

    def _check_opened(self, side: int) -> None:
        if self._initial_meld_ok(side, self.pending_value):
            self.opened[side] = True
            if self.pile_aside is not None:
                rest = self.pile_aside
                self.pile_aside = None
                self._take_rest(self.turn, rest)

    def _do_retract(self) -> None:
        """Take back the melds of the turn; a pile take goes back too, and the minimum rises."""
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        for mid in sorted(self.turn_created):
            m = self.melds[side].pop(mid)
            for c in m.cards:
                hand[c] += 1
            self.hand_sizes[seat] += len(m.cards)
            self.known[seat].extend(m.cards)  # everyone saw them on the table
        if self.turn_created:
            self.next_meld_id = min(self.turn_created)
        self._undo_turn_opening(seat)

    # ------------------------------------------------------------- scoring
    def _hand_scores(self, closed_by: int | None) -> list[Any]:
        v = self.variant
        results = []
        held = [len(r) for r in self.red_threes]
        for side in range(self.num_sides):
            seats = [s for s in range(self.num_players) if self._sides[s] == side]
            melds = [(m.kind, list(m.cards), m.wilds) for m in self.melds[side].values()]
            hands = [[c for c in range(NUM_CODES) for _ in range(self.hands[s][c])] for s in seats]
            results.append(v.score_team(
                melds=melds, red_threes=held[side], all_red_threes=held[side] == v.red_threes_in_pack,
                hands=hands, went_out=closed_by is not None and self._sides[closed_by] == side,
                penalties=list(self.penalties[side])))
        return results

    def observation(self, seat: int | None) -> dict[str, Any]:
        obs = super().observation(seat)
        obs["frozen"] = self.frozen
        obs["red_threes"] = [[format_card(c) for c in r] for r in self.red_threes]
        obs["opened"] = list(self.opened)
        obs["minimum"] = [self.minimum(s) for s in range(self.num_sides)]
        obs["pending_value"] = self.pending_value
        # Brazilian: an initial meld that must include a canasta ('any') or a natural one ('natural')
        obs["initial_canasta"] = [self.variant.initial_canasta(sc) for sc in self.scores]
        obs["asked"] = self.asked
        obs["permission"] = self.permission
        return obs




Game.register_family(SambaGame)
__all__ = ["SambaGame"]
