"""What card reading could buy at most: the expert searching the true deal instead of sampled ones.

The expert samples its worlds from what its seat has seen. An *oracle* is the same expert (every setting the
shipped one's: base policy, gate, budget, value) whose worlds are the true game, so its win rate against
``basic`` bounds what any better reading of the hidden cards could give this search; the rest of the way to a
target has to come from the search or its policy.

- ``--mode hands`` (``HandsOracle``): every hand as it truly is, the stock shuffled anew in each world: perfect
  card reading. Only hands and stock are dealt anew, so in variants with other face-down cards (feet,
  pozzetti) those are known too: these modes are for the Classic family (Classic, Mille, ...).
- ``--mode partner`` (``PartnerOracle``) and ``--mode opponents`` (``OpponentsOracle``): only the partner's, or
  only the opponents', hands as they truly are; the other hidden hands are dealt anew from their own cards and
  the stock (cards every seat saw go into a hand with a taken pile stay there), so the two split perfect reading
  between partner and opponents.
- ``--mode deal`` (``DealOracle``): the true game, stock order included: clairvoyance no reading could give.
- ``--mode opponents-draw`` and ``--mode opponents-play`` (``OpponentsAtDrawOracle``, ``OpponentsInPlayOracle``):
  the opponents' hands as they truly are only at the decisions of the draw phase (take the pile or draw), or
  only at those of the rest of the turn (melds, lay-offs, the discard); the other decisions are the shipped
  expert's own, on sampled worlds. They split the opponents' oracle's gain between the two.
- ``--mode opponents-discard`` (``OpponentsAtDiscardOracle``): the opponents' hands only where the base policy
  would discard (the turn's last decision, the search weighing its discard against the other candidates).
- ``--mode basic-safe`` (``SafeDiscardBasic``): no search, the expert's base policy itself, told by the true game
  which of its discards would let the next player take the pile; it throws the cheapest of the others (its own
  choice where that is safe, any where none is). It bounds what a perfect model of the next player's pile-taking
  power would add to the base policy's discards (compare ``canasta arena --players basic:STYLE,basic``).

The games are an arena run's (``canasta.arena.run_arena``, duplicate deals): with the same ``--seed`` they are
the deals of ``canasta arena --seed S``, so ``research/arena_paired.py`` compares an oracle deal by deal with
the expert's own run. The arena shows players observations only; this script alone hands the oracle the game:
:func:`play_one_with_truth` plays the arena's games with :func:`show_truth`'s observations, put in place of
``canasta.arena.play_one`` for the run (the worker processes are forked, so they see it too).

    python3 -m research.oracle_ceiling --variant classic --mode hands --games 200 --seed 3703 --out oracle-hands
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import canasta.arena as arena
from canasta.arena import GameSpec, load_results, make_player, render, run_arena, write_json
from canasta.cards import is_red_three
from canasta.engine.actions import DISCARD, TAKE, Action
from canasta.engine.game import Game
from canasta.players.basic import EXPERT_STYLE, BasicPlayer, discard_costs
from canasta.players.expert import ExpertPlayer

#: the observation key under which this script hands an oracle the game (never set by the arena itself)
TRUTH = "oracle_truth"
#: the player each mode plays, as the arena names it (an outside class: ``module:Class``)
MODES = {"hands": "research.oracle_ceiling:HandsOracle", "partner": "research.oracle_ceiling:PartnerOracle",
         "opponents": "research.oracle_ceiling:OpponentsOracle", "deal": "research.oracle_ceiling:DealOracle",
         "opponents-draw": "research.oracle_ceiling:OpponentsAtDrawOracle",
         "opponents-play": "research.oracle_ceiling:OpponentsInPlayOracle",
         "opponents-discard": "research.oracle_ceiling:OpponentsAtDiscardOracle",
         "basic-safe": "research.oracle_ceiling:SafeDiscardBasic"}


def show_truth(game: Game, seat: int) -> dict[str, Any]:
    """The seat's observation, and the game itself under ``TRUTH`` (what :func:`play_one_with_truth` shows)."""
    shown = game.observation(seat)
    shown[TRUTH] = game
    return shown


