"""Scoring of one side's hand, driven by the variant's tables.

The engine and the scorekeeper (``canasta score``) both call :func:`score_side`,
so a hand is scored by exactly one piece of code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from canasta.variants.classic import Classic

HandScore = dict[str, Any]


class SideScore(TypedDict):
    total: int
    items: dict[str, int]


def score_side(v: Classic, *, melds: list[tuple[int, list[int]]], red_threes: list[int],
               hands: list[list[int]], went_out: bool, concealed: bool, all_red_threes: bool,
               penalties: list[tuple[str, int]] | None = None) -> SideScore:
    """Score one side (a partnership, or one player playing alone).

    Bicycle 'Scoring the Deal': melded cards minus cards in hand, plus bonuses for
    going out (100, concealed an extra 100), red threes (100 each, 200 each when one
    side holds all four; negative for a side that has not melded) and canastas
    (natural 500, mixed 300).
    """
    values = v.values
    items: dict[str, int] = {}
    melded = sum(values[c] for _, cards in melds for c in cards)
    in_hand = sum(values[c] for hand in hands for c in hand)
    natural = mixed = 0
    for _, cards in melds:
        if len(cards) >= v.CANASTA_SIZE:
            wild = sum(1 for c in cards if c == 60 or 8 <= c <= 11)
            if wild and wild < len(cards):
                mixed += 1
            else:
                natural += 1
    items["melded_cards"] = melded
    items["cards_in_hand"] = -in_hand
    items["natural_canastas"] = natural * v.NATURAL_CANASTA
    items["mixed_canastas"] = mixed * v.MIXED_CANASTA
    each = v.ALL_RED_THREES_BONUS if all_red_threes else v.RED_THREE_BONUS
    red = each * len(red_threes)
    # Encyclopedia: red threes of a side that has not melded count against it.
    items["red_threes"] = red if melds else -red
    items["going_out"] = v.rules["going_out_bonus"] if went_out else 0
    items["concealed"] = v.rules["concealed_bonus"] if went_out and concealed else 0
    if v.rules["seven_canastas_win"] and natural + mixed >= 7:
        items["seven_canastas"] = 5000
    for name, points in penalties or []:
        items[name] = items.get(name, 0) + points
    return {"total": sum(items.values()), "items": items}
