"""Two server processes' apps share tables through PostgreSQL plus Redis pub/sub."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import WS, Server

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_url() -> str:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2):
            return REDIS
    except OSError as exc:
        pytest.skip(f"Redis at 127.0.0.1:6379 is unreachable: {exc}")


def hinted(ws: WS) -> int:
    """Play the hinted action; the version after it."""
    state = ws.my_turn()
    ws.send({"type": "hint"})
    hint = ws.until(lambda m: m.get("type") == "hint")
    ws.send({"type": "action", "action": hint["action"], "version": state["version"]})
    reply = ws.until(lambda m: m.get("type") in ("ack", "error"))
    assert reply["type"] == "ack", reply
    ws.state = None
    return int(reply["version"])


def test_two_servers_share_a_table(pg_url: str, redis_url: str, make_server: Callable[..., Server]) -> None:
    one = make_server(pg_url, redis_url=redis_url, rate_limit=(1e6, 1e6))
    two = make_server(pg_url, redis_url=redis_url, rate_limit=(1e6, 1e6))
    with one.http() as http:
        game: dict[str, Any] = http.post("/api/games", json={
            "players": 4, "seed": "12",
            "seats": [{"kind": "me"}, {"kind": "computer"}, {"kind": "me"}, {"kind": "computer"}]}).json()
    ws0 = one.ws(game["id"], game["tokens"]["0"])   # seat 0 on the first server
    ws2 = two.ws(game["id"], game["tokens"]["2"])   # its partner on the second
    acted = {0: 0, 2: 0}
    for _ in range(300):
        # whoever is to act (as the first server sees it) acts on their own server
        ws0.until(lambda m: m.get("type") == "update" and m["state"]["obs"]["actor"] in (0, 2))
        assert ws0.state is not None
        actor = ws0.state["obs"]["actor"]
        ws = ws0 if actor == 0 else ws2
        if actor == 2:
            version = ws0.version
            ws2.until(lambda m, v=version: m.get("type") == "update" and m["version"] >= v)
        last = hinted(ws)
        acted[actor] += 1
        if acted[0] >= 5 and acted[2] >= 5:
            break
    assert acted[0] >= 5 and acted[2] >= 5
    # the computers that follow the last move play on until a human seat is to act: wait for that
    ws0.until(lambda m: m.get("type") == "update" and m["version"] >= last and m["state"]["obs"]["actor"] in (0, 2))
    # both servers' clients end at the same version and see the same table
    # (the answer to a sync since 0 is the update with every event; a move's own update has only its events)
    ws2.send({"type": "sync", "since": 0})
    s2 = ws2.until(lambda m: m.get("type") == "update" and m["version"] >= ws0.version
                   and len(m["events"]) == m["version"])
    ws0.send({"type": "sync", "since": 0})
    s0 = ws0.until(lambda m: m.get("type") == "update" and m["version"] == s2["version"]
                   and len(m["events"]) == m["version"])
    assert s0["state"]["obs"]["melds"] == s2["state"]["obs"]["melds"]
    assert s0["events"] == s2["events"]
    ws0.close()
    ws2.close()
