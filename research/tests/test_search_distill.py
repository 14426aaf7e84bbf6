"""research/search_distill.py: the search's discard verdicts distilled into the base policy."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from canasta.engine.game import Game
from canasta.players.basic import EXPERT_STYLE, BasicPlayer
from tests.helpers import discards_in_one_hand

distill = importlib.import_module("research.search_distill")
#: a small search, so that the tests play fast
SMALL = {"worlds": 3, "horizon": 10}


@pytest.fixture(scope="module")
def records() -> list[dict[str, object]]:
    return list(distill.collect(2, 7, **SMALL))


def test_the_records_hold_each_candidate_s_gain_over_the_base_policy_s_discard(records: list[dict[str, Any]]) -> None:
    """The base policy's own discard gains nothing over itself; every row has the features' length."""
    assert records
    for r in records:
        assert len(r["cards"]) == len(r["gains"]) == len(r["features"]) >= 2
        assert all(len(f) == len(distill.FEATURES) for f in r["features"])
        if r["base"] in r["cards"]:
            assert r["gains"][r["cards"].index(r["base"])] == 0.0


def test_the_fit_recovers_a_known_within_decision_rule() -> None:
    """Gains that are a linear function of the features (plus a per-decision offset) are learned back."""
    rng = np.random.default_rng(0)
    truth = rng.normal(size=len(distill.FEATURES))
    records = []
    for k in range(300):
        x = rng.normal(size=(4, len(distill.FEATURES)))
        gains = x @ truth + rng.normal() * 50.0  # the offset is common to the decision: it must not matter
        records.append({"game": k, "features": x.tolist(), "gains": gains.tolist(), "cards": [0, 1, 2, 3],
                        "base": 0})
    x, y, _ = distill.design(records)
    w = distill.fit(x, y, ridge=1e-6)
    assert w == pytest.approx(truth, abs=1e-3)
    assert distill.agreement(records, w)["model_agrees"] == 1.0
    quadratic = distill.expand(np.ones((2, 3)), "quadratic")
    assert quadratic.shape == (2, 3 + 6) and distill.expand(np.ones((2, 3)), "linear").shape == (2, 3)


def test_the_distilled_basic_with_no_weights_is_the_base_style(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 records: list[dict[str, Any]]) -> None:
    """All-zero weights rate every candidate alike, so the base policy's choice stands; fitted weights still
    throw a legal discard."""
    zero = distill.DistilledBasic(0, weights=np.zeros(len(distill.FEATURES)))  # linear
    base = BasicPlayer(0, style=EXPERT_STYLE)
    game = Game("classic", 4, "distilled", {})
    while not game.is_over and not game.hand_results:
        obs, legal = game.observation(game.actor), game.legal_actions()
        choice = zero.choose(obs, legal)
        assert choice == base.choose(obs, legal)
        game.push(choice)
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    weights = tmp_path / "w.json"
    distill.fit_and_report(distill.load([data]), 10.0, weights, "quadratic")
    monkeypatch.setenv(distill.WEIGHTS_ENV, str(weights))
    player = distill.DistilledBasic(0)
    assert discards_in_one_hand(player, "distilled-fitted")
