"""A foot per player, books that close at seven, the pile taken seven at a time: the rules
of Hand and Foot, as :class:`FootGame`, the rule family of the variants that set ``FEET``
(``Game(variant, ...)`` builds it). It overrides the steps of Classic's turn where these rules
differ; the turn structure stays: draw or take, melds and additions keyed by rank, the opening
minimum with its pending melds, ask, discard.

- **Feet.** Each seat is dealt a face-down foot (``FootGame.feet[seat]``) after its hand.
  A player who plays out the hand by melding picks the foot up at once and goes on; one
  who discards the last card picks it up at the start of their next turn
  (``FootGame.in_foot[seat]`` then becomes true). Red threes in a foot are laid out and
  replaced when it is picked up. Observations show only the feet's sizes.
- **Books.** A meld that reaches ``MELD_MAX`` cards closes: it moves to
  ``FootGame.books[side]`` as ``(rank, cards)`` and a new meld of that rank may begin.
  Books closed while the side is still below its opening minimum go back to the hand
  with a retract.
- **The pile** is taken by melding its top card with two cards from the hand (a wild
  top card needs two more of its kind); the top ``pile_take`` cards are taken (table rule
  ``pile_pickup``: seven, the whole pile, the whole pile in the foot only, or never).
- **Going out** needs the variant's books (``book_kind``), the player in the foot, every
  teammate in the foot (``partner_in_foot``: the partner, or both partners in teams of
  three, ``Variant.teammates_of``) and, by ``permission``, a yes to "may I go out?".
- Minimums go by the hand's number (``round_minimum``); the game ends after
  ``hands_per_game`` hands.
- **The hand-passing deal** (table rule ``hand_passing``): after the deal nobody holds cards;
  each seat's two piles (``FootGame.passing``) show their top cards, and in the phase ``pass``
  each seat in turn from the dealer's left keeps one as its foot (``keep 1``/``keep 2``,
  hidden from the other seats until all have chosen). Then each passed pile becomes the
  hand of the seat on the left and red threes are laid out as at a deal. A foot's turned-up
  card stays public (``foot_shown``); a passed hand's goes to the receiver's ``known`` cards.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, cast

from canasta.cards import JOKER, NUM_CODES, format_card, format_rank, is_red_three, sort_key
from canasta.engine.actions import KEEP, TAKE, Action
from canasta.engine.game import P_PASS, Game
from canasta.engine.setgame import SetMeldGame
from canasta.engine.setmeld import max_meld_value
from canasta.errors import IllegalActionError, InconsistentPositionError
from canasta.variants.hand_and_foot import HandAndFoot

_TWO_CODES = (8, 9, 10, 11)
_WILD_CODES = frozenset((JOKER, *_TWO_CODES))
WILD_RANK = 1
_KEEP_ACTIONS = [Action(KEEP, (), 1), Action(KEEP, (), 2)]


def _is_wild(code: int) -> bool:
    return code == JOKER or 8 <= code <= 11


class _TakenMeld(NamedTuple):
    """The side's meld of the top card's rank as a pile take leaves it."""

    rank: int
    wilds: int
    size: int


class FootGame(SetMeldGame):
    """Hand and Foot and Triple Play: a foot (and knee) per seat, books closing at seven (see the module text)."""

    PLAYS: ClassVar[frozenset[str]] = frozenset({"FEET"})

    #: the hand-passing deal's phase besides Game's
    PHASES: ClassVar[frozenset[str]] = Game.PHASES | {P_PASS}
    variant: HandAndFoot
    #: per seat its face-down foot (empty once picked up), and whether it plays from it
    feet: list[list[int]]
    in_foot: list[bool]
    #: per side its closed piles of seven, (rank, cards)
    books: list[list[tuple[int, list[int]]]]
    #: Triple Play: a knee per seat (empty in Hand and Foot), picked up before the foot
    knees: list[list[int]]
    in_knee: list[bool]
    #: per side: its first pile is made, so each partner picks up the knee
    knee_side: list[bool]
    #: hand-passing deal (option hand_passing): per seat its two dealt piles during the phase 'pass' (top card
    #: last, as dealt face down), the pile kept as foot (0: not chosen yet), and its foot's turned-up top card
    passing: list[list[list[int]]]
    kept: list[int]
    foot_shown: list[int | None]

    def minimum(self, side: int) -> int:
        """'First round: 50 points ... Fourth round: 150 points' (the variant's ``round_minimum``): by the round,
        not the score."""
        return int(self.variant.round_minimum(self.hand_no)) + self.minimum_extra[side]

    # ----------------------------------------------------------------- deal
    def _deal_after_hands(self, dealt: list[list[int]]) -> None:
        """Knees and feet after the hands (``dealt``: each seat's hand in the order dealt)."""
        v = self.variant
        n = self.num_players
        # Triple Play: 'deal out a thirteen-card knee pile for each player, and an eleven-card foot pile'
        self.knees = [[self.stock.pop() for _ in range(v.knee_size)] for _ in range(n)]
        self.in_knee = [False] * n
        self.knee_side = [False] * self.num_sides
        self.feet = [[self.stock.pop() for _ in range(v.foot_size)] for _ in range(n)]
        self.in_foot = [False] * n
        self.books = [[] for _ in range(self.num_sides)]
        if v.hand_choice == "lowest_bottom":
            # Encyclopedia: 'The hand with the lowest bottom card is played first.' The bottom card of a pile
            # dealt face down is its first card; ranks go 2 (lowest) ... K, A, joker; a tie keeps the deal.
            for seat in range(n):
                hand, foot = dealt[seat], self.feet[seat]
                if hand and foot and foot[0] >> 2 < hand[0] >> 2:
                    counts = self.hands[seat]
                    for c in hand:
                        counts[c] -= 1
                    for c in foot:
                        counts[c] += 1
                    self.feet[seat] = list(hand)
                    dealt[seat] = list(foot)
                    self.hand_sizes[seat] = len(foot)
        self._start_pass(dealt)

    def _bury_upcard(self, code: int) -> bool:
        """Hand and Foot: 'discard it face-down into one of the stocks and draw another card' (Triple Play: 'bury
        it face-down in the middle of the stock')."""
        v = self.variant
        if not v.upcard_must_be_covered(code):
            return False
        self.stock.insert(len(self.stock) // 2 if v.UPCARD_BURIED_MIDDLE else 0, code)
        return True

    def _after_deal(self) -> bool:
        self._self_deal()
        if any(self.passing):
            self.phase = P_PASS  # the hand-passing deal: red threes are laid out after the passing
            return True
        return False

    # ------------------------------------------------------------ hand-passing deal
    def _start_pass(self, dealt: list[list[int]]) -> None:
        """Encyclopedia (option hand_passing): 'After the deal (but before looking at the cards), each player turns
        up the top card of each hand.' Both piles of each seat are set aside (pile 1: the hand as dealt, pile 2:
        the foot); nobody holds a card until the passing, so the deal's record of hands stays empty until then."""
        n = self.num_players
        self.kept = [0] * n
        self.foot_shown = [None] * n
        if not self.variant.hand_passing:
            self.passing = [[] for _ in range(n)]
            return
        self.passing = [[list(dealt[s]), self.feet[s]] for s in range(n)]
        self.feet = [[] for _ in range(n)]
        self.hands = [[0] * NUM_CODES for _ in range(n)]
        self.hand_sizes = [0] * n
        for d in dealt:
            d.clear()

    def _legal_actions(self) -> list[Action]:
        if self.phase == P_PASS:
            return list(_KEEP_ACTIONS)
        return super()._legal_actions()

    def _check_keep(self, action: Action) -> None:
        if self.phase != P_PASS:
            super()._check_keep(action)
        if action.kind != KEEP:
            raise IllegalActionError("pass-pending", "the hand-passing deal comes first: 'He then selects one hand "
                                     "to keep as his \"foot\", and passes the other to the player on his left' "
                                     "(Encyclopedia): keep 1 or keep 2")
        if action.cards or action.target not in (1, 2):
            raise IllegalActionError("keep-pile", "keep names one of your two dealt piles: 'keep 1' or 'keep 2'")

    def _do_keep(self, action: Action) -> None:
        """'He then selects one hand to keep as his "foot"': each seat in turn from the dealer's left; the
        passing happens once every seat has chosen (the choices are simultaneous at the table)."""
        self.kept[self.turn] = action.target
        nxt = (self.turn + 1) % self.num_players
        if not self.kept[nxt]:
            self.turn = nxt
            return
        self._pass_hands()

    def _pass_hands(self) -> None:
        """'... and passes the other to the player on his left. Each player then picks up the hand passed to him
        and plays it as the "hand".' Left is the next seat in turn order. Red threes are then laid out and
        replaced as at a deal (the replacements go in the deal's record)."""
        n = self.num_players
        hands_dealt: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            keep = self.kept[s]
            foot, passed = self.passing[s][keep - 1], self.passing[s][2 - keep]
            to = (s + 1) % n
            self.feet[s] = foot
            self.foot_shown[s] = foot[-1] if foot else None
            hand = self.hands[to]
            for c in passed:
                hand[c] += 1
            self.hand_sizes[to] = len(passed)
            hands_dealt[to] = list(passed)
            if passed and not (is_red_three(passed[-1]) and self.variant.red_threes_laid_out):
                # everyone saw it turned up; a red three is laid out (unless the table keeps them in hand)
                self.known[to].append(passed[-1])
        self.passing = [[] for _ in range(n)]
        replacements: list[list[int]] = [[] for _ in range(n)]
        if self.deals and self.deals[-1]["hand"] == self.hand_no:
            # a new dict: copies of the game share the deal records
            self.deals[-1] = {**self.deals[-1], "hands": hands_dealt, "replacements": replacements,
                              "kept": list(self.kept)}
        self.turn = (self.dealer + 1) % n
        self._reset_turn()
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            if not self._lay_out_red_threes(seat, replacements[seat]):
                return

    def _self_deal(self) -> None:
        """Denexa's self-deal (option self_deal): 'Each player takes a small portion of one of the stocks and
        deals two piles of eleven cards ... If a player managed to pull exactly 22 cards from the stock, they
        immediately score a 100-point bonus. Otherwise, any excess cards are returned to the stock.'

        The deal's chance (seeded by the game's seed and the hand's number) decides each stack: hand_size +
        foot_size + e cards, e in -2..2 with weights 1, 2, 3, 2, 1 (an exact pull one time in three). The
        cards each player ends with are those of the exact deal (an excess goes back on the stock, a shortfall
        is drawn from it), so only the record (``pulls`` in the deal) and the bonus change."""
        v = self.variant
        if not v.self_deal:
            return
        n = self.num_players
        rng = self.chance(f"{self.hand_no}/self-deal")
        need = v.hand_size + v.foot_size
        pulls = [0] * n
        for i in range(n):
            seat = (self.dealer + 1 + i) % n  # 'Each player in turn, starting with the one to the dealer's left'
            pulls[seat] = need + rng.weighted((-2, -1, 0, 1, 2), (1, 2, 3, 2, 1))
            if pulls[seat] == need:
                self.penalties[self._sides[seat]].append(("exact_deal", int(v.exact_deal_bonus)))
        self.deals[-1]["pulls"] = pulls

    def _threes_held(self, counts: list[int]) -> int:
        """Threes in a hand, which never meld: black ones, and red ones where the table keeps them in hand
        (red_threes_laid_out false; Encyclopedia: 'The same is true of red threes')."""
        held = counts[12] + counts[15]
        return held if self.variant.red_threes_laid_out else held + counts[13] + counts[14]

    def _lay_out_red_threes(self, seat: int, got: list[int]) -> bool:
        if self._laid_out[13] and self.variant.knee_size > 0 and self.in_knee[seat]:
            # Triple Play: 'Beginning when a player picks up their knee pile, they no longer draw a card to
            # replace red 3s.'
            hand = self.hands[seat]
            side = self._sides[seat]
            for c in (13, 14):
                k = hand[c]
                hand[c] = 0
                self.hand_sizes[seat] -= k
                self.red_threes[side].extend([c] * k)
            return True
        return super()._lay_out_red_threes(seat, got)

    def _ready_for_foot(self, seat: int) -> bool:
        """The foot comes after the knee (Triple Play), or straight after the hand."""
        return self.variant.knee_size == 0 or self.in_knee[seat]

    def _pick_up_knee(self, seat: int) -> None:
        """Triple Play: 'they pick up their knee pile and add it to their hand. They then continue their turn'."""
        knee = self.knees[seat]
        self.knees[seat] = []
        self.in_knee[seat] = True
        hand = self.hands[seat]
        for c in knee:
            hand[c] += 1
        self.hand_sizes[seat] += len(knee)
        self._lay_out_red_threes(seat, [])  # laid out, not replaced, from the knee on

    def _after_draw(self, seat: int) -> None:
        """Triple Play: 'On their partner's next turn, after drawing, they also pick up their knee pile.'"""
        if self.variant.knee_size and self.knee_side[self._sides[seat]] and not self.in_knee[seat]:
            self._pick_up_knee(seat)

    def _knocks(self) -> bool:
        """Triple Play: 'If a player began their turn by picking up the discard pile instead, they do not
        discard. Instead, they knock on the table to signify when they are done melding.'"""
        return bool(self.variant.NO_DISCARD_AFTER_TAKE) and self.took_pile

    def _finish_play_actions(self, out: list[Action], pending_ok: bool) -> list[Action]:
        """No wild cards in 5s and 7s (Triple Play), 'end' for a knock or a float, a red three kept in hand
        as a discard."""
        v = self.variant
        hand = self.hands[self.turn]
        if v.NO_WILD_RANKS and (hand[JOKER] or hand[8] or hand[9] or hand[10] or hand[11]):  # (else nothing to refuse)
            no_wild = v.NO_WILD_RANKS
            out = [a for a in out if (a.kind != "meld" and a.kind != "add") or _WILD_CODES.isdisjoint(a.cards)
                   or (a.target if a.kind == "add" else _rank_of_meld(a.cards)) not in no_wild]
        if self._knocks() and not self.no_discard:
            out = [a for a in out if a.kind != "discard"]
            if pending_ok:
                out.append(Action("end"))
        elif (self._floats() or self._stranded()) and pending_ok:
            out.append(Action("end"))
        if not v.red_threes_laid_out:
            # red threes kept in hand (Encyclopedia) are 'useful only as discards'; only the colour of a three
            # matters, so one red three stands for both
            code = 13 if hand[13] else 14 if hand[14] else None
            if code is not None and self._check_discard(Action("discard", (code,)), raise_error=False):
                out.append(Action("discard", (code,)))
        return out

    def _floats(self) -> bool:
        """Encyclopedia (option floating): 'A player currently in their foot may choose to pass, or "float",
        rather than discard at the end of their turn'."""
        return bool(self.variant.floating) and self.in_foot[self.turn] and not self.no_discard \
            and self.phase == "play"

    def _stranded(self) -> bool:
        """A player in the play phase with at most one card, who may not discard it because that would be going
        out and the side may not go out. Triple Play's red threes make it happen: 'Beginning when a player picks
        up their knee pile, they no longer draw a card to replace red 3s', so a player down to one card who
        draws two red threes still holds one. The texts do not say what then; the turn ends without a discard
        (as after Triple Play's knock), the card staying in hand, rather than the game having no move."""
        seat = self.turn
        if self.phase != "play" or self.no_discard or self.hand_sizes[seat] > 1:
            return False
        hand = self.hands[seat]
        return not any(hand[c] and self._check_discard(Action("discard", (c,)), raise_error=False)
                       for c in range(NUM_CODES))

    def _check_end(self) -> None:
        if (self._knocks() and not self.no_discard) or self._floats() or self._stranded():
            if not self._pending_met(self._sides[self.turn]):
                raise IllegalActionError("minimum-count", "your initial meld is below the minimum: meld more or retract")
            return
        super()._check_end()

    def _do_end(self, seat: int) -> None:
        if self.phase == "play" and self._knocks() and not self.no_discard:
            self._next_turn()  # Triple Play: the turn after a pile take ends without a discard
        elif self._floats() or self._stranded():
            if self.permission is True:  # Denexa: 'Not being able to go out after having asked'
                side = self._sides[seat]
                self.penalties[side].append(("failed_go_out", -self.variant.rules["failed_go_out_penalty"]))
            self._next_turn()  # Encyclopedia: the player 'floats' rather than discarding; or stranded
        else:
            super()._do_end(seat)

    def _pick_up_foot(self, seat: int) -> None:
        """'When a player has exhausted their hand, they may then pick up their foot pile and play with it.'"""
        foot = self.feet[seat]
        self.feet[seat] = []
        self.in_foot[seat] = True
        hand = self.hands[seat]
        for c in foot:
            hand[c] += 1
        self.hand_sizes[seat] += len(foot)
        shown, self.foot_shown[seat] = self.foot_shown[seat], None
        hand_no = self.hand_no
        # 'any red 3s encountered throughout the game are laid down and new cards drawn to replace them'
        self._lay_out_red_threes(seat, [])
        if shown is not None and self.hand_no == hand_no and hand[shown] > self.known[seat].count(shown):
            self.known[seat].append(shown)  # the foot's turned-up card (hand_passing): everyone saw it go in

    def _begin_turn(self) -> None:
        """'If the player gets rid of their final card through discarding, they pick up the foot at the
        beginning of their next turn.'"""
        seat = self.turn
        if self.hand_sizes[seat] == 0 and not self.in_foot[seat] and self._ready_for_foot(seat):
            self._pick_up_foot(seat)

    # ----------------------------------------------------------------- books
    def _close_books(self, side: int) -> None:
        """'A meld of seven cards is called a pile ... once a pile has been completed, a new meld of the
        same rank can be established.'"""
        melds = self.melds[side]
        v = self.variant
        meld_max = self._meld_max
        full = [r for r, m in melds.items() if len(m.cards) >= meld_max and v.closes(r, m.wilds)]
        for r in full:
            m = melds.pop(r)
            self.books[side].append((r, list(m.cards)))

    def _after_hand_change(self, seat: int) -> None:
        side = self._sides[seat]
        self._close_books(side)
        if self.variant.knee_size and self.books[side] and self.opened[side] and not self.knee_side[side]:
            # Triple Play: 'When a player finishes their partnership's first canasta, they pick up their knee'
            self.knee_side[side] = True
            if not self.in_knee[seat]:
                self._pick_up_knee(seat)
        if self.hand_sizes[seat] == 0 and self.pile_aside is None:
            if self.in_foot[seat]:
                self._go_out(seat)
            elif not self._ready_for_foot(seat):
                pass  # Triple Play: no knee yet (only a pile take, which needs no discard, can get here)
            else:
                # 'If the player manages to run out of cards before discarding (i.e. through melding),
                # they may simply pick up their foot at that time and continue their turn.'
                self._pick_up_foot(seat)

    def _empty_hand_goes_out(self, seat: int) -> bool:
        return self.in_foot[seat]  # a hand played out by a discard: the foot is picked up next turn

    def _grows_past_max(self, naturals: int, wilds: int) -> bool:
        """May a meld pass seven cards? Encyclopedia (option black_unlimited): 'a black canasta can grow to
        unlimited size as long as the number of natural cards exceeds the number of wild cards'."""
        return bool(self.variant.black_unlimited) and wilds > 0 and naturals > wilds

    def _do_retract(self) -> None:
        self._retract_books(self.turn)
        super()._do_retract()

    def _retract_cards(self, side: int) -> list[int]:
        return super()._retract_cards(side) + [c for _, cards in self.books[side] for c in cards]

    def _retract_books(self, seat: int) -> None:
        """An opening below the minimum taken back: books closed this turn go back to the hand too."""
        side = self._sides[seat]
        hand = self.hands[seat]
        for _, cards in self.books[side]:
            for c in cards:
                hand[c] += 1
            self.hand_sizes[seat] += len(cards)
            self.known[seat].extend(cards)
        self.books[side] = []

    def _side_books(self, side: int, skip_open: int | None = None) -> list[tuple[int, int]]:
        """(rank, wild cards) of each closed pile of the side (rank 1: the pile of wild cards), and of each
        black canasta still open (option black_unlimited: seven cards or more, not closed), but for the
        rank ``skip_open``."""
        out = [(r, 0 if r == WILD_RANK else sum(1 for c in cards if _is_wild(c))) for r, cards in self.books[side]]
        if self.variant.black_unlimited:
            out += [(r, m.wilds) for r, m in self.melds[side].items()
                    if m.size >= self.variant.MELD_MAX and r != skip_open]
        return out

    # ------------------------------------------------------------- going out
    def _may_ask(self) -> bool:
        v = self.variant
        seat = self.turn
        if self.asked or self._partners[seat] is None or v.permission == "none" or self.no_discard:
            return False
        # Encyclopedia (option ask_in_hand): the question is not tied to the foot
        return self.in_foot[seat] or v.ask_in_hand

    def _can_finish(self, side: int, counts: tuple[int, int], took_pile: bool,
                    concealed_possible: bool, book: tuple[int, int] | None = None, left: int = 0) -> str | None:
        return self._finish_problem(side, book, left)  # books, not canastas; no concealed going out

    def _finish_problem(self, side: int, book: tuple[int, int] | None, left: int = 0,
                        black_threes: int | None = None) -> str | None:
        """Why the player may not empty the hand now (None: they may). ``book`` is (rank, wild cards)
        of a meld the action completes; ``left`` the cards it leaves (1: the last would be discarded,
        -1: the last card discarded)."""
        v = self.variant
        seat = self.turn
        if black_threes is None:  # black threes never meld: any in hand stay in it
            black_threes = self._threes_held(self.hands[seat])
        if not self._pending_met(side):
            return "your initial meld has not reached the minimum count"
        if not self.in_foot[seat]:
            # Triple Play: 'When a player finishes their partnership's first canasta, they pick up their knee
            # pile ... They then continue their turn as usual': completing it with the last cards is no going out
            knee_next = book is not None and not self.knee_side[side]
            if left == 0 and not self._ready_for_foot(seat) and not self.took_pile and not knee_next:
                return ("you pick up your knee only with your side's first canasta: keep a card to discard "
                        "(Denexa 'Triple Play')")
            return None  # playing out the hand (or knee): the knee or foot comes next
        if left == 1 and self._knocks():
            return None  # Triple Play: no discard after a pile take, so one card may stay in hand
        if left == 1 and v.floating:
            return None  # Encyclopedia 'float': the last card may stay in hand, the turn ending without a discard
        if self.permission is False:
            return "partner said no to 'may I go out?': you may not go out this turn"
        partner = self._partners[seat]
        if partner is not None:
            # Teams of three (team_size 3): every teammate, not only the partner asked (Encyclopedia: 'A team
            # may not go out until each member has played one card from the second hand')
            mates = self._mates[seat]
            if v.partner_in_foot and not all(self.in_foot[m] for m in mates):
                if len(mates) == 1:
                    return ("both partners must have played at least part of one turn with their foot piles "
                            "to go out (Denexa 'Going out')")
                waiting = " and ".join(f"seat {m}" for m in mates if not self.in_foot[m])
                return (f"all {len(mates) + 1} partners must have played at least part of one turn with their "
                        f"foot piles to go out ({waiting} not yet; Denexa 'Going out', Encyclopedia 'each member')")
            if v.permission == "required" and self.permission is not True:
                return "ask your partner 'May I go out?' first: going out needs permission (Denexa 'Going out')"
        books = self._side_books(side, skip_open=book[0] if book is not None else None)
        if book is not None:
            books.append((book[0], 0 if book[0] == WILD_RANK else book[1]))
        why: str | None = v.books_problem(books)
        if why:
            return f"{why}, so you must keep a card"
        if left in (1, -1) and not v.black_three_out and black_threes:
            return ("you may not go out with a black three in your hand (Encyclopedia): the card left to discard "
                    "would be one")
        return None

    def _go_out(self, seat: int) -> None:
        self._charge_partner_in_hand(seat)
        super()._go_out(seat)

    def _charge_partner_in_hand(self, seat: int) -> None:
        """Encyclopedia (option partner_in_hand_penalty, with partner_in_foot false): going out 'even if your
        partner is still in their hand (though points in their foot still count against you, possibly with an
        additional 100 point penalty)'. With teams of three the penalty is paid once for each teammate
        still in the hand (one item, ``partner_in_hand``)."""
        points = int(self.variant.partner_in_hand_penalty)
        if not points or self._partners[seat] is None:
            return
        in_hand = sum(1 for m in self._mates[seat] if not self.in_foot[m])
        if in_hand:
            self.penalties[self._sides[seat]].append(("partner_in_hand", -points * in_hand))

    # ------------------------------------------------------------------ pile
    def _take_actions(self) -> list[Action]:
        if self.pile_barred or not self.pile:
            return []
        hand = self.hands[self.turn]
        top = self.pile[-1]
        out: list[Action] = []
        if self.variant.pile_pickup == "foot_whole" and (WILD_RANK if _is_wild(top) else top >> 2) in \
                self.melds[self._sides[self.turn]]:
            out.append(Action(TAKE))  # the top card onto the side's meld of its rank
        if top == JOKER:
            if hand[JOKER] >= 2:
                out.append(Action(TAKE, (JOKER, JOKER)))
        elif 8 <= top <= 11:
            twos = [c for c in _TWO_CODES for _ in range(hand[c])]
            if len(twos) >= 2:
                out.append(Action(TAKE, (twos[0], twos[1])))
        elif not self.variant.blocks_pile(top):
            base = (top >> 2) * 4
            nats = [c for c in range(base, base + 4) for _ in range(hand[c])]
            if len(nats) >= 2:
                out.append(Action(TAKE, (nats[0], nats[1])))
            if nats:
                if hand[JOKER]:
                    out.append(Action(TAKE, (nats[0], JOKER)))
                two = next((c for c in _TWO_CODES if hand[c]), None)
                if two is not None:
                    out.append(Action(TAKE, (nats[0], two)))
        return [a for a in out if self._check_take(a, raise_error=False)]

    def _check_take(self, action: Action, raise_error: bool) -> bool:
        refusal = self._pickup_refusal(action)
        if refusal is None:
            taken = self._taken_meld(action)
            refusal = self._take_count_refusal(action, taken) if isinstance(taken, _TakenMeld) else taken
        if refusal is not None:
            return self._fail(raise_error, *refusal)
        return True

    def _takes_onto_meld(self, action: Action) -> bool:
        """Encyclopedia (pile_pickup foot_whole): 'If a player is currently in their foot, and is able to play the
        top discard': playing it onto the side's meld of its rank (a wild card onto the pile of wild cards)."""
        return not action.cards and self.variant.pile_pickup == "foot_whole"

    def _pickup_refusal(self, action: Action) -> tuple[str, str] | None:
        """Why the table's pickup rule, the pile or the cards shown refuse this take (rule, message), or None."""
        v = self.variant
        seat = self.turn
        if v.pile_pickup == "none":
            return "no-pickup", "no discards may be picked up (Encyclopedia, table rule pile_pickup)"
        if v.pile_pickup == "foot_whole" and not self.in_foot[seat]:
            return "pickup-foot-only", ("only a player currently in their foot may pick up the discard pile "
                                        "(Encyclopedia, table rule pile_pickup)")
        if self.pile_barred:
            return "pile-barred", "you retracted a pile take this turn: draw from the stock"
        if not self.pile:
            return "pile-empty", "the discard pile is empty"
        top = self.pile[-1]
        if v.blocks_pile(top):
            if is_red_three(top):
                return "pile-blocked", ("red threes are kept in hand and never melded (table rule "
                                        "red_threes_laid_out; Encyclopedia: 'The same is true of red threes'), so a "
                                        "red 3 on top blocks the discard pile as a black 3 does")
            return "pile-blocked", ("black 3s cannot be melded, so a player may never draw from the discard pile if "
                                    "the upcard is a black 3 (Denexa)")
        cards = action.cards
        onto_meld = self._takes_onto_meld(action)
        if len(cards) != 2 and not onto_meld:
            if v.pile_pickup == "foot_whole":
                return "take-cards", ("to pick up the pile you must be 'able to play the top discard' (Encyclopedia): "
                                      "meld it with two cards from your hand ('take' and two cards) or add it to "
                                      "your side's meld of its rank ('take' alone)")
            return "take-cards", "to draw from the discards you must meld the top card with two cards from your hand (Denexa)"
        if not self._has_cards(self.hands[seat], cards):
            return "not-in-hand", "you do not hold those cards"
        if v.pile_pickup == "natural_pair" and (_is_wild(top) or any(_is_wild(c) for c in cards)):
            return "take-natural-pair", ("discards are picked up only with a natural pair of the top card's rank "
                                         "(Encyclopedia: 'Some variants allow picking up discards with a natural pair, "
                                         "but a player may take at most seven cards from the discard pile'; table "
                                         "rule pile_pickup)")
        if _is_wild(top) and not v.wild_canastas:
            return "take-wild", ("a wild card on top could only start a pile of wild cards, and this table plays "
                                 "without them (table rule wild_canastas; Encyclopedia: 'Some variants allow a "
                                 "wildcard canasta')")
        if onto_meld and (WILD_RANK if _is_wild(top) else top >> 2) not in self.melds[self._sides[seat]]:
            return "take-needs-meld", ("to pick up the pile with 'take' alone your side needs a meld the top card "
                                       "can be added to (Encyclopedia: 'able to play the top discard')")
        return None

    def _taken_meld(self, action: Action) -> _TakenMeld | tuple[str, str]:
        """The side's meld of the top card's rank as the take leaves it, or why it cannot (rule, message)."""
        v = self.variant
        top = self.pile[-1]
        cards = action.cards
        side = self._sides[self.turn]
        if _is_wild(top):
            same = all(c == JOKER for c in cards) if top == JOKER else all(8 <= c <= 11 for c in cards)
            if not same:
                return "take-wild", ("with a wild card on top you need two other cards of the same rank: two jokers "
                                     "for a joker, two 2s for a 2 (Denexa)")
            meld = self.melds[side].get(WILD_RANK)
            size = (meld.size if meld is not None else 0) + 1 + len(cards)
            if size > v.WILD_MELD_MAX:
                return "meld-size", "a pile cannot contain more than seven cards (Denexa)"
            return _TakenMeld(WILD_RANK, 0, size)
        rank = top >> 2
        nats = [c for c in cards if not _is_wild(c)]
        if any(c >> 2 != rank for c in nats):
            return "take-rank", (f"the cards shown must meld with the top card ({format_rank(rank)}s and at most one "
                                 f"wild card; {v.rule_source('take')})")
        if not nats and not self._takes_onto_meld(action):
            return "take-naturals", f"a meld must contain at least two natural cards ({v.rule_source('meld-naturals')})"
        meld = self.melds[side].get(rank)
        naturals = (meld.naturals if meld is not None else 0) + 1 + len(nats)
        wilds = (meld.wilds if meld is not None else 0) + len(cards) - len(nats)
        size = naturals + wilds
        if size > v.MELD_MAX and not self._grows_past_max(naturals, wilds):
            return "meld-size", ("a pile cannot contain more than seven cards (Denexa): the top card and your two "
                                 "cards do not fit on your meld of that rank")
        if not v.wilds_ok(naturals, wilds) or (wilds and rank in v.NO_WILD_RANKS):
            return "wild-limit", ("no more than one wild card in a meld of three, four, or five cards and no more "
                                  "than two in a meld of six or seven (Denexa); none in 5s and 7s (Triple Play)")
        return _TakenMeld(rank, wilds, size)

    def _take_count_refusal(self, action: Action, taken: _TakenMeld) -> tuple[str, str] | None:
        """Why the take fails the side's first meld's minimum, or leaves a foot player out who may not go out."""
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        top = self.pile[-1]
        cards = action.cards
        rest = min(v.pile_take - 1, len(self.pile) - 1)
        after = self.hand_sizes[seat] - len(cards) + rest
        if not self.opened[side]:
            value = v.values[top] + sum(v.values[c] for c in cards)
            left = list(hand)
            for c in cards:
                left[c] -= 1
            if value + max_meld_value(v, left, exclude_rank=taken.rank) < self.minimum(side):
                return "minimum-count", (f"your side's first meld needs {self.minimum(side)} points; the top card and "
                                         f"your hand cannot make it ({v.rule_source('minimum-count')})")
            if value < self.minimum(side):
                after = self.hand_sizes[seat] - len(cards)  # the rest stays aside until the minimum is met
        if self.in_foot[seat] and (after == 0 or (after == 1 and not v.NO_DISCARD_AFTER_TAKE)):
            b3 = self._threes_held(hand) + sum(1 for c in self.pile[len(self.pile) - 1 - rest:-1] if v.blocks_pile(c))
            why = self._finish_problem(side, (taken.rank, taken.wilds) if taken.size >= v.MELD_MAX else None, after, b3)
            if why:
                return "cannot-go-out", why
        return None

    def _do_take(self, action: Action) -> None:
        v = self.variant
        seat = self.turn
        side = self._sides[seat]
        hand = self.hands[seat]
        top = self.pile.pop()
        rank = WILD_RANK if _is_wild(top) else top >> 2
        self.take_snapshot = {"cards": action.cards, "top": top, "frozen": self.frozen,
                              "pile": list(self.pile), "red_threes": len(self.red_threes[side])}
        for c in action.cards:
            hand[c] -= 1
        self.hand_sizes[seat] -= len(action.cards)
        if self.known[seat]:
            self._forget_known(seat, action.cards)
        meld = self.melds[side].get(rank)
        if meld is None:
            meld = self._new_meld(rank)
            self.melds[side][rank] = meld
            self.turn_created.add(rank)
        elif rank not in self.turn_created:
            self.turn_added_existing = True
        meld.put(top)
        for c in sorted(action.cards, key=_is_wild):
            meld.put(c)
        self.phase = "play"
        self.drawn = True
        self.took_pile = True
        k = min(v.pile_take - 1, len(self.pile))
        rest = self.pile[len(self.pile) - k:]
        self.pile = self.pile[:len(self.pile) - k]
        self.frozen = False
        if not self.opened[side]:
            self.pending_value += v.values[top] + sum(v.values[c] for c in action.cards)
            self.pile_aside = rest
            self._check_opened(side)
        else:
            self._take_rest(seat, rest)
        self._after_hand_change(seat)
        if self.phase == "play":
            self._after_draw(seat)

    # ------------------------------------------------------------ scoring
    def _scored_melds_and_hands(self, side: int, seats: list[int]) -> tuple[list[tuple[int, list[int]]], list[list[int]]]:
        """Books are melds; an unplayed knee or foot counts as cards in hand."""
        melds, hands = super()._scored_melds_and_hands(side, seats)
        melds += [(r, list(cards)) for r, cards in self.books[side]]
        return melds, [h + self.knees[s] + self.feet[s] for h, s in zip(hands, seats, strict=True)]

    def _record_deal_in_result(self, deal: dict[str, Any]) -> None:
        if "pulls" in deal and deal["hand"] == self.hand_no:
            self.hand_results[-1]["pulls"] = list(deal["pulls"])  # the self-deal

    # ------------------------------------------------------------ observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        obs = super().observation(seat)
        v = self.variant
        obs["frozen"] = False
        obs["foot_sizes"] = [len(f) for f in self.feet]
        obs["in_foot"] = list(self.in_foot)
        obs["books"] = [[{"rank": "wild" if r == WILD_RANK else format_rank(r),
                          "cards": [format_card(c) for c in sorted(cards, key=sort_key)],
                          "kind": v.book_kind(r, sum(1 for c in cards if _is_wild(c)) if r != WILD_RANK else 0)}
                         for r, cards in b] for b in self.books]
        obs["books_needed"] = {"clean": v.clean_books, "dirty": v.dirty_books, "wild": v.wild_books}
        obs["books_ready"] = [v.books_problem(self._side_books(s)) is None for s in range(self.num_sides)]
        if v.knee_size:
            obs["knee_sizes"] = [len(k) for k in self.knees]
            obs["in_knee"] = list(self.in_knee)
        if v.hand_passing:
            revealed = self.phase != P_PASS
            # the turned-up top cards of the two piles of each seat (during the phase 'pass' only)
            obs["pass_shown"] = [[format_card(p[-1]) for p in piles] for piles in self.passing]
            # the pile each seat kept as its foot: its own at once, the others' once all have chosen
            obs["kept"] = [k if k and (revealed or s == seat) else None for s, k in enumerate(self.kept)]
            # per seat, the turned-up top card of its unplayed foot
            obs["foot_shown"] = [None if c is None else format_card(c) for c in self.foot_shown]
        return obs

    # ------------------------------------------------------------ persistence
    def copy(self) -> FootGame:
        g = cast(FootGame, super().copy())
        g.knees = [list(k) for k in self.knees]
        g.in_knee = list(self.in_knee)
        g.knee_side = list(self.knee_side)
        g.feet = [list(f) for f in self.feet]
        g.in_foot = list(self.in_foot)
        g.books = [[(r, list(c)) for r, c in b] for b in self.books]
        g.passing = [[list(p) for p in ps] for ps in self.passing]
        g.kept = list(self.kept)
        g.foot_shown = list(self.foot_shown)
        return g

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["feet"] = [list(f) for f in self.feet]
        d["in_foot"] = list(self.in_foot)
        d["books"] = [[[r, list(c)] for r, c in b] for b in self.books]
        if self.variant.knee_size:
            d["knees"] = [list(k) for k in self.knees]
            d["in_knee"] = list(self.in_knee)
            d["knee_side"] = list(self.knee_side)
        if self.variant.hand_passing:
            d["passing"] = [[list(p) for p in ps] for ps in self.passing]
            d["kept"] = list(self.kept)
            d["foot_shown"] = list(self.foot_shown)
        return d

    def _validate_family_piles(self) -> None:
        """A seat playing from its foot (knee) has picked that pile up: it holds no card."""
        for seat in range(self.num_players):
            if self.in_foot[seat] and self.feet[seat]:
                raise InconsistentPositionError("feet", f"seat {seat} plays from its foot, yet its foot pile still "
                                                        "holds cards")
            if self.variant.knee_size and self.in_knee[seat] and self.knees[seat]:
                raise InconsistentPositionError("knees", f"seat {seat} has picked up its knee, yet its knee pile "
                                                         "still holds cards")

    def _load_family_state(self, d: dict[str, Any]) -> None:
        self.feet = [[int(c) for c in f] for f in d["feet"]]
        self.in_foot = [bool(x) for x in d["in_foot"]]
        self.books = [[(int(r), [int(c) for c in cards]) for r, cards in b] for b in d["books"]]
        n = self.num_players
        self.knees = [[int(c) for c in k] for k in d.get("knees") or [[] for _ in range(n)]]
        self.in_knee = [bool(x) for x in d.get("in_knee") or [False] * n]
        self.knee_side = [bool(x) for x in d.get("knee_side") or [False] * self.num_sides]
        self.passing = [[[int(c) for c in p] for p in ps] for ps in d.get("passing") or [[] for _ in range(n)]]
        self.kept = [int(k) for k in d.get("kept") or [0] * n]
        self.foot_shown = [None if c is None else int(c) for c in d.get("foot_shown") or [None] * n]
        if len(self.passing) != n or len(self.kept) != n or len(self.foot_shown) != n:
            raise ValueError("passing, kept and foot_shown need one entry per seat")
        if any(len(ps) not in (0, 2) for ps in self.passing) or any(k not in (0, 1, 2) for k in self.kept):
            raise ValueError("passing holds two piles per seat (or none), kept is 0, 1 or 2")
        if any(self.passing) and not self.variant.hand_passing:
            raise ValueError("dealt piles set aside need the table rule hand_passing")
        if (self.phase == P_PASS) != any(self.passing):
            raise ValueError("the dealt piles are set aside exactly during the phase 'pass'")
        for f, c in zip(self.feet, self.foot_shown, strict=True):
            if c is not None and c not in f:
                raise ValueError("foot_shown names a card that the foot does not hold")
        if len(self.knees) != n or len(self.in_knee) != n or len(self.knee_side) != self.num_sides:
            raise ValueError("knees and in_knee need one entry per seat, knee_side one per side")
        if len(self.feet) != self.num_players or len(self.in_foot) != self.num_players:
            raise ValueError("feet and in_foot need one entry per seat")
        if len(self.books) != self.num_sides:
            raise ValueError("books need one entry per side")

    def _extra_cards(self) -> list[int]:
        """The feet, knees, books and the piles of the hand-passing deal."""
        return ([c for f in self.feet for c in f] + [c for k in self.knees for c in k]
                + [c for b in self.books for _, cards in b for c in cards]
                + [c for ps in self.passing for p in ps for c in p])




Game.register_family(FootGame)
def _rank_of_meld(cards: tuple[int, ...]) -> int:
    nat = [c for c in cards if not _is_wild(c)]
    return nat[0] >> 2 if nat else WILD_RANK
