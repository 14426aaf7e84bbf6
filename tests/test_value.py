"""The learned position values behind the expert's short rollouts (canasta.players.value) and their training."""

from __future__ import annotations

import random
from pathlib import Path

from canasta.engine.game import Game
from canasta.players.basic import DEFAULT_STYLE, BasicPlayer
from canasta.players.expert import EXPERT_STYLE, ExpertPlayer
from canasta.players.value import (
    FEATURES,
    SCORE_FEATURES,
    SCORED_TABLE_WEIGHTS,
    TABLE_WEIGHTS,
    WEIGHTS,
    features,
    fit,
    load_value,
    r_squared,
    supports,
    value,
)


def _midgame(seed: int, actions: int, variant: str = "classic") -> Game:
    """Classic with BasicPlayer's default style, another variant with the expert's base style there."""
    from canasta.players.basic import VARIANT_STYLES

    game = Game(variant, 4, seed)
    player = BasicPlayer() if variant == "classic" else BasicPlayer(style=VARIANT_STYLES.get(variant, EXPERT_STYLE))
    for _ in range(actions):
        if game.is_over or game.hand_no != 1:
            break
        game.push(player.choose(game.observation(game.actor), game.legal_actions()))
    return game


def test_value_of_two_sides_is_zero_sum() -> None:
    """Each feature is the side's figure minus the opponents': with two sides one side's features
    are the other's negated, and so are their values."""
    for seed in range(5):
        game = _midgame(seed, 30 + 7 * seed)
        f0, f1 = features(game, 0), features(game, 1)
        assert len(f0) == len(FEATURES) == len(WEIGHTS)
        assert f0 == [-x for x in f1]
        assert abs(value(game, 0) + value(game, 1)) < 1e-6


def test_value_explains_hand_margins_on_fresh_hands() -> None:
    """The fitted weights predict final hand margins of hands they were not fitted on far better
    than a constant (R^2 0.435 on 500 hands when fitted; a wrong sign or a shuffled weight fails)."""
    assert r_squared(WEIGHTS, seed=99, hands=60) > 0.25
    assert r_squared(list(reversed(WEIGHTS)), seed=99, hands=60) < 0.1


def test_fit_returns_one_weight_per_feature() -> None:
    weights, r2 = fit(40, 3, EXPERT_STYLE, fresh=30)
    assert len(weights) == len(FEATURES) and r2 > 0.0


def test_value_only_where_it_was_fitted() -> None:
    """Fitted on 4-player Classic: other tables and variants score differently and roll out."""
    assert supports(Game("classic", 4, 0))
    assert not supports(Game("classic", 2, 0)) and not supports(Game("classic", 3, 0))
    assert not any(supports(Game(v, 4, 0)) for v in ("uruguayan", "american", "hand-and-foot", "samba", "burraco"))


def test_each_value_names_the_tables_it_was_fitted_at() -> None:
    """``linear-v1`` (and ``net-v2``) only Classic with four players, as fitted; ``linear-tables`` every table of
    TABLE_WEIGHTS and SCORED_TABLE_WEIGHTS, with those weights, and Classic with four players as ``linear-v1``
    does."""
    v1, tables, net = load_value("linear-v1"), load_value("linear-tables"), load_value("net-v2")
    assert v1.supports_table("classic", 4) and not v1.supports_table("classic", 2)
    assert net.supports_table("classic", 4) and not net.supports_table("classic", 2)
    assert set(TABLE_WEIGHTS) == {("classic", 4), ("classic", 2)}
    for variant, players in TABLE_WEIGHTS:
        assert tables.supports_table(variant, players) and len(TABLE_WEIGHTS[variant, players]) == len(FEATURES)
    assert not tables.supports_table("classic", 3) and not tables.supports_table("mille", 2)
    for variant, players in SCORED_TABLE_WEIGHTS:  # over the score's items (SCORE_FEATURES)
        assert tables.supports_table(variant, players) and not v1.supports_table(variant, players)
        assert len(SCORED_TABLE_WEIGHTS[variant, players]) == len(SCORE_FEATURES)
    assert set(SCORED_TABLE_WEIGHTS) == {("hand-and-foot", 4), ("triple-play", 4), ("american", 4)}
    assert not tables.supports_table("hand-and-foot", 2) and not tables.supports_table("american", 2)
    feet = _midgame(2, 60, "hand-and-foot")
    assert tables(feet, 0) == value(feet, 0, SCORED_TABLE_WEIGHTS["hand-and-foot", 4]) == -tables(feet, 1)
    four, two = _midgame(3, 50), Game("classic", 2, 5)
    assert tables(four, 0) == v1(four, 0) == value(four, 0)
    for _ in range(40):
        two.push(BasicPlayer().choose(two.observation(two.actor), two.legal_actions()))
    assert tables(two, 0) == value(two, 0, TABLE_WEIGHTS["classic", 2]) == -tables(two, 1) != value(two, 0)


