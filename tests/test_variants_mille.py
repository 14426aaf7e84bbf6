"""Mille (triple-play-samba-burraco-mille-hand-and-foot-classic.txt, section "Mille").

Each rule test quotes the sentence of the text it enforces. The open points the text
leaves (docs/variants/mille.md) are tested as the documented defaults and options.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import act, assert_illegal, cards, hand_text, legal_texts, position
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta import Game
from canasta.cards import format_card, parse_card
from canasta.engine.game import WILD_RANK
from canasta.errors import OptionError
from canasta.players import get_player
from canasta.record import export_record, replay_record
from canasta.scoring import score_side
from canasta.variants import find_variant
from canasta.variants.mille import Mille, round_to_hundred


def mille(**kw: Any) -> Game:
    """A Mille position (see helpers.position), two players, by default seat 0 to play."""
    kw.setdefault("players", 2)
    return position(variant="mille", **kw)


def bound(rules: dict[str, Any] | None = None) -> Mille:
    v = find_variant("mille")(2, rules or {})
    assert isinstance(v, Mille)
    return v


def score(melds: list[str], hand: str = "", rules: dict[str, Any] | None = None) -> dict[str, Any]:
    v = bound(rules)
    return dict(score_side(v, melds=[(0, cards(m)) for m in melds], red_threes=[], hands=[cards(hand)],
                           went_out=not hand, concealed=False, all_red_threes=False))


def result(winner_naturals: list[int], loser_totals: list[int]) -> list[dict[str, Any]]:
    """Synthetic hand results, seat 0 the winner: its naturals and the loser's hand totals."""
    return [{"sides": [{"total": 100, "naturals": n, "chapeau": False},
                       {"total": t, "naturals": 0, "chapeau": t < 0}]}
            for n, t in zip(winner_naturals, loser_totals, strict=True)]


# ------------------------------------------------------------------ setup
def test_deal_two_players_104_cards_fifteen_each_one_upcard() -> None:
    """'Mille uses a 104-card deck formed by shuffling together two standard 52-card decks ...
    (Unlike Canasta, Mille does not use jokers.)' 'Shuffle and deal fifteen cards to each player.
    ... Turn one card face up from the stock. This card, the upcard, is the first card of the
    discard pile.' 'The non-dealer goes first.'"""
    v = bound()
    deck = v.deck()
    assert len(deck) == 104 and parse_card("JK") not in deck
    for seed in range(30):
        g = Game("mille", 2, seed)
        assert g.hand_sizes == [15, 15]
        assert len(g.pile) == 1  # one upcard even when it is a 2 or a three
        assert len(g.stock) == 104 - 30 - 1
        assert g.card_count() == 104
        assert g.turn != g.dealer
        assert g.red_threes == [[], []]  # threes are ordinary cards: none laid out
    with pytest.raises(OptionError):
        Game("mille", 4, 0)
    with pytest.raises(OptionError):
        Game("mille", 2, 0, {"jokers": 4})  # a fixed rule of Mille, not an option


def test_mille_is_played_alone_by_two() -> None:
    """'Mille is played by two solo players, not partnerships.'"""
    g = Game("mille", 2, 1)
    assert g.num_sides == 2 and g.variant.partner_of(0) is None
    assert "ask" not in legal_texts(g)


def test_the_dealer_alternates_and_the_non_dealer_leads_every_hand() -> None:
    """'The non-dealer goes first.'"""
    g = Game("mille", 2, 5)
    rng = random.Random(5)
    seen = []
    while len(g.hand_results) < 3:
        if not seen or seen[-1][0] != g.hand_no:
            seen.append((g.hand_no, g.dealer, g.turn))
        g.apply(rng.choice(g.legal_actions()))
    assert [(d, t) for _, d, t in seen] == [(1, 0), (0, 1), (1, 0)]


# ------------------------------------------------------------ the pile
def test_take_the_pile_with_two_naturals_of_the_upcards_rank() -> None:
    """'If a player has two or more cards in their hand of the same rank as the upcard, they may
    immediately meld the upcard along with these cards, then take the entire discard pile into
    their hand.'"""
    g = mille(hands={0: "Kh Kd 5c 9s", 1: "4c 4d"}, pile="7c 9d 3h Ks")
    assert "take Kh Kd" in legal_texts(g)
    act(g, "take Kh Kd")
    assert [format_card(c) for c in g.melds[0][13].cards] == ["Ks", "Kh", "Kd"]
    assert sorted(hand_text(g, 0)) == sorted(["5c", "9s", "7c", "9d", "3h"])
    assert g.pile == [] and g.phase == "play"


