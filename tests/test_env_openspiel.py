"""The OpenSpiel game: pyspiel's random_sim_test, resampling, and OpenSpiel's ISMCTSBot on it."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

import numpy as np
import pyspiel

import canasta.env.openspiel_game as osg
from canasta.encoding import OBS_SIZE


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("classic", 3), ("classic", 4),
                                                   ("uruguayan", 4), ("cuban", 4), ("burraco", 4), ("burraco", 2),
                                                   ("samba", 4), ("american", 4)])
def test_random_sim(variant: str, players: int) -> None:
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": variant, "players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _dealt(players: int = 2, deal: int = 3) -> object:
    game = pyspiel.load_game(osg.SHORT_NAME, {"players": players})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10000 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    state.apply_action(deal)
    return state


def test_observation_tensor_is_float32_and_the_encoding() -> None:
    """OpenSpiel stores tensors as C++ float: the observer writes float32 (it wrote float64, cast on every call)."""
    from canasta.encoding import encode_observation

    state = _dealt()
    t = np.asarray(state.observation_tensor(0), dtype=np.float32)
    assert t.shape == (OBS_SIZE,)
    assert np.array_equal(t, encode_observation(state.game.observation(0)))
    obs = osg.CanastaObserver(pyspiel.IIGObservationType(perfect_recall=False), None)
    obs.set_from(state, 0)
    assert obs.tensor.dtype == np.float32


def test_resample_keeps_the_information_state_and_changes_hidden_cards() -> None:
    state = _dealt(4)
    rng = np.random.RandomState(0)
    actions = []
    while not state.is_terminal():
        actions.append(int(rng.choice(state.legal_actions())))
        state.apply_action(actions[-1])
    state = _dealt(4)
    for a in actions[: len(actions) * 2 // 3]:  # well into the hand: some pile takes happened
        state.apply_action(a)
    assert any(state.game.known)  # the engine's known_hands
    player = state.current_player()
    info = state.information_state_string(player)
    changed = False
    for _ in range(5):
        r = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(player) == info
        assert r.legal_actions() == state.legal_actions()
        assert r.game.card_count() == state.game.card_count()
        for s in range(4):
            if s != player:
                assert all(r.game.hands[s][c] >= state.game.known[s].count(c) for c in state.game.known[s])
                assert r.game.known[s] == state.game.known[s]
        changed |= r.game.hands != state.game.hands
    assert changed


def test_ismcts_bot_plays() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(osg.SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    state.apply_action(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=np.random.RandomState(1))
    bot.set_resampler(osg.seeded_resampler(bot._random_state))  # reproducible (issue 55)
    rng = np.random.RandomState(2)
    searched = 0
    while searched < 2 and not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) > 1 and state.current_player() == 0:
            action = bot.step(state)
            searched += 1
        else:
            action = int(rng.choice(legal))
        assert action in legal
        state.apply_action(action)
    assert searched == 2


def test_burraco_resample_redeals_the_pozzetti() -> None:
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": "burraco", "players": 4})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.RandomState(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    info = state.information_state_string(player)
    changed = False
    for _ in range(5):
        r = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(player) == info
        assert r.legal_actions() == state.legal_actions()
        assert r.game.card_count() == 108
        changed |= r.game.extra_piles != state.game.extra_piles
    assert changed


@pytest.mark.slow
@pytest.mark.parametrize(("players", "rules"), [(6, "{}"), (6, '{"team_size": 3}'), (8, "{}")])
def test_random_sim_hand_and_foot_six_and_eight_players(players: int, rules: str) -> None:
    from canasta.encoding import obs_size

    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": "hand-and-foot", "players": players, "rules": rules})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(4)
    rng = np.random.RandomState(0)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert np.asarray(state.observation_tensor(players - 1)).shape == (obs_size("hand-and-foot", players),)
    player = state.current_player()
    r = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.information_state_string(player) == state.information_state_string(player)
    assert r.legal_actions() == state.legal_actions() and r.game.card_count() == state.game.card_count()
