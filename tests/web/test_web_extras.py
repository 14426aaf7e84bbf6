"""The table's extras over the API (issue 19, part B): chat limits, undo against computers, expert computers.

Browser tests of the same features are in test_web_extras_browser.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from web_helpers import WS, Server

from canasta.variants import VARIANTS
from canasta.web.chat import CHAT_BURST
from canasta.web.schemas import EMOTES, MAX_CHAT

ME, BOT = {"kind": "me", "name": "Ana"}, {"kind": "computer", "level": "basic"}


def create(server: Server, seats: list[dict[str, Any]], seed: str = "11", **kw: Any) -> dict[str, Any]:
    with server.http() as http:
        r = http.post("/api/games", json={"players": len(seats), "seed": seed, "seats": seats, **kw})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def reply(ws: WS, kinds: tuple[str, ...]) -> dict[str, Any]:
    return ws.until(lambda m: m.get("type") in kinds)


# ---------------------------------------------------------------- chat
def test_chat_limits_names_and_text(tmp_path: Any, make_server: Callable[..., Server]) -> None:
    """A chat line reaches everyone at the table (a spectator too) with the seat's display name, exactly as
    typed (HTML stays text: the page never reads it as markup); too long, empty, control characters, a
    spectator writing and a flood are refused by name."""
    server = make_server(f"sqlite:///{tmp_path / 'chat.db'}", rate_limit=(1e6, 1e6))
    server.app.state.hub.chat.rate = 0.0  # no refill during the test: the burst is all a connection has
    game = create(server, [ME, BOT, BOT, BOT])
    player = server.ws(game["id"], game["tokens"]["0"])
    watcher = server.ws(game["id"])
    for ws in (player, watcher):
        assert reply(ws, ("chat-history",))["messages"] == []

    markup = '<img src=x onerror="alert(1)"> & <b>bold</b>'
    player.send({"type": "chat", "text": markup})
    for ws in (player, watcher):
        line = reply(ws, ("chat",))
        assert line == {"type": "chat", "seat": 0, "name": "Ana", "text": markup, "emote": None}

    player.send({"type": "chat", "text": "x" * (MAX_CHAT + 1)})
    refused = reply(player, ("error",))
    assert refused["code"] == "bad-chat" and str(MAX_CHAT) in refused["message"]
    for bad in ({"type": "chat", "text": "   "}, {"type": "chat", "text": "a\u0000b"},
                {"type": "chat", "text": "hi", "emote": "nice"}, {"type": "chat", "emote": "<script>"}):
        player.send(bad)
        assert reply(player, ("error",))["code"] == "bad-chat", bad  # refusals take none of the allowance

    player.send({"type": "chat", "emote": "good-game"})
    for ws in (player, watcher):
        line = reply(ws, ("chat",))
        assert line["text"] == EMOTES["good-game"] and line["emote"] == "good-game" and line["name"] == "Ana"

    # the burst is CHAT_BURST messages: two are used; the next is the last one allowed, then a flood refusal
    for _ in range(int(CHAT_BURST) - 2):
        player.send({"type": "chat", "text": "one more"})
        assert reply(player, ("chat", "error"))["type"] == "chat"
    player.send({"type": "chat", "text": "too fast"})
    assert reply(player, ("chat", "error"))["code"] == "chat-flood"

    watcher.send({"type": "chat", "text": "may I?"})
    assert reply(watcher, ("error",))["code"] == "not-seated"

    # a client connecting later gets the table's recent lines, in order
    late = server.ws(game["id"])
    history = reply(late, ("chat-history",))["messages"]
    assert [m["text"] for m in history] == [markup, EMOTES["good-game"]] + ["one more"] * (int(CHAT_BURST) - 2)
    for ws in (player, watcher, late):
        ws.close()


# ---------------------------------------------------------------- undo
def my_play_phase(ws: WS, want: Callable[[list[str]], bool], limit: int = 60) -> dict[str, Any]:
    """Play (draw, then discard the first card offered) until this seat is in its play phase with ``want(legal)``."""
    for _ in range(limit):
        state = ws.my_turn()
        legal: list[str] = state["legal"]
        if state["obs"]["phase"] == "play" and want(legal):
            return state
        action = "draw" if "draw" in legal else next((a for a in legal if a.startswith("discard")), legal[0])
        ws.send({"type": "action", "action": action, "version": state["version"]})
        assert reply(ws, ("ack", "error"))["type"] == "ack"
        ws.state = None
    raise AssertionError("the wanted position never came")


def send_action(ws: WS, action: str) -> dict[str, Any]:
    assert ws.state is not None
    ws.send({"type": "action", "action": action, "version": ws.state["version"]})
    assert reply(ws, ("ack", "error"))["type"] == "ack", ws.received[-1]
    state: dict[str, Any] = ws.until(lambda m: m.get("type") == "update")["state"]
    return state


def test_undo_takes_back_a_meld_against_computers(tmp_path: Any, make_server: Callable[..., Server]) -> None:
    """Against computers, undo takes back the melds of this turn, one at a time, before the discard: the
    position is the engine's replay of the log without them, the log forgets them (a restart agrees), and
    undo is refused when there is nothing of this turn to take back (after a draw, a discard or a retract)."""
    db = f"sqlite:///{tmp_path / 'undo.db'}"
    server = make_server(db, rate_limit=(1e6, 1e6))
    game = create(server, [ME, BOT, BOT, BOT], seed="5")
    ws = server.ws(game["id"], game["tokens"]["0"])
    before = my_play_phase(ws, lambda legal: any(a.startswith("meld") for a in legal))
    assert before["can_undo"] is False
    ws.send({"type": "undo", "version": before["version"]})
    refused = reply(ws, ("error",))
    assert refused["code"] == "no-undo" and "nothing to undo" in refused["message"]

    meld = next(a for a in before["legal"] if a.startswith("meld"))
    after = send_action(ws, meld)
    assert after["can_undo"] is True and after["version"] == before["version"] + 1
    ws.send({"type": "undo", "version": after["version"]})
    undone = reply(ws, ("undone", "error"))
    assert undone["type"] == "undone" and undone["action"] == meld and undone["version"] == before["version"]
    back = ws.until(lambda m: m.get("type") == "update")
    assert back["resync"] is True and back["state"]["obs"] == before["obs"] and back["state"]["legal"] == before["legal"]

    # the log forgot the meld: a fresh server over the same database rebuilds the position before it
    server.stop()
    again = make_server(db, rate_limit=(1e6, 1e6))
    with again.http() as http:
        seen = http.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": game["tokens"]["0"]}).json()
    assert seen["version"] == before["version"] and seen["obs"] == before["obs"]


def test_undo_is_refused_with_two_people_and_after_the_discard(tmp_path: Any,
                                                                make_server: Callable[..., Server]) -> None:
    """With another person at the table a play stands: undo is refused with the reason. After the discard the
    turn is over and nothing can be taken back."""
    server = make_server(f"sqlite:///{tmp_path / 'two.db'}", rate_limit=(1e6, 1e6))
    # seed 0: seat 0 plays first and can meld after its draw (the invited seat never has to move)
    game = create(server, [ME, BOT, {"kind": "invite"}, BOT], seed="0")
    ws = server.ws(game["id"], game["tokens"]["0"])
    state = my_play_phase(ws, lambda legal: any(a.startswith("meld") for a in legal))
    after = send_action(ws, next(a for a in state["legal"] if a.startswith("meld")))
    assert after["can_undo"] is False
    ws.send({"type": "undo", "version": after["version"]})
    refused = reply(ws, ("undone", "error"))
    assert refused["code"] == "no-undo" and "computers only" in refused["message"]
    ws.close()

    solo = create(server, [ME, BOT, BOT, BOT], seed="5")
    ws = server.ws(solo["id"], solo["tokens"]["0"])
    state = my_play_phase(ws, lambda legal: any(a.startswith("meld") for a in legal))
    after = send_action(ws, next(a for a in state["legal"] if a.startswith("meld")))
    discards = [a for a in after["legal"] if a.startswith("discard")]
    if discards:  # the meld met the minimum: discard, and the turn is gone
        ws.send({"type": "action", "action": discards[0], "version": after["version"]})
        assert reply(ws, ("ack", "error"))["type"] == "ack"
        ws.send({"type": "undo", "version": after["version"] + 1})
        assert reply(ws, ("undone", "error"))["code"] in ("no-undo", "stale")
    else:  # below the minimum: retract (the penalty stands), and a retract is not taken back
        assert "retract" in after["legal"]
        retracted = send_action(ws, "retract")
        assert retracted["can_undo"] is False and retracted["obs"]["retracted_this_turn"] is True
        ws.send({"type": "undo", "version": retracted["version"]})
        assert reply(ws, ("undone", "error"))["code"] == "no-undo"
    ws.close()


# ---------------------------------------------------------------- expert computers
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_expert_computers_play_in_every_variant(variant: str, tmp_path: Any,
                                                make_server: Callable[..., Server]) -> None:
    """The start page offers the expert in every variant: a table of expert computers is created through the
    API and a computer turn completes (the expert thinks in a thread, within its budget)."""
    counts = VARIANTS[variant].player_counts
    players = 4 if 4 in counts else counts[0]
    server = make_server(f"sqlite:///{tmp_path / 'expert.db'}", rate_limit=(1e6, 1e6))
    seats = [{"kind": "computer", "level": "expert"}] * players
    game = create(server, seats, variant=variant)
    watcher = server.ws(game["id"])  # computers move while someone watches
    update = watcher.until(lambda m: m.get("type") == "update" and m["version"] >= 1)
    assert update["state"]["seats"][0]["level"] == "expert"
    moved = [e for e in update["events"] if e["seq"] == 1]
    assert moved and update["state"]["seats"][moved[0]["seat"]]["kind"] == "computer"
    assert update["state"]["failed"] is None
    watcher.close()


# ---------------------------------------------------------------- two processes
def test_chat_and_undo_reach_the_other_process(tmp_path: Any, make_server: Callable[..., Server]) -> None:
    """Two app instances over one database and a private Redis: a chat line said on one reaches a spectator
    on the other, and an undo on one rebuilds the other's game (its client resyncs to the shorter log)."""
    from test_web_faults import PrivateRedis, _free_port

    redis = PrivateRedis(_free_port())
    redis.start()
    try:
        db = f"sqlite:///{tmp_path / 'two.db'}"
        one = make_server(db, redis_url=redis.url, rate_limit=(1e6, 1e6))
        two = make_server(db, redis_url=redis.url, rate_limit=(1e6, 1e6))
        game = create(one, [ME, BOT, BOT, BOT], seed="0")
        player = one.ws(game["id"], game["tokens"]["0"])
        watcher = two.ws(game["id"])
        reply(watcher, ("chat-history",))
        player.send({"type": "chat", "text": "hello from one"})
        line = reply(watcher, ("chat",))
        assert line["text"] == "hello from one" and line["name"] == "Ana"

        before = my_play_phase(player, lambda legal: any(a.startswith("meld") for a in legal))
        after = send_action(player, next(a for a in before["legal"] if a.startswith("meld")))
        watcher.until(lambda m: m.get("type") == "update" and m["version"] == after["version"])
        player.send({"type": "undo", "version": after["version"]})
        assert reply(player, ("undone", "error"))["type"] == "undone"
        back = watcher.until(lambda m: m.get("type") == "update" and m["version"] == before["version"])
        assert back["resync"] is True and back["state"]["obs"]["melds"] == before["obs"]["melds"]
        player.close()
        watcher.close()
    finally:
        redis.kill()
