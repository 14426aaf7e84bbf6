"""The pages of issue 19 part C over SQLite and PostgreSQL: a browser's game history, the rules page rendered
from Markdown, the favicon, and the seats' names in the web app's records."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from web_helpers import Server

from canasta.notation import format_action
from canasta.players import get_player
from canasta.record import parse_record, replay_command, replay_record, seat_names
from canasta.web.service import GameService

ME, BOT = {"kind": "me"}, {"kind": "computer", "level": "basic"}


def create(server: Server, seats: list[dict[str, Any]], seed: str, **kw: Any) -> dict[str, Any]:
    with server.http() as http:
        r = http.post("/api/games", json={"players": len(seats), "seed": seed, "seats": seats, **kw})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def finish(server: Server, game_id: str) -> Any:
    """Play the game to its end through the server's own service (every seat by the basic player; no client is
    connected, so the server's loop does not move the computers meanwhile). Returns the live game."""
    service: GameService = server.app.state.service
    live = service.get(game_id)
    players = [get_player("basic", seed=seat) for seat in range(live.players)]
    while not live.game.is_over:
        seat = live.game.actor
        action = players[seat].choose(live.game.observation(seat), live.game.legal_actions())
        service.submit(live, seat, format_action(action), live.version)
    return live


def history(server: Server, seats: list[dict[str, str]]) -> dict[str, Any]:
    with server.http() as http:
        r = http.post("/api/history", json={"seats": seats})
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def test_history_shows_a_browser_its_own_games_only(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    mine = create(server, [{"kind": "me", "name": "Ana"}, BOT], seed="4", rules={"target_score": 50})
    running = create(server, [ME, BOT], seed="5")
    theirs = create(server, [{"kind": "me", "name": "Bea"}, BOT], seed="6", rules={"target_score": 50})
    live = finish(server, mine["id"])
    finish(server, theirs["id"])
    token = mine["tokens"]["0"]
    out = history(server, [
        {"game": mine["id"], "token": token},
        {"game": running["id"], "token": running["tokens"]["0"]},
        {"game": theirs["id"], "token": token},  # a token of another game: proves nothing about this one
        {"game": "no-such-game", "token": token},
    ])
    assert [g["id"] for g in out["games"]] == [mine["id"]]
    assert [g["id"] for g in out["running"]] == [running["id"]]
    game = out["games"][0]
    side = live.game.side_of(0)
    assert game["scores"] == live.game.scores and game["winner"] == live.game.winner
    assert game["result"] == ("won" if live.game.winner == side else "lost")
    assert game["margin"] == live.game.scores[side] - live.game.scores[1 - side]
    computer = live.seats[1].name  # a computer's own name (issue 19, defect 7)
    assert computer and [s["name"] for s in game["seats"]] == ["Ana", computer] and game["seat"] == 0
    assert game["hands"] == len(live.game.hand_results) and game["record"] == f"/replay?game={mine['id']}"
    assert out["stats"] == [{"variant": "classic", "title": "Classic Canasta", "games": 1,
                             "wins": int(game["result"] == "won"), "losses": int(game["result"] == "lost"),
                             "ties": 0, "average_margin": float(game["margin"])}]
    assert "Bea" not in str(out)
    # the record the page links to is the one anyone may have once the game is over, and it names the seats
    with server.http() as http:
        record = http.get(f"/api/games/{mine['id']}/record").text
        frames = http.post("/api/replay", json={"record": record}).json()
    assert seat_names(parse_record(record), 2) == ["Ana", computer]
    assert frames["names"] == ["Ana", computer]
    # no tokens, or a wrong one: nothing
    assert history(server, []) == {"games": [], "running": [], "stats": []}
    assert history(server, [{"game": mine["id"], "token": "x" * 32}])["games"] == []


def test_history_statistics_sum_over_games(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    made = [create(server, [ME, BOT], seed=str(seed), rules={"target_score": 50}) for seed in (7, 8, 9)]
    lives = [finish(server, g["id"]) for g in made]
    out = history(server, [{"game": g["id"], "token": g["tokens"]["0"]} for g in made])
    margins = [live.game.scores[0] - live.game.scores[1] for live in lives]
    wins = sum(live.game.winner == 0 for live in lives)
    (stats,) = out["stats"]
    assert (stats["games"], stats["wins"], stats["losses"]) == (3, wins, 3 - wins)
    assert stats["average_margin"] == round(sum(margins) / 3, 1)


def test_history_refuses_malformed_requests(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    with server.http() as http:
        assert http.post("/api/history", json={}).status_code == 400
        assert http.post("/api/history", json={"seats": [{"game": "a"}]}).status_code == 400
        too_many = [{"game": "a", "token": "b"}] * 201
        assert http.post("/api/history", json={"seats": too_many}).status_code == 400
        # found by the schema fuzz on PostgreSQL: a NUL byte in a game id was a 500 from the database
        for game in ("\x00", "a\x00b", "", "a b", "../x"):
            assert http.post("/api/history", json={"seats": [{"game": game, "token": "t"}]}).status_code == 400
        assert http.get("/history").status_code == 200


def test_rules_page_is_markdown_rendered_as_html_without_raw_html(db_url: str,
                                                                   make_server: Callable[..., Server]) -> None:
    from canasta.web.rules_page import render_markdown

    server = make_server(db_url)
    with server.http() as http:
        page = http.get("/rules/american").text
    assert "<pre class='rules'>" not in page and "**" not in page
    assert re.search(r"<h2 id=\"not-implemented-yet\">", page)  # the page links to it: '(#not-implemented-yet)'
    assert '<a href="#not-implemented-yet">' in page and '<table tabindex="0">' in page and "<li>" in page
    html = render_markdown("<script>alert(1)</script> <b>x</b>\n\n[a](javascript:alert(1)) [b](cuban.md#cards) "
                           "[c](../architecture.md) [d](https://example.org/)", {"classic", "cuban"})
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>" not in html
    assert "javascript:" not in html.replace("[a](javascript:alert(1))", "")  # left as text, never an address
    assert '<a href="/rules/cuban#cards">b</a>' in html and "<span>c</span>" in html
    assert '<a href="https://example.org/">d</a>' in html


def test_favicon_is_served(db_url: str, make_server: Callable[..., Server]) -> None:
    server = make_server(db_url)
    with server.http() as http:
        icon = http.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg")


def test_old_records_without_names_still_replay_and_named_ones_say_who() -> None:
    """Backward compatibility: the golden records (no Names tag) replay as before; a named record's summary
    names the seats; a malformed Names tag is refused with its line."""
    from pathlib import Path

    import pytest

    from canasta.engine.game import Game
    from canasta.errors import NotationError
    from canasta.record import export_record

    for path in sorted((Path(__file__).parents[1] / "data").glob("*.txt")):
        text = path.read_text()
        assert "[Names" not in text
        assert "seats:" not in replay_command(text)
    game = Game("classic", 2, 6, {"target_score": 50})
    bots = [get_player("basic", seed=s) for s in range(2)]
    while not game.is_over:
        game.apply(bots[game.actor].choose(game.observation(game.actor), game.legal_actions()))
    named = export_record(game, names=["Ana \"the ace\"", ""])
    assert replay_record(named).scores == game.scores
    assert "seats: seat 0 Ana \"the ace\", seat 1 (no name)" in replay_command(named)
    broken = named.replace('[Names "["Ana \\"the ace\\"", ""]"]', '[Names "Ana"]')
    assert broken != named
    with pytest.raises(NotationError, match="Names tag"):
        replay_command(broken)
    with pytest.raises(NotationError, match="one name per seat"):
        export_record(game, names=["Ana"])
