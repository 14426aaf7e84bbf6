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


def test_six_players_in_two_partnerships_of_three() -> None:
    """Encyclopedia 'The cards and deal': 'Variations exist for two and three player games wherein each plays
    alone, and also for a six player game in two partnerships of three.' Seats alternate (0, 2, 4 against
    1, 3, 5); the three of a side share its melds; "may I go out?" goes to the next teammate, whose answer binds
    (Bicycle: 'ask permission of partner'). Issue 17, defect 12: six players were refused."""
    from canasta import Game

    g = Game("classic", 6, 0)
    assert g.num_sides == 2 and [g.variant.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert all(sum(h) == 11 for h in g.hands) and g.card_count() == 108
    assert [g.variant.partner_of(s) for s in range(6)] == [2, 3, 4, 5, 0, 1]
    assert g.variant.teammates_of(0) == (2, 4)
    melds = {0: ["Ks Kh Kd Kc Ks Kh Kd", "9c 9d 9h"]}
    g = position(6, hands={0: "9s 5c", 2: "4c 4d", 4: "6c 6d"}, melds=melds, phase="draw", stock="9d")
    act(g, "ask")
    assert g.phase == "answer" and g.actor == 2
    act(g, "no")
    assert g.actor == 0
    act(g, "draw")
    assert_illegal(g, "add 9 9s 9d", "cannot-go-out")  # the answer binds: no going down to the last card
    g = position(6, hands={0: "9s 5c", 2: "4c 4d", 4: "6c 6d"}, melds=melds, phase="play")
    act(g, "add 9 9s", "discard 5c")
    assert last_result(g)["went_out"] == 0
    # the side's cards in hand: both teammates' hands count against it
    assert last_result(g)["sides"][0]["items"]["cards_in_hand"] == -(5 + 5 + 5 + 5)
