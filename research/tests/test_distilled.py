"""research.distilled: the expert's search on the discard, distilled into the base policy's discard."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from canasta.engine.actions import DISCARD
from canasta.engine.game import Game
from canasta.players.basic import EXPERT_STYLE, BasicPlayer
from canasta.players.expert import ExpertSettings
from research.distilled import (
    DISCARD_FEATURES,
    DISCARD_MODELS,
    DiscardModel,
    DistilledBasic,
    DistilledSearchExpert,
    load_discard_model,
)
from research.experts import research_expert
from tests.helpers import discards_in_one_hand

#: a small search, so that the tests play fast
SMALL: dict[str, int] = {"worlds": 3, "horizon": 10}


def discard_choices(player: BasicPlayer, other: BasicPlayer, deal: str, players: int = 4) -> tuple[int, int]:
    """Play one hand of Classic with ``player`` at every seat: its discards, and how many differ from ``other``'s
    choice on the same position."""
    game = Game("classic", players, deal, {})
    discards = differ = 0
    while not game.is_over and not game.hand_results:
        obs, legal = game.observation(game.actor), game.legal_actions()
        choice = player.choose(obs, legal)
        assert choice in legal
        if choice.kind == DISCARD:
            discards += 1
            differ += choice != other.choose(obs, legal)
        game.push(choice)
    return discards, differ


def test_the_shipped_model_loads_with_this_version_s_features() -> None:
    model = load_discard_model("distilled-v1")
    width = len(DISCARD_FEATURES)
    assert model.expansion == "quadratic" and model.weights.shape == (width + width * (width + 1) // 2,)
    assert model.supports("classic", 4) and not model.supports("classic", 2) and not model.supports("samba", 4)
    saved = json.loads(DISCARD_MODELS["distilled-v1"].read_text())
    assert tuple(saved["features"]) == DISCARD_FEATURES and saved["decisions"] > 10_000


def test_unknown_or_mismatched_models_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown discard model 'distilled-v9'"):
        load_discard_model("distilled-v9")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"features": ["bias"], "expansion": "linear", "weights": [1.0]}))
    with pytest.raises(ValueError, match="other features"):
        load_discard_model(str(other))
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"features": DISCARD_FEATURES, "expansion": "linear", "weights": [1.0]}))
    with pytest.raises(ValueError, match="holds 1 weights; linear needs"):
        load_discard_model(str(short))
    with pytest.raises(ValueError, match="unknown discard model"):
        DistilledSearchExpert(0, discard_model="nonsense")


def test_the_distilled_discard_plays_legally_and_differs_from_the_base_style_at_its_table() -> None:
    """At 4-player Classic the model moves some of the base style's discards (it would be no model otherwise),
    always to a legal one."""
    player, base = DistilledBasic(0), BasicPlayer(0, style=EXPERT_STYLE)
    discards = differ = 0
    for deal in ("distilled/1", "distilled/2", "distilled/3"):
        d, x = discard_choices(player, base, deal)
        discards, differ = discards + d, differ + x
    assert discards > 30
    assert 0 < differ < discards


def test_at_tables_it_was_not_fitted_at_it_plays_as_the_base_style() -> None:
    """distilled-v1 was fitted at 4-player Classic only: at 2 players it leaves every discard alone."""
    discards, differ = discard_choices(DistilledBasic(0), BasicPlayer(0, style=EXPERT_STYLE), "distilled/2p", 2)
    assert discards > 5 and differ == 0


def test_a_model_of_zero_weights_keeps_the_base_style_s_discard() -> None:
    """All candidates rated alike: the base policy's own choice stands (ties go to it)."""
    zero = DiscardModel("zero", "linear", np.zeros(len(DISCARD_FEATURES)), frozenset({("classic", 4)}))
    discards, differ = discard_choices(DistilledBasic(0, model=zero), BasicPlayer(0, style=EXPERT_STYLE), "zero")
    assert discards > 5 and differ == 0


def test_a_bar_above_every_rated_gain_keeps_the_base_style_s_discard() -> None:
    discards, differ = discard_choices(DistilledBasic(0, bar=1e9), BasicPlayer(0, style=EXPERT_STYLE), "bar")
    assert discards > 5 and differ == 0


def test_the_expert_searches_on_the_distilled_policy_when_asked() -> None:
    """``discard_model`` names the base and rollout policy's discard model; "none" turns it off."""
    expert = DistilledSearchExpert(0, ExpertSettings(worlds=3, horizon=10), discard_model="distilled-v1")
    base = expert.base_policy("classic")
    assert isinstance(base, DistilledBasic) and base.candidates == expert.discards
    assert type(research_expert(0, discard_model="none").base_policy("classic")) is BasicPlayer
    assert discards_in_one_hand(expert, "distilled-expert") > 0
