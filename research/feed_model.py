"""Can a seat tell which of its discards would let the next player take the pile? A learned model, measured.

``research/oracle_ceiling.py --mode basic-safe`` showed that the expert's base policy, told by the true game which
discards the next player could take the pile with, wins far more often against ``basic`` than the same policy
without it. This script asks how much of that a model of the *observation* recovers:

1. ``collect`` plays one-hand 4-player Classic games with the expert's base style at every seat and, wherever
   the actor is to discard, labels each distinct card it could throw by whether the next player could then take
   the pile (the engine's legal actions in a copy of the true game), beside features the actor can see;
2. ``fit`` fits a logistic regression (numpy, Newton's method) on the first games and scores it on the others:
   log-loss and AUC against the hypergeometric chance of a natural pair alone;
3. ``LearnedSafeBasic`` is the base policy that adds ``PRICE`` points per pile card times the model's chance to
   each discard's cost; ``--arena GAMES`` plays it against ``basic`` (duplicated deals), the weights in ``--out``.

    python3 -m research.feed_model --games 300 --seed 1 --out feed-weights.json --arena 4000
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from canasta.cards import parse_card
from canasta.engine.actions import DISCARD, TAKE, Action
from canasta.engine.game import Game
from canasta.players.base import Observation
from canasta.players.basic import EXPERT_STYLE, BasicPlayer, _View, discard_costs
from research.distilled import FEED_FEATURES as FEATURES
from research.distilled import feed_features as features

#: the environment variable naming the weights file LearnedSafeBasic reads
WEIGHTS_ENV = "CANASTA_FEED_WEIGHTS"
#: points per pile card (up to 20) of a discard's chance of feeding the next player
PRICE = float(os.environ.get("CANASTA_FEED_PRICE", "20"))


def feeds_next(game: Game, discard: Action) -> bool:
    """Whether the next player could take the pile were ``discard`` thrown in ``game``."""
    after = game.copy()
    after.push(discard)
    return not after.is_over and any(a.kind == TAKE for a in after.legal_actions())


def collect(games: int, seed: int) -> Iterator[tuple[int, int, list[float], bool, float]]:
    """(game number, decision number, features, feeds, the base style's cost) for each distinct discard at every
    discard decision of ``games`` games."""
    player = BasicPlayer(0, style=EXPERT_STYLE)
    decision = 0
    for number in range(games):
        game = Game("classic", 4, f"feed/{seed}/{number}")
        while not game.is_over and not game.hand_results:
            obs = game.observation(game.actor)
            legal = game.legal_actions()
            choice = player.choose(obs, legal)
            if choice.kind == DISCARD:
                decision += 1
                view = _View(obs)
                hand = game.hand_cards(game.actor)
                base = dict(zip(hand, discard_costs(obs, [hand], EXPERT_STYLE)[0], strict=True))
                seen: set[int] = set()
                for a in legal:
                    if a.kind == DISCARD and a.cards[0] not in seen:
                        seen.add(a.cards[0])
                        yield number, decision, features(obs, a.cards[0], view), feeds_next(game, a), base[a.cards[0]]
            game.push(choice)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 25) -> np.ndarray:
    """Logistic regression weights by Newton's method with a small ridge."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def within_auc(score: np.ndarray, y: np.ndarray, decisions: np.ndarray) -> tuple[float, int]:
    """Over the decisions with a feeding and a safe discard: the chance that a feeding one scores above a safe
    one of the same decision (ties half), and how many such decisions."""
    wins = pairs = 0.0
    count = 0
    for d in np.unique(decisions):
        at = decisions == d
        feed, safe = score[at & (y == 1)], score[at & (y == 0)]
        if len(feed) and len(safe):
            count += 1
            wins += float((feed[:, None] > safe[None, :]).sum() + 0.5 * (feed[:, None] == safe[None, :]).sum())
            pairs += len(feed) * len(safe)
    return wins / max(pairs, 1.0), count


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """The chance that a feeding discard scores above a safe one (ties half)."""
    order = np.argsort(score, kind="mergesort")
    ranks = np.empty(len(score))
    ranks[order] = np.arange(1, len(score) + 1)
    for value in np.unique(score):  # average the ranks of ties
        tied = score == value
        ranks[tied] = ranks[tied].mean()
    pos = y.sum()
    neg = len(y) - pos
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


class LearnedSafeBasic(BasicPlayer):
    """The expert's base policy with each discard's cost raised by the model's chance that it feeds the next
    player, ``PRICE`` points per pile card (up to 20); the weights from the file named by ``WEIGHTS_ENV``."""

    def __init__(self, seed: int | str | None = 0) -> None:
        super().__init__(seed, style=EXPERT_STYLE)
        self.weights = np.array(json.loads(Path(os.environ[WEIGHTS_ENV]).read_text())["weights"])

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        choice = super().choose(obs, legal)
        if choice.kind != DISCARD or obs["variant"] != "classic":
            return choice
        view = _View(obs)
        hand = [parse_card(c) for c in obs["hand"]]
        base = dict(zip(hand, discard_costs(obs, [hand], self.style)[0], strict=True))
        stake = PRICE * min(len(view.pile) + 1, 20)

        def cost(a: Action) -> tuple[float, int]:
            c = a.cards[0]
            z = float(np.dot(self.weights, features(obs, c, view)))
            return base[c] + stake / (1.0 + math.exp(-z)), c

        return min((a for a in legal if a.kind == DISCARD), key=cost)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="where the weights go (JSON)")
    parser.add_argument("--arena", type=int, default=0, help="games of LearnedSafeBasic against basic")
    parser.add_argument("--fitted", action="store_true", help="play the weights already in --out; no fit")
    args = parser.parse_args()
    if not args.fitted:
        fit_and_report(args.games, args.seed, args.out)
    if args.arena:
        from canasta.arena import render, run_arena

        os.environ[WEIGHTS_ENV] = str(args.out.resolve())
        print(render(run_arena("classic", ["feed_model:LearnedSafeBasic", "basic"], games=args.arena,
                               seed=args.seed, hands=1)))


