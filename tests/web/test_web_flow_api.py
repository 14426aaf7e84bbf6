"""The flow of a hand at the server (issue 19, defects 2, 7, 8): the pause at a hand's end and who has
clicked on, names of seats and of each move's maker, notes of takeovers, rematch; through a restart."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from flow_helpers import BOT, create, play_seats
from web_helpers import Server

from canasta.engine.game import Game
from canasta.notation import parse_action
from canasta.web.service import COMPUTER_NAMES


def test_a_hand_ends_in_a_pause_that_outlives_a_restart(tmp_path: Path, make_server: Callable[..., Server]) -> None:
    """Two players and two computers: at the hand's end nothing moves until both have clicked on; who has
    clicked is kept in the database, so a restarted server still waits for the other one only."""
    db = f"sqlite:///{tmp_path / 'flow.db'}"
    server = make_server(db)
    game = create(server, [{"kind": "me", "name": "Ana"}, {"kind": "me", "name": "Bruno"}, BOT, BOT], seed="5")
    gid, ana_token, bruno_token = game["id"], game["tokens"]["0"], game["tokens"]["1"]
    ana, bruno = server.ws(gid, ana_token), server.ws(gid, bruno_token)
    state = play_seats(server, gid, {0: ana, 1: bruno}, random.Random(3))
    pause = state["pause"]
    assert pause == {"hand": 1, "waiting": [0, 1], "ready": []}
    version = state["version"]
    assert state["legal"] == [] and state["obs"]["hand_no"] == 2  # the engine dealt; the table waits
    # the finished table: hand 1 as it ended, with its result (the engine's scoring of that hand)
    assert state["finished"]["hand_no"] == 1 and state["finished"]["hand_over"] is True
    assert state["finished"]["hand_results"] == state["obs"]["hand_results"]
    ended = Game("classic", 4, 5)
    with server.http() as http:
        log = http.get(f"/api/games/{gid}", headers={"X-Seat-Token": ana_token}).json()
    assert log["pause"] == pause
    # an action while paused is refused with a reason, not applied
    ana.state = None
    ana.send({"type": "action", "action": "draw", "version": version})
    refused = ana.until(lambda m: m.get("type") == "error")
    assert refused["code"] == "hand-over"
    ana.send({"type": "next"})
    ana.until(lambda m: m.get("type") == "update" and m["state"]["pause"] is not None
              and m["state"]["pause"]["ready"] == [0])
    ana.close()
    bruno.close()
    server.stop()

    again = make_server(db)  # a restart: the game is rebuilt from its log and its notes
    with again.http() as http:
        seen = http.get(f"/api/games/{gid}", headers={"X-Seat-Token": bruno_token}).json()
    assert seen["version"] == version and seen["pause"] == {"hand": 1, "waiting": [1], "ready": [0]}
    assert seen["finished"]["hand_no"] == 1
    # every move is named by who made it, and the log replays to the same game
    bruno = again.ws(gid, bruno_token)
    update = bruno.until(lambda m: m.get("type") == "update")
    for event in update["events"]:
        ended.apply(parse_action(event["action"]))
        assert event["by"] == seen["seats"][event["seat"]]["name"]
        assert event["hand"] == 1
    assert ended.hand_results and ended.hand_no == 2
    bruno.send({"type": "next"})
    moved = bruno.until(lambda m: m.get("type") == "update" and m["state"]["pause"] is None)
    assert moved["state"]["finished"] is None and moved["state"]["obs"]["hand_no"] == 2
    # hand 2 is played: its moves are marked with their hand
    state = play_seats(again, gid, {1: bruno, 0: again.ws(gid, ana_token)}, random.Random(4),
                       until=lambda st: st["version"] > version + 8)
    last = again.ws(gid).until(lambda m: m.get("type") == "update")["events"]
    assert [e["hand"] for e in last if e["seq"] > version] == [2] * (len(last) - version)
    bruno.close()


def test_a_solo_game_left_at_a_hand_end_does_not_run_on(tmp_path: Path, make_server: Callable[..., Server]) -> None:
    """Defect 1 stays fixed with the pause: one player against computers, an idle limit of 0.2 s with takeover
    on, and the player does not click on: the computers do not deal on, the seat stays the player's."""
    server = make_server(f"sqlite:///{tmp_path / 'solo.db'}", idle_limit=0.2, auto_takeover=True)
    game = create(server, [{"kind": "me", "name": "Ana"}, BOT, BOT, BOT], seed="5")
    ws = server.ws(game["id"], game["tokens"]["0"])
    state = play_seats(server, game["id"], {0: ws}, random.Random(1))
    assert state["pause"] == {"hand": 1, "waiting": [0], "ready": []}
    assert state["idle"] is None  # no idle limit applies to a player alone against computers
    time.sleep(1.0)  # five idle limits: nothing may move meanwhile
    with server.http() as http:
        seen = http.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": game["tokens"]["0"]}).json()
    assert seen["version"] == state["version"] and seen["pause"] == state["pause"]
    assert seen["seats"][0]["kind"] == "human"
    ws.close()


def test_computer_seats_get_distinct_names(tmp_path: Path, make_server: Callable[..., Server]) -> None:
    """Defect 7: every computer seat has a name of its own (none the player's), the same for the same table."""
    server = make_server(f"sqlite:///{tmp_path / 'names.db'}")
    for k in range(6):
        game = create(server, [{"kind": "me", "name": "Clara"}, BOT, BOT, BOT], seed=str(k))
        with server.http() as http:
            seats = http.get(f"/api/games/{game['id']}").json()["seats"]
        names = [s["name"] for s in seats]
        assert names[0] == "Clara" and len(set(names)) == 4
        assert all(n in COMPUTER_NAMES and n != "Clara" for n in names[1:])


