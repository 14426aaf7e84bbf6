"""The web server over SQLite and PostgreSQL: REST, WebSocket play, no leaks, bad input, restart."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from web_helpers import WS, Server

from canasta.engine.game import Game
from canasta.notation import parse_action
from canasta.web.app import RATE
from canasta.web.service import Live, SeatInfo, public_state

ME, BOT = {"kind": "me"}, {"kind": "computer", "level": "basic"}
#: every key a state message may contain (anything else could be a leak)
STATE_KEYS = {"version", "obs", "legal", "seats", "failed", "pause", "finished", "notes", "rematch", "online", "idle", "can_undo"}
#: keys that would hold hidden information (the engine's saved-position keys)
FORBIDDEN = {"stock", "hands", "deals", "history", "seed", "token", "token_hash", "invite_hash", "take_snapshot",
             "unusable", "pile_aside"}


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def create(server: Server, seats: list[dict[str, Any]], seed: str = "11", **kw: Any) -> dict[str, Any]:
    with server.http() as http:
        r = http.post("/api/games", json={"players": len(seats), "seed": seed, "seats": seats, **kw})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def act_with_hint(ws: WS) -> str:
    """Play this seat's hinted action; returns it."""
    state = ws.my_turn()
    ws.send({"type": "hint"})
    hint = ws.until(lambda m: m.get("type") in ("hint", "error"))
    assert hint["type"] == "hint", hint
    action: str = hint["action"]
    ws.send({"type": "action", "action": action, "version": state["version"]})
    ws.until(lambda m: m.get("type") in ("ack", "error"))
    assert ws.received[-1]["type"] == "ack", ws.received[-1]
    ws.state = None  # wait for the next update before acting again
    return action


def play_hand(ws: WS, max_actions: int = 400) -> None:
    """Seat plays hinted actions until the first hand is over."""
    for _ in range(max_actions):
        state = ws.my_turn()
        if state["obs"]["hand_results"]:
            return
        act_with_hint(ws)
        ws.until(lambda m: m.get("type") == "update")
        assert ws.state is not None
        if ws.state["obs"]["hand_results"]:
            return
    raise AssertionError("hand did not end")


def replayed(seed: int | str, players: int, events: list[dict[str, Any]], upto: int) -> Game:
    game = Game("classic", players, seed)
    for e in events[:upto]:
        game.apply(parse_action(e["action"]))
    return game


def scrambled(game: Game, keep: int | None, rng: random.Random) -> Game:
    """The same position with every card ``keep`` cannot see moved around (hands keep their sizes)."""
    d = game.to_dict()
    hidden: list[int] = list(d["stock"])
    unknown: list[list[int]] = []
    for s in range(game.num_players):
        held = list(d["hands"][s])
        for c in d["known"][s]:  # cards seen taken from the pile stay where everyone saw them go
            held.remove(c)
        unknown.append(held)
        if s != keep:
            hidden.extend(held)
    rng.shuffle(hidden)
    d["stock"] = hidden[:len(d["stock"])]
    rest = hidden[len(d["stock"]):]
    for s in range(game.num_players):
        if s != keep:
            n = len(unknown[s])
            d["hands"][s], rest = sorted(d["known"][s] + rest[:n]), rest[n:]
    d["history"], d["deals"] = [], []
    return Game.from_dict(d)


def state_of(game: Game, seat: int | None, version: int) -> dict[str, Any]:
    seats = [SeatInfo(i, "human", None, "", None, None) for i in range(game.num_players)]
    live = Live(id="x", variant="classic", players=game.num_players, seed=0, rules={}, game=game, seats=seats,
                events=[{}] * version)
    return public_state(live, seat)


