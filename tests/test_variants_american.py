"""Modern American Canasta (classic-terms-and-modern-american.txt, "Terms").

Each rule test quotes the sentence of the text it enforces. Positions are set up
with ``helpers.position(..., variant="american")``: side 0 is seats 0 and 2.
"""

from __future__ import annotations

import random

import pytest
from helpers import act, assert_illegal, cards, items, last_result, legal_texts, position

from canasta import Game
from canasta.errors import OptionError
from canasta.scoring import score_side
from canasta.variants import find_variant
from canasta.variants.american import American

V = "american"


def pos(**kw: object) -> Game:
    return position(variant=V, **kw)  # type: ignore[arg-type]


def score(melds: list[str], threes: str = "", hands: list[str] | None = None, went_out: bool = False,
          rules: dict[str, object] | None = None) -> dict[str, int]:
    v = American(4, rules or {})
    got = score_side(v, melds=[(0, cards(m)) for m in melds], red_threes=cards(threes),
                     hands=[cards(h) for h in (hands or ["", ""])], went_out=went_out, concealed=False,
                     all_red_threes=False)
    assert got["total"] == sum(got["items"].values())
    return got["items"]


# ------------------------------------------------------------------ deal
def test_deal_thirteen_cards_and_empty_pile() -> None:
    """Terms 'The Deal': '13 cards are then dealt to each player.' ... 'No card is turned face up to start
    a discard pile - the play begins with the discard pile empty.'"""
    game = Game(V, 4, 3)
    deal = game.deals[0]
    assert all(len(h) == 13 for h in deal["hands"])
    assert game.pile == [] and deal["upcards"] == []
    assert sum(game.hand_sizes) == 52
    # threes of both colours were laid out and replaced, but one (kept for a straight, Terms: 'it is
    # permissible to retain just one three')
    assert all(sum(game.hands[s][c] for c in (12, 13, 14, 15)) <= 1 for s in range(4))
    assert game.legal_actions()[0].kind == "draw"
    assert all(a.kind != "take" for a in game.legal_actions())


def test_four_players_only() -> None:
    """Terms: 'As usual, there are four players in fixed partnerships'."""
    with pytest.raises(OptionError):
        Game(V, 2, 0)


# ------------------------------------------------------------------ taking the pile
def test_pile_taken_only_with_natural_pair() -> None:
    """Terms: 'You can only take the discard pile if you have a pair of natural cards in your hand which
    are of the same rank as the top card of the discard pile.'"""
    game = pos(hands={0: "Kh 2c 5d 6d 9s Ks 4h 4s", 1: "5c 6c 7h 8h 9h"}, pile="8d Kd",
               melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "take Kh 2c", "pile-frozen")
    assert_illegal(game, "take", "pile-frozen")
    assert "take Kh Ks" in legal_texts(game) or "take Ks Kh" in legal_texts(game)
    act(game, "take Kh Ks")
    assert game.melds[0][13].size == 3
    assert game.hand_sizes[0] == 6 + 1  # the rest of the pile (8d) joined the hand


def test_pile_with_wild_card_on_top_cannot_be_taken() -> None:
    """Terms: 'The next player is not allowed to take the pile (since there are no natural cards that can
    match your discard).'"""
    game = pos(hands={0: "Kh Ks 5d 6d 9s", 1: "5c"}, pile="8d JK", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "take Kh Ks", "pile-blocked")


def test_take_combines_with_meld_of_three_or_four_never_over_seven() -> None:
    """Terms: 'If the top discard matches the rank of one of your partnership's existing melds, you can take
    the pile if you have a pair of cards of the same rank in your hand and your existing meld has three or
    four cards.' ... 'If a team has a meld of five or more cards matching the rank of the top discard, they
    cannot take the pile since this would create a meld of more than seven cards'."""
    game = pos(hands={0: "Jh Js 5d 6d 9s 9c", 1: "5c"}, pile="8d Jd", melds={0: ["Jc Jc Jh Js"]})
    act(game, "take Jh Js")
    assert game.melds[0][11].size == 7
    game = pos(hands={0: "Jh Js 5d 6d 9s 9c", 1: "5c"}, pile="8d Jd", melds={0: ["Jc Jc Jh Js Jd"]})
    assert_illegal(game, "take Jh Js", "meld-max")


def test_dead_rank_is_shown_and_safe() -> None:
    """Terms: 'When a natural canasta is completed (closed), neither team is allowed to begin or add to a meld
    of that rank. Natural cards that match the rank of a closed canasta are known as dead cards.' (With two
    packs only one card of a dead rank is left, so the pile can never be taken with a pair of it.)"""
    game = pos(hands={0: "9h 5d 6d Kh", 1: "5c"}, pile="8d", phase="play",
               melds={0: ["Qh Qd Qs"], 1: ["9h 9d 9s 9c 9d 9s 9c"]})
    assert game.observation(0)["dead_ranks"] == ["9"]
    game = pos(hands={0: "9h 5d 6d Kh", 1: "5c"}, pile="8d", phase="play",
               melds={0: ["Qh Qd Qs"], 1: ["9h 9d 9s 9c 9d 9s 2c"]})
    assert game.observation(0)["dead_ranks"] == []  # a mixed canasta makes no rank dead


# ------------------------------------------------------------------ melds and wild cards
def test_new_meld_after_initial_meld_must_be_clean() -> None:
    """Terms: 'So after a team's initial meld, any new melds begun by either member of that team in future
    turns must be clean until they contain at least five cards.'"""
    game = pos(hands={0: "8h 8s 2c 8d 5d 6d Kh", 1: "5c"}, pile="9d", phase="play", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "meld 8h 8s 2c", "wild-limit")
    act(game, "meld 8h 8s 8d")


def test_wild_card_added_only_with_five_naturals() -> None:
    """Terms: 'cards added to this meld in future turns must be real sixes until there are five of them:
    6-6-6-6-6-joker. At that point either a six or a wild card could be used to complete (close) the canasta.'"""
    game = pos(hands={0: "JK 6h 5d 8d Kh Kd", 1: "5c"}, pile="9d", phase="play", melds={0: ["6h 6s 2c", "Qh Qd Qs"]})
    assert_illegal(game, "add 6 JK", "wild-limit")
    game = pos(hands={0: "JK 6h 5d 8d Kh Kd", 1: "5c"}, pile="9d", phase="play",
               melds={0: ["6h 6s 6d 6c 6s 2c", "Qh Qd Qs"]})
    act(game, "add 6 JK")
    assert game.melds[0][6].size == 7


def test_at_most_two_wild_cards() -> None:
    """Terms: 'Wild cards can be used as substitutes for one or two of the cards'."""
    game = pos(hands={0: "6h 6s JK 2c 2d Kh Ks Kd 5d 9d", 1: "5c"}, pile="9d", phase="play")
    act(game, "meld 6h 6s JK", "add 6 2c")
    assert_illegal(game, "add 6 2d", "wild-limit")


def test_initial_meld_may_hold_wild_cards_with_two_naturals() -> None:
    """Terms: 'when the meld is put down as part of the team's initial meld, provided the meld contains at
    least two natural cards'."""
    game = pos(hands={0: "Ah Ad JK 2c Kh Ks Kd 5d 6d", 1: "5c"}, pile="9d", phase="play")
    act(game, "meld Ah Ad JK", "add A 2c", "meld Kh Ks Kd")
    assert game.opened[0]
    assert game.melds[0][14].wilds == 2


def test_sevens_never_take_wild_cards() -> None:
    """Terms: 'A meld of sevens consists of from three to seven sevens: wild cards cannot be used at all in a
    meld of sevens.'"""
    game = pos(hands={0: "7h 7s 2c Kh Ks Kd 5d 6d", 1: "5c"}, pile="9d", phase="play")
    assert_illegal(game, "meld 7h 7s 2c", "wild-limit")
    game = pos(hands={0: "JK 5d 8d Kh Kd", 1: "5c"}, pile="9d", phase="play",
               melds={0: ["7h 7s 7d 7c 7s", "Qh Qd Qs"]})
    assert_illegal(game, "add 7 JK", "wild-limit")


def test_pure_aces_never_take_wild_cards() -> None:
    """Terms: 'If an ace meld is begun pure (whether as part of the team's initial meld or later), no wild
    cards can be added to it.' ... 'A meld of aces begun after your team has put down its initial meld
    cannot include any wild cards.'"""
    game = pos(hands={0: "JK 5d 8d Kh Kd", 1: "5c"}, pile="9d", phase="play",
               melds={0: ["Ah As Ad Ac As", "Qh Qd Qs"]})
    assert_illegal(game, "add A JK", "wild-limit")
    game = pos(hands={0: "Ah Ad JK Kh Ks Kd 5d 6d 2c", 1: "5c"}, pile="9d", phase="play")
    act(game, "meld Ah Ad 2c")
    game = pos(hands={0: "Ah Ad Ac JK Kh Ks Kd 5d 6d", 1: "5c"}, pile="9d", phase="play", melds={1: ["Qh Qd Qs"]})
    act(game, "meld Ah Ad Ac", "add A JK")  # in the initial meld's turn: the dirty meld A-A-A-joker
    assert game.melds[0][14].wilds == 1


