"""The OpenSpiel game as a researcher expects it (issue 21): no information-state tensor served, the
terminal state of the finished hand, ``hands=0`` as the whole game, the shared reward scale and option,
truncation as a forfeit, and a chance node built once."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import canasta.env.openspiel_game as osg
from canasta.env.rewards import DEFAULT_REWARD_SCALE, hand_margin_bound, hand_rewards


def _play(state: pyspiel.State, seed: int = 0, until_results: int | None = None) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    while not state.is_terminal():
        if until_results is not None and len(state.game.hand_results) >= until_results:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _dealt(params: dict[str, object], deal: int = 3) -> pyspiel.State:
    state = pyspiel.load_game(osg.SHORT_NAME, params).new_initial_state()
    state.apply_action(deal)
    return state


def test_no_information_state_tensor_is_served() -> None:
    game = pyspiel.load_game(osg.SHORT_NAME, {"players": 2})
    assert not game.get_type().provides_information_state_tensor
    state = _dealt({"players": 2})
    with pytest.raises(pyspiel.SpielError, match="no information state tensor"):
        state.information_state_tensor(0)
    assert state.information_state_string(0).startswith("p0")
    assert len(state.observation_tensor(0)) > 0


def test_the_terminal_state_shows_the_finished_hand() -> None:
    state = _play(_dealt({"players": 2}))
    g = state.game
    assert len(g.hand_results) == 1 and g.hand_no == 1  # no second deal
    assert any(g.melds[s] for s in range(g.num_sides))
    assert '"hand_no":1' in state.observation_string(0)


def test_hands_zero_is_the_whole_game() -> None:
    state = _play(_dealt({"players": 2, "hands": 0}), until_results=1)
    assert len(state.game.hand_results) == 1
    assert not state.is_terminal()  # one hand finished, the game goes on
    state = _play(_dealt({"variant": "hand-and-foot", "players": 2, "hands": 0}, deal=1))
    assert state.game.is_over and len(state.game.hand_results) == 4  # Hand and Foot: a game of four hands


def test_returns_use_the_shared_scale_and_sum_to_zero() -> None:
    state = _play(_dealt({"players": 2}))
    assert state.returns() == pytest.approx(hand_rewards(state.game, 0, DEFAULT_REWARD_SCALE))
    assert sum(state.returns()) == pytest.approx(0.0)
    win = _play(_dealt({"players": 2, "reward": "win"}))
    assert sorted(win.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    pyspiel.random_sim_test(pyspiel.load_game(osg.SHORT_NAME, {"players": 2, "reward": "win"}), num_sims=1,
                            serialize=True, verbose=False)


def test_truncation_is_a_forfeit_of_the_side_to_act() -> None:
    state = _dealt({"players": 2})
    assert state.episode is not None
    state.episode.max_steps = 12
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.episode.truncated and not state.game.hand_results
    bound = hand_margin_bound(state.game) * DEFAULT_REWARD_SCALE
    staller = state.game.actor  # the seat that would act next: its side forfeits
    returns = state.returns()
    assert returns[staller] == pytest.approx(-bound) and returns[1 - staller] == pytest.approx(bound)
    assert state.get_game().min_utility() <= -bound


def test_chance_outcomes_are_built_once() -> None:
    state = pyspiel.load_game(osg.SHORT_NAME, {"players": 2, "num_deals": 777}).new_initial_state()
    osg._deal_outcomes.cache_clear()
    first = state.chance_outcomes()
    for _ in range(5):
        assert state.chance_outcomes() == first
    info = osg._deal_outcomes.cache_info()
    assert info.misses == 1 and info.hits == 5
    assert len(first) == 777 and sum(p for _, p in first) == pytest.approx(1.0)
