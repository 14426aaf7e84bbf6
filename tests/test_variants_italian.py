"""Italian Canasta (encyclopedia-canasta-and-variants.txt, section "Italian Canasta").

The whole text: "Italian canasta is a Samba variant. The number of cards in the discard pile at the
beginning of the game varies with the initial card turned up. The discard pile is always frozen. Deuces
may, but a partnership may not play deuces as wild cards if deuces have been melded and a canasta is
incomplete. Game is to 15,000". Each rule test quotes the sentence it enforces; the readings of the
open points (docs/variants/italian.md, "Points the text leaves open") are tested as defaults and options.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta import Game
from canasta.cards import parse_card
from canasta.encoding import action_mask, encode_observation, num_actions, obs_size
from canasta.errors import OptionError
from canasta.players.basic import BasicPlayer
from canasta.variants import find_variant
from tests.test_variants_samba import act, cards, illegal, legal_texts, meld_texts, spos


def ipos(**kw: Any) -> Game:
    return spos(variant="italian", frozen=True, **kw)


# ------------------------------------------------------------------ a Samba variant
def test_a_samba_variant_registered():
    """'Italian canasta is a Samba variant.': Samba's pack, deal, melds and going out."""
    from canasta.variants.samba import Samba

    cls = find_variant("italian")
    assert issubclass(cls, Samba) and cls.name == "italian"
    g = Game("italian", 4, 0, {"start_pile": "upcard"})
    assert len(g.variant.deck()) == 162 and all(g.hand_sizes[s] >= 15 for s in range(4))
    assert g.variant.CANASTAS_TO_GO_OUT == 2 and g.variant.MAX_WILDS == 2
    with pytest.raises(OptionError):
        Game("italian", 2, 0)


def test_game_is_to_fifteen_thousand():
    """'Game is to 15,000'."""
    v = find_variant("italian")(4)
    assert v.rules["target_score"] == 15000
    assert v.game_won([14990, 10000]) is None and v.game_won([15000, 10000]) == 0


# ------------------------------------------------------------------ the starting pile
@pytest.mark.parametrize(("up", "extra"), [("Ah", 1), ("4c", 4), ("7d", 7), ("10s", 10), ("Jh", 10), ("Kd", 10),
                                            ("2c", 2), ("3h", 3), ("JK", 0)])
def test_starting_pile_varies_with_the_upcard(up: str, extra: int):
    """'The number of cards in the discard pile at the beginning of the game varies with the initial card
    turned up': (default start_pile=pips, this project's reading) as many more cards from the stock as the
    upcard's number go under it: ace 1, 2-10 their number, J/Q/K 10, joker 0."""
    v = find_variant("italian")(4)
    assert v.start_pile_extra(parse_card(up)) == extra


def test_starting_pile_in_a_deal():
    """'The number of cards in the discard pile at the beginning of the game varies with the initial card
    turned up': the pile holds the upcard on top of its count of cards, all dealt from the stock."""
    sizes = set()
    for seed in range(12):
        g = Game("italian", 4, seed)
        up = g.deals[0]["upcards"][-1]
        assert len(g.pile) == 1 + g.variant.start_pile_extra(up)
        assert g.pile[-1] == up and g.deals[0]["upcards"] == g.pile
        assert g.card_count() == 162
        sizes.add(len(g.pile))
    assert len(sizes) > 1


def test_start_pile_option_upcard():
    """Option start_pile=upcard: Samba's single upcard ('This turned-up card is the first card in the discard
    pile')."""
    for seed in range(5):
        g = Game("italian", 4, seed, {"start_pile": "upcard"})
        assert len(g.pile) == 1


# ------------------------------------------------------------------ always frozen
def test_discard_pile_always_frozen():
    """'The discard pile is always frozen.': at the start, and after it is taken; only a natural pair takes it."""
    for seed in range(5):
        assert Game("italian", 4, seed).frozen
    g = ipos(hands={0: "9c 9d 4s 5s 6h"}, pile="7c 8d 9h", melds={0: ["9s 9d 9c"]})
    assert "take #1" not in legal_texts(g)
    illegal(g, "take #1", "pile-frozen")
    act(g, "take 9c 9d")
    assert g.frozen
    g.apply(next(a for a in g.legal_actions() if a.kind == "discard"))
    assert g.frozen and g.observation(1)["frozen"]


def test_samba_pile_is_not_always_frozen():
    """Samba is unchanged: its pile freezes only by 'a red 3 or wild card' (Denexa 'Samba')."""
    g = spos(hands={0: "9c 9d 4s 5s"}, pile="7c 8d 9h", melds={0: ["9s 9d 9c"]})
    assert "take #1" in legal_texts(g)
    act(g, "take 9c 9d")
    assert not g.frozen


