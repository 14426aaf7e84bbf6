"""A fingerprint of what clients see of random games, to show that a change of the engine's code changed no
behaviour: run it on two checkouts and compare the outputs line by line.

    PYTHONPATH=../old python3 examples/trace_hash.py 3 > old.txt
    PYTHONPATH=.       python3 examples/trace_hash.py 3 > new.txt
    diff old.txt new.txt && echo same

For each configuration (every variant; Classic with 2, 3 and 4 players; Burraco with 2 and 4; Hand and Foot
with the hand-passing deal) and seed, a random game of up to 600 steps is hashed: every legal-action list,
and every 7th step each seat's and the spectator's observation, the saved position (checked to reload and to
copy to the same text) and the refusal (error type, rule and message) of five probe actions. The first
argument is the number of seeds (default 3).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import CanastaError

CONFIGURATIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("classic", 4, {}), ("classic", 2, {}), ("classic", 3, {}), ("uruguayan", 4, {}), ("cuban", 4, {}),
    ("mille", 2, {}), ("american", 4, {}), ("hand-and-foot", 4, {}), ("hand-and-foot", 4, {"hand_passing": True}),
    ("triple-play", 4, {}), ("samba", 4, {}), ("bolivian", 4, {}), ("brazilian", 4, {}), ("chilean", 4, {}),
    ("italian", 4, {}), ("burraco", 4, {}), ("burraco", 2, {}),
]
#: actions asked of check() now and then: most are refused, and the refusal's rule and text are hashed
PROBES = [Action("take"), Action("discard", (8,)), Action("meld", (16, 17, 18)), Action("end"), Action("retract")]


def fingerprint(variant: str, players: int, rules: dict[str, Any], seed: int, steps: int = 600) -> str:
    digest = hashlib.sha256()
    game = Game(variant, players, seed, rules)
    rng = random.Random(seed)
    for step in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        digest.update(repr(legal).encode())
        if step % 7 == 0:
            for seat in [None, *range(players)]:
                digest.update(json.dumps(game.observation(seat), sort_keys=True, default=str).encode())
            text = game.to_json()
            digest.update(text.encode())
            assert Game.from_json(text).to_json() == text and game.copy().to_json() == text
            for probe in PROBES:
                try:
                    game.check(probe)
                    digest.update(b"accepted")
                except CanastaError as refusal:
                    digest.update(f"{type(refusal).__name__}:{getattr(refusal, 'rule', '')}:{refusal}".encode())
        game.apply(rng.choice(legal))
    digest.update(json.dumps(game.hand_results, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for variant, players, rules in CONFIGURATIONS:
        for seed in range(seeds):
            print(variant, players, json.dumps(rules), seed, fingerprint(variant, players, rules, seed), flush=True)


if __name__ == "__main__":
    main()
