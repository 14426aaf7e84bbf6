"""Speed of the environments, for docs/benchmarks.md: agent steps per second of the Gymnasium environment
(random masked actions, and inside a MaskablePPO training loop) and turns per second of the bare
PettingZoo environment (random masked actions, as PettingZoo's performance_benchmark plays).

    python3 examples/bench_env_speed.py --steps 3000 --train-steps 6144

Rates are per second of this process's CPU time (``time.process_time``; torch runs on one thread), so
other work on a shared machine disturbs them less than wall-clock rates. It uses only the constructors
every version of canasta.env has, so the same command measures an older checkout too
(``PYTHONPATH=/path/to/old/checkout python3 examples/bench_env_speed.py``): compare versions by ratios
of runs made one after the other on the same machine, never by figures from different runs.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def gym_steps_per_second(steps: int, seed: int = 0) -> float:
    """Agent steps/s of 2-player Classic against BasicPlayer, asking action_masks() as MaskablePPO does."""
    from canasta.env.gym_env import CanastaGymEnv

    env = CanastaGymEnv("classic", 2, opponents="basic")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    start = time.process_time()
    for _ in range(steps):
        mask = env.action_masks()
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            env.reset()
    return steps / (time.process_time() - start)


def pettingzoo_turns_per_second(turns: int, seed: int = 0) -> float:
    """Turns/s of the bare AEC environment, 4-player Classic, every agent observed once a turn."""
    from canasta.env.pettingzoo_env import CanastaEnv

    env = CanastaEnv("classic", 4)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    start = time.process_time()
    done = 0
    while done < turns:
        for _agent in env.agent_iter(env.num_agents):
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
    return done / (time.process_time() - start)


def training_steps_per_second(steps: int, seed: int = 0) -> float:
    """Agent steps/s inside MaskablePPO's learn() (rollouts and updates), 2-player Classic against BasicPlayer."""
    import torch
    from sb3_contrib import MaskablePPO

    from canasta.env.gym_env import CanastaGymEnv

    torch.set_num_threads(1)
    env = CanastaGymEnv("classic", 2, opponents="basic")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=2048, batch_size=256, seed=seed)
    start = time.process_time()
    model.learn(total_timesteps=steps)
    return model.num_timesteps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000, help="Gymnasium steps and PettingZoo turns")
    parser.add_argument("--train-steps", type=int, default=0, help="MaskablePPO steps (0: skip)")
    args = parser.parse_args()
    import canasta

    out: dict[str, object] = {"canasta": str(canasta.__file__), "gym_steps_per_s": round(gym_steps_per_second(args.steps), 1),
           "pettingzoo_turns_per_s": round(pettingzoo_turns_per_second(args.steps), 1)}
    if args.train_steps:
        out["maskable_ppo_steps_per_s"] = round(training_steps_per_second(args.train_steps), 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
