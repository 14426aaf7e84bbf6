"""Fitting the linear values of :mod:`canasta.players.value`: least squares of the final hand margin on the
features at every start of a turn of self-play hands (BasicPlayer with the expert's base style at every seat).
The shipped weights were made by

    python3 -m research.value_fit --hands 3000 --seed 0
    python3 -m research.value_fit --variant hand-and-foot --players 4 --hands 3000 --seed 0
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np

from canasta.engine.game import Game
from canasta.players.basic import EXPERT_STYLE, VARIANT_STYLES, BasicPlayer, BasicStyle
from canasta.players.value import feature_names, table_features


def samples(hands: int, seed: int, style: BasicStyle, variant: str = "classic",
            players: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Features at every start of a turn of ``hands`` one-hand games, and the final margins."""
    player = BasicPlayer(style=style)
    xs: list[list[float]] = []
    ys: list[float] = []
    for h in range(hands):
        game = Game(variant, players, f"value/{seed}/{h}")
        seen: list[list[list[float]]] = []
        while not game.is_over and game.hand_no == 1:
            if game.phase == "draw":
                seen.append([table_features(game, s) for s in range(game.num_sides)])
            game.push(player.choose(game.observation(game.actor), game.legal_actions()))
        totals = [s["total"] for s in game.hand_results[0]["sides"]]
        for per_side in seen:
            for s, f in enumerate(per_side):
                others = [t for i, t in enumerate(totals) if i != s]
                xs.append(f)
                ys.append(totals[s] - sum(others) / len(others))
    return np.array(xs, dtype=float), np.array(ys, dtype=float)


def fit(hands: int, seed: int, style: BasicStyle, fresh: int = 500, variant: str = "classic",
        players: int = 4) -> tuple[list[float], float]:
    """Least-squares weights over ``hands`` hands, and R^2 on ``fresh`` other hands (seed ``seed + 1``)."""
    x, y = samples(hands, seed, style, variant, players)
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    return [round(float(w), 3) for w in weights], r_squared(weights, seed + 1, fresh, style, variant, players)


def r_squared(weights: Sequence[float], seed: int, hands: int = 500, style: BasicStyle = EXPERT_STYLE,
              variant: str = "classic", players: int = 4) -> float:
    """The share of the variance of final hand margins the value explains, on fresh hands."""
    x, y = samples(hands, seed, style, variant, players)
    residual = y - x @ np.asarray(weights, dtype=float)
    return float(1.0 - residual.var() / y.var())


def main() -> None:  # pragma: no cover - the command that made WEIGHTS and TABLE_WEIGHTS
    parser = argparse.ArgumentParser(description="fit the linear value of Classic-family positions")
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    style = VARIANT_STYLES.get(args.variant, EXPERT_STYLE)  # the expert's base style there
    weights, r2 = fit(args.hands, args.seed, style, variant=args.variant, players=args.players)
    print(json.dumps({"table": [args.variant, args.players], "features": feature_names(args.variant), "weights": weights,
                      "r2_fresh_hands": round(r2, 3)}, indent=1))


if __name__ == "__main__":
    main()