def test_the_fit_is_per_table() -> None:
    """``fit`` plays and fits the table it is given: weights fitted on 2-player Mille explain its hand margins on
    fresh hands, 4-player Classic's do worse than a constant there."""
    weights, r2 = fit(300, 3, DEFAULT_STYLE, fresh=100, variant="mille", players=2)
    assert len(weights) == len(FEATURES) and r2 > 0.05
    classic = r_squared(WEIGHTS, seed=4, hands=100, style=DEFAULT_STYLE, variant="mille", players=2)
    assert classic < 0.0 and r2 > classic + 0.2


def test_expert_with_value_leaves_is_legal_and_deterministic() -> None:
    """leaf="value": rollouts cut after ``horizon`` actions and scored by the value; the player
    stays a pure function of the observation and its seed."""
    rng = random.Random(4)
    game = Game("classic", 4, 11)
    a, b = ExpertPlayer(5, worlds=4, leaf="value", horizon=8), ExpertPlayer(5, worlds=4, leaf="value", horizon=8)
    for _ in range(40):
        if game.is_over:
            break
        obs, legal = game.observation(game.actor), game.legal_actions()
        choice = a.choose(obs, legal)
        assert choice in legal and b.choose(obs, legal) == choice
        game.apply(choice if rng.random() < 0.8 else rng.choice(legal))



def test_default_expert_spends_the_value_leaf_on_more_worlds() -> None:
    """Short rollouts scored by the value cost less than full ones, so by default Classic with four or two
    players and Hand and Foot, Triple Play and American with four (where the default value, ``linear-tables``,
    was fitted) sample VALUE_WORLDS worlds, other tables and full rollouts WORLDS; a given ``worlds`` wins."""
    from canasta.players.expert import VALUE_WORLDS, WORLDS

    four, two, samba = (Game(v, n, 0).observation(0) for v, n in (("classic", 4), ("classic", 2), ("samba", 4)))
    assert ExpertPlayer().world_budget(four) == ExpertPlayer().world_budget(two) == VALUE_WORLDS > WORLDS
    assert ExpertPlayer().world_budget(samba) == ExpertPlayer(value="linear-v1").world_budget(two) == WORLDS
    feet = Game("hand-and-foot", 4, 0).observation(0)
    assert ExpertPlayer().world_budget(feet) == VALUE_WORLDS and ExpertPlayer(value="linear-v1").world_budget(feet) == WORLDS
    assert ExpertPlayer(leaf="rollout").world_budget(four) == WORLDS
    assert ExpertPlayer(worlds=5).world_budget(four) == ExpertPlayer(worlds=5).world_budget(two) == 5


def test_net_value_of_two_sides_is_zero_sum() -> None:
    """The shipped net is made antisymmetric, (f(x) - f(swap(x))) / 2: the sides' values are opposite."""
    from canasta.players.value import FEATURES_V2, features_v2, load_value

    net = load_value("net-v2")
    for seed in range(4):
        game = _midgame(seed, 25 + 9 * seed)
        assert len(features_v2(game, 0)) == len(FEATURES_V2)
        assert abs(net(game, 0) + net(game, 1)) < 1e-6
        assert net(game, 0) != 0.0


def test_net_value_explains_hand_margins_on_fresh_hands() -> None:
    """The shipped net predicts the final margins of hands it was not trained on (fresh seeds), and
    the same net fed the sides exchanged does not: a net that learned nothing fails."""
    import numpy as np

    from canasta.players.training import r_squared as r2
    from canasta.players.training import self_play
    from canasta.players.value import NetValue, swap_sides

    x, _, y = self_play(60, 424242, EXPERT_STYLE)
    net = NetValue()
    assert r2(net.batch(x), y) > 0.25
    assert r2(net.batch(swap_sides(x)), y) < 0.0
    assert np.all(np.isfinite(net.batch(x)))


def test_net_inference_matches_the_trained_torch_model(tmp_path: Path) -> None:
    """The numpy inference reproduces the PyTorch module it was exported from."""
    import numpy as np
    import pytest

    torch = pytest.importorskip("torch")
    from canasta.players.training import self_play, train
    from canasta.players.value import NetValue, swap_sides

    x, _, y = self_play(12, 3, EXPERT_STYLE)
    weights, module = train(x, y, seed=3, epochs=2, hidden=16)
    np.savez(tmp_path / "net.npz", **weights)
    net = NetValue(tmp_path / "net.npz")
    rows = x[:50]
    with torch.no_grad():
        scaled = torch.from_numpy((rows - weights["mean"]) / weights["scale"])
        swapped = torch.from_numpy((swap_sides(rows) - weights["mean"]) / weights["scale"])
        expected = ((module(scaled) - module(swapped))[:, 0] / 2 * 1000.0).numpy()
    assert np.allclose(net.batch(rows), expected, rtol=1e-9, atol=1e-6)
    assert not np.allclose(expected, expected[0])


