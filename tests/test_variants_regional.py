"""Uruguayan and Cuban Canasta (encyclopedia-canasta-and-variants.txt).

Both are Classic Canasta with the differences their sections list; these tests
cite those sentences. Everything else is covered by the Classic rule tests.
"""

from __future__ import annotations

import random

import pytest
from helpers import position

from canasta import Game
from canasta.cards import parse_card
from canasta.errors import IllegalActionError
from canasta.notation import parse_action
from canasta.scoring import score_side
from canasta.variants import find_variant


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def as_variant(game: Game, name: str) -> Game:
    d = game.to_dict()
    d["variant"] = name
    return Game.from_dict(d)


def score(variant: str, melds: list[str], red: str = "", hands: list[str] | None = None,
          removed: int = 0, rules: dict[str, object] | None = None) -> dict[str, int]:
    v = find_variant(variant)(4, rules or {})
    return score_side(v, melds=[(0, cards(m)) for m in melds], red_threes=cards(red),  # type: ignore[arg-type]
                      hands=[cards(h) for h in (hands or ["", ""])], went_out=False, concealed=False,
                      all_red_threes=len(cards(red)) == 4, removed_black_threes=removed)["items"]


# ---------------------------------------------------------------- Uruguayan
def test_uruguayan_pile_is_always_frozen() -> None:
    """Encyclopedia 'Uruguayan Canasta': 'The deck is always frozen' - even for a side that has
    melded, the pile is taken only with a natural pair."""
    game = as_variant(position(hands={0: "Kh 2c 5d 6d 9s"}, pile="7h Kd", melds={0: ["Qh Qd Qs"]}), "uruguayan")
    before = game.to_json()
    with pytest.raises(IllegalActionError) as err:
        game.apply(parse_action("take Kh 2c"))
    assert err.value.rule == "pile-frozen"
    assert game.to_json() == before
    assert all(a.kind != "take" for a in game.legal_actions())


def test_uruguayan_wild_canasta_allowed_and_worth_2000() -> None:
    """'Canastas made solely of wild cards are allowed. They are worth 2,000 points'."""
    game = as_variant(position(hands={0: "2c 2d JK 5d 6d 9s 9h"}, phase="play", melds={0: ["Qh Qd Qs"]}), "uruguayan")
    game.apply(parse_action("meld 2c 2d JK"))
    assert game.melds[0][1].size == 3
    items = score("uruguayan", ["2c 2d 2h 2s JK JK 2c"])
    assert items["wild_canastas"] == 2000
    assert items["natural_canastas"] == 0


@pytest.mark.parametrize("variant", ["classic", "uruguayan", "cuban"])
def test_wild_canasta_described_as_scored(variant: str) -> None:
    """The description of the table rule wild_canastas names what a wild canasta scores: Encyclopedia 'Uruguayan
    Canasta': 'They are worth 2,000 points'; 'Cuban Canasta': 'Wild card canastas are worth between 2,000 and
    4,000'; Classic (the Encyclopedia's option 'Allowing canastas made entirely of wild cards', no value given):
    as a natural canasta, 500 (issue 17, defect 11: Uruguayan and Cuban were described as 500)."""
    v = find_variant(variant)(4, {"wild_canastas": True})
    help_text = v.options["wild_canastas"].help
    for meld in ("2c 2d 2h JK JK JK JK", "2c 2d 2h 2s 2c 2d 2h"):
        points = v.canasta_kind(cards(meld))[1]
        assert str(points) in help_text, (variant, points, help_text)


