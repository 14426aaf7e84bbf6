"""The arena's one-hand games with expert settings the arena's names do not take (issue 23's runs).

    python3 -m research.expert_value_match --players expert-net,basic --games 400 --seed 23 --out net.jsonl
    python3 -m research.expert_value_match --players expert-net,expert-v1 --games 400 --seed 23 --out v1.jsonl --first 200

Plays ``canasta.arena.game_specs`` (the games of ``canasta arena --games N --seed S --hands 1``, in the
order ``--workers 1`` plays them) from index ``--first`` on, and appends each game's record to ``--out``
as it ends (one JSON line): a run stopped early keeps its finished games and resumes where it stopped,
and several processes can play separate blocks of the same match. ``--summary`` prints
``canasta.arena.summarize`` over the deals of the given files both of whose games finished.
Extra names: ``expert-net`` (the expert with the value ``net-v2``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from canasta import players
from canasta.arena import game_specs, play_one, summarize
from research.net_value import NetValueExpert

players.PLAYERS["expert-net"] = NetValueExpert


def play(variant: str, names: list[str], games: int, seed: int, table: int, out: Path, first: int) -> None:
    done = sum(1 for _ in out.open()) if out.exists() else 0
    with out.open("a") as f:
        for spec in game_specs(variant, names, games, seed, table, {}, 1)[first + done:]:
            f.write(json.dumps(play_one(spec)) + "\n")
            f.flush()


def summary(paths: list[Path]) -> dict[str, Any]:
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for path in paths:
        for line in path.open():
            record = json.loads(line)
            by_deal.setdefault(record["deal"], []).append(record)
    whole = {deal: records for deal, records in by_deal.items() if len(records) == len(records[0]["names"])}
    records = [r for deal in sorted(whole) for r in whole[deal]]
    names = list(dict.fromkeys(records[0]["names"])) if records else []
    return {"deals": sorted(whole), "summary": summarize(records, names)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", default="expert-net,basic")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--table", type=int, default=4)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--summary", type=Path, nargs="+")
    args = parser.parse_args()
    if args.summary:
        print(json.dumps(summary(args.summary), indent=1))
    else:
        play(args.variant, args.players.split(","), args.games, args.seed, args.table, args.out, args.first)


if __name__ == "__main__":
    main()
