"""How much a pass on the pile, and a meld on the table, say about a hand: card reading's premises, measured.

``canasta.players.card_reading.pile_passes`` reads, per seat, the ranks it saw on top of the pile and did not
take. The expert's worlds in the Classic family deal no natural pair of such a rank to that seat
(``read_passes``), and the base policies price discards by it. That is worth doing only where a seat that
passed holds a pair of the rank less often than it holds a pair of any rank. This script plays one-hand games
with ``basic`` at every seat and, before every action, counts over the other seats (optionally only those
whose side has opened) how often a passed rank is held as a natural pair, against every natural rank.

``--layoffs`` measures the second premise instead (:func:`laid_off_ranks`, once the expert's ``read_layoffs``,
measured level or worse and removed: docs/experiments.md): a seat that ended its turn with a meld of a rank on
its side's table holds no natural of it.
Before every draw it counts the seats read, those whose true hand holds a natural of a rank read, and how many
such naturals the true hands and a world sampled without that reading (``read_passes`` only) hold.

    python3 -m research.pile_pass_signal --variant american --hands 80
    python3 -m research.pile_pass_signal --variant classic --hands 80
    python3 -m research.pile_pass_signal --variant classic --hands 60 --layoffs
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from dataclasses import dataclass

from canasta.cards import ACE, THREE, parse_rank
from canasta.engine.game import Game
from canasta.players.base import Observation
from canasta.players.basic import BasicPlayer
from canasta.players.card_reading import is_wild_code, pile_passes
from canasta.players.expert import determinize

NATURAL_RANKS = list(range(THREE + 1, ACE + 1))  # four to ace: threes and wild cards are never read


def laid_off_ranks(obs: Observation) -> list[set[int]]:
    """Card reading: per seat, the natural ranks it would have laid off on its side's melds, so holds none of:
    a seat that ends a turn with a meld of a rank on its side's table has added its naturals of that rank
    (with BasicPlayer at every seat, 8 of 2,681 seats read before a draw in 4-player Classic held one:
    ``python3 -m research.pile_pass_signal --layoffs``, docs/benchmarks.md). Read only where the observation shows the melds the
    seat last played to: the seat before the one to play (its side's melds now; the seat to play cannot meld
    for it) and, at the start of the turn (nothing melded yet this turn), the seat to play's partners. Empty
    for the seat to play, and wherever the side has not opened."""
    n: int = obs["players"]
    seat: int = obs["seat"]
    side_of = [s % len(obs["melds"]) for s in range(n)]
    ranks: list[set[int]] = [set() for _ in range(n)]
    if obs["turn"] != seat:
        return ranks  # an answer in the partner's turn: whose melds are settled is not read here
    melded = [{parse_rank(m["rank"]) for m in side if m["rank"] != "wild"} for side in obs["melds"]]
    before = (seat - 1) % n
    if side_of[before] != side_of[seat]:
        ranks[before] = set(melded[side_of[before]])
    if obs["phase"] == "draw":
        for s in range(n):
            if s != seat and side_of[s] == side_of[seat]:
                ranks[s] = set(melded[side_of[seat]])
    return ranks


def positions(variant: str, players: int, hands: int, seed: str) -> Iterator[tuple[Game, Observation]]:
    """Each position of ``hands`` one-hand games between ``basic`` players, with the actor's observation (the
    game moves on once the caller has looked)."""
    basic = BasicPlayer(0)
    for hand in range(hands):
        game = Game(variant, players, f"{seed}/{hand}")
        while not game.is_over and game.hand_no == 1:
            obs = game.observation(game.actor)
            yield game, obs
            game.apply(basic.choose(obs, game.legal_actions()))


def measure(variant: str, players: int, hands: int, seed: str, opened_only: bool) -> tuple[int, int, int, int]:
    """(passed ranks held as a pair, passed ranks, natural ranks held as a pair, natural ranks), summed over
    every seat but the one to act, before every action of ``hands`` one-hand games."""
    held_passed = passed_total = held_any = any_total = 0
    for game, obs in positions(variant, players, hands, seed):
        passes = pile_passes(obs)
        for seat in range(players):
            if seat == game.actor or (opened_only and not obs["opened"][game.side_of(seat)]):
                continue
            counts: dict[int, int] = {}
            for code in game.hand_cards(seat):
                if not is_wild_code(code):
                    counts[code >> 2] = counts.get(code >> 2, 0) + 1
            for rank in passes[seat]:
                passed_total += 1
                held_passed += counts.get(rank, 0) >= 2
            for rank in NATURAL_RANKS:
                any_total += 1
                held_any += counts.get(rank, 0) >= 2
    return held_passed, passed_total, held_any, any_total


@dataclass(frozen=True)
class LayoffSignal:
    """Over the seats ``laid_off_ranks`` read before every draw: how many, how many truly held a natural of a
    rank read, and the naturals of the ranks read in the true hands and in worlds sampled without the reading."""

    seats_read: int
    seats_holding: int
    naturals_held: int
    naturals_in_sampled_worlds: int


def measure_layoffs(variant: str, players: int, hands: int, seed: str) -> LayoffSignal:
    rng = random.Random(seed)
    seats_read = seats_holding = naturals_held = naturals_sampled = 0
    for game, obs in positions(variant, players, hands, seed):
        if obs["phase"] != "draw":
            continue
        world = determinize(obs, rng, read_passes=True)
        for seat, ranks in enumerate(laid_off_ranks(obs)):
            if not ranks:
                continue
            held = sum(1 for code in game.hand_cards(seat) if not is_wild_code(code) and code >> 2 in ranks)
            seats_read += 1
            seats_holding += held > 0
            naturals_held += held
            naturals_sampled += sum(1 for code in world.hand_cards(seat) if not is_wild_code(code) and code >> 2 in ranks)
    return LayoffSignal(seats_read, seats_holding, naturals_held, naturals_sampled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="american")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", default="pass-signal")
    parser.add_argument("--layoffs", action="store_true", help="measure laid_off_ranks' premise instead")
    args = parser.parse_args()
    if args.layoffs:
        signal = measure_layoffs(args.variant, args.players, args.hands, args.seed)
        print(f"{args.variant}: {signal.seats_read} seats read before a draw, {signal.seats_holding} holding a natural"
              f" of a rank read ({signal.naturals_held} naturals); worlds sampled without the reading deal them"
              f" {signal.naturals_in_sampled_worlds}")
        return
    for opened_only in (False, True):
        held_passed, passed, held_any, total = measure(args.variant, args.players, args.hands, args.seed, opened_only)
        who = "seats whose side has opened" if opened_only else "every seat"
        print(f"{args.variant}, {who}: passed ranks held as a natural pair {held_passed}/{passed}"
              f" = {held_passed / max(1, passed):.3f}; every natural rank {held_any}/{total}"
              f" = {held_any / max(1, total):.3f}")


if __name__ == "__main__":
    main()