def play_one_with_truth(spec: GameSpec) -> dict[str, Any]:
    """``canasta.arena.play_one``, every player shown :func:`show_truth` instead of the observation alone
    (the arena's record, without the decision times)."""
    game = Game(spec.variant, spec.table, spec.seed, dict(spec.rules))
    seats = [make_player(spec.names[game.side_of(s)], f"{spec.seed}/{s}") for s in range(spec.table)]
    decisions = [0] * game.num_sides
    steps = 0
    while not game.is_over and not (spec.hands and len(game.hand_results) >= spec.hands):
        legal = game.legal_actions()
        action = seats[game.actor].choose(show_truth(game, game.actor), legal)
        if action not in legal:
            raise RuntimeError(f"{spec.names[game.side_of(game.actor)]} chose an illegal action {action!r}")
        decisions[game.side_of(game.actor)] += 1
        game.push(action)
        steps += 1
    scores = list(game.scores)
    return {"deal": spec.deal, "rotation": spec.rotation, "seed": spec.seed, "names": list(spec.names),
            "scores": scores, "winners": [s for s in range(game.num_sides) if scores[s] == max(scores)],
            "hands": len(game.hand_results), "actions": steps, "decisions": decisions,
            "think_seconds": [0.0] * game.num_sides}


def deal_hidden_anew(truth: Game, seat: int, revealed: Callable[[int], bool], rng: random.Random) -> Game:
    """A copy of ``truth`` with the stock and the hands of the seats other than ``seat`` not ``revealed``
    dealt anew from their cards; the cards every seat saw go into a hand (``known_hands``) stay in it, and a
    red three (laid out when drawn, never held) only goes back to the stock."""
    redealt = [s for s in range(truth.num_players) if s != seat and not revealed(s)]
    if not redealt:
        world = truth.copy()
        rng.shuffle(world.stock)
        return world
    state = truth.to_dict()
    hands: list[list[int]] = state["hands"]
    kept: dict[int, list[int]] = {}
    pool: list[int] = []
    for s in redealt:
        hidden = list(hands[s])
        kept[s] = []
        for card in state["known"][s]:
            hidden.remove(card)
            kept[s].append(card)
        pool += hidden
    threes = [c for c in state["stock"] if is_red_three(c)]
    pool += [c for c in state["stock"] if not is_red_three(c)]
    rng.shuffle(pool)
    for s in redealt:
        count = len(hands[s]) - len(kept[s])
        hands[s] = kept[s] + pool[:count]
        del pool[:count]
    stock = pool + threes
    rng.shuffle(stock)
    state["stock"] = stock
    return Game.from_dict(state)


