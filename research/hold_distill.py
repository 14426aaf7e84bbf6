"""The search's verdicts on melding, distilled: when to hold the cards back instead of putting them on the table.

``research/search_overrules.py`` found the shipped search overruling its base policy's melding as often as its
discards: 40% of the additions to a meld and of the new melds it searches, three times in four to hold the cards
and discard instead. This script asks whether a model of the observation can learn those verdicts, as
``research/search_distill.py`` did for the discard:

1. ``collect`` plays one-hand 4-player Classic games of the expert's base style against ``basic``. At each of one
   side's building steps (``BasicPlayer._build_step``: a natural added to a meld, a new natural meld, a wild card
   completing a canasta) where a discard is legal, the shipped expert's search compares the step with the base
   policy's discard now (the cards held back) and records the paired gain of holding beside what the seat sees;
2. ``fit`` fits a ridge regression of that gain on the features (and, by default, every product of two) on the
   first two thirds of the games and scores it on the others: how often its sign is the search's, against always
   building (the base policy);
3. ``HoldBasic`` is the base policy that holds back where the model rates holding ``BAR`` points above building;
   ``arena`` plays it against ``basic`` beside the base style alone on the same deals.

    python3 -m research.hold_distill collect --games 400 --seed 1 --out hold-1.jsonl
    python3 -m research.hold_distill fit --data hold-1.jsonl --out hold-weights.json
    python3 -m research.hold_distill arena --weights hold-weights.json --games 4000 --seed 4404 --out hold
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from canasta.engine.actions import ADD, DISCARD, MELD, Action
from canasta.players.basic import EXPERT_STYLE, BasicPlayer, _is_wild, _View  # type: ignore[attr-defined]
from research.distilled import expand
from research.search_distill import against_basic_beside_the_style, append_records, load, one_side_s_turns

FEATURES = ("bias", "add_natural", "new_meld", "wild_add", "meld_size", "completes_canasta", "cards_used",
            "hand_after", "held_of_rank", "canastas", "can_go_out", "stock", "pile", "frozen",
            "fewest_opponent_cards", "opponent_canastas", "partner_cards", "points_used")
#: the environment variable naming the weights file HoldBasic reads
WEIGHTS_ENV = "CANASTA_HOLD_WEIGHTS"
#: the model's gain of holding over building (points) needed to hold
BAR = float(os.environ.get("CANASTA_HOLD_BAR", "0"))


def features(view: _View, step: Action) -> list[float]:
    """What the seat sees of a building step and its hand, as :data:`FEATURES`."""
    sizes: list[int] = view.obs["hand_sizes"]
    wild_add = step.kind == ADD and _is_wild(step.cards[0])
    rank = step.target if step.kind == ADD else step.cards[0] >> 2
    size = view.own[rank].size if step.kind == ADD and rank in view.own else 0
    total, _ = view.canastas(view.own)
    others = [s for s in range(view.players) if s % view.num_sides != view.side]
    opponent_canastas = max(view.canastas(view.melds[side])[0] for side in range(view.num_sides) if side != view.side)
    partner = float(sizes[view.partner]) if view.partner is not None else 0.0
    return [1.0, float(step.kind == ADD and not wild_add), float(step.kind == MELD), float(wild_add), float(size),
            float(size < 7 <= size + len(step.cards)), float(len(step.cards)), float(view.size - len(step.cards)),
            float(view.rank_count(rank)) if not wild_add else 0.0, float(total), float(view.canastas_ok(view.own)),
            view.stock / 10.0, float(min(len(view.pile), 20)), float(view.frozen),
            float(min(sizes[s] for s in others)), float(opponent_canastas), partner,
            sum(view.values[c] for c in step.cards) / 10.0]


def collect(games: int, seed: int, start: int = 0, **settings: Any) -> Iterator[dict[str, Any]]:
    """A record per building step of one side (alternating by game) in games of the base style against
    ``basic``: the step's features and the search's paired gain of the base policy's discard over it."""
    for number, game, expert, base, rng in one_side_s_turns("hold", games, seed, start, **settings):
        obs, legal = game.observation(game.actor), game.legal_actions()
        choice = base.choose(obs, legal)
        discards = [a for a in legal if a.kind == DISCARD]
        view = _View(obs)
        step = base._build_step(view, legal) if view.opened and discards else None
        if step is not None and step[0] == choice:
            hold = base._discard(view, discards)
            worlds = max(1, min(expert.world_budget(obs), expert.max_rollouts // 2))
            values, _ = expert.sample_values(obs, legal, [choice, hold], worlds, rng, expert.max_steps)
            gains = [v - values[choice][w] for w, v in values[hold].items() if w in values[choice]]
            if gains:
                yield {"game": number, "features": features(view, choice), "gain": sum(gains) / len(gains)}
        game.push(choice)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge regression on standardized features (the bias column, constant, is left unscaled and unpenalized)."""
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    w = np.linalg.solve(z.T @ z + penalty, z.T @ y)
    return np.asarray(w / scale)


def score(gains: np.ndarray, predicted: np.ndarray) -> dict[str, float]:
    """How often holding where the model says so agrees with the search's sign, and the search's mean gain of
    the model's choices against always building (0) and against the search's own best (hold where gain > 0)."""
    hold = predicted > 0
    return {"decisions": float(len(gains)), "holds": float(hold.mean()), "search_holds": float((gains > 0).mean()),
            "sign_agrees": float((hold == (gains > 0)).mean()), "model_gain": float(np.where(hold, gains, 0).mean()),
            "best_gain": float(np.where(gains > 0, gains, 0).mean())}


def fit_and_report(records: list[dict[str, Any]], ridge: float, out: Path, expansion: str) -> None:
    """Fit on the first two thirds of the games, report on the rest, then refit on all and write the weights."""
    games = sorted({r["game"] for r in records})
    cut = games[len(games) * 2 // 3] if len(games) > 2 else games[-1] + 1
    x = expand(np.array([r["features"] for r in records], dtype=float), expansion)
    y = np.array([r["gain"] for r in records])
    train = np.array([r["game"] < cut for r in records])
    print(f"{len(records)} building steps over {len(games)} games; train {train.sum()}, test {(~train).sum()}")
    if train.any() and (~train).any():
        w = fit(x[train], y[train], ridge)
        for name, value in score(y[~train], x[~train] @ w).items():
            print(f"  {name}: {value:.3f}")
    w = fit(x, y, ridge)
    for name, weight in zip(FEATURES, w, strict=False):
        print(f"  {name:22s} {weight:+9.2f}")
    out.write_text(json.dumps({"features": FEATURES, "expansion": expansion, "weights": [float(v) for v in w],
                               "decisions": len(records), "ridge": ridge}, indent=1))


class HoldBasic(BasicPlayer):
    """The expert's base style, holding back a building step where the model rates holding ``BAR`` points above
    it (the weights from the file named by ``WEIGHTS_ENV``, or given)."""

    def __init__(self, seed: int | str | None = 0, weights: np.ndarray | None = None,
                 expansion: str = "linear") -> None:
        super().__init__(seed, style=EXPERT_STYLE)
        if weights is None:
            saved = json.loads(Path(os.environ[WEIGHTS_ENV]).read_text())
            weights, expansion = np.array(saved["weights"]), saved["expansion"]
        self.weights, self.expansion = weights, expansion

    def _build_step(self, view: _View, legal: list[Action]) -> tuple[Action, str] | None:
        step = super()._build_step(view, legal)
        if step is None or view.obs["variant"] != "classic" or not any(a.kind == DISCARD for a in legal):
            return step
        gain = float(expand(np.array([features(view, step[0])]), self.expansion)[0] @ self.weights)
        return None if gain > BAR else step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", type=Path, required=True, help="JSON lines, appended (a rerun continues)")
    f = sub.add_parser("fit")
    f.add_argument("--data", type=Path, nargs="+", required=True)
    f.add_argument("--ridge", type=float, default=100.0, help="on standardized features")
    f.add_argument("--expansion", choices=("linear", "quadratic"), default="quadratic")
    f.add_argument("--out", type=Path, required=True)
    a = sub.add_parser("arena")
    a.add_argument("--weights", type=Path, required=True)
    a.add_argument("--games", type=int, default=4000)
    a.add_argument("--seed", type=int, default=4404)
    a.add_argument("--out", type=Path, default=None, help="results STEM: STEM-HoldBasic, STEM-StyleBasic")
    args = parser.parse_args()
    if args.command == "collect":
        append_records(args.out, lambda start: collect(args.games, args.seed, start=start))
    elif args.command == "fit":
        fit_and_report(load(args.data), args.ridge, args.out, args.expansion)
    else:
        os.environ[WEIGHTS_ENV] = str(args.weights.resolve())
        against_basic_beside_the_style("hold_distill:HoldBasic", args.games, args.seed, args.out)


if __name__ == "__main__":
    main()