def test_initial_meld_with_pile_topped_by_an_ace() -> None:
    """Terms: 'if you put down from your hand A-A-joker, Q-Q-Q, 9-9-2 and you have a pair of 10's in your hand,
    you can take the discard pile if the top card is a 9, a 10, a Queen or an Ace.' (The engine takes first and
    keeps the pile aside until the melds from the hand are down.)"""
    game = pos(hands={0: "Ah Ad JK Qh Qd Qs 9h 9d 2c 10h 10s 5d", 1: "4c"}, pile="8c Ac")
    act(game, "take Ah Ad", "add A JK", "meld Qh Qd Qs")
    assert not game.opened[0]  # A A joker 90 + Q Q Q 30
    act(game, "meld 9h 9d 2c")  # + 40 = 160
    assert game.opened[0] and game.pending_value == 160
    assert game.melds[0][14].size == 4 and game.hand_sizes[0] == 3 + 1


def test_wild_meld_blocks_wild_cards_elsewhere() -> None:
    """Terms: 'If your team starts a meld of wild cards, you cannot add any wild cards to any of your other
    melds until your wild card canasta is complete.'"""
    game = pos(hands={0: "JK 5d 8d Kh Kd", 1: "5c"}, pile="9d", phase="play",
               melds={0: ["6h 6s 6d 6c 6s", "2c 2d 2h"]})
    assert_illegal(game, "add 6 JK", "wild-meld-open")
    act(game, "add W JK")


def test_meld_never_over_seven_cards() -> None:
    """Terms: 'A meld can never contain more than seven cards.'"""
    game = pos(hands={0: "6h 5d 8d Kh Kd", 1: "5c"}, pile="9d", phase="play",
               melds={0: ["6h 6s 6d 6c 6s 6d 6c", "Qh Qd Qs"]})
    assert_illegal(game, "add 6 6h", "meld-max")


def test_one_meld_per_rank() -> None:
    """Terms: 'One team is not allowed to have more than one meld of the same rank.'"""
    game = pos(hands={0: "Qh Qd Qc 8d Kh Kd", 1: "5c"}, pile="9d", phase="play", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "meld Qh Qd Qc", "duplicate-meld")


# ------------------------------------------------------------------ initial meld
def test_initial_meld_minimum_125_with_pure_meld() -> None:
    """Terms: 'less than 3000: 125 points' and 'Must include a pure meld of at least three matching natural
    cards (with no wild cards)'."""
    # 2 jokers + 2 twos in mixed melds: plenty of points, no pure meld
    game = pos(hands={0: "Kh Kd JK Qh Qd JK Jh Jd 2c 10h 10d 2d 5d 6d", 1: "5c"}, pile="9d", phase="play")
    act(game, "meld Kh Kd JK", "meld Qh Qd JK", "meld Jh Jd 2c", "meld 10h 10d 2d")
    assert not game.opened[0]
    assert_illegal(game, "discard 5d", "minimum-count")
    assert "retract" in legal_texts(game)
    # a pure meld and 125
    game = pos(hands={0: "Ah Ad Ac JK Kh Kd 2c 5d 6d", 1: "5c"}, pile="9d", phase="play")
    act(game, "meld Ah Ad Ac")
    assert not game.opened[0]  # 60
    act(game, "meld Kh Kd JK")  # 60 + 70 = 130
    assert game.opened[0]


@pytest.mark.parametrize(("score", "need"), [(-500, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155),
                                              (5000, 180), (8000, 180)])
def test_minimum_by_cumulative_score(score: int, need: int) -> None:
    """Terms: 'less than 3000 125 points; 3000 to 4995 155 points; 5000 or more 180 points' ... 'a team
    that has a negative score is still subject to the 125 point minimum count.'"""
    game = pos(hands={0: "5d", 1: "5c"}, scores=[score, 0])
    assert game.minimum(0) == need


def test_initial_meld_three_naturals_option() -> None:
    """Encyclopedia: 'a matching set of three natural cards, though you are allowed to have wild cards in
    this meld in addition to the natural cards' (table rule initial_pure_meld='three_naturals')."""
    hand = "Ah Ad Ac JK Kh Kd JK 5d 6d"
    game = pos(hands={0: hand, 1: "5c"}, pile="9d", phase="play")
    act(game, "meld Ah Ad JK", "add A Ac", "meld Kh Kd JK")
    assert not game.opened[0]
    game = pos(hands={0: hand, 1: "5c"}, pile="9d", phase="play", rules={"initial_pure_meld": "three_naturals"})
    act(game, "meld Ah Ad JK", "add A Ac", "meld Kh Kd JK")
    assert game.opened[0]


def test_splash_needs_no_count() -> None:
    """Terms 'The Splash': 'If you have a natural canasta (seven natural cards of the same rank) ... in your
    hand, you may meld them as the initial meld for your team. In this case you do not have to meet any
    minimum count requirement.'"""
    game = pos(hands={0: "5h 5h 5s 5s 5d 5d 5c 5c 9d 6c", 1: "4c"}, pile="9d", phase="play")
    act(game, "meld 5h 5h 5s")
    assert not game.opened[0]
    act(game, "add 5 5s", "add 5 5d", "add 5 5d", "add 5 5c")
    assert game.opened[0]


def test_splash_takes_the_pile_with_a_pair_of_another_rank() -> None:
    """Terms 'The Splash': 'If this canasta was already complete in your hand before your turn, and you also
    have a natural pair of a different rank that matches the top card of the discard pile, you can use the
    pair to take the discard pile in the same turn.'"""
    game = pos(hands={0: "5h 5h 5s 5s 5d 5d 5c 9h 9s 6c", 1: "4c"}, pile="8c Kd 9d")
    act(game, "take 9h 9s")
    assert game.pile_aside == cards("8c Kd") and not game.opened[0]
    act(game, "meld 5h 5h 5s", "add 5 5s", "add 5 5d", "add 5 5d")
    assert not game.opened[0] and game.pile_aside is not None
    act(game, "add 5 5c")  # the seventh five: a natural canasta from the hand, no count needed
    assert game.opened[0] and game.pile_aside is None
    assert sorted(game.hand_cards(0)) == sorted(cards("6c 8c Kd"))
    # without the canasta complete in the hand the pair alone cannot take the pile
    game = pos(hands={0: "5h 5h 5s 5s 5d 5d 9h 9s 6c", 1: "4c"}, pile="8c Kd 9d")
    assert_illegal(game, "take 9h 9s", "minimum-count")


def test_initial_meld_with_pile_lone_pair_does_not_count() -> None:
    """Terms: 'The pair that you use to take the pile could be within one of the melds you are using to meet
    the initial meld requirement, or it could be a separate pair of another rank - but in this last case, the
    point value of the cards in this pair do not count towards meeting your minimum count'."""
    # Ah Ad Ac (60) + Kh Kd JK (70) = 130 from the hand; the pair of 10s only takes the pile
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 10h 10s 5d 6d", 1: "5c"}, pile="8c 9c 10d")
    act(game, "take 10h 10s")
    assert game.pile_aside == cards("8c 9c")  # the pile waits until the initial meld is complete
    act(game, "meld Ah Ad Ac")
    assert not game.opened[0]
    act(game, "meld Kh Kd JK")
    assert game.opened[0] and game.pending_value == 130
    assert game.pile_aside is None and game.hand_sizes[0] == 4


def test_observation_shows_the_pile_waiting_for_the_initial_meld() -> None:
    """Bicycle: 'Next, the player must take up the rest of the discard pile'; Terms: the pile waits until the
    initial meld is complete. Those cards lay face up in the pile: every seat and a spectator see them
    (``pile_taken_aside``) while they wait, and they are in the taker's hand once the meld is complete."""
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 10h 10s 5d 6d", 1: "5c"}, pile="8c 9c 10d")
    before = [game.observation(seat)["pile"] for seat in (0, 1, None)]
    assert before == [["8c", "9c", "10d"]] * 3 and game.observation(0)["pile_taken_aside"] == []
    act(game, "take 10h 10s")
    for seat in (0, 1, None):
        seen = game.observation(seat)
        assert seen["pile_taken_aside"] == ["8c", "9c"] and seen["pile"] == [], seat
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK")
    assert game.opened[0]
    for seat in (0, 1, None):
        assert game.observation(seat)["pile_taken_aside"] == []
    assert {"8c", "9c"} <= set(game.observation(0)["hand"])


def test_initial_meld_take_refused_when_hand_cannot_make_it() -> None:
    """Terms: 'The minimum count and the required three card natural or wild meld must already be present and
    complete in your hand and must be laid down before you are allowed to take any card from the pile.'"""
    game = pos(hands={0: "Ah Ad Kh Kd 10h 10s 5d 6d", 1: "5c"}, pile="8c 9c 10d")
    assert_illegal(game, "take 10h 10s", "minimum-count")


