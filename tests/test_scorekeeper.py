"""The scorekeeper (`canasta score`): hand-worked scores and every kind of bad input.

Card values (Bicycle 'Point Value of Cards'): joker 50, 2 and A 20, K..8 10, 7..4 and
black 3 5. Bonuses (Bicycle 'Scoring the Deal'): going out 100, concealed an extra 100,
red three 100 each, natural canasta 500, mixed canasta 300; all four red threes 800
(Denexa 'Canasta' scoring, Encyclopedia 'The scoring'); red threes of a side that has
not melded count against it (Encyclopedia 'The scoring', Fragment 'Scoring Canasta').
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from canasta.cli import app
from canasta.errors import OptionError, ScoreInputError, UnknownVariantError
from canasta.scorekeeper import UNDECLARED_RED_THREE_PENALTY, render_sheet, score_input

DATA = Path(__file__).parent / "data" / "score"

BASE: dict[str, Any] = {
    "variant": "classic",
    "teams": [
        {"melds": [["Kh", "Kd", "Ks", "Kc", "Kh", "Kd", "Ks"], ["5h", "5d", "5s"]], "threes": ["3h"],
         "hands": [[], ["9h", "4c"]], "went_out": True, "concealed": True},
        {"melds": [["Qh", "Qd", "Qs", "2c"], ["7h", "7d", "JK"]], "threes": ["3d"],
         "hands": [["Ah", "As"], ["JK", "6c"]]},
    ],
}


def base() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def totals(data: dict[str, Any]) -> list[int]:
    return [t["total"] for t in score_input(data)["teams"]]


# ---------------------------------------------------------------- hand-worked scores
def test_went_out_concealed_with_a_natural_canasta() -> None:
    result = score_input(base())
    # Team 1: melded 7 kings 7*10=70 + three fives 3*5=15 = 85; hand 9h 10 + 4c 5 = 15 against;
    # natural canasta 500, one red three 100, going out 100, concealed an extra 100 (Bicycle).
    # 85 - 15 + 500 + 100 + 100 + 100 = 870.
    assert result["teams"][0] == {"total": 870, "items": {
        "melded_cards": 85, "cards_in_hand": -15, "natural_canastas": 500, "mixed_canastas": 0,
        "red_threes": 100, "going_out": 100, "concealed": 100}}
    # Team 2: melded Q Q Q 2 = 30 + 20 = 50, 7 7 JK = 5 + 5 + 50 = 60 -> 110; hands A A 20+20,
    # JK 6 50+5 -> 95 against; one red three 100 (the side has melded). 110 - 95 + 100 = 115.
    assert result["teams"][1] == {"total": 115, "items": {
        "melded_cards": 110, "cards_in_hand": -95, "natural_canastas": 0, "mixed_canastas": 0,
        "red_threes": 100, "going_out": 0, "concealed": 0}}
    assert set(result) == {"teams"} and all(set(t) == {"total", "items"} for t in result["teams"])


def test_not_concealed_loses_only_the_extra_100() -> None:
    data = base()
    data["teams"][0]["concealed"] = False
    # Bicycle: the concealed bonus is 'an extra 100' on top of going out: 870 - 100.
    assert totals(data) == [770, 115]


def test_side_that_never_melded_holding_red_threes() -> None:
    result = score_input(json.loads((DATA / "partnership-unmelded-red-threes.json").read_text()))
    # Team 2 made no meld: hands K K 2 = 10+10+20, 4 A = 5+20 -> 65 against; its two red threes
    # count against it, -200 (Encyclopedia: 'a penalty of 300 points rather than ... a 300 point
    # bonus' for three; Fragment: 'penalized 100 points if the partnership did not meld').
    assert result["teams"][1]["items"]["red_threes"] == -200
    assert result["teams"][1]["total"] == -65 - 200


def test_mixed_canasta_with_four_wild_cards() -> None:
    result = score_input(json.loads((DATA / "partnership-unmelded-red-threes.json").read_text()))
    # J J J J 2 2 JK JK: a canasta of 4 naturals + 3 wilds, then a 4th wild added (Bicycle allows wild
    # cards over three once it is a canasta): 4*10 + 20 + 20 + 50 + 50 = 180; 8 8 8 = 30 -> 210 melded.
    # Hand 4 4 = 10 against. Mixed canasta 300, going out 100. 210 - 10 + 300 + 100 = 600.
    assert result["teams"][0] == {"total": 600, "items": {
        "melded_cards": 210, "cards_in_hand": -10, "natural_canastas": 0, "mixed_canastas": 300,
        "red_threes": 0, "going_out": 100, "concealed": 0}}


def test_all_four_red_threes_score_800() -> None:
    result = score_input(json.loads((DATA / "all-red-threes.json").read_text()))
    # Denexa: 'unless all four are held, in which case they are 200 points each (for a total of 800)'.
    # Melded 7 aces 7*20 = 140 + 6 6 6 2 = 15 + 20 = 35 -> 175; hand Q 10 against;
    # natural canasta 500, red threes 800, going out 100: 175 - 10 + 500 + 800 + 100 = 1565.
    assert result["teams"][0]["items"]["red_threes"] == 800
    assert result["teams"][0]["total"] == 1565
    # They: 9 9 9 = 30 melded; hands 5 5 = 10, T JK = 60 -> 70 against: -40.
    assert result["teams"][1]["total"] == -40


def test_three_red_threes_are_100_each() -> None:
    data = json.loads((DATA / "all-red-threes.json").read_text())
    data["teams"][0]["threes"] = ["3h", "3h", "3d"]
    # Encyclopedia: 'Each red three, up to three 100': 1565 - 800 + 300 = 1065.
    assert totals(data)[0] == 1065


def test_all_four_red_threes_of_a_side_that_did_not_meld() -> None:
    data = base()
    data["teams"][0]["threes"] = []
    data["teams"][1] = {"threes": ["3h", "3h", "3d", "3d"], "hands": [["4s"], ["4c"]]}
    # No meld: the 800 counts against the side (score_side: negative red threes), hands 5 + 5.
    assert totals(data)[1] == -800 - 10


def test_two_players() -> None:
    result = score_input(json.loads((DATA / "two-players.json").read_text()))
    # Player 1 went out with the two canastas two players need (Denexa 'Canasta for two players'):
    # Q*7 = 70; 10 10 10 10 2 2 JK = 40 + 20 + 20 + 50 = 130 (mixed); black threes melded when going
    # out (Fragment) 3*5 = 15 -> 215. 215 + 500 + 300 + red three 100 + going out 100 = 1215.
    assert result["teams"][0]["total"] == 1215
    # Player 2: 7 7 7 7 = 20 melded; hand K K 9 3c = 10+10+10+5 = 35 against; red three 100 -> 85.
    assert result["teams"][1] == {"total": 85, "items": {
        "melded_cards": 20, "cards_in_hand": -35, "natural_canastas": 0, "mixed_canastas": 0,
        "red_threes": 100, "going_out": 0, "concealed": 0}}


def test_two_players_need_two_canastas_to_go_out() -> None:
    data = json.loads((DATA / "two-players.json").read_text())
    del data["teams"][0]["melds"][1]
    with pytest.raises(ScoreInputError, match=r"player 1 went out with 1 canasta\(s\) \(1 natural\), but going out needs 2"):
        score_input(data)
    data["rules"] = {"canastas_to_go_out": 1}
    # Encyclopedia makes two canastas a table rule; with one required: 1215 - 130 - 300 = 785.
    assert totals(data)[0] == 785


def test_three_players() -> None:
    # Player 1: 9*6 = 60 + 2 = 20 -> 80, mixed canasta 300, going out 100 = 480 (one canasta suffices for 3).
    # Player 2: K K K 30, red threes 200, hand A 20 against = 210.
    # Player 3: no meld: red three -100, hand JK 4 5 = 60 against = -160.
    assert totals(json.loads((DATA / "three-players.json").read_text())) == [480, 210, -160]


def test_undeclared_red_threes_and_penalties() -> None:
    result = score_input(json.loads((DATA / "penalties.json").read_text()))
    # Team 1: K*7 70, hand 5 against, natural 500, out 100, taking the upcard unusable -50 (Denexa) = 615.
    assert result["teams"][0]["items"]["upcard_unusable"] == -50
    assert result["teams"][0]["total"] == 615
    # Team 2: Q Q Q 30, hands 8 8 9 = 30 against, red three 100, one undeclared red three -500
    # (Denexa 'Penalties'; Bicycle '500 point penalty'), an illegal meld -100 (Bicycle 'Illegal Melds'):
    # 30 - 30 + 100 - 500 - 100 = -500.
    assert result["teams"][1]["items"]["undeclared_red_threes"] == -UNDECLARED_RED_THREE_PENALTY == -500
    assert result["teams"][1]["items"]["illegal_meld"] == -100
    assert result["teams"][1]["total"] == -500


def test_two_undeclared_red_threes() -> None:
    data = base()
    data["teams"][1]["undeclared_red_threes"] = 2
    assert score_input(data)["teams"][1]["items"]["undeclared_red_threes"] == -1000
    assert totals(data)[1] == 115 - 1000


def test_table_rules_wild_canasta_and_concealed_bonus() -> None:
    result = score_input(json.loads((DATA / "rules.json").read_text()))
    # wild_canastas (Encyclopedia): 2 2 2 2 JK JK JK = 80 + 150 = 230, a natural canasta 500; A A A 60.
    # concealed_bonus 250 (Encyclopedia suggests 250). 290 - 5 + 500 + 100 + 250 = 1135.
    assert result["teams"][0]["items"]["concealed"] == 250
    assert result["teams"][0]["total"] == 1135
    # Five fives 25 melded, J J 4 = 25 against: 0.
    assert result["teams"][1]["total"] == 0


def test_rules_given_as_text_are_coerced() -> None:
    data = base()
    data["rules"] = {"going_out_bonus": "300"}
    assert score_input(data)["teams"][0]["items"]["going_out"] == 300


def test_natural_canasta_required_to_go_out() -> None:
    data = json.loads((DATA / "partnership-unmelded-red-threes.json").read_text())
    data["rules"] = {"natural_canastas_to_go_out": 1}
    with pytest.raises(ScoreInputError, match=r"went out with 1 canasta\(s\) \(0 natural\), but going out needs 1 canasta\(s\), 1 of them natural"):
        score_input(data)


def test_seven_canastas_rule_item() -> None:
    ranks = ["A", "K", "Q", "J", "10", "9", "8"]
    melds = [[f"{r}h", f"{r}d", f"{r}s", f"{r}c", f"{r}h", f"{r}d", f"{r}s"] for r in ranks]
    data = {"rules": {"seven_canastas_win": True}, "teams": [
        {"melds": melds, "hands": [[], ["4c"]], "went_out": True}, {"hands": [["5c"], ["6c"]]}]}
    items = score_input(data)["teams"][0]["items"]
    # Encyclopedia: 'any player/team that manages to meld 7 canastas in one hand ... gain 5000 points'.
    assert items["seven_canastas"] == 5000
    assert items["natural_canastas"] == 7 * 500


def test_hand_with_a_black_three_counts_five_against() -> None:
    data = base()
    data["teams"][1]["hands"][1] = ["JK", "6c", "3s"]
    assert totals(data)[1] == 115 - 5


def test_variant_alias_and_default() -> None:
    data = base()
    data["variant"] = "Canasta"
    assert totals(data) == [870, 115]
    del data["variant"]
    assert totals(data) == [870, 115]


def test_example_files_are_all_checked() -> None:
    expected = {
        "all-red-threes.json": [1565, -40],
        "partnership-concealed.json": [870, 115],
        "partnership-unmelded-red-threes.json": [600, -265],
        "penalties.json": [615, -500],
        "rules.json": [1135, 0],
        "samba.json": [1395, 505],
        "three-players.json": [480, 210, -160],
        "two-players.json": [1215, 85],
    }
    assert sorted(p.name for p in DATA.glob("*.json")) == sorted(expected)
    for name, want in expected.items():
        assert totals(json.loads((DATA / name).read_text())) == want, name
    assert json.loads((DATA / "partnership-concealed.json").read_text()) == BASE


# ---------------------------------------------------------------- bad input
def bad(mutate: Any) -> dict[str, Any]:
    data = base()
    mutate(data)
    return data


def _team(i: int, **changes: Any) -> Any:
    def mutate(d: dict[str, Any]) -> None:
        d["teams"][i].update(changes)
    return mutate


BAD_CASES: list[tuple[str, Any, str]] = [
    ("unknown top key", lambda d: d.update(score=1), r"unknown key 'score' in the input"),
    ("missing teams", lambda d: d.pop("teams"), r"the input has no 'teams'"),
    ("teams not a list", lambda d: d.update(teams={"a": 1}), r"'teams' must be a list of objects, one per side, not an object"),
    ("team not an object", lambda d: d["teams"].__setitem__(1, ["Kh"]), r"entry 2 of 'teams' must be an object"),
    ("team without hands", lambda d: d["teams"][1].pop("hands"), r"entry 2 of 'teams' has no 'hands'"),
    ("hands not a list", _team(1, hands="Ah As"), r"entry 2 of 'teams': 'hands' must be a list"),
    ("unknown team key", _team(0, wentout=True), r"team 1 has an unknown key 'wentout'"),
    ("went_out not a bool", _team(1, went_out="no"), r"team 2: 'went_out' must be true or false, not the text 'no'"),
    ("melds not a list", _team(1, melds="Qh Qd Qs"), r"team 2: 'melds' must be a list of melds"),
    ("meld not a list", _team(1, melds=["Qh"]), r"team 2, meld 1 must be a list of cards"),
    ("card not text", _team(1, threes=[3]), r"team 2, threes, card 1: a card is written as text such as \"Kh\", not the number 3"),
    ("unknown card", _team(1, hands=[["Ah", "Xh"], ["JK"]]), r"team 2, hand 1, card 2: 'Xh' is not a card"),
    ("unknown card in meld", _team(1, melds=[["Qh", "Qd", "Qz"]]), r"team 2, meld 1, card 3: 'Qz' is not a card"),
    ("name not text", _team(0, name=5), r"team 1: 'name' must be text"),
    ("meld too short", _team(1, melds=[["Qh", "Qd"]]), r"team 2, meld 1 \(Qh Qd\) is not a valid meld: a meld needs at least three cards"),
    ("empty meld", _team(1, melds=[[]]), r"team 2, meld 1 is empty"),
    ("meld of two ranks", _team(1, melds=[["Qh", "Qd", "Kc"]]), r"team 2, meld 1 \(Qh Qd Kc\) is not a valid meld: a meld is cards of one rank"),
    ("too many wild cards", _team(1, melds=[["Jh", "Jd", "Js", "2c", "2d", "JK", "JK"]]),
     r"team 2, meld 1 \(Jh Jd Js 2c 2d JK JK\) is not a valid meld: too many wild cards"),
    ("one natural", _team(1, melds=[["Jh", "2d", "JK"]]), r"is not a valid meld: a meld must contain at least two natural cards"),
    ("wild cards only", _team(1, melds=[["2h", "2d", "JK"]]), r"is not a valid meld: wild cards may never be melded without natural cards"),
    ("black threes with a wild", _team(0, melds=[*BASE["teams"][0]["melds"], ["3s", "3c", "2d"]]),
     r"team 1, meld 3 \(3s 3c 2d\) is not a valid meld: black threes meld only as three or four"),
    ("red three in a meld", _team(1, melds=[["3h", "3d", "3h"]]), r"team 2, meld 1 \(3h 3d 3h\): red threes are never melded; list them in 'threes'"),
    ("red three in a hand", _team(1, hands=[["Ah", "3h"], ["JK"]]), r"team 2, hand 1: 3h is a red three; red threes belong in 'threes'"),
    ("black three laid out", _team(1, threes=["3d", "3s"]), r"team 2, threes: 3s is a black three; only red threes are laid out"),
    ("not a three laid out", _team(1, threes=["Ah"]), r"team 2, threes: Ah is not a red three"),
    ("black-three meld without going out", _team(1, melds=[["3s", "3c", "3s"]]),
     r"team 2, meld 1 \(3s 3c 3s\): black threes are melded only by the player going out .*team 2 did not go out"),
    ("duplicate meld rank", _team(1, melds=[["Qh", "Qd", "Qs"], ["7h", "7d", "7c"], ["Qc", "Qh", "JK"]]),
     r"team 2 has two melds of Qs \(melds 1 and 3\)"),
    ("too many of a card", _team(1, hands=[["Kh", "As"], ["JK", "6c"]]),
     r"impossible card count: 3 × Kh given \(team 1 meld 1 ×2, team 2 hand 1\), but the pack holds 2"),
    ("too many jokers", _team(1, hands=[["JK", "JK", "JK"], ["JK"]]), r"impossible card count: 5 × JK given .* the pack holds 4"),
    ("too many red threes", _team(1, threes=["3d", "3h", "3d"], undeclared_red_threes=1),
     r"impossible card count: 5 red threes given \(laid out plus undeclared\), but the pack holds 4"),
    ("two sides went out", _team(1, went_out=True), r"only one side can go out, but team 1 and team 2 both say went_out"),
    ("concealed without going out", _team(1, concealed=True), r"team 2 is marked concealed but did not go out"),
    ("going out without a canasta", _team(0, melds=[["Kh", "Kd", "Ks"]]),
     r"team 1 went out with 0 canasta\(s\) \(0 natural\), but going out needs 1 canasta\(s\)"),
    ("going out with cards in every hand", _team(0, hands=[["4h"], ["9h", "4c"]]), r"team 1 went out, but no hand of the side is empty"),
    ("empty hand without going out", _team(1, hands=[["Ah", "As"], []]), r"team 2 has an empty hand but did not go out"),
    ("undeclared not a number", _team(1, undeclared_red_threes="one"), r"'undeclared_red_threes' must be a whole number"),
    ("undeclared negative", _team(1, undeclared_red_threes=-1), r"'undeclared_red_threes' must be a whole number of red threes \(0 or more\)"),
    ("penalties not an object", _team(1, penalties=[-100]), r"team 2: 'penalties' must be an object of name: points"),
    ("positive penalty", _team(1, penalties={"illegal_meld": 100}), r"team 2: penalty 'illegal_meld' must be a negative whole number"),
    ("penalty name clash", _team(1, penalties={"red_threes": -100}), r"team 2: penalty name 'red_threes' is already a part of the score"),
    ("blank penalty name", _team(1, penalties={" ": -100}), r"team 2: a penalty needs a name"),
    ("variant not text", lambda d: d.update(variant=1), r"'variant' must be a variant name"),
    ("rules not an object", lambda d: d.update(rules=["jokers=2"]), r"'rules' must be an object of table rules"),
    ("players mismatch", lambda d: d.update(players=2), r"'players' says 2, but the teams describe 4 players"),
    ("players not a number", lambda d: d.update(players="4"), r"'players' must be a whole number"),
    ("one hand per team with players 4", lambda d: (d.update(players=4), _team(0, hands=[[]])(d), _team(1, hands=[["Ah"]])(d)),
     r"'players' says 4, but the teams describe 2 players \(4 players are 2 teams listing 2 hands each\)"),
    ("uneven hands", _team(1, hands=[["Ah"]]), r"cannot tell the number of players .* got 2 entries with 2, 1 hand\(s\)"),
    ("one team", lambda d: d["teams"].pop(), r"cannot tell the number of players .* got 1 entries"),
]


def test_too_many_cards_dealt_is_an_option_error() -> None:
    """Rules that deal out the whole pack are refused by the variant itself, as an OptionError."""
    data = bad(lambda d: d.update(rules={"hand_size": 40}))
    with pytest.raises(OptionError, match="hand_size takes a whole number from 0 to 15"):
        score_input(data)


@pytest.mark.parametrize(("mutate", "message"), [(m, msg) for _, m, msg in BAD_CASES], ids=[c[0] for c in BAD_CASES])
def test_bad_input(mutate: Any, message: str) -> None:
    with pytest.raises(ScoreInputError, match=message):
        score_input(bad(mutate))


@pytest.mark.parametrize("data", [[], "teams", None, 3])
def test_input_not_an_object(data: Any) -> None:
    with pytest.raises(ScoreInputError, match=r"the input must be a JSON object with a 'teams' list"):
        score_input(data)


def test_unknown_variant_passes_through() -> None:
    with pytest.raises(UnknownVariantError, match=r"unknown variant 'bridge'; known: classic"):
        score_input(bad(lambda d: d.update(variant="bridge")))


def test_option_errors_pass_through() -> None:
    with pytest.raises(OptionError, match=r"classic has no table rule 'joker'"):
        score_input(bad(lambda d: d.update(rules={"joker": 2})))
    with pytest.raises(OptionError, match=r"option jokers must be one of"):
        score_input(bad(lambda d: d.update(rules={"jokers": 3})))


def test_pack_follows_the_rules() -> None:
    # jokers = 0 (Encyclopedia 'zero jokers'): the JK in team 2's meld and hand cannot exist.
    with pytest.raises(ScoreInputError, match=r"impossible card count: 2 × JK given \(team 2 meld 2, team 2 hand 2\), but the pack holds 0"):
        score_input(bad(lambda d: d.update(rules={"jokers": 0})))
    # seven_of_each: only 7 kings in the pack; 7 kings melded is fine, an eighth is not.
    data = bad(lambda d: d.update(rules={"seven_of_each": True}))
    assert totals(data) == [870, 115]
    data["teams"][1]["hands"][0].append("Kc")
    with pytest.raises(ScoreInputError, match=r"impossible card count: 8 Ks given \(team 1 meld 1 ×7, team 2 hand 1\), but the pack holds 7"):
        score_input(data)
    # Without the rule the same eight kings are possible: 115 - 10 for the king in hand.
    del data["rules"]
    assert totals(data) == [870, 105]


def test_only_the_wild_canasta_rule_allows_wild_melds() -> None:
    data = json.loads((DATA / "rules.json").read_text())
    data["rules"] = {}
    with pytest.raises(ScoreInputError, match=r"team 1, meld 1 \(2c 2d 2h 2s JK JK JK\) is not a valid meld: wild cards may never"):
        score_input(data)


def test_two_players_error_names_players_and_undeclared_after_going_out() -> None:
    data = json.loads((DATA / "two-players.json").read_text())
    data["teams"][0]["undeclared_red_threes"] = 1
    with pytest.raises(ScoreInputError, match=r"player 1 went out and so holds no cards: there can be no undeclared red threes"):
        score_input(data)
    data = json.loads((DATA / "two-players.json").read_text())
    data["teams"][1]["hands"] = [["Kc", "Xx"]]
    with pytest.raises(ScoreInputError, match=r"player 2, hand, card 2: 'Xx' is not a card"):
        score_input(data)


def test_undeclared_red_three_explains_an_empty_hand() -> None:
    # A partner whose only card is an undeclared red three shows an empty hand (it is not listed there).
    data = base()
    data["teams"][1]["hands"][1] = []
    with pytest.raises(ScoreInputError, match="empty hand but did not go out"):
        score_input(data)
    data["teams"][1]["undeclared_red_threes"] = 1
    # 115 + (JK 6 = 55 no longer in hand) - 500.
    assert totals(data)[1] == 115 + 55 - 500


def test_error_names_a_named_team() -> None:
    data = base()
    data["teams"][1]["name"] = "They"
    data["teams"][1]["melds"] = [["Qh", "Qd"]]
    with pytest.raises(ScoreInputError, match=r"^team 2 \(They\), meld 1 \(Qh Qd\) is not a valid meld"):
        score_input(data)


# ---------------------------------------------------------------- sheet and CLI
def test_render_sheet() -> None:
    data = json.loads((DATA / "all-red-threes.json").read_text())
    sheet = render_sheet(data, score_input(data))
    lines = sheet.splitlines()
    assert lines[0] == "Classic Canasta: score of the hand, 4 players (2 partnerships)"
    assert lines[2].split() == ["We", "They"]
    assert next(x for x in lines if x.startswith("Red threes")).split() == ["Red", "threes", "800", "0"]
    assert next(x for x in lines if x.startswith("Total")).split() == ["Total", "1565", "-40"]
    assert lines[-1] == "We went out."


def test_render_sheet_players_and_penalty_rows() -> None:
    data = json.loads((DATA / "three-players.json").read_text())
    lines = render_sheet(data, score_input(data)).splitlines()
    assert lines[0].endswith("3 players (each alone)")
    assert lines[2].split() == ["Player", "1", "Player", "2", "Player", "3"]
    assert next(x for x in lines if x.startswith("Total")).split() == ["Total", "480", "210", "-160"]
    data = json.loads((DATA / "penalties.json").read_text())
    lines = render_sheet(data, score_input(data)).splitlines()
    assert next(x for x in lines if x.startswith("Undeclared red threes")).split()[-2:] == ["0", "-500"]
    assert next(x for x in lines if x.startswith("Upcard unusable")).split()[-2:] == ["-50", "0"]
    assert next(x for x in lines if x.startswith("Illegal meld")).split()[-2:] == ["0", "-100"]


def test_cli_json() -> None:
    result = CliRunner().invoke(app, ["score", str(DATA / "partnership-concealed.json"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [t["total"] for t in out["teams"]] == [870, 115]
    assert out["teams"][0]["items"]["concealed"] == 100


def test_cli_sheet() -> None:
    result = CliRunner().invoke(app, ["score", str(DATA / "two-players.json")])
    assert result.exit_code == 0, result.output
    assert "Classic Canasta: score of the hand, 2 players (each alone)" in result.stdout
    assert next(x for x in result.stdout.splitlines() if x.startswith("Total")).split() == ["Total", "1215", "85"]
    assert "Player 1 went out." in result.stdout


def test_cli_stdin() -> None:
    result = CliRunner().invoke(app, ["score", "-", "--json"], input=json.dumps(BASE))
    assert result.exit_code == 0, result.output
    assert [t["total"] for t in json.loads(result.stdout)["teams"]] == [870, 115]


def test_cli_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad(_team(1, went_out=True))))
    result = CliRunner().invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 2
    assert "error: only one side can go out" in result.stderr
    assert result.stdout == ""
    path.write_text(json.dumps(bad(lambda d: d.update(variant="bridge"))))
    result = CliRunner().invoke(app, ["score", str(path)])
    assert result.exit_code == 2
    assert "error: unknown variant 'bridge'" in result.stderr


def test_docs_example_matches_the_sheet_shown() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "scorekeeper.md").read_text()
    blocks = doc.split("```")
    data = json.loads(next(b.removeprefix("json\n") for b in blocks if b.startswith("json\n")))
    shown = next(b.strip("\n") for b in blocks if b.startswith("\nClassic Canasta: score of the hand"))
    assert render_sheet(data, score_input(data)) == shown


def test_cuban_black_threes_removed_and_wild_canasta() -> None:
    """Encyclopedia 'Cuban Canasta': 'a partnership that removes all four black threes this way gets
    100 points'; a wild canasta of 3 deuces and 4 jokers is worth 2000 (docs/variants/cuban.md)."""
    data = {"variant": "cuban", "teams": [
        {"melds": [["2c", "2d", "2h", "JK", "JK", "JK", "JK"], ["Kh", "Kd", "Ks"]], "threes": ["3h"],
         "hands": [[], ["5h"]], "went_out": True, "black_threes_removed": 4},
        {"melds": [], "threes": [], "hands": [["9h"], ["4c"]]},
    ]}
    items = score_input(data)["teams"][0]["items"]
    # 60 + 200 deuces/jokers + 30 kings = 290 melded; 5 in hand; wild canasta 2000; 1 red three with a canasta 100
    assert items["melded_cards"] == 290
    assert items["wild_canastas"] == 2000
    assert items["red_threes"] == 100
    assert items["black_threes_removed"] == 100
    assert score_input(data)["teams"][0]["total"] == 290 - 5 + 2000 + 100 + 100 + 100