def test_takeover_keeps_who_made_each_move_and_leaves_a_note(tmp_path: Path,
                                                            make_server: Callable[..., Server]) -> None:
    """Defect 8: after Bruno's seat goes to the computer, his earlier moves stay his; the moves after are the
    computer's for him; notes say he left and came back; the names survive a restart."""
    db = f"sqlite:///{tmp_path / 'takeover.db'}"
    server = make_server(db, idle_limit=1.5, auto_takeover=True)
    game = create(server, [{"kind": "me", "name": "Ana"}, {"kind": "me", "name": "Bruno"}, BOT, BOT], seed="8")
    gid = game["id"]
    ana, bruno = server.ws(gid, game["tokens"]["0"]), server.ws(gid, game["tokens"]["1"])
    rng = random.Random(2)
    # both play until Bruno has made two moves; then he stops, and at his next turn the idle limit hands
    # his seat to the computer
    play_seats(server, gid, {0: ana, 1: bruno}, rng, discard_only=True,
               until=lambda st: st["version"] >= 4 and st["obs"]["actor"] == 0)
    state = play_seats(server, gid, {0: ana}, rng, discard_only=True,
                       until=lambda st: any(n["kind"] == "left" for n in st["notes"]))
    note = next(n for n in state["notes"] if n["kind"] == "left")
    assert note["seat"] == 1 and note["text"] == "Bruno"
    play_seats(server, gid, {0: ana}, rng, discard_only=True,
               until=lambda st: st["version"] > note["version"] + 4)
    bruno.send({"type": "reclaim"})
    back = bruno.until(lambda m: m.get("type") == "update" and any(n["kind"] == "back" for n in m["state"]["notes"]))
    assert [n["kind"] for n in back["state"]["notes"]] == ["left", "back"]
    ana.close()
    bruno.close()
    server.stop()
    again = make_server(db)
    watcher = again.ws(gid)
    events = watcher.until(lambda m: m.get("type") == "update")["events"]
    back_at = back["state"]["notes"][1]["version"]
    bruno_moves = [e for e in events if e["seat"] == 1]
    assert [e["by"] for e in bruno_moves if e["seq"] <= note["version"]] == ["Bruno", "Bruno"]
    taken = [e["by"] for e in bruno_moves if note["version"] < e["seq"] <= back_at]
    assert taken and set(taken) == {"Computer for Bruno"}
    watcher.close()


def test_rematch_gives_a_new_game_with_the_same_seats(tmp_path: Path, make_server: Callable[..., Server]) -> None:
    """At a game's end a player starts a new game with the same seats; every player's token works there,
    and asking again gives the same game. A running game refuses."""
    server = make_server(f"sqlite:///{tmp_path / 'rematch.db'}")
    game = create(server, [{"kind": "me", "name": "Ana"}, BOT], seed="4", rules={"target_score": 1})
    gid, token = game["id"], game["tokens"]["0"]
    with server.http() as http:
        early = http.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": token})
        assert early.status_code == 400 and early.json()["code"] == "not-over"
    ws = server.ws(gid, token)
    rng = random.Random(5)
    state = play_seats(server, gid, {0: ws}, rng)
    while state["obs"]["winner"] is None:  # a tie at the target plays on
        ws.send({"type": "next"})
        state = play_seats(server, gid, {0: ws}, rng, until=lambda st: not st["pause"])
        state = play_seats(server, gid, {0: ws}, rng)
    with server.http() as http:
        assert http.post(f"/api/games/{gid}/rematch").json()["code"] == "not-seated"
        first = http.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": token}).json()
        second = http.post(f"/api/games/{gid}/rematch", headers={"X-Seat-Token": token}).json()
        assert first["id"] == second["id"] != gid
        new = http.get(f"/api/games/{first['id']}", headers={"X-Seat-Token": token}).json()
        old = http.get(f"/api/games/{gid}").json()
    assert new["seat"] == 0 and new["version"] == 0 and new["obs"]["hand_no"] == 1
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    assert old["rematch"] == first["id"]
    ws.close()


def test_at_a_table_of_players_a_hand_end_waits_only_up_to_the_idle_limit(tmp_path: Path,
                                                                         make_server: Callable[..., Server]) -> None:
    """Two players: Ana clicks on, Bruno (his tab closed) does not; with auto-takeover the idle limit counts
    him ready, so the others are not held for good; the countdown names him while it runs."""
    server = make_server(f"sqlite:///{tmp_path / 'idle.db'}", idle_limit=1.5, auto_takeover=True)
    game = create(server, [{"kind": "me", "name": "Ana"}, {"kind": "me", "name": "Bruno"}, BOT, BOT], seed="5")
    gid = game["id"]
    ana, bruno = server.ws(gid, game["tokens"]["0"]), server.ws(gid, game["tokens"]["1"])
    state = play_seats(server, gid, {0: ana, 1: bruno}, random.Random(3))
    assert state["pause"] == {"hand": 1, "waiting": [0, 1], "ready": []}
    assert state["idle"]["seats"] == [0, 1] and state["idle"]["hand_end"] is True
    bruno.close()
    ana.send({"type": "next"})
    waiting = ana.until(lambda m: m.get("type") == "update" and m["state"]["pause"] is not None
                        and m["state"]["pause"]["ready"] == [0])
    assert waiting["state"]["idle"]["seats"] == [1]
    on = ana.until(lambda m: m.get("type") == "update" and m["state"]["pause"] is None)
    assert on["state"]["obs"]["hand_no"] == 2 and on["state"]["finished"] is None
    ana.close()
