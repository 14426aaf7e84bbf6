"""The linear position value behind the expert's short rollouts (canasta.players.value)."""

from __future__ import annotations

import random

from canasta.engine.game import Game
from canasta.players.basic import BasicPlayer
from canasta.players.expert import EXPERT_STYLE, ExpertPlayer
from canasta.players.value import FEATURES, WEIGHTS, features, fit, r_squared, supports, value


def _midgame(seed: int, actions: int) -> Game:
    game = Game("classic", 4, seed)
    player = BasicPlayer()
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
    """Short rollouts scored by the value cost less than full ones, so by default 4-player Classic
    samples VALUE_WORLDS worlds, other tables and full rollouts WORLDS; a given ``worlds`` wins."""
    from canasta.players.expert import VALUE_WORLDS, WORLDS

    four, two, samba = (Game(v, n, 0).observation(0) for v, n in (("classic", 4), ("classic", 2), ("samba", 4)))
    assert ExpertPlayer().world_budget(four) == VALUE_WORLDS > WORLDS
    assert ExpertPlayer().world_budget(two) == ExpertPlayer().world_budget(samba) == WORLDS
    assert ExpertPlayer(leaf="rollout").world_budget(four) == WORLDS
    assert ExpertPlayer(worlds=5).world_budget(four) == ExpertPlayer(worlds=5).world_budget(two) == 5