def test_no_initial_take_table_rule() -> None:
    """Encyclopedia: 'Many groups do not allow taking the pile and making your team's initial meld on the same
    turn' (table rule take_pile_on_initial_meld=false)."""
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 10h 10s 5d 6d", 1: "5c"}, pile="8c 9c 10d",
               rules={"take_pile_on_initial_meld": False})
    assert_illegal(game, "take 10h 10s", "initial-take")


# ------------------------------------------------------------------ discards
def test_threes_never_discarded() -> None:
    """Terms: 'Threes can never be discarded.'"""
    game = pos(hands={0: "3c 5d 6d", 1: "5c"}, pile="9d", phase="play", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "discard 3c", "three-discard")


def test_wild_card_discard_only_from_all_wild_hand() -> None:
    """Terms: 'It is illegal to discard a wild card, except ...' 'You may discard a wild card as your final
    discard, when going out' and 'your hand consists entirely of wild cards'."""
    game = pos(hands={0: "JK 5d 6d", 1: "5c"}, pile="9d", phase="play", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "discard JK", "discard-restricted")
    game = pos(hands={0: "JK 2c 2d", 1: "5c"}, pile="9d", phase="play", melds={0: ["Qh Qd Qs"]})
    act(game, "discard JK")


def test_empty_pile_aces_and_sevens() -> None:
    """Terms: 'When the discard pile is empty ... it is illegal to discard an ace or a seven, unless these are
    the only natural cards you have in your hand at the time you discard.'"""
    game = pos(hands={0: "Ah 7d 6d", 1: "5c"}, pile="", phase="play", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "discard Ah", "discard-restricted")
    assert_illegal(game, "discard 7d", "discard-restricted")
    assert legal_texts(game) == {"discard 6d"}
    game = pos(hands={0: "Ah 7d 2c", 1: "5c"}, pile="", phase="play", melds={0: ["Qh Qd Qs"]})
    act(game, "discard Ah")


def test_empty_pile_dead_cards() -> None:
    """Terms: 'When the discard pile is empty it is illegal to discard a 'dead' card ... unless you have no
    legal alternative.'"""
    dead = ["9h 9d 9s 9c 9d 9s 9c"]
    game = pos(hands={0: "9h 6d Ah", 1: "5c"}, pile="", phase="play", melds={0: ["Qh Qd Qs"], 1: dead})
    assert_illegal(game, "discard 9h", "discard-restricted")
    game = pos(hands={0: "9h Ah 2c", 1: "5c"}, pile="", phase="play", melds={0: ["Qh Qd Qs"], 1: dead})
    act(game, "discard 9h")
    game = pos(hands={0: "9h 6d Ah", 1: "5c"}, pile="8c", phase="play", melds={0: ["Qh Qd Qs"], 1: dead})
    act(game, "discard 9h")  # 'Dead cards ... are also safe to discard'


# ------------------------------------------------------------------ one card, going out
def test_may_not_meld_down_to_one_card_unless_going_out() -> None:
    """Terms: 'It is illegal to meld in such a way as to leave yourself with only one card, unless either
    a. you have satisfied the conditions for going out, or b. ...'"""
    game = pos(hands={0: "Kh Kd Ks 5d", 1: "5c"}, pile="9d", phase="play", melds={0: ["Qh Qd Qs"]})
    assert_illegal(game, "meld Kh Kd Ks", "one-card")


def test_initial_meld_before_turn_card_may_leave_one_card_and_bonus_cards() -> None:
    """Terms: 'b. you are putting down the initial meld for your team and the 'turn card' has not yet been
    drawn.' ... 'If your team is the first to meld you draw four bonus cards' ... 'At the start of your next
    turn to play you add the bonus cards of your talon to your hand'."""
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d", 1: "5c 6c", 2: "8c 8d", 3: "8h 8s"}, pile="9d", phase="play",
               stock="4c 4d 4h 4s 6h 6s 9h 9s 10h 10s 10c 10d Jh")
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK", "discard 5d")
    assert game.hand_sizes[0] == 0 and game.bonus[0] == cards("4c 4d 4h 4s")
    obs = game.observation(1)
    assert obs["bonus_cards"] == [4, 0, 0, 0] and "4c" not in str(obs)
    assert game.observation(0)["hand"] == []  # face down until the next turn
    for seat in (1, 2, 3):
        act(game, "draw")
        act(game, f"discard {game.observation(seat)['hand'][0]}")
    assert game.turn == 0 and game.hand_sizes[0] == 4 and game.bonus[0] == []


def test_second_side_draws_three_bonus_cards() -> None:
    """Terms: 'if the other team has already melded you draw only three bonus cards.'"""
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d 6d", 1: "5c 6c"}, pile="9d", phase="play",
               melds={1: ["Qh Qd Qs"]})
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK", "discard 5d")
    assert len(game.bonus[0]) == 3


def test_no_bonus_cards_after_turn_card() -> None:
    """Terms: 'If a team makes its initial meld after the turn card has been drawn, so that only 8 or fewer
    cards remain in the draw pile, no bonus cards are taken.'"""
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d 6d", 1: "5c 6c"}, pile="9d", phase="play", rest=1,
               stock="4c 4d 4h 4s 6h 6s 9h 9s")
    assert game.observation(0)["turn_card_drawn"]
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK")
    assert_illegal(game, "discard 5d", "discard-restricted") if False else None
    act(game, "discard 5d")
    assert game.bonus[0] == []


def test_going_out_needs_two_canastas_and_a_discard() -> None:
    """Terms: 'You can go out if ... your team has completed two canastas, and you are able to meld all but
    one of your cards and discard your last card.' 'it is not legal in this version of Canasta to go out by
    melding all your cards'."""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Kh Kd Ks", 1: "5c"}, pile="9d", phase="play", melds={0: two})
    assert_illegal(game, "meld Kh Kd Ks", "must-discard")
    game = pos(hands={0: "Kh Kd Ks 2c", 1: "5c"}, pile="9d", phase="play", melds={0: two})
    act(game, "meld Kh Kd Ks", "discard 2c")  # the final discard may be a wild card
    result = game.hand_results[-1]
    assert result["went_out"] == 0
    assert result["sides"][0]["items"]["going_out"] == 100
    game = pos(hands={0: "Kh Kd Ks 2c", 1: "5c"}, pile="9d", phase="play", melds={0: two[:1]})
    assert_illegal(game, "meld Kh Kd Ks", "one-card")


def test_last_card_of_stock_a_three_ends_the_play() -> None:
    """Terms: 'If the last card drawn from the stock is a three the game ends immediately. The player who drew
    the three cannot meld or discard and the three will count 5 points against that player's team.'"""
    game = pos(hands={0: "5d 6d", 1: "5c", 2: "", 3: ""}, pile="9d", melds={0: ["Qh Qd Qs"]}, rest=1,
               stock="3c")
    act(game, "draw")
    assert len(game.hand_results) == 1
    assert items(game, 0)["cards_in_hand"] == -(5 + 5 + 5)


def test_empty_stock_play_goes_on_while_the_pile_is_taken() -> None:
    """Terms: 'When there are no cards left in the stock, play can continue as long as each player is able and
    willing to take the previous player's discard. As soon as someone needs or wishes to draw from the stock,
    the play immediately ends'."""
    game = pos(hands={0: "Kh Ks 5d 6d", 1: "5c"}, pile="Kd", melds={0: ["Qh Qd Qs"]}, rest=1, stock="")
    assert legal_texts(game) == {"take Ks Kh", "end"}
    act(game, "end")
    assert len(game.hand_results) == 1


