"""The research environments against the raw engine, side by side in one run (docs/environments.md).

    python3 examples/env_speed.py                 # wrappers and clone/resample, about a minute
    python3 examples/env_speed.py --ismcts 10     # also ISMCTSBot, 10 simulations, 2p Classic hands
    PYTHONPATH=/path/to/old/checkout python3 examples/env_speed.py   # the same figures for another checkout
    (PYTHONPATH=. measures this checkout rather than the installed canasta)

**Wrappers:** actions per CPU-second of 4-player Classic, one hand an episode, uniformly random legal
actions: the raw engine (``legal_actions`` and ``push``), the engine plus the observation dict of the seat to
act, PettingZoo's ``env()`` and ``raw_env`` (``last()`` then ``step``), Gymnasium (random opponents: every
action of every seat counts, the agent's observation is encoded at its turns), and the OpenSpiel game with
the observation tensor of the player to act; OpenSpiel's C++ ``gin_rummy`` the same way as the reference.
Each ratio is to the raw engine. **Search:** Game.copy(), OpenSpiel ``clone()`` and
``resample_from_infostate`` per second on positions 60 actions into Classic, Samba and Hand and Foot (4p).

Each figure is the best of ``--rounds`` rounds taken in turn (a shared machine slows some rounds; the best
is the least disturbed), on CPU time; compare figures of one run only.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np

Runner = Callable[[int], int]  # plays about n actions, returns the number played


def engine_runner(with_observation: bool) -> Runner:
    from canasta.engine.game import Game

    seeds = iter(range(10**9))

    def run(n: int) -> int:
        rng = random.Random(0)
        done = 0
        while done < n:
            g = Game("classic", 4, next(seeds))
            g.deals_next_hand = False  # one hand, as the environments' episodes
            while not g.hand_results:
                if with_observation:
                    g.observation(g.actor)
                g.push(rng.choice(g.legal_actions()))
                done += 1
        return done
    return run


def _random_legal(rng: random.Random, mask: Any) -> int:
    """A uniformly random legal index (Python's random, as the engine's runner: the policy's cost is not the
    environment's)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def pettingzoo_runner(wrapped: bool) -> Runner:
    from canasta.env.pettingzoo_env import env, raw_env

    e = env(variant="classic", players=4) if wrapped else raw_env(variant="classic", players=4)
    rng = random.Random(0)

    def run(n: int) -> int:
        done = 0
        while done < n:
            e.reset(seed=done)
            for _agent in e.agent_iter():
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                e.step(_random_legal(rng, obs["action_mask"]))
                done += 1
        return done
    return run


def gym_runner() -> Runner:
    from canasta.env.gym_env import CanastaGymEnv

    e = CanastaGymEnv("classic", 4, opponents="random")
    rng = random.Random(0)

    def run(n: int) -> int:
        done = 0
        while done < n:
            obs, _ = e.reset(seed=done)
            before = 0
            while True:
                obs, _, term, trunc, _ = e.step(_random_legal(rng, obs["action_mask"]))
                if term or trunc:
                    break
            done += e.episode.steps - before
        return done
    return run


def openspiel_runner(name: str, params: dict[str, Any]) -> Runner:
    import pyspiel

    import canasta.env.openspiel_game  # noqa: F401 (registers python_canasta)

    game = pyspiel.load_game(name, params)
    rng = random.Random(0)

    def run(n: int) -> int:
        done = 0
        while done < n:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
        return done
    return run


def best_rates(runners: dict[str, Runner], actions: int, rounds: int) -> dict[str, float]:
    """Actions per CPU-second of each runner: the best of ``rounds`` rounds, the runners taking turns."""
    best = dict.fromkeys(runners, 0.0)
    for _ in range(rounds):
        for name, run in runners.items():
            start = time.process_time()
            done = run(actions)
            best[name] = max(best[name], done / max(time.process_time() - start, 1e-9))
    return best


def search_rates(rounds: int, calls: int) -> dict[str, dict[str, float]]:
    """Game.copy(), clone() and resample_from_infostate() per second, 60 actions into a 4-player game."""
    import pyspiel

    import canasta.env.openspiel_game  # noqa: F401

    out: dict[str, dict[str, float]] = {}
    for variant in ("classic", "samba", "hand-and-foot"):
        state = pyspiel.load_game("python_canasta", {"variant": variant, "players": 4}).new_initial_state()
        state.apply_action(7)
        rng = random.Random(1)
        for _ in range(60):
            state.apply_action(rng.choice(state.legal_actions()))
        player = state.current_player()
        calls_of = {"copy": state.game.copy, "clone": state.clone,
                    "resample": lambda s=state, p=player: s.resample_from_infostate(p, lambda: 0.3)}
        best = dict.fromkeys(calls_of, 0.0)
        for _ in range(rounds):
            for name, call in calls_of.items():
                start = time.process_time()
                for _ in range(calls):
                    call()
                best[name] = max(best[name], calls / max(time.process_time() - start, 1e-9))
        out[variant] = {**{f"{k}_per_s": round(v) for k, v in best.items()},
                        "clone_x_copy": round(best["copy"] / best["clone"], 2),
                        "resample_x_copy": round(best["copy"] / best["resample"], 2)}
    return out


def ismcts_seconds(simulations: int, hands: int) -> tuple[float, int]:
    """CPU seconds for OpenSpiel's ISMCTSBot (random rollouts) to play ``hands`` hands of 2p Classic
    against a random player, seeded (the seeded resampler where this checkout has one); and the searches made
    (decisions with more than one legal action: a hand's length depends on the moves, so compare seconds a search)."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import canasta.env.openspiel_game as osg

    game = pyspiel.load_game("python_canasta", {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(2))
    if hasattr(osg, "seeded_resampler"):
        bot.set_resampler(osg.seeded_resampler(bot._random_state))
    rng = random.Random(3)
    searches = 0
    start = time.process_time()
    for deal in range(hands):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            legal = state.legal_actions()
            searching = state.current_player() == 0 and len(legal) > 1
            searches += searching
            state.apply_action(bot.step(state) if searching else rng.choice(legal))
    return time.process_time() - start, searches


def commit() -> str:
    import canasta

    try:
        where = canasta.__file__.rsplit("/canasta/", 1)[0]
        return subprocess.run(["git", "-C", where, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=3000, help="actions a round, per wrapper")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ismcts", type=int, default=0, metavar="SIMULATIONS", help="also time ISMCTSBot")
    parser.add_argument("--ismcts-hands", type=int, default=2)
    args = parser.parse_args()
    import canasta

    runners: dict[str, Runner] = {
        "engine": engine_runner(False), "engine+observation dict": engine_runner(True),
        "pettingzoo env()": pettingzoo_runner(True), "pettingzoo raw_env": pettingzoo_runner(False),
        "gymnasium": gym_runner(),
        "openspiel python_canasta + tensor": openspiel_runner("python_canasta", {"players": 4}),
        "openspiel gin_rummy (C++) + tensor": openspiel_runner("gin_rummy", {}),
    }
    rates = best_rates(runners, args.actions, args.rounds)
    out: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit(),
        "canasta": canasta.__file__,
        "actions_per_cpu_s": {k: round(v) for k, v in rates.items()},
        "ratio_to_engine": {k: round(v / rates["engine"], 3) for k, v in rates.items()},
        "search": search_rates(args.rounds * 2, 300),
    }
    if args.ismcts:
        seconds, searches = ismcts_seconds(args.ismcts, args.ismcts_hands)
        out["ismcts"] = {"simulations": args.ismcts, "hands": args.ismcts_hands, "cpu_s": round(seconds, 1),
                         "searches": searches, "ms_a_search": round(1000 * seconds / max(searches, 1), 1)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