def check_no_leak(payloads: list[dict[str, Any]], seat: int | None, seed: int | str, players: int,
                  events: list[dict[str, Any]]) -> int:
    """Every state sent to ``seat`` is exactly what it may see, and identical when hidden cards are moved."""
    rng = random.Random(5)
    checked = 0
    for message in payloads:
        if message.get("type") != "update":
            assert "state" not in message and "obs" not in message and "hand" not in json.dumps(message)
            continue
        for e in message["events"]:
            assert set(e) == {"seq", "seat", "action", "hand", "by"}  # no drawn cards
        state = message["state"]
        assert set(state) == STATE_KEYS and not keys(state) & FORBIDDEN
        version = message["version"]
        game = replayed(seed, players, events, version)
        if seat is not None:
            assert state["obs"]["hand"] == [str(c) for c in game.observation(seat)["hand"]]
        else:
            assert state["obs"]["hand"] == []
        if state["finished"] is not None:
            # the table as the hand ended: exactly the engine's observation for this seat of that table
            assert state["pause"] is not None and not keys(state["finished"]) & FORBIDDEN
            ended = replayed(seed, players, events, version - 1)
            ended.deals_next_hand = False
            ended.apply(parse_action(events[version - 1]["action"]))
            expected = {**ended.observation(seat), "hand_results": game.hand_results, "actor": None, "hand_over": True}
            assert json.loads(json.dumps(expected)) == state["finished"]
        # the message is a function of what the seat may see: moving hidden cards changes nothing
        other = scrambled(game, seat, rng)
        for k in range(3):
            assert state_of(other, seat, version)["obs"] == state["obs"], f"leak at version {version} ({k})"
            other = scrambled(game, seat, rng)
        checked += 1
    return checked


