"""The pages of issue 19 part C in Chromium: the history page, the scorepad for every variant family (Hand and
Foot with 6 and 8 players, penalties), the replay viewer with the seats' names, the rules page.

With CANASTA_SCREENSHOTS=1 the tests (re)write docs/screenshots/{history,scorepad-classic,scorepad-hand-and-foot,
replay-named,rules}{,-phone}.png (test_web_browser.py writes scorepad.png and replay.png).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_stage import WAIT
from test_web_accessibility import ARGS, CHROMIUM, DESKTOP, PHONE, fill_side, new_page, playwright_api
from web_helpers import Server

from canasta.notation import format_action
from canasta.players import get_player
from canasta.scorekeeper import score_input

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path, make_server: Any) -> Server:
    made: Server = make_server(f"sqlite:///{tmp_path / 'pages.db'}", rate_limit=(1e6, 1e6))
    return made


def shot(page: Any, name: str, *, full: bool = False) -> None:
    if os.environ.get("CANASTA_SCREENSHOTS"):
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def finish(on: Server, game_id: str) -> Any:
    """Play a game to its end through the server's service (no client connected meanwhile)."""
    service = on.app.state.service
    live = service.get(game_id)
    players = [get_player("basic", seed=seat) for seat in range(live.players)]
    while not live.game.is_over:
        seat = live.game.actor
        action = players[seat].choose(live.game.observation(seat), live.game.legal_actions())
        service.submit(live, seat, format_action(action), live.version)
    return live


def create(on: Server, body: dict[str, Any]) -> dict[str, Any]:
    with on.http() as http:
        r = http.post("/api/games", json=body)
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_history_page_lists_this_browsers_games_and_opens_their_records(browser: Any, server: Server,
                                                                         viewport: dict[str, int]) -> None:
    """A browser's finished games with results and statistics, a link to the record in the replay viewer (names
    shown there, seats from 1); another browser's games never appear."""
    page = new_page(browser, viewport)
    seats = [{"kind": "me", "name": "Ana"}, {"kind": "computer", "name": "Bruno"}, {"kind": "computer", "name": "Carla"},
             {"kind": "computer", "name": "Dario"}]
    games = [create(server, {"players": 4, "seed": str(seed), "rules": {"target_score": 60}, "seats": seats})
             for seed in (3, 4)]
    samba = create(server, {"variant": "samba", "players": 4, "seed": "5", "rules": {"target_score": 60},
                            "seats": seats})
    other = create(server, {"players": 2, "seed": "6", "rules": {"target_score": 50},
                            "seats": [{"kind": "me", "name": "Zelda"}, {"kind": "computer"}]})
    lives = [finish(server, g["id"]) for g in (*games, samba, other)]
    running = create(server, {"players": 2, "seed": "7", "seats": [{"kind": "me"}, {"kind": "computer"}]})
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert page.get_attribute('a[href="/history"]', "href") == "/history"  # linked from the start page
    held = {g["id"]: {"seat": 0, "token": g["tokens"]["0"]} for g in (*games, samba, running)}
    page.evaluate("held => { for (const [id, seat] of Object.entries(held)) "
                  "localStorage.setItem(`canasta.seat.${id}`, JSON.stringify(seat)); }", held)
    page.goto(server.base + "/history")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    rows = page.locator("#games tr[data-game]")
    assert rows.count() == 3 and page.locator(f'#games tr[data-game="{other["id"]}"]').count() == 0
    assert "Zelda" not in page.inner_text("body")
    assert page.locator(f'#running a[href="/table/{running["id"]}"]').count() == 1
    for game, live in zip((*games, samba), lives, strict=False):
        row = page.locator(f'#games tr[data-game="{game["id"]}"]')
        expected = "won" if live.game.winner == live.game.side_of(0) else "lost"
        assert row.locator("[data-result]").get_attribute("data-result") == expected
        text = row.inner_text()
        assert "Ana (you)" in text and "Bruno" in text and str(live.game.scores[0]) in text
    classic_wins = sum(live.game.winner == 0 for live in lives[:2])
    assert page.inner_text('#stats tr[data-variant="classic"] [data-wins]') == str(classic_wins)
    margins = [live.game.scores[0] - live.game.scores[1] for live in lives[:2]]
    shown = float(page.inner_text('#stats tr[data-variant="classic"] [data-margin]'))
    assert shown == round(sum(margins) / 2, 1)
    shot(page, "history" if viewport is DESKTOP else "history-phone", full=True)
    # the record opens in the replay viewer, with the seats' names
    page.locator(f'#games tr[data-game="{games[0]["id"]}"] a').click()
    page.wait_for_selector("#viewer:not([hidden])", timeout=WAIT)
    for step in range(1, 12):  # on to a step with a pile (the first player may have taken it)
        page.click("#next")
        page.wait_for_selector(f"body[data-step='{step}']", timeout=WAIT)
        if page.locator("#frame .pile .card").count():
            break
    assert page.locator("#frame .pile .card").count() == 1  # the pile is drawn as cards, its top face up
    frame = page.inner_text("#frame")
    assert "Seat 1 · Ana" in frame and "Seat 4 · Dario" in frame and "Side 1 (Ana & Carla)" in frame
    assert "Seat 0" not in frame
    shot(page, "replay-named" if viewport is DESKTOP else "replay-named-phone")
    # another browser (a fresh context holds no seats): nothing of Ana's
    stranger = new_page(browser, viewport)
    stranger.goto(server.base + "/history")
    stranger.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert stranger.locator("#games tr[data-game]").count() == 0 and "Ana" not in stranger.inner_text("body")
    stranger.context.close()
    page.context.close()