def test_ask_after_drawing_once_per_hand() -> None:
    """Terms: 'When you are in a position to go out you may, if you wish, first ask your partner's
    permission. ... You may ask permission to go out only once in each hand.'"""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="Kc")
    assert "ask" not in legal_texts(game)  # before drawing the position is not known yet
    assert_illegal(game, "ask", "ask-timing")
    act(game, "draw")
    assert "ask" in legal_texts(game)
    act(game, "ask")
    assert game.phase == "answer" and game.actor == 2
    assert legal_texts(game) == {"yes", "no"}
    assert_illegal(game, "discard 5c", "answer-pending")
    act(game, "no")
    assert "ask" not in legal_texts(game)
    assert_illegal(game, "ask", "ask-timing")
    # the same player in a later turn of the hand may not ask again
    game = pos(hands={0: "Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="Kc",
               asked_hand=[True, False, False, False])
    act(game, "draw")
    assert "ask" not in legal_texts(game)
    assert_illegal(game, "ask", "ask-timing")


def test_ask_not_in_position_to_go_out() -> None:
    """Terms: 'When you are in a position to go out you may ... ask': with two canastas but a hand that
    cannot be melded down to one card, asking is not offered; nor without the two canastas. 'If you
    satisfy the conditions for going out, you are free to go out on any turn without consulting your
    partner.'"""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Kh Kd 5c 9h", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="6c")
    act(game, "draw")
    assert "ask" not in legal_texts(game)
    game = pos(hands={0: "Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two[:1]}, stock="Kc")
    act(game, "draw")
    assert "ask" not in legal_texts(game)
    # one canasta, a hand that cannot close the second: no asking
    game = pos(hands={0: "Js Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d",
               melds={0: [two[0], "Jh Jd Js Jc Jh"]}, stock="6c")
    act(game, "draw")
    assert "ask" not in legal_texts(game)
    act(game, "add J Js", "meld Kh Kd Ks", "discard 5c")  # not out: going out without asking is free anyway
    assert game.hand_no == 1


def test_ask_when_the_second_canasta_closes_on_the_way_out() -> None:
    """Terms: 'When you are in a position to go out you may, if you wish, first ask your partner's
    permission' and 'you are free to go out on any turn without consulting your partner': a player with one
    canasta whose hand closes the second on the way out is in a position to go out."""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd"]
    game = pos(hands={0: "Js Kh Kd Ks", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="5c")
    act(game, "draw")
    assert "ask" in legal_texts(game)
    act(game, "ask", "yes")
    assert_illegal(game, "discard 5c", "must-go-out")
    act(game, "add J Js", "meld Kh Kd Ks", "discard 5c")
    assert last_result(game)["went_out"] == 0


def test_yes_binds_the_player_to_go_out() -> None:
    """Terms: 'If you ask, and partner says yes, you must go out'."""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="Kc")
    act(game, "draw", "ask", "yes")
    assert game.phase == "play" and game.actor == 0 and game.permission is True
    assert_illegal(game, "discard 5c", "must-go-out")
    assert "discard 5c" not in legal_texts(game)
    act(game, "meld Kh Kd Ks")
    assert_illegal(game, "discard 5c", "must-go-out")  # Kc must go on the kings first
    assert legal_texts(game) == {"add K Kc"}
    act(game, "add K Kc", "discard 5c")
    assert last_result(game)["went_out"] == 0


def test_basic_player_answers_may_i_go_out() -> None:
    """The basic player answers an American 'may I go out?' with BasicPlayer's answer (yes unless it
    holds many points it could meld), and asks nothing it cannot do."""
    from canasta.players import BasicPlayer

    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="Kc")
    act(game, "draw", "ask")
    action, _ = BasicPlayer().decide(game.observation(2), game.legal_actions())
    assert action.kind == "yes"
    act(game, action)
    while game.hand_no == 1:
        act(game, BasicPlayer().decide(game.observation(game.actor), game.legal_actions())[0])
    assert last_result(game)["went_out"] == 0
    assert game.asked_hand == [False] * 4  # a new hand: everyone may ask again


def test_no_forbids_going_out_this_turn() -> None:
    """Terms: 'if partner says no, you cannot go out on that turn, and therefore you must keep at least one
    card in your hand after discarding.'"""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Kh Kd Ks 5c", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="Kc")
    act(game, "draw", "ask", "no", "meld Kh Kd Ks")
    assert_illegal(game, "add K Kc", "one-card")
    act(game, "discard 5c")
    assert game.turn == 1 and game.hand_cards(0) == cards("Kc")


# ------------------------------------------------------------------ special hands
STRAIGHT_13 = "Ah 2c 3h 4d 5s 6h 7d 8c 9s 10h Jd Qc JK"


def test_special_straight_after_drawing_ends_the_play() -> None:
    """Terms 'Special Hand': 'If after drawing from the deck you have the cards required for any of the
    special hands ... you may make the first and only meld for your team by laying down your entire hand
    without a discard and thereby end the play.' 'Straight: This consists of one card of every rank:
    A-2-3-4-5-6-7-8-9-10-J-Q-K-joker. Exceptionally, for the purpose of making this combination, you are
    allowed to keep a three in your hand.' Scored 'straight: 3000 points' ('the team that went out scores
    only the amount shown'; 'the other team scores in the normal way')."""
    game = pos(hands={0: STRAIGHT_13, 1: "Kh Kd Ks 5c", 2: "8c 9c", 3: "4c"}, melds={1: ["9h 9d 9c"]},
               stock="Ks", opened=[False, True])
    assert_illegal(game, "special straight", "special-draw-first")
    act(game, "draw")
    assert "special straight" in legal_texts(game)
    assert_illegal(game, "special pairs", "special-hand")
    act(game, "special straight")
    result = last_result(game)
    assert result["special_hand"] == "straight" and result["went_out"] == 0
    assert result["sides"][0] == {"total": 3000, "items": {"special_hand": 3000}}
    assert items(game, 1) == American(4, {}).score_table([(9, cards("9h 9d 9c"))], [], [cards("Kh Kd Ks 5c"),
                                                          cards("4c")], False)["items"]
    assert game.hand_no == 2 and game.card_count() == 108


def test_special_hand_only_before_the_side_melds() -> None:
    """Terms: 'You are only allowed to put down a special hand if your team has not yet melded any cards.'"""
    game = pos(hands={0: STRAIGHT_13, 2: "Kh Kd Ks 5c"}, melds={0: ["9h 9d 9c"]}, stock="Ks")
    act(game, "draw")
    assert "special straight" not in legal_texts(game)
    assert_illegal(game, "special straight", "special-after-meld")


def test_special_pairs_with_and_without_wild_cards() -> None:
    """Terms 'Pairs': 'This is a hand of seven pairs. It must not contain any jokers or threes. There are two
    types: 1. Without wild cards. Example: 4-4-5-5-7-7-8-8-9-9-10-10-Q-Q. 2. With twos, sevens and aces.
    Example: 2-2-6-6-7-7-9-9-J-J-K-K-A-A. The following hand: 2-2-4-4-5-5-6-6-8-8-9-9-A-A is not valid,
    because a hand with a pair of twos must contain both sevens and aces as well.' Scores 2500 and 2000."""
    game = pos(hands={0: "4h 4d 5h 5d 7h 7d 8h 8d 9h 9d 10h 10d Qh"}, stock="Qd")
    act(game, "draw")
    assert {a for a in legal_texts(game) if a.startswith("special")} == {"special pairs"}
    assert_illegal(game, "special pairs-wild", "special-hand")
    act(game, "special pairs")
    assert last_result(game)["sides"][0]["total"] == 2500
    game = pos(hands={0: "2h 2d 6h 6d 7h 7d 9h 9d Jh Jd Kh Kd Ah"}, stock="Ad")
    act(game, "draw")
    assert_illegal(game, "special pairs", "special-hand")
    act(game, "special pairs-wild")
    assert last_result(game)["sides"][0]["total"] == 2000
    game = pos(hands={0: "2h 2d 4h 4d 5h 5d 6h 6d 8h 8d 9h 9d Ah"}, stock="Ad")
    act(game, "draw")
    assert not any(a.startswith("special") for a in legal_texts(game))
    assert_illegal(game, "special pairs-wild", "special-hand")


def test_special_pairs_table_rules() -> None:
    """Terms 'Table Rules': 'Some players allow the pairs hand with wilds, sevens and aces to use a pair of
    jokers or a pair of twos as the wilds.' (pairs_wilds=twos_or_jokers) 'Some players allow the pairs hand
    to include sevens or aces but never threes or wild cards.' (pairs_wilds=none) 'Some players award a
    higher score of 3500 points for pairs and garbage hands.' (pairs_garbage_score=3500)"""
    jokers = "JK JK 6h 6d 7h 7d 9h 9d Jh Jd Kh Kd Ah"
    game = pos(hands={0: jokers}, stock="Ad")
    act(game, "draw")
    assert_illegal(game, "special pairs-wild", "special-hand")
    game = pos(hands={0: jokers}, stock="Ad", rules={"pairs_wilds": "twos_or_jokers"})
    act(game, "draw", "special pairs-wild")
    assert last_result(game)["sides"][0]["total"] == 2000
    game = pos(hands={0: "2h 2d 6h 6d 7h 7d 9h 9d Jh Jd Kh Kd Ah"}, stock="Ad", rules={"pairs_wilds": "none"})
    act(game, "draw")
    assert_illegal(game, "special pairs-wild", "special-hand")
    game = pos(hands={0: "4h 4d 5h 5d 7h 7d 8h 8d 9h 9d Ah Ad Qh"}, stock="Qd",
               rules={"pairs_wilds": "none", "pairs_garbage_score": 3500})
    act(game, "draw", "special pairs")
    assert last_result(game)["sides"][0]["total"] == 3500


def test_special_garbage_and_its_table_rule() -> None:
    """Terms 'Garbage': 'This consists of two sets of four of a kind and two sets of three of a kind,
    without any wild cards or threes. Example: 4-4-4-6-6-6-6-J-J-J-J-A-A-A.' ('garbage: 2000 points');
    Table Rules: 'Some players require for the garbage hand four natural sets of three equal cards plus two
    matching wild cards (two twos or two jokers).' (garbage_hand=threes_and_wild_pair)"""
    game = pos(hands={0: "4h 4d 4s 6h 6d 6s 6c Jh Jd Js Jc Ah Ad"}, stock="As")
    act(game, "draw", "special garbage")
    assert last_result(game)["sides"][0]["total"] == 2000
    wild = "4h 4d 4s 6h 6d 6s Jh Jd Js Ah Ad As 2c"
    game = pos(hands={0: wild}, stock="2d")
    act(game, "draw")
    assert_illegal(game, "special garbage", "special-hand")
    game = pos(hands={0: wild}, stock="2d", rules={"garbage_hand": "threes_and_wild_pair"})
    act(game, "draw", "special garbage")
    assert last_result(game)["sides"][0]["total"] == 2000
    game = pos(hands={0: "4h 4d 4s 6h 6d 6s 6c Jh Jd Js Jc Ah Ad"}, stock="As",
               rules={"garbage_hand": "threes_and_wild_pair"})
    act(game, "draw")
    assert_illegal(game, "special garbage", "special-hand")


def test_special_zip_code_only_with_a_score() -> None:
    """Terms: 'Zip Code: 1 set four of a kind, 2 sets 3 of a kind and 2 sets pairs. Example:
    2-2-4-4-4-4-6-6-6-9-9-9-A-A' (the text gives it no score: played with zip_code_score)."""
    hand = "2h 2d 4h 4d 4s 4c 6h 6d 6s 9h 9d 9s Ah"
    game = pos(hands={0: hand}, stock="Ad")
    act(game, "draw")
    assert_illegal(game, "special zip-code", "special-hand")
    game = pos(hands={0: hand}, stock="Ad", rules={"zip_code_score": 1000})
    act(game, "draw")
    assert "special zip-code" in legal_texts(game)
    act(game, "special zip-code")
    assert last_result(game)["sides"][0]["total"] == 1000


def test_special_hand_with_dead_cards() -> None:
    """Terms: 'a special hand may include cards matching a closed (complete) canasta melded by the opposing
    team - i.e. cards that would otherwise be considered 'dead'.'"""
    game = pos(hands={0: STRAIGHT_13}, melds={1: ["Kh Kd Ks Kc Kh Kd Kc"]}, stock="Ks")
    act(game, "draw", "special straight")
    assert last_result(game)["special_hand"] == "straight"


def test_special_hand_fourteenth_card_from_one_card_pile() -> None:
    """Terms 'Table Rules': 'Some play that a special hand can be completed by taking its 14th card from the
    discard pile, but only if the discard pile has just one card in it' (special_from_pile)."""
    game = pos(hands={0: STRAIGHT_13}, pile="Ks", stock="5c")
    assert "special straight" not in legal_texts(game)
    assert_illegal(game, "special straight", "special-draw-first")
    game = pos(hands={0: STRAIGHT_13}, pile="Ks", stock="5c", rules={"special_from_pile": True})
    assert "special straight" in legal_texts(game)
    act(game, "special straight")
    assert last_result(game)["sides"][0]["total"] == 3000 and game.card_count() == 108
    game = pos(hands={0: STRAIGHT_13}, pile="4c Ks", stock="5c", rules={"special_from_pile": True})
    assert_illegal(game, "special straight", "special-pile")


def test_special_notation_round_trip() -> None:
    """docs/notation.md: 'special straight' names the hand; a bad name is a notation error."""
    from canasta.errors import NotationError
    from canasta.notation import format_action, parse_action

    for name in ("straight", "pairs", "pairs-wild", "garbage", "zip-code"):
        assert format_action(parse_action(f"special {name}")) == f"special {name}"
    with pytest.raises(NotationError):
        parse_action("special flush")
    game = pos(hands={0: STRAIGHT_13}, stock="Ks")
    act(game, "draw")
    assert_illegal(game, parse_action("special straight")._replace(target=9), "special-kind")
    assert_illegal(Game("classic", 4, 0), "special straight", "no-special-hands")


# ------------------------------------------------------------------ the kept three
def test_one_three_kept_before_the_side_melds() -> None:
    """Terms: 'If your team has not yet put down its initial meld, it is permissible to retain just one three
    in your hand ... for the purpose of collecting a straight' and '2. You may never keep more than one three
    in your hand. If you draw a second three you must lay down one of them and draw a replacement card.'"""
    game = pos(hands={0: "3h 4c 5c 9d", 2: "8c 9c"}, stock="3s 6c")
    act(game, "draw")
    held = [c for c in game.hand_cards(0) if c >> 2 == 3]
    assert len(held) == 1 and len(game.red_threes[0]) == 1
    assert sorted(game.hand_cards(0)) == sorted(cards("4c 5c 9d 6c") + held)
    assert game.history[-1][2] == tuple(cards("3s 6c"))


def test_kept_three_laid_out_by_choice() -> None:
    """Terms: 'If you have been holding a three in your hand and decide you no longer wish to keep it, then
    during your turn you may lay the three face up in your team's meld area and draw a replacement card from
    the stock.' (written 'meld 3h')"""
    game = pos(hands={0: "3h 4c 5c 9d"}, stock="6c 7c")
    act(game, "draw")
    assert "meld 3h" in legal_texts(game)
    assert_illegal(game, "meld 3d", "not-in-hand")
    act(game, "meld 3h")
    assert game.red_threes[0] == cards("3h") and sorted(game.hand_cards(0)) == sorted(cards("4c 5c 7c 9d 6c"))
    assert game.history[-1][2] == tuple(cards("7c"))
    assert_illegal(game, "discard 3h", "not-in-hand")


def test_kept_three_laid_out_before_drawing() -> None:
    """Terms: 'you should normally begin your first turn by placing all your threes face up ... You
    immediately draw an equal number of replacement cards from the top of the stock': the kept three may be
    laid out at the start of the turn, before the draw or the pile is chosen, so that its replacement can
    make the pair that takes the pile."""
    initial = "Ah Ad Ac As Kh Kd Ks Kc Qh Qd Qs"  # 150 from the hand
    game = pos(hands={0: "3h 9c " + initial, 1: "4c", 2: "8c 8d"}, pile="7h 9d", stock="9s 10c",
               phase="draw")
    assert "meld 3h" in legal_texts(game)
    assert all(a.kind != "take" for a in game.legal_actions())
    act(game, "meld 3h")
    assert game.phase == "draw" and game.red_threes[0] == cards("3h")
    assert sorted(game.hand_cards(0)) == sorted(cards("9c 9s " + initial))
    assert "meld 3h" not in legal_texts(game)
    act(game, "take 9c 9s")
    assert game.took_pile
    game = pos(hands={0: "3h 9c 5c 6d", 1: "4c"}, pile="9d", stock="", phase="draw", rest="pile")
    assert_illegal(game, "meld 3h", "stock-empty")
    assert_illegal(game, "meld 3d", "not-in-hand")


def test_kept_three_replaced_by_a_three() -> None:
    """Terms: 'it is permissible to retain just one three': a three drawn to replace the kept one laid out
    is the one three now kept; a three as the stock's last card ends the play ('If the last card drawn
    from the stock is a three the game ends immediately')."""
    game = pos(hands={0: "3h 4c 5c 9d", 2: "8c 9c"}, stock="6c 3s 7c")
    act(game, "draw", "meld 3h")
    assert game.red_threes[0] == cards("3h") and cards("3s")[0] in game.hand_cards(0)
    assert game.history[-1][2] == tuple(cards("3s"))
    act(game, "meld 3s")
    assert game.red_threes[0] == cards("3h 3s") and game.history[-1][2] == tuple(cards("7c"))
    game = pos(hands={0: "3h 4c 5c 9d", 2: "8c 9c"}, stock="6c 3s", rest=1)
    act(game, "draw", "meld 3h")
    assert game.hand_no == 2 and last_result(game)["went_out"] is None


def test_kept_three_forced_out_when_the_side_melds() -> None:
    """Terms: '1. You may only keep a three in your hand if your team has not yet melded. As soon as your team
    puts down its initial meld ... you must lay down any three you are holding at your next opportunity. If
    it is your partner who lays down the initial meld this will be at the start of your next turn: you lay
    down your three before drawing from the stock, and as usual you must draw a replacement card'."""
    game = pos(hands={0: "3h Ah Ad Ac As Kh Kd Ks Qh Qd Qs 5d 6d 9c", 1: "4c 4d 5s", 2: "3d 7c 8c",
                      3: "4h 4s 6s"}, stock="10c Jc 9s 5c 6c", rest=3, phase="play")
    act(game, "meld Ah Ad Ac", "add A As", "meld Kh Kd Ks")
    assert not game.opened[0] and cards("3h")[0] in game.hand_cards(0)
    act(game, "meld Qh Qd Qs")
    assert game.opened[0]
    assert not any(c >> 2 == 3 for c in game.hand_cards(0)) and cards("3h")[0] in game.red_threes[0]
    act(game, "discard 5d")
    act(game, "draw", "discard 5s")
    assert game.turn == 2 and game.phase == "draw"
    assert not any(c >> 2 == 3 for c in game.hand_cards(2)) and cards("3d")[0] in game.red_threes[0]


def test_three_kept_makes_no_special_but_the_straight() -> None:
    """Terms 'Pairs': 'It must not contain any jokers or threes'."""
    game = pos(hands={0: "3h 3d 4h 4d 5h 5d 7h 7d 8h 8d 9h 9d Qh"}, stock="Qd")
    assert_illegal(game, "special pairs", "special-draw-first")


# ------------------------------------------------------------------ scoring
def test_canasta_bonuses() -> None:
    """Terms: 'each complete mixed canasta ... 300 points; each complete pure canasta ... 500 points; each
    complete pure canasta of aces or sevens: 2500 points; a complete twos canasta scores 3000 points; a
    complete joker canasta scores 2500 points ...; any other complete wild canasta ... 2000 points'."""
    assert score(["Kh Kd Ks Kc Kh Kd 2c"])["mixed_canastas"] == 300
    assert score(["Kh Kd Ks Kc Kh Kd Ks"])["natural_canastas"] == 500
    assert score(["Ah Ad As Ac Ah Ad As"])["natural_canastas"] == 2500
    assert score(["7h 7d 7s 7c 7h 7d 7s"])["natural_canastas"] == 2500
    assert score(["Ah Ad As Ac Ah 2d JK"])["mixed_canastas"] == 300
    assert score(["2h 2d 2s 2c 2h 2d 2s"])["wild_canastas"] == 3000
    assert score(["JK JK JK JK 2d 2s 2c"])["wild_canastas"] == 2500
    assert score(["JK JK JK 2h 2d 2s 2c"])["wild_canastas"] == 2000
    assert score(["JK 2h 2d 2s 2c 2h 2d"])["wild_canastas"] == 2000


def test_scoring_no_canasta_column() -> None:
    """Terms: a team with no complete canastas: penalties deducted, threes 'penalty deducted from score',
    melded cards 'deducted from score', cards in hand deducted. Worked: melds K K K (30) and 7 7 7 (15),
    threes 3h 3c (100 + 100), hand 5d A (5 + 20): -30 - 15 - 2500 (sevens meld) - 200 - 25 = -2770."""
    got = score(["Kh Kd Ks", "7h 7d 7s"], threes="3h 3c", hands=["5d Ah", ""])
    assert got["melded_cards"] == -45
    assert got["incomplete_melds"] == -2500
    assert got["threes"] == -200
    assert got["cards_in_hand"] == -25
    assert sum(got.values()) == -2770


def test_scoring_one_canasta_column() -> None:
    """Terms: 'If a team has one canasta there is no score for melded threes'; melded cards added. Worked:
    K x7 natural (70 + 500), A A A pure incomplete (60, -2500), threes 3h 3d 3h (500: not counted), hand
    7c 7d 7h (15, and -1500 for three sevens): 70 + 60 + 500 - 2500 - 15 - 1500 = -3385."""
    got = score(["Kh Kd Ks Kc Kh Kd Ks", "Ah Ad As"], threes="3h 3d 3h", hands=["7c 7d 7h", ""])
    assert got["threes"] == 0
    assert got["melded_cards"] == 130
    assert got["incomplete_melds"] == -2500
    assert got["aces_sevens_in_hand"] == -1500
    assert sum(got.values()) == -3385


def test_scoring_two_canastas_column() -> None:
    """Terms: 'If a team has two or more canastas, the total score for their melded red and black threes ...
    is a bonus'; 'for a wild card meld of less than seven cards: normally minus 2000 points, but 2500 points if
    it contains all four jokers'. Worked: Q x7 (70 + 500), J mixed (60 + 20 + 300), JK JK JK JK (200, -2500),
    threes 3h 3d 3c 3s 3c (red 2: 300, black 3: 500), went out (100): 350 + 800 - 2500 + 800 + 100 = -450."""
    got = score(["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd 2c", "JK JK JK JK"], threes="3h 3d 3c 3s 3c",
                went_out=True)
    assert got["threes"] == 800
    assert got["incomplete_melds"] == -2500
    assert got["melded_cards"] == 70 + 80 + 200
    assert got["going_out"] == 100
    assert sum(got.values()) == -450


def test_three_aces_in_each_hand_penalised_per_player() -> None:
    """Terms: 'If both players of a team have the same type of incomplete meld, for example three aces each,
    then there is a penalty for each player, total 3000.'"""
    got = score(["Kh Kd Ks Kc Kh Kd Ks"], hands=["Ah Ad As", "Ac Ah Ad"])
    assert got["aces_sevens_in_hand"] == -3000


@pytest.mark.parametrize(("threes", "points"), [("3h", 100), ("3h 3d", 300), ("3h 3d 3h", 500),
                                                 ("3h 3d 3h 3d", 1000), ("3c 3s 3c 3s", 1000),
                                                 ("3h 3c", 200)])
def test_threes_table(threes: str, points: int) -> None:
    """Terms: 'one red three 100; two red threes 300; three red threes 500; four red threes 1000' (the same
    for black threes, each colour counted on its own)."""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    assert score(two, threes=threes)["threes"] == points


@pytest.mark.parametrize(("kind", "points"), [("straight", 3000), ("pairs", 2500), ("pairs-wild", 2000),
                                              ("garbage", 2000)])
def test_special_hand_scores(kind: str, points: int) -> None:
    """Terms 'Special hand scores': 'straight: 3000 points; pairs without wild cards: 2500 points; pairs with
    twos, sevens and aces: 2000 points; garbage: 2000 points'."""
    v = American(4)
    assert v.score_special(kind) == {"total": points, "items": {"special_hand": points}}
    if kind != "straight":
        assert American(4, {"pairs_garbage_score": 3500}).score_special(kind)["total"] == 3500


def test_game_to_8500() -> None:
    """Terms: 'The winners will be the first team to achieve a cumulative score of 8500 or more points'."""
    assert Game(V, 4, 0).variant.target_score == 8500
    assert find_variant(V).options["target_score"].default == 8500


# ------------------------------------------------------------------ engine properties
def _shuffle_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    d = game.to_dict()
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in d["hands"][s]] + list(d["stock"]) + [c for b in d["bonus"] for c in b]
    for s in others:
        assert not d["known"][s]
    rng.shuffle(pool)
    for s in others:
        n = len(d["hands"][s])
        d["hands"][s], pool = sorted(pool[:n]), pool[n:]
    for s in range(4):
        n = len(d["bonus"][s])
        d["bonus"][s], pool = pool[:n], pool[n:]
    d["stock"] = pool
    return Game.from_dict(d)


def test_observation_hides_bonus_cards_and_hidden_hands() -> None:
    """A seat sees its own hand and the table: never the stock, other hands or any bonus cards (held face
    down, Terms 'place them face down in front of you')."""
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d 6d"}, pile="9d", phase="play", rest=1, seed=seed,
                   stock="4c 4d 4h 4s 6h 6s 9h 9s 10h 10s 10c 10d Jh Jc Js Jd Qh Qs Qc Qd")
        d = game.to_dict()  # deal the rest between seats 1..3
        pool = d["hands"][1]
        d["hands"][1], d["hands"][2], d["hands"][3] = pool[:13], pool[13:26], pool[26:39]
        d["stock"] = pool[39:] + d["stock"]
        game = Game.from_dict(d)
        act(game, "meld Ah Ad Ac", "meld Kh Kd JK", "discard 5d")
        for _ in range(60):
            if game.is_over or game.hand_results:
                break
            seat = game.actor
            if not any(game.known[s] for s in range(4)):
                for who in {seat, 0}:
                    twin = _shuffle_hidden(game, who, rng)
                    assert twin.observation(who) == game.observation(who)
                    checked += any(game.bonus)
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 0


def test_save_and_load_keep_bonus_cards() -> None:
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d 6d", 1: "5c 6c"}, pile="9d", phase="play")
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK", "discard 5d")
    again = Game.from_json(game.to_json())
    assert again.bonus == game.bonus and again.to_json() == game.to_json()
    assert again.card_count() == 108


def test_random_hands_keep_every_invariant() -> None:
    """Random legal play: no stuck state, cards conserved, every listed action passes check()."""
    from canasta.soak import run_soak

    result = run_soak(variant=V, hands=60, seed=3)
    assert result["failures"] == [], result["failures"]


def test_golden_record_replays_and_rescores() -> None:
    """tests/data/american-4p-seed9.txt: three hands of four BasicPlayers, replayed (every action checked)
    and re-scored on every run; the totals are pinned, so a change of the rules shows here."""
    from pathlib import Path

    from canasta.record import export_record, replay_record

    text = (Path(__file__).parent / "data" / "american-4p-seed9.txt").read_text()
    g = replay_record(text)
    assert export_record(g, date="2026-11-23") == text
    assert [r["totals"] for r in g.hand_results] == [[4795, -985], [3460, -1565], [6015, -3955]]
    assert [r["went_out"] for r in g.hand_results] == [0, None, 0]
    for r in g.hand_results:
        for s in r["sides"]:
            assert s["total"] == sum(s["items"].values())


def test_scorekeeper_threes_of_both_colours_and_special_hand() -> None:
    """`canasta score`: 'threes' holds both colours (Terms: 'All threes melded by a team are counted'), and
    a side that went out with a special hand 'scores only the amount shown below for the special hand'
    while 'the opposing team calculates their score in the normal way'."""
    from canasta.errors import ScoreInputError
    from canasta.scorekeeper import score_input

    two = [["Qh", "Qd", "Qs", "Qc", "Qh", "Qd", "Qs"], ["Jh", "Jd", "Js", "Jc", "Jh", "Jd", "2c"]]
    got = score_input({"variant": V, "teams": [
        {"melds": two, "threes": ["3h", "3d", "3c"], "hands": [[], ["5d"]], "went_out": True},
        {"melds": [["Kh", "Kd", "Ks"]], "threes": ["3s"], "hands": [["Ah", "Ad", "As"], ["4c"]]}]})
    assert got["teams"][0]["items"]["threes"] == 300 + 100
    assert got["teams"][0]["total"] == 70 + 80 - 5 + 500 + 300 + 100 + 400
    assert got["teams"][1]["total"] == -30 - 65 - 1500 - 100
    got = score_input({"variant": V, "teams": [
        {"hands": [[], ["5d", "9c"]], "went_out": True, "special_hand": "pairs-wild"},
        {"melds": [["Kh", "Kd", "Ks", "Kc", "Kh", "Kd", "Ks"]], "threes": ["3h"], "hands": [["Ah"], ["4c"]]}]})
    assert got["teams"][0] == {"total": 2000, "items": {"special_hand": 2000}}
    assert got["teams"][1]["total"] == 70 + 500 - 20 - 5  # one canasta: threes not counted
    with pytest.raises(ScoreInputError):
        score_input({"variant": V, "teams": [
            {"hands": [[], []], "went_out": True, "special_hand": "zip-code"},
            {"hands": [["Ah"], []]}]})


def test_no_splash_with_the_top_card() -> None:
    """Terms 'The Splash': 'you cannot claim a splash using six cards from your hand and the seventh card of
    the canasta from the discard pile.'"""
    game = pos(hands={0: "5h 5h 5s 5s 5d 5d Ah Ad Ac Kh Kd JK 9c 9d", 1: "4c"}, pile="8c 5c")
    act(game, "take 5h 5h", "add 5 5s", "add 5 5s", "add 5 5d", "add 5 5d")
    assert game.melds[0][5].size == 7 and not game.opened[0]  # six from the hand: 30 points, no splash
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK")  # 30 + 60 + 70 = 160
    assert game.opened[0]


def test_bonus_cards_face_down_at_the_end_count_in_hand() -> None:
    """Terms 'Penalty for cards remaining in hand': bonus cards not yet picked up when the play ends are
    counted with their holder's hand (the text is silent; docs/variants/american.md)."""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d 6d", 1: "Kc Ks Ks", 2: "9h", 3: "8h"}, pile="9d",
               phase="play", melds={1: two}, stock="4h 4s 10h 10c 6h 6s 7h 7s 8s 8c 9s", rest=2)
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK", "discard 5d")
    assert game.bonus[0] == cards("4h 4s 10h")
    partner = sum(game.variant.values[c] for c in game.hand_cards(2))
    act(game, "draw", "meld Kc Ks Ks", "discard 10c")  # seat 1 goes out
    assert game.hand_results[-1]["went_out"] == 1
    assert items(game, 0)["cards_in_hand"] == -(5 + 5 + 5 + 10) - partner  # 6d and the bonus 4h 4s 10h