def test_black_threes_removed_only_in_cuban() -> None:
    data = bad(_team(0, black_threes_removed=4))
    with pytest.raises(ScoreInputError, match="applies only where black threes leave play"):
        score_input(data)


def test_bonuses_for_real_card_deals() -> None:
    """Encyclopedia 'Miscellaneous variations': 'if the dealer takes the correct amount of cards off the
    stock ... he scores a bonus of 100 points' - a real-card event the scorekeeper records as a bonus."""
    data = base()
    plain = score_input(data)["teams"][0]["total"]
    data["teams"][0]["bonuses"] = {"exact_deal": 100}
    result = score_input(data)["teams"][0]
    assert result["items"]["exact_deal"] == 100
    assert result["total"] == plain + 100


def test_bonuses_must_be_positive() -> None:
    with pytest.raises(ScoreInputError, match=r"bonus 'exact_deal' must be a positive whole number"):
        score_input(bad(_team(0, bonuses={"exact_deal": -100})))


# ------------------------------------------------------------- issue 19 part C: the scorepad's penalties and games
def _two_sides(variant: str, first: dict[str, Any], **top: Any) -> dict[str, Any]:
    """A 4-player hand nobody went out of: the first side as given, the second a plain meld and two cards."""
    return {"variant": variant, "players": 4, **top, "teams": [
        {"melds": [["Kh", "Kd", "Ks"]], "hands": [["9h"], ["8c"]], **first},
        {"melds": [["Qh", "Qd", "Qs"]], "hands": [["7h"], ["6c"]]}]}