def test_replay_viewer_of_a_running_game_by_link_is_refused(browser: Any, server: Server) -> None:
    """/replay?game=<id> of a game still in play: the record is for its players only, so the viewer says so."""
    page = new_page(browser, DESKTOP)
    game = create(server, {"players": 2, "seed": "8", "seats": [{"kind": "me"}, {"kind": "computer"}]})
    page.goto(server.base + f"/replay?game={game['id']}")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert "players" in page.inner_text("#error") and page.locator("#viewer").is_hidden()
    page.context.close()


def sent_bodies(page: Any) -> list[dict[str, Any]]:
    bodies: list[dict[str, Any]] = []
    page.on("request", lambda r: bodies.append(json.loads(r.post_data)) if r.url.endswith("/api/score") else None)
    return bodies


@pytest.mark.parametrize(("players", "teams_of_three", "sides", "per_side"),
                         [(6, False, 3, 2), (6, True, 2, 3), (8, False, 4, 2)], ids=["6-three-teams", "6-teams-of-three", "8"])
def test_scorepad_hand_and_foot_with_six_and_eight_players(browser: Any, server: Server, players: int,
                                                            teams_of_three: bool, sides: int, per_side: int) -> None:
    """Hand and Foot with 6 players (three teams of two, or two teams of three under team_size 3) and 8 (four
    teams of two): a side per partnership, a hand field per player, and the game ends after the fourth hand
    ('The game ends after four hands have been played. The partnership with the highest score ... is the winner')."""
    page = new_page(browser, DESKTOP)
    bodies = sent_bodies(page)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#variant", "hand-and-foot")
    page.select_option("#players", str(players))
    if teams_of_three:
        page.check("#teams-of-three")
    teams = page.locator("[data-team]")
    assert teams.count() == sides
    assert teams.nth(0).locator('[data-f^="hand"]').count() == per_side
    for n in range(1, 5):
        for t in range(sides):
            fill_side(teams.nth(t), "K K K K" if t == 0 else "5 5 5", ["9"] * per_side)
        page.click("#score-btn")
        page.wait_for_function(f"document.querySelectorAll('#history tr[data-hand]').length === {n}", timeout=WAIT)
        assert page.inner_text("#pad-error") == ""
    assert bodies[-1]["game"]["hand"] == 4 and bodies[-1]["players"] == players
    assert bodies[-1]["rules"] == ({"team_size": 3} if teams_of_three else {})
    per_hand = [score_input(body)["teams"] for body in bodies]
    totals = [sum(hand[s]["total"] for hand in per_hand) for s in range(sides)]
    assert f"Team 1 wins: {' to '.join(map(str, totals))}" in page.inner_text("#winner")
    page.context.close()


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_scorepad_penalties_of_the_texts(browser: Any, server: Server, variant: str) -> None:
    """The texts' penalties reach the scorekeeper, which prices them from the variant's tables: red threes never
    laid down (Bicycle: 'Failure to declare receipt of a red three ... results in a 500 point penalty'; in Samba a
    red three typed in a hand), a failed go-out (Denexa: 'Not being able to go out after having asked "May I go
    out?": -100 points'), and other points deducted."""
    page = new_page(browser, DESKTOP)
    bodies = sent_bodies(page)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#variant", variant)
    page.select_option("#players", "4")
    teams = page.locator("[data-team]")
    held = "3h 9" if variant == "samba" else "9"
    melds = "4h 5h 6h" if variant == "samba" else "K K K"
    fill_side(teams.nth(0), melds, [held, "8"])
    fill_side(teams.nth(1), "Q Q Q", ["7", "6"])
    side = teams.nth(0)
    if variant != "samba":
        side.locator('[data-f="undeclared"]').fill("1")
    side.locator('[data-f="failed"]').fill("1")
    side.locator('[data-f="other"]').fill("50")
    page.click("#score-btn")
    page.wait_for_selector("#result table", timeout=WAIT)
    sent = bodies[-1]["teams"][0]
    assert sent["undeclared_red_threes"] == 1 and sent["failed_go_out"] == 1
    assert sent["penalties"] == {"other_penalties": -50}
    expected = score_input(bodies[-1])["teams"][0]
    assert expected["items"]["failed_go_out"] < 0 and expected["items"]["undeclared_red_threes"] < 0
    assert page.locator("#result [data-total]").first.inner_text() == str(expected["total"])
    result = page.inner_text("#result")
    assert "Failed go-out" in result and "Undeclared red threes" in result
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_rules_page_rendered(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    """The rules page: the docs page rendered to HTML on the server (headings, lists, tables; no raw Markdown),
    its table rules in words, and no horizontal overflow on a phone."""
    page = new_page(browser, viewport)
    page.goto(server.base + "/rules/classic")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert page.locator("#text h2").count() >= 1 and page.locator("#text li").count() >= 3
    assert "**" not in page.inner_text("#text") and page.locator("pre.rules").count() == 0
    words = page.eval_on_selector_all("#rules table th[scope=row]", "els => els.map(e => e.firstChild.textContent)")
    assert words and not any("_" in w for w in words), words[:3]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    shot(page, "rules" if viewport is DESKTOP else "rules-phone")
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize(("variant", "players"), [("classic", "4"), ("hand-and-foot", "8")])
def test_scorepad_fits_the_screen(browser: Any, server: Server, viewport: dict[str, int], variant: str,
                                  players: str) -> None:
    """The scorepad with a scored hand, Classic and Hand and Foot's four teams: nothing wider than the screen."""
    page = new_page(browser, viewport)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#variant", variant)
    page.select_option("#players", players)
    teams = page.locator("[data-team]")
    for n in range(2):
        for t in range(teams.count()):
            fill_side(teams.nth(t), "K K K K\n8 8 8" if t == n else "5 5 5", ["9", "7"])
        page.click("#score-btn")
        page.wait_for_function(f"document.querySelectorAll('#history tr[data-hand]').length === {n + 1}", timeout=WAIT)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    phone = "" if viewport is DESKTOP else "-phone"
    shot(page, f"scorepad-{variant}{phone}", full=True)
    page.context.close()


def test_scorepad_modern_american_special_hand_and_threes(browser: Any, server: Server) -> None:
    """Modern American's family: threes of both colours typed as cards, and a side going out with a special hand
    ('the team that went out scores only the amount shown below for the special hand', Terms 6), scored as the
    scorekeeper scores the very input the page sent."""
    page = new_page(browser, DESKTOP)
    bodies = sent_bodies(page)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#variant", "american")
    teams = page.locator("[data-team]")
    fill_side(teams.nth(0), "", ["", "9 8"])
    teams.nth(0).locator('[data-f="special"]').select_option("pairs")
    teams.nth(0).locator('input[name="went_out"]').check()
    fill_side(teams.nth(1), "Q Q Q\nK K K", ["7", "6 4"])
    teams.nth(1).locator('[data-f="threes-cards"]').fill("3h 3s")
    page.click("#score-btn")
    page.wait_for_selector("#result table", timeout=WAIT)
    sent = bodies[-1]["teams"]
    assert sent[0]["special_hand"] == "pairs" and sent[1]["threes"] == ["3h", "3s"]
    expected = score_input(bodies[-1])["teams"]
    assert expected[0]["items"] == {"special_hand": expected[0]["total"]} and expected[0]["total"] > 0
    shown = page.eval_on_selector_all("#result [data-total]", "els => els.map(e => Number(e.textContent))")
    assert shown == [t["total"] for t in expected]
    page.context.close()


def test_scorepad_edit_can_be_cancelled(browser: Any, server: Server) -> None:
    """Defect 13's edit, finished: an edit started by mistake is cancelled, leaving the hands as they were and a
    fresh form for the next hand."""
    page = new_page(browser, DESKTOP)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#players", "2")
    teams = page.locator("[data-team]")
    fill_side(teams.nth(0), "K K K", ["9"])
    fill_side(teams.nth(1), "5 5 5", ["4"])
    page.click("#score-btn")
    page.wait_for_selector("#history tr[data-hand]", timeout=WAIT)
    sheet = page.inner_text("#history")
    assert page.locator("#cancel-edit").is_hidden()
    page.click('[data-edit="0"]')
    assert page.inner_text("#score-btn") == "Save hand 1" and page.input_value('[data-team="0"] [data-f="melds"]')
    page.click("#cancel-edit")
    assert page.inner_text("#score-btn") == "Score this hand" and page.locator("#cancel-edit").is_hidden()
    assert page.input_value('[data-team="0"] [data-f="melds"]') == "" and page.inner_text("#history") == sheet
    page.context.close()


def test_scorepad_never_loses_a_game_without_asking(browser: Any, server: Server) -> None:
    """Issue 49, defect 5: changing Players, the variant or pressing New game asks before clearing the hands
    (declined: nothing changes); Edit puts back what was typed ("K K K", not suits the pad chose); a wrong
    'went out' is named in the page's words; a new game's page leaves out the old game's last result."""
    page = new_page(browser, DESKTOP)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#players", "2")
    teams = page.locator("[data-team]")
    fill_side(teams.nth(0), "K K K", ["9"])
    fill_side(teams.nth(1), "5 5 5", [""])  # an empty hand, but nobody went out: the scorekeeper refuses
    page.click("#score-btn")
    page.wait_for_function("document.getElementById('pad-error').textContent", timeout=WAIT)
    error = page.inner_text("#pad-error")
    assert "went_out" not in error and '"went out"' in error, error
    fill_side(teams.nth(1), "5 5 5", ["4"])
    page.click("#score-btn")
    page.wait_for_selector("#history tr[data-hand]", timeout=WAIT)
    sheet = page.inner_text("#history")
    asked: list[str] = []

    def decline(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", decline)
    page.select_option("#players", "4")
    assert page.input_value("#players") == "2" and page.inner_text("#history") == sheet
    page.click("#reset")
    page.select_option("#variant", "samba")
    assert page.input_value("#variant") == "classic" and page.inner_text("#history") == sheet
    assert len(asked) == 3 and all("cleared" in a for a in asked)
    page.remove_listener("dialog", decline)
    page.click('[data-edit="0"]')
    assert page.input_value('[data-team="0"] [data-f="melds"]') == "K K K"
    page.click("#cancel-edit")
    # a new game in Hand and Foot, accepted: no hand, and the old game's last result is gone
    page.once("dialog", lambda dialog: dialog.accept())
    page.select_option("#variant", "hand-and-foot")
    page.wait_for_function("document.getElementById('history').innerText.includes('No hands')", timeout=WAIT)
    assert page.inner_text("#result") == ""
    page.context.close()
