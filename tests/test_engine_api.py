"""The engine's API: typed errors, the observation, saved positions (to_json/from_json) and loaded positions."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from helpers import act, assert_illegal, legal_texts, position

from canasta.cards import parse_card
from canasta.engine.actions import Action
from canasta.engine.game import SCHEMA_VERSION, Game
from canasta.errors import CanastaError, IllegalActionError, OptionError, SchemaError, UnknownVariantError

# -------------------------------------------------------------- typed errors


def test_illegal_action_error_names_rule_and_message() -> None:
    """errors.py: 'Every refusal names the rule it enforces; the game is left unchanged.'"""
    g = Game("classic", 4, 0)
    err = assert_illegal(g, "discard 5c", "draw-first")
    assert isinstance(err, CanastaError)
    assert err.message and "[draw-first]" in str(err)


def test_check_refuses_non_action() -> None:
    g = Game("classic", 4, 0)
    before = g.to_json()
    with pytest.raises(IllegalActionError) as info:
        g.check("draw")  # type: ignore[arg-type]
    assert info.value.rule == "not-an-action" and g.to_json() == before


def test_unknown_verb_refused() -> None:
    g = position(hands={0: "5c 6d"}, phase="play")
    assert_illegal(g, Action("fly"), "unknown-action")
    g = position(hands={0: "5c 6d"})
    assert_illegal(g, Action("fly"), "draw-first")


def test_check_does_not_mutate_and_apply_returns_game() -> None:
    g = Game("classic", 3, 2)
    before = g.to_json()
    for a in g.legal_actions():
        g.check(a)
    assert g.to_json() == before
    a = g.legal_actions()[0]
    assert g.apply(a) is g


def test_push_performs_listed_action_like_apply() -> None:
    """architecture.md: 'push(action) skips the check, for search and benchmarks that take actions from
    legal_actions()'."""
    a, b = Game("classic", 4, 9), Game("classic", 4, 9)
    for _ in range(30):
        action = a.legal_actions()[-1]
        a.apply(action)
        b.push(action)
    assert a.to_json() == b.to_json()


def test_copy_is_independent() -> None:
    g = Game("classic", 4, 4)
    c = g.copy()
    before = g.to_json()
    for _ in range(40):
        c.apply(c.legal_actions()[0])
    assert g.to_json() == before and c.to_json() != before


@pytest.mark.parametrize("target", [-1, 16, 99])
def test_add_to_impossible_meld_rank_is_refused(target: int) -> None:
    """errors.py: a well-formed action the rules do not allow raises IllegalActionError naming the rule."""
    g = position(hands={0: "Kc Kd 5c"}, melds={0: ["Ks Kh Kd"]}, phase="play")
    assert_illegal(g, Action("add", (parse_card("Kc"),), target), "no-such-meld")


def test_bad_game_arguments_raise_typed_errors() -> None:
    with pytest.raises(UnknownVariantError):
        Game("no-such-game", 4, 0)
    with pytest.raises(OptionError):
        Game("classic", 5, 0)
    with pytest.raises(OptionError):
        Game("classic", 4, 0, {"no_such_rule": 1})
    with pytest.raises(OptionError):
        Game("classic", 4, 0, {"jokers": 3})
    with pytest.raises(OptionError):
        Game("classic", 4, 0, {"always_frozen": "maybe"})


def test_options_coerced_from_text() -> None:
    g = Game("classic", 4, 0, {"always_frozen": "yes", "target_score": "1000"})
    assert g.variant.rules["always_frozen"] is True and g.variant.target_score == 1000


# ---------------------------------------------------------------- observation


OBSERVATION_KEYS = {
    "variant", "rules", "players", "seat", "side", "partner", "hand_no", "dealer", "turn", "actor", "phase",
    "hand", "hand_sizes", "stock_size", "pile_size", "pile_top", "pile", "frozen", "melds", "red_threes",
    "opened", "minimum", "pending_value", "pile_taken_aside", "scores", "asked", "permission", "hand_results",
    "winner",
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_fields(players: int) -> None:
    """architecture.md: 'the seat's own hand, card counts of the others, melds, red threes, stock size, the discard
    pile ..., frozen state, scores, minimums, and the "may I go out?" state.'"""
    g = Game("classic", players, 11)
    for seat in range(players):
        obs = g.observation(seat)
        assert set(obs) >= OBSERVATION_KEYS
        json.dumps(obs)  # plain data
        assert obs["seat"] == seat and obs["players"] == players
        assert obs["side"] == g.side_of(seat)
        assert obs["partner"] == ((seat + 2) % 4 if players == 4 else None)
        assert len(obs["hand"]) == obs["hand_sizes"][seat] == g.hand_sizes[seat]
        assert obs["stock_size"] == len(g.stock) and obs["pile_size"] == len(g.pile)
        assert obs["pile_top"] == obs["pile"][-1]
        assert len(obs["scores"]) == len(obs["minimum"]) == len(obs["melds"]) == g.num_sides
        assert obs["actor"] == g.actor and obs["phase"] == "draw"


def test_observation_shows_melds_and_ask_state() -> None:
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Ks Kh Kd Kc Ks Kh Kd", "9s 9h 2c"]}, red_threes={1: "3h"},
                 scores=[1500, -20])
    act(g, "ask")
    obs = g.observation(1)
    assert obs["phase"] == "answer" and obs["actor"] == 2 and obs["asked"] is True and obs["permission"] is None
    assert obs["melds"][0] == [
        {"rank": "K", "cards": ["Ks", "Kh", "Kd", "Kc", "Ks", "Kh", "Kd"], "canasta": True, "natural": True},
        {"rank": "9", "cards": ["9s", "9h", "2c"], "canasta": False, "natural": False},
    ]
    assert obs["red_threes"] == [[], ["3h"]]
    assert obs["minimum"] == [90, 15] and obs["opened"] == [True, False]
    act(g, "no")
    assert g.observation(3)["permission"] is False