class HandsOracle(ExpertPlayer):
    """The shipped expert, its worlds dealt from the true game: every hand as it is, the stock shuffled."""

    shuffle_stock = True
    #: the phases whose decisions search the truth (None: every one); the others search sampled worlds
    phases: frozenset[str] | None = None
    #: search the truth only where the base policy would discard
    at_discards = False

    def reveals(self, seat: int, other: int) -> bool:
        """Whether ``seat``'s worlds hold ``other``'s hand as it truly is."""
        return True

    def __init__(self, seed: int | str | None = 0) -> None:
        super().__init__(seed)
        self.truth: Game | None = None

    def choose(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        shown = dict(obs)
        truth = shown.pop(TRUTH, None)
        if not isinstance(truth, Game):
            raise ValueError("an oracle needs the game: play it with research/oracle_ceiling.py, not the arena")
        self.truth = truth
        # the search seeds its worlds from the observation, which must not hold the game object
        return self.decide(shown, legal)[0]

    def world_dealer(self, obs: dict[str, Any], legal: list[Action]) -> Callable[[dict[str, Any], random.Random],
                                                                                 Game]:
        truth = self.truth
        assert truth is not None, "choose() sets the truth before the search deals"
        if self.phases is not None and obs["phase"] not in self.phases:
            return super().world_dealer(obs, legal)
        if self.at_discards and self.base_policy(obs["variant"]).choose(obs, legal).kind != DISCARD:
            return super().world_dealer(obs, legal)

        seat: int = obs["seat"]

        def deal(_obs: dict[str, Any], rng: random.Random) -> Game:
            if not self.shuffle_stock:
                return truth.copy()
            return deal_hidden_anew(truth, seat, lambda other: self.reveals(seat, other), rng)
        return deal


class PartnerOracle(HandsOracle):
    """The oracle that knows only its partners' hands (the opponents' are dealt anew)."""

    def reveals(self, seat: int, other: int) -> bool:
        assert self.truth is not None
        return self.truth.side_of(other) == self.truth.side_of(seat)


class OpponentsOracle(HandsOracle):
    """The oracle that knows only its opponents' hands (its partners' are dealt anew)."""

    def reveals(self, seat: int, other: int) -> bool:
        assert self.truth is not None
        return self.truth.side_of(other) != self.truth.side_of(seat)


class OpponentsAtDrawOracle(OpponentsOracle):
    """The opponents' oracle at the draw phase's decisions only (take the pile or draw)."""

    phases = frozenset({"draw"})


class OpponentsInPlayOracle(OpponentsOracle):
    """The opponents' oracle at the decisions after the draw only (melds, lay-offs, the discard)."""

    phases = frozenset({"play"})


class OpponentsAtDiscardOracle(OpponentsOracle):
    """The opponents' oracle only where the base policy would discard."""

    at_discards = True


class DealOracle(HandsOracle):
    """The shipped expert searching the true game itself, stock order included."""

    shuffle_stock = False


def feeds_next(truth: Game, discard: Action) -> bool:
    """Whether the next player could take the pile were ``discard`` thrown in the true game."""
    after = truth.copy()
    after.push(discard)
    return not after.is_over and any(a.kind == TAKE for a in after.legal_actions())


class SafeDiscardBasic(BasicPlayer):
    """The expert's base policy (no search) that never feeds the next player the pile where another discard
    would not: told by the true game which discards it could take the pile with."""

    def __init__(self, seed: int | str | None = 0) -> None:
        super().__init__(seed, style=EXPERT_STYLE)

    def choose(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        shown = dict(obs)
        truth = shown.pop(TRUTH, None)
        if not isinstance(truth, Game):
            raise ValueError("an oracle needs the game: play it with research/oracle_ceiling.py, not the arena")
        choice = super().choose(shown, legal)
        if choice.kind != DISCARD or not feeds_next(truth, choice):
            return choice
        hand = truth.hand_cards(obs["seat"])
        cost = dict(zip(hand, discard_costs(shown, [hand], self.style)[0], strict=True))
        safe = [a for a in legal if a.kind == DISCARD and not feeds_next(truth, a)]
        return min(safe, key=lambda a: (cost[a.cards[0]], a.cards[0])) if safe else choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--table", type=int, default=None, help="players at the table (the arena's default)")
    parser.add_argument("--mode", choices=sorted(MODES), default="hands")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--checkpoint-every", type=int, default=1, help="deals between checkpoints")
    parser.add_argument("--out", type=Path, required=True, help="results STEM (STEM.json, as canasta arena's)")
    parser.add_argument("--resume", action="store_true", help="continue or extend the run in STEM.json")
    args = parser.parse_args()
    arena.play_one = play_one_with_truth  # the oracles see the game (module docstring)
    result = run_arena(args.variant, [MODES[args.mode], "basic"], games=args.games, workers=args.workers,
                       seed=args.seed, table=args.table, hands=1,
                       checkpoint=lambda partial: write_json(partial, args.out),
                       checkpoint_every=args.checkpoint_every,
                       resume_from=load_results(args.out) if args.resume else None)
    write_json(result, args.out)
    print(render(result))


if __name__ == "__main__":
    main()
