"""research/feed_model.py: a learned model of which discards let the next player take the pile."""

from __future__ import annotations

import importlib
import json
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from canasta.engine.game import Game
from canasta.players.basic import _at_least
from tests.helpers import discards_in_one_hand

feed = importlib.import_module("research.feed_model")


def test_the_chances_of_one_and_two_copies_match_counting() -> None:
    """_at_least(unseen, copies, drawn): the hypergeometric chances of at least one and at least two copies."""
    from itertools import combinations

    pool = [1, 1, 1] + [0] * 5
    hands = list(combinations(range(len(pool)), 4))
    one = sum(1 for h in hands if sum(pool[i] for i in h) >= 1) / len(hands)
    two = sum(1 for h in hands if sum(pool[i] for i in h) >= 2) / len(hands)
    assert _at_least(8, 3, 4) == pytest.approx((one, two))
    assert _at_least(8, 0, 4) == (0.0, 0.0) and _at_least(8, 3, 0) == (0.0, 0.0)


def test_the_feed_labels_are_the_engine_s_and_the_model_fits_them(tmp_path: Path) -> None:
    rows = list(feed.collect(2, 5))
    assert rows and all(len(r[2]) == len(feed.FEATURES) for r in rows)
    labels = np.array([float(r[3]) for r in rows])
    assert 0 < labels.mean() < 1
    x = np.array([r[2] for r in rows])
    w = feed.fit(x, labels)
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    base_rate = np.full(len(labels), labels.mean())
    assert feed.log_loss(p, labels) < feed.log_loss(base_rate, labels)
    assert feed.auc(p, labels) > 0.5
    within, decisions = feed.within_auc(p, labels, np.array([r[1] for r in rows]))
    assert decisions > 0 and 0.0 <= within <= 1.0
    assert feed.auc(np.array([0.0, 1.0]), np.array([0.0, 1.0])) == 1.0


def test_the_learned_safe_basic_throws_a_legal_discard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    weights = tmp_path / "w.json"
    feed.fit_and_report(3, 2, weights)
    assert len(json.loads(weights.read_text())["weights"]) == len(feed.FEATURES)
    monkeypatch.setenv(feed.WEIGHTS_ENV, str(weights))
    player = feed.LearnedSafeBasic(0)
    assert discards_in_one_hand(player, "learned-safe")


def test_pair_danger_prices_a_discard_by_the_chance_the_next_seat_can_take_the_pile() -> None:
    """basic:pair_danger: the chance that the next side's seat can take the pile with a rank grows with the
    unseen copies of it (one or none: no natural pair), and one natural with a wild card counts only on an opened side's
    unfrozen pile; the arena reads the setting."""
    from canasta.arena import make_player
    from canasta.players.basic import BasicPlayer, _take_chance, _View

    game = Game("classic", 4, "pair-danger", {})
    for _ in range(12):
        game.push(BasicPlayer().choose(game.observation(game.actor), game.legal_actions()))
    view = _View(game.observation(game.actor))
    side = view.next_side
    chances = [_take_chance(view, side, hidden, False) for hidden in range(5)]
    assert chances[0] == chances[1] == 0.0  # one unseen copy makes no natural pair
    assert all(a < b for a, b in pairwise(chances[1:])) and chances[-1] < 1
    if not view.frozen:
        assert _take_chance(view, side, 2, True) > chances[2]
    player = make_player("basic:pair_danger=20", 0)
    assert isinstance(player, BasicPlayer) and player.style.pair_danger == 20
