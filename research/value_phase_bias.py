"""How far off the expert's learned value is, by where in a turn the position falls.

The values of ``canasta.players.value`` are fitted only at the start of a turn (``samples``), but the expert's
rollouts stop after a fixed number of actions, so most leaves fall mid-turn: after the draw, after the pile was
taken, or while a partner answers "may I go out?". This script plays one-hand games between the expert's base
policy at every seat, scores every position for the side to move with the value, and reports the mean residual
(final hand margin minus the value) by where the position falls in its turn, averaged per hand first so the
standard error is over hands (positions of one hand are not independent). ``leaf_at=turn``
(``expert:leaf_at=turn``) stops a rollout at a turn's start instead.

    python3 -m research.value_phase_bias --variant classic --players 4 --hands 300 --seed 1
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from dataclasses import dataclass

from canasta.engine.actions import DRAW, TAKE
from canasta.engine.game import Game
from canasta.players.basic import EXPERT_STYLE, VARIANT_STYLES, BasicPlayer
from canasta.players.value import load_value


@dataclass(frozen=True)
class Bias:
    """The value's mean residual at one kind of position, over hands."""

    where: str
    hands: int
    mean: float
    standard_error: float


def where_in_turn(phase: str, last_start: str) -> str:
    """``draw`` (a turn's start, where the value is fitted), ``play-after-draw``, ``play-after-take``, or the
    phase itself (``answer``)."""
    return f"play-after-{last_start}" if phase == "play" else phase


def measure(variant: str, players: int, hands: int, seed: int | str, value: str = "linear-tables") -> list[Bias]:
    """The residuals of ``value`` at the side to move, by where in a turn, over ``hands`` one-hand games."""
    model = load_value(value)
    if not model.supports_table(variant, players):
        raise ValueError(f"{value} has no weights for {variant} with {players} players")
    player = BasicPlayer(style=VARIANT_STYLES.get(variant, EXPERT_STYLE))
    per_hand: dict[str, list[float]] = defaultdict(list)
    for h in range(hands):
        game = Game(variant, players, f"value-bias/{seed}/{h}")
        seen: list[tuple[str, int, float]] = []
        last_start = DRAW
        while not game.is_over and game.hand_no == 1:
            side = game.side_of(game.actor)
            seen.append((where_in_turn(game.phase, last_start), side, model(game, side)))
            action = player.choose(game.observation(game.actor), game.legal_actions())
            if action.kind in (DRAW, TAKE):
                last_start = action.kind
            game.push(action)
        totals = [s["total"] for s in game.hand_results[0]["sides"]]
        residuals: dict[str, list[float]] = defaultdict(list)
        for where, side, estimate in seen:
            others = [t for i, t in enumerate(totals) if i != side]
            residuals[where].append(totals[side] - sum(others) / len(others) - estimate)
        for where, values in residuals.items():
            per_hand[where].append(sum(values) / len(values))
    out = []
    for where, means in sorted(per_hand.items()):
        n = len(means)
        mean = sum(means) / n
        spread = math.sqrt(sum((m - mean) ** 2 for m in means) / n)
        out.append(Bias(where, n, mean, spread / math.sqrt(n)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--value", default="linear-tables")
    args = parser.parse_args()
    for bias in measure(args.variant, args.players, args.hands, args.seed, args.value):
        print(f"{args.variant} {bias.where:16} hands {bias.hands:4}: mean residual {bias.mean:+8.1f} "
              f"(standard error over hands {bias.standard_error:.1f})")


if __name__ == "__main__":
    main()