@pytest.mark.parametrize(("variant", "rules"), [("classic", {}), ("classic", {"failed_go_out_penalty": 50}),
                                                ("samba", {}), ("hand-and-foot", {})])
def test_failed_go_outs_cost_the_variants_penalty(variant: str, rules: dict[str, Any]) -> None:
    """Denexa 'Penalties': 'Not being able to go out after having asked "May I go out?": -100 points' (the table
    rule failed_go_out_penalty): each failed go-out costs it, under the engine's own item name."""
    from canasta.variants import find_variant

    penalty = find_variant(variant)(4, rules).rules["failed_go_out_penalty"]
    plain = score_input(_two_sides(variant, {}, rules=rules))["teams"][0]
    failed = score_input(_two_sides(variant, {"failed_go_out": 2}, rules=rules))["teams"][0]
    assert failed["items"]["failed_go_out"] == -2 * penalty
    assert failed["total"] == plain["total"] - 2 * penalty


def test_failed_go_out_refused_where_the_variant_has_no_such_penalty() -> None:
    """Modern American: 'If you ask, and partner says yes, you must go out' (failed_go_out_penalty 0): no such item."""
    with pytest.raises(ScoreInputError, match="failed_go_out_penalty"):
        score_input(_two_sides("american", {"failed_go_out": 1}))
    with pytest.raises(ScoreInputError, match="as a count"):
        score_input(_two_sides("classic", {"penalties": {"failed_go_out": -100}}))
    with pytest.raises(ScoreInputError, match="whole number"):
        score_input(_two_sides("classic", {"failed_go_out": -1}))