# ------------------------------------------------------------------ deuces
def test_deuces_may_be_melded():
    """'Deuces may' (be melded, this project's reading): a set of three to seven 2s, as naturals, no joker."""
    g = ipos(hands={0: "2c 2d 2h 2s JK 5s 6h 9c"}, phase="play")
    assert "meld 2s 2h 2d" in legal_texts(g)
    illegal(g, "meld 2c 2d JK", "meld-invalid")
    act(g, "meld 2c 2d 2h")
    assert meld_texts(g, 0) == ["2c 2d 2h"]
    assert "add #1 2s" in legal_texts(g)
    assert not any(a.kind == "add" and 60 in a.cards for a in g.legal_actions())
    illegal(g, "add #1 JK", "meld-invalid")


def test_samba_has_no_deuce_melds():
    """Samba: 'wild cards can only be used in sets' with natural cards; 2s meld only as wild cards."""
    g = spos(hands={0: "2c 2d 2h 5s 6h 9c"}, phase="play")
    illegal(g, "meld 2c 2d 2h", "meld-invalid")


def test_no_deuce_wild_while_the_deuce_meld_is_incomplete():
    """'a partnership may not play deuces as wild cards if deuces have been melded and a canasta is
    incomplete' (default deuce_rule=deuce_meld: while a meld of deuces of the side is under seven cards)."""
    g = ipos(hands={0: "2s Kc Kd Ks 5s 6h 9c 9d"}, melds={0: ["2c 2d 2h", "Qh Qd Qs"]}, phase="play")
    texts = legal_texts(g)
    assert not any(t.startswith(("meld", "add #2")) and "2s" in t for t in texts)
    assert "add #1 2s" in texts
    illegal(g, "add #2 2s", "deuce-wild")
    illegal(g, "meld 9c 9d 2s", "deuce-wild")
    # partner's side may: the rule binds the partnership that melded deuces
    g = ipos(hands={1: "2s Kc Kd Ks 5s 6h 9c 9d"}, melds={0: ["2c 2d 2h"], 1: ["Qh Qd Qs"]}, phase="play", turn=1)
    act(g, "add #2 2s")


def test_deuces_wild_again_once_the_deuce_canasta_is_complete():
    """'... if deuces have been melded and a canasta is incomplete': with the canasta of deuces complete, 2s
    are wild cards again."""
    g = ipos(hands={0: "2s Kc Kd Ks 5s 6h 9c 9d"}, melds={0: ["2c 2d 2h 2s 2c 2d 2h", "Qh Qd Qs"]},
             phase="play")
    assert "add #2 2s" in legal_texts(g)
    act(g, "add #2 2s")


def test_deuce_rule_option_no_canasta():
    """Option deuce_rule=no_canasta (the other reading of 'a canasta is incomplete'): with deuces melded, 2s
    are not wild until the side has any seven-card meld."""
    rules = {"deuce_rule": "no_canasta"}
    g = ipos(hands={0: "2s Kc Kd Ks 5s 6h 9c 9d"}, melds={0: ["2c 2d 2h", "Qh Qd Qs"]}, phase="play",
             rules=rules)
    illegal(g, "add #2 2s", "deuce-wild")
    g = ipos(hands={0: "2s Kc Kd Ks 5s 6h 9c 9d"}, melds={0: ["2c 2d 2h", "Qh Qd Qs", "4h 5h 6h 7h 8h 9h 10h"]},
             phase="play", rules=rules)
    act(g, "add #2 2s")


def test_deuce_canasta_scores_as_natural():
    """'Deuces may' (be melded as naturals, this project's reading): a canasta of seven deuces scores the
    option deuce_canasta (default 500, a natural canasta's bonus) and counts as a seven-card meld."""
    v = find_variant("italian")(4)
    deuces = cards("2c 2d 2h 2s 2c 2d 2h")
    kings = cards("Kc Kd Ks Kh Kc Kd Ks")
    out = v.score_team(melds=[("set", deuces, 7), ("set", kings, 0)], red_threes=0, all_red_threes=False,
                       hands=[[], []], went_out=True)
    assert out["items"]["deuce_canastas"] == 500 and out["items"]["natural_canastas"] == 500
    assert out["items"]["melded_cards"] == 7 * 20 + 7 * 10
    v2 = find_variant("italian")(4, {"deuce_canasta": 1000})
    out = v2.score_team(melds=[("set", deuces, 7)], red_threes=0, all_red_threes=False, hands=[[]], went_out=False)
    assert out["items"]["deuce_canastas"] == 1000


def test_a_last_deuce_that_cannot_play_wild_is_not_left_alone():
    """No stuck hand: a meld or addition may leave one card only if it can then go out, and a lone 2 cannot
    go onto a set as a wild card while 'deuces have been melded and a canasta is incomplete'."""
    g = ipos(hands={0: "2s 10s"}, melds={0: ["6c 6s 6h 6d 6s 6h 6s", "2h 2d 2c 2s", "4c 4c JK 4d 4d 4s",
                                              "10h 10c 10c"]}, phase="play")
    illegal(g, "add #4 10s", "cannot-go-out")


