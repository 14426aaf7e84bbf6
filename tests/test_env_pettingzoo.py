"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test import api_test, seed_test

from canasta.env.pettingzoo_env import CanastaEnv


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("classic", 3), ("classic", 2),
                                                   ("uruguayan", 4), ("cuban", 4), ("burraco", 4), ("burraco", 2),
                                                   ("samba", 4), ("american", 4)])
def test_api(variant: str, players: int) -> None:
    api_test(CanastaEnv(variant, players), num_cycles=300)


def test_seed() -> None:
    seed_test(lambda: CanastaEnv("classic", 4), num_cycles=300)


def test_episode_ends_with_zero_sum_rewards() -> None:
    env = CanastaEnv("classic", 2)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
    assert not env.agents
    assert abs(sum(totals.values())) < 1e-9
    assert env.game.hand_results  # one hand was played


@pytest.mark.parametrize(("players", "rules"), [(6, {}), (6, {"team_size": 3}), (8, {})])
def test_api_hand_and_foot_six_and_eight_players(players: int, rules: dict[str, int]) -> None:
    """Hand and Foot's three or four teams of two, or two teams of three: the observation has a slot per seat."""
    from canasta.encoding import obs_size

    env = CanastaEnv("hand-and-foot", players, rules=rules)
    assert env.observation_space("player_0")["observation"].shape == (obs_size("hand-and-foot", players),)
    api_test(env, num_cycles=300)


def test_seed_hand_and_foot_six_players() -> None:
    seed_test(lambda: CanastaEnv("hand-and-foot", 6), num_cycles=300)
