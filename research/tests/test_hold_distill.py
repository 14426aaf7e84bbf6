"""research/hold_distill.py: the search's verdicts on melding, distilled into when to hold the cards back."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from canasta.engine.actions import ADD, MELD
from canasta.players.basic import EXPERT_STYLE, BasicPlayer

hold = importlib.import_module("research.hold_distill")


def test_the_records_compare_holding_with_a_building_step() -> None:
    """Every record is a building step (one of the three kinds) with the features' length and a finite gain."""
    records = list(hold.collect(1, 9, worlds=3, horizon=10))
    assert records
    for r in records:
        assert len(r["features"]) == len(hold.FEATURES) and np.isfinite(r["gain"])
        assert sum(r["features"][1:4]) == 1.0  # an added natural, a new meld or a wild card added


def test_the_fit_recovers_a_known_rule_and_scores_the_sign() -> None:
    rng = np.random.default_rng(0)
    truth = rng.normal(size=len(hold.FEATURES))
    x = rng.normal(size=(400, len(hold.FEATURES)))
    y = x @ truth
    w = hold.fit(x, y, ridge=1e-9)
    assert w == pytest.approx(truth, abs=1e-6)
    scored = hold.score(y, x @ w)
    assert scored["sign_agrees"] == 1.0 and scored["model_gain"] == pytest.approx(scored["best_gain"])


def test_a_model_that_never_holds_plays_as_the_base_style(tmp_path: Path) -> None:
    """Weights that rate every hold below zero leave each building step alone; weights that always hold never
    build once the side has opened (and every choice stays legal)."""
    from canasta.engine.game import Game

    never = np.zeros(len(hold.FEATURES))
    never[0] = -1.0
    always = -never
    players = {"never": hold.HoldBasic(0, weights=never), "always": hold.HoldBasic(0, weights=always)}
    base = BasicPlayer(0, style=EXPERT_STYLE)
    builds = {"never": 0, "always": 0}
    for name, player in players.items():
        game = Game("classic", 4, "hold", {})
        while not game.is_over and not game.hand_results:
            obs, legal = game.observation(game.actor), game.legal_actions()
            choice = player.choose(obs, legal)
            assert choice in legal
            if name == "never":
                assert choice == base.choose(obs, legal)
            if choice.kind in (ADD, MELD) and obs["opened"][obs["side"]] and obs["phase"] == "play":
                builds[name] += 1
            game.push(choice)
    assert builds["never"] > 0
    assert builds["always"] < builds["never"]
