"""One step of expert iteration on the discard: the search's verdicts distilled into the base policy.

The expert's search gains about as much over its base policy as an oracle of the next player's pile-taking power
would (``research/oracle_ceiling.py --mode basic-safe``), and most of what it does differently is which card it
throws. Each searched discard decision leaves a record (``ExpertPlayer.last_search``): every candidate's rollout
value in every sampled world. This script asks whether a model of the *observation* can learn those verdicts,
so that the base policy (and so the rollouts of a search on top of it) throws as the search would:

1. ``collect`` plays one-hand 4-player Classic games of the expert's base style against ``basic``; at each of
   one side's discards it runs the shipped expert's search over the candidate discards alone and writes each
   candidate's paired gain over the base policy's discard (its mean over the worlds both were rolled out in)
   beside what the seat can see of throwing it (``research/feed_model.py``'s features, the base style's cost,
   the card's points, the copies held, the own side's meld of the rank);
2. ``fit`` fits a ridge regression of the gain on the features and (``--expansion quadratic``, the default)
   their pairwise products, each decision's rows centred on their mean so that only differences between a
   decision's candidates count, on the first two thirds of the games, and scores it on the others: how often
   its best candidate is the search's, against the base policy's, and the search's mean gain for its pick;
3. ``DistilledBasic`` is the base policy throwing the candidate the model rates best, where the model puts it
   ``BAR`` points above the base policy's choice; ``--arena GAMES`` plays it against ``basic`` beside the base
   style alone on the same deals, and ``--expert GAMES`` the expert searching on it (``DistilledExpert``).

The features, the model and ``DistilledBasic`` live in :mod:`research.distilled` (the weights fitted in
the run of 2026-11-28, `64bfe9c` ship as ``distilled-v1``: ``canasta arena --players expert:discard_model=distilled-v1,basic``);
this script collects, fits and measures. ``collect --discard-model distilled-v1`` is a second step: the games and
the search's rollouts on the distilled policy, each candidate judged against its discard.

    python3 -m research.search_distill collect --games 400 --seed 1 --out distill-1.jsonl
    python3 -m research.search_distill fit --data distill-1.jsonl --out distill-weights.json
    python3 -m research.search_distill arena --weights distill-weights.json --games 4000 --seed 4204
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from canasta.cards import parse_card
from canasta.engine.actions import DISCARD, Action
from canasta.engine.game import Game
from canasta.players.base import Observation
from canasta.players.basic import EXPERT_STYLE, BasicPlayer, _View, candidate_discards, discard_costs
from canasta.players.expert import ExpertPlayer
from research.distilled import DISCARD_FEATURES as FEATURES
from research.distilled import DiscardModel, DistilledSearchExpert, expand
from research.distilled import DistilledBasic as ShippedDistilledBasic
from research.distilled import decision_rows as model_rows
from research.experts import research_expert

#: the environment variable naming the weights file DistilledBasic and DistilledExpert read
WEIGHTS_ENV = "CANASTA_DISTILL_WEIGHTS"
#: the model's gain over the base policy's discard (points) needed to throw another card
BAR = float(os.environ.get("CANASTA_DISTILL_BAR", "0"))


def decision_rows(obs: Observation, candidates: list[Action]) -> list[tuple[int, list[float]]]:
    """(card, features) for each distinct discard among ``candidates``, as the shipped model reads them."""
    hand = [parse_card(c) for c in obs["hand"]]
    cost = dict(zip(hand, discard_costs(obs, [hand], EXPERT_STYLE)[0], strict=True))
    return model_rows(obs, candidates, _View(obs), cost)


def one_side_s_turns(tag: str, games: int, seed: int, start: int = 0, **settings: Any
                     ) -> Iterator[tuple[int, Game, ExpertPlayer, BasicPlayer, random.Random]]:
    """Games ``start`` to ``games`` of the expert's base style against ``basic`` (one-hand 4-player Classic): at
    each decision of one side (alternating by game) yields (game number, game, the expert of ``settings``, its
    base policy, a seeded generator for its search), and the caller pushes that side's action; ``basic`` plays
    the other side."""
    for number in range(start, games):
        name = f"{tag}/{seed}/{number}"
        game = Game("classic", 4, name)
        expert = research_expert(name, **settings)
        base = expert.base_policy("classic")
        basic = BasicPlayer(name)
        rng = random.Random(name)
        side = number % 2
        while not game.is_over and not game.hand_results:
            if game.actor % 2 != side:
                game.push(basic.choose(game.observation(game.actor), game.legal_actions()))
                continue
            yield number, game, expert, base, rng


def collect(games: int, seed: int, start: int = 0, **settings: Any) -> Iterator[dict[str, Any]]:
    """A record per discard decision of one side (alternating by game) in games of the expert's base style
    against ``basic``: each candidate card's features and paired gain over the base policy's discard, as the
    shipped expert's search (``settings`` change it) finds them with the discards alone as candidates. Only the
    discards are searched, and the games are the base style's, so this costs a third of playing the expert."""
    decision = 0
    current = -1
    for number, game, expert, base, rng in one_side_s_turns("distill", games, seed, start, **settings):
        if number != current:
            current, decision = number, 0
        obs, legal = game.observation(game.actor), game.legal_actions()
        choice = base.choose(obs, legal)
        if choice.kind == DISCARD:
            candidates = [a for a in candidate_discards(obs, legal, expert.discards, base.style, keep=choice)
                          if a.kind == DISCARD]
            rows = decision_rows(obs, candidates)
            if len(rows) >= 2:
                searched = [next(a for a in candidates if a.kind == DISCARD and a.cards[0] == code)
                            for code, _ in rows]
                worlds = max(1, min(expert.world_budget(obs), expert.max_rollouts // len(searched)))
                values, _ = expert.sample_values(obs, legal, searched, worlds, rng, expert.max_steps)
                base_values = values[next(a for a in searched if a.cards[0] == choice.cards[0])]
                gains = {a.cards[0]: [v - base_values[w] for w, v in values[a].items() if w in base_values]
                         for a in searched}
                kept = [(code, f) for code, f in rows if gains[code]]
                if len(kept) >= 2:
                    decision += 1
                    yield {"game": number, "decision": decision, "base": choice.cards[0],
                           "cards": [code for code, _ in kept], "features": [f for _, f in kept],
                           "gains": [sum(gains[code]) / len(gains[code]) for code, _ in kept]}
        game.push(choice)


def load(paths: list[Path]) -> list[dict[str, Any]]:
    records = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                records.append(json.loads(line))
    return records


def design(records: list[dict[str, Any]], expansion: str = "linear") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows centred within their decision: features (expanded), gains, and each row's decision index."""
    xs, ys, ids = [], [], []
    for k, r in enumerate(records):
        x = expand(np.array(r["features"], dtype=float), expansion)
        y = np.array(r["gains"], dtype=float)
        xs.append(x - x.mean(axis=0))
        ys.append(y - y.mean())
        ids.extend([k] * len(y))
    return np.vstack(xs), np.concatenate(ys), np.array(ids)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    scale = x.std(axis=0) + 1e-9
    z = x / scale
    w = np.linalg.solve(z.T @ z + ridge * np.eye(x.shape[1]), z.T @ y)
    return np.asarray(w / scale)


def agreement(records: list[dict[str, Any]], weights: np.ndarray, expansion: str = "linear") -> dict[str, float]:
    """Over ``records``: how often the model's best card is the search's best mean, how often the base policy's
    is, and the mean true gain (by the search's values) of the model's pick and of the search's."""
    model_hits = base_hits = 0
    model_gain = best_gain = 0.0
    for r in records:
        gains = np.array(r["gains"])
        pred = expand(np.array(r["features"], dtype=float), expansion) @ weights
        best = int(np.argmax(gains))
        pick = int(np.argmax(pred))
        model_hits += pick == best
        base_hits += r["cards"][best] == r["base"]
        model_gain += gains[pick]
        best_gain += gains[best]
    n = max(len(records), 1)
    return {"decisions": len(records), "model_agrees": model_hits / n, "base_agrees": base_hits / n,
            "model_gain": model_gain / n, "best_gain": best_gain / n}


class DistilledBasic(ShippedDistilledBasic):
    """:class:`research.distilled.DistilledBasic` with the given weights, else the file named by
    ``WEIGHTS_ENV``, and the bar ``BAR``."""

    def __init__(self, seed: int | str | None = 0, weights: np.ndarray | None = None,
                 expansion: str = "linear") -> None:
        if weights is None:
            super().__init__(seed, model=os.environ[WEIGHTS_ENV], bar=BAR)
        else:
            model = DiscardModel("given", expansion, weights, frozenset({("classic", 4)}))
            super().__init__(seed, model=model, bar=BAR)


class DistilledExpert(DistilledSearchExpert):
    """The shipped expert searching on the weights in the file named by ``WEIGHTS_ENV`` (its base and rollout
    policy at every seat)."""

    name = "expert-distilled"

    def __init__(self, seed: int | str | None = 0) -> None:
        super().__init__(seed, discard_model=os.environ[WEIGHTS_ENV])


class StyleBasic(BasicPlayer):
    """The expert's base policy alone (the baseline of ``arena``)."""

    def __init__(self, seed: int | str | None = 0) -> None:
        super().__init__(seed, style=EXPERT_STYLE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", type=Path, required=True, help="JSON lines, appended (a rerun continues)")
    c.add_argument("--discard-model", default=None,
                   help="the base policy's discard model (research.distilled): a second step of iteration")
    f = sub.add_parser("fit")
    f.add_argument("--data", type=Path, nargs="+", required=True)
    f.add_argument("--also", type=Path, nargs="*", default=[],
                   help="more training data (all of it trains; the scores are on --data's held-out games)")
    f.add_argument("--ridge", type=float, default=1000.0, help="on standardized features")
    f.add_argument("--expansion", choices=("linear", "quadratic"), default="quadratic")
    f.add_argument("--out", type=Path, required=True)
    a = sub.add_parser("arena")
    a.add_argument("--weights", type=Path, required=True)
    a.add_argument("--games", type=int, default=4000)
    a.add_argument("--seed", type=int, default=4204)
    a.add_argument("--workers", type=int, default=1, help="processes for the expert's run")
    a.add_argument("--expert", action="store_true", help="the expert searching on it instead of it alone")
    a.add_argument("--out", type=Path, default=None, help="results STEM (with --expert; else STEM-DistilledBasic, STEM-StyleBasic)")
    args = parser.parse_args()
    if args.command == "collect":
        append_records(args.out, lambda start: collect(args.games, args.seed, start=start,
                                                       discard_model=args.discard_model))
    elif args.command == "fit":
        fit_and_report(load(args.data), args.ridge, args.out, args.expansion, also=load(args.also))
    else:
        from canasta.arena import load_results, render, run_arena, write_json

        os.environ[WEIGHTS_ENV] = str(args.weights.resolve())
        if args.expert:
            out = args.out
            result = run_arena("classic", ["search_distill:DistilledExpert", "basic"], games=args.games,
                               seed=args.seed, hands=1, workers=args.workers,
                               checkpoint=(lambda part: write_json(part, out)) if out else None,
                               checkpoint_every=1,
                               resume_from=load_results(out) if out and out.with_suffix(".json").exists() else None)
            if out:
                write_json(result, out)
            print(render(result))
            return
        against_basic_beside_the_style("search_distill:DistilledBasic", args.games, args.seed, args.out)


def append_records(out: Path, records: Callable[[int], Iterator[dict[str, Any]]]) -> None:
    """Append ``records(start)`` to the JSON lines file ``out``, ``start`` the first game it does not hold yet (a
    game's records are written together, so a rerun continues where an interrupted one stopped)."""
    previous = load([out]) if out.exists() else []
    start = max(r["game"] for r in previous) + 1 if previous else 0
    with out.open("a") as file:
        for record in records(start):
            file.write(json.dumps(record) + "\n")
            file.flush()


def against_basic_beside_the_style(player: str, games: int, seed: int, out: Path | None) -> None:
    """``player`` and the base style alone (:class:`StyleBasic`) against ``basic`` on the same deals; with ``out``,
    the results in STEM-NAME.json for each, which ``research/arena_paired.py`` pairs."""
    from canasta.arena import render, run_arena, write_json

    for name in (player, "search_distill:StyleBasic"):
        result = run_arena("classic", [name, "basic"], games=games, seed=seed, hands=1, workers=1)
        if out:
            write_json(result, out.with_name(f"{out.name}-{name.split(':')[1]}"))
        print(render(result))


def fit_and_report(records: list[dict[str, Any]], ridge: float, out: Path, expansion: str = "linear",
                   also: list[dict[str, Any]] | None = None) -> None:
    """Fit on the first two thirds of the games (and ``also``), report on the rest, then refit on all and write
    the weights."""
    also = also or []
    games = sorted({r["game"] for r in records})
    cut = games[len(games) * 2 // 3] if len(games) > 2 else games[-1] + 1
    train = [r for r in records if r["game"] < cut] + also
    test = [r for r in records if r["game"] >= cut]
    print(f"{len(records)} decisions over {len(games)} games; train {len(train)}, test {len(test)}")
    if train and test:
        x, y, _ = design(train, expansion)
        w = fit(x, y, ridge)
        xt, yt, _ = design(test, expansion)
        pred = xt @ w
        r2 = 1.0 - float(((yt - pred) ** 2).sum() / max((yt ** 2).sum(), 1e-9))
        print(f"within-decision R^2 on the test games: {r2:.3f} (correlation {np.corrcoef(pred, yt)[0, 1]:.3f})")
        for name, value in agreement(test, w, expansion).items():
            print(f"  {name}: {value:.3f}" if isinstance(value, float) else f"  {name}: {value}")
    x, y, _ = design(records + also, expansion)
    w = fit(x, y, ridge)
    for name, weight in zip(FEATURES, w, strict=False):  # the single features' weights (quadratic: then products)
        print(f"  {name:22s} {weight:+9.2f}")
    out.write_text(json.dumps({"features": FEATURES, "expansion": expansion, "weights": [float(v) for v in w],
                               "decisions": len(records) + len(also), "ridge": ridge}, indent=1))


if __name__ == "__main__":
    main()
