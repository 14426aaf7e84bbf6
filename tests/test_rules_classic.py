"""Classic Canasta: one test per rule of the texts in shared/rules.

Sources are cited as in docs/variants/classic.md: "Bicycle"
(classic-canasta-bicycle.txt), "Denexa" (triple-play-...-classic.txt, sections
"Canasta" and "Canasta for two players"), "Encyclopedia"
(encyclopedia-canasta-and-variants.txt), "Fragment"
(classic-play-going-out-scoring-fragment.txt) and "Terms"
(classic-terms-and-modern-american.txt). Each test quotes the sentence it
enforces; where the texts disagree or are unclear, the docstring names the
reading tested. Every refusal is checked for its ``rule`` and for leaving the
game exactly as it was (``helpers.assert_illegal``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import act, assert_illegal, hand_text, items, last_result, legal_texts, position

from canasta.cards import JOKER, format_card, is_red_three, parse_card
from canasta.engine.game import WILD_RANK, Game, _is_wild
from canasta.variants.classic import CLASSIC_OPTIONS, Classic

# ---------------------------------------------------------------- the cards


def test_pack_is_two_decks_and_four_jokers() -> None:
    """Bicycle 'The Deck': '108 cards made up of two 52 card decks, plus four jokers.'"""
    deck = Classic(4).deck()
    assert len(deck) == 108
    counts = Counter(deck)
    assert counts[JOKER] == 4
    assert all(counts[code] == 2 for code in range(8, 60))


@pytest.mark.parametrize(("card", "value"), [
    ("JK", 50), ("2c", 20), ("2h", 20), ("As", 20), ("Kd", 10), ("Qh", 10), ("Jc", 10), ("10s", 10),
    ("9h", 10), ("8d", 10), ("7c", 5), ("6s", 5), ("5h", 5), ("4d", 5), ("3s", 5), ("3c", 5),
    ("3h", 100), ("3d", 100),
])
def test_card_point_values(card: str, value: int) -> None:
    """Bicycle 'Point Value of Cards': 'Each Joker 50 PTS. Each Two or Ace 20 PTS. Each King,
    Queen, Jack, 10-8 10 PTS. Each 7-4, And Black Threes 5 PTS. Each Red Three 100 PTS.'"""
    assert Classic(4).values[parse_card(card)] == value


