"""How much the discards say about the other hands: :mod:`research.inference` measured.

Plays one-hand games with ``basic`` at every seat and, before every draw, samples worlds as the expert does
(``read_passes``), weights them by how likely each makes the opponents' last discards
(``inference.discard_log_likelihood``), and compares the weighted and the unweighted worlds against the true
hands of the seats read: the error in each seat's count of wild cards, the Brier score of "holds a natural pair
of rank r" (the cards that take the pile), and the share of the true hand's cards a world deals it.

    python3 -m research.discard_inference_signal --hands 30 --worlds 100
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass, field

from canasta.cards import ACE, THREE
from canasta.engine.game import Game
from canasta.players.basic import DEFAULT_STYLE, EXPERT_STYLE, BasicPlayer, BasicStyle
from canasta.players.card_reading import is_wild_code
from canasta.players.expert import determinize
from research.inference import discard_log_likelihood, discard_reads

NATURAL_RANKS = list(range(THREE + 1, ACE + 1))


def features(hand: list[int]) -> tuple[int, set[int]]:
    """(wild cards, natural ranks held as a pair or more)."""
    counts: dict[int, int] = {}
    wilds = 0
    for code in hand:
        if is_wild_code(code):
            wilds += 1
        elif code >> 2 in NATURAL_RANKS:
            counts[code >> 2] = counts.get(code >> 2, 0) + 1
    return wilds, {r for r, k in counts.items() if k >= 2}


def overlap(a: list[int], b: list[int]) -> int:
    left = list(b)
    n = 0
    for c in a:
        if c in left:
            left.remove(c)
            n += 1
    return n


@dataclass
class Tally:
    """Errors summed over the seats read, for the uniform worlds and the weighted ones at each temperature."""

    seats: int = 0
    wild_error: dict[float, float] = field(default_factory=dict)
    pair_brier: dict[float, float] = field(default_factory=dict)
    cards_right: dict[float, float] = field(default_factory=dict)
    effective_worlds: dict[float, float] = field(default_factory=dict)


def estimate(tally: Tally, key: float, weights: list[float], worlds: list[list[int]], truth: list[int]) -> None:
    total = sum(weights)
    probs = [w / total for w in weights]
    true_wilds, true_pairs = features(truth)
    feats = [features(h) for h in worlds]
    wild_mean = sum(p * f[0] for p, f in zip(probs, feats, strict=True))
    tally.wild_error[key] = tally.wild_error.get(key, 0.0) + abs(wild_mean - true_wilds)
    brier = 0.0
    for r in NATURAL_RANKS:
        p_pair = sum(p for p, f in zip(probs, feats, strict=True) if r in f[1])
        brier += (p_pair - (r in true_pairs)) ** 2
    tally.pair_brier[key] = tally.pair_brier.get(key, 0.0) + brier
    right = sum(p * overlap(h, truth) for p, h in zip(probs, worlds, strict=True)) / max(1, len(truth))
    tally.cards_right[key] = tally.cards_right.get(key, 0.0) + right
    tally.effective_worlds[key] = tally.effective_worlds.get(key, 0.0) + 1.0 / sum(p * p for p in probs)


def measure(variant: str, players: int, hands: int, worlds: int, seed: str,
            temperatures: list[float], style: BasicStyle = EXPERT_STYLE) -> Tally:
    basic = BasicPlayer(0)
    tally = Tally()
    rng = random.Random(seed)
    for number in range(hands):
        game = Game(variant, players, f"{seed}/{number}")
        while not game.is_over and game.hand_no == 1:
            obs = game.observation(game.actor)
            if game.phase == "draw":
                reads = discard_reads(obs)
                if reads:
                    sampled = [determinize(obs, rng, read_passes=True) for _ in range(worlds)]
                    for read in reads:
                        tally.seats += 1
                        held = [w.hand_cards(read.seat) for w in sampled]
                        truth = game.hand_cards(read.seat)
                        estimate(tally, 0.0, [1.0] * worlds, held, truth)
                        for t in temperatures:
                            logs = discard_log_likelihood(read, held, style, t)
                            top = max(logs)
                            estimate(tally, t, [math.exp(x - top) for x in logs], held, truth)
            game.apply(basic.choose(obs, game.legal_actions()))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", default="discard-signal")
    parser.add_argument("--temperatures", default="1,2,5,10,20,40")
    parser.add_argument("--model", choices=("expert", "default"), default="expert",
                        help="the style the discards are modelled by: the expert's base style, or basic's own")
    args = parser.parse_args()
    temps = [float(t) for t in args.temperatures.split(",")]
    style = EXPERT_STYLE if args.model == "expert" else DEFAULT_STYLE
    tally = measure(args.variant, args.players, args.hands, args.worlds, args.seed, temps, style)
    n = max(1, tally.seats)
    print(f"{tally.seats} seats read over {args.hands} hands of {args.variant} ({args.players} players), "
          f"{args.worlds} worlds each")
    print("temperature  wild-count error  pair Brier  true cards dealt  effective worlds")
    for key in [0.0, *temps]:
        label = "uniform" if key == 0.0 else f"{key:g}"
        print(f"{label:>11}  {tally.wild_error[key] / n:16.3f}  {tally.pair_brier[key] / n:10.3f}  "
              f"{tally.cards_right[key] / n:16.3%}  {tally.effective_worlds[key] / n:16.1f}")


if __name__ == "__main__":
    main()