def test_observation_of_finished_game() -> None:
    g = position(hands={0: "5c 5d 5h"}, melds={0: ["Qs Qh Qd Qc Qs Qh Qd"]}, scores=[4900, 0], phase="play")
    act(g, "meld 5c 5d 5h")
    obs = g.observation(1)
    assert obs["phase"] == "over" and obs["actor"] is None and obs["winner"] == 0
    assert obs["hand_results"][-1]["went_out"] == 0


def test_observation_of_no_such_seat() -> None:
    g = Game("classic", 3, 0)
    with pytest.raises(IllegalActionError) as info:
        g.observation(3)
    assert info.value.rule == "no-such-seat"


# ----------------------------------------------------------- saved positions


def test_to_json_round_trip_fresh_and_midgame() -> None:
    g = Game("classic", 4, 21, {"stock_out": "optional", "jokers": 6})
    for _ in range(120):
        text = g.to_json()
        loaded = Game.from_json(text)
        assert loaded.to_json() == text
        assert loaded.legal_actions() == g.legal_actions()
        g.apply(g.legal_actions()[-1])
        if g.is_over:
            break


def test_to_json_schema_version() -> None:
    d = json.loads(Game("classic", 2, 0).to_json())
    assert d["schema"] == SCHEMA_VERSION == 1
    assert d["variant"] == "classic" and d["players"] == 2


def _mutated(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    d = Game("classic", 4, 0).to_dict()
    change(d)
    return d


@pytest.mark.parametrize(("name", "change"), [
    ("schema version", lambda d: d.update(schema=2)),
    ("no schema", lambda d: d.pop("schema")),
    ("missing key", lambda d: d.pop("hand_results")),
    ("unknown variant", lambda d: d.update(variant="no-such-game")),
    ("bad player count", lambda d: d.update(players=5)),
    ("bad option", lambda d: d.update(rules={"jokers": 3})),
    ("unknown option", lambda d: d.update(rules={"no_such_rule": True})),
    ("card missing", lambda d: d["stock"].pop()),
    ("extra meld", lambda d: d.update(melds=[[[13, [52, 53, 54]]], []])),
    ("unknown phase", lambda d: d.update(phase="lunch")),
    ("stock not a list", lambda d: d.update(stock=7)),
])
def test_from_dict_refuses_bad_positions(name: str, change: Callable[[dict[str, Any]], object]) -> None:
    """architecture.md: 'a loaded position is validated (card count, phase)'; errors.py: SchemaError for 'A saved
    position that cannot be loaded.'"""
    with pytest.raises(SchemaError):
        Game.from_dict(_mutated(change))


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "42", '"position"', "{}"])
def test_from_json_refuses_non_positions(text: str) -> None:
    with pytest.raises(SchemaError):
        Game.from_json(text)


def _replace_stock_card(d: dict[str, Any], code: int) -> None:
    d["stock"][0] = code


@pytest.mark.parametrize(("name", "change"), [
    ("a non-card code in the stock", lambda d: _replace_stock_card(d, 99)),
    ("a code below the cards in the stock", lambda d: _replace_stock_card(d, 5)),
    ("a third copy of a card", lambda d: _replace_stock_card(d, d["hands"][0][0] if d["hands"][0][0] != 60 else 8)),
    ("a negative code in a hand", lambda d: d["hands"][0].__setitem__(0, -1)),
    ("turn out of range", lambda d: d.update(turn=7)),
    ("scores for one side", lambda d: d.update(scores=[0])),
])
def test_from_dict_refuses_impossible_contents(name: str, change: Callable[[dict[str, Any]], object]) -> None:
    """architecture.md: 'a loaded position is validated'. A position whose cards are not the pack (a non-card
    code, three copies of a card in a two-pack game) or whose seats do not fit the player count is refused
    (it used to load and fail later: observation() NotationError, legal_actions() IndexError)."""
    with pytest.raises(SchemaError):
        Game.from_dict(_mutated(change))


# ---------------------------------------------------------- loaded positions


def test_legal_actions_on_loaded_position() -> None:
    """A hand-built position lists exactly the actions of its decision point."""
    g = position(hands={0: "Kh Kd 9h 2c 5c"}, pile="6d Ks", melds={0: ["9s 9d 9c"]})
    assert legal_texts(g) == {"draw", "take Kh Kd", "take Kh 2c"}
    g = position(hands={0: "Kh Kd 9h 2c 5c"}, pile="6d Ks", melds={0: ["9s 9d 9c"]}, phase="play")
    assert legal_texts(g) == {"meld Kh Kd 2c", "add 9 9h", "add 9 2c",
                              "discard Kh", "discard 9h", "discard 5c", "discard 2c"}


def test_loaded_position_refuses_as_before() -> None:
    g = position(hands={0: "Kh Kd 9h 2c 5c"}, pile="6d JK Ks", melds={0: ["9s 9d 9c"]})
    loaded = Game.from_json(g.to_json())
    assert loaded.frozen
    assert_illegal(loaded, "take Kh 2c", "pile-frozen")
    act(loaded, "take Kh Kd")
    assert "JK" in [c for c in loaded.observation(0)["hand"]]


def test_a_refused_option_value_quotes_the_values_allowed() -> None:
    """An option's refusal quotes each allowed value, so a value with a comma or a space reads as one value."""
    with pytest.raises(OptionError, match="must be one of 'three', 'not_more_than_naturals', not 'x'"):
        Game("classic", players=4, seed=1, rules={"wild_limit": "x"})
