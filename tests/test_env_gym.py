"""The Gymnasium single-agent environment: Gymnasium's checker and whole masked episodes."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numpy")

import numpy as np
from gymnasium.utils.env_checker import check_env

from canasta.env.gym_env import ILLEGAL_ACTION_REWARD, CanastaGymEnv


def test_check_env_with_default_arguments() -> None:
    # the checker steps with unmasked samples: illegal ones get the documented penalty, not an exception
    check_env(CanastaGymEnv())
    env = CanastaGymEnv("classic", 4)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, term, trunc, info = env.step(illegal)
    assert reward == ILLEGAL_ACTION_REWARD and info["illegal_action"] and not (term or trunc)
    assert np.array_equal(again["observation"], obs["observation"])
    strict = CanastaGymEnv("classic", 4, illegal_action_reward=None)
    strict.reset(seed=1)
    with pytest.raises(ValueError):
        strict.step(illegal)


@pytest.mark.parametrize(("variant", "players", "opponents"),
                         [("classic", 2, "basic"), ("classic", 3, ["random", "basic"]), ("cuban", 4, "random"),
                          ("burraco", 4, "basic"), ("burraco", 2, "random"), ("samba", 4, "basic"),
                          ("american", 4, "basic")])
def test_masked_random_episode(variant: str, players: int, opponents: str | list[str]) -> None:
    env = CanastaGymEnv(variant, players, opponents=opponents, seat=players - 1)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, term, trunc, _ = env.step(int(rng.choice(legal)))
        total += reward
        done = term or trunc
        steps += 1
    assert env.game.hand_results and steps > 0
    assert total != 0.0


def test_seeded_reset_is_deterministic() -> None:
    a, b = CanastaGymEnv("classic", 4), CanastaGymEnv("classic", 4)
    oa, _ = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    assert np.array_equal(oa["observation"], ob["observation"])
    assert a.game.to_dict() == b.game.to_dict()


@pytest.mark.parametrize(("players", "rules"), [(6, {}), (6, {"team_size": 3}), (8, {})])
def test_masked_random_episode_hand_and_foot_six_and_eight_players(players: int, rules: dict[str, int]) -> None:
    from canasta.encoding import obs_size

    env = CanastaGymEnv("hand-and-foot", players, opponents="random", seat=players - 1, rules=rules)
    assert env.observation_space["observation"].shape == (obs_size("hand-and-foot", players),)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        assert obs["observation"].shape == (obs_size("hand-and-foot", players),)
        assert np.isfinite(obs["observation"]).all()
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) and np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
        done = term or trunc
        steps += 1
    assert env.game.hand_results and steps > 0 and not trunc
