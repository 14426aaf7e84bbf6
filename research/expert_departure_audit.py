"""Audit the expert's departures from its base policy: is the gate (``margin_se``) passing noise?

At each searched decision the expert proposes the candidate with the best mean over a handful of sampled
worlds and leaves the base policy's choice for it only if the paired gain exceeds ``margin_se`` standard
errors. With several candidates the best of several noisy means is biased upwards, so some departures pass
on noise. This script plays one-hand games (the expert at the even seats, BasicPlayer at the odd ones, as
``canasta arena --players expert,basic`` seats them) and, at every decision where the search proposed
something other than the base policy's choice, measures that proposal again in ``--oracle-worlds`` fresh
worlds (another random stream, no step bound): the gain the proposal really has *under the search's own
model* (the same worlds' sampler, rollout policy and value). It then prints, for a range of thresholds, how
many departures a gate at that threshold would make and their summed re-measured gain, so a threshold can be
chosen without a 400-game arena per setting (the arena stays the judge of real strength: the model's gain is
not the table's). With ``--truth N`` each proposal is also played out in N copies of the *real* position (the
hidden hands as they are, the stock shuffled) to the end of the hand by the base policy: where that gain and
the re-measured one disagree, the model (its worlds or its value at the horizon) misleads the search.

    python3 -m research.expert_departure_audit --variant american --games 20 --seed 1 --out audit.jsonl
    python3 -m research.expert_departure_audit --variant american --games 10 --seed 2 --truth 48

One JSON line per proposal: the phase, the number of candidates and worlds, the search's z (paired mean over
its standard error), whether the default gate departed, and the re-measured gain with its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any, TextIO

from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.players.basic import BasicPlayer
from canasta.players.expert import ExpertPlayer
from research.experts import research_expert

THRESHOLDS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)


def paired(first: dict[int, float], second: dict[int, float]) -> tuple[float, float, int]:
    """Mean of the paired differences first - second over the worlds both have, its standard error, the count."""
    diffs = [v - second[w] for w, v in first.items() if w in second]
    n = len(diffs)
    if n < 2:
        return (diffs[0] if diffs else 0.0), math.inf, n
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n), n


def true_values(expert: ExpertPlayer, game: Game, actions: list[Action], copies: int,
                rng: random.Random) -> dict[Action, dict[int, float]]:
    """Each action's value in ``copies`` copies of the *real* position (the hidden hands as they are, only the
    face-down stock shuffled), every copy played out to the end of the hand by the base policy at every seat:
    what the search's model would say if it knew the cards and needed no value at a horizon."""
    side = game.variant.side_of(game.actor)
    values: dict[Action, dict[int, float]] = {a: {} for a in actions}
    for copy in range(copies):
        world = game.copy()
        rng.shuffle(world.stock)
        for action in actions:
            value, _ = expert._rollout(world, action, side)  # a played-out rollout: the expert given has no leaf
            if value is not None:
                values[action][copy] = value
    return values


def audit(variant: str, players: int, games: int, seed: int, oracle_worlds: int,
          expert_options: dict[str, Any], truth: int = 0, out: TextIO | None = None) -> list[dict[str, Any]]:
    """The proposals of ``games`` one-hand games (each also written to ``out`` as a JSON line as it is found)."""
    expert = research_expert(seed, **expert_options)
    played_out = research_expert(seed, played_out=True, **{**expert_options, "max_rollout": 2000})
    basic = BasicPlayer()
    rows: list[dict[str, Any]] = []
    for number in range(games):
        game = Game(variant, players, f"audit/{seed}/{number}")
        decision = 0
        while not game.is_over and game.hand_no == 1:
            seat = game.actor
            legal = game.legal_actions()
            obs = game.observation(seat)
            if seat % 2 == 1:
                game.push(basic.choose(obs, legal))
                continue
            expert.last_search = None
            action = expert.choose(obs, legal)
            record = expert.last_search
            decision += 1
            if record is not None and record.proposed != record.basic_choice:
                gain, se, worlds = paired(record.values[record.proposed], record.values[record.basic_choice])
                rng = random.Random(f"oracle/{seed}/{number}/{decision}")
                values, _ = expert.sample_values(obs, legal, [record.proposed, record.basic_choice],
                                                 oracle_worlds, rng)
                true_gain, true_se, true_worlds = paired(values[record.proposed], values[record.basic_choice])
                extra: dict[str, Any] = {}
                if truth:
                    real = true_values(played_out, game, [record.proposed, record.basic_choice], truth, rng)
                    real_gain, real_se, _ = paired(real[record.proposed], real[record.basic_choice])
                    extra = {"true_gain": real_gain, "true_se": real_se}
                rows.append({
                    "game": number, "decision": decision, "phase": obs["phase"],
                    "kind": record.proposed.kind, "base_kind": record.basic_choice.kind,
                    "candidates": len(record.values), "worlds": worlds,
                    "z": gain / se if se > 0 else (math.inf if gain > 0 else 0.0), "gain": gain,
                    "departed": action != record.basic_choice,
                    "oracle_gain": true_gain, "oracle_se": true_se, "oracle_worlds": true_worlds, **extra,
                })
                if out is not None:
                    out.write(json.dumps(rows[-1]) + "\n")
                    out.flush()
            game.push(action)
        print(f"game {number + 1}/{games}: {len(rows)} proposals so far", file=sys.stderr, flush=True)
    return rows


def summarise(rows: list[dict[str, Any]], key: str = "oracle_gain") -> str:
    """Per threshold: the departures a gate at it would make and their summed gain by ``key`` (the re-measured
    gain, or ``true_gain``: the gain in the real position played out)."""
    lines = [f"threshold (z)  departures  summed {key:>14s}  mean  share with gain > 0"]
    for t in THRESHOLDS:
        kept = [r for r in rows if r["z"] > t and key in r]
        total = sum(r[key] for r in kept)
        mean = total / len(kept) if kept else 0.0
        good = sum(1 for r in kept if r[key] > 0) / len(kept) if kept else 0.0
        lines.append(f"{t:13.1f}  {len(kept):10d}  {total:21.0f}  {mean:+5.0f}  {good:19.0%}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="american")
    parser.add_argument("--players", type=int, default=None, help="default: 2 in Mille, else 4")
    parser.add_argument("--games", type=int, default=10, help="one-hand games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--oracle-worlds", type=int, default=96)
    parser.add_argument("--truth", type=int, default=0,
                        help="also play each proposal out in this many copies of the real position (stock shuffled)")
    parser.add_argument("--expert", default="", help="expert options, key=value separated by ':'")
    parser.add_argument("--out", default=None, help="write the rows as JSON lines")
    args = parser.parse_args()
    players = args.players or (2 if args.variant == "mille" else 4)
    options: dict[str, Any] = {}
    for item in filter(None, args.expert.split(":")):
        key, _, text = item.partition("=")
        options[key] = json.loads(text) if text[:1] in "-0123456789tf" else text
    start = time.process_time()
    if args.out:
        with open(args.out, "w") as out:
            rows = audit(args.variant, players, args.games, args.seed, args.oracle_worlds, options, args.truth, out)
    else:
        rows = audit(args.variant, players, args.games, args.seed, args.oracle_worlds, options, args.truth)
    print(summarise(rows))
    if args.truth:
        print(summarise(rows, "true_gain"))
    print(f"{len(rows)} proposals in {args.games} games, {time.process_time() - start:.0f} CPU s")


if __name__ == "__main__":
    main()