# ------------------------------------------------------------------ the engine's contracts
def test_random_playouts_conserve_cards_and_offer_a_legal_action():
    for seed in range(5):
        g = Game("italian", 4, seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_no == 1:
            legal = g.legal_actions()
            assert legal
            g.apply(rng.choice(legal))
            assert g.card_count() == 162
        assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_basic_players_finish_games_and_records_round_trip():
    from canasta.record import export_record, replay_record

    for seed in range(3):
        g = Game("italian", 4, seed, {"target_score": 2000})
        p = BasicPlayer()
        steps = 0
        while not g.is_over and steps < 30000:
            g.apply(p.choose(g.observation(g.actor), g.legal_actions()))
            steps += 1
        assert g.is_over
        text = export_record(g, date="2026.11.23")
        assert export_record(replay_record(text), date="2026.11.23") == text


def test_encoding_of_every_legal_action():
    g = Game("italian", 4, 3)
    rng = random.Random(3)
    n = num_actions("italian")
    while not g.is_over and g.hand_no == 1:
        legal = g.legal_actions()
        mask = action_mask(legal, "italian")
        assert mask.sum() == len(legal) and len(mask) == n
        assert encode_observation(g.observation(g.actor)).shape == (obs_size("italian"),)
        g.apply(rng.choice(legal))


def test_observation_hides_other_hands_and_the_stock():
    """observation(seat) never shows another hand's unseen cards or the stock order."""
    from tests.test_properties import _hide_variant

    rng = random.Random(5)
    for seed in range(2):
        g = Game("italian", 4, seed)
        for _ in range(100):
            if g.is_over:
                break
            for seat in range(4):
                other = _hide_variant(g, seat, rng)
                if other is not None:
                    assert other.observation(seat) == g.observation(seat)
            g.apply(rng.choice(g.legal_actions()))


def test_scorekeeper_scores_a_canasta_of_deuces():
    """`canasta score --variant italian`: a meld of seven 2s is a canasta of deuces ('Deuces may', this
    project's reading), scored like the engine's."""
    from canasta.scorekeeper import score_input

    data = {"variant": "italian", "teams": [
        {"melds": [["2c", "2d", "2h", "2s", "2c", "2d", "2h"], ["Kh", "Kd", "Ks", "Kc", "Kh", "Kd", "Ks"]],
         "threes": [], "hands": [[], []], "went_out": True},
        {"melds": [["9c", "9d", "9s"]], "threes": [], "hands": [[], ["5c"]]}]}
    team = score_input(data)["teams"][0]
    assert team["items"]["deuce_canastas"] == 500 and team["total"] == 210 + 500 + 500 + 200


def _deuces(a: Any) -> bool:
    return a.kind == "meld" and all(8 <= c <= 11 for c in a.cards)


def _check_listed(g: Game) -> None:
    from itertools import combinations_with_replacement

    from canasta.cards import format_cards
    from canasta.notation import parse_action

    seat = g.turn
    hand = g.hands[seat]
    two = next((c for c in (8, 9, 10, 11) if hand[c]), None)
    codes = [c for c in range(8, 61) if hand[c] and (not 8 <= c <= 11 or c == two)]
    want = set()
    for combo in combinations_with_replacement(codes, 3):
        if all(hand[c] >= combo.count(c) for c in combo):
            a = parse_action("meld " + format_cards(list(combo)))
            if not _deuces(a) and g._check_meld(a, False):
                want.add(a)
    for mid in g.melds[g._sides[seat]]:
        for c in codes:
            a = parse_action(f"add #{mid} " + format_cards([c]))
            if g._check_meld(a, False):
                want.add(a)
    got = {a for a in g.legal_actions() if a.kind in ("meld", "add")}
    assert {a for a in got if not _deuces(a)} == want
    assert all(g._check_meld(a, False) for a in got if _deuces(a))


@pytest.mark.parametrize("rule", ["deuce_meld", "no_canasta"])
def test_listed_melds_and_additions_are_exactly_the_legal_ones(rule: str):
    """legal_actions() lists every legal meld of three cards and one-card addition under the deuce rule ('a
    partnership may not play deuces as wild cards if deuces have been melded and a canasta is incomplete'), and
    nothing else (a meld of three deuces is listed once, whatever their suits): hand-made positions with the
    rule in force and lifted, and random games."""
    rules = {"deuce_rule": rule}
    for melds in (["2c 2d 2h", "Qh Qd Qs", "Kh Kd 2s"], ["2c 2d 2h 2s 2c 2d 2h", "Qh Qd Qs"],
                  ["2c 2d 2h", "4h 5h 6h 7h 8h 9h 10h", "Qh Qd JK"], ["Qh Qd Qs"]):
        g = ipos(hands={0: "2s 2h 2c JK Kc Kd Ks Qc 9c 9d 5h"}, melds={0: melds}, phase="play", rules=rules)
        _check_listed(g)
        g = ipos(hands={0: "2s 9c"}, melds={0: ["6c 6s 6h 6d 6s 6h 6s", *melds]}, phase="play", rules=rules)
        _check_listed(g)
    rng = random.Random(4)
    for seed in range(2):
        g = Game("italian", 4, seed, {"start_pile": "upcard", **rules})
        while not g.is_over and g.hand_no == 1:
            if g.phase == "play":
                _check_listed(g)
            g.apply(rng.choice(g.legal_actions()))