def fit_and_report(games_played: int, seed: int, out: Path) -> None:
    """Collect, fit on the first two thirds of the games, report on the rest, write the weights to ``out``."""
    rows = list(collect(games_played, seed))
    games = np.array([r[0] for r in rows])
    decisions = np.array([r[1] for r in rows])
    x = np.array([r[2] for r in rows])
    y = np.array([float(r[3]) for r in rows])
    base_cost = np.array([r[4] for r in rows])
    train = games < games_played * 2 // 3
    w = fit(x[train], y[train])
    prior = fit(x[train][:, :2], y[train])
    test = ~train
    p = 1.0 / (1.0 + np.exp(-(x[test] @ w)))
    q = 1.0 / (1.0 + np.exp(-(x[test][:, :2] @ prior)))
    base_rate = np.full(test.sum(), y[train].mean())
    print(f"{len(rows)} discards over {games_played} games, {y.mean():.1%} feed the next player; "
          f"test on the last {test.sum()} ({y[test].mean():.1%})")
    print(f"log-loss: base rate {log_loss(base_rate, y[test]):.4f}, pair chance alone {log_loss(q, y[test]):.4f}, "
          f"model {log_loss(p, y[test]):.4f}")
    print(f"AUC: pair chance alone {auc(q, y[test]):.3f}, model {auc(p, y[test]):.3f}")
    within, count = within_auc(p, y[test], decisions[test])
    by_cost, _ = within_auc(base_cost[test], y[test], decisions[test])
    print(f"within a decision ({count} with a feeding and a safe discard): model {within:.3f}, "
          f"the base style's discard cost {by_cost:.3f}")
    for name, weight in zip(FEATURES, w, strict=True):
        print(f"  {name:22s} {weight:+.3f}")
    out.write_text(json.dumps({"features": FEATURES, "weights": [float(v) for v in w]}, indent=1))


if __name__ == "__main__":
    main()
