"""The ``net-v2`` value: a small multilayer perceptron over :data:`FEATURES_V2` (the side's and the opponents'
figures apart, the stock and the pile), trained with PyTorch on 20,000 self-play hands by
:mod:`research.training` and kept as numpy arrays (``data/value-net-v2.npz``, 57 kB): numpy runs it, PyTorch
is needed only to train. It did not measurably beat the linear weights of :mod:`canasta.players.value`
(docs/experiments.md, "Value leaves"), so the product does not ship it; :class:`NetValueExpert` is the
expert scoring its leaves with it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from canasta.engine.game import Game
from canasta.players.expert import ExpertPlayer, ExpertSettings
from canasta.players.value import FEATURES, _side_figures, supports_table

#: the features of the ``net-v2`` value (:func:`features_v2`): every side figure of
#: :func:`_side_figures` for the side and, apart, the opponents' mean, then the table's
FEATURES_V2 = (
    *(f"own_{name}" for name in FEATURES[:14]), *(f"opponents_{name}" for name in FEATURES[:14]),
    "own_shortest_hand", "opponents_shortest_hand", "stock", "pile", "frozen", "to_move",
)
#: the ``side_figures`` of FEATURES_V2 that swap when the side's and the opponents' views are exchanged
_SIDE_WIDTH = 15


def _side_columns(game: Game, side: int) -> list[float]:
    figures = _side_figures(game, side)
    shortest = min(sum(game.hands[s]) for s in range(game.num_players) if game.side_of(s) == side)
    return [*figures, float(shortest)]


def features_v2(game: Game, side: int) -> list[float]:
    """:data:`FEATURES_V2` of ``game`` for ``side``: the side's figures and the opponents' (their mean,
    shortest hand the least) kept apart, so a value can weigh e.g. cards in hand against the stock left."""
    own = _side_columns(game, side)
    others = [_side_columns(game, s) for s in range(game.num_sides) if s != side]
    theirs = [sum(f[i] for f in others) / len(others) for i in range(_SIDE_WIDTH)]
    theirs[14] = min(f[14] for f in others)
    to_move = 1.0 if game.side_of(game.actor) == side else -1.0
    table = [float(len(game.stock)), float(len(game.pile)), 1.0 if game.frozen else 0.0, to_move]
    return [*own[:14], *theirs[:14], own[14], theirs[14], *table]


def swap_sides(x: np.ndarray) -> np.ndarray:
    """Rows of :data:`FEATURES_V2` seen from the opponents: own and opponents' columns exchanged, the
    side to move negated (exact with two sides, which is where the net is fitted)."""
    out = x.copy()
    out[..., 0:14], out[..., 14:28] = x[..., 14:28], x[..., 0:14]
    out[..., 28], out[..., 29] = x[..., 29], x[..., 28]
    out[..., 33] = -x[..., 33]
    return out


#: the shipped weights of the net value, named by the features' version
NET_V2_FILE = Path(__file__).with_name("data") / "value-net-v2.npz"


class NetValue:
    """A small multilayer perceptron over :data:`FEATURES_V2`, trained with PyTorch by
    :mod:`research.training` and run here in numpy: ``(f(x) - f(swap(x))) / 2``, so the two
    sides' values are exactly opposite."""

    def __init__(self, path: Path = NET_V2_FILE) -> None:
        with np.load(path) as data:
            if str(data["features"]) != ",".join(FEATURES_V2):
                raise ValueError(f"{path} was trained on other features")
            self.mean, self.scale = data["mean"], data["scale"]
            self.layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(int(data["depth"]))]

    def raw(self, x: np.ndarray) -> np.ndarray:
        """The net's output on rows ``x`` of features, before the sides are made opposite."""
        h = (x - self.mean) / self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w.T + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return np.asarray(h[..., 0])

    def batch(self, x: np.ndarray) -> np.ndarray:
        """The antisymmetric value of rows ``x``."""
        return np.asarray((self.raw(x) - self.raw(swap_sides(x))) / 2)

    def supports_table(self, variant: str, players: int) -> bool:
        return supports_table(variant, players)

    def __call__(self, game: Game, side: int) -> float:
        return float(self.batch(np.asarray([features_v2(game, side)], dtype=float))[0])



class NetValueExpert(ExpertPlayer):
    """The expert with ``net-v2`` at its leaves (the rest of its settings as given)."""

    def __init__(self, seed: int | str | None = 0, settings: ExpertSettings | None = None) -> None:
        super().__init__(seed, settings)
        self.leaf_value = NetValue()