def test_a_two_cannot_be_used_to_take_the_pile() -> None:
    """'A 2 cannot be used to take the discard pile; this can only be done with two or more
    natural cards of the same rank as the upcard.'"""
    g = mille(hands={0: "Kh 2c 5c 9s", 1: "4c 4d"}, pile="7c Ks", melds={0: ["Qh Qd Qc"]})
    assert not any(t.startswith("take") for t in legal_texts(g))
    err = assert_illegal(g, "take Kh 2c", "pile-frozen")
    assert "A 2 cannot be used" in err.message
    # a meld of that rank does not let one take it either
    g = mille(hands={0: "Kh 5c 9s", 1: "4c 4d"}, pile="7c Ks", melds={0: ["Kd Kc Kc"]})
    assert_illegal(g, "take", "pile-frozen")


def test_taking_with_a_rank_already_melded_joins_that_meld() -> None:
    """'All cards of the same rank that are laid down by a player are considered to form one meld.'"""
    g = mille(hands={0: "Kh Kd 5c", 1: "4c 4d"}, pile="7c Ks", melds={0: ["Kc Kc Ks"]})
    act(g, "take Kh Kd")
    assert len(g.melds[0]) == 1 and g.melds[0][13].size == 6


def test_pile_topped_by_a_two_cannot_be_taken() -> None:
    """Open point (docs): a 2 on top would need 2s to take it, and 'A 2 cannot be used to take
    the discard pile'."""
    g = mille(hands={0: "2h 2d 5c", 1: "4c 4d"}, pile="7c 2s")
    assert legal_texts(g) == {"draw"}
    assert_illegal(g, "take 2h 2d", "pile-blocked")


def test_threes_are_an_ordinary_rank() -> None:
    """'9-3: 5 points each' - threes are cards like any other: a pile topped by a three is taken
    with two threes, red threes are neither laid out nor kept from the discard, threes meld."""
    g = mille(hands={0: "3h 3s 3d 3c 5c 9s", 1: "4c 4d"}, pile="7c 3d")
    act(g, "take 3h 3s")
    assert g.melds[0][3].size == 3
    act(g, "add 3 3d")
    assert g.melds[0][3].size == 4
    act(g, "discard 3c")
    assert g.pile == [parse_card("3c")]


def test_draw_one_card_otherwise() -> None:
    """'Otherwise, they draw one card from the stock.'"""
    g = mille(hands={0: "Kh 5c 9s", 1: "4c 4d"}, pile="7c Ks", stock="8h")
    act(g, "draw")
    assert sorted(hand_text(g, 0)) == sorted(["Kh", "5c", "9s", "8h"])


def test_a_one_card_pile_may_be_taken() -> None:
    """Open point (docs): the text sets no minimum size for the pile taken."""
    g = mille(hands={0: "Kh Kd 5c", 1: "4c 4d"}, pile="Ks")
    act(g, "take Kh Kd")
    assert g.melds[0][13].size == 3


# --------------------------------------------------------------- melds
def test_melds_of_one_rank_form_one_meld() -> None:
    """'All cards of the same rank that are laid down by a player are considered to form one meld.
    If a player melded, say, three kings, then on later turn melded three more, this would form
    one six-card meld.'"""
    g = mille(hands={0: "Kh Kd Ks Kc Kh Kd 5c 6c", 1: "4c 4d"}, phase="play")
    act(g, "meld Kh Kd Ks")
    assert "meld Kh Kd Kc" not in legal_texts(g)  # listed as additions
    act(g, "meld Kc Kh Kd")
    assert list(g.melds[0]) == [13] and g.melds[0][13].size == 6
    assert g.card_count() == 104


def test_a_meld_is_three_or_more_cards() -> None:
    """'A meld consists of three or more cards of the same rank.'"""
    g = mille(hands={0: "Kh Kd Qs 5c 6c", 1: "4c 4d"}, phase="play")
    assert_illegal(g, "meld Kh Kd", "meld-size")
    assert_illegal(g, "meld Kh Kd Qs", "meld-rank")


