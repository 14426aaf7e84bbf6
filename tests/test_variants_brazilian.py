"""Brazilian Canasta (encyclopedia-canasta-and-variants.txt, section "Brazilian Canasta"), a Bolivian subclass.

'Similar to Bolivia, but only to 10,000. The minimum meld requirements are 150 from 5,000 to 7,000; a canasta from
7,000 to 8,000; 200 from 8,000 to 9,000; and a natural canasta from 9,000 up. Wild card canastas count 2,000.
Partnerships receive 1,000 for five red threes and 1,200 for all six. If a side has a sequence of five cards or
less, it loses 1,000.' Everything else is Bolivian's (tests/test_variants_bolivian.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta import Game
from canasta.errors import IllegalActionError
from canasta.notation import parse_action
from canasta.variants import find_variant
from tests.test_variants_samba import act, cards, illegal, spos

SEVEN_SET = "Kh Kd Ks Kh Kd Ks Kc"
SEVEN_RUN = "5s 6s 7s 8s 9s 10s Js"


def v() -> Any:
    return find_variant("brazilian")(4)


def test_only_to_ten_thousand():
    """'Similar to Bolivia, but only to 10,000.'"""
    assert v().target_score == 10000 and v().game_won([10000, 0]) == 0


@pytest.mark.parametrize(("score", "points", "canasta"), [
    (4999, 120, None), (5000, 150, None), (6999, 150, None), (7000, 0, "any"), (7999, 0, "any"),
    (8000, 200, None), (8999, 200, None), (9000, 0, "natural"), (9900, 0, "natural")])
def test_minimum_meld_requirements(score: int, points: int, canasta: str | None):
    """'The minimum meld requirements are 150 from 5,000 to 7,000; a canasta from 7,000 to 8,000; 200 from 8,000
    to 9,000; and a natural canasta from 9,000 up.' (Below 5,000: Samba's table.)"""
    assert v().minimum(score) == points and v().initial_canasta(score) == canasta


def test_initial_meld_must_include_a_canasta():
    """'a canasta from 7,000 to 8,000': the initial meld is made only once a seven-card meld is among the melds
    of the turn."""
    g = spos(hands={0: "Kh Kd Ks Kh Kd Ks 2c 4c 5d"}, phase="play", opened=(False, False), scores=(7500, 0),
             variant="brazilian")
    act(g, "meld Kh Kd Ks")
    for c in ("Kh", "Kd", "Ks"):
        act(g, f"add #1 {c}")
    illegal(g, "discard 4c", "minimum-count")
    act(g, "add #1 2c")
    assert g.opened[0]
    act(g, "discard 4c")


def test_initial_meld_must_include_a_natural_canasta_from_9000():
    """'and a natural canasta from 9,000 up': a mixed canasta does not make the initial meld."""
    g = spos(hands={0: "Kh Kd Ks Kh Kd Ks 2c 4c 5d"}, phase="play", opened=(False, False), scores=(9000, 0),
             variant="brazilian")
    act(g, "meld Kh Kd Ks")
    for c in ("Kh", "Kd", "Ks", "2c"):
        act(g, f"add #1 {c}")
    assert not g.opened[0]
    illegal(g, "discard 4c", "minimum-count")


def test_the_refusal_names_the_canasta_the_initial_meld_lacks():
    """'a canasta from 7,000 to 8,000; ... and a natural canasta from 9,000 up': the refusal names the missing
    canasta, not a count of points against a minimum of 0."""
    for score, lacking in ((7500, "must include a canasta"), (9000, "must include a natural canasta")):
        g = spos(hands={0: "Kh Kd Ks Kh Kd Ks 2c 4c 5d"}, phase="play", opened=(False, False), scores=(score, 0),
                 variant="brazilian")
        act(g, "meld Kh Kd Ks")
        with pytest.raises(IllegalActionError) as refused:
            g.apply(parse_action("discard 4c"))
        assert lacking in str(refused.value) and "of the 0 needed" not in str(refused.value)


def test_wild_card_canastas_count_2000():
    """'Wild card canastas count 2,000.'"""
    got = v().score_team(melds=[("set", cards("2c JK JK 2h 2d 2s JK"), 7), ("run", cards(SEVEN_RUN), 0)],
                         red_threes=0, all_red_threes=False, hands=[], went_out=False)
    assert got["items"]["bolivias"] == 2000


@pytest.mark.parametrize(("count", "points"), [(4, 400), (5, 1000), (6, 1200)])
def test_five_and_six_red_threes(count: int, points: int):
    """'Partnerships receive 1,000 for five red threes and 1,200 for all six.'"""
    two = [("set", cards(SEVEN_SET), 0), ("run", cards(SEVEN_RUN), 0)]
    got = v().score_team(melds=two, red_threes=count, all_red_threes=count == 6, hands=[], went_out=False)
    assert got["items"]["red_threes"] == points


def test_short_sequence_loses_1000():
    """'If a side has a sequence of five cards or less, it loses 1,000.' (Once per side: a documented default.)"""
    two = [("set", cards(SEVEN_SET), 0), ("run", cards(SEVEN_RUN), 0)]
    short = [*two, ("run", cards("4h 5h 6h 7h 8h"), 0), ("run", cards("9d 10d Jd"), 0)]
    assert v().score_team(melds=two, red_threes=0, all_red_threes=False, hands=[], went_out=False)["items"][
        "short_sequence"] == 0
    six = [*two, ("run", cards("4h 5h 6h 7h 8h 9h"), 0)]
    assert v().score_team(melds=six, red_threes=0, all_red_threes=False, hands=[], went_out=False)["items"][
        "short_sequence"] == 0
    assert v().score_team(melds=short, red_threes=0, all_red_threes=False, hands=[], went_out=False)["items"][
        "short_sequence"] == -1000


def test_random_playouts_at_the_canasta_minimums():
    for score in (0, 7500, 9500):
        g = Game("brazilian", 4, 4)
        g.scores = [score, score]
        g._deal()
        rng = random.Random(score)
        total = g.card_count()
        n = g.hand_no
        while not g.is_over and g.hand_no == n:
            g.apply(rng.choice(g.legal_actions()))
            assert g.card_count() == total
