"""The set-meld state and how it changes: the deal, red threes laid out, draw, take, meld, add, discard, retract,
going out, the hand's score and the observation (Classic Canasta's family; :mod:`canasta.engine.setgame` says
what may be done, on top of this).
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from canasta.cards import (
    JOKER,
    NUM_CODES,
    THREE,
    format_card,
    format_rank,
    is_black_three,
    is_red_three,
    sort_key,
)
from canasta.engine.actions import (
    ADD,
    ASK,
    DISCARD,
    DRAW,
    END,
    KEEP,
    MELD,
    NO,
    RETRACT,
    SPECIAL,
    TAKE,
    YES,
    Action,
)
from canasta.engine.game import (
    P_ANSWER,
    P_OVER,
    P_PLAY,
    Game,
    _is_wild,
)
from canasta.engine.setmeld import WILD_RANK, Meld
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


@mypyc_attr(allow_interpreted_subclasses=True)
class SetMeldPlay(Game):
    """The set-meld state changes, its queries and its view (the steps every move of the family ends in)."""

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
        #: the variant's ``wild_capacity`` by its arguments (a pure function of them, asked for every meld at
        #: every decision with a wild card in hand): computed once per game, shared with its copies
        self._wild_room_memo: dict[tuple[int, int, bool], int] = {}

    def _wild_room(self, naturals: int, wilds: int, is_canasta: bool) -> int:
        """How many more wild cards a meld of these counts may take: the variant's ``wild_capacity``, memoised."""
        key = (naturals, wilds, is_canasta)
        memo = self._wild_room_memo
        if key in memo:
            return memo[key]
        room = int(self.variant.wild_capacity(naturals, wilds, is_canasta))
        memo[key] = room
        return room

    def _deal(self) -> None:
        v = self.variant
        n = self.num_players
        dealt = self._deal_hands(self._shuffled_deck())
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

    def _pending_met(self, side: int) -> bool:
        return self.opened[side] or not self.turn_created or self.pending_value >= self.minimum(side)

    def _check_keep(self, action: Action) -> None:
        """A pile kept as the foot: only Hand and Foot's hand-passing deal (:class:`FootGame`) has one."""
        raise IllegalActionError("keep-timing", "a pile is kept as the foot only in the hand-passing deal, "
                                 "before the first turn (Encyclopedia, table rule hand_passing)")

    def _check_special(self, action: Action) -> None:
        """A special hand (Modern American's: the whole hand laid down at once); refused where there is none."""
        raise IllegalActionError("no-special-hands", f"{self.variant_name} has no special hands")

    def _concealed_now(self, seat: int, created: set[int], added_existing: bool, side: int) -> bool:
        """Bicycle 'Concealed Hand': no prior meld, no additions to partner's melds, a canasta made."""
        if self.variant.rules["concealed_rule"] == "side":
            if any(r not in created for r in self.melds[side]):
                return False
        elif self.melded_before[seat] or added_existing:
            return False
        return any(self.melds[side][r].size >= 7 for r in created if r in self.melds[side])

    def _cards_joining_hand(self, cards: list[int], n: int | None = None) -> int:
        """How many of the first ``n`` cards of a taken pile go into the hand (red threes are
        laid out; Cuban black threes leave play)."""
        if self._threes_ordinary:
            return len(cards[:n])
        black_out = self.variant.REMOVES_BLACK_THREES_ON_TAKE
        return sum(1 for c in cards[:n] if not ((is_red_three(c) and self._laid_out[c])
                                                or (black_out and is_black_three(c))))

    def _knocks(self) -> bool:
        """Whether the turn ends with a knock, not a discard (Triple Play, after a pile take); never here."""
        return False

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
        for r in list(self.turn_created):
            m = self.melds[side].pop(r, None)
            if m is None:  # it closed into a book (Hand and Foot), returned by FootGame._do_retract
                continue
            for c in m.cards:
                hand[c] += 1
            self.hand_sizes[seat] += m.size
            self.known[seat].extend(m.cards)  # everyone saw them on the table
        self._undo_turn_opening(seat)

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
        if self.deals_next_hand:
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

    def _loaded_melds(self, saved: list[Any]) -> list[dict[int, Any]]:
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
