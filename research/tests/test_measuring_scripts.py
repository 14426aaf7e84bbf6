"""The measuring scripts of research/ on a tiny budget (so they run): card reading's premises, the expert's
leaks, the departure audit and the value's bias by where in a turn a leaf falls."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from canasta.cards import parse_card, parse_rank
from canasta.engine.game import Game


def test_the_pass_signal_script_counts_pairs_behind_passes() -> None:
    """research/pile_pass_signal.py, card reading's premise measured: in Classic a seat that passed on a rank
    holds a natural pair of it far less often than of any rank ("a natural pair ... matching the top card"
    takes any pile, Bicycle), and its counts are counts (two short hands, so the script runs)."""
    example = importlib.import_module("research.pile_pass_signal")
    held_passed, passed, held_any, total = example.measure("classic", 4, 2, "signal-test", False)
    assert 0 <= held_passed <= passed and 0 < held_any <= total and passed > 0
    assert held_passed / passed < held_any / total
    opened = example.measure("classic", 4, 2, "signal-test", True)
    assert opened[1] <= passed and opened[3] <= total
    layoffs = example.measure_layoffs("classic", 4, 2, "signal-test")
    assert 0 <= layoffs.seats_holding <= layoffs.naturals_held and layoffs.seats_holding <= layoffs.seats_read
    assert layoffs.naturals_held < layoffs.naturals_in_sampled_worlds


def test_the_leak_script_counts_feeding_discards_and_their_source() -> None:
    """research/pile_leaks.py, the issue's leaks counted in the expert's own games: a discard "feeds" the
    next side when that side has melded its rank and the pile is not frozen (it is then taken with no card
    from hand); each feeding discard of the expert is either its base policy's choice or the search's."""
    from canasta.engine.actions import DISCARD, Action

    example = importlib.import_module("research.pile_leaks")
    tallies = example.measure("classic", "expert:worlds=2:max_rollouts=8", 1, "leak-test")
    expert, basic = tallies["expert"], tallies["basic"]
    assert expert.discards > 0 and basic.discards > 0
    assert expert.feeding == expert.feeding_from_base + expert.feeding_from_search <= expert.discards
    assert basic.feeding <= basic.discards and not basic.departures and basic.feeding_from_search == 0
    obs = Game("classic", 4, 1).observation(0)
    nines = {"rank": "9", "cards": ["9s", "9h", "9d"], "canasta": False, "natural": True}
    obs.update(melds=[[], [nines]], frozen=False)
    nine, ten, two = (Action(DISCARD, (parse_card(c),)) for c in ("9c", "10c", "2c"))
    sides = [0, 1, 0, 1]
    assert example.feeds_next_side(obs, nine, sides)
    assert not example.feeds_next_side(obs, ten, sides) and not example.feeds_next_side(obs, two, sides)
    obs.update(frozen=True)
    assert not example.feeds_next_side(obs, nine, sides)


def test_the_departure_audit_measures_each_proposal_again_in_fresh_worlds() -> None:
    """research/expert_departure_audit.py: every proposal row carries the search's z and a re-measured gain, and
    the summary counts the departures a gate at each threshold would make (a tiny budget: the script runs)."""
    example = importlib.import_module("research.expert_departure_audit")
    rows = example.audit("classic", 4, 1, 3, 4, {"worlds": 4, "max_rollouts": 40, "max_rollout": 20})
    assert rows, "no proposal in a whole hand"
    for row in rows:
        assert row["oracle_worlds"] <= 4 and row["candidates"] >= 2
        assert row["departed"] == (row["z"] > 1.0) or row["worlds"] < 2
    summary = example.summarise(rows).splitlines()
    assert summary[1].split()[1] == str(sum(1 for row in rows if row["z"] > 0))  # threshold 0


def test_the_value_bias_script_splits_residuals_by_where_in_a_turn() -> None:
    """research/value_phase_bias.py: the value's residuals at the side to move, per hand, at a turn's start
    (where the value is fitted) and after a draw or a take; a table the value has no weights for is refused."""
    example = importlib.import_module("research.value_phase_bias")
    assert example.where_in_turn("play", "take") == "play-after-take"
    assert example.where_in_turn("draw", "take") == "draw"
    biases = example.measure("classic", 4, 2, "bias-test")
    where = {b.where: b for b in biases}
    assert {"draw", "play-after-draw"} <= set(where) and all(b.hands <= 2 for b in biases)
    assert all(b.standard_error >= 0 for b in biases)
    with pytest.raises(ValueError, match="no weights"):
        example.measure("mille", 2, 1, "bias-test")


def test_laid_off_ranks_read_the_melds_each_seat_last_played_to() -> None:
    """A player "may add cards to any of his side's melds" (Bicycle), so a seat that ends its turn with a meld of a
    rank on its side's table holds none of that rank's naturals: read for the seat before the one to play (its
    side's melds now) and, at the start of a turn, for the partner (the side's melds now; the opponent who played
    since cannot meld for it). Nothing for the seat to play, for the opponent who played before the partner (its
    side may have melded since), for a side that has not opened, or in an answer."""
    from research.pile_pass_signal import laid_off_ranks

    obs: dict[str, Any] = {"players": 4, "seat": 0, "turn": 0, "phase": "draw",
                           "melds": [[{"rank": "7", "cards": []}], [{"rank": "9", "cards": []},
                                                                    {"rank": "K", "cards": []}]]}
    seven, nine, king = parse_rank("7"), parse_rank("9"), parse_rank("K")
    assert laid_off_ranks(obs) == [set(), set(), {seven}, {nine, king}]
    assert laid_off_ranks({**obs, "phase": "play"}) == [set(), set(), set(), {nine, king}]
    assert laid_off_ranks({**obs, "turn": 2, "phase": "answer"}) == [set()] * 4
    assert laid_off_ranks({**obs, "players": 2, "melds": [[], obs["melds"][1]]}) == [set(), {nine, king}]
    assert laid_off_ranks({**obs, "players": 3, "melds": [[], [], obs["melds"][1]]}) == [set(), set(), {nine, king}]
    assert laid_off_ranks({**obs, "players": 3, "melds": [[], obs["melds"][1], []]}) == [set(), set(), set()]
