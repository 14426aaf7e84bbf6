"""A table page driven by a real engine game in the test, for positions a test must choose.

The page is served by the real server (its static files), but its WebSocket is routed by Playwright
to this stage: the welcome and every update are built as ``public_state`` builds them (the seat's
``Game.observation`` and the legal actions in the notation), and each action the page sends is
checked and applied by the engine. So a test can put the player in a chosen position (four tens in
hand, a finished Samba, a Hand and Foot book) and see both what the page shows and what it sends.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from canasta.engine.game import Game
from canasta.errors import CanastaError
from canasta.notation import format_action, parse_action
from canasta.web.service import computer_names

WAIT = 20_000


def seat_infos(players: int, me: int) -> list[dict[str, Any]]:
    """The seats as the server names them: the player Ana, computers with names of their own."""
    names = iter(computer_names("stage", ["Ana"]))
    return [{"seat": s, "kind": "human" if s == me else "computer", "level": None if s == me else "basic",
             "name": "Ana" if s == me else next(names), "claimed": True, "invite_open": False} for s in range(players)]


def advance(game: Game, until: Callable[[Game], bool], seed: int = 0, limit: int = 3000,
            prefer: tuple[str, ...] = ("meld", "add", "take")) -> bool:
    """Play random legal actions (melds first, mostly) until ``until(game)`` holds; False if it never does."""
    rng = random.Random(seed)
    for _ in range(limit):
        if until(game):
            return True
        if game.is_over:
            return False
        actions = game.legal_actions()
        keen = [a for a in actions if format_action(a).split()[0] in prefer]
        game.apply(rng.choice(keen) if keen and rng.random() < 0.85 else rng.choice(actions))
    return until(game)


class Stage:
    """The page's WebSocket, answered by ``game`` for seat ``me``."""

    def __init__(self, page: Any, game: Game, me: int) -> None:
        self.page = page
        self.game = game
        self.me = me
        self.version = 0
        self.events: list[dict[str, Any]] = []
        self.sent: list[str] = []      # every action text the page sent
        self.refused: list[str] = []   # those the engine refused
        self.sockets: list[Any] = []

    def state(self) -> dict[str, Any]:
        g = self.game
        legal = [format_action(a) for a in g.legal_actions()] if not g.is_over and g.actor == self.me else []
        return {"version": self.version, "obs": g.observation(self.me), "legal": legal,
                "seats": seat_infos(g.num_players, self.me)}

    def update(self, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return {"type": "update", "version": self.version, "resync": False, "events": events or [],
                "state": self.state()}

    def push(self) -> None:
        """Send the current position to the page (after the test changed the game)."""
        self.version += 1
        for ws in self.sockets:
            ws.send(json.dumps(self.update()))

    def play(self, text: str) -> None:
        """Another seat (the one to act) plays ``text``: applied, then sent to the page as an event."""
        seat = self.game.actor
        self.game.apply(parse_action(text))
        self.version += 1
        event = {"seq": self.version, "seat": seat, "action": text}
        self.events.append(event)
        for ws in self.sockets:
            ws.send(json.dumps(self.update([event])))

    def _on_message(self, ws: Any, raw: str | bytes) -> None:
        m = json.loads(raw)
        if m.get("type") == "hello":
            ws.send(json.dumps({"type": "welcome", "game": "stage", "seat": self.me, "players": self.game.num_players,
                                "variant": self.game.variant_name, "idle_limit": None, "auto_takeover": False}))
            ws.send(json.dumps(self.update(self.events[-200:])))
        elif m.get("type") == "action":
            text = m["action"]
            self.sent.append(text)
            try:
                self.game.apply(parse_action(text))
            except CanastaError as exc:
                self.refused.append(text)
                ws.send(json.dumps({"type": "error", "code": "illegal", "message": str(exc), "id": m.get("id")}))
                return
            self.version += 1
            event = {"seq": self.version, "seat": self.me, "action": text}
            self.events.append(event)
            ws.send(json.dumps({"type": "ack", "id": m.get("id"), "version": self.version}))
            ws.send(json.dumps(self.update([event])))

    def _route(self, ws: Any) -> None:
        self.sockets.append(ws)
        ws.on_message(lambda raw: self._on_message(ws, raw))

    def open(self, base: str) -> None:
        self.page.route_web_socket(re.compile(r".*/ws/.*"), self._route)
        # a seat token in storage, as the start page leaves it: the page says hello as that seat
        self.page.add_init_script(
            f"localStorage.setItem('canasta.seat.stage', JSON.stringify({{seat: {self.me}, token: 'stage'}}))")
        self.page.goto(base + "/table/stage")
        self.page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)

    def wait_version(self, v: int | None = None) -> None:
        target = self.version if v is None else v
        self.page.wait_for_function(f"Number(document.body.dataset.version) === {target}", timeout=WAIT)
