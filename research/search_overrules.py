"""Where the expert's search overrules its base policy, by the kind of decision: what a distillation could learn.

Plays one-hand 4-player Classic games of the expert (seats 0 and 2) against ``basic`` and reads each searched
decision's record (``ExpertPlayer.last_search``): the base policy's choice, the action chosen after the gate, and
every candidate's value in every sampled world. For each kind of the base policy's choice it counts the decisions
searched, how many the search overruled, into which kind of action, and the mean paired gain (points of hand margin,
by the search's own values) of the overruling action over the base policy's choice.

    python3 -m research.search_overrules --games 30 --seed 1
    python3 -m research.search_overrules --games 30 --seed 1 --setting discard_model=distilled-v1
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from canasta.engine.actions import DRAW, TAKE
from canasta.engine.game import Game
from canasta.players.basic import BasicPlayer
from research.experts import research_expert


def kind_of(kind: str) -> str:
    """The decision's kind: the start of a turn (take the pile or draw) counts as one."""
    return "draw/take" if kind in (DRAW, TAKE) else kind


@dataclass
class Tally:
    searched: int = 0
    overruled: Counter[str] = field(default_factory=Counter)  # the kind of the action chosen instead
    gains: list[float] = field(default_factory=list)


def overrules(games: int, seed: int, **settings: Any) -> dict[str, Tally]:
    """Per kind of the base policy's choice: the searched decisions, the overrules and their gains."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for number in range(games):
        game = Game("classic", 4, f"overrules/{seed}/{number}")
        expert = research_expert(f"overrules/{seed}/{number}", **settings)
        basic = BasicPlayer(f"overrules/{seed}/{number}")
        while not game.is_over and not game.hand_results:
            obs, legal = game.observation(game.actor), game.legal_actions()
            if game.actor % 2:
                game.push(basic.choose(obs, legal))
                continue
            expert.last_search = None
            choice = expert.choose(obs, legal)
            record = expert.last_search
            if record is not None:
                tally = tallies[kind_of(record.basic_choice.kind)]
                tally.searched += 1
                if record.chosen != record.basic_choice:
                    tally.overruled[kind_of(record.chosen.kind)] += 1
                    base, chosen = record.values[record.basic_choice], record.values[record.chosen]
                    tally.gains.append(mean(v - base[w] for w, v in chosen.items() if w in base))
            game.push(choice)
    return dict(tallies)


def render(tallies: dict[str, Tally]) -> str:
    lines = ["| the base policy's choice | searched | overruled | into | mean gain of an overrule |",
             "| --- | ---: | ---: | --- | ---: |"]
    for kind, t in sorted(tallies.items(), key=lambda item: -item[1].searched):
        over = sum(t.overruled.values())
        into = ", ".join(f"{k} {n}" for k, n in t.overruled.most_common())
        gain = f"{mean(t.gains):+.1f}" if t.gains else "-"
        lines.append(f"| {kind} | {t.searched} | {over} ({over / t.searched:.0%}) | {into} | {gain} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--setting", nargs="*", default=[], help="ExpertPlayer settings as key=value")
    args = parser.parse_args()
    from canasta.arena import expert_settings

    readers: dict[str, Callable[[str], Any]] = {**expert_settings(), "discard_model": str}  # research_expert's distilled base policy too
    settings = {key: readers[key](value) for key, _, value in (s.partition("=") for s in args.setting)}
    print(render(overrules(args.games, args.seed, **settings)))


if __name__ == "__main__":
    main()
