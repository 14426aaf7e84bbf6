"""Chilean Canasta (encyclopedia-canasta-and-variants.txt, section "Chilean Canasta"), a Samba subclass.

'Allows both sambas and bolivias. Can be played with either three decks (162 cards) or four decks (216 cards)'.
Everything else is Samba's (tests/test_variants_samba.py); bolivias are Bolivian's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from canasta import Game
from canasta.cards import parse_card
from canasta.errors import OptionError
from canasta.variants import find_variant
from tests.test_variants_samba import act, cards, spos

SEVEN_SET = "Kh Kd Ks Kh Kd Ks Kc"


def test_three_or_four_decks():
    """'Can be played with either three decks (162 cards) or four decks (216 cards)'."""
    assert len(find_variant("chilean")(4).deck()) == 162
    deck = find_variant("chilean")(4, {"decks": 4}).deck()
    assert len(deck) == 216 and Counter(deck)[parse_card("JK")] == 8
    with pytest.raises(OptionError):
        find_variant("chilean")(4, {"decks": 5})


def test_four_decks_play():
    g = Game("chilean", 4, 1, {"decks": 4})
    rng = random.Random(1)
    while not g.is_over and g.hand_no == 1:
        g.apply(rng.choice(g.legal_actions()))
        assert g.card_count() == 216


def test_sambas_and_bolivias():
    """'Allows both sambas and bolivias': an escalera of seven scores as a samba, a seven-card meld of wild
    cards as a bolivia (2500, Bolivian's value), and both count towards going out (Samba's two seven-card
    melds)."""
    g = spos(hands={0: "JK JK 2c 9c 9d"}, melds={0: [SEVEN_SET, "5s 6s 7s 8s 9s 10s Js"]}, phase="play",
             variant="chilean")
    act(g, "meld 2c JK JK")
    v: Any = g.variant
    got = v.score_team(melds=[("set", cards("2c JK JK 2h 2d 2s JK"), 7), ("run", cards("5s 6s 7s 8s 9s 10s Js"), 0)],
                       red_threes=0, all_red_threes=False, hands=[], went_out=True)
    assert got["items"]["bolivias"] == 2500 and got["items"]["sambas"] == 500
    assert v.going_out_problem(2, 0) is None  # no escalera needed (that is Bolivian's rule)


def test_all_red_threes_of_four_decks():
    """With four decks the pack holds eight red threes; 'all' of them score Samba's 1000 (a documented default)."""
    v: Any = find_variant("chilean")(4, {"decks": 4})
    assert v.red_threes_in_pack == 8
