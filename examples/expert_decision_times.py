"""Decision times of a computer player: median and 99th percentile, wall-clock and CPU, per variant.

    python3 examples/expert_decision_times.py --player expert expert-v1 --games 2 --variants classic samba
    python3 examples/expert_decision_times.py --player expert:max_steps=1000000000 --variants classic --table 2

One-hand games of the named player (seat 0 and its partners) against BasicPlayer, seeded; every decision
of the named player is timed, trivial ones included (as the arena counts them). CPU time (the process's,
``time.process_time``) is reported beside the wall clock because on a shared machine the wall clock
counts the waits for a core: CPU time is what the player itself spent.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from canasta.arena import make_player
from canasta.engine.game import Game
from canasta.variants import find_variant


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def decision_times(variant: str, player: str, games: int, seed: int, table: int | None = None) -> dict[str, object]:
    if table is None:
        table = 4 if 4 in find_variant(variant).player_counts else 2
    wall: list[float] = []
    cpu: list[float] = []
    searched: list[float] = []  # CPU time of the decisions with a choice (more than one legal action)
    for g in range(games):
        game = Game(variant, table, f"times/{seed}/{g}")
        seats = [make_player(player if game.side_of(s) == 0 else "basic", f"times/{seed}/{g}/{s}")
                 for s in range(table)]
        while not game.is_over and game.hand_no == 1:
            actor = game.actor
            obs, legal = game.observation(actor), game.legal_actions()
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            action = seats[actor].choose(obs, legal)
            if game.side_of(actor) == 0:
                wall.append(time.perf_counter() - start_wall)
                cpu.append(time.process_time() - start_cpu)
                if len(legal) > 1:
                    searched.append(cpu[-1])
            game.push(action)
    return {"variant": variant, "table": table, "games": games, "decisions": len(wall),
            "median_wall": round(statistics.median(wall), 3), "p99_wall": round(percentile(wall, 0.99), 3),
            "median_cpu": round(statistics.median(cpu), 3), "p99_cpu": round(percentile(cpu, 0.99), 3),
            "max_cpu": round(max(cpu), 3), "choices": len(searched),
            "median_cpu_of_choices": round(statistics.median(searched), 3) if searched else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", nargs="+", default=["expert"])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="+", default=["classic"])
    parser.add_argument("--table", type=int, default=None, help="players (default: 4 where the variant seats four, else 2)")
    args = parser.parse_args()
    for variant in args.variants:  # several players: measured in turn on the same deals, in one process
        for player in args.player:
            print(json.dumps({"player": player, **decision_times(variant, player, args.games, args.seed, args.table)}), flush=True)


if __name__ == "__main__":
    main()