def test_twos_are_wild_without_limit_and_melds_of_twos() -> None:
    """'2s are considered wild cards, and may be melded alongside any other combination of cards.'
    'Three or more 2s can also be laid down as a meld of 2s'."""
    g = mille(hands={0: "Kh Kd Ks 2c 2d 2h 2s 2c 2d 5c 6c 7c", 1: "4c 4d"}, phase="play")
    act(g, "meld Kh Kd Ks", "add K 2c", "add K 2d", "add K 2h", "add K 2s")
    assert g.melds[0][13].wilds == 4  # no limit of three as in Canasta
    act(g, "meld 2c 2d 5c")  # one natural and two 2s (table rule meld_min_naturals=1)
    g = mille(hands={0: "2c 2d 2h 2s 2c 5c 6c", 1: "4c 4d"}, phase="play")
    assert {"meld 2s 2h 2d", "meld 5c 2s 2h", "meld 6c 2s 2h"} <= legal_texts(g)
    act(g, "meld 2c 2d 2h", "add W 2s")
    assert g.melds[0][WILD_RANK].size == 4


def test_meld_min_naturals_option() -> None:
    """Open point (docs): with meld_min_naturals=2 a meld needs two natural cards, as in Canasta."""
    g = mille(hands={0: "Kh 2c 2d 5c 6c", 1: "4c 4d"}, phase="play", rules={"meld_min_naturals": 2})
    assert_illegal(g, "meld Kh 2c 2d", "meld-naturals")


def test_the_queen_of_spades_moves_are_listed_apart() -> None:
    """'Q♠: 100 points' - discarding or melding it is not the same move as a plain queen."""
    g = mille(hands={0: "Qs Qh Qd Qc Jd Jh", 1: "4c 4d"}, phase="play", melds={0: ["Qc Qh Qd"]})
    texts = legal_texts(g)
    assert {"discard Qs", "discard Qh", "discard Jd", "discard Jh"} <= texts
    assert {"add Q Qs", "add Q Qh"} <= texts


# ----------------------------------------------------------- going out
def test_going_out_by_melding_every_card_without_a_discard() -> None:
    """'The hand ends when one player has melded or discarded all of their cards. A player may
    discard on the turn they go out, but if they are able to exhaust their hand by melding all of
    their cards, they may end the hand without discarding.'"""
    g = mille(hands={0: "Kh Kd Ks 7h 7d 7s", 1: "4c 4d 9h"}, phase="play")
    act(g, "meld Kh Kd Ks", "meld 7h 7d 7s")
    res = g.hand_results[-1]
    assert res["went_out"] == 0 and g.hand_no == 2


def test_going_out_with_a_discard() -> None:
    """'A player may discard on the turn they go out'."""
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "4c 4d 9h"}, phase="play")
    act(g, "meld Kh Kd Ks", "discard 7h")
    assert g.hand_results[-1]["went_out"] == 0


# -------------------------------------------------------------- restock
def test_restock_sets_the_upcard_aside_and_shuffles_the_rest() -> None:
    """'If the stock is depleted, the upcard is set aside and the remainder of the discard pile is
    shuffled and turned face down to form a new stock.' (The engine's seeded RNG shuffles; the
    upcard stays face up as the pile.)"""
    def build() -> Game:
        return mille(hands={0: "Kh 5c", 1: "4c 4d"}, pile="6d 7h 8s 9c 10d Js", rest=1)
    g = build()
    assert g.stock == []
    act(g, "draw")
    assert g.pile == [parse_card("Js")]
    assert len(g.stock) == 4 and g.hand_sizes[0] == 3
    assert g.card_count() == 104
    again = build()
    act(again, "draw")
    assert again.stock == g.stock and again.hands == g.hands  # reproducible from the seed
    assert g.reshuffles == 1


def test_stock_and_pile_used_up_ends_the_hand() -> None:
    """Open point (docs): with no stock and only the upcard in the pile there is nothing to
    restock; the player takes the upcard if able, or ends the hand (nobody goes out)."""
    g = mille(hands={0: "Kh 5c", 1: "4c 4d"}, pile="9c", rest=1)
    assert legal_texts(g) == {"end"}
    act(g, "end")
    assert g.hand_results[-1]["went_out"] is None


