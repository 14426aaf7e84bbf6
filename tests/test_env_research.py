"""What a game-AI researcher expects of the environments (issue 21): registered Gymnasium ids, the default
checker passing, Gymnasium's render conventions, real observation bounds, one reward scale and option
across PettingZoo, Gymnasium and OpenSpiel, the final observation of the finished hand, ``hands=0`` as the
whole game everywhere, truncation that never rewards stalling, PettingZoo's standard wrappers, no
information-state tensor, a cached chance node and one encoding per step."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

import canasta.env.gym_env as gym_env
import canasta.env.pettingzoo_env as pz_env
from canasta.encoding import obs_bounds, variant_obs_layout
from canasta.env.gym_env import GYM_IDS, CanastaGymEnv, gym_id
from canasta.env.pettingzoo_env import CanastaEnv, env
from canasta.env.rewards import (
    DEFAULT_REWARD_SCALE,
    forfeit_rewards,
    hand_margin_bound,
    hand_rewards,
    normalized_reward_scale,
)
from canasta.variants import VARIANTS


def _meld_block(variant: str, players: int) -> slice:
    offset = 0
    for name, n in variant_obs_layout(variant, players):
        if name == "meld_naturals":
            return slice(offset, offset + 2 * n)  # naturals and wild cards of every meld
        offset += n
    raise AssertionError("no meld block")


def _play_gym(e: Any, seed: int) -> tuple[dict[str, Any], float, bool, bool]:
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, term, trunc = 0.0, False, False
    while not (term or trunc):
        obs, reward, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    return obs, total, term, trunc


# ------------------------------------------------------------------ Gymnasium
def test_every_variant_has_a_registered_id() -> None:
    assert gym_id("classic") == "canasta/Classic-v0" and gym_id("hand-and-foot") == "canasta/HandAndFoot-v0"
    assert sorted(GYM_IDS) == sorted(gym_id(v) for v in VARIANTS)
    assert all(i in gym.registry for i in GYM_IDS)


def test_gym_make_and_make_vec() -> None:
    e = gym.make("canasta/Classic-v0", players=2, opponents="random")
    obs, _ = e.reset(seed=2)
    assert e.observation_space.contains(obs)
    vec = gym.make_vec("canasta/Classic-v0", num_envs=2, players=2, opponents="random")
    batch, _ = vec.reset(seed=3)
    assert batch["observation"].shape == (2, e.observation_space["observation"].shape[0])
    masks = batch["action_mask"]
    batch, rewards, _, _, _ = vec.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    assert rewards.shape == (2,)
    vec.close()


def test_gym_make_imports_the_module_named_in_the_id() -> None:
    """Gymnasium 1.x loads no entry-point plugins: ``module:id`` imports the module first (docs/environments.md)."""
    import subprocess
    import sys

    code = ("import gymnasium as gym; e = gym.make('canasta.env.gym_env:canasta/Classic-v0', players=2, "
            "opponents='random'); print(e.reset(seed=1)[0]['observation'].shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str((obs_bounds("classic", 2)[0].shape[0],)), out.stderr


def test_make_vec_autoreset_step_after_the_end_ignores_the_action() -> None:
    """Gymnasium's vector autoreset (next step): the step that ends an episode returns its final observation,
    whose mask is all zero (nobody may act); the next step resets that environment and ignores its action, so
    any index may be passed there (docs/environments.md)."""
    vec = gym.make_vec("canasta/Classic-v0", num_envs=1, players=2, opponents="random", max_steps=3)
    batch, _ = vec.reset(seed=5)
    ended = False
    for _ in range(10):
        mask = batch["action_mask"][0]
        if ended:
            assert not mask.any()
            batch, rewards, term, trunc, _ = vec.step(np.array([0]))  # ignored: the environment resets
            assert batch["action_mask"][0].any() and rewards[0] == 0.0 and not (term[0] or trunc[0])
            break
        batch, _, term, trunc, _ = vec.step(np.array([int(np.flatnonzero(mask)[0])]))
        ended = bool(term[0] or trunc[0])
    assert ended
    vec.close()


def test_normalized_reward_scale_puts_every_reward_within_one() -> None:
    scale = normalized_reward_scale("classic", 4)
    e = CanastaEnv("classic", 4, max_steps=25, reward_scale=scale)
    e.reset(seed=1)
    for _agent in e.agent_iter(max_iter=200):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.episode.truncated
    assert sorted(abs(r) for r in e.episode.returns) == pytest.approx([1.0] * 4)  # the forfeit: exactly the bound


def test_check_env_through_make_with_render_modes() -> None:
    check_env(gym.make("canasta/Mille-v0").unwrapped)
    check_env(gym.make("canasta/Classic-v0", render_mode="ansi").unwrapped)


def test_render_follows_gymnasium() -> None:
    quiet = CanastaGymEnv("classic", 2, opponents="random")
    quiet.reset(seed=1)
    assert quiet.render() is None
    ansi = CanastaGymEnv("classic", 2, opponents="random", render_mode="ansi")
    ansi.reset(seed=1)
    assert isinstance(ansi.render(), str)
    with pytest.raises(ValueError):
        CanastaGymEnv("classic", 2, render_mode="rgb_array")


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("samba", 4), ("burraco", 4),
                                                   ("hand-and-foot", 4), ("american", 4), ("hand-and-foot", 6)])
def test_observation_space_has_real_bounds(variant: str, players: int) -> None:
    e = CanastaGymEnv(variant, players, opponents="random")
    box = e.observation_space["observation"]
    assert box.dtype == np.float32 and np.isfinite(box.low).all() and np.isfinite(box.high).all()
    assert (box.low <= 0).all() and (box.high >= 1).all()
    low, high = obs_bounds(variant, players)
    obs, _ = e.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert e.observation_space.contains(obs)
        assert ((obs["observation"] >= low) & (obs["observation"] <= high)).all()
        obs, _, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            obs, _ = e.reset()


def test_the_final_observation_shows_the_finished_hand() -> None:
    e = CanastaGymEnv("classic", 2, opponents="basic", render_mode="ansi")
    obs, _, term, _ = _play_gym(e, 5)
    assert term and len(e.game.hand_results) == 1
    assert e.game.hand_no == 1 and e.render().startswith("hand 1;")  # type: ignore[union-attr]
    melds = obs["observation"][_meld_block("classic", 2)]
    assert melds.any()  # the finished table, not a fresh deal
    assert not obs["action_mask"].any()


def test_hands_zero_is_the_whole_game_in_gymnasium() -> None:
    e = CanastaGymEnv("classic", 2, opponents="basic", hands=0)
    obs, _ = e.reset(seed=1)
    rng = np.random.default_rng(1)
    while len(e.game.hand_results) < 1:
        obs, _, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not (term or trunc) or e.game.is_over
    assert not e.episode.done  # one hand finished; the game goes on


def test_encoding_once_per_step_and_a_cached_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = gym_env.encode_position

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(gym_env, "encode_position", counting)
    e = CanastaGymEnv("classic", 2, opponents="basic")
    obs, _ = e.reset(seed=2)
    for _ in range(20):
        calls.clear()
        mask = e.action_masks()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        obs, _, term, trunc, _ = e.step(int(np.flatnonzero(mask)[0]))
        e.action_masks()
        assert len(calls) == 1
        if term or trunc:
            break


# ------------------------------------------------------------------ rewards and truncation
def test_truncation_is_a_forfeit_of_the_side_to_act() -> None:
    # an agent that stalls (here: refuses with illegal actions) until max_steps gets the forfeit, which
    # is worse than the worst finished hand could be
    e = CanastaGymEnv("classic", 2, opponents="basic", max_steps=30)
    obs, _ = e.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    trunc, total = False, 0.0
    for _ in range(40):
        obs, reward, term, trunc, _ = e.step(illegal)
        total += reward
        if term or trunc:
            break
    assert trunc and not term
    bound = hand_margin_bound(e.game)
    assert total - (-1.0 * e.episode.steps) == pytest.approx(-bound * DEFAULT_REWARD_SCALE)
    # no finished hand of two sides (each side scores less than the bound) gives a side less
    assert -bound * DEFAULT_REWARD_SCALE <= min(hand_rewards(e.game, 0, DEFAULT_REWARD_SCALE) or [0.0])
    worst_real = -(bound - 1) * DEFAULT_REWARD_SCALE  # -(a - b)/2 with |a|, |b| < bound
    assert total < worst_real


def test_truncation_in_pettingzoo_is_zero_sum_and_penalises_the_actor() -> None:
    e = CanastaEnv("classic", 4, max_steps=25)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    actor_at_cut = None
    for agent in e.agent_iter(max_iter=1000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        if e.episode.steps == 24:
            actor_at_cut = agent
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.episode.truncated and actor_at_cut is not None
    assert abs(sum(totals.values())) < 1e-9
    side = e.game.side_of(e.possible_agents.index(actor_at_cut))
    for a, t in totals.items():
        assert (t < 0) == (e.game.side_of(e.possible_agents.index(a)) == side)


def test_win_reward_option() -> None:
    e = CanastaGymEnv("classic", 2, opponents="basic", reward="win")
    results = {_play_gym(e, seed)[1] for seed in range(4)}
    assert results <= {1.0, -1.0, 0.0} and len(results) >= 1
    with pytest.raises(ValueError):
        CanastaGymEnv("classic", 2, reward="points")
    game = e.game
    assert forfeit_rewards(game, 0, "win", 1.0) == [-1.0, 1.0]


# ------------------------------------------------------------------ PettingZoo
def test_env_is_wrapped_like_pettingzoo_classic_envs() -> None:
    e = env(variant="classic", players=2)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.unwrapped, CanastaEnv)
    api_test(env(variant="classic", players=4), num_cycles=200)
    seed_test(lambda: env(variant="samba", players=4), num_cycles=200)
    e.reset(seed=1)
    agent = e.agent_selection
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # an illegal action ends the episode
    assert e.rewards[agent] == pz_env.ILLEGAL_ACTION_REWARD and all(e.terminations.values())


def test_pettingzoo_final_observation_and_one_encoding_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = pz_env.encode_position

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pz_env, "encode_position", counting)
    e = CanastaEnv("classic", 2, render_mode="ansi")
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    final = None
    for agent in e.agent_iter(max_iter=20_000):
        calls.clear()
        obs, _, term, trunc, _ = e.last()
        e.observe(agent)
        assert len(calls) <= 1
        if term or trunc:
            final = obs
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert final is not None and final["observation"][_meld_block("classic", 2)].any()
    assert e.game.hand_no == 1 and e.render().startswith("hand 1,")  # type: ignore[union-attr]


@pytest.mark.patches_engine  # (patches SetMeldPlay.observation: the pure-Python pass only)
def test_gym_step_builds_no_observation_dict_for_random_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds on work (issue 55): the agent's vector is read from the engine's codes and RandomPlayer reads no
    observation, so a step against random opponents builds no observation dict; a basic opponent gets its own."""
    from canasta.engine.setplay import SetMeldPlay

    built: list[int] = []
    real = SetMeldPlay.observation

    def counting(self: Any, seat: int | None) -> Any:
        built.append(1)
        return real(self, seat)

    monkeypatch.setattr(SetMeldPlay, "observation", counting)
    for opponents, expect_dicts in (("random", False), ("basic", True)):
        e = CanastaGymEnv("classic", 2, opponents=opponents)
        obs, _ = e.reset(seed=4)
        built.clear()
        for _ in range(10):
            obs, _, term, trunc, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            if term or trunc:
                break
        assert bool(built) == expect_dicts
