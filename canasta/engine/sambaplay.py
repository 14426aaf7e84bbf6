"""The Samba family's state and its changes (Classic's turn on melds with ids): :class:`SambaPlay`.

The moves and the checks are :class:`~canasta.engine.idturn.SambaGame`'s, which subclasses it (the set
family splits the same way: :mod:`canasta.engine.setplay` below :mod:`canasta.engine.setgame`). Here: the
deal and the red threes laid out, the side's counts (seven-card melds, the initial meld), the variant's
answers memoised per variant and table rules, the meld an action makes, the transitions, scoring and the view.
"""

from __future__ import annotations

import json
from typing import Any

from canasta.cards import NUM_CODES, format_card, is_red_three
from canasta.engine.actions import (
    ADD,
    ASK,
    DISCARD,
    DRAW,
    END,
    MELD,
    MERGE,
    NO,
    RETRACT,
    TAKE,
    YES,
    Action,
)
from canasta.engine.idmeld import IdMeld
from canasta.engine.idmelds import MEMO_LIMIT, MeldIdGame
from canasta.notation import ID_BASE, merge_ids
from canasta.runs import is_wild


class _ArrangementMemos:
    """The memos of one variant with one set of table rules (``SambaPlay._set_card_tables``)."""

    def __init__(self) -> None:
        self.melds: dict[tuple[int, ...], Any] = {}
        self.additions: dict[tuple[str, tuple[int, ...], int, int], Any] = {}
        self.going_out: dict[tuple[int, int], str | None] = {}


#: by (variant class, its table rules as JSON): answers of pure functions, so sharing them changes no result
#: (each memo is cleared when it passes MEMO_LIMIT answers; a variant subclass, a house rule, has its own)
_SHARED_MEMOS: dict[tuple[type, str], _ArrangementMemos] = {}


def cannot_take(m: IdMeld, natural: int) -> bool:
    """A natural card joins only a set of its rank or an escalera of its suit: a quick test before the variant's."""
    return m.rank != natural >> 2 if m.kind == "set" else m.suit != natural & 3


def sevens_after_growth(sevens: tuple[int, int], m: IdMeld, new_size: int, size: int) -> tuple[int, int]:
    """``sevens`` after meld ``m`` grows to ``new_size`` cards."""
    if len(m.cards) < size <= new_size:
        return sevens[0] + 1, sevens[1] + (m.kind == "run")
    return sevens



class SambaPlay(MeldIdGame):
    """The Samba family's state and its changes: the deal and red threes, the side's counts and the variant's
    memoised answers, the melds an action makes, the transitions, scoring and the view (the steps
    :class:`~canasta.engine.idturn.SambaGame`'s moves and checks end in)."""


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


__all__ = ["SambaPlay"]