def test_restock_limit_option_ends_a_stalled_hand() -> None:
    """Open point (docs): the text sets no limit on restocks, so two players who cannot meld their
    last cards could restock for ever; by default the stock is rebuilt at most 5 times a hand."""
    g = mille(hands={0: "Kh 5c", 1: "4c 4d"}, pile="6d 7h 8s", rest=1, reshuffles=5)
    assert legal_texts(g) == {"end"}
    g = mille(hands={0: "Kh 5c", 1: "4c 4d"}, pile="6d 7h 8s", rest=1, reshuffles=5,
              rules={"restock_limit": 0})
    assert legal_texts(g) == {"draw"}
    g = mille(hands={0: "Kh 5c", 1: "4c 4d"}, pile="6d 7h 8s", rest=1, reshuffles=4)
    act(g, "draw")
    assert g.reshuffles == 5


# --------------------------------------------------------------- values
@pytest.mark.parametrize(("text", "value"), [
    ("Qs", 100), ("Jd", 50), ("Ah", 15), ("Ks", 10), ("Qh", 10), ("Jh", 10), ("Jc", 10), ("10c", 10),
    ("9d", 5), ("8h", 5), ("7s", 5), ("4c", 5), ("3h", 5), ("3s", 5), ("2c", 20), ("2d", 20)])
def test_card_values(text: str, value: int) -> None:
    """'Q♠: 100 points; J♦: 50 points; Aces: 15 points each; K-10: 10 points each; 9-3: 5 points
    each; 2s: 20 points each'."""
    assert bound().values[parse_card(text)] == value


def test_hand_score_is_melded_value_minus_cards_in_hand() -> None:
    """'At the end of the hand, each player scores the total value of the all the cards they have
    melded, then they deduct the value of any cards left in their hand.'"""
    s = score(["Kh Kd 2c", "Qs Qh Qd"], hand="Jd 3c")
    assert s["items"]["melded_cards"] == 10 + 10 + 20 + 100 + 10 + 10
    assert s["items"]["cards_in_hand"] == -(50 + 5)
    assert s["total"] == 160 - 55 and s["naturals"] == 0 and s["items"]["no_twos_natural"] == 0


def test_natural_meld_of_all_eight_is_doubled() -> None:
    """'If a player manages to meld all eight cards of one rank without using any wild cards, this
    is called a natural, and the value of this meld is doubled in their hand score.'"""
    s = score(["Kh Kh Kd Kd Ks Ks Kc Kc", "5c 5d 2c"], hand="")
    assert s["items"]["natural_melds"] == 80
    assert s["total"] == 2 * 80 + (5 + 5 + 20)
    assert s["naturals"] == 1
    # seven kings and a 2 are not a natural
    assert score(["Kh Kh Kd Kd Ks Ks Kc 2c", "5c 5d 2c"])["naturals"] == 0


def test_no_twos_melded_doubles_every_melded_card() -> None:
    """'If the player did not meld any 2s at all (other than as part of a meld of 2s), this is also
    considered a natural, and the value of all of their melded cards is doubled.' 'Three or more
    2s can also be laid down as a meld of 2s, which does not prevent the player from claiming the
    bonus.'"""
    s = score(["Kh Kd Ks", "2c 2d 2h"], hand="5c")
    assert s["total"] == 2 * (30 + 60) - 5
    assert s["naturals"] == 1
    assert score(["Kh Kd 2s", "2c 2d 2h"])["naturals"] == 0


def test_both_naturals_four_times_the_natural_meld() -> None:
    """'If a player scores both types of natural, two asterisks are recorded on the score sheet,
    the natural meld scores 4x the value of the cards, and all other cards score double.'"""
    s = score(["Ah Ah Ad Ad As As Ac Ac", "5c 5d 5h"], hand="9c")
    assert s["total"] == 4 * 120 + 2 * 15 - 5
    assert s["naturals"] == 2


def test_a_player_who_melded_nothing_has_no_natural() -> None:
    """Open point (docs): 'did not meld any 2s' gives no natural to a player with no melds."""
    s = score([], hand="Kh 5c")
    assert s["naturals"] == 0 and s["total"] == -15


def test_chapeau_is_a_negative_hand_score() -> None:
    """'It is possible that the player who did not go out can have a net negative score for the
    hand; this is called a chapeau'."""
    assert score(["5c 5d 5h"], hand="Qs")["chapeau"] is True
    assert score(["5c 5d 5h"], hand="4c")["chapeau"] is False


