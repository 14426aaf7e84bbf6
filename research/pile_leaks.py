"""The issue's two "leaks" of the expert, counted in its own games, and where each comes from.

Issue 23 saw the expert take the pile about half as often as a heuristic player, and throw a rank the next
opponent had melded while the pile was unfrozen (which that opponent takes with no card from hand) in 21% of
its discards against 12% for ``basic``. This script plays one-hand games with the expert (any arena spec) at
the even seats and ``basic`` at the odd ones, and counts, for each kind of player: discards, discards that
feed the next side so, and pile takes against stock draws at the start of a turn. For the expert it also says
whether each feeding discard was its base policy's choice or a departure of the search from it, and tallies
every departure by (base policy's kind -> chosen kind).

    python3 -m research.pile_leaks --variant classic --games 12 --seed 1
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field

from canasta.arena import make_player
from canasta.cards import parse_rank, rank_of
from canasta.engine.actions import DISCARD, DRAW, TAKE, Action
from canasta.engine.game import Game
from canasta.players.base import Observation
from canasta.players.card_reading import is_wild_code
from canasta.players.expert import ExpertPlayer


@dataclass
class Tally:
    """One kind of player's counts."""

    discards: int = 0
    feeding: int = 0
    takes: int = 0
    draws: int = 0
    #: feeding discards the base policy chose, and those the search departed to
    feeding_from_base: int = 0
    feeding_from_search: int = 0
    departures: Counter[str] = field(default_factory=Counter)


def feeds_next_side(obs: Observation, action: Action, variant_sides: list[int]) -> bool:
    """A discard of a natural rank the next player's side has melded while the pile is not frozen: that player
    takes the pile with no card from hand."""
    code = action.cards[0]
    if obs["frozen"] or is_wild_code(code):
        return False
    next_side = variant_sides[(obs["seat"] + 1) % obs["players"]]
    melded = {parse_rank(m["rank"]) for m in obs["melds"][next_side] if m["rank"] != "wild"}
    return next_side != obs["side"] and rank_of(code) in melded


def measure(variant: str, expert_spec: str, games: int, seed: str) -> dict[str, Tally]:
    """The tallies of ``expert_spec`` (even seats) and ``basic`` (odd seats) over ``games`` one-hand games."""
    tallies = {"expert": Tally(), "basic": Tally()}
    for number in range(games):
        game = Game(variant, 4, f"{seed}/{number}")
        sides = [game.side_of(s) for s in range(4)]
        seats = [make_player(expert_spec if s % 2 == 0 else "basic", f"{seed}/{number}/{s}") for s in range(4)]
        while not game.is_over and game.hand_no == 1:
            seat = game.actor
            player = seats[seat]
            tally = tallies["expert" if seat % 2 == 0 else "basic"]
            obs = game.observation(seat)
            searched = isinstance(player, ExpertPlayer)
            if isinstance(player, ExpertPlayer):
                player.last_search = None  # set again only if this decision is searched
            action = player.choose(obs, game.legal_actions())
            record = player.last_search if isinstance(player, ExpertPlayer) else None
            departed = record is not None and record.basic_choice != action
            if record is not None and departed:
                tally.departures[f"{record.basic_choice.kind} -> {action.kind}"] += 1
            if action.kind == DISCARD:
                tally.discards += 1
                if feeds_next_side(obs, action, sides):
                    tally.feeding += 1
                    if searched:
                        if departed:
                            tally.feeding_from_search += 1
                        else:
                            tally.feeding_from_base += 1
            elif action.kind == TAKE:
                tally.takes += 1
            elif action.kind == DRAW:
                tally.draws += 1
            game.apply(action)
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--expert", default="expert", help="the arena spec of the searched player")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    for name, t in measure(args.variant, args.expert, args.games, f"leaks/{args.seed}").items():
        share = t.feeding / max(1, t.discards)
        took = t.takes / max(1, t.takes + t.draws)
        print(f"{name}: {t.discards} discards, {t.feeding} feed the next side ({share:.1%}); "
              f"took the pile {t.takes} times, drew {t.draws} ({took:.1%} takes)")
        if name == "expert":
            print(f"  feeding discards: {t.feeding_from_base} the base policy's, {t.feeding_from_search} the search's")
            print("  departures: " + ", ".join(f"{k} {v}" for k, v in t.departures.most_common()))


if __name__ == "__main__":
    main()