@pytest.mark.patches_engine  # (patches setrules: the pure-Python pass only)
@pytest.mark.parametrize("rules", [{}, {"initial_pure_meld": "three_naturals", "bonus_cards": False},
                                   {"threes_optional": True, "going_out_overflow": True}])
def test_direct_play_moves_equal_the_filtered_candidates(monkeypatch: pytest.MonkeyPatch,
                                                         rules: dict[str, object]) -> None:
    """The play phase's hot paths list exactly the moves check() accepts, in one order: setrules.play_actions
    (moves generated directly) and setrules.filter_play (Classic's candidates filtered), each against the
    full check of every candidate."""
    from canasta.engine import setrules

    checked = direct = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = Game(V, 4, seed, rules)
        for _ in range(1500):
            if game.is_over:
                break
            legal = game.legal_actions()
            if game.phase == "play":
                direct += setrules.play_actions(game) is not None
                with monkeypatch.context() as m:
                    m.setattr(setrules, "play_actions", lambda g: None)
                    filtered = game.legal_actions()
                    m.setattr(setrules, "filter_play", lambda g, out, *_: out)
                    candidates = game.legal_actions()
                full = []
                for a in candidates:
                    try:
                        game.check(a)
                    except Exception:
                        continue
                    full.append(a)
                assert full == filtered == legal
                checked += 1
            game.apply(rng.choice(legal))
    assert checked > 1000
    assert direct > checked // 2 or rules.get("threes_optional")


