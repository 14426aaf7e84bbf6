"""Two arena results of the same deals compared deal by deal: the first file's player against the second's.

    python3 -m research.arena_paired mille-split.json mille.json
    python3 -m research.arena_paired a-1.json b-1.json a-2.json b-2.json   # each pair, then all pooled

Each file is a ``canasta arena --out STEM`` result (``STEM.json``, or ``STEM.json.gz``) whose non-``basic``
player is the one compared; only the deals whose games finished in both files count. Prints the mean win
rate and margin of each over those deals, and the paired difference with its 95% half-width (normal
approximation over deals): a difference of two settings measured on the same cards, which is far less
noisy than two separate win rates. Several pairs (say, one per seed) are also pooled: every deal of every pair
counts once.
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from pathlib import Path
from typing import Any


def per_deal(path: str) -> dict[int, tuple[float, float]]:
    """Deal -> (win rate, margin) of the file's player over the deal's games (only deals with all games)."""
    opener: Any = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        result = json.load(f)
    name = next(n for n in result["summary"] if not n.startswith("basic"))
    games: dict[int, list[tuple[float, float]]] = {}
    for record in result["records"]:
        side = record["names"].index(name)
        best_other = max(s for i, s in enumerate(record["scores"]) if i != side)
        win = 1.0 if record["winners"] == [side] else 0.5 if side in record["winners"] else 0.0
        games.setdefault(record["deal"], []).append((win, record["scores"][side] - best_other))
    rotations = len(result["players"])
    return {deal: (sum(w for w, _ in g) / len(g), sum(m for _, m in g) / len(g))
            for deal, g in games.items() if len(g) == rotations}


def mean_and_half_width(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else float("nan")
    return mean, 1.96 * sd / math.sqrt(n)


def compare(a: dict[Any, tuple[float, float]], b: dict[Any, tuple[float, float]], first: str, second: str) -> None:
    deals = sorted(set(a) & set(b))
    if len(deals) < 2:
        raise SystemExit("fewer than two deals in common")
    for i, label in ((0, "win rate"), (1, "margin")):
        ma, _ = mean_and_half_width([a[d][i] for d in deals])
        mb, _ = mean_and_half_width([b[d][i] for d in deals])
        diff, half = mean_and_half_width([a[d][i] - b[d][i] for d in deals])
        print(f"{label}: {first} {ma:.3f}, {second} {mb:.3f}, "
              f"difference {diff:+.3f} +- {half:.3f} over {len(deals)} deals")


def main(paths: list[str]) -> None:
    pooled_a: dict[Any, tuple[float, float]] = {}
    pooled_b: dict[Any, tuple[float, float]] = {}
    for k in range(0, len(paths), 2):
        a, b = per_deal(paths[k]), per_deal(paths[k + 1])
        compare(a, b, Path(paths[k]).name, Path(paths[k + 1]).name)
        pooled_a |= {(k, deal): v for deal, v in a.items()}
        pooled_b |= {(k, deal): v for deal, v in b.items()}
    if len(paths) > 2:
        compare(pooled_a, pooled_b, "pooled", "pooled")


if __name__ == "__main__":
    if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
        raise SystemExit(__doc__)
    main(sys.argv[1:])