# ---------------------------------------------------------------- tests
def test_variants_and_pages(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    with server.http() as http:
        variants = http.get("/api/variants").json()
        # Classic is listed first, so the start page offers it by default; the others by title
        assert variants[0]["name"] == "classic"
        assert [v["title"] for v in variants[1:]] == sorted(v["title"] for v in variants[1:])
        classic = variants[0]
        assert classic["player_counts"] == [2, 3, 4, 6]  # the start page offers up to 4
        assert {"name": "wild_limit", "default": "three"}.items() <= next(
            o for o in classic["options"] if o["name"] == "wild_limit").items()
        for path in ("/", "/scorepad", "/replay", "/rules/classic", "/static/app.css", "/static/table.js"):
            r = http.get(path)
            assert r.status_code == 200, path
        assert http.get("/rules/nope").status_code == 404


def test_bad_create_requests(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    with server.http() as http:
        cases = [
            ({"variant": "nope"}, "bad-options"),
            ({"players": 5}, "bad-options"),
            ({"rules": {"wild_limit": "many"}}, "bad-options"),
            ({"rules": {"no_such_rule": 1}}, "bad-options"),
            ({"players": 2, "seats": [ME]}, "bad-seats"),
            ({"players": 2, "seats": [ME, {"kind": "alien"}]}, "bad-seats"),
            ({"players": 2, "seats": [ME, {"kind": "computer", "level": "genius"}]}, "bad-seats"),
            ({"players": "four"}, "bad-request"),
        ]
        for body, code in cases:
            r = http.post("/api/games", json=body)
            assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
        r = http.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["type"] == "error"
        assert http.get("/api/games/nosuchgame").status_code == 404
        assert http.post("/api/score", content=b"[1,").json()["code"] == "bad-json"
        assert http.post("/api/score", json={"teams": 3}).json()["code"] == "bad-score"


def test_human_plays_a_hand_with_no_leak(db_url: str, make_server: Callable[..., Server]) -> None:
    """Seat 0 plays a whole hand against three computers; a spectator watches. Nothing hidden reaches either."""
    server = make_server(db_url)
    game = create(server, [ME, BOT, BOT, BOT], seed="21")
    watcher = server.ws(game["id"])
    ws = server.ws(game["id"], game["tokens"]["0"])
    welcome = ws.recv()
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    play_hand(ws)
    version = ws.version
    watcher.until(lambda m: m.get("type") == "update" and m["version"] >= version)
    with server.http() as http:
        events = http.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": game["tokens"]["0"]}).json()
        assert events["seat"] == 0
    # every event, as the spectator saw them in order, rebuilds the game exactly
    log: list[dict[str, Any]] = []
    for m in watcher.received:
        if m.get("type") == "update":
            for e in m["events"]:
                if e["seq"] > len(log):
                    assert e["seq"] == len(log) + 1
                    log.append(e)
    assert len(log) >= version
    assert check_no_leak(ws.received, 0, 21, 4, log) > 10
    assert check_no_leak(watcher.received, None, 21, 4, log) > 10
    assert ws.state is not None and ws.state["obs"]["hand_results"][0]["sides"][0]["items"]
    ws.close()
    watcher.close()


def test_bad_input_changes_nothing(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    game = create(server, [ME, ME], seed="3")
    gid, t0, t1 = game["id"], game["tokens"]["0"], game["tokens"]["1"]
    ws = server.ws(gid, t0)
    ws.until(lambda m: m.get("type") == "update")
    assert ws.version == 0 and ws.state is not None and ws.state["legal"] == ["draw"]
    other = server.ws(gid, t1)
    other.until(lambda m: m.get("type") == "update")

    def expect(sender: WS, message: Any, code: str) -> None:
        sender.send(message)
        reply = sender.until(lambda m: m.get("type") in ("error", "ack"))
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)

    expect(ws, "{not json", "bad-json")
    expect(ws, "[1, 2]", "bad-json")
    expect(ws, b"\xff\xfe", "bad-json")
    expect(ws, {"type": "teleport"}, "unknown-type")
    expect(ws, {"type": "action", "action": "fly away", "version": 0}, "bad-action")
    expect(ws, {"type": "action", "action": 42, "version": 0}, "bad-action")
    expect(ws, {"type": "action", "action": "discard Ah", "version": 0}, "illegal")
    expect(ws, {"type": "action", "action": "draw", "version": 7}, "stale")
    expect(ws, {"type": "action", "action": "draw", "version": "0"}, "bad-request")
    expect(ws, {"type": "action", "action": "x" * 5000}, "too-large")
    expect(other, {"type": "action", "action": "draw", "version": 0}, "not-your-turn")
    expect(ws, {"type": "hello", "token": t1}, "bad-request")
    # an illegal action names the engine's rule and reason
    ws.send({"type": "action", "action": "meld 4s 4h 4d", "version": 0})
    reply = ws.until(lambda m: m.get("type") == "error")
    assert reply["code"] == "illegal" and reply["rule"] and reply["message"]
    # wrong and missing tokens
    bad = server.ws(gid, "not-a-token")
    assert bad.recv()["code"] == "bad-token"
    spectator = server.ws(gid, None)
    spectator.until(lambda m: m.get("type") == "update")
    expect(spectator, {"type": "action", "action": "draw", "version": 0}, "not-seated")
    expect(spectator, {"type": "hint"}, "not-your-turn")
    # a flood: some messages are refused
    for _ in range(120):
        ws.send({"type": "ping"})
    replies = [ws.recv() for _ in range(120)]
    assert any(r.get("code") == "flood" for r in replies)
    # nothing changed
    with server.http() as http:
        state = http.get(f"/api/games/{gid}", headers={"X-Seat-Token": t0}).json()
        assert state["version"] == 0 and state["legal"] == ["draw"]
        assert http.get(f"/api/games/{gid}", headers={"X-Seat-Token": "wrong"}).status_code == 403
    # a duplicate: the same action at the same version is accepted once (after the flood, wait for the
    # connection's message allowance to refill for two messages, so neither is refused as a flood)
    time.sleep(4 / RATE)
    ws.state = None
    for _ in range(2):
        ws.send({"type": "action", "action": "draw", "version": 0, "id": "a"})
    first = ws.until(lambda m: m.get("type") in ("ack", "error"))
    second = ws.until(lambda m: m.get("type") in ("ack", "error"))
    assert first["type"] == "ack" and first["version"] == 1
    assert second["type"] == "error" and second["code"] in ("stale", "illegal") and second["id"] == "a"
    for w in (ws, other, spectator):
        w.close()


def test_invites_and_seat_tokens(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    game = create(server, [ME, BOT, {"kind": "invite", "name": "Ann"}, BOT], seed="8")
    gid, code = game["id"], game["invites"]["2"]
    assert game["invite_links"]["2"] == f"/table/{gid}?seat=2&invite={code}"
    with server.http() as http:
        assert http.post(f"/api/games/{gid}/join", json={"seat": 2, "invite": "wrong"}).status_code == 403
        assert http.post(f"/api/games/{gid}/join", json={"seat": 1, "invite": code}).status_code == 403
        assert http.post(f"/api/games/{gid}/join", json={"seat": 9, "invite": code}).status_code == 400
        r = http.post(f"/api/games/{gid}/join", json={"seat": 2, "invite": code, "name": "Ann"})
        assert r.status_code == 200
        token = r.json()["token"]
        assert http.post(f"/api/games/{gid}/join", json={"seat": 2, "invite": code}).status_code == 403
        info = http.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        assert info["seat"] == 2 and info["seats"][2]["name"] == "Ann"
        assert "token_hash" not in json.dumps(info) and token not in json.dumps(info)
    ws = server.ws(gid, token)
    ws.until(lambda m: m.get("type") == "update")
    assert ws.state is not None and ws.state["obs"]["seat"] == 2
    ws.send({"type": "action", "action": "draw", "version": ws.version})
    assert ws.until(lambda m: m.get("type") == "error")["code"] == "not-your-turn"
    ws.close()


def test_restart_replays_the_log(db_url: str, make_server: Callable[..., Server]) -> None:
    """A new server on the same database comes back with every acknowledged action."""
    first = make_server(db_url)
    game = create(first, [ME, BOT, BOT, BOT], seed="77")
    gid, t0 = game["id"], game["tokens"]["0"]
    ws0 = first.ws(gid, t0)
    for _ in range(12):
        act_with_hint(ws0)
    before = ws0.my_turn()
    ws0.close()
    first.stop()
    second = make_server(db_url)
    ws = second.ws(gid, t0, since=before["version"] - 3)
    update = ws.until(lambda m: m.get("type") == "update")
    assert update["resync"] is False and [e["seq"] for e in update["events"]] == [
        before["version"] - 2, before["version"] - 1, before["version"]]
    assert update["state"] == before
    act_with_hint(ws)  # and the game goes on
    ws.close()


def test_reconnect_gets_missed_events_or_resync(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    game = create(server, [ME, BOT], seed="5")
    ws = server.ws(game["id"], game["tokens"]["0"])
    for _ in range(4):
        act_with_hint(ws)
    ws.my_turn()
    version = ws.version
    ws.close()
    again = server.ws(game["id"], game["tokens"]["0"], since=version - 2)
    update = again.until(lambda m: m.get("type") == "update")
    assert not update["resync"] and len(update["events"]) == 2 and update["version"] == version
    again.send({"type": "sync", "since": 10**6})
    assert again.until(lambda m: m.get("type") == "update")["resync"] is True
    again.close()


def test_takeover_of_idle_seat_and_reclaim(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url, idle_limit=0.0)
    game = create(server, [ME, BOT, ME, BOT], seed="9")
    gid = game["id"]
    ws2 = server.ws(gid, game["tokens"]["2"])
    ws2.until(lambda m: m.get("type") == "update")
    ws2.send({"type": "takeover", "seat": 2})
    assert ws2.until(lambda m: m.get("type") == "error")["code"] == "not-idle"
    ws2.send({"type": "takeover", "seat": 0})
    # seat 0 is now a computer: play moves on to seat 2
    state = ws2.my_turn()
    assert state["seats"][0]["kind"] == "computer" and state["obs"]["actor"] == 2
    ws0 = server.ws(gid, game["tokens"]["0"])
    ws0.until(lambda m: m.get("type") == "update")
    ws0.send({"type": "reclaim"})
    ws0.until(lambda m: m.get("type") == "update" and m["state"]["seats"][0]["kind"] == "human")
    ws0.close()
    ws2.close()


def test_records_and_replay(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url, rate_limit=(1e6, 1e6))
    game = create(server, [ME, BOT], seed="4", rules={"target_score": 50})
    gid, token = game["id"], game["tokens"]["0"]
    ws = server.ws(gid, token)
    with server.http() as http:
        running = http.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": token})
        assert running.status_code == 200 and '[Redacted "0"]' in running.text and "[Seed" not in running.text
        assert http.get(f"/api/games/{gid}/record").status_code == 403
        viewer = http.post("/api/replay", json={"record": running.text}).json()
        assert viewer["redacted"] is True
        for _ in range(400):
            state = ws.my_turn()
            if state["obs"]["winner"] is not None:
                break
            act_with_hint(ws)
        else:
            raise AssertionError("game did not end")
        full = http.get(f"/api/games/{gid}/record").text  # over: anyone may have it whole
        assert "[Redacted" not in full and '[Seed "4"]' in full
        frames = http.post("/api/replay", json={"record": full}).json()
        assert frames["redacted"] is False and frames["hands"][0]["frames"][0]["hands"][0]
        assert frames["scores"] == ws.state["obs"]["scores"] if ws.state else False
        assert http.post("/api/replay", json={"record": "garbage"}).json()["code"] == "bad-record"
    ws.close()


def test_scorepad_endpoint(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    body = {"players": 2, "rules": {"canastas_to_go_out": 1}, "teams": [
        {"melds": [["Ks", "Kh", "Kd", "Kc", "Ks", "Kh", "Kd"]], "threes": ["3h"], "hands": [[]], "went_out": True},
        {"melds": [["5s", "5h", "5d"]], "threes": [], "hands": [["4s", "JK"]]}]}
    with server.http() as http:
        r = http.post("/api/score", json=body)
        assert r.status_code == 200, r.text
        teams = r.json()["teams"]
        assert teams[0]["items"]["natural_canastas"] == 500 and teams[1]["items"]["cards_in_hand"] == -55


def test_idle_seat_goes_to_the_computer_by_itself_and_comes_back(db_url: str, make_server: Callable[..., Server]) -> None:
    """With a tiny idle limit the server hands the idle seat to the computer; its player takes it back and plays."""
    server = make_server(db_url, idle_limit=0.3, auto_takeover=True, bot_delay=0.02)
    game = create(server, [ME, ME], seed="13")  # two humans: a player alone keeps the seat (test_web_limits)
    ws = server.ws(game["id"], game["tokens"]["0"])
    welcome = ws.recv()
    assert welcome["type"] == "welcome" and welcome["auto_takeover"] is True and welcome["idle_limit"] == 0.3
    # seat 0 does nothing: the computer plays for it, and the game moves on
    handed = ws.until(lambda m: m.get("type") == "update" and m["state"]["seats"][0]["kind"] == "computer")
    moved = ws.until(lambda m: m.get("type") == "update" and any(e["seat"] == 0 for e in m["events"]))
    assert moved["version"] > handed["version"] >= 0
    # the owner comes back and takes the seat back; then it is theirs to play
    ws.send({"type": "reclaim"})
    ws.until(lambda m: m.get("type") == "update" and m["state"]["seats"][0]["kind"] == "human")
    ws.state = None
    act_with_hint(ws)  # acked: the seat is the player's again
    ws.close()


def test_replay_ends_each_hand_on_its_final_table() -> None:
    """The last frame of a hand is the table as the hand ended (melds, red threes, pile), not the next deal."""
    from canasta.players import get_player
    from canasta.record import export_record
    from canasta.web.replay import replay_frames

    game = Game("classic", 2, 6, {"target_score": 50})
    bots = [get_player("basic", seed=s) for s in range(2)]
    while not game.is_over:
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    frames = replay_frames(export_record(game))
    assert frames["redacted"] is False and len(frames["hands"]) == len(game.hand_results)
    for hand, result in zip(frames["hands"], game.hand_results, strict=True):
        last, before = hand["frames"][-1], hand["frames"][-2]
        assert last["hand_over"] is True and last["totals"] == result["totals"] and last["scores"] == result["totals"]
        # the same hand's table: nothing of the table went away, red threes unchanged
        for side, melds in enumerate(before["melds"]):
            ranks = {m["rank"]: len(m["cards"]) for m in last["melds"][side]}
            assert all(ranks.get(m["rank"], 0) >= len(m["cards"]) for m in melds)
        assert last["red_threes"] == before["red_threes"]
        assert last["stock_size"] <= before["stock_size"]
        if result["went_out"] is not None:
            assert last["hands"][result["went_out"]] == []  # whoever went out has no cards left
            side = result["went_out"] % 2
            assert any(m["canasta"] for m in last["melds"][side])
        # melded cards in the score are the cards on this table
        for side, s in enumerate(result["sides"]):
            on_table = sum(len(m["cards"]) for m in last["melds"][side])
            assert (on_table > 0) == any(k.startswith("meld") or "canast" in k for k, v in s["items"].items() if v)


def test_group_writer_commits_together_and_fails_only_the_loser(db_url: str) -> None:
    """Rows queued together go in one transaction; a row whose step was already written fails alone."""
    import asyncio

    from sqlalchemy.exc import IntegrityError

    from canasta.web.service import GameService, _action_row

    service = GameService(db_url)
    try:
        gid = service.create_game(variant="classic", players=2, seed="1", rules={}, seats=[ME, ME])["id"]
        done: list[tuple[int, bool]] = []

        async def write_all(seqs: list[int]) -> list[BaseException | None]:
            return await asyncio.gather(*(service.writer.write(_action_row(gid, seq, 0, "draw"),
                                                                lambda ok, s=seq: done.append((s, ok)))
                                          for seq in seqs), return_exceptions=True)

        assert asyncio.run(write_all([1, 2, 3])) == [None, None, None]
        assert (service.writer.commits, service.writer.rows) == (1, 3)
        results = asyncio.run(write_all([4, 4, 5]))
        assert results[0] is None and isinstance(results[1], IntegrityError) and results[2] is None
        assert sorted(done) == [(1, True), (2, True), (3, True), (4, False), (4, True), (5, True)]
        # the log holds each step once
        from sqlalchemy import select

        from canasta.web.db import ActionRow

        with service.engine.connect() as conn:
            seqs = conn.execute(select(ActionRow.seq).where(ActionRow.game_id == gid).order_by(ActionRow.seq)).scalars()
            assert list(seqs) == [1, 2, 3, 4, 5]
    finally:
        service.close()


def test_mille_is_listed_and_a_hand_is_played(db_url: str, make_server: Callable[..., Server]) -> None:
    """Mille appears in the variant list with its options, and a two-player game is created and played."""
    server = make_server(db_url)
    with server.http() as http:
        variants = http.get("/api/variants").json()
        mille = next(v for v in variants if v["name"] == "mille")
        assert mille["player_counts"] == [2]
        assert {o["name"] for o in mille["options"]} >= {"target_score", "stakes_small", "stakes_large"}
        assert http.get("/rules/mille").status_code == 200
    game = create(server, [ME, BOT], seed="7", variant="mille", rules={"stakes_small": 1})
    ws = server.ws(game["id"], game["tokens"]["0"])
    assert ws.recv()["type"] == "welcome"
    play_hand(ws)
    assert ws.state is not None
    obs = ws.state["obs"]
    assert obs["variant"] == "mille" and "naturals" in obs["hand_results"][0]["sides"][0]
    ws.close()


def test_burraco_game_via_the_api(db_url: str, make_server: Callable[..., Server]) -> None:
    """Burraco is in the variant list, has a rules page, and a game is created and played through the API;
    its states show the pozzetti only by their sizes."""
    server = make_server(db_url)
    with server.http() as http:
        burraco = next(v for v in http.get("/api/variants").json() if v["name"] == "burraco")
        assert burraco["player_counts"] == [2, 4]
        assert {"target_score", "clean_burraco_to_close"} <= {o["name"] for o in burraco["options"]}
        assert http.get("/rules/burraco").status_code == 200
    game = create(server, [ME, BOT, BOT, BOT], seed="7", variant="burraco")
    ws = server.ws(game["id"], game["tokens"]["0"])
    assert ws.recv()["type"] == "welcome"
    played = []
    for _ in range(12):
        played.append(act_with_hint(ws))
        ws.until(lambda m: m.get("type") == "update")
        assert ws.state is not None
        state = ws.state
        assert not keys(state) & FORBIDDEN
        obs = state["obs"]
        assert obs["variant"] == "burraco" and all(isinstance(n, int) for n in obs["extra_piles"])
        assert all(isinstance(n, int) for n in obs["face_down"])
    assert any(a.startswith(("draw", "take")) for a in played)
    ws.close()