def test_wild_meld_meets_the_required_meld() -> None:
    """Terms: 'The minimum count and the required three card natural or wild meld must already be present'
    and the GNPS list: 'May also include a wild card meld (at least three wild cards).'"""
    game = pos(hands={0: "JK JK 2c Kh Kd 2d 5d 6d 9c", 1: "4c"}, pile="9d", phase="play")
    act(game, "meld JK JK 2c")  # 120
    assert not game.opened[0]
    act(game, "meld Kh Kd 2d")  # 120 + 40
    assert game.opened[0]


def test_wings_table_rule_has_no_bonus_cards() -> None:
    """Encyclopedia: the wings 'are never revealed, scored or otherwise permitted to affect the game'
    (bonus_cards=false): no bonus cards, so no melding down to one card for them either."""
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d", 1: "5c 6c"}, pile="9d", phase="play", rules={"bonus_cards": False})
    act(game, "meld Ah Ad Ac")
    assert_illegal(game, "meld Kh Kd JK", "one-card")
    game = pos(hands={0: "Ah Ad Ac Kh Kd JK 5d 6d", 1: "5c 6c"}, pile="9d", phase="play",
               rules={"bonus_cards": False})
    act(game, "meld Ah Ad Ac", "meld Kh Kd JK", "discard 5d")
    assert game.bonus[0] == [] and game.hand_sizes[0] == 1


