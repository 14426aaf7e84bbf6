"""Training of the expert's net value (``net-v2`` in :mod:`canasta.players.value`).

Self-play data: one-hand games of 4-player Classic played by BasicPlayer with the expert's base
style at every seat (the policy of the expert's rollouts, so the value scores the positions its
rollouts reach), each position kept with probability ``keep`` at any phase of a turn (a rollout
is cut after a fixed number of actions, so its leaves fall at any phase); the target is the final
hand margin of each side (its hand score minus the opponents'). A multilayer perceptron over
:data:`~canasta.players.value.FEATURES_V2` is fitted with PyTorch (CPU) to the mean squared error,
made antisymmetric by training ``(f(x) - f(swap(x))) / 2``, and exported to numpy::

    python3 -m research.training --hands 6000 --seed 0 --out research/data/value-net-v2.npz

Everything is seeded (the deals, the positions kept, torch's initialisation and batches), so the
command reproduces the shipped file on the same versions of torch and numpy; it prints the run
time, the data size and R^2 on fresh hands against the linear value's. PyTorch is needed only
here (the ``train`` extra), never to play.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from canasta.engine.game import Game
from canasta.players.basic import BasicPlayer, BasicStyle
from canasta.players.value import WEIGHTS, features
from research.net_value import FEATURES_V2, NET_V2_FILE, NetValue, features_v2

KEEP = 0.25
HIDDEN = 64


def self_play(hands: int, seed: int, style: BasicStyle, keep: float = KEEP) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of FEATURES_V2, the linear value's FEATURES of the same positions, and the hand margins."""
    player = BasicPlayer(style=style)
    rng = random.Random(f"training/{seed}")
    rows: list[list[float]] = []
    linear: list[list[float]] = []
    margins: list[float] = []
    for h in range(hands):
        game = Game("classic", 4, f"training/{seed}/{h}")
        kept: list[tuple[list[list[float]], list[list[float]]]] = []
        while not game.is_over and game.hand_no == 1:
            if rng.random() < keep:
                sides = range(game.num_sides)
                kept.append(([features_v2(game, s) for s in sides], [features(game, s) for s in sides]))
            game.push(player.choose(game.observation(game.actor), game.legal_actions()))
        totals = [s["total"] for s in game.hand_results[0]["sides"]]
        for per_side, per_side_linear in kept:
            for s, (f, lf) in enumerate(zip(per_side, per_side_linear, strict=True)):
                others = [t for i, t in enumerate(totals) if i != s]
                rows.append(f)
                linear.append(lf)
                margins.append(totals[s] - sum(others) / len(others))
    return np.array(rows, dtype=float), np.array(linear, dtype=float), np.array(margins, dtype=float)


def r_squared(predicted: np.ndarray, target: np.ndarray) -> float:
    return float(1.0 - ((target - predicted) ** 2).mean() / target.var())


def train(x: np.ndarray, y: np.ndarray, seed: int, epochs: int = 40, hidden: int = HIDDEN) -> tuple[dict[str, Any], Any]:
    """Fit the net: its weights as numpy arrays in the layout :class:`NetValue` loads, and the torch
    module itself (its output is in thousands of points)."""
    import torch

    from research.net_value import swap_sides

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    net = torch.nn.Sequential(
        torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, 1),
    ).double()
    tx = torch.from_numpy((x - mean) / scale)
    tswap = torch.from_numpy((swap_sides(x) - mean) / scale)
    ty = torch.from_numpy(y / 1000.0)  # margins in thousands: the loss near 1
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(ty), generator=generator)
        for start in range(0, len(order), 256):
            batch = order[start:start + 256]
            predicted = (net(tx[batch]) - net(tswap[batch]))[:, 0] / 2
            loss = torch.nn.functional.mse_loss(predicted, ty[batch])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call,unused-ignore]
            optimizer.step()
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    out: dict[str, Any] = {"features": np.array(",".join(FEATURES_V2)), "mean": mean, "scale": scale,
                           "depth": np.array(len(linears))}
    for i, layer in enumerate(linears):
        factor = 1000.0 if i == len(linears) - 1 else 1.0  # back to points
        out[f"w{i}"] = layer.weight.detach().numpy() * factor
        out[f"b{i}"] = layer.bias.detach().numpy() * factor
    return out, net


def run(hands: int, seed: int, out: Path, fresh: int = 500, epochs: int = 40, keep: float = KEEP) -> dict[str, Any]:
    """Make the data, train, write ``out`` and return the record of the run (times, sizes, R^2)."""
    from canasta.players.expert import EXPERT_STYLE

    started = time.perf_counter()
    x, _, y = self_play(hands, seed, EXPERT_STYLE, keep)
    data_seconds = time.perf_counter() - started
    weights, _ = train(x, y, seed, epochs)
    train_seconds = time.perf_counter() - started - data_seconds
    np.savez(out, **weights)
    fresh_x, fresh_linear, fresh_y = self_play(fresh, seed + 1_000_000, EXPERT_STYLE, keep)
    net = NetValue(out)
    return {
        "hands": hands, "positions": len(y), "seed": seed, "epochs": epochs, "keep": keep,
        "data_seconds": round(data_seconds, 1), "train_seconds": round(train_seconds, 1),
        "file_bytes": out.stat().st_size, "fresh_hands": fresh, "fresh_positions": len(fresh_y),
        "r2_fresh_net": round(r_squared(net.batch(fresh_x), fresh_y), 3),
        "r2_fresh_linear_v1": round(r_squared(fresh_linear @ np.asarray(WEIGHTS), fresh_y), 3),
    }


def main() -> None:  # pragma: no cover - the command that made the shipped file (its test runs run())
    parser = argparse.ArgumentParser(description="train the expert's net value on self-play hands")
    parser.add_argument("--hands", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--fresh", type=int, default=500)
    parser.add_argument("--out", type=Path, default=NET_V2_FILE)
    args = parser.parse_args()
    print(json.dumps(run(args.hands, args.seed, args.out, args.fresh, args.epochs), indent=1))


if __name__ == "__main__":
    main()
