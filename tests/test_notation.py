"""Cards and single actions in the text notation (docs/notation.md): round trips and errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta.cards import JOKER, card, format_card, parse_card, parse_rank
from canasta.engine.actions import ADD, DISCARD, KINDS, MELD, TAKE, Action
from canasta.engine.game import WILD_RANK, Game
from canasta.errors import NotationError
from canasta.notation import format_action, format_move, parse_action, parse_move

ALL_CODES = [*range(8, 60), JOKER]
EXAMPLES = max(5, settings().max_examples // 5)


# ----------------------------------------------------------------------- cards
@pytest.mark.parametrize("code", ALL_CODES)
def test_every_card_round_trips(code: int) -> None:
    assert parse_card(format_card(code)) == code


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("Ah", 14, 1), ("10d", 10, 2), ("Td", 10, 2), ("td", 10, 2), ("3s", 3, 0), ("Kc", 13, 3),
    ("2C", 2, 3), ("qH", 12, 1),
])
def test_card_spellings(text: str, rank: int, suit: int) -> None:
    assert parse_card(text) == card(rank, suit)


def test_ten_is_written_10() -> None:
    assert format_card(parse_card("Td")) == "10d"
    assert parse_card("Td") == parse_card("10d")


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "joker", "*"])
def test_joker_spellings(text: str) -> None:
    assert parse_card(text) == JOKER
    assert format_card(JOKER) == "JK"


@pytest.mark.parametrize("text", ["", "A", "h", "11h", "Ax", "Zs", "10", "1", "??", "K♠"])
def test_bad_cards(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


@pytest.mark.parametrize("code", [0, 7, 61, -1])
def test_no_card_has_that_code(code: int) -> None:
    with pytest.raises(NotationError):
        format_card(code)


@pytest.mark.parametrize(("text", "rank"), [("K", 13), ("10", 10), ("T", 10), ("a", 14), ("3", 3)])
def test_ranks(text: str, rank: int) -> None:
    assert parse_rank(text) == rank


# --------------------------------------------------------------------- actions
@pytest.mark.parametrize("text", [
    "draw", "take", "take Kh Kd", "take 9s JK", "meld 9s 9h 2c", "meld 3s 3c 3s",
    "add K Kc", "add K Kc JK", "add W 2c", "add 3 3s", "add 10 10h",
    "discard 4d", "discard JK", "ask", "yes", "no", "retract", "end",
])
def test_actions_round_trip(text: str) -> None:
    action = parse_action(text)
    assert format_action(action) == text
    assert parse_action(format_action(action)) == action


def test_action_spellings() -> None:
    assert parse_action("DRAW") == Action("draw")
    assert parse_action("  discard   Td ") == Action(DISCARD, (parse_card("10d"),))
    # 'add Kc' alone: the meld is the natural card's rank
    assert parse_action("add Kc JK") == Action(ADD, (parse_card("Kc"), JOKER), 13)
    assert parse_action("add w 2c") == Action(ADD, (parse_card("2c"),), WILD_RANK)
    assert parse_action("take") == Action(TAKE)
    assert parse_action("meld 5h 5d 5c") == Action(MELD, tuple(parse_card(c) for c in ("5h", "5d", "5c")))


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty"),
    ("   ", "empty"),
    ("pass", "unknown action"),
    ("meld", "needs cards"),
    ("discard", "needs cards"),
    ("draw Kh", "takes no cards"),
    ("ask 3s", "takes no cards"),
    ("add", "add needs a meld"),
    ("add 2c", "must name the meld"),
    ("meld Kh Kx Kd", "not a card"),
    ("discard 11h", "not a card"),
])
def test_parse_action_errors(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_action(text)


def test_moves() -> None:
    assert parse_move("2: discard 4d") == (2, Action(DISCARD, (parse_card("4d"),)))
    assert parse_move(" 0 :draw") == (0, Action("draw"))
    assert format_move(3, parse_action("add K Kc")) == "3: add K Kc"


@pytest.mark.parametrize("text", ["draw", "x: draw", "-1: draw", ": draw", "0 draw", "0: fly"])
def test_parse_move_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_all_verbs_listed() -> None:
    assert set(KINDS) == {"draw", "take", "meld", "add", "discard", "ask", "yes", "no", "retract", "end",
                          "merge", "special", "keep"}


def test_keep_round_trips_and_names_a_pile() -> None:
    """Hand and Foot's hand-passing deal: 'keep 1' / 'keep 2' (the pile kept as the foot)."""
    for n in (1, 2):
        a = parse_action(f"keep {n}")
        assert a == Action("keep", (), n) and format_action(a) == f"keep {n}"
    for bad in ("keep", "keep 3", "keep 1 2", "keep Kh"):
        with pytest.raises(NotationError):
            parse_action(bad)


@settings(max_examples=EXAMPLES)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), steps=st.integers(0, 300))
def test_every_legal_action_round_trips(seed: int, players: int, steps: int) -> None:
    """Each legal action along a random game formats to text that parses back to it."""
    game = Game("classic", players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        for action in legal:
            assert parse_action(format_action(action)) == action
            assert parse_move(format_move(game.actor, action)) == (game.actor, action)
        game.apply(rng.choice(legal))
