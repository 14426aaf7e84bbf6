"""The expert's search on the discard, distilled into a model of the observation.

The expert's search gains most over its base policy by which card it throws. ``research/search_distill.py``
ran that search over the candidate discards alone at 10,565 discard decisions of 4-player Classic (843
one-hand games of the base style against ``basic``). It labelled each candidate by its paired gain over the
base policy's discard and fitted a ridge regression of those gains on what the seat sees of each card. The
features are listed in :data:`DISCARD_FEATURES`, and by default every product of two of them is added
(``"quadratic"``). Each decision's rows were centred, so that only differences between a decision's
candidates count.

:class:`DistilledBasic` is BasicPlayer throwing, among the base style's cheapest candidate discards, the card
the model rates best. Against ``basic`` it won 3.9 points more often than the base style alone (±1.6, 4,000
one-hand games). The expert can search on it: ``DistilledSearchExpert(discard_model="distilled-v1")``, as its base and
rollout policy. The numbers are in docs/experiments.md, "2026-11-28, `64bfe9c`" and "2026-11-28, `43e683d`".

Models by name (:data:`DISCARD_MODELS`; the name is versioned with the features):

* ``distilled-v1`` (``data/discard-distilled-v1.json``): fitted at 4-player Classic only, so it plays
  only there and elsewhere leaves the base policy's discard unchanged.

A model saved by ``search_distill.py fit`` can also be named by its path.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from canasta.cards import BLACK_THREE_CODES, parse_card
from canasta.engine.actions import DISCARD, Action
from canasta.players.base import Observation
from canasta.players.basic import (
    EXPERT_STYLE,
    VARIANT_STYLES,
    BasicPlayer,
    BasicStyle,
    _at_least,
    _discard_cost,
    _View,
)
from canasta.players.card_reading import is_wild_code
from canasta.players.expert import ExpertPlayer, ExpertSettings

#: what a seat sees about whether a discard would let the next player take the pile
#: (``research/feed_model.py`` fits a model of that alone)
FEED_FEATURES = ("bias", "pair_chance", "one_chance", "unseen_copies", "melded_by_next", "frozen", "next_opened",
                 "passed", "thrown", "known_naturals", "pile_cards", "next_hand", "wild", "black_three",
                 "pair_chance_unfrozen", "melded_unfrozen")
#: what :class:`DistilledBasic`'s model reads of each candidate discard: :data:`FEED_FEATURES` and the base
#: style's cost, the card's points, the copies held, the own side's meld of the rank, the stock, and a few
#: interactions with the pile's size
DISCARD_FEATURES = (*FEED_FEATURES, "base_cost", "points", "held", "held_pair", "own_melded", "stock",
                    "pair_chance_pile", "melded_unfrozen_pile", "one_chance_pile", "points_late")
EXPANSIONS = ("linear", "quadratic")
DATA = Path(__file__).with_name("data")
#: shipped models by name: their file in ``data/``
DISCARD_MODELS = {"distilled-v1": DATA / "discard-distilled-v1.json"}
#: how many of the base style's cheapest discards the model chooses among (the expert's search's own cut)
CANDIDATES = 4


def feed_features(obs: Observation, code: int, view: _View | None = None) -> list[float]:
    """What the seat of ``obs`` sees about throwing ``code``, as :data:`FEED_FEATURES`."""
    view = view or _View(obs)
    nxt = (view.seat + 1) % view.players
    sizes: list[int] = obs["hand_sizes"]
    wild = is_wild_code(code)
    black = code in BLACK_THREE_CODES
    rank = code >> 2
    hidden = 0 if wild or black else max(0, view.copies[rank] - view.visible(rank))
    unseen = view.stock + sum(n for k, n in enumerate(sizes) if k != view.seat)
    one, two = _at_least(unseen, hidden, sizes[nxt])
    melded = float(not wild and not black and rank in view.melds[view.next_side])
    known = sum(1 for c in obs["known_hands"][nxt] if not is_wild_code(parse_card(c)) and parse_card(c) >> 2 == rank)
    frozen = float(view.frozen)
    return [1.0, two, one, float(hidden), melded, frozen, float(obs["opened"][view.next_side]),
            float(rank in view.next_passed), float(rank in view.next_thrown), float(known),
            math.log1p(len(view.pile)), float(sizes[nxt]), float(wild), float(black),
            two * (1.0 - frozen), melded * (1.0 - frozen)]


def discard_features(obs: Observation, code: int, view: _View, base_cost: float) -> list[float]:
    """What the seat of ``obs`` sees about throwing ``code``, as :data:`DISCARD_FEATURES` (``base_cost``: the
    base style's cost of the card)."""
    feed = feed_features(obs, code, view)
    named = dict(zip(FEED_FEATURES, feed, strict=True))
    rank = code >> 2
    held = float(view.rank_count(rank)) if not (named["wild"] or named["black_three"]) else 0.0
    pile = float(min(len(view.pile), 20))
    points = float(view.values[code])
    late = 1.0 / (1.0 + view.stock / 10.0)
    return [*feed, base_cost / 100.0, points / 10.0, held, float(held >= 2.0),
            float(rank in view.own and not named["wild"]), view.stock / 10.0,
            named["pair_chance_unfrozen"] * pile, named["melded_unfrozen"] * pile, named["one_chance"] * pile,
            points / 10.0 * late]


def expand(x: np.ndarray, expansion: str) -> np.ndarray:
    """Rows of :data:`DISCARD_FEATURES` as the model reads them: as they are (``"linear"``), or with every
    product of two (``"quadratic"``: a gain that depends on, say, a pair's chance *and* the pile's size)."""
    if expansion == "linear":
        return x
    if expansion != "quadratic":
        raise ValueError(f"unknown expansion {expansion!r}; known: {', '.join(EXPANSIONS)}")
    first, second = _pairs(x.shape[-1])
    return np.concatenate([x, x[..., first] * x[..., second]], axis=-1)


@lru_cache(maxsize=4)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    first, second = np.triu_indices(n)
    return first, second


def decision_rows(obs: Observation, candidates: list[Action], view: _View,
                  cost: dict[int, float]) -> list[tuple[int, list[float]]]:
    """(card, features) for each distinct discard among ``candidates`` (``cost``: the base style's cost of each)."""
    seen: dict[int, list[float]] = {}
    for a in candidates:
        if a.kind == DISCARD and a.cards[0] not in seen:
            seen[a.cards[0]] = discard_features(obs, a.cards[0], view, cost[a.cards[0]])
    return list(seen.items())


@dataclass(frozen=True)
class DiscardModel:
    """Weights over :data:`DISCARD_FEATURES` (expanded) and the tables (variant, players) they were fitted at."""

    name: str
    expansion: str
    weights: np.ndarray
    tables: frozenset[tuple[str, int]]

    def supports(self, variant: str, players: int) -> bool:
        return (variant, players) in self.tables

    def rate(self, rows: list[list[float]]) -> np.ndarray:
        """The model's gain of each row's discard (only differences within a decision mean anything)."""
        return np.asarray(expand(np.array(rows, dtype=float), self.expansion) @ self.weights)


@lru_cache(maxsize=8)
def load_discard_model(name: str) -> DiscardModel:
    """A model by name (:data:`DISCARD_MODELS`) or by the path of a file ``search_distill.py fit`` wrote;
    loaded once per process."""
    path = DISCARD_MODELS.get(name, Path(name))
    if name not in DISCARD_MODELS and not (path.suffix == ".json" and path.is_file()):
        raise ValueError(f"unknown discard model {name!r}; known: {', '.join(sorted(DISCARD_MODELS))} "
                         f"or the path of a .json file")
    saved = json.loads(path.read_text())
    if tuple(saved["features"]) != DISCARD_FEATURES:
        raise ValueError(f"{path} was fitted on other features than this version's DISCARD_FEATURES")
    weights = np.array(saved["weights"], dtype=float)
    width = len(DISCARD_FEATURES)
    expected = width if saved["expansion"] == "linear" else width + width * (width + 1) // 2
    if weights.shape != (expected,):
        raise ValueError(f"{path} holds {weights.shape[0]} weights; {saved['expansion']} needs {expected}")
    tables = frozenset((str(v), int(p)) for v, p in saved.get("tables", [["classic", 4]]))
    return DiscardModel(name, saved["expansion"], weights, tables)


class DistilledBasic(BasicPlayer):
    """BasicPlayer throwing, among the ``candidates`` discards its style rates cheapest (and its own choice),
    the card ``model`` rates best, where that card is rated more than ``bar`` points above its own choice.
    At a table the model was not fitted at, it plays as BasicPlayer."""

    def __init__(self, seed: int | str | None = 0, model: str | DiscardModel = "distilled-v1",
                 style: BasicStyle = EXPERT_STYLE, candidates: int = CANDIDATES, bar: float = 0.0) -> None:
        super().__init__(seed, style=style)
        self.model = load_discard_model(model) if isinstance(model, str) else model
        self.candidates = max(1, candidates)
        self.bar = bar

    def _discard(self, view: _View, discards: list[Action]) -> Action:
        choice = super()._discard(view, discards)
        if not self.model.supports(view.obs["variant"], view.players):
            return choice
        # the search's candidates: candidate_discards' cut, on the view the turn was judged on
        cost = {a.cards[0]: _discard_cost(view, a.cards[0], self.style) for a in discards}
        cheapest = set(sorted(cost, key=lambda c: (cost[c], c))[:self.candidates])
        candidates = [a for a in discards if a.cards[0] in cheapest or a == choice]
        rows = decision_rows(view.obs, candidates, view, cost)
        if len(rows) < 2:
            return choice
        rated = self.model.rate([f for _, f in rows])
        score = {code: float(r) for (code, _), r in zip(rows, rated, strict=True)}
        kept = choice.cards[0]
        best = max(score, key=lambda c: (score[c], c == kept))
        if best == kept or score[best] - score[kept] <= self.bar:
            return choice
        return next(a for a in candidates if a.cards[0] == best)


class DistilledSearchExpert(ExpertPlayer):
    """The expert searching on :class:`DistilledBasic` (``discard_model``, a name of :data:`DISCARD_MODELS` or a
    path) as its base and rollout policy at every seat: the product's ``discard_model`` setting until it was
    measured level under the search (docs/experiments.md, "The search's discard verdicts, distilled")."""

    def __init__(self, seed: int | str | None = 0, settings: ExpertSettings | None = None,
                 discard_model: str | DiscardModel = "distilled-v1") -> None:
        super().__init__(seed, settings)
        self.discard_model = load_discard_model(discard_model) if isinstance(discard_model, str) else discard_model

    def base_policy(self, variant: str) -> BasicPlayer:
        got = self._bases.get(variant)
        if got is None:
            style = self.style if self.style is not None else VARIANT_STYLES.get(variant, EXPERT_STYLE)
            got = self._bases[variant] = DistilledBasic(model=self.discard_model, style=style,
                                                        candidates=self.discards)
        return got