def test_encoding_special_hands_and_american_observation_slots() -> None:
    """canasta.encoding: 'special <hand>' has an index of its own (912..916 for American), the kept three's
    'meld 3h' its meld slot; the observation vector holds bonus cards, turn_card_drawn, dead_ranks and
    who asked this hand (XR_OBS_LAYOUT), after Classic's layout, which is unchanged for the others."""
    pytest.importorskip("numpy")
    from canasta.encoding import (
        NUM_ACTIONS,
        OBS_SIZE,
        XR_OBS_SIZE,
        decode,
        describe_index,
        encode_action,
        encode_observation,
        legal_indices,
        num_actions,
        obs_size,
    )
    from canasta.notation import parse_action

    assert num_actions(V) == NUM_ACTIONS + 6 and num_actions("classic") == NUM_ACTIONS  # + the red three layout
    assert obs_size(V) == XR_OBS_SIZE == OBS_SIZE + 20 and obs_size("classic") == OBS_SIZE
    for i, name in enumerate(("straight", "pairs", "pairs-wild", "garbage", "zip-code")):
        assert encode_action(parse_action(f"special {name}"), V) == NUM_ACTIONS + i
        assert describe_index(NUM_ACTIONS + i, V) == f"special {name}"
    with pytest.raises(ValueError):
        encode_action(parse_action("special straight"), "classic")
    game = pos(hands={0: "3h " + STRAIGHT_13.replace("3h ", ""), 2: "8c 9c"},
               melds={1: ["Kh Kd Ks Kc Kh Kd Kc"]}, opened=[False, True], stock="Ks 5c")
    act(game, "draw")
    game.bonus[1] = [game.stock.pop() for _ in range(3)]
    legal = game.legal_actions()
    idx = legal_indices(legal, V)
    assert len(idx) == len(legal)
    assert decode(NUM_ACTIONS, legal, V) == parse_action("special straight")
    assert describe_index(encode_action(parse_action("meld 3h"), V), V).startswith("meld a red three")
    assert describe_index(encode_action(parse_action("meld 3s"), V), V).startswith("meld a black three")
    vec = encode_observation(game.observation(0))
    assert vec.shape == (XR_OBS_SIZE,)
    assert vec[OBS_SIZE + 1] == 3 / 4  # seat 1 (next after own) holds three bonus cards
    assert vec[OBS_SIZE + 4] == float(game.observation(0)["turn_card_drawn"])
    assert vec[OBS_SIZE + 5 + 13 - 4] == 1  # kings are dead
    assert vec[OBS_SIZE + 16:].sum() == 0  # nobody asked


