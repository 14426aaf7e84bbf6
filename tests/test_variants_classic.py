"""Classic Canasta: rules of issue 17 (an audit against shared/rules), each test quoting its sentence.

Positions are built with :func:`tests.helpers.position` through ``Game.from_dict`` and played through the
public API (``check``, ``apply``, ``legal_actions``).
"""

from __future__ import annotations

from tests.helpers import act, assert_illegal, last_result, legal_texts, position


def test_one_card_pile_refused_while_the_pile_can_be_turned_over() -> None:
    """Bicycle: 'When the discard pile is reduced to one card and the next player in turn has only one card,
    the player may not take the discard and go out unless forced.' With ``stock_reshuffle`` an empty stock is
    no force while the pile can still be turned over as a new stock (``draw`` is legal) (issue 17, defect 4)."""
    melds = {0: ["9c 9d 9h", "Ks Kh Kd Kc Ks Kh Kd"]}
    g = position(hands={0: "5c", 1: "4c"}, pile="9s", melds=melds, rest=1, rules={"stock_reshuffle": True})
    assert g.stock == [] and "draw" in legal_texts(g)
    assert_illegal(g, "take", "one-card-pile")
    assert "take" not in legal_texts(g)
    # the pile already turned over once this hand (the limit): nothing to draw, so the take is forced
    g = position(hands={0: "5c", 1: "4c"}, pile="9s", melds=melds, rest=1, rules={"stock_reshuffle": True},
                 reshuffles=1)
    assert "draw" not in legal_texts(g) and "take" in legal_texts(g)
    act(g, "take", "discard 5c")
    assert last_result(g)["went_out"] == 0
