"""Scoring of one side's hand, driven by the variant's tables.

The engine and the scorekeeper (``canasta score``) both call :func:`score_side`,
so a hand is scored by exactly one piece of code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

# defined with the variants, whose scoring hooks return it; re-exported here, where it always was
from canasta.variants.base import SideScore as SideScore

if TYPE_CHECKING:
    from canasta.variants.classic import Classic

HandScore = dict[str, Any]


def score_side(v: Classic, *, melds: list[tuple[int, list[int]]], red_threes: list[int],
               hands: list[list[int]], went_out: bool, concealed: bool, all_red_threes: bool,
               penalties: list[tuple[str, int]] | None = None, removed_black_threes: int = 0) -> SideScore:
    """Score one side (a partnership, or one player playing alone).

    Bicycle 'Scoring the Deal': melded cards minus cards in hand, plus bonuses for
    going out (100, concealed an extra 100), red threes (100 each, 200 each when one
    side holds all four; negative for a side that has not melded) and canastas
    (natural 500, mixed 300). Variants change the pieces through the hooks
    ``canasta_kind``, ``red_three_score`` and ``removed_black_threes_bonus``.
    """
    own = v.score_table(melds, red_threes, hands, went_out) if v.SCORES_TABLE else v.score_hand(melds, hands, went_out)
    if own is not None:
        for name, points in penalties or []:
            own["items"][name] = own["items"].get(name, 0) + points
        if penalties:
            own["total"] = sum(own["items"].values())
            if "chapeau" in own:
                own["chapeau"] = own["total"] < 0
        return own
    values = v.values
    items: dict[str, int] = {}
    melded = sum(values[c] for _, cards in melds for c in cards)
    in_hand = sum(values[c] for hand in hands for c in hand)
    bonus = {"natural": 0, "mixed": 0, "wild": 0}
    canastas = 0
    for _, cards in melds:
        if len(cards) >= v.CANASTA_SIZE:
            kind, points = v.canasta_kind(cards)
            bonus[kind] += points
            canastas += 1
    items["melded_cards"] = melded
    items["cards_in_hand"] = -in_hand
    items["natural_canastas"] = bonus["natural"]
    items["mixed_canastas"] = bonus["mixed"]
    if v.WILD_CANASTA is not None:
        items["wild_canastas"] = bonus["wild"]
    items["red_threes"] = v.red_three_score(len(red_threes), all_held=all_red_threes,
                                            canastas=canastas, melded=bool(melds))
    if v.REMOVES_BLACK_THREES_ON_TAKE:
        items["black_threes_removed"] = v.removed_black_threes_bonus(removed_black_threes)
    items["going_out"] = v.rules["going_out_bonus"] if went_out else 0
    items["concealed"] = v.rules["concealed_bonus"] if went_out and concealed else 0
    if v.rules["seven_canastas_win"] and canastas >= 7:
        items["seven_canastas"] = 5000
    for name, points in penalties or []:
        items[name] = items.get(name, 0) + points
    return {"total": sum(items.values()), "items": items}


def settlement_lines(s: dict[str, Any], label: Callable[[int], str]) -> list[str]:
    """Mille's end of game in words: skunk, naturals and chapeaux, and the payment if playing for money."""
    loser, winner = label(s["loser"]), label(s["winner"])
    skunk = {None: "no skunk", "skunk": "a skunk (the loser scored under 600): payment doubled",
             "double_skunk": "a double skunk (the loser is negative): payment tripled"}[s["skunk"]]
    lines = [f"Winner's naturals: {s['winner_naturals']}; loser's chapeaux: {s['loser_chapeaux']}; "
             f"scores rounded {s['rounded_scores'][0]} and {s['rounded_scores'][1]}: "
             f"{s['hundreds']} hundred(s) apart; {skunk}."]
    if s["payment"] is None:
        lines.append("Not played for money (set stakes_small / stakes_large to settle stakes).")
    else:
        small, large = s["stakes"]
        it = s["items"]
        lines.append(f"Stakes {small}-{large}: losing {it['losing']} + naturals {it['winner_naturals']} + "
                     f"chapeaux {it['loser_chapeaux']} + difference {it['difference']}"
                     + (f", x{s['multiplier']}" if s["multiplier"] > 1 else "")
                     + f" = {s['payment']}: {loser} {'pay' if loser == 'you' else 'pays'} {winner} {s['payment']}.")
    return lines


def score_meld_side(v: Any, *, melds: list[tuple[list[int], int]], hands: list[list[int]], closed: bool,
                    pile_missed: bool) -> SideScore:
    """Score one side in a variant with meld ids (Burraco, Denexa 'Scoring').

    'each partnership totals the values of the cards in their melds, then subtracts the
    values of the cards left in their hands'; burracos (melds of ``CANASTA_SIZE`` or more)
    score ``burraco_kind``'s bonus, clean (no card playing wild) or dirty; closing scores
    the ``closing_bonus``; a side that did not pick up its pozzetto loses ``pozzetto_penalty``.
    ``melds`` are (cards, number of cards playing wild).
    """
    values = v.values
    items: dict[str, int] = {}
    items["melded_cards"] = sum(values[c] for cards, _ in melds for c in cards)
    items["cards_in_hand"] = -sum(values[c] for hand in hands for c in hand)
    clean = dirty = 0
    for cards, wilds in melds:
        if len(cards) >= v.CANASTA_SIZE:
            kind, points = v.burraco_kind(wilds)
            if kind == "clean":
                clean += points
            else:
                dirty += points
    items["clean_burracos"] = clean
    items["dirty_burracos"] = dirty
    items["closing"] = v.rules["closing_bonus"] if closed else 0
    items["pozzetto_not_taken"] = -v.rules["pozzetto_penalty"] if pile_missed else 0
    return {"total": sum(items.values()), "items": items}