def test_samba_game_is_won_past_the_target() -> None:
    """Denexa 'Samba': 'If one or both partnerships has exceeded a score of 10,000, the partnership with the higher
    score at that point wins the game': the scorekeeper asks the variant (game_won), as the engine does."""
    from canasta.variants import find_variant

    samba = find_variant("samba")(4, {})
    hand = score_input(_two_sides("samba", {"melds": [["4h", "5h", "6h"]]}))["teams"]
    before = [samba.target_score - hand[0]["total"] + 10, 0]
    game = score_input(_two_sides("samba", {"melds": [["4h", "5h", "6h"]]}, game={"scores": before}))["game"]
    assert game["scores"] == [before[0] + hand[0]["total"], hand[1]["total"]]
    assert game["winner"] == samba.game_won(game["scores"]) == 0 and game["over"] is True
    early = score_input(_two_sides("samba", {"melds": [["4h", "5h", "6h"]]}, game={"scores": [0, 0]}))["game"]
    assert early["winner"] is None and early["target"] == samba.target_score


@pytest.mark.parametrize(("reached", "winner"), [("reach", 0), ("exceed", None)])
def test_burraco_game_at_exactly_the_target(reached: str, winner: int | None) -> None:
    """Denexa 'Burraco': 'score 2,000 points before your opponent' / 'until one partnership exceeds a score of
    2,000' (table rule target_reached): a side at exactly 2,000 has won under 'reach' only."""
    body = {"variant": "burraco", "players": 4, "rules": {"target_reached": reached}, "teams": [
        {"melds": [["Kh", "Kd", "Ks"]], "hands": [["9h"], ["8c"]]},
        {"melds": [["Qh", "Qd", "Qs"]], "hands": [["7h"], ["6c"]]}]}
    hand = score_input(body)["teams"]
    game = score_input({**body, "game": {"scores": [2000 - hand[0]["total"], 0]}})["game"]
    assert game["scores"][0] == 2000 and game["winner"] == winner


def test_hand_and_foot_with_eight_players_ends_after_the_fourth_hand() -> None:
    """Denexa 'Hand and Foot': 'The game ends after four hands have been played. The partnership with the highest
    score at that point is the winner' (four teams of two with 8 players)."""
    teams = [{"melds": [["Kh", "Kd", "Ks", "Kc"]], "hands": [["9h"], ["8c"]]}] + \
        [{"melds": [["5h", "5d", "5s"]], "hands": [["9h"], ["8c"]]}] * 3
    body = {"variant": "hand-and-foot", "players": 8, "teams": teams}
    third = score_input({**body, "game": {"scores": [0, 0, 0, 0], "hand": 3}})["game"]
    fourth = score_input({**body, "game": {"scores": [0, 0, 0, 0], "hand": 4}})["game"]
    assert third["over"] is False and third["winner"] is None
    assert fourth["over"] is True and fourth["winner"] == 0
