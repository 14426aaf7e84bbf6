"""Browser tests of the flow of a hand and of who is who at the table (issue 19, defects 2, 7 and 8).

The page is the real one against the real server; the player's moves are made over the seat's own
WebSocket by the test (random legal moves: quick), the computers play as they do for anyone, and the
page shows what a player sees. Screenshots: ``CANASTA_SCREENSHOTS=1`` rewrites docs/screenshots/.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flow_helpers import BOT, create, play_seats
from table_stage import WAIT
from web_helpers import Server

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

from test_web_accessibility import serious_violations  # noqa: E402  (after the skip: it needs Chromium too)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
FAST = (1e6, 1e6)  # no flood limit: the test's own moves come quickly


def shoot(page: Any, name: str) -> None:
    """With CANASTA_SCREENSHOTS=1, (re)write docs/screenshots/<name>.png (the viewport: what a player sees)."""
    if os.environ.get("CANASTA_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def table_page(browser: Any, server: Server, game_id: str, seat: int | None = None, token: str | None = None,
               viewport: dict[str, int] = DESKTOP) -> Any:
    """The table page in a context of its own: seated (the seat's token in storage) or a spectator."""
    phone = viewport["width"] < 500
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if token is not None:
        auth = json.dumps({"seat": seat, "token": token})
        page.add_init_script(f"localStorage.setItem({json.dumps('canasta.seat.' + game_id)}, {json.dumps(auth)})")
    page.goto(f"{server.base}/table/{game_id}")
    page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)
    return page


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) >= {version}", timeout=WAIT)


def log_lines(page: Any) -> list[dict[str, Any]]:
    """The log as shown: each line's class, move number (moves only) and text."""
    lines: list[dict[str, Any]] = page.evaluate(
        "[...document.querySelectorAll('#log li')].map(li => ({cls: li.className, seq: li.dataset.seq ? Number(li.dataset.seq) : null,"
        " text: li.textContent}))")
    return lines


# ---------------------------------------------------------------- defect 2
def test_a_hand_ends_on_the_finished_table_until_the_player_clicks_on(browser: Any, tmp_path: Path,
                                                                      make_server: Any) -> None:
    """The end of a hand is seen: the finished table with a results panel (the engine's scoring item by item per
    side, and the running total), the log marked between hands; nothing moves until the player clicks on."""
    server = make_server(f"sqlite:///{tmp_path / 'flow.db'}", rate_limit=FAST)
    game = create(server, [{"kind": "me", "name": "Ana"}, BOT, BOT, BOT], seed="5")
    gid, token = game["id"], game["tokens"]["0"]
    page = table_page(browser, server, gid, 0, token)
    ws = server.ws(gid, token)
    state = play_seats(server, gid, {0: ws}, random.Random(1), until=lambda st: bool(st["obs"]["hand_results"]))
    result = state["obs"]["hand_results"][0]
    wait_version(page, state["version"])
    # a panel beside the table, not a modal over it: the finished table stays in sight
    page.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
    assert page.evaluate("!document.getElementById('sheet').matches(':modal')")
    pause, finished = state.get("pause"), state.get("finished")
    assert pause == {"hand": 1, "waiting": [0], "ready": []}
    sheet = page.inner_text("#sheet")
    assert "End of hand 1" in sheet and "Still to click on: Ana (you)." in sheet
    rows = page.evaluate("[...document.querySelectorAll('#sheet .sheet-table tbody tr')]"
                         ".map(r => [...r.cells].map(c => c.textContent))")
    items = {k for side in result["sides"] for k in side["items"]}
    assert len(rows) == len(items) + 2  # one row per item of the engine's scoring, the hand, the game
    assert rows[-2] == ["This hand", *[str(s["total"]) for s in result["sides"]]]
    assert rows[-1] == ["Game", *[str(t) for t in result["totals"]]]
    # the table shows hand 1 as it ended (the engine has already dealt hand 2), and no move is offered
    assert page.evaluate("document.body.dataset.handNo") == "1" and state["obs"]["hand_no"] == 2
    shown_melds = page.locator("#melds-us .meld, #melds-them .meld").count()
    assert shown_melds == sum(len(side) for side in finished["melds"])
    assert page.locator("#actions button").count() == 0
    markers = [line["text"] for line in log_lines(page) if line["cls"] == "log-hand"]
    assert markers == ["Hand 1", "Hand 1 is over"]
    # nobody plays on while the player looks (with computers that play at once)
    page.wait_for_timeout(1500)
    with server.http() as http:
        seen = http.get(f"/api/games/{gid}").json()
    assert seen["version"] == state["version"] and seen["pause"] == pause
    assert page.evaluate("document.body.dataset.version") == str(state["version"])
    shoot(page, "hand-end")
    assert serious_violations(page) == []
    phone = table_page(browser, server, gid, 0, token, PHONE)
    phone.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "hand-end-phone")
    assert serious_violations(phone) == []
    # a spectator sees the finished table and who is still to click on, with no button of their own
    watcher = table_page(browser, server, gid)
    watcher.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
    assert "Still to click on: Ana." in watcher.inner_text("#sheet") and not watcher.locator("#sheet-close").is_visible()
    assert watcher.evaluate("document.body.dataset.handNo") == "1"
    # the click on: the next deal is shown and played, its moves under their own marker
    page.click("#sheet-close")
    page.wait_for_function("document.body.dataset.handNo === '2'", timeout=WAIT)
    page.wait_for_selector("#sheet", state="hidden", timeout=WAIT)
    phone.wait_for_selector("#sheet", state="hidden", timeout=WAIT)  # the other tab of the seat follows
    watcher.wait_for_selector("#sheet", state="hidden", timeout=WAIT)
    after = play_seats(server, gid, {0: ws}, random.Random(2), until=lambda st: st["version"] > state["version"] + 3)
    wait_version(page, after["version"])
    markers = [line["text"] for line in log_lines(page) if line["cls"] == "log-hand"]
    assert markers == ["Hand 1", "Hand 2"]
    assert page.errors == [] and phone.errors == [] and watcher.errors == []
    ws.close()