def test_training_script_runs_end_to_end_on_a_tiny_budget(tmp_path: Path) -> None:
    """`python -m canasta.players.training` in miniature: data, training, the file and its record."""
    import pytest

    pytest.importorskip("torch")
    from canasta.players.training import run
    from canasta.players.value import NetValue

    out = tmp_path / "value.npz"
    record = run(hands=10, seed=1, out=out, fresh=5, epochs=1)
    assert out.exists() and record["file_bytes"] == out.stat().st_size
    assert record["positions"] > 100 and record["fresh_positions"] > 50
    assert set(record) >= {"data_seconds", "train_seconds", "r2_fresh_net", "r2_fresh_linear_v1"}
    game = _midgame(2, 30)
    assert abs(NetValue(out)(game, 0) + NetValue(out)(game, 1)) < 1e-6


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    """The same seed gives the same data and the same weights; another seed other weights."""
    import numpy as np
    import pytest

    pytest.importorskip("torch")
    from canasta.players.training import self_play, train

    x, _, y = self_play(6, 8, EXPERT_STYLE)
    again_x, _, again_y = self_play(6, 8, EXPERT_STYLE)
    assert np.array_equal(x, again_x) and np.array_equal(y, again_y)
    first, _ = train(x, y, seed=8, epochs=1, hidden=8)
    second, _ = train(x, y, seed=8, epochs=1, hidden=8)
    other, _ = train(x, y, seed=9, epochs=1, hidden=8)
    assert all(np.array_equal(first[k], second[k]) for k in first)
    assert not np.array_equal(first["w0"], other["w0"])


def test_net_value_refuses_weights_of_other_features(tmp_path: Path) -> None:
    import numpy as np
    import pytest

    from canasta.players.value import NetValue

    np.savez(tmp_path / "old.npz", features=np.array("melded_points,opened"), mean=np.zeros(2),
             scale=np.ones(2), depth=np.array(0))
    with pytest.raises(ValueError, match="other features"):
        NetValue(tmp_path / "old.npz")


def test_feet_value_reads_the_score_of_the_hand_as_it_stands_and_is_zero_sum() -> None:
    """Hand and Foot and Triple Play positions are described by :data:`SCORE_FEATURES`: the items of the hand's
    score if it ended now (Hand and Foot: 'Cards left in a player's hand and foot count against the team'),
    the open melds, the cards held, the knees and feet not yet picked up; each the side's figure minus the
    opponents', so with two sides the sides' values are opposite."""
    from canasta.players.value import feature_names, table_features

    assert feature_names("hand-and-foot") == feature_names("triple-play") == SCORE_FEATURES
    assert feature_names("classic") == FEATURES
    for variant in ("hand-and-foot", "triple-play"):
        game = _midgame(7, 120, variant)
        weights = SCORED_TABLE_WEIGHTS[variant, 4]
        f0, f1 = table_features(game, 0), table_features(game, 1)
        assert len(f0) == len(SCORE_FEATURES) == len(weights)
        assert f0 == [-x for x in f1]
        scores = game.score_sides(None)
        assert f0[SCORE_FEATURES.index("cards_in_hand")] == (scores[0]["items"]["cards_in_hand"]
                                                           - scores[1]["items"]["cards_in_hand"])
        unpicked = sum(bool(pile) for seat in (0, 2) for pile in (game.knees[seat], game.feet[seat]))
        others = sum(bool(pile) for seat in (1, 3) for pile in (game.knees[seat], game.feet[seat]))
        assert f0[SCORE_FEATURES.index("piles_to_pick_up")] == unpicked - others
        assert abs(value(game, 0, weights) + value(game, 1, weights)) < 1e-6


def test_feet_values_explain_hand_margins_on_fresh_hands() -> None:
    """The weights fitted per table (R^2 0.248 in Hand and Foot, 0.238 in Triple Play, on 500 hands) predict the
    final margins of hands they were not fitted on better than a constant; their reverse does not."""
    from canasta.players.basic import VARIANT_STYLES

    for variant, floor in (("hand-and-foot", 0.08), ("triple-play", 0.2)):
        style = VARIANT_STYLES.get(variant, EXPERT_STYLE)
        weights = SCORED_TABLE_WEIGHTS[variant, 4]
        assert r_squared(weights, seed=99, hands=30, style=style, variant=variant) > floor
        assert r_squared(list(reversed(weights)), seed=99, hands=30, style=style, variant=variant) < 0.0