def test_soak_rescores_a_special_hand() -> None:
    """canasta.soak checks a hand ended by a special hand: the hand laid down is that special hand and
    'the team that went out scores only the amount shown below for the special hand'."""
    from canasta.soak import _check_final_table, _Failure

    game = pos(hands={0: STRAIGHT_13, 1: "Kh Kd Ks 5c", 2: "8c 9c", 3: "4c"}, melds={1: ["9h 9d 9c"]},
               stock="Ks", opened=[False, True])
    game.deals_next_hand = False  # keep the final table, as the soak does
    act(game, "draw", "special straight")
    result = game.hand_results[-1]
    _check_final_table(game, result)
    with pytest.raises(_Failure):
        _check_final_table(game, {**result, "special_hand": "pairs"})
    with pytest.raises(_Failure):
        _check_final_table(game, {**result, "sides": [{"total": 2500, "items": {"special_hand": 2500}},
                                                      result["sides"][1]]})


def test_special_hand_in_a_record_round_trips(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand ended by 'special straight' is written, replayed and re-scored by canasta.record (the deal
    is fixed by replacing the shuffle, in the game and in its replay alike)."""
    from collections import Counter

    from canasta.record import export_record, replay_record
    from canasta.variants.base import standard_deck

    hands = [cards(STRAIGHT_13), cards("4c 4d 5c 5d 6c 6d 8c 8d 9c 9d 10c 10d Jc"),
             cards("4h 4s 5h 5s 6h 6s 8h 8s 9h 9s 10h 10s Js"), cards("Kh Kd Qh Qd Jh Jd 7h 7s 6c 6d 5c 5d 4c")]
    pops = [hands[s][k] for k in range(13) for s in range(4)] + cards("Ks")
    rest = Counter(standard_deck(2, 4))
    rest.subtract(pops)
    order = [c for c, k in sorted(rest.items()) for _ in range(k)] + pops[::-1]
    assert len(order) == 108 and min(rest.values()) >= 0
    monkeypatch.setattr(American, "deck", lambda self: list(order))
    monkeypatch.setattr(random.Random, "shuffle", lambda self, x: None)
    game = Game(V, 4, 0)
    assert game.hand_cards(0) == sorted(cards(STRAIGHT_13), key=lambda c: (c == 60, c))
    act(game, "draw", "special straight")
    assert game.hand_results[0]["special_hand"] == "straight"
    text = export_record(game, date="2026-11-23")
    assert "0: special straight" in text and "special_hand 3000" in text
    again = replay_record(text)
    assert again.hand_results == game.hand_results


# ------------------------------------------------------------------ Encyclopedia readings (table rules)
def test_threes_optional_kept_after_melding() -> None:
    """Encyclopedia 'US American Canasta': 'Both red and black threes may be played to the table as red threes
    can in "classic" canasta. Unlike in other versions of canasta, this is optional.' (table rule
    threes_optional; Terms, the default, keeps one three and only before the side melds)"""
    rules = {"threes_optional": True}
    game = pos(hands={0: "4c 5c 9d", 2: "8c 9c"}, melds={0: ["Kh Kd Ks"]}, stock="3h 6c 3s 7c", rules=rules)
    act(game, "draw")
    assert cards("3h")[0] in game.hand_cards(0) and game.red_threes[0] == []
    game = pos(hands={0: "3h 3s 3d 4c 5c", 2: "8c 9c"}, melds={0: ["Kh Kd Ks"]}, stock="6c 7c 8d", rules=rules)
    assert {"meld 3h", "meld 3s"} <= legal_texts(game)  # one of each colour (the colour is what scores)
    act(game, "meld 3s", "draw")
    assert game.red_threes[0] == cards("3s") and sum(1 for c in game.hand_cards(0) if c >> 2 == 3) == 2
    game = pos(hands={0: "4c 5c 9d", 2: "8c 9c"}, melds={0: ["Kh Kd Ks"]}, stock="3h 6c 7c")
    act(game, "draw")  # Terms: after the side has melded a three is laid out at once
    assert game.red_threes[0] == cards("3h")


def test_threes_optional_final_discard_only() -> None:
    """Encyclopedia: 'Threes can't be discarded, except as your final discard when going out' (table rule
    threes_optional)."""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Jh Jd Js Jc Jh Jd Js"]
    rules = {"threes_optional": True}
    game = pos(hands={0: "3h Kh Kd Ks", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two}, stock="5c",
               phase="play", rules=rules)
    assert_illegal(game, "discard 3h", "three-discard")
    act(game, "meld Kh Kd Ks")
    assert legal_texts(game) >= {"discard 3h"}
    act(game, "discard 3h")
    assert last_result(game)["went_out"] == 0
    game = pos(hands={0: "3h", 1: "5d 6d", 2: "8c 9c"}, pile="9d", melds={0: two[:1]}, stock="5c",
               phase="play", rules=rules)
    assert "discard 3h" not in legal_texts(game)  # one canasta: not going out
    assert_illegal(game, "discard 3h", "three-discard")


def test_threes_optional_held_threes_count_as_laid_out() -> None:
    """Encyclopedia: 'This is a penalty if your team has no canastas at the end of the hand (and for this purpose
    threes in your hand count as though they were on the table), ignored entirely if your team has exactly one
    canasta'."""
    rules = {"threes_optional": True}
    got = score(["Kh Kd Ks"], threes="3h", hands=["3d 5c", "3s"], rules=rules)
    assert got["threes"] == -(300 + 100)  # two red (one laid out, one held) and one black
    assert got["cards_in_hand"] == -5  # the 5c only: the held threes count in the table instead
    one = score(["Qh Qd Qs Qc Qh Qd Qs"], threes="3h", hands=["3d 5c", ""], rules=rules)
    assert one["threes"] == 0 and one["cards_in_hand"] == -10  # Terms: 'a three in hand ... counts 5 points'
    terms = score(["Kh Kd Ks"], threes="3h", hands=["3d 5c", "3s"])
    assert terms["threes"] == -100 and terms["cards_in_hand"] == -15


def test_going_out_overflow() -> None:
    """Encyclopedia: 'One common exception, is to allow melds of 8 or more cards when going out. Skilled players
    will play a wild card on an existing canasta for the win.' (table rule going_out_overflow; Terms: 'A meld can
    never contain more than seven cards.')"""
    two = ["Qh Qd Qs Qc Qh Qd Qs", "Kh Kd Ks Kc Kh Kd 2c"]
    rules = {"going_out_overflow": True}
    game = pos(hands={0: "JK 9c", 1: "5d 6d", 2: "8c 9h"}, pile="4d", melds={0: two}, phase="play")
    assert_illegal(game, "add K JK", "meld-max")
    game = pos(hands={0: "JK 9c", 1: "5d 6d", 2: "8c 9h"}, pile="4d", melds={0: two}, phase="play", rules=rules)
    act(game, "add K JK", "discard 9c")
    assert last_result(game)["went_out"] == 0 and game.hand_results[-1]["sides"][0]["items"]["mixed_canastas"] == 300
    # only on the step that leaves the final discard
    game = pos(hands={0: "JK 9c 9s", 1: "5d 6d", 2: "8c 9h"}, pile="4d", melds={0: two}, phase="play", rules=rules)
    assert_illegal(game, "add K JK", "meld-max")
    # a closed natural canasta stays dead: 'neither team is allowed to ... add to a meld of that rank'
    game = pos(hands={0: "Qc 9c", 1: "5d 6d", 2: "8c 9h"}, pile="4d", melds={0: two}, phase="play", rules=rules)
    assert_illegal(game, "add Q Qc", "dead-rank")


def test_going_out_counted_agrees_with_the_search() -> None:
    """Terms 'End of the Play' ('your team has completed two canastas', a final discard): past the initial meld,
    going out is decided on card counts (setrules._go_out_by_counts); wherever the bounded search over the
    engine's own moves settles a position, both agree."""
    from canasta.engine import setrules

    agreed = ways_out = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(V, 4, seed)
        for _ in range(2000):
            if game.is_over:
                break
            if game.phase == "play":
                counted = setrules._go_out_by_counts(game)
                if counted is not None:
                    nodes = [0]
                    searched = setrules._go_out_search(setrules._light_copy(game), {}, nodes)
                    if nodes[0] <= setrules.GO_OUT_SEARCH_LIMIT:
                        assert counted == searched, (seed, len(game.history))
                        agreed += 1
                        ways_out += counted
            game.apply(rng.choice(game.legal_actions()))
    assert agreed > 1000 and ways_out > 20