def test_hand_results_record_naturals_and_chapeaux() -> None:
    """'When a player scores a natural of either type, it is indicated on the score sheet with an
    asterisk next to their score for that hand.'"""
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "Qs 4d 9h"}, phase="play")
    act(g, "meld Kh Kd Ks", "discard 7h")
    sides = g.hand_results[-1]["sides"]
    assert sides[0]["naturals"] == 1 and sides[0]["total"] == 60
    assert sides[1]["chapeau"] is True and sides[1]["total"] == -(100 + 5 + 5)


# -------------------------------------------------------------- game end
def test_game_ends_at_1200() -> None:
    """'The game ends when one player has scored 1,200 or more. This player is the winner.'"""
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "Qs 4d 9h"}, phase="play", scores=[1150, 300])
    act(g, "meld Kh Kd Ks", "discard 7h")
    assert g.is_over and g.winner == 0 and g.scores == [1210, 190]
    assert g.legal_actions() == []
    # below the target another hand is dealt
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "Qs 4d 9h"}, phase="play", scores=[1000, 300])
    act(g, "meld Kh Kd Ks", "discard 7h")
    assert not g.is_over and g.hand_no == 2


def test_a_tie_at_or_over_1200_plays_another_hand() -> None:
    """Open point (docs): both at the same score of 1200 or more: no single winner, play on."""
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "4d 9h"}, phase="play", scores=[1140, 1210])
    act(g, "meld Kh Kd Ks", "discard 7h")
    assert g.scores == [1200, 1200] and not g.is_over


def test_target_score_option() -> None:
    assert bound().target_score == 1200
    assert bound({"target_score": 500}).target_score == 500


def test_round_to_nearest_hundred() -> None:
    """'round the scores to the nearest 100' (halves away from zero, docs)."""
    assert [round_to_hundred(s) for s in (1249, 1250, 1251, 549, 550, 0, -49, -50, -151)] == \
        [1200, 1300, 1300, 500, 600, 0, 0, -100, -200]


def test_settlement_arithmetic() -> None:
    """'The larger amount once for losing the game. The larger amount once for each natural scored
    by the winner. The larger amount once for each of the loser's chapeaux. The smaller amount is
    paid once for each 100-point difference in score between the two players. To calculate this,
    round the scores to the nearest 100, subtract the smaller from the larger, and divide the
    difference by 100.'"""
    v = bound({"stakes_small": 1, "stakes_large": 3})
    s = v.settle([1260, 840], result([1, 0, 2], [300, -40, 580]), 0)
    assert s is not None
    assert s["rounded_scores"] == [1300, 800] and s["hundreds"] == 5
    assert s["winner_naturals"] == 3 and s["loser_chapeaux"] == 1 and s["skunk"] is None
    assert s["items"] == {"losing": 3, "winner_naturals": 9, "loser_chapeaux": 3, "difference": 5}
    assert s["payment"] == 20


def test_skunk_doubles_and_double_skunk_triples_the_payment() -> None:
    """'If the losing player failed to score at least 600 points, this is a skunk. If the losing
    player ended the hand with a negative score, it is a double skunk.' 'In the event of a skunk,
    the payment is doubled; in the event of a double skunk, the payment is tripled.'"""
    v = bound({"stakes_small": 2})  # larger amount 0 means three times the smaller: $2-$6
    s = v.settle([1210, 560], result([0], [560]), 0)
    assert s is not None and s["skunk"] == "skunk" and s["multiplier"] == 2
    assert s["payment"] == (6 + 2 * 6) * 2  # 1200 - 600 = 6 hundreds
    s = v.settle([1230, -120], result([0, 0], [100, -220]), 0)
    assert s is not None and s["skunk"] == "double_skunk"
    assert s["payment"] == (6 + 6 + 2 * 13) * 3  # 1200 - (-100) = 13 hundreds
    s = v.settle([1230, 600], result([0], [600]), 0)
    assert s is not None and s["skunk"] is None and s["payment"] == 6 + 2 * 6


