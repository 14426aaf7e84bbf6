"""Melds with ids and kinds (sets and runs), face-down extra piles, closing: the rules
of the Burraco family, :class:`MeldIdGame` (the variants that set ``MELD_IDS``).

- Melds are kept per side in a dict keyed by a meld id (``#n`` in the notation;
  the action target is ``ID_BASE + n``). A meld has a kind: ``set`` (one rank) or
  ``run`` (one suit in order), checked by the variant hook ``arrange_meld``; a run
  is stored in order with the index of the card that plays wild.
- Extra piles: ``EXTRA_PILES`` face-down piles are dealt to the centre (Burraco's
  pozzetti). A player who runs out of cards picks up the next one for the side
  (mid-turn after melding out; face down until their next turn after discarding
  out). Observations show only their sizes.
- Closing: a hand that would become empty by a discard once the side has its
  extra pile must pass the hook ``close_problem``; it cannot become empty by melding.
- The pile is always taken whole with no condition (``take`` names no cards);
  a one-card pile taken cannot be discarded again in that turn.
- The hand also ends when the stock is down to ``stock_end`` cards after a turn,
  or after a full orbit of turns that only took a one-card pile.

Samba's family (:class:`~canasta.engine.idturn.SambaGame`) plays Classic's turn on these melds.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from canasta.cards import JOKER, NUM_CODES, format_card
from canasta.engine.actions import ADD, DISCARD, DRAW, DRAW_ACTION, MELD, TAKE, Action, add_action, meld_action
from canasta.engine.actions import DISCARD_ACTIONS as _DISCARDS
from canasta.engine.game import Game
from canasta.engine.idmeld import IdMeld as IdMeld  # defined there (idturn uses it too); re-exported
from canasta.errors import IllegalActionError
from canasta.notation import ID_BASE
from canasta.runs import arrange_run, is_wild
from canasta.scoring import score_meld_side

_TAKE_ACTION = Action(TAKE)
_TWOS = (8, 9, 10, 11)
#: the most answers a memo of arrangements keeps before it starts again
MEMO_LIMIT = 20000
#: the values a run of three may start at, as bits: 1 (the ace low) to 12 (Q-K-A)
_RUN_STARTS = sum(1 << value for value in range(1, 13))
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


class MeldIdGame(Game):
    """Burraco: melds with ids (sets and runs), pozzetti, closing (see the module text)."""

    PLAYS: ClassVar[frozenset[str]] = frozenset({"MELD_IDS"})

    #: Burraco's variants and Samba's (their hooks: ``arrange_meld``, ``close_problem``, ...), not Classic's
    variant: Any
    #: per side, meld id -> IdMeld (Any: Game types its melds as set melds)
    melds: list[dict[int, Any]]
    _set_ranks: tuple[int, ...]
    _max_wilds: int
    #: a run's arrangement with one card more, by (its cards, its wild card's place, the card): a pure function
    #: of those, asked for every card that might go on every run at every decision, so computed once per game
    #: and shared with its copies (a search's)
    _run_memo: dict[tuple[tuple[int, ...], int, int], tuple[str, tuple[tuple[int, ...], int, int]] | None]

    def _set_card_tables(self) -> None:
        """The meld-id moves read none of the set family's card tables: neutral ones, nothing laid out."""
        self._blocks_pile = [False] * NUM_CODES
        self._threes_ordinary = False
        self._meld_ranks = range(4, 15)
        self._min_naturals = 2
        self._special_codes = ()
        self._laid_out = [False] * NUM_CODES
        # the variant's constants the moves read at every decision, copied once
        self._set_ranks = tuple(self.variant.SET_RANKS)
        self._max_wilds = int(self.variant.MAX_WILDS)
        self._run_memo = {}

    # ----------------------------------------------------------------- deal
    def _deal(self) -> None:
        n = self.num_players
        self._deal_cards(self._shuffled_deck())
        self.frozen = False
        self.melds = [{} for _ in range(self.num_sides)]
        self.red_threes = [list[int]() for _ in range(self.num_sides)]
        self.removed = [list[int]() for _ in range(self.num_sides)]
        self.opened = [True] * self.num_sides
        self.minimum_extra = [0] * self.num_sides
        self.penalties = [list[tuple[str, int]]() for _ in range(self.num_sides)]
        self.melded_before = [False] * n
        self.known = [list[int]() for _ in range(n)]
        self.hand_over = False
        self.turn = (self.dealer + 1) % n
        self._reset_turn()

    def _deal_cards(self, deck: list[int]) -> None:
        """Burraco: 11 cards each, then the pozzetti, then the upcard; the rest is the stock.

        The shuffle is uniform, so dealing hands and pozzetti from one end of the deck is
        the same in distribution as the text's cut ('The dealer takes the bottom part ...').
        """
        v = self.variant
        n = self.num_players
        dealt = self._deal_hands(deck)
        self.extra_piles: list[list[int]] = []
        for _ in range(v.EXTRA_PILES):
            self.extra_piles.append([self.stock.pop() for _ in range(v.pozzetto_size)])
        self.piles_taken = [0] * self.num_sides
        self.face_down: list[list[int]] = [[] for _ in range(n)]
        up = self.stock.pop()
        # Italian: more cards from the stock go under the upcard, as many as the variant says
        under = [self.stock.pop() for _ in range(min(v.start_pile_extra(up), len(self.stock)))] \
            if hasattr(v, "start_pile_extra") else []
        self.pile = [*under, up]
        self.next_meld_id = 1
        self.barred: int | None = None
        self.orbit = 0
        self.closed_by: int | None = None
        self.deals.append({"hand": self.hand_no, "dealer": self.dealer, "hands": [list(h) for h in dealt],
                           "upcards": list(self.pile), "replacements": [[] for _ in range(n)]})

    def _reset_turn(self) -> None:
        super()._reset_turn()
        self.barred = None
        self.one_card_take = False
        self.turn_melded = False

    # -------------------------------------------------------- legal actions
    def _legal_actions(self) -> list[Action]:
        if self.phase == "draw":
            start = [DRAW_ACTION] if self.stock else []
            if self.pile:
                start.append(_TAKE_ACTION)
            return start
        if self.phase != "play":
            return []
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        out: list[Action] = []
        held = [c for c in range(8, NUM_CODES) if hand[c]]
        wild_codes = [c for c in held if c == JOKER or 8 <= c <= 11]
        # one pass over the hand: the cards of each rank, and each suit's values as bits (the ace also as 1)
        of_rank = [0] * 16  # (the joker counts as rank 15)
        suit_values = [0, 0, 0, 0]
        for c in held:
            of_rank[c >> 2] += hand[c]
            if c < JOKER:
                suit_values[c & 3] |= 1 << (c >> 2) | (2 if c >> 2 == 14 else 0)
        melds: dict[int, IdMeld] = self.melds[side]
        add_meld = _MeldLister(out, set())
        self._sets_with_wilds(hand, of_rank, {m.rank for m in melds.values() if m.kind == "set"}, wild_codes, add_meld)
        self._runs_of_three(hand, suit_values, wild_codes, add_meld)
        out += self._additions_to_melds(melds, hand, held, wild_codes)
        size = self.hand_sizes[seat]
        if size <= 4:
            out = [a for a in out if self._check_meld(a, False)]
        return out + self._distinct_discards(held, size)

    def _sets_with_wilds(self, hand: list[int], of_rank: list[int], set_ranks: set[int], wild_codes: list[int],
                         add_meld: _MeldLister) -> None:
        """New sets: three naturals of a rank, or two and a wild card."""
        for r in self._set_ranks:
            if of_rank[r] < 2 or r in set_ranks:
                continue
            base = r * 4
            nats = [c for c in range(base, base + 4) for _ in range(hand[c])]
            if wild_codes:
                pairs = {(nats[i], nats[j]) for i in range(len(nats)) for j in range(i + 1, len(nats))}
                for x, y in sorted(pairs):
                    for w in wild_codes:
                        add_meld((x, y, w))
            if len(nats) >= 3:
                for i in range(len(nats)):
                    for j in range(i + 1, len(nats)):
                        for k in range(j + 1, len(nats)):
                            add_meld((nats[i], nats[j], nats[k]))

    @staticmethod
    def _runs_of_three(hand: list[int], suit_values: list[int], wild_codes: list[int], add_meld: _MeldLister) -> None:
        """New runs: three consecutive values of a suit, or two of them and a wild card."""
        for s in range(4):
            bits = suit_values[s]
            # the lowest values of three in a row of which at least two are held (1 to 12: ace low to Q-K-A)
            starts = ((bits & (bits >> 1)) | (bits & (bits >> 2)) | ((bits >> 1) & (bits >> 2))) & _RUN_STARTS
            while starts:
                lo = (starts & -starts).bit_length() - 1
                starts &= starts - 1
                present = [x for x in (lo, lo + 1, lo + 2) if bits >> x & 1]
                n = len(present)
                codes = tuple((14 if x == 1 else x) * 4 + s for x in present)
                if n == 3:
                    add_meld(codes)
                # two of the three values and a wild card for the third (also when the third is held)
                for pair in ((codes,) if n == 2 else ((codes[0], codes[1]), (codes[0], codes[2]), (codes[1], codes[2]))):
                    for w in wild_codes:
                        if w in pair and hand[w] < 2:
                            continue  # that 2 is the run's natural 2
                        add_meld((*pair, w))

    def _additions_to_melds(self, melds: dict[int, IdMeld], hand: list[int], held: list[int],
                            wild_codes: list[int]) -> list[Action]:
        """Additions: one card onto one of the side's melds."""
        out: list[Action] = []
        for mid, m in melds.items():
            target = ID_BASE + mid
            if m.kind == "set":
                base = m.rank * 4
                cands = [c for c in range(base, base + 4) if hand[c]]
                if not m.wilds:
                    cands += wild_codes
            else:
                # naturals of the suit near the ends or at the wild card's value (the arrangement decides)
                lo, hi = m.low - 2, m.low + len(m.cards) + 1
                suit = m.suit
                cands = [c for c in held if (c & 3) == suit and c != JOKER and (
                    8 <= c <= 11 or lo <= c >> 2 <= hi or (c >> 2 == 14 and lo <= 1))]
                cands += [c for c in wild_codes if c not in cands]
            out.extend(add_action(c, target) for c in cands if self._add_arrangement(m, c) is not None)
        return out

    def _distinct_discards(self, held: list[int], size: int) -> list[Action]:
        """Discards: one per distinct card (suits matter for runs); the last card and a barred one checked."""
        out: list[Action] = []
        for c in held:
            a = _DISCARDS[c]
            if size <= 1 or c == self.barred:
                if self._check_discard(a, False):
                    out.append(a)
            else:
                out.append(a)
        return out

    def _add_arrangement(self, m: IdMeld, c: int) -> tuple[str, tuple[tuple[int, ...], int, int]] | None:
        """The meld after adding card ``c`` (kind, arrangement), or None if ``c`` cannot go on it."""
        if m.kind == "set":
            if is_wild(c):
                if m.wilds >= self._max_wilds:
                    return None
            elif c >> 2 != m.rank:
                return None
            return "set", ((*m.cards, c), -1, 0)
        key = (tuple(m.cards), m.wild_index, c)
        memo = self._run_memo
        if key in memo:
            return memo[key]
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        got = memo[key] = self._run_with(m, c)
        return got

    def _run_with(self, m: IdMeld, c: int) -> tuple[str, tuple[tuple[int, ...], int, int]] | None:
        """Run ``m`` with card ``c`` added, or None (:meth:`_add_arrangement`, not memoised)."""
        got = arrange_run([*m.cards, c], self._max_wilds)
        if got is None:
            return None
        if m.wilds and is_wild(c):
            # 'you cannot replace one wild card with another wild card': the added card must play natural
            nat_twos_before = sum(1 for i, x in enumerate(m.cards) if 8 <= x <= 11 and i != m.wild_index)
            nat_twos_after = sum(1 for i, x in enumerate(got[0]) if 8 <= x <= 11 and i != got[1])
            if c == JOKER or nat_twos_after <= nat_twos_before:
                return None
        return "run", got

    # ------------------------------------------------------------- checking
    def _check(self, action: Action) -> None:
        kind = action.kind
        if self.phase == "over":
            raise IllegalActionError("game-over", "the game is over")
        if kind not in (DRAW, TAKE, MELD, ADD, DISCARD):
            raise IllegalActionError("unknown-action", f"{self.variant.title} has no '{kind}' action")
        if kind != ADD and action.target:
            raise IllegalActionError("no-target-expected", f"only add names a meld; {kind} does not")
        if self.phase == "draw":
            if kind == DRAW:
                if action.cards:
                    raise IllegalActionError("no-cards-expected", "draw names no cards")
                if not self.stock:
                    raise IllegalActionError("stock-empty", "the stock is used up")
                return
            if kind == TAKE:
                if action.cards:
                    raise IllegalActionError("take-whole-pile", self.variant.cite(
                        "take-whole-pile", "you take the entire pile and name no cards: 'there is no requirement "
                        "that you have to be able to immediately use the top card'"))
                if not self.pile:
                    raise IllegalActionError("pile-empty", "the discard pile is empty")
                return
            raise IllegalActionError("draw-first", "start your turn by drawing from the stock or taking the pile")
        if kind in (DRAW, TAKE):
            raise IllegalActionError("already-drawn", "you have already drawn this turn")
        if kind == DISCARD:
            self._check_discard(action, True)
        else:
            self._check_meld(action, True)

    def _fail_id(self, raise_error: bool, rule: str, message: str) -> bool:
        """Refuse: raise the rule's error (its message citing the variant's source), or return False."""
        if raise_error:
            raise IllegalActionError(rule, self.variant.cite(rule, message))
        return False

    def _holds(self, seat: int, cards: tuple[int, ...]) -> bool:
        """Does ``seat`` hold all of ``cards`` (valid card codes)?"""
        for c in cards:
            if not isinstance(c, int) or not 8 <= c < NUM_CODES:
                return False
        hand = self.hands[seat]
        if len(cards) == 1:  # (a discard or an addition: most actions)
            return hand[cards[0]] >= 1
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        return all(hand[c] >= k for c, k in need.items())

    def _pile_available(self, side: int) -> bool:
        return self.piles_taken[side] < self.variant.EXTRA_PILES // self.num_sides and bool(self.extra_piles)

    def _burracos(self, side: int, extra: IdMeld | None = None) -> tuple[int, int]:
        total = clean = 0
        size = self.variant.CANASTA_SIZE
        for m in self.melds[side].values():
            if extra is not None and m.id == extra.id:
                m = extra
            if m.size >= size:
                total += 1
                clean += m.wilds == 0
        if extra is not None and extra.id not in self.melds[side] and extra.size >= size:
            total += 1
            clean += extra.wilds == 0
        return total, clean

    def _meld_made_by(self, action: Action) -> tuple[IdMeld | None, str]:
        """The meld ``action`` would make (or None and why not)."""
        side = self._sides[self.turn]
        v = self.variant
        if action.kind == MELD:
            got = v.arrange_meld(action.cards)
            if isinstance(got, str):
                return None, got
            kind, (cards, wild_index, low) = got
            m = IdMeld(self.next_meld_id, kind, cards, wild_index, low)
            if kind == "set":
                if m.rank not in v.SET_RANKS:
                    return None, "there is no set of jokers or 2s"
                if any(x.kind == "set" and x.rank == m.rank for x in self.melds[side].values()):
                    return None, "each partnership can only have one set for each rank: add to it instead"
            return m, ""
        old = self.melds[side].get(action.target - ID_BASE)
        if old is None:
            return None, "your side has no meld with that id"
        if len(action.cards) != 1:
            return None, "add one card at a time"
        res = self._add_arrangement(old, action.cards[0])
        if res is None:
            c = action.cards[0]
            if is_wild(c) and old.wilds:
                return None, "each meld can only contain one wild card (and one wild card cannot replace another)"
            return None, f"{format_card(c)} cannot go on {old.describe()}"
        kind, (cards, wild_index, low) = res
        return IdMeld(old.id, kind, cards, wild_index, low), ""

    def _meld_rule(self, action: Action, why: str) -> str:
        """The rule name of a refused meld or addition."""
        if why.startswith("your side has no meld"):
            return "no-such-meld"
        if why.startswith("each partnership"):
            return "duplicate-set"
        if action.kind == ADD and why.startswith("add one card"):
            return "add-one-card"
        wild = sum(1 for c in action.cards if is_wild(c))
        nat = [c for c in action.cards if not is_wild(c)]
        if action.kind == ADD:
            old = self.melds[self._sides[self.turn]][action.target - ID_BASE]
            wild += old.wilds
            nat += [c for i, c in enumerate(old.cards) if not is_wild(c) or (old.kind == "run" and i != old.wild_index)]
        if nat and wild > self.variant.MAX_WILDS and (
                len({c >> 2 for c in nat}) == 1 or len({c & 3 for c in nat}) == 1):
            return "wild-limit"
        return "meld-invalid"

    def _check_meld(self, action: Action, raise_error: bool) -> bool:
        f = self._fail_id
        seat = self.turn
        side = self._sides[seat]
        if not action.cards:
            return f(raise_error, "no-cards", "name the cards to meld")
        if not self._holds(seat, action.cards):
            return f(raise_error, "not-in-hand", "you do not hold those cards")
        m, why = self._meld_made_by(action)
        if m is None:
            return f(raise_error, self._meld_rule(action, why), why)
        left = self.hand_sizes[seat] - len(action.cards)
        if left > 1:
            return True
        pile_next = self._pile_available(side)
        if left == 0:
            if pile_next:
                return True
            return f(raise_error, "close-with-discard",
                     "you cannot meld all your cards: 'They end their final turn with a discard'")
        # One card left: it must be a card you can then discard (to take the pozzetto or to close).
        last = next(c for c in range(NUM_CODES) if self.hands[seat][c] - action.cards.count(c) > 0)
        if last == self.barred:
            return f(raise_error, "one-card-pile",
                     "the last card would be the one you took from a one-card pile, which you cannot discard this turn")
        if pile_next:
            return True
        burracos, clean = self._burracos(side, m)
        why2 = self.variant.close_problem(piles_done=True, burracos=burracos, clean_burracos=clean, discard=last)
        if why2:
            return f(raise_error, "cannot-close", "you must keep a card you can discard: " + why2)
        return True

    def _check_discard(self, action: Action, raise_error: bool) -> bool:
        f = self._fail_id
        seat = self.turn
        side = self._sides[seat]
        if len(action.cards) != 1:
            return f(raise_error, "discard-one", "discard exactly one card")
        c = action.cards[0]
        if not self._holds(seat, action.cards):
            return f(raise_error, "not-in-hand", "you do not hold that card")
        if c == self.barred:
            return f(raise_error, "one-card-pile",
                     "'if there is only one card in the discard pile and you take it, you cannot discard this card "
                     "on the same turn'")
        if self.hand_sizes[seat] == 1 and not self._pile_available(side):
            burracos, clean = self._burracos(side)
            why = self.variant.close_problem(piles_done=self.piles_taken[side] > 0 or not self.variant.EXTRA_PILES,
                                             burracos=burracos, clean_burracos=clean, discard=c)
            if why:
                return f(raise_error, "cannot-close", why)
        return True

    # ---------------------------------------------------------- transitions
    def _do(self, action: Action) -> None:
        seat = self.turn
        side = self._sides[seat]
        kind = action.kind
        got: list[int] = []
        self.history.append((seat, action, ()))
        hand = self.hands[seat]
        if kind == DRAW:
            c = self.stock.pop()
            hand[c] += 1
            self.hand_sizes[seat] += 1
            got.append(c)
            self.phase = "play"
            self.drawn = True
        elif kind == TAKE:
            pile = self.pile
            if len(pile) == 1:
                self.one_card_take = True
                if not hand[pile[0]]:
                    self.barred = pile[0]
            for c in pile:
                hand[c] += 1
            self.hand_sizes[seat] += len(pile)
            self.known[seat].extend(pile)  # the pile was face up: everyone saw these go into the hand
            self.pile = []
            self.phase = "play"
            self.drawn = True
            self.took_pile = True
        elif kind in (MELD, ADD):
            m, _ = self._meld_made_by(action)
            assert m is not None
            if kind == MELD:
                self.next_meld_id += 1
            self.melds[side][m.id] = m
            for c in action.cards:
                hand[c] -= 1
            self.hand_sizes[seat] -= len(action.cards)
            if self.known[seat]:
                self._forget_known(seat, action.cards)
            self.turn_melded = True
            if self.barred is not None and not hand[self.barred]:
                self.barred = None  # the taken card went onto the table
            if self.hand_sizes[seat] == 0:
                # 'If they take the pozzetto in the middle of a turn ... they simply pick it up and continue'
                got.extend(self._take_extra_pile(seat))
        elif kind == DISCARD:
            c = action.cards[0]
            hand[c] -= 1
            self.hand_sizes[seat] -= 1
            if self.known[seat]:
                self._forget_known(seat, action.cards)
            self.pile.append(c)
            if self.hand_sizes[seat] == 0:
                if self._pile_available(side):
                    # '... they take the pozzetto but keep it face down in front of them until their next turn'
                    self.face_down[seat] = self._claim_extra_pile(side)
                else:
                    self.closed_by = seat
                    self._finish_hand(seat)
                    return
            self._next_turn()
        if got:
            self.history[-1] = (seat, action, tuple(got))

    def _claim_extra_pile(self, side: int) -> list[int]:
        """'the first taker's side gets the first pozzetto and the other side the second'."""
        self.piles_taken[side] += 1
        return self.extra_piles.pop(0)

    def _take_extra_pile(self, seat: int) -> list[int]:
        cards = self._claim_extra_pile(self._sides[seat])
        hand = self.hands[seat]
        for c in cards:
            hand[c] += 1
        self.hand_sizes[seat] += len(cards)
        return cards

    def _next_turn(self) -> None:
        v = self.variant
        if self.one_card_take and not self.turn_melded:
            self.orbit += 1
        else:
            self.orbit = 0
        if len(self.stock) <= v.stock_end:
            # 'After the player who drew the third-from-last card completes their turn, game play stops.'
            self._finish_hand(None)
            return
        if v.rules["stalemate"] and self.orbit >= self.num_players:
            # 'After four turns (a complete orbit) of this, the hand ends.'
            self._finish_hand(None)
            return
        self.turn = (self.turn + 1) % self.num_players
        self._reset_turn()
        seat = self.turn
        if self.face_down[seat]:
            for c in self.face_down[seat]:
                self.hands[seat][c] += 1
            self.hand_sizes[seat] += len(self.face_down[seat])
            self.face_down[seat] = []

    # ------------------------------------------------------------- scoring
    def _hand_scores(self, closed_by: int | None) -> list[Any]:
        """Each side's score for the hand if it ended now, closed by ``closed_by`` (None: nobody)."""
        v = self.variant
        results: list[Any] = []
        for side in range(self.num_sides):
            seats = [s for s in range(self.num_players) if self._sides[s] == side]
            melds = [(list(m.cards), m.wilds) for m in self.melds[side].values()]
            # 'if a player got their pozzetto but never got to look at it ... the pozzetto is treated
            # like the player's hand'
            hands = [self.hand_cards(s) + list(self.face_down[s]) for s in seats]
            missed = v.EXTRA_PILES > 0 and self.piles_taken[side] == 0
            results.append(score_meld_side(v, melds=melds, hands=hands,
                                           closed=closed_by is not None and self._sides[closed_by] == side,
                                           pile_missed=missed))
        return results

    def _finish_hand(self, closed_by: int | None) -> None:
        """Score the hand (``closed_by``: the seat that closed or went out, or None), then deal the next or end the game."""
        v = self.variant
        self.hand_over = True
        results = self._hand_scores(closed_by)
        for side, r in enumerate(results):
            self.scores[side] += r["total"]
        self.hand_results.append({"hand": self.hand_no, "went_out": closed_by, "concealed": False,
                                  "sides": results, "totals": list(self.scores),
                                  "actions_end": len(self.history)})
        won = v.game_won(self.scores)
        if won is not None:
            self.winner = won
            self.phase = "over"
            return
        if self.deals_next_hand:
            self._deal()

    # --------------------------------------------------------- observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise IllegalActionError("no-such-seat", f"there is no seat {seat}")
        obs = self._base_observation(seat)
        obs["melds"] = [[_meld_view(m, self.variant.CANASTA_SIZE) for m in self.melds[s].values()]
                        for s in range(self.num_sides)]
        obs["frozen"] = False
        obs["extra_piles"] = [len(p) for p in self.extra_piles]
        obs["piles_taken"] = list(self.piles_taken)
        obs["face_down"] = [len(p) for p in self.face_down]
        obs["barred"] = format_card(self.barred) if self.barred is not None else None
        obs["orbit"] = self.orbit
        return obs

    # --------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["melds"] = [[m.to_list() for m in side.values()] for side in self.melds]
        d["extra_piles"] = [list(p) for p in self.extra_piles]
        d["piles_taken"] = list(self.piles_taken)
        d["face_down"] = [list(p) for p in self.face_down]
        d["next_meld_id"] = self.next_meld_id
        d["barred"] = self.barred
        d["orbit"] = self.orbit
        d["one_card_take"] = self.one_card_take
        d["turn_melded"] = self.turn_melded
        d["closed_by"] = self.closed_by
        return d

    def _loaded_melds(self, saved: list[Any]) -> list[dict[int, Any]]:
        return [{m.id: m for m in (IdMeld.from_list(x) for x in side)} for side in saved]

    def _loaded_meld_problem(self, key: int, meld: Any) -> str | None:
        """A loaded meld must be of the kind its cards arrange into."""
        got = self.variant.arrange_meld(list(meld.cards))
        if isinstance(got, str):
            return got
        return None if got[0] == meld.kind else f"its cards make a {got[0]}, not a {meld.kind}"

    def _load_family_state(self, d: dict[str, Any]) -> None:
        self.extra_piles = [[int(c) for c in p] for p in d["extra_piles"]]
        self.piles_taken = [int(x) for x in d["piles_taken"]]
        self.face_down = [[int(c) for c in p] for p in d["face_down"]]
        self.next_meld_id = int(d["next_meld_id"])
        self.barred = d["barred"]
        self.orbit = int(d["orbit"])
        self.one_card_take = bool(d["one_card_take"])
        self.turn_melded = bool(d["turn_melded"])
        self.closed_by = d["closed_by"]

    def copy(self) -> MeldIdGame:
        g = cast("MeldIdGame", super().copy())
        g.extra_piles = [list(p) for p in self.extra_piles]
        g.piles_taken = list(self.piles_taken)
        g.face_down = [list(p) for p in self.face_down]
        return g

    def _extra_cards(self) -> list[int]:
        """The pozzetti still in the centre and those taken face down."""
        return [c for p in self.extra_piles for c in p] + [c for p in self.face_down for c in p]




Game.register_family(MeldIdGame)
class _MeldLister:
    """Lists each new meld once (its cards sorted: one action for each set of cards)."""

    def __init__(self, out: list[Action], seen: set[tuple[int, ...]]) -> None:
        self.out = out
        self.seen = seen

    def __call__(self, cards: tuple[int, ...]) -> None:
        key = tuple(sorted(cards))
        if key not in self.seen:
            self.seen.add(key)
            self.out.append(meld_action(key))


def _meld_view(m: IdMeld, burraco_size: int) -> dict[str, Any]:
    return {"id": m.id, "kind": m.kind,
            "rank": format_card(m.rank * 4)[:-1] if m.kind == "set" and m.rank else None,
            "suit": SUIT_NAMES[m.suit] if m.kind == "run" else None,
            "cards": [format_card(c) for c in m.cards], "wild_index": m.wild_index,
            "canasta": m.size >= burraco_size, "natural": m.wilds == 0}


__all__ = ["ID_BASE", "IdMeld", "MeldIdGame"]
