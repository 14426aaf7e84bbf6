"""Train MaskablePPO (sb3-contrib) on the Gymnasium environment against BasicPlayer, then measure its win rate.

    python3 -m pip install -e '.[rl,train]'
    python3 examples/train_maskable_ppo.py                  # 16,384 steps, 200 hands: minutes on 2 cores
    python3 examples/train_maskable_ppo.py --steps 100000 --eval-hands 400 --seed 0

One seat learns, BasicPlayer ("basic") takes the other (2-player Classic by default); an episode is one
hand and the reward is the hand's score margin (canasta.env.rewards). Before training and after it the
script plays ``--eval-hands`` fresh hands with the policy's most likely legal action and prints the win
rate (a hand won: a positive margin; a tie counts half) with its Wilson 95% interval and the number of
hands cut at MAX_STEPS (a policy that stalls forfeits them), and the agent's training steps per second
(agent steps: the opponents' moves inside a step are not counted). While it trains it prints a line of
progress to stderr after each rollout (steps done, steps a second, the mean reward of the episodes finished
in it); ``--quiet`` keeps them out. docs/research.md reports a run.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from canasta.env.gym_env import CanastaGymEnv


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


#: actions after which an episode is cut (a forfeit of the side to act: canasta.env.rewards); a hand of
#: 2-player Classic against BasicPlayer takes a few hundred, so only a policy that stalls reaches it
MAX_STEPS = 2000


def make_env(variant: str, players: int, opponents: str) -> CanastaGymEnv:
    return CanastaGymEnv(variant, players, opponents=opponents, max_steps=MAX_STEPS)


def evaluate(model: Any, env: CanastaGymEnv, hands: int, seed: int) -> dict[str, float]:
    """Win rate and mean reward of the model's masked greedy policy over ``hands`` fresh hands."""
    wins, total, truncated = 0.0, 0.0, 0
    obs, _ = env.reset(seed=seed)
    for _ in range(hands):
        done, ret = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, term, trunc, _ = env.step(int(action))
            ret += float(reward)
            done = term or trunc
        truncated += bool(trunc)
        wins += 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0
        total += ret
        obs, _ = env.reset()
    low, high = wilson(wins, hands)
    return {"hands": hands, "win_rate": wins / hands, "low": low, "high": high, "mean_reward": total / hands,
            "truncated": truncated}


def progress_printer(total: int) -> Any:
    """An SB3 callback printing, after each rollout, the steps done, steps a second and the mean reward of
    the episodes that ended in the rollout (to stderr: stdout keeps the JSON result)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.start = time.perf_counter()
            self.episode_rewards: list[float] = []

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", ()):
                if "episode" in info:
                    self.episode_rewards.append(float(info["episode"]["r"]))
            return True

        def _on_rollout_end(self) -> None:
            rate = self.num_timesteps / max(time.perf_counter() - self.start, 1e-9)
            mean = sum(self.episode_rewards) / len(self.episode_rewards) if self.episode_rewards else float("nan")
            print(f"{self.num_timesteps:>8}/{total} steps  {rate:7.0f} steps/s  mean episode reward {mean:+.3f} "
                  f"({len(self.episode_rewards)} episodes)", file=sys.stderr, flush=True)
            self.episode_rewards = []

    return Progress()


def train(variant: str = "classic", players: int = 2, opponents: str = "basic", steps: int = 16_384,
          eval_hands: int = 200, seed: int = 0, n_steps: int = 2048, batch_size: int = 256,
          verbose: int = 0, progress: bool = False) -> dict[str, Any]:  # n_steps, batch_size: PPO's rollout and minibatch sizes
    """Train and evaluate; the figures as a dict."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # small networks: threads cost more than they give
    env = make_env(variant, players, opponents)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=n_steps, batch_size=batch_size, seed=seed, verbose=verbose)
    result: dict[str, Any] = {"variant": variant, "players": players, "opponents": opponents, "steps": steps,
                              "seed": seed}
    if eval_hands:
        result["before"] = evaluate(model, make_env(variant, players, opponents), eval_hands, seed + 10_000)
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=progress_printer(steps) if progress else None)
    seconds = time.perf_counter() - start
    result["train_seconds"] = round(seconds, 1)
    result["agent_steps_per_second"] = round(model.num_timesteps / seconds, 1)
    if eval_hands:
        result["after"] = evaluate(model, make_env(variant, players, opponents), eval_hands, seed + 10_000)
    result["model"] = model
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="basic")
    parser.add_argument("--steps", type=int, default=16_384, help="agent steps (default: minutes on 2 cores)")
    parser.add_argument("--eval-hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="", help="save the trained model to this path")
    parser.add_argument("--quiet", action="store_true", help="no progress lines while training")
    args = parser.parse_args()
    result = train(args.variant, args.players, args.opponents, args.steps, args.eval_hands, args.seed,
                   progress=not args.quiet)
    model = result.pop("model")
    if args.save:
        model.save(args.save)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