def test_double_skunk_option_reads_the_last_hand() -> None:
    """'If the losing player ended the hand with a negative score' read literally (table rule)."""
    v = bound({"double_skunk": "negative_last_hand"})
    s = v.settle([1230, 100], result([0, 0], [150, -50]), 0)
    assert s is not None and s["skunk"] == "double_skunk"
    s = bound().settle([1230, 100], result([0, 0], [150, -50]), 0)
    assert s is not None and s["skunk"] == "skunk"


def test_no_stakes_no_payment_and_settlement_in_the_observation() -> None:
    """'If playing for money, the loser pays the winner according to the stakes.'"""
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "Qs 4d 9h"}, phase="play", scores=[1150, 300])
    assert g.observation(0)["settlement"] is None
    act(g, "meld Kh Kd Ks", "discard 7h")
    s = g.observation(1)["settlement"]
    assert s["payment"] is None and s["skunk"] == "skunk" and s["winner"] == 0
    g = mille(hands={0: "Kh Kd Ks 7h", 1: "Qs 4d 9h"}, phase="play", scores=[1150, 300],
              rules={"stakes_small": 1, "stakes_large": 3})
    act(g, "meld Kh Kd Ks", "discard 7h")
    s = g.settlement()
    assert s is not None
    # 1 natural (no 2s), 1 chapeau, 1200 - 200 = 10 hundreds, skunk
    assert s["payment"] == (3 + 3 + 3 + 10) * 2


def test_stakes_must_not_be_negative() -> None:
    with pytest.raises(OptionError):
        bound({"stakes_small": -1})


# ------------------------------------------------------ whole games, state
@pytest.mark.parametrize("player", ["random", "basic"])
def test_whole_games_play_to_the_end(player: str) -> None:
    for seed in range(3):
        g = Game("mille", 2, seed, {"stakes_small": 1})
        players = [get_player(player, seed * 2 + s) for s in range(2)]
        steps = 0
        while not g.is_over:
            legal = g.legal_actions()
            assert legal
            a = players[g.actor].choose(g.observation(g.actor), legal)
            assert a in legal
            g.apply(a)
            assert g.card_count() == 104
            steps += 1
            assert steps < 50_000
        assert g.winner is not None and g.scores[g.winner] >= 1200
        s = g.settlement()
        assert s is not None and s["payment"] > 0


def test_seeded_playouts_conserve_cards_round_trip_and_replay() -> None:
    """Property over seeded random playouts: every listed action applies, card count stays 104,
    to_dict/from_dict round-trips, the record replays to the same game."""
    for seed in range(6):
        g = Game("mille", 2, seed, {"stakes_small": 1} if seed % 2 else {})
        rng = random.Random(1000 + seed)
        steps = 0
        while not g.is_over and steps < 1500:
            legal = g.legal_actions()
            assert len(set(legal)) == len(legal)
            for a in legal:
                g.check(a)
            g.apply(rng.choice(legal))
            assert g.card_count() == 104
            if steps % 97 == 0:
                again = Game.from_json(g.to_json())
                assert again.to_dict() == g.to_dict()
                assert again.legal_actions() == g.legal_actions()
            steps += 1
        replayed = replay_record(export_record(g))
        assert replayed.to_dict() == g.to_dict()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rng_seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 600),
       rules=st.fixed_dictionaries({}, optional={"meld_min_naturals": st.sampled_from([1, 2]),
                                                 "restock_limit": st.sampled_from([0, 1, 5]),
                                                 "target_score": st.sampled_from([300, 1200])}))
def test_property_cards_conserved_and_positions_replay(seed: int, rng_seed: int, steps: int,
                                                       rules: dict[str, Any]) -> None:
    """Hypothesis: any Mille game and random legal play: 104 cards at every step, every listed action
    passes check(), a refused copy is unchanged, and the saved position and the action log both rebuild it."""
    g = Game("mille", 2, seed, rules)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        g.apply(rng.choice(legal))
        assert g.card_count() == 104
    assert Game.from_json(g.to_json()).to_dict() == g.to_dict()
    again = Game("mille", 2, seed, rules)
    for _, a, _ in g.history:
        again.apply(a)
    assert again.to_dict() == g.to_dict()