def test_jokers_and_twos_are_wild() -> None:
    """Bicycle 'Wild Cards': 'Jokers and twos of all suits are wild. All other cards are called
    natural cards.' A joker and a two each stand in a meld for a natural card."""
    for wild in ("JK", "2s", "2h", "2d", "2c"):
        assert _is_wild(parse_card(wild))
        g = position(hands={0: f"9h 9d {wild} 5c 6c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
        act(g, f"meld 9h 9d {wild}")
        assert g.melds[0][9].wilds == 1
    assert not any(_is_wild(c) for c in range(12, 60))


def test_red_three_can_never_be_melded() -> None:
    """Denexa: 'Red 3s serve as a bonus card and are simply laid in front of the player'; Encyclopedia:
    'Threes may never be melded in ordinary play'. (A red three cannot normally be in a hand; the
    position is built by hand to check the refusal.)"""
    g = position(hands={0: "3h 3d 3h 5c 6c 7c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 3h 3d 3h", "red-three")


def test_black_threes_only_meld_when_going_out() -> None:
    """Bicycle 'Melds': 'Black threes may only be melded at the time a player goes out.'"""
    g = position(hands={0: "3s 3c 3s 5c 6c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 3s 3c 3s", "black-three-timing")
    assert not any(a.kind == "meld" for a in g.legal_actions())


def test_black_threes_meld_three_or_four_without_wilds_when_going_out() -> None:
    """Fragment: 'If you hold any black threes in your hand, you may lay them down in a meld when you go
    out ... The meld must be three or four black threes and cannot contain any wild cards.'"""
    g = position(hands={0: "3s 3c 3s 2c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 3s 3c 3s 2c", "black-three-meld")
    assert_illegal(g, "meld 3s 3c", "black-three-meld")
    act(g, "meld 3s 3c 3s", "discard 2c")
    assert last_result(g)["went_out"] == 0
    g = position(hands={0: "3s 3c 3s 3c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(g, "meld 3s 3c 3s 3c")
    assert last_result(g)["went_out"] == 0 and items(g, 0)["melded_cards"] == 70 + 20


def test_black_three_meld_goes_out() -> None:
    """Fragment: black threes laid down 'when you go out'; Encyclopedia: '3 or 4 black threes may be
    melded last in the process of a player going out.' Three black threes and a final discard."""
    g = position(hands={0: "3s 3c 3s 9d"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(g, "meld 3s 3c 3s")
    assert g.hand_sizes[0] == 1
    act(g, "discard 9d")
    assert last_result(g)["went_out"] == 0
    assert items(g, 0)["melded_cards"] == 70 + 15


def test_black_three_meld_without_canasta_refused() -> None:
    """Bicycle 'Going Out': 'A player may go out only if the partnership has at least one canasta on the
    table'; black threes are melded only when going out, so without a canasta they stay in hand."""
    g = position(hands={0: "3s 3c 3s 9d"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 3s 3c 3s", "black-three-timing")


# ---------------------------------------------------------------- the deal


@pytest.mark.parametrize(("players", "size"), [(4, 11), (3, 13), (2, 15)])
def test_cards_dealt_by_player_count(players: int, size: int) -> None:
    """Bicycle 'The Deal': 'Each player receives eleven cards.' Encyclopedia 'Canasta for two or three
    players': 'In a game with three players, each player receives 13 cards. In a two player game each
    player receives 15 cards'. Red threes dealt are replaced, so every hand starts full."""
    for seed in range(8):
        g = Game("classic", players, seed)
        assert g.hand_sizes == [size] * players
        assert g.card_count() == 108
        assert len(g.stock) == 108 - players * size - len(g.pile) - sum(len(r) for r in g.red_threes)


def test_partners_sit_opposite() -> None:
    """Bicycle: 'Four, in two partnerships ... Partners must sit opposite one another.' Seats 0 and 2
    against 1 and 3, so the turn alternates between the partnerships."""
    v = Classic(4)
    assert v.num_sides == 2
    assert [v.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert [v.side_of(s) for s in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_play_alone(players: int) -> None:
    """Encyclopedia: 'the fact that each person plays individually'."""
    v = Classic(players)
    assert v.num_sides == players
    assert all(v.partner_of(s) is None for s in range(players))
    assert len({v.side_of(s) for s in range(players)}) == players


def test_two_players_draw_two_cards() -> None:
    """Denexa 'Canasta for two players': 'players draw two cards instead of one (though they still
    discard only one card)'."""
    g = position(2, hands={0: "5c 6d 9h"}, stock="Ks Qd 4h")
    act(g, "draw")
    assert hand_text(g, 0) == ["5c", "6d", "9h", "Qd", "Ks"]
    act(g, "discard 5c")
    assert g.turn == 1 and g.hand_sizes[0] == 4


def test_four_players_draw_one_card() -> None:
    """Bicycle 'Draw': 'A player, in turn, is entitled to draw only the top card from the stock.'"""
    g = position(4, hands={0: "5c 6d 9h"}, stock="Ks Qd")
    act(g, "draw")
    assert hand_text(g, 0) == ["5c", "6d", "9h", "Ks"]


def test_draw_two_with_one_card_left_draws_it() -> None:
    """Denexa: players draw two cards; with one card left in the stock the player draws that one (reading tested)."""
    g = position(2, hands={0: "5c 6d", 1: "7c"}, stock="9s", rest="pile", frozen=False)
    act(g, "draw")
    assert hand_text(g, 0) == ["5c", "6d", "9s"] and g.stock == []


def test_two_players_need_two_canastas_to_go_out() -> None:
    """Denexa 'Canasta for two players': 'two canastas are required to go out instead of one.'"""
    g = position(2, hands={0: "9h 9d 9c 5c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 9h 9d 9c", "cannot-go-out")
    g = position(2, hands={0: "9h 9d 9c 5c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd", "Qs Qh Qd Qc Qs Qh 2c"]},
                 phase="play")
    act(g, "meld 9h 9d 9c", "discard 5c")
    assert last_result(g)["went_out"] == 0


def test_upcard_turned_to_start_the_pile() -> None:
    """Bicycle 'The Deal': 'The top card of the stock is turned face up beside it and is called the
    upcard. The upcard begins the discard pile.'"""
    g = Game("classic", 4, 0)
    assert len(g.pile) == 1 and not _is_wild(g.pile[0]) and g.pile[0] >> 2 != 3


@pytest.mark.parametrize(("seed", "first"), [(17, "JK"), (1, "3d"), (51, "3h")])
def test_wild_or_red_three_upcard_is_covered_and_freezes(seed: int, first: str) -> None:
    """Bicycle: 'If the upcard is a joker, two or three, a card (or cards) from the stock must be turned up
    until a natural card appears. A wild card or three which is either on or in the pile freezes the
    pile.' Denexa: 'If the discard pile started with one of these three cards [joker, 2, red 3], it is
    considered frozen'."""
    g = Game("classic", 4, seed)
    upcards = [format_card(c) for c in g.deals[0]["upcards"]]
    assert upcards[0] == first and len(upcards) >= 2
    assert [format_card(c) for c in g.pile] == upcards
    top = g.pile[-1]
    assert not _is_wild(top) and top >> 2 != 3
    assert g.frozen and g.observation(0)["frozen"]


def test_black_three_upcard_covered_without_freezing_by_default() -> None:
    """Encyclopedia: 'If this first turned card is a red or black three, or a wild card, additional cards
    ... are turned over ... If one of these bonus cards was a wild card, it does also freeze the discard
    pile'. Reading tested (default ``black_three_freezes=false``): a covered black three upcard does not
    freeze; Bicycle's 'wild card or three ... freezes' is the ``black_three_freezes`` option."""
    g = Game("classic", 4, 32)
    assert [format_card(c) for c in g.deals[0]["upcards"]] == ["3c", "8h"]
    assert not g.frozen
    g = Game("classic", 4, 32, {"black_three_freezes": True})
    assert g.frozen


def test_red_three_upcard_taken_with_the_pile_is_not_replaced() -> None:
    """Encyclopedia: 'A bonus red three taken in this manner is not replaced by another card from the
    stock'. Bicycle: 'Players who take up a discard pile containing a red three, place the card face up
    but do not draw a new card.'"""
    g = position(hands={0: "Kh Kd 5c 6c"}, pile="3d 9s Ks", melds={0: ["Qs Qh Qd"]})
    assert g.frozen
    stock_before = len(g.stock)
    act(g, "take Kh Kd")
    assert [format_card(c) for c in g.red_threes[0]] == ["3d"]
    assert hand_text(g, 0) == ["5c", "6c", "9s"]
    assert len(g.stock) == stock_before


def test_first_hand_player_left_of_dealer_starts() -> None:
    """Bicycle 'The Play': 'The opponent to the dealer's left plays first.' Terms: 'The player to the left
    of the dealer plays first, and then the turn to play passes clockwise.'"""
    g = Game("classic", 4, 3)
    assert g.turn == (g.dealer + 1) % 4
    act(g, "draw")
    act(g, next(a for a in g.legal_actions() if a.kind == "discard"))
    assert g.turn == (g.dealer + 2) % 4


def test_dealer_rotates_left_after_each_hand() -> None:
    """Denexa: 'all cards are shuffled, and the deal passes to the left.' Bicycle: 'After the first deal,
    the deal and all play moves clockwise (left).' The next hand starts left of the new dealer."""
    g = position(hands={0: "9h 9d 9c 5c", 1: "4c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play", dealer=3)
    act(g, "meld 9h 9d 9c", "discard 5c")
    assert g.hand_no == 2 and g.dealer == 0 and g.turn == 1


# --------------------------------------------------------------- red threes


def test_dealt_red_threes_are_laid_out_and_replaced() -> None:
    """Bicycle 'Red Threes': 'players must place all red threes in hand face up on the table. Next,
    players draw new card(s) from the stock to restore their hands to eleven cards.'"""
    for seed in range(30):
        g = Game("classic", 4, seed)
        dealt = g.deals[0]["hands"]
        for seat in range(4):
            reds = [c for c in dealt[seat] if is_red_three(c)]
            assert len(g.deals[0]["replacements"][seat]) >= len(reds)
            assert not any(is_red_three(c) for c in g.hand_cards(seat))
        assert sum(len(r) for r in g.red_threes) >= sum(is_red_three(c) for h in dealt for c in h)


def test_red_three_drawn_is_laid_out_and_replaced() -> None:
    """Bicycle: 'Players who draw a red three from the stock during play must also place the card face up
    and draw again.'"""
    g = position(hands={0: "5c 6d"}, stock="3h 9s")
    act(g, "draw")
    assert [format_card(c) for c in g.red_threes[0]] == ["3h"]
    assert hand_text(g, 0) == ["5c", "6d", "9s"]


def test_red_three_last_card_of_stock_ends_play() -> None:
    """Fragment: 'Play immediately ends if the last card drawn in the stockpile is a red three, because
    there are no replacement cards for you to draw.' Nobody goes out."""
    g = position(hands={0: "Jh Jd 4c", 1: "6c"}, pile="9s", stock="3h", rest="pile",
                 melds={0: ["Ks Kh Kd"]})
    act(g, "draw")
    result = last_result(g)
    assert result["went_out"] is None
    assert items(g, 0)["red_threes"] == 100 and items(g, 0)["going_out"] == 0
    assert g.hand_no == 2


def test_red_threes_never_count_toward_the_minimum() -> None:
    """Fragment: 'Red threes score you additional points at the end of the hand, but they do not count as
    points toward laying down an initial meld.'"""
    g = position(hands={0: "5c 5d 5h 6c 6d 6h 9s 9d"}, red_threes={0: "3h 3d"}, phase="play")
    act(g, "meld 5c 5d 5h", "meld 6c 6d 6h")
    assert not g.opened[0]
    assert_illegal(g, "discard 9s", "minimum-count")


# --------------------------------------------------------------------- melds


def test_meld_three_of_a_rank() -> None:
    """Bicycle 'Melds': 'Melds are made up of three or more cards of the same rank including wild cards.
    Sequences are not valid melds in the basic game.'"""
    g = position(hands={0: "9h 9d 9c 9s 8s 7s 5c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 9h 9d", "meld-size")
    assert_illegal(g, "meld 9s 8s 7s", "meld-rank")
    act(g, "meld 9h 9d 9c 9s")
    assert g.melds[0][9].size == 4


def test_meld_needs_two_natural_cards() -> None:
    """Bicycle 'Melds': 'To be valid a meld must contain at least two natural cards ... Wild cards may never
    be melded without natural cards.'"""
    g = position(hands={0: "9h 2c 2d JK 5c 6c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 9h 2c 2d", "meld-naturals")
    assert_illegal(g, "meld 2c 2d JK", "meld-naturals")


def test_meld_at_most_three_wild_cards() -> None:
    """Bicycle 'Melds': 'not more than three wild cards'; 'Players may add only three wilds cards to a meld,
    unless the meld is a completed canasta'."""
    g = position(hands={0: "9h 9d 2c 2d 2h JK 5c 6c"}, melds={0: ["Ks Kh Kd 2s 2c JK"]}, phase="play")
    assert_illegal(g, "meld 9h 9d 2c 2d 2h JK", "wild-limit")
    assert_illegal(g, "add K 2d", "wild-limit")
    act(g, "meld 9h 9d 2c 2d 2h")  # two naturals and three wild cards (the default 'three' limit)
    assert g.melds[0][9].wilds == 3


def test_wild_cards_over_the_limit_on_a_completed_canasta() -> None:
    """Bicycle 'Canastas': 'When a canasta is completed and placed on the table, wild cards may be added to
    it, over the limit of three. However, a wild card added to a natural canasta reduces its point value
    from 500 to 300 points.'"""
    g = position(hands={0: "2h JK 5c 6c 7c"}, melds={0: ["Ks Kh Kd Kc 2s 2c JK", "Qs Qh Qd Qc Qs Qh Qd"]},
                 phase="play")
    act(g, "add K 2h", "add Q JK")
    assert g.melds[0][13].wilds == 4
    assert g.melds[0][12].wilds == 1
    assert g.observation(0)["melds"][0][1]["natural"] is False


def test_no_two_melds_of_one_rank() -> None:
    """Denexa: 'Players cannot move cards between melds, or establish two separate melds of the same rank.'"""
    g = position(hands={0: "Kc Kc Ks 5c 6c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld Kc Kc Ks", "duplicate-meld")
    act(g, "add K Kc Kc Ks")
    assert g.melds[0][13].size == 6


def test_never_add_to_opponents_meld() -> None:
    """Bicycle: 'Players may never add cards to an opponent's meld'."""
    g = position(hands={0: "Qc 5c 6c"}, melds={0: ["Ks Kh Kd"], 1: ["Qs Qh Qd"]}, phase="play")
    assert_illegal(g, "add Q Qc", "no-such-meld")


def test_canasta_is_seven_or_more_cards_natural_or_mixed() -> None:
    """Bicycle 'Canastas': 'Canastas are melds made up of seven or more cards ... A natural canasta is made up
    of seven natural cards ... Mixed canastas include one to three wild cards'."""
    g = position(hands={0: "Kc Ks 9c 9s 9d 5c 6c 7c"},
                 melds={0: ["Ks Kh Kd Kc Kh", "9h 9d 9c 2c 2d"]}, phase="play")
    obs = g.observation(0)["melds"][0]
    assert [m["canasta"] for m in obs] == [False, False]
    act(g, "add K Kc Ks", "add 9 9c 9s 9d")
    obs = g.observation(0)["melds"][0]
    assert [(m["canasta"], m["natural"]) for m in obs] == [(True, True), (True, False)]


# ------------------------------------------------------------- initial meld


@pytest.mark.parametrize(("score", "minimum"), [
    (-5, 15), (-1000, 15), (0, 50), (5, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (4995, 120), (9000, 120),
])
def test_initial_meld_minimum_by_cumulative_score(score: int, minimum: int) -> None:
    """Bicycle table: 'Minus Score 0; 0-1495 50; 1500-2995 90; 3000 or more 120'; Encyclopedia 'Negative 15'.
    Reading tested: 15 when negative (Encyclopedia/Denexa; no meld counts below 15 so Bicycle's 0 plays
    alike; ``negative_minimum`` chooses)."""
    assert Classic(4).minimum(score) == minimum
    g = position(scores=[score, 0])
    assert g.observation(0)["minimum"] == [minimum, 50]


def test_initial_meld_counts_all_melds_of_the_turn() -> None:
    """Terms: 'You are allowed to count several separate melds laid down at the same time in order to meet
    this requirement.' Bicycle 'Insufficient Melds': 'the player may correct the error by melding additional
    cards during the same turn.'"""
    g = position(hands={0: "5c 5d 5h Kh Kd Ks 7s 7h 7d 9c 9d"}, phase="play")
    act(g, "meld 5c 5d 5h")
    assert not g.opened[0]
    assert_illegal(g, "discard 9c", "minimum-count")
    act(g, "meld Kh Kd Ks")  # 45
    assert_illegal(g, "discard 9c", "minimum-count")
    act(g, "meld 7s 7h 7d")  # 60
    assert g.opened[0]
    act(g, "discard 9c")
    assert g.turn == 1


def test_initial_meld_minimum_90_at_1500() -> None:
    """Encyclopedia example: 'If a player/team has a score of 1,600 ... an initial meld of 6-6-6, K-K-K-2
    cannot be made as it scores only 65 points and the requirement is 90. A meld of 6-6-6, A-A-A-2 would
    score 95 points and can be played.'"""
    g = position(hands={0: "6c 6d 6h Kh Kd Ks 2c 9s 9d"}, scores=[1600, 0], phase="play")
    act(g, "meld 6c 6d 6h", "meld Kh Kd Ks 2c")
    assert g.pending_value == 65 and not g.opened[0]
    assert_illegal(g, "discard 9s", "minimum-count")
    g = position(hands={0: "6c 6d 6h Ah Ad As 2c 9s 9d"}, scores=[1600, 0], phase="play")
    act(g, "meld 6c 6d 6h", "meld Ah Ad As 2c")
    assert g.opened[0]
    act(g, "discard 9s")


def test_after_initial_meld_partner_melds_freely() -> None:
    """Denexa: 'After a meld has been laid down, further melding by that partnership is not subject to the
    minimums.' Terms: 'after either you or your partner have made a meld that meets the requirement, both of
    you can meld freely'."""
    g = position(hands={2: "5c 5d 5h 9s 9d"}, melds={0: ["Ks Kh Kd Kc"]}, turn=2, phase="play")
    act(g, "meld 5c 5d 5h", "discard 9s")
    assert g.turn == 3


def test_top_card_counts_toward_minimum_when_taking() -> None:
    """Bicycle: 'The minimum count may include the value of a card taken in a draw from either the stock or
    discard pile'; 'A partnership may use the top card of the discard to form the first meld.'"""
    g = position(hands={0: "Ah Ad 5c 6d"}, pile="8s As")
    assert "take Ah Ad" in legal_texts(g)
    act(g, "take Ah Ad")  # 60 points with the top ace
    assert g.opened[0]
    assert hand_text(g, 0) == ["5c", "6d", "8s"]


def test_take_for_initial_meld_needs_the_minimum() -> None:
    """Encyclopedia: 'the player/team must meet the initial meld requirement using the top card of the
    discard pile in order to pick up the pile. Only the top card is relevant'. Bicycle: 'The cards used to
    make the additional melds are separate from the first meld and any other cards in the discard pile.'
    Kings 30 points; the eights under the top card do not help."""
    g = position(hands={0: "Kh Kd 8d 5c"}, pile="8s 8h Ks")
    assert not any(a.kind == "take" for a in g.legal_actions())
    assert_illegal(g, "take Kh Kd", "minimum-count")


def test_take_for_initial_meld_completed_from_hand() -> None:
    """Bicycle 'Taking the Pile': 'If it is required to meet the minimum count, a player must make additional
    melds. The cards used to make the additional melds are separate from the first meld and any other cards in
    the discard pile.' The rest of the pile comes into the hand once the minimum is met."""
    g = position(hands={0: "Kh Kd 8d 8c 8h 5c 6c 7c"}, pile="4s 4h Ks")
    act(g, "take Kh Kd")
    assert not g.opened[0]
    assert hand_text(g, 0) == ["5c", "6c", "7c", "8h", "8d", "8c"]  # the pile waits aside
    act(g, "meld 8d 8c 8h")
    assert g.opened[0]
    assert hand_text(g, 0) == ["4s", "4h", "5c", "6c", "7c"]


def test_take_for_initial_meld_completed_from_small_hand() -> None:
    """Bicycle 'Taking the Pile': 'If it is required to meet the minimum count, a player must make additional
    melds.' The meld that reaches the minimum brings the rest of the pile into the hand, so melding down to
    one card of the hand is not going out: the player holds that card plus the pile."""
    g = position(hands={0: "Kh Kd 8d 8c 8h 5c"}, pile="4s 4h Ks")
    act(g, "take Kh Kd")
    assert "meld 8d 8c 8h" in legal_texts(g) or "meld 8h 8d 8c" in legal_texts(g)
    act(g, "meld 8d 8c 8h")
    assert g.opened[0]
    assert hand_text(g, 0) == ["4s", "4h", "5c"]


def test_retract_insufficient_meld_raises_minimum_by_ten() -> None:
    """Bicycle 'Insufficient Melds': 'A player may also retract all cards in the meld. The partnership is then
    penalized during the deal by an increase of ten points in the minimum count requirement.'"""
    g = position(hands={0: "5c 5d 5h 9s 9d"}, phase="play")
    act(g, "meld 5c 5d 5h")
    assert "retract" in legal_texts(g)
    act(g, "retract")
    assert sorted(hand_text(g, 0)) == sorted(["5c", "5d", "5h", "9s", "9d"])
    assert g.melds[0] == {} and g.minimum(0) == 60
    assert g.observation(0)["minimum"] == [60, 50]
    act(g, "discard 9s")
    assert g.turn == 1


def test_retract_only_insufficient_initial_meld() -> None:
    """Bicycle 'Insufficient Melds' covers only 'fewer cards than needed for the minimum count'; Encyclopedia:
    'No player may "undo" a meld or laid card'."""
    g = position(hands={0: "5c 5d 5h 9s 9d"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    act(g, "meld 5c 5d 5h")
    assert_illegal(g, "retract", "nothing-to-retract")


def test_retract_after_taking_pile_restores_pile() -> None:
    """Bicycle 'Insufficient Melds' retraction after taking the pile for an initial meld. Reading tested (the
    engine's): the top card goes back on the pile, the player may not take it again this turn and draws
    from the stock instead; the minimum rises by ten."""
    g = position(hands={0: "Kh Kd 8d 8c 8h 5c"}, pile="4s 4h Ks", stock="6c")
    act(g, "take Kh Kd", "retract")
    assert [format_card(c) for c in g.pile] == ["4s", "4h", "Ks"]
    assert g.phase == "draw" and g.minimum(0) == 60
    assert_illegal(g, "take Kh Kd", "pile-barred")
    act(g, "draw")
    assert "6c" in hand_text(g, 0)


# ----------------------------------------------------------- taking the pile


def test_frozen_pile_only_with_natural_pair() -> None:
    """Bicycle 'Frozen Pile': 'The pile remains frozen until a hand holding a natural matching pair takes it.'
    Denexa: 'When the discard pile is frozen, it may only be taken if its top card can be used to form a new
    meld with two or more other cards of the same rank (i.e. you cannot take a frozen discard pile to form a
    meld with two natural cards and a wild card).'"""
    g = position(hands={0: "9h 9d 2c 5c"}, pile="6c 2s 4d 9s", melds={0: ["Ks Kh Kd"]})
    assert g.frozen
    assert_illegal(g, "take 9h 2c", "pile-frozen")
    assert {a for a in legal_texts(g) if a.startswith("take")} == {"take 9h 9d"}
    act(g, "take 9h 9d")
    assert not g.frozen
    assert "2s" in hand_text(g, 0)


def test_frozen_pile_not_taken_by_adding_to_meld() -> None:
    """Bicycle: 'When the pile is not frozen, the top card of the discard may be melded with a natural card and
    wild card or be added to a meld already on the table' — so not when frozen (default;
    ``frozen_pile_add_to_meld`` allows it)."""
    g = position(hands={0: "5c 6c"}, pile="6d JK 9s", melds={0: ["9c 9d 9h"]})
    assert_illegal(g, "take", "pile-frozen")
    assert legal_texts(g) == {"draw"}


def test_pile_frozen_for_side_that_has_not_melded() -> None:
    """Bicycle 'Taking the Pile': 'A partnership may not take the discard pile unless they have made their first
    meld of the deal. A partnership may use the top card of the discard to form the first meld.' Fragment: 'If
    your team has not yet melded any cards onto the table ... the discard pile is frozen ... The exception
    ... is if you have two natural cards in your hand'."""
    g = position(hands={0: "Ah Ad 2c 5c"}, pile="8s As")
    assert not g.frozen
    assert_illegal(g, "take Ah 2c", "pile-frozen")
    act(g, "take Ah Ad")
    assert g.opened[0]


def test_unfrozen_pile_with_natural_and_wild() -> None:
    """Bicycle: 'When the pile is not frozen, the top card of the discard may be melded with a natural card and
    wild card'."""
    g = position(hands={0: "9h 2c 5c"}, pile="6d 9s", melds={0: ["Ks Kh Kd"]})
    assert "take 9h 2c" in legal_texts(g)
    act(g, "take 9h 2c")
    assert g.melds[0][9].size == 3 and g.melds[0][9].wilds == 1
    assert hand_text(g, 0) == ["5c", "6d"]


def test_unfrozen_pile_added_to_existing_meld() -> None:
    """Bicycle: 'or be added to a meld already on the table. Next, the player must take up the rest of the
    discard pile'. Denexa: 'either by forming a new meld or extending an existing one with it'."""
    g = position(hands={0: "5c"}, pile="6d 7h 9s", melds={0: ["9c 9d 9h"]})
    assert "take" in legal_texts(g)
    act(g, "take")
    assert g.melds[0][9].size == 4
    assert hand_text(g, 0) == ["5c", "7h", "6d"] or sorted(hand_text(g, 0)) == ["5c", "6d", "7h"]


def test_natural_pair_matching_existing_meld_joins_it() -> None:
    """Denexa: no 'two separate melds of the same rank': a pair shown to take the pile goes onto the side's meld."""
    g = position(hands={0: "9h 9d 5c"}, pile="6d 9s", melds={0: ["9c 9d 9h"]})
    act(g, "take 9h 9d")
    assert g.melds[0][9].size == 6 and len(g.melds[0]) == 1


@pytest.mark.parametrize("top", ["2c", "JK", "3s"])
def test_pile_topped_by_wild_or_black_three_cannot_be_taken(top: str) -> None:
    """Bicycle 'Frozen Pile': 'When the discard pile is topped by a wild card or a black three, other cards must
    be discarded on top before the pile may be taken.' Encyclopedia: 'If a wild card or a black three is on top
    of the discard pile, it may not be picked up'."""
    g = position(hands={0: "3c 3s 2d 2h JK 9h 9d"}, pile=f"9s {top}", melds={0: ["Ks Kh Kd"]})
    assert not any(a.kind == "take" for a in g.legal_actions())
    for shown in ("take 3c 3s", "take 2d 2h", "take 9h 9d", "take"):
        assert_illegal(g, shown, "pile-blocked")


def test_take_needs_cards_matching_top() -> None:
    """Denexa: 'To draw from the discards, the player must be able to immediately use the upcard in a meld'."""
    g = position(hands={0: "8h 8d 5c"}, pile="6d 9s", melds={0: ["Ks Kh Kd"]})
    assert_illegal(g, "take 8h 8d", "take-rank")
    assert_illegal(g, "take", "take-needs-meld")
    assert_illegal(g, "take 9h 9c", "not-in-hand")


def test_one_card_pile_one_card_hand() -> None:
    """Bicycle: 'When the discard pile is reduced to one card and the next player in turn has only one card,
    the player may not take the discard and go out unless forced.'; 'Going Out': 'A player holding only one
    card may not take a discard pile of only one card.'"""
    g = position(hands={0: "5c"}, pile="9s", melds={0: ["9c 9d 9h", "Ks Kh Kd Kc Ks Kh Kd"]})
    assert_illegal(g, "take", "one-card-pile")
    assert legal_texts(g) <= {"draw", "ask"}
    g = position(hands={0: "5c"}, pile="4d 9s", melds={0: ["9c 9d 9h", "Ks Kh Kd Kc Ks Kh Kd"]})
    act(g, "take")  # a pile of two may be taken


def test_one_card_pile_allowed_when_forced() -> None:
    """Bicycle: '... may not take the discard and go out unless forced.' With the stock used up the forcing rule
    applies, and the one-card pile is taken."""
    g = position(hands={0: "5c", 1: "4c"}, pile="9s", melds={0: ["9c 9d 9h", "Ks Kh Kd Kc Ks Kh Kd"]}, rest=1)
    assert g.stock == []
    assert legal_texts(g) >= {"take"}
    act(g, "take", "discard 5c")
    assert last_result(g)["went_out"] == 0


def test_rest_of_pile_goes_into_hand() -> None:
    """Bicycle: 'The player must then take the rest of the discard pile in hand.' Terms: 'Take all the remaining
    cards of the discard pile and add them to your hand.'"""
    g = position(hands={0: "9h 9d 5c"}, pile="4s 7d 2c Ah 6d 9s", melds={0: ["Ks Kh Kd"]})
    act(g, "take 9h 9d")
    assert sorted(hand_text(g, 0)) == sorted(["5c", "4s", "7d", "2c", "Ah", "6d"])
    assert g.pile == []


def test_red_three_in_taken_pile_laid_out_not_replaced() -> None:
    """Encyclopedia: 'Red 3s found in the discard pile are not replaced, however.'"""
    g = position(hands={0: "9h 9d 5c"}, pile="3h 7d 9s", melds={0: ["Ks Kh Kd"]})
    stock = list(g.stock)
    act(g, "take 9h 9d")
    assert [format_card(c) for c in g.red_threes[0]] == ["3h"]
    assert hand_text(g, 0) == ["5c", "7d"] and g.stock == stock


# ------------------------------------------------------------------ discards


def test_red_three_never_discarded() -> None:
    """Denexa: 'the player discards any card other than a red 3'. (A red three cannot normally be in hand; the
    position is built by hand.)"""
    g = position(hands={0: "3h 5c 6d"}, phase="play")
    assert_illegal(g, "discard 3h", "red-three")


def test_discarded_wild_card_freezes_pile() -> None:
    """Denexa: 'Should a red 3 or wild card end up in the discard pile, either by being the initial upcard, or
    (in the case of wild cards) by being intentionally discarded there, the discard pile is considered
    frozen.'"""
    g = position(hands={0: "2c 5c 6d", 1: "8h 4s", 2: "8s 8c 2d"}, pile="7d", melds={0: ["Ks Kh Kd"]},
                 phase="play", stock="Qs 8d")
    act(g, "discard 2c")
    assert g.frozen and g.observation(1)["frozen"]
    act(g, "draw", "discard 8h")
    assert_illegal(g, "take 8s 2d", "pile-frozen")
    act(g, "take 8s 8c")
    assert not g.frozen


def test_black_three_discard_blocks_next_player_only() -> None:
    """Fragment: 'If you discard a black three, it freezes the pile until the next discard.' Denexa: 'A player also
    cannot take the discard pile when the upcard is a black 3.' Reading tested (default
    ``black_three_freezes=false``): after another card covers it the pile is not frozen."""
    g = position(hands={0: "3s 5c 6d", 1: "9h 9d 4s 4d", 2: "4h 2c"}, pile="9s",
                 melds={0: ["4c 4d 4s"], 1: ["Qs Qh Qd"]}, phase="play", stock="Jd")
    act(g, "discard 3s")
    assert not any(a.kind == "take" for a in g.legal_actions())
    act(g, "draw", "discard 4s")
    assert not g.frozen
    assert "take 4h 2c" in legal_texts(g)


# ---------------------------------------------------------------- going out


def test_cannot_go_out_without_canasta() -> None:
    """Bicycle 'Going Out': 'A player may go out only if the partnership has at least one canasta on the table,
    or if the player melds a canasta in going out. If this requirement is not met, the player must hold at least
    one card in hand.'"""
    g = position(hands={0: "5c 5d 5h 9s"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, "meld 5c 5d 5h", "cannot-go-out")
    g = position(hands={0: "5c 5d 5h 9s"}, melds={0: ["Ks Kh Kd"]}, phase="play",
                 stock="9d")
    act(g, "discard 9s")  # keeps three cards


def test_go_out_by_melding_a_canasta_in_going_out() -> None:
    """Bicycle: '... or if the player melds a canasta in going out.'"""
    g = position(hands={0: "Kc Ks Kh Kd 9s"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    act(g, "add K Kc Ks Kh Kd", "discard 9s")
    assert last_result(g)["went_out"] == 0
    assert items(g, 0)["natural_canastas"] == 500


def test_go_out_with_final_discard() -> None:
    """Terms: 'you can go out by melding all but one of the cards in your hand and discarding this last card.'"""
    g = position(hands={0: "5c 5d 5h 9s"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(g, "meld 5c 5d 5h", "discard 9s")
    assert last_result(g)["went_out"] == 0 and items(g, 0)["going_out"] == 100


def test_go_out_without_final_discard() -> None:
    """Bicycle: 'A player does not have to discard in going out if a meld is made with all cards in hand.'"""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(g, "meld 5c 5d 5h")
    assert last_result(g)["went_out"] == 0 and g.hand_no == 2


def test_going_out_ends_the_hand_at_once() -> None:
    """Encyclopedia: 'The hand ends immediately when any player goes out.'"""
    g = position(hands={0: "5c 5d 5h 9s", 1: "4c 4d"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play")
    act(g, "meld 5c 5d 5h", "discard 9s")
    assert items(g, 1)["cards_in_hand"] == -10
    assert g.hand_no == 2 and g.hand_sizes == [11, 11, 11, 11]


def test_concealed_going_out_extra_100() -> None:
    """Bicycle 'Concealed Hand': 'A player goes out concealed when the entire hand is melded in one turn. 1) The
    player must make at least one canasta. 2) The player must not have made a prior meld. 3) The player must
    not have added any cards to a partner's melds.' Bonus: 'For going out concealed, an extra 100 Pts.'"""
    g = position(hands={0: "Kc Ks Kh Kd Kc Ks Kh 9s 9d 9c 5c"}, phase="play")
    act(g, "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "meld 9s 9d 9c", "discard 5c")
    r = last_result(g)
    assert r["went_out"] == 0 and r["concealed"]
    assert items(g, 0)["going_out"] == 100 and items(g, 0)["concealed"] == 100


def test_not_concealed_after_adding_to_partners_meld() -> None:
    """Bicycle 'Concealed Hand': '3) The player must not have added any cards to a partner's melds.'"""
    g = position(hands={0: "Kc Ks Kh Kd Kc Ks Kh 9s 5c"}, melds={0: ["9c 9d 9h"]}, phase="play")
    act(g, "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "add 9 9s", "discard 5c")
    assert not last_result(g)["concealed"] and items(g, 0)["concealed"] == 0


def test_not_concealed_after_prior_meld() -> None:
    """Bicycle 'Concealed Hand': '2) The player must not have made a prior meld.'"""
    g = position(hands={0: "Kc Ks Kh Kd Kc Ks Kh 5c"}, melds={0: ["9c 9d 9h"]}, melded_before=[True, False, False, False],
                 phase="play")
    act(g, "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "discard 5c")
    assert not last_result(g)["concealed"]


def test_concealed_from_stock_need_not_meet_minimum() -> None:
    """Bicycle 'Concealed Hand': 'If the holder of the concealed hand has only drawn from stock, then the minimum
    count need not be met. In both cases, the minimum count is met without the canasta bonus.'"""
    g = position(hands={0: "4s 4h 4d 4c 4s 4h 4d 9c"}, scores=[3000, 0], phase="play")
    act(g, "meld 4s 4h 4d", "add 4 4c 4s 4h 4d", "discard 9c")
    assert last_result(g)["concealed"] and items(g, 0)["concealed"] == 100


def test_insufficient_meld_not_concealed_cannot_go_out() -> None:
    """Bicycle 'Concealed Hand': minimum waived only for a concealed hand drawn from stock; 'the minimum count is
    met without the canasta bonus'. A side that has not reached its minimum may not go out otherwise."""
    g = position(hands={2: "4s 4h 4d 4c 4s 4h 4d 9c"}, scores=[3000, 0], melded_before=[False, False, True, False],
                 turn=2, phase="play")
    act(g, "meld 4s 4h 4d")
    assert_illegal(g, "add 4 4c 4s 4h 4d", "cannot-go-out")


# ------------------------------------------------------ partner, may I go out


def _ask_position(**kw: object) -> Game:
    return position(hands={0: "5c 5d 5h", 1: "6c 6d 6h", 2: "Qc"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"],
                    1: ["Js Jh Jd Jc Js Jh Jd"]}, stock="9d 4c 4d", **kw)  # type: ignore[arg-type]


def test_ask_partner_answers_yes_or_no() -> None:
    """Bicycle: 'If able to go out, a player may ask, "Partner, may I go out?" ... a partner must answer "Yes" or
    "No".' Only the partner may act, and only by answering."""
    g = _ask_position()
    assert "ask" in legal_texts(g)
    act(g, "ask")
    assert g.actor == 2 and legal_texts(g) == {"yes", "no"}
    assert_illegal(g, "draw", "answer-pending")
    act(g, "yes")
    assert g.actor == 0 and g.phase == "draw" and g.permission is True


def test_answer_no_forbids_going_out_this_turn() -> None:
    """Encyclopedia: 'If the partner refuses permission, the player may not go out this turn.' Bicycle: 'The
    answer is binding.'"""
    g = _ask_position()
    act(g, "ask", "no", "draw")
    assert_illegal(g, "meld 5c 5d 5h", "cannot-go-out")
    act(g, "discard 9d")
    assert g.turn == 1 and g.hand_no == 1


def test_answer_yes_then_not_going_out_is_penalised() -> None:
    """Encyclopedia: 'If the partner responds "yes", the player must go out this turn.' Denexa 'Penalties': 'Not
    being able to go out after having asked "May I go out?": -100 points.' Reading tested: not going out is
    allowed but costs the side 100 at the end of the hand."""
    g = _ask_position()
    act(g, "ask", "yes", "draw", "discard 9d")
    act(g, "draw", "meld 6c 6d 6h", "discard 4c")  # seat 1 goes out
    assert items(g, 0)["failed_go_out"] == -100
    assert "failed_go_out" not in items(g, 1)


def test_answer_yes_and_going_out_no_penalty() -> None:
    """Bicycle: 'The answer is binding.' A player told yes who goes out pays nothing."""
    g = _ask_position()
    act(g, "ask", "yes", "draw", "meld 5c 5d 5h", "discard 9d")
    assert last_result(g)["went_out"] == 0 and "failed_go_out" not in items(g, 0)


def test_answer_no_binds_only_this_turn() -> None:
    """Encyclopedia: 'If the partner refuses permission, the player may not go out this turn.' On the player's next
    turn the refusal no longer applies."""
    g = position(hands={0: "5c 5d 5h", 1: "6c", 2: "Qc", 3: "Jc"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]},
                 stock="9d 4c 4d 8s 7s")
    act(g, "ask", "no", "draw", "discard 9d")
    act(g, "draw", "discard 4c", "draw", "discard 4d", "draw", "discard 8s")  # seats 1, 2, 3
    assert g.turn == 0 and g.permission is None
    act(g, "draw", "meld 5c 5d 5h", "discard 7s")
    assert last_result(g)["went_out"] == 0


def test_ask_only_before_melding_or_taking() -> None:
    """Bicycle: 'A player may ask permission to go out only before drawing from stock or after drawing from stock.
    Players may not ask for permission after melding or after showing an intention to take the discard pile.'"""
    g = _ask_position()
    act(g, "draw")
    assert "ask" in legal_texts(g)
    act(g, "meld 5c 5d 5h")
    assert_illegal(g, "ask", "ask-timing")
    g = position(hands={0: "9h 9d 5c 6c"}, pile="9s", melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]})
    act(g, "take 9h 9d")
    assert_illegal(g, "ask", "ask-timing")


def test_ask_once_per_turn() -> None:
    """Bicycle: the answer 'is binding' — asking again for another answer is refused."""
    g = _ask_position()
    act(g, "ask", "no")
    assert_illegal(g, "ask", "ask-timing")


def test_ask_needs_canasta() -> None:
    """Bicycle: 'If able to go out, a player may ask'. Reading tested (the engine's): the side must already have
    the canastas needed to go out."""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Ks Kh Kd"]})
    assert_illegal(g, "ask", "ask-timing")


def test_no_partner_to_ask_with_two_or_three_players() -> None:
    """Bicycle: 'Partner, may I go out?' needs a partner; with two or three players each plays alone."""
    g = position(3, hands={0: "5c 5d 5h"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]})
    assert_illegal(g, "ask", "no-partner")
    assert_illegal(g, "yes", "nothing-to-answer")


# --------------------------------------------------------- end of the stock


def test_forcing_must_take_discard_matching_meld() -> None:
    """Bicycle 'Forcing': 'When the stock is used up, players must take and meld the card discarded by the opponent
    on their right, as long as the meld is legal.' Reading tested (default ``stock_out=forced_if_matches``): the
    take is forced when the top card can be added to a meld of the side."""
    g = position(hands={0: "4c 5c", 1: "6c"}, pile="9s", melds={0: ["9c 9d 9h"], 1: ["Qs Qh Qd"]}, rest="pile",
                 frozen=False)
    assert g.stock == []
    assert legal_texts(g) == {"take"}
    assert_illegal(g, "end", "forced-take")
    assert_illegal(g, "draw", "stock-empty")
    act(g, "take")
    assert g.melds[0][9].size == 4


def test_stock_used_up_play_ends_when_player_cannot_take() -> None:
    """Bicycle 'Forcing': 'When a player may not legally take the discard, or chooses not to take the discard, play
    ends.' Nobody goes out."""
    g = position(hands={0: "Jh Jd 4c", 1: "6c"}, pile="9s", melds={0: ["Kc Kd Kh"], 1: ["Qs Qh Qd"]}, rest="pile",
                 frozen=False)
    assert legal_texts(g) == {"end"}
    act(g, "end")
    r = last_result(g)
    assert r["went_out"] is None
    assert items(g, 0)["going_out"] == 0 and items(g, 1)["going_out"] == 0


def test_stock_used_up_player_may_decline_pair_take() -> None:
    """Bicycle 'Forcing': '... or chooses not to take the discard, play ends.' Fragment: 'play can continue until
    a player does not wish to draw by taking the discard pile.' A take with a pair is allowed, not forced."""
    g = position(hands={0: "9h 9d 4c", 1: "6c"}, pile="9s", melds={0: ["Kc Kd Kh"], 1: ["Qs Qh Qd"]}, rest="pile",
                 frozen=False)
    assert legal_texts(g) == {"take 9h 9d", "end"}
    act(g, "end")
    assert last_result(g)["went_out"] is None


def test_play_continues_after_last_card_drawn() -> None:
    """Fragment: 'If the final card drawn is not a red three, play can continue until a player does not wish to
    draw by taking the discard pile.'"""
    g = position(hands={0: "4c 5c", 1: "6c"}, pile="Qs", stock="7h", rest="pile", frozen=False,
                 melds={0: ["Kc Kd Kh"], 1: ["7s 7d 7c"]})
    act(g, "draw", "discard 7h")
    assert g.hand_no == 1 and g.turn == 1 and legal_texts(g) == {"take"}


# ------------------------------------------------------------------- scoring


def test_score_melded_cards_minus_cards_in_hand() -> None:
    """Bicycle 'Scoring the Deal': 'Add the total point values of all melded cards for the partnership and subtract
    the point value of all cards left in the partnership's hand.' Both partners' hands count."""
    g = position(hands={0: "5c 5d 5h 9s", 1: "Ah JK", 2: "Kc 4d", 3: "2c"},
                 melds={0: ["Qs Qh Qd Qc Qs Qh Qd", "As Ah 2d"], 1: ["8s 8h 8d"]}, phase="play")
    act(g, "meld 5c 5d 5h", "discard 9s")
    s0 = items(g, 0)
    assert s0["melded_cards"] == 70 + 60 + 15 and s0["cards_in_hand"] == -15
    assert s0["natural_canastas"] == 500 and s0["going_out"] == 100
    assert last_result(g)["sides"][0]["total"] == 145 - 15 + 500 + 100
    s1 = items(g, 1)
    assert s1["melded_cards"] == 30 and s1["cards_in_hand"] == -(20 + 50 + 20)
    assert last_result(g)["sides"][1]["total"] == 30 - 90
    assert g.scores == [730, -60]


def test_natural_and_mixed_canasta_bonuses() -> None:
    """Bicycle: 'For each natural canasta 500 Pts. For each mixed canasta 300 Pts.' 'A canasta with more than seven
    cards does not receive an additional bonus.'"""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd Qc", "Js Jh Jd Jc 2c 2d JK 2h", "9s 9h 9d"]},
                 phase="play")
    act(g, "meld 5c 5d 5h")
    assert items(g, 0)["natural_canastas"] == 500 and items(g, 0)["mixed_canastas"] == 300


def test_red_three_bonus_100_each() -> None:
    """Bicycle: 'Players receive a bonus of 100 points for each red three ... The values of the cards are added to
    the score of the partnership if it has made a meld.'"""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, red_threes={0: "3h 3d", 1: "3h"},
                 phase="play")
    act(g, "meld 5c 5d 5h")
    assert items(g, 0)["red_threes"] == 200


def test_all_four_red_threes_200_each() -> None:
    """Bicycle: 'If one partnership holds all red threes, the cards have a value of 200 points each.'
    Encyclopedia: 'If all four red threes are held 800'."""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, red_threes={0: "3h 3d 3h 3d"},
                 phase="play")
    act(g, "meld 5c 5d 5h")
    assert items(g, 0)["red_threes"] == 800


def test_red_threes_count_against_side_without_melds() -> None:
    """Bicycle: 'If a partnership makes no melds by the end of play, the point value is subtracted from their
    score.' Encyclopedia: 'if a team has three red threes but had not yet made any melds ... the team will
    suffer a penalty of 300 points'."""
    g = position(hands={0: "5c 5d 5h", 1: "9d"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, red_threes={1: "3h 3d 3h"},
                 phase="play")
    act(g, "meld 5c 5d 5h")
    assert items(g, 1)["red_threes"] == -300
    assert last_result(g)["sides"][1]["total"] == -310


def test_cumulative_scores_decide_next_minimum() -> None:
    """Bicycle 'Scoring the Game': 'Each entry should show the scores of the previous deal together with the
    accumulated totals (which determine initial meld requirement).'"""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd", "As Ah Ad As Ah Ad 2c"]},
                 scores=[1000, 0], phase="play")
    act(g, "meld 5c 5d 5h")
    assert g.scores[0] == 1000 + last_result(g)["sides"][0]["total"] >= 1500
    assert g.minimum(0) == 90


def test_game_to_5000_final_deal_played_out() -> None:
    """Bicycle: 'The side that first reaches a total of 5,000 wins a game. The final deal is played out, even
    though one or both sides have surely reached 5,000.' Denexa: 'If one or both partnerships has exceeded a score
    of 5,000, the partnership with the higher score at that point wins.'"""
    g = position(hands={0: "5c 5d 5h", 1: "9d"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, scores=[4500, 4990],
                 phase="play")
    act(g, "meld 5c 5d 5h")
    assert g.is_over and g.scores[0] > 5000 and g.scores[1] < 5000 and g.winner == 0
    assert g.legal_actions() == []
    assert_illegal(g, "draw", "game-over")


def test_game_both_over_5000_higher_wins() -> None:
    """Denexa: 'If one or both partnerships has exceeded a score of 5,000, the partnership with the higher score at
    that point wins.'"""
    g = position(hands={0: "5c 5d 5h", 1: "9d"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"], 1: ["Js Jh Jd"]},
                 scores=[4900, 5700], phase="play")
    act(g, "meld 5c 5d 5h")
    assert g.is_over and g.winner == 1


def test_game_tied_over_5000_plays_another_hand() -> None:
    """Denexa: 'the partnership with the higher score at that point wins.' The texts do not say what a tie at the top
    does; reading tested (the engine's): another hand is played."""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, scores=[4400, 5085], phase="play")
    act(g, "meld 5c 5d 5h")
    assert g.scores == [5085, 5085]
    assert not g.is_over and g.hand_no == 2


def test_concealed_going_out_after_taking_pile_meeting_minimum() -> None:
    """Bicycle 'Concealed Hand': 'the holder of the concealed hand must meet the minimum count if he or she has taken
    the discarded pile.' Taking with a pair of aces (60) meets it; the rest of the hand is melded in the turn."""
    g = position(hands={0: "Ah Ad Kc Ks Kh Kd Kc Ks Kh"}, pile="9c As")
    act(g, "take Ah Ad", "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "discard 9c")
    assert last_result(g)["went_out"] == 0 and last_result(g)["concealed"]


def test_game_continues_below_5000() -> None:
    """Denexa: 'if neither partnership has reached 5,000 points, all cards are shuffled, and the deal passes to the
    left.'"""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, scores=[3000, 0], phase="play")
    act(g, "meld 5c 5d 5h")
    assert not g.is_over and g.hand_no == 2 and g.scores[0] < 5000


# ------------------------------------------------------------ table options


def test_every_option_has_help_and_source() -> None:
    """Each table rule names the text it comes from (docs/variants/classic.md)."""
    for opt in CLASSIC_OPTIONS.values():
        assert opt.help and opt.source


def test_option_hand_size() -> None:
    """Encyclopedia: 'A number of cards other than 11 may be dealt at the beginning of the game, 13 and 15 being common
    choices.'"""
    g = Game("classic", 4, 1, {"hand_size": 13})
    assert g.hand_sizes == [13] * 4


def test_option_draw_count() -> None:
    """Encyclopedia: 'draw two cards rather than one each turn.'"""
    g = position(4, hands={0: "5c"}, stock="Ks Qd", rules={"draw_count": 2})
    act(g, "draw")
    assert hand_text(g, 0) == ["5c", "Qd", "Ks"]


def test_option_canastas_to_go_out() -> None:
    """Encyclopedia: 'Require that two canastas be played in order to go out in four-player'."""
    g = position(hands={0: "5c 5d 5h 9s"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play",
                 rules={"canastas_to_go_out": 2})
    assert_illegal(g, "meld 5c 5d 5h", "cannot-go-out")


def test_option_natural_canastas_to_go_out() -> None:
    """Encyclopedia: 'Variation on the above: Require one or both to be natural canastas.'"""
    rules = {"natural_canastas_to_go_out": 1}
    g = position(hands={0: "5c 5d 5h 9s"}, melds={0: ["Ks Kh Kd Kc Ks Kh 2d"]}, phase="play", rules=rules)
    assert_illegal(g, "meld 5c 5d 5h", "cannot-go-out")
    g = position(hands={0: "5c 5d 5h 9s"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play", rules=rules)
    act(g, "meld 5c 5d 5h", "discard 9s")
    assert last_result(g)["went_out"] == 0


def test_option_wild_limit_not_more_than_naturals() -> None:
    """Encyclopedia: 'A meld must consist of at least two natural cards, and can never have more wild cards than
    natural cards ... 9-9-2-2-2-Joker is not legal as it contains more wild cards than natural cards.'"""
    g = position(hands={0: "9h 9d 2c 2d 2h 5c 6c"}, melds={0: ["Ks Kh Kd"]}, phase="play",
                 rules={"wild_limit": "not_more_than_naturals"})
    assert_illegal(g, "meld 9h 9d 2c 2d 2h", "wild-limit")
    act(g, "meld 9h 9d 2c 2d")
    g = position(hands={0: "9h 9d 2c 2d 2h 5c 6c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    act(g, "meld 9h 9d 2c 2d 2h")  # default: three wild cards with two naturals


def test_option_wild_limit_not_more_than_naturals_on_canasta() -> None:
    """docs/variants/classic.md: with ``wild_limit=not_more_than_naturals`` 'even a canasta never has more wild than
    natural cards' (Encyclopedia: 'can never have more wild cards than natural cards'); by default a completed
    canasta takes any number (Bicycle 'over the limit of three')."""
    g = position(hands={0: "JK 2h 5c"}, melds={0: ["Ks Kh Kd Kc 2s 2c 2d"]}, phase="play",
                 rules={"wild_limit": "not_more_than_naturals"})
    act(g, "add K JK")
    assert_illegal(g, "add K 2h", "wild-limit")
    g = position(hands={0: "JK 2h 5c"}, melds={0: ["Ks Kh Kd Kc 2s 2c 2d"]}, phase="play")
    act(g, "add K JK", "add K 2h")
    assert g.melds[0][13].wilds == 5


def test_option_black_three_freezes() -> None:
    """Bicycle 'Frozen Pile': 'The discard pile is frozen any time it contains ... a black three.'"""
    g = position(hands={0: "3s 5c 6d", 1: "9h 9d 4s 4d", 2: "4h 2c"}, pile="9s",
                 melds={0: ["4c 4d 4s"], 1: ["Qs Qh Qd"]}, phase="play", stock="Jd",
                 rules={"black_three_freezes": True})
    act(g, "discard 3s", "draw", "discard 4s")
    assert g.frozen
    assert_illegal(g, "take 4h 2c", "pile-frozen")


def test_option_black_three_upcard_not_covered() -> None:
    """Denexa covers only 'a joker, 2, or red 3' upcard: with ``black_three_upcard_covered=false`` a black three
    upcard stays on top (and the first player cannot take the pile)."""
    g = Game("classic", 4, 32, {"black_three_upcard_covered": False})
    assert [format_card(c) for c in g.pile] == ["3c"]
    assert not any(a.kind == "take" for a in g.legal_actions())


def test_option_always_frozen() -> None:
    """Encyclopedia: 'require that a natural pair be played on the same turn that the pile is picked up (i.e., the pile
    is always frozen).'"""
    g = position(hands={0: "9h 2c 5c"}, pile="6d 9s", melds={0: ["Ks Kh Kd", "9c 9d 9h"]},
                 rules={"always_frozen": True})
    assert_illegal(g, "take 9h 2c", "pile-frozen")
    assert_illegal(g, "take", "pile-frozen")
    assert g.observation(0)["frozen"]


def test_option_frozen_pile_add_to_meld() -> None:
    """Table rule: a frozen pile may also be taken by adding the top card to an existing meld of the side."""
    g = position(hands={0: "5c 6c"}, pile="6d JK 9s", melds={0: ["9c 9d 9h"]},
                 rules={"frozen_pile_add_to_meld": True})
    assert "take" in legal_texts(g)
    act(g, "take")
    assert g.melds[0][9].size == 4 and "JK" in hand_text(g, 0)


@pytest.mark.parametrize(("value", "minimum"), [(0, 0), (15, 15), (50, 50)])
def test_option_negative_minimum(value: int, minimum: int) -> None:
    """Bicycle 'Minus Score 0'; Encyclopedia 'Negative 15'."""
    g = position(scores=[-100, 0], rules={"negative_minimum": value})
    assert g.minimum(0) == minimum


def test_option_negative_minimum_50_changes_play() -> None:
    """With ``negative_minimum=50`` a side below zero cannot open with 45 points."""
    g = position(hands={0: "Kh Kd Ks 5c 5d 5h 9s 9d 9c"}, scores=[-100, 0], phase="play", rules={"negative_minimum": 50})
    act(g, "meld Kh Kd Ks", "meld 5c 5d 5h")
    assert_illegal(g, "discard 9s", "minimum-count")


def test_option_fifty_below_1500() -> None:
    """Encyclopedia: 'Require that all players with less than 1,500 points meld 50, even with a negative score.'"""
    assert position(scores=[-100, 0], rules={"fifty_below_1500": True}).minimum(0) == 50
    assert position(scores=[-100, 0]).minimum(0) == 15


def test_option_retract_raises_minimum() -> None:
    """Bicycle 'an increase of ten points in the minimum count'; the table may choose another amount."""
    g = position(hands={0: "5c 5d 5h 9s 9d"}, phase="play", rules={"retract_raises_minimum": 25})
    act(g, "meld 5c 5d 5h", "retract")
    assert g.minimum(0) == 75


def test_option_concealed_rule_side() -> None:
    """Encyclopedia: 'going out without the partnership having previously melded anything' (``concealed_rule=side``)
    versus Bicycle 'The player must not have made a prior meld' (default ``player``)."""
    hand = {2: "Kc Ks Kh Kd Kc Ks Kh 5c"}
    g = position(hands=hand, melds={0: ["9c 9d 9h"]}, turn=2, phase="play")
    act(g, "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "discard 5c")
    assert last_result(g)["concealed"]
    g = position(hands=hand, melds={0: ["9c 9d 9h"]}, turn=2, phase="play", rules={"concealed_rule": "side"})
    act(g, "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "discard 5c")
    assert not last_result(g)["concealed"]


def test_option_concealed_bonus() -> None:
    """Encyclopedia: 'Consider increasing the concealed canasta bonus to 250 or 500 points'."""
    g = position(hands={0: "Kc Ks Kh Kd Kc Ks Kh 5c"}, phase="play", rules={"concealed_bonus": 250})
    act(g, "meld Kc Ks Kh", "add K Kd Kc Ks Kh", "discard 5c")
    assert items(g, 0)["concealed"] == 250


def test_option_going_out_bonus() -> None:
    """Bicycle 'For going out 100 Pts.'; the table may choose another amount."""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, phase="play",
                 rules={"going_out_bonus": 300})
    act(g, "meld 5c 5d 5h")
    assert items(g, 0)["going_out"] == 300


def test_option_seven_canastas_win() -> None:
    """Encyclopedia: 'any player/team that manages to meld 7 canastas in one hand (natural or mixed) automatically gain
    5000 points and thus win the game.'"""
    melds = [f"{r}s {r}h {r}d {r}c {r}s {r}h {r}d" for r in ("A", "K", "Q", "J", "10", "9")]
    hands = {0: "8s 8h 8d 8c 8s 8h 8d"}
    g = position(hands=hands, melds={0: melds}, phase="play", rules={"seven_canastas_win": True})
    act(g, "meld 8s 8h 8d", "add 8 8c 8s 8h 8d")
    assert items(g, 0)["seven_canastas"] == 5000 and g.is_over and g.winner == 0
    g = position(hands=hands, melds={0: melds}, phase="play")
    act(g, "meld 8s 8h 8d", "add 8 8c 8s 8h 8d")
    assert "seven_canastas" not in items(g, 0) and not g.is_over


def test_option_wild_canastas() -> None:
    """Encyclopedia: 'Allowing canastas made entirely of wild cards (this is allowed in Uruguayan and Bolivian
    Rummy)'."""
    g = position(hands={0: "2c 2d JK 5c 6c"}, melds={0: ["Ks Kh Kd"]}, phase="play", rules={"wild_canastas": True})
    act(g, "meld 2c 2d JK")
    assert g.melds[0][WILD_RANK].size == 3


def test_option_wild_canastas_score_as_natural() -> None:
    """docs/variants/classic.md: melds of wild cards only, 3 to 7 cards, 'a complete one scores 500'."""
    g = position(hands={0: "2h 2d 2c JK 2s 2h 2d 5c"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd"]}, phase="play",
                 rules={"wild_canastas": True})
    act(g, "meld 2h 2d 2c", "add W JK 2s 2h 2d")
    assert_illegal(g, "add W JK", "not-in-hand")
    act(g, "discard 5c")
    assert items(g, 0)["natural_canastas"] == 1000 and items(g, 0)["melded_cards"] == 70 + 6 * 20 + 50


def test_option_jokers() -> None:
    """Encyclopedia: 'Play with a modified deck, such as six, two, or zero jokers'."""
    for n in (0, 2, 6):
        deck = Classic(4, {"jokers": n}).deck()
        assert len(deck) == 104 + n and deck.count(JOKER) == n
        g = Game("classic", 4, 5, {"jokers": n})
        assert g.card_count() == 104 + n


def test_option_seven_of_each() -> None:
    """Encyclopedia: '... or only 7 of each meldable card.'"""
    deck = Classic(4, {"seven_of_each": True}).deck()
    counts = Counter(c >> 2 for c in deck if c != JOKER)
    assert all(counts[r] == 7 for r in range(4, 15)) and counts[2] == 8 and counts[3] == 8
    assert len(deck) == 108 - 11


def test_option_stock_reshuffle() -> None:
    """Encyclopedia: 'When the stock is depleted, consider flipping over the discard pile and turning it into a new
    stock to extend play.'"""
    g = position(hands={0: "Jh Jd 4c", 1: "6c"}, pile="9s", rest="pile", frozen=False,
                 rules={"stock_reshuffle": True})
    assert "draw" in legal_texts(g)
    pile_size = len(g.pile)
    act(g, "draw")
    assert g.pile == [] and g.reshuffles == 1 and g.hand_sizes[0] == 4
    assert len(g.stock) + len(g.red_threes[0]) == pile_size - 1


def test_option_stock_out_optional() -> None:
    """``stock_out=optional``: Bicycle's 'or chooses not to take the discard' read as never forced."""
    g = position(hands={0: "4c 5c", 1: "6c"}, pile="9s", melds={0: ["9c 9d 9h"]}, rest="pile", frozen=False,
                 rules={"stock_out": "optional"})
    assert legal_texts(g) == {"take", "end"}
    act(g, "end")
    assert last_result(g)["went_out"] is None


def test_option_stock_out_end() -> None:
    """Encyclopedia: 'If the stock is completely depleted when a player is required to draw a card, the hand ends
    immediately, that is, neither team gets the going out bonus.'"""
    g = position(hands={0: "4c 5c", 1: "9h 9d"}, pile="Qs", stock="7h", rest="pile", frozen=False,
                 melds={0: ["Kc Kd Kh"], 1: ["7s 7d 7c"]}, rules={"stock_out": "end"})
    act(g, "draw", "discard 7h")
    assert g.hand_no == 2 and last_result(g)["went_out"] is None


def test_option_red_three_last_card_meld_then_end() -> None:
    """Denexa: 'If, however, the final card of the stock is a red 3 ... The player taking the 3 declares it as usual,
    then does any melding possible, after which play ceases. This player is not entitled to discard.'"""
    g = position(hands={0: "5c 5d 5h 9s 9d", 1: "6c"}, stock="3h", rest="pile", frozen=False,
                 melds={0: ["Kc Kd Kh"]}, rules={"red_three_last_card": "meld_then_end"})
    act(g, "draw")
    assert g.hand_no == 1 and "end" in legal_texts(g)
    assert_illegal(g, "discard 9s", "no-discard")
    act(g, "meld 5c 5d 5h", "end")
    assert g.hand_no == 2 and last_result(g)["went_out"] is None
    assert items(g, 0)["melded_cards"] == 45 and items(g, 0)["red_threes"] == 100
    g = position(hands={0: "5c 5d 5h 9s 9d", 1: "6c"}, stock="3h", rest="pile", frozen=False,
                 melds={0: ["Kc Kd Kh"]})
    act(g, "draw")
    assert g.hand_no == 2  # default 'end': play ends at once


def test_option_red_three_last_card_meld_down_to_one_card() -> None:
    """Denexa: the player 'does any melding possible, after which play ceases. This player is not entitled to
    discard.' Melding all but one card is not going out (the card stays in hand), so it needs no canasta."""
    g = position(hands={0: "5c 5d 5h 9s", 1: "6c"}, stock="3h", rest="pile", frozen=False,
                 melds={0: ["Kc Kd Kh"]}, rules={"red_three_last_card": "meld_then_end"})
    act(g, "draw", "meld 5c 5d 5h", "end")
    assert items(g, 0)["melded_cards"] == 45 and items(g, 0)["cards_in_hand"] == -10


def test_option_red_three_last_card_end_needs_minimum() -> None:
    """Denexa: 'does any melding possible, after which play ceases'; Bicycle 'Insufficient Melds': melds below the
    minimum count are corrected or retracted. Ending play with a pending 15-point initial meld is refused."""
    g = position(hands={0: "5c 5d 5h 9s 9d 8c", 1: "6c"}, stock="3h", rest="pile", frozen=False,
                 rules={"red_three_last_card": "meld_then_end"})
    act(g, "draw", "meld 5c 5d 5h")
    assert legal_texts(g) == {"retract"}
    assert_illegal(g, "end", "minimum-count")


def test_option_only_top_card_usable() -> None:
    """Encyclopedia: 'When picking up the discard pile, only the top card can be used in this turn. The remaining cards
    picked up can then be used in subsequent turns.'"""
    pile = "4s 4h 4d 9s"
    g = position(hands={0: "9h 9d 5c 6c"}, pile=pile, melds={0: ["Ks Kh Kd"]}, rules={"only_top_card_usable": True})
    act(g, "take 9h 9d")
    assert_illegal(g, "meld 4s 4h 4d", "pile-cards-unusable")
    act(g, "discard 4s")  # discarding them is allowed
    g = position(hands={0: "9h 9d 5c 6c"}, pile=pile, melds={0: ["Ks Kh Kd"]})
    act(g, "take 9h 9d", "meld 4s 4h 4d")


def test_option_target_score() -> None:
    """Bicycle 'Game score is 5,000'; the table may play to another total."""
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, phase="play", rules={"target_score": 500})
    act(g, "meld 5c 5d 5h")
    assert g.is_over and g.winner == 0


def test_option_failed_go_out_penalty() -> None:
    """Denexa: 'Not being able to go out after having asked "May I go out?": -100 points.' The amount is a table rule."""
    g = _ask_position(rules={"failed_go_out_penalty": 40})
    act(g, "ask", "yes", "draw", "discard 9d", "draw", "meld 6c 6d 6h", "discard 4c")
    assert items(g, 0)["failed_go_out"] == -40


# ---------------------------------------------------------------- readings the texts disagree on (issue 17.8)
def test_option_stock_out_compulsory_denexa_takes_whenever_legal() -> None:
    """Denexa: 'play continues with players taking the discard pile, melding if able, and discarding, until a
    player goes out as normal, or is unable to take the discard pile, at which point the hand ends'."""
    g = position(hands={0: "4c 9s 9h", 1: "6c"}, pile="9d", rest="pile", frozen=False,
                 melds={0: ["Kc Kd Kh"]}, rules={"stock_out": "compulsory"})
    assert "end" not in legal_texts(g) and "take 9s 9h" in legal_texts(g)
    assert_illegal(g, "end", "forced-take")
    unable = position(hands={0: "4c 5c", 1: "6c"}, pile="9d", rest="pile", frozen=False,
                      melds={0: ["Kc Kd Kh"]}, rules={"stock_out": "compulsory"})
    assert legal_texts(unable) == {"end"}


def test_option_unmelded_pile_frozen_false_bicycle_freezes_only_by_wild_card_or_three() -> None:
    """Fragment: 'If your team has not yet melded any cards onto the table ... the discard pile is frozen' (default);
    Bicycle, Denexa and the Encyclopedia freeze the pile only by a wild card or a three, so a side that has not
    melded takes an unfrozen pile with a natural card and a wild card (Bicycle: 'When the pile is not frozen, the
    top card of the discard may be melded with a natural card and wild card')."""
    hands = {0: "Ks 2c 9h 9d 9c 7s 7h 7d 6c 4c"}
    fragment = position(hands=hands, pile="5s Kh", frozen=False)
    assert "take Ks 2c" not in legal_texts(fragment)
    assert_illegal(fragment, "take Ks 2c", "pile-frozen")
    bicycle = position(hands=hands, pile="5s Kh", frozen=False, rules={"unmelded_pile_frozen": False})
    assert "take Ks 2c" in legal_texts(bicycle)
    act(bicycle, "take Ks 2c")
    assert bicycle.pending_value == 10 + 20 + 10


def test_option_initial_meld_from_hand_terms_does_not_count_the_top_card() -> None:
    """Terms: 'In our game (including Modern American), the initial meld must be made entirely from your hand';
    Bicycle (default): 'A partnership may use the top card of the discard to form the first meld'."""
    hands = {0: "Ah Ad Kh Kd Kc 6s 7c 8d 9s 4c"}  # with the A on the pile: A A A 60 + K K K 30 = 90 (minimum 50)
    bicycle = position(hands=hands, pile="5s Ac", frozen=False)
    act(bicycle, "take Ah Ad")
    assert bicycle.pending_value == 60
    terms = position(hands=hands, pile="5s Ac", frozen=False, rules={"initial_meld_from_hand": True})
    act(terms, "take Ah Ad")
    assert terms.pending_value == 40  # the top card is not counted
    act(terms, "meld Kh Kd Kc")
    assert terms.opened[0]  # 40 + 30 from the hand reaches 50
    short = position(hands={0: "Ah Ad 6s 7c 8d 9s 4c 5h 10c"}, pile="5s Ac", frozen=False,
                     rules={"initial_meld_from_hand": True})
    assert "take Ah Ad" not in legal_texts(short)  # 40 from the hand cannot reach 50 without the top card
    assert_illegal(short, "take Ah Ad", "minimum-count")


def test_bicycle_insufficient_meld_corrected_by_melding_additional_cards_in_the_same_turn() -> None:
    """Bicycle 'Insufficient Melds': 'If a player puts down fewer cards than needed for the minimum count, the
    player may correct the error by melding additional cards during the same turn. A player may rearrange the
    cards already melded but only to correct the minimum count.' Reading (docs/variants/classic.md): the
    correction is new melds and additions to the pending melds, both listed; moving cards between melds does
    not change the count and is not offered."""
    g = position(hands={0: "5s 5h 5d 5c 2c Kh Kd Kc 9s 4c"}, phase="play")
    act(g, "meld 5s 5h 5d")  # 15 of the 50 needed
    assert not g.opened[0] and {"add 5 5c", "add 5 2c", "meld Kh Kd Kc", "retract"} <= legal_texts(g)
    act(g, "add 5 5c", "add 5 2c", "meld Kh Kd Kc")  # 20 + 20 + 30 = 70
    assert g.opened[0] and g.minimum_extra[0] == 0
