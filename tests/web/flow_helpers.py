"""Helpers of the hand-flow tests: create a table, play a seat's turns over its WebSocket."""

from __future__ import annotations

import random
from typing import Any

from web_helpers import WS, Server

BOT = {"kind": "computer", "level": "basic"}


def create(server: Server, seats: list[dict[str, Any]], seed: str = "5", **kw: Any) -> dict[str, Any]:
    with server.http() as http:
        r = http.post("/api/games", json={"players": len(seats), "seed": seed, "seats": seats, **kw})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def stopped(state: dict[str, Any]) -> bool:
    """The table waits at a hand's end, or the game is over."""
    return bool(state.get("pause")) or state["obs"]["winner"] is not None


def play_turn(ws: WS, rng: random.Random, discard_only: bool = False) -> dict[str, Any]:
    """Play this seat's whole turn (random legal actions; with ``discard_only``, draw and discard only);
    returns the state after it, or the state where the table stopped (a hand's end, the game's end)."""
    while True:
        state = ws.my_turn()
        if stopped(state):
            return state
        legal: list[str] = state["legal"]
        if discard_only:
            plain = [a for a in legal if a == "draw" or a.startswith("discard")]
            action = rng.choice(plain or legal)
        else:
            action = rng.choice(legal)
        ws.send({"type": "action", "action": action, "version": state["version"]})
        reply = ws.until(lambda m: m.get("type") in ("ack", "error"))
        assert reply["type"] == "ack", reply
        acked = reply["version"]
        ws.state = None
        after = ws.until(lambda m, v=acked: m.get("type") == "update" and m["version"] >= v)["state"]
        if not after["legal"] or stopped(after):
            return after


def play_until_stopped(ws: WS, rng: random.Random, limit: int = 2000) -> dict[str, Any]:
    """Play the seat's turns until the table stops at a hand's end or the game ends."""
    for _ in range(limit):
        state = play_turn(ws, rng)
        if stopped(state):
            return state
    raise AssertionError("the hand did not end")


def play_seats(server: Server, game_id: str, seats: dict[int, WS], rng: random.Random, *, discard_only: bool = False,
               until: Any = None, limit: int = 3000) -> dict[str, Any]:
    """Play the turns of ``seats`` in whatever order the game asks (the others are computers, or players
    who do not act), until the table stops, or ``until(state)`` holds; returns that state (as the API gives it)."""
    watch = next(iter(seats.values()))
    with server.http() as http:
        for _ in range(limit):
            state: dict[str, Any] = http.get(f"/api/games/{game_id}").json()
            if stopped(state) or (until is not None and until(state)):
                return state
            actor = state["obs"]["actor"]
            if actor in seats:
                play_turn(seats[actor], rng, discard_only)
            else:
                watch.until(lambda m, v=state["version"]: m.get("type") == "update" and m["version"] > v)
    raise AssertionError("the table never stopped")
