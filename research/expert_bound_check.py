"""How often the expert's bound on a decision's work (``max_steps``) changes its choice.

    python3 -m research.expert_bound_check hand-and-foot 4 1 2611

One-hand games of the default expert (side 0) against BasicPlayer; at every decision of the expert with a
choice, the same decision is also taken without the bound (``max_steps=10**9``) and the two choices are
compared. The game follows the bounded choice. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json

from canasta.engine.game import Game
from canasta.players.basic import BasicPlayer
from canasta.players.expert import ExpertPlayer, ExpertSettings

UNBOUNDED = 10**9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("table", type=int)
    parser.add_argument("games", type=int)
    parser.add_argument("seed")
    parser.add_argument("--max-steps", type=int, default=None, help="the bound (default: the expert's)")
    args = parser.parse_args()
    decisions = choices = changed = 0
    basic = BasicPlayer()
    for g in range(args.games):
        game = Game(args.variant, args.table, f"bound/{args.seed}/{g}")
        seed = f"{args.seed}/{g}"
        bounded = ExpertPlayer(seed) if args.max_steps is None else ExpertPlayer(seed, ExpertSettings(max_steps=args.max_steps))
        unbounded = ExpertPlayer(seed, ExpertSettings(max_steps=UNBOUNDED))
        while not game.is_over and game.hand_no == 1:
            obs, legal = game.observation(game.actor), game.legal_actions()
            if game.side_of(game.actor) != 0:
                game.push(basic.choose(obs, legal))
                continue
            action = bounded.choose(obs, legal)
            decisions += 1
            if len(legal) > 1:
                choices += 1
                changed += action != unbounded.choose(obs, legal)
            game.push(action)
    print(json.dumps({"variant": args.variant, "table": args.table, "games": args.games, "decisions": decisions,
                      "with_a_choice": choices, "choice_changed_by_bound": changed,
                      "max_steps": bounded.max_steps}), flush=True)


if __name__ == "__main__":
    main()