# ---------------------------------------------------------------- defect 7
def test_every_seat_has_a_name_a_number_and_a_place(browser: Any, tmp_path: Path, make_server: Any) -> None:
    """Computers have names of their own; each seat shows its name and number at a fixed place (you at the
    bottom, partner opposite, the next to play on your left); the log, the dealer and a spectator use them."""
    server = make_server(f"sqlite:///{tmp_path / 'names.db'}", rate_limit=FAST)
    game = create(server, [{"kind": "me", "name": "Ana"}, BOT, BOT, BOT], seed="9")
    gid, token = game["id"], game["tokens"]["0"]
    page = table_page(browser, server, gid, 0, token)
    watcher = table_page(browser, server, gid)
    ws = server.ws(gid, token)
    state = play_seats(server, gid, {0: ws}, random.Random(3), discard_only=True,
                       until=lambda st: st["version"] >= 10)
    names = [s["name"] for s in state["seats"]]
    for p in (page, watcher):
        wait_version(p, state["version"])
    # places: the next seat to play sits on the left, the partner opposite
    for where, seat in (("bottom", 0), ("left", 1), ("top", 2), ("right", 3)):
        label = page.inner_text(f"#seat-{where} .seat-label")
        assert names[seat] in label and f"seat {seat + 1}" in label, label
        assert ("(you)" in label) == (seat == 0) and ("(computer)" in label) == (seat != 0)
        # a spectator sees seat 1 at the bottom and the same names (nobody is "you")
        seen = watcher.inner_text(f"#seat-{where} .seat-label")
        assert names[seat] in seen and f"seat {seat + 1}" in seen and "(you)" not in seen
    assert names[0] == "Ana" and len(set(names)) == 4 and not any("Computer" in n for n in names)
    dealer = state["obs"]["dealer"]
    where = ("bottom", "left", "top", "right")[dealer]
    assert page.locator(".dealer-mark").count() == 1 and page.locator(f"#seat-{where} .dealer-mark").count() == 1
    assert f"dealer {names[dealer]}" in page.inner_text("#table-info")
    # every move in the log is named by who made it
    events = server.ws(gid).until(lambda m: m.get("type") == "update")["events"]
    seat_of = {e["seq"]: e["seat"] for e in events}
    moves = [line for line in log_lines(page) if line["seq"] is not None]
    assert len(moves) == len(events)
    for line in moves:
        seat = seat_of[line["seq"]]
        assert line["text"].startswith("Ana (you) " if seat == 0 else f"{names[seat]} "), line
    shoot(page, "seat-names")
    assert page.errors == [] and watcher.errors == []
    ws.close()


