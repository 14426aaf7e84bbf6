"""Time undo (it runs on the server's event loop) at a log of about N actions (issue 51, item 5).

A table of one human seat against the basic computer, the human seat played by the basic player until the
log passes N actions and it has just melded; then five undos, each followed by the same meld again.
Run it on the tree to measure: ``PYTHONPATH=. python3 examples/undo_timer.py 800``.
"""

from __future__ import annotations

import sys
import tempfile
import time

from canasta.notation import format_action
from canasta.players import get_player
from canasta.web.service import GameService, hand_end, undo_refusal


def main(actions: int) -> None:
    service = GameService(f"sqlite:///{tempfile.mkdtemp()}/undo.db")
    seats = [{"kind": "me"}, {"kind": "computer", "level": "basic"}]
    live = service.get(service.create_game(variant="classic", players=2, seed=None,
                                           rules={"target_score": 100000}, seats=seats)["id"])
    me = get_player("basic", seed=1)
    times: list[float] = []
    while len(times) < 5:
        if service.bot_move(live):
            continue
        if live.version > actions and undo_refusal(live, 0) is None:
            version, taken = live.version, live.events[-1]["action"]
            start = time.perf_counter()
            service.undo(live, 0, version)
            times.append((time.perf_counter() - start) * 1000)
            service.submit(live, 0, taken, live.version)
            continue
        if hand_end(live) is not None:
            service.ready(live, 0)
            continue
        game = live.game
        service.submit(live, 0, format_action(me.choose(game.observation(0), game.legal_actions())), live.version)
    service.close()
    print(f"{actions} actions: undo {min(times):.2f} to {max(times):.2f} ms ({len(times)} undos)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 800)
