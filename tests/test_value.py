"""The learned position values behind the expert's short rollouts (canasta.players.value) and their training."""

from __future__ import annotations

import random

from canasta.engine.game import Game
from canasta.players.basic import BasicPlayer
from canasta.players.expert import EXPERT_STYLE, ExpertPlayer, ExpertSettings
from canasta.players.value import (
    FEATURES,
    SCORE_FEATURES,
    SCORED_TABLE_WEIGHTS,
    TABLE_WEIGHTS,
    WEIGHTS,
    features,
    load_value,
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


def test_value_only_where_it_was_fitted() -> None:
    """Fitted on 4-player Classic: other tables and variants score differently and roll out."""
    assert supports(Game("classic", 4, 0))
    assert not supports(Game("classic", 2, 0)) and not supports(Game("classic", 3, 0))
    assert not any(supports(Game(v, 4, 0)) for v in ("uruguayan", "american", "hand-and-foot", "samba", "burraco"))


def test_each_value_names_the_tables_it_was_fitted_at() -> None:
    """``linear-v1`` only Classic with four players, as fitted; ``linear-tables`` every table of
    TABLE_WEIGHTS and SCORED_TABLE_WEIGHTS, with those weights, and Classic with four players as ``linear-v1``
    does."""
    v1, tables = load_value("linear-v1"), load_value("linear-tables")
    assert v1.supports_table("classic", 4) and not v1.supports_table("classic", 2)
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


def test_expert_with_value_leaves_is_legal_and_deterministic() -> None:
    """Rollouts cut after ``horizon`` actions and scored by the value; the player
    stays a pure function of the observation and its seed."""
    rng = random.Random(4)
    game = Game("classic", 4, 11)
    a, b = (ExpertPlayer(5, ExpertSettings(worlds=4, horizon=8)) for _ in range(2))
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
    was fitted) sample VALUE_WORLDS worlds, other tables WORLDS; a given ``worlds`` wins."""
    from canasta.players.expert import VALUE_WORLDS, WORLDS

    four, two, samba = (Game(v, n, 0).observation(0) for v, n in (("classic", 4), ("classic", 2), ("samba", 4)))
    assert ExpertPlayer().world_budget(four) == ExpertPlayer().world_budget(two) == VALUE_WORLDS > WORLDS
    assert ExpertPlayer().world_budget(samba) == ExpertPlayer(0, ExpertSettings(value="linear-v1")).world_budget(two) == WORLDS
    feet = Game("hand-and-foot", 4, 0).observation(0)
    assert ExpertPlayer().world_budget(feet) == VALUE_WORLDS and ExpertPlayer(0, ExpertSettings(value="linear-v1")).world_budget(feet) == WORLDS
    assert ExpertPlayer(0, ExpertSettings(worlds=5)).world_budget(four) == ExpertPlayer(0, ExpertSettings(worlds=5)).world_budget(two) == 5


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