def test_observation_does_not_leak_hidden_cards() -> None:
    g = Game("mille", 2, 4)
    act(g, "draw")
    d = g.to_dict()
    other = dict(d)
    pool = list(d["hands"][1]) + list(d["stock"])
    random.Random(9).shuffle(pool)
    n = len(d["hands"][1])
    other["hands"] = [d["hands"][0], sorted(pool[:n])]
    other["stock"] = pool[n:]
    g2 = Game.from_dict(other)
    assert g.observation(0) == g2.observation(0)
    assert "stock" not in g.observation(0)


# ------------------------------------------------------------- clients
def test_terminal_game_plays_mille_and_reports_the_settlement(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from canasta.notation import format_action
    from canasta.players import hint
    from canasta.tui import TerminalGame, run_play

    state: dict[str, Game] = {}
    real_run = TerminalGame.run

    def run_and_capture(self: TerminalGame) -> None:
        state["game"] = self.game
        real_run(self)

    def typer(prompt: str) -> str:
        g = state["game"]
        return format_action(hint(g.observation(1), g.legal_actions())[0])

    monkeypatch.setattr(TerminalGame, "run", run_and_capture)
    out = io.StringIO()
    run_play(variant="mille", players=2, seed=3, rules={"stakes_small": 1}, seat=1, load=None,
             input_fn=typer, output=out)
    text = out.getvalue()
    assert text.startswith("Mille, 2 players")
    assert "red threes" not in text and "minimum" not in text
    assert "naturals" in text and "chapeau" in text and "Game over" in text
    assert "Stakes 1-3:" in text and "Not allowed" not in text


def test_scorekeeper_scores_a_mille_hand() -> None:
    """`canasta score` with Mille's values, both naturals (4x), asterisks and the chapeau."""
    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import render_sheet, score_input

    data: dict[str, Any] = {"variant": "mille", "teams": [
        {"name": "Ann", "melds": [["Kh", "Kh", "Kd", "Kd", "Ks", "Ks", "Kc", "Kc"], ["3h", "3d", "3s"]],
         "hands": [[]], "went_out": True},
        {"name": "Bob", "melds": [["7h", "7d", "2c"]], "hands": [["Qs", "Jd", "3c"]]}]}
    out = score_input(data)
    ann, bob = out["teams"]
    assert ann["total"] == 4 * 80 + 2 * 15 and ann["naturals"] == 2 and not ann["chapeau"]
    assert bob["total"] == 30 - 155 and bob["naturals"] == 0 and bob["chapeau"]
    sheet = render_sheet(data, out)
    assert "Mille" in sheet and "**" in sheet and "Chapeau" in sheet
    bad = {"variant": "mille", "teams": [{"melds": [["Kh", "Kd"]], "hands": [[]], "went_out": True},
                                         {"hands": [["4c"]]}]}
    with pytest.raises(ScoreInputError, match="at least three cards"):
        score_input(bad)
    red = {"variant": "mille", "teams": [{"threes": ["3h"], "hands": [["4c"]]}, {"hands": [["4d"]]}]}
    with pytest.raises(ScoreInputError, match="no red threes"):
        score_input(red)


def test_record_replay_reports_the_settlement() -> None:
    """`canasta replay` of a finished Mille game ends with the skunk and stakes lines."""
    from canasta.record import replay_command

    g = Game("mille", 2, 12, {"stakes_small": 2})
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    s = g.settlement()
    assert s is not None
    text = replay_command(export_record(g))
    assert f"= {s['payment']}: side {s['loser']} pays side {s['winner']} {s['payment']}." in text
    assert "all legal and matching the record" in text


def test_environments_run_mille() -> None:
    """The Gymnasium and PettingZoo environments play Mille through the shared action encoding."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    import numpy as np
    from pettingzoo.test import api_test

    from canasta.env.gym_env import CanastaGymEnv
    from canasta.env.pettingzoo_env import env as pz_env

    e = CanastaGymEnv("mille", 2, opponents="random")
    obs, _ = e.reset(seed=1)
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done and steps < 5000:
        obs, _, term, trunc, _ = e.step(int(rng.choice(obs["action_mask"].nonzero()[0])))
        done, steps = term or trunc, steps + 1
    assert done
    api_test(pz_env(variant="mille", players=2), num_cycles=200)


def test_scorekeeper_settles_the_game_from_the_scores_before_the_hand() -> None:
    """`canasta score` with 'game' (scores, naturals and chapeaux before the hand): the game end at
    1200 and the stakes - 'The larger amount once for losing the game [...] once for each natural
    scored by the winner [...] once for each of the loser's chapeaux [...] In the event of a skunk,
    the payment is doubled'."""
    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import render_sheet, score_input

    data: dict[str, Any] = {
        "variant": "mille", "rules": {"stakes_small": 1, "stakes_large": 3},
        "game": {"scores": [1090, 520], "naturals": [2, 0], "chapeaux": [0, 1]},
        "teams": [{"name": "Ann", "melds": [["Kh", "Kh", "Kd", "Kd", "Ks", "Ks", "Kc", "Kc"], ["3h", "3d", "3s"]],
                   "hands": [[]], "went_out": True},
                  {"name": "Bob", "melds": [["7h", "7d", "2c"]], "hands": [["Qs", "Jd", "3c"]]}]}
    out = score_input(data)
    game = out["game"]
    assert game["scores"] == [1440, 395] and game["winner"] == 0
    s = game["settlement"]
    assert s["winner_naturals"] == 4 and s["loser_chapeaux"] == 2 and s["hundreds"] == 10
    assert s["payment"] == (3 + 4 * 3 + 2 * 3 + 10) * 2
    assert "Bob pays Ann 62." in render_sheet(data, out)
    data["game"] = {"scores": [100, 520]}
    assert score_input(data)["game"]["winner"] is None
    data["game"] = {"scores": [100]}
    with pytest.raises(ScoreInputError, match="scores"):
        score_input(data)


def test_arena_seats_two_players_alone() -> None:
    """`canasta arena --variant mille --players basic,random` needs no --table: Mille is for two."""
    from canasta.arena import run_arena

    result = run_arena("mille", ["basic", "random"], games=2, workers=1, seed=3, hands=1)
    assert result["table"] == 2 and result["games"] == 2


def test_command_line_plays_checks_and_lists_mille(tmp_path: Any) -> None:
    """`canasta soak/bench/play --variant mille` need no --players; `legal` and `variants` know Mille."""
    from typer.testing import CliRunner

    from canasta.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["soak", "--variant", "mille", "--hands", "3"])
    assert result.exit_code == 0 and "mille, 2 players" in result.output and "no failures" in result.output
    result = runner.invoke(app, ["bench", "--variant", "mille", "--seconds", "0.3", "--json"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "--variant", "mille", "--seed", "4"], input="quit\n")
    assert result.exit_code == 0 and "Mille, 2 players, seed 4" in result.output
    result = runner.invoke(app, ["play", "--variant", "mille", "--players", "4"])
    assert result.exit_code == 2 and "mille is played by 2 players, not 4" in result.output
    g = mille(hands={0: "Qs Qh Jd Jh 5c", 1: "4c 4d"}, phase="play")
    path = tmp_path / "pos.json"
    path.write_text(g.to_json())
    result = runner.invoke(app, ["legal", str(path)])
    assert result.exit_code == 0
    assert {"0: discard Qs", "0: discard Qh", "0: discard Jd", "0: discard Jh"} <= set(result.output.split("\n"))
    result = runner.invoke(app, ["variants"])
    assert "mille: Mille (2 players)" in result.output and "stakes_small = 0" in result.output


def test_golden_record_replays_and_settles() -> None:
    """tests/data/mille-2p-seed12.txt: a whole game of two BasicPlayers at stakes 1-3, replayed and
    re-scored on every run; its result and settlement are pinned (a change of Mille's rules shows here)."""
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "mille-2p-seed12.txt").read_text()
    g = replay_record(text)
    assert export_record(g, date="2026-11-23") == text
    assert g.is_over and g.winner == 1 and g.scores == [340, 1205] and len(g.hand_results) == 6
    totals = [0, 0]
    for r in g.hand_results:
        for side, s in enumerate(r["sides"]):
            assert s["total"] == sum(s["items"].values()) and s["chapeau"] == (s["total"] < 0)
            totals[side] += s["total"]
        assert r["totals"] == totals
    s = g.settlement()
    assert s is not None
    # loser 340 -> 300, winner 1205 -> 1200: 9 hundreds; 2 chapeaux of the loser; skunk (under 600)
    assert (s["hundreds"], s["loser_chapeaux"], s["winner_naturals"], s["skunk"]) == (9, 2, 0, "skunk")
    assert s["payment"] == (3 + 0 + 2 * 3 + 9 * 1) * 2 == 36
