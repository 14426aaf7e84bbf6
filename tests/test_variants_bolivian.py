"""Bolivian Canasta (encyclopedia-canasta-and-variants.txt, section "Bolivian Canasta"), a Samba subclass.

'Bolivian Canasta is similar to Samba, as it uses three decks and sequence melds. Play is to 15,000. Wild card
canastas (bolivias) count 2,500. A side must have a samba (called escalera in this game) and at least one other
canasta to go out. Red threes only count positive if two or more canastas have been melded. Black threes are
negative 100 instead of negative 5 when left in hand.' Everything else is Samba's (tests/test_variants_samba.py).
"""

from __future__ import annotations

import random
from typing import Any

from canasta import Game
from canasta.encoding import action_mask, encode_observation, obs_size
from canasta.scorekeeper import score_input
from canasta.variants import find_variant
from tests.test_variants_samba import act, cards, illegal, legal_texts, meld_texts, spos

SEVEN_SET = "Kh Kd Ks Kh Kd Ks Kc"
SEVEN_RUN = "5s 6s 7s 8s 9s 10s Js"


def test_play_is_to_fifteen_thousand():
    """'Play is to 15,000.'"""
    v: Any = find_variant("bolivian")(4)
    assert v.target_score == 15000 and v.game_won([14999, 0]) is None and v.game_won([15000, 0]) == 0
    assert len(v.deck()) == 162  # 'it uses three decks'


def test_bolivias_meld_of_wild_cards():
    """'Wild card canastas (bolivias) count 2,500': a meld of wild cards only, grown to seven."""
    g = spos(hands={0: "JK JK 2c 2h 2d 2s JK 9c 9d"}, phase="play", variant="bolivian")
    assert {"meld 2s 2h 2d", "meld 2s 2h JK", "meld 2s JK JK", "meld JK JK JK"} <= legal_texts(g)
    act(g, "meld 2c JK JK")
    assert {"add #1 2s", "add #1 JK"} <= legal_texts(g)  # one 2 stands for all: suits of wild cards never matter
    for c in ("2h", "2d", "2s", "JK"):
        act(g, f"add #1 {c}")
    assert meld_texts(g, 0) == ["2c JK JK 2h 2d 2s JK"]
    illegal(g, "add #1 9c", "canasta-closed")
    v: Any = g.variant
    got = v.score_team(melds=[("set", cards("2c JK JK 2h 2d 2s JK"), 7), ("run", cards(SEVEN_RUN), 0)],
                       red_threes=0, all_red_threes=False, hands=[], went_out=False)
    assert got["items"]["bolivias"] == 2500


def test_samba_has_no_bolivias():
    """Samba: 'Wild cards can only be used in sets' (with natural cards): no meld of wild cards."""
    g = spos(hands={0: "JK JK 2c 9c 9d"}, phase="play")
    illegal(g, "meld 2c JK JK", "meld-invalid")


def test_escalera_and_another_canasta_to_go_out():
    """'A side must have a samba (called escalera in this game) and at least one other canasta to go out.'"""
    g = spos(hands={0: "9c"}, melds={0: [SEVEN_SET, "Qh Qd Qs Qh Qd Qs Qc"]}, phase="play", variant="bolivian")
    illegal(g, "discard 9c", "cannot-go-out")
    g = spos(hands={0: "9c"}, melds={0: [SEVEN_SET, SEVEN_RUN]}, phase="play", variant="bolivian")
    act(g, "discard 9c")
    assert g.hand_results[-1]["went_out"] == 0


def test_black_threes_cost_100_in_hand():
    """'Black threes are negative 100 instead of negative 5 when left in hand.'"""
    g = spos(hands={0: "9c", 2: "3s 3c 4h"}, melds={0: [SEVEN_SET, SEVEN_RUN]}, phase="play", variant="bolivian")
    act(g, "discard 9c")
    assert g.hand_results[-1]["sides"][0]["items"]["cards_in_hand"] == -205


def test_red_threes_positive_only_with_two_canastas():
    """'Red threes only count positive if two or more canastas have been melded.'"""
    v: Any = find_variant("bolivian")(4)
    one = [("set", cards(SEVEN_SET), 0)]
    two = [*one, ("run", cards(SEVEN_RUN), 0)]
    assert v.score_team(melds=one, red_threes=2, all_red_threes=False, hands=[], went_out=False)["items"][
        "red_threes"] == -200
    assert v.score_team(melds=two, red_threes=2, all_red_threes=False, hands=[], went_out=False)["items"][
        "red_threes"] == 200


def test_scorekeeper_scores_a_bolivia():
    out = score_input({"variant": "bolivian", "teams": [
        {"melds": [["JK", "2c", "2h", "2d", "2s", "JK", "JK"], ["5s", "6s", "7s", "8s", "9s", "10s", "Js"]],
         "hands": [[], ["3s"]], "went_out": True},
        {"melds": [["Qh", "Qd", "Qs"]], "hands": [["4c"], []]}]})
    items = out["teams"][0]["items"]
    assert items["bolivias"] == 2500 and items["sambas"] == 500 and items["cards_in_hand"] == -100


def test_random_playouts_and_encoding():
    rng = random.Random(2)
    for seed in range(3):
        g = Game("bolivian", 4, seed)
        total = g.card_count()
        while not g.is_over and g.hand_no == 1:
            legal = g.legal_actions()
            assert action_mask(legal, "bolivian").sum() == len(legal)
            assert encode_observation(g.observation(g.actor)).shape == (obs_size("bolivian"),)
            g.apply(rng.choice(legal))
            assert g.card_count() == total