# ---------------------------------------------------------------- defect 8
def test_a_takeover_keeps_the_log_and_says_who_left(browser: Any, tmp_path: Path, make_server: Any) -> None:
    """Bruno stops playing and the computer takes his seat: on Ana's page his earlier moves stay his, the
    computer's moves for him say so, and a notice says who left and who plays the seat now (and his return)."""
    server = make_server(f"sqlite:///{tmp_path / 'takeover.db'}", rate_limit=FAST, idle_limit=3.0,
                         auto_takeover=True)
    game = create(server, [{"kind": "me", "name": "Ana"}, {"kind": "me", "name": "Bruno"}, BOT, BOT], seed="8")
    gid = game["id"]
    ana, bruno = server.ws(gid, game["tokens"]["0"]), server.ws(gid, game["tokens"]["1"])
    page = table_page(browser, server, gid, 0, game["tokens"]["0"])
    rng = random.Random(2)
    play_seats(server, gid, {0: ana, 1: bruno}, rng, discard_only=True,
               until=lambda st: st["version"] >= 4 and st["obs"]["actor"] == 0)
    # Bruno's tab is gone: Ana's page sees him offline, and at his turn a countdown runs at his seat
    bruno.close()
    page.wait_for_function("document.querySelector('#seat-left .presence')?.textContent === 'offline'", timeout=WAIT)
    state = play_seats(server, gid, {0: ana}, rng, discard_only=True,
                       until=lambda st: st["obs"]["actor"] == 1 or st["seats"][1]["kind"] == "computer")
    wait_version(page, state["version"])
    page.wait_for_function(r"/^\d:\d\d left \(then the computer plays\)$/.test("
                           "document.querySelector('#seat-left .countdown')?.textContent || '')", timeout=WAIT)
    # then the idle limit hands his seat to the computer
    state = play_seats(server, gid, {0: ana}, rng, discard_only=True,
                       until=lambda st: st["seats"][1]["kind"] == "computer")
    left_at = next((n["version"] for n in state.get("notes", []) if n["kind"] == "left"), state["version"])
    state = play_seats(server, gid, {0: ana}, rng, discard_only=True, until=lambda st: st["version"] >= left_at + 6)
    wait_version(page, state["version"])
    lines = log_lines(page)
    events = server.ws(gid).until(lambda m: m.get("type") == "update")["events"]
    bruno_seqs = {e["seq"] for e in events if e["seat"] == 1}
    before = [line["text"] for line in lines if line["seq"] in bruno_seqs and line["seq"] <= left_at]
    after = [line["text"] for line in lines if line["seq"] in bruno_seqs and line["seq"] > left_at]
    assert len(before) == 2 and all(t.startswith("Bruno ") and "computer" not in t.lower() for t in before), before
    assert after and all(t.startswith("Computer for Bruno ") for t in after), after
    notice = "Bruno left the table: the computer plays seat 2 now."
    page.wait_for_function(f"document.getElementById('notice').textContent.includes({json.dumps(notice)})",
                           timeout=WAIT)
    lines = log_lines(page)
    assert [line["text"] for line in lines if line["cls"] == "log-note"] == [notice]
    # the note sits in the log between the moves it came between
    texts = [line["text"] for line in lines]
    note_at = texts.index(notice)
    assert all(line["seq"] is None or line["seq"] <= left_at for line in lines[:note_at])
    # Bruno comes back and takes his seat again
    back = server.ws(gid, game["tokens"]["1"])
    back.send({"type": "reclaim"})
    again = "Bruno is back and plays seat 2 again."
    page.wait_for_function(f"[...document.querySelectorAll('#log li.log-note')].some(li => li.textContent === "
                           f"{json.dumps(again)})", timeout=WAIT)
    assert page.errors == []
    back.close()
    ana.close()


# ---------------------------------------------------------------- rematch
def test_a_new_game_with_the_same_seats_at_the_end(browser: Any, tmp_path: Path, make_server: Any) -> None:
    """At the game's end the panel offers a new game with the same seats: the page moves to it, seated."""
    server = make_server(f"sqlite:///{tmp_path / 'rematch.db'}", rate_limit=FAST)
    game = create(server, [{"kind": "me", "name": "Ana"}, BOT], seed="4", rules={"target_score": 1})
    gid, token = game["id"], game["tokens"]["0"]
    ws = server.ws(gid, token)
    rng = random.Random(5)
    state = play_seats(server, gid, {0: ws}, rng)
    while state["obs"]["winner"] is None:  # a tie at the target plays on
        ws.send({"type": "next"})
        state = play_seats(server, gid, {0: ws}, rng, until=lambda st: not st["pause"])
        state = play_seats(server, gid, {0: ws}, rng)
    page = table_page(browser, server, gid, 0, token)
    page.wait_for_selector('#sheet[open][data-mode="game-over"]', timeout=WAIT)
    assert f"Game over: {state['seats'][state['obs']['winner']]['name']}" in page.inner_text("#sheet")
    assert page.locator("#sheet-close").inner_text() == "Close"
    page.click("#rematch-btn")
    page.wait_for_function(f"location.pathname !== '/table/{gid}' && document.body.dataset.version === '0'",
                           timeout=WAIT)
    label = page.inner_text("#seat-bottom .seat-label")
    assert "Ana (you)" in label and "seat 1" in label
    assert state["seats"][1]["name"] in page.inner_text("#seat-top .seat-label")
    assert page.errors == []
    ws.close()