def test_uruguayan_plays_whole_games() -> None:
    game = Game("uruguayan", 4, seed=2, rules={"target_score": 1500})
    rng = random.Random(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        assert game.card_count() == 108
    assert game.winner is not None


# -------------------------------------------------------------------- Cuban
def test_cuban_game_is_to_7500_and_pile_always_frozen() -> None:
    """Encyclopedia 'Cuban Canasta': 'A two-deck variant to 7,500 ... The deck is always frozen.'"""
    v = find_variant("cuban")(4, {})
    assert v.target_score == 7500
    assert v.always_frozen
    assert len(v.deck()) == 108


def test_cuban_minimum_150_over_5000() -> None:
    """'Requires 150 for an initial meld if a partnership is over 5,000.' Over is above: a side at exactly
    5,000 still needs Classic's 120 (issue 17, defect 7)."""
    v = find_variant("cuban")(4, {})
    assert [v.minimum(s) for s in (-10, 0, 1500, 3000, 4995, 5000, 5005, 7000)] == \
        [15, 50, 90, 120, 120, 120, 150, 150]
    # played through the API: an initial meld of 120 (three aces, kings and queens: 60 + 30 + 30)
    hand = {0: "As Ah Ad Ks Kh Kd Qs Qh Qd 5c 6c"}
    g = position(variant="cuban", hands=hand, phase="play", scores=[5000, 0])
    for move in ("meld As Ah Ad", "meld Ks Kh Kd", "meld Qs Qh Qd", "discard 5c"):
        g.apply(parse_action(move))
    assert g.opened[0] and g.turn == 1
    g = position(variant="cuban", hands=hand, phase="play", scores=[5005, 0])
    for move in ("meld As Ah Ad", "meld Ks Kh Kd", "meld Qs Qh Qd"):
        g.apply(parse_action(move))
    with pytest.raises(IllegalActionError) as info:
        g.apply(parse_action("discard 5c"))
    assert info.value.rule == "minimum-count"


@pytest.mark.parametrize(("deuces", "value"), [(3, 2000), (4, 2500), (5, 3000), (6, 3500), (7, 4000)])
def test_cuban_wild_canasta_by_deuces(deuces: int, value: int) -> None:
    """'Wild card canastas are worth between 2,000 and 4,000; depending on the number of deuces'
    (read as 2000 for three deuces with four jokers, 500 more per deuce)."""
    meld = " ".join(["2c"] * deuces + ["JK"] * (7 - deuces))
    assert score("cuban", [meld])["wild_canastas"] == value


@pytest.mark.parametrize(("red", "value"), [("3h", 100), ("3h 3d", 300), ("3h 3d 3h", 500), ("3h 3d 3h 3d", 1000)])
def test_cuban_red_threes_table_with_a_canasta(red: str, value: int) -> None:
    """'they count 100 for one, 300 for two, 500 for three and 1,000 for four'."""
    assert score("cuban", ["Kh Kd Ks Kc Kh Kd Ks"], red=red)["red_threes"] == value


def test_cuban_red_threes_not_scored_without_a_canasta() -> None:
    """'Threes are scored only if canastas are made'; the option scores them against the side."""
    assert score("cuban", ["Kh Kd Ks"], red="3h 3d")["red_threes"] == 0
    assert score("cuban", ["Kh Kd Ks"], red="3h 3d", rules={"threes_without_canasta": "negative"})["red_threes"] == -300


def test_cuban_black_threes_leave_play_when_the_pile_is_taken() -> None:
    """'Black threes are removed from play if a discard pile is taken'."""
    game = as_variant(position(hands={0: "Kh Kd 5d 6d 9s 9h"}, pile="3s 7c 3c 8d Ks", melds={0: ["Qh Qd Qs"]}), "cuban")
    game.apply(parse_action("take Kh Kd"))
    assert sorted(game.removed[0]) == sorted(cards("3s 3c"))
    assert game.hand_sizes[0] == 4 + 2  # 5d 6d 9s 9h plus 7c 8d
    assert game.card_count() == 108


def test_cuban_all_four_black_threes_removed_earn_100() -> None:
    """'a partnership that removes all four black threes this way gets 100 points'."""
    assert score("cuban", ["Kh Kd Ks"], removed=4)["black_threes_removed"] == 100
    assert score("cuban", ["Kh Kd Ks"], removed=3)["black_threes_removed"] == 0


def test_cuban_plays_whole_hands_without_a_stuck_state() -> None:
    for seed in range(3):
        game = Game("cuban", 4, seed=seed)
        rng = random.Random(seed)
        while len(game.hand_results) < 3:
            actions = game.legal_actions()
            assert actions
            game.apply(rng.choice(actions))
            assert game.card_count() == 108
