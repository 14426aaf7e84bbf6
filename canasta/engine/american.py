"""Modern American Canasta: set melds with the extended rules of :mod:`canasta.engine.setrules`.

:class:`AmericanGame` keeps Classic's state and turn and overrides the steps where Modern American differs,
each sending its decision to the rule functions of :mod:`canasta.engine.setrules` (this module imports that
one, never the reverse: the rules name the game by the part they use, ``setrules.SetRulesGame``).
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import canasta.engine.american_table as american_table
import canasta.engine.setrules as setrules
from canasta.cards import THREE, format_rank
from canasta.engine.actions import MELD, Action
from canasta.engine.game import P_DRAW, P_PLAY, Game
from canasta.engine.setmeld import wild_mixes
from canasta.errors import IllegalActionError, SchemaError


class AmericanGame(american_table.SetRulesGame):
    """Classic's turn with Modern American's melds, opening, discards, threes and bonus cards."""

    PLAYS: ClassVar[frozenset[str]] = frozenset({"EXTENDED_SET_RULES"})

    LAID_OUT_THREES: ClassVar[tuple[int, ...]] = (12, 13, 14, 15)

    # ------------------------------------------------------------------ deal and turn
    def _deal_family_state(self) -> None:
        n = self.num_players
        self.bonus = [[] for _ in range(n)]
        self.asked_hand = [False] * n

    def _lay_out_red_threes(self, seat: int, got: list[int]) -> bool:
        """Lay out the threes of both colours from ``seat``'s hand and replace them; False if that ended the hand."""
        return american_table.lay_out_threes(self, seat, got)

    def _turn_begins(self) -> None:
        american_table.start_turn(self)

    # ------------------------------------------------------------------ legal actions
    def _melds_after_retract(self, action: Action) -> bool:
        # a kept three may still be laid out after a retract
        return self.retracted and action.kind == MELD and not american_table.is_three_layout(action)

    def _draw_actions(self) -> list[Action]:
        out = super()._draw_actions()
        # a kept three may be laid out before drawing ('you lay down your three before drawing from the
        # stock'); table rule special_from_pile
        out.extend(american_table.three_layout_actions(self))
        if len(self.pile) == 1:
            out.extend(american_table.special_actions(self))
        return out

    def _play_actions(self) -> list[Action]:
        direct = setrules.play_actions(self)
        if direct is not None:
            return direct
        return super()._play_actions()

    def _two_wild_starts(self, hand: list[int]) -> list[tuple[int, ...]]:
        # the initial meld: 'mixed melds of two cards and up to two wild cards' (Terms), a start of its own
        # (a second wild card cannot be added to a meld begun with one)
        return wild_mixes(hand, 2)

    def _checked_plays(self, out: list[Action]) -> list[Action]:
        return out  # filter_play (in _finish_play_actions) makes these checks itself

    def _finish_play_actions(self, out: list[Action], pending_ok: bool) -> list[Action]:
        out.extend(setrules.extra_play_actions(self))
        return setrules.filter_play(self, out, pending_ok)

    def _pending_met(self, side: int) -> bool:
        return american_table.pending_met(self, side)

    def _may_ask(self) -> bool:
        return setrules.may_ask(self)

    # ------------------------------------------------------------------ checks
    def _check_before_drawing(self, action: Action) -> bool:
        if not american_table.is_three_layout(action):
            return False
        american_table.check_three_layout(self, action, raise_error=True)
        return True

    def _check_special(self, action: Action) -> None:
        if self.phase not in (P_DRAW, P_PLAY):
            raise IllegalActionError("special-timing", "a special hand is laid down in your own turn")
        why = american_table.special_problem(self, action)
        if why is not None:
            raise IllegalActionError(*why)

    def _check_take(self, action: Action, raise_error: bool) -> bool:
        return setrules.check_take(self, action, raise_error)

    def _check_meld_like(self, action: Action, raise_error: bool) -> bool:
        if self._melds_after_retract(action):
            return self._retracted_problem(raise_error)
        return setrules.check_meld_like(self, action, raise_error)

    def _check_discard(self, action: Action, raise_error: bool) -> bool:
        return setrules.check_discard(self, action, raise_error)

    # ------------------------------------------------------------------ transitions
    def _do_ask(self) -> None:
        super()._do_ask()
        self.asked_hand[self.turn] = True

    def _do_special(self, action: Action) -> None:
        american_table.do_special(self, action)

    def _check_opened(self, side: int) -> None:
        american_table.check_opened(self, side)

    def _do_meld(self, action: Action) -> None:
        first = next((c for c in action.cards if not american_table.is_wild(c)), None)
        if first is not None and first >> 2 == THREE:  # lay out the three kept in hand
            american_table.lay_out_kept_three(self, action)
            return
        super()._do_meld(action)

    def _do_discard(self, action: Action) -> None:
        setrules.do_discard(self, action)

    def _go_out(self, seat: int) -> None:
        self._end_hand(seat)  # Modern American has no concealed going out

    def _end_hand(self, went_out: int | None, concealed: bool = False, special: str | None = None) -> None:
        american_table.bonus_to_hands(self)  # bonus cards still face down count as cards left in hand
        super()._end_hand(went_out, concealed, special)

    # ------------------------------------------------------------------ observation
    def observation(self, seat: int | None) -> dict[str, Any]:
        obs = super().observation(seat)
        # bonus cards lie face down: only how many each seat holds
        obs["bonus_cards"] = [len(b) for b in self.bonus]
        obs["turn_card_drawn"] = american_table.turn_card_drawn(self)
        obs["dead_ranks"] = [format_rank(r) for r in american_table.dead_ranks(self)]
        # who asked 'may I go out?' in this hand (everyone at the table hears it)
        obs["asked_hand"] = list(self.asked_hand)
        return obs

    # ------------------------------------------------------------------ persistence
    def copy(self) -> AmericanGame:
        return cast(AmericanGame, super().copy())

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["bonus"] = [list(b) for b in self.bonus]
        d["opened_turn"] = self.opened_turn
        d["asked_hand"] = list(self.asked_hand)
        return d

    def _load_family_state(self, d: dict[str, Any]) -> None:
        n = self.num_players
        self.bonus = [list(b) for b in d.get("bonus") or [[] for _ in range(n)]]
        self.asked_hand = [bool(x) for x in d.get("asked_hand") or [False] * n]
        self.opened_turn = bool(d.get("opened_turn", False))
        if len(self.bonus) != n:
            raise SchemaError(f"bonus must have one entry per seat ({n}), not {len(self.bonus)}")

    def _extra_cards(self) -> list[int]:
        """The bonus cards held face down."""
        return [c for b in self.bonus for c in b]


Game.register_family(AmericanGame)
