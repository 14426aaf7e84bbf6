"""Accessibility and phone layout of every page (issue 19, defects 11 and 12; issue 49), in Chromium.

axe-core (vendored, pinned: tests/web/fixtures/axe-core/README.md) is injected into each page and must
report no violation of any impact (issue 49; before it, none serious or critical): the start page, a table
in play, a hand's end, the scorepad, the replay viewer, the history and a rules page, at desktop and phone sizes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import HandEndStage, positions
from table_stage import WAIT, Stage, advance
from web_helpers import Server

from canasta.engine.game import Game

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

AXE = Path(__file__).resolve().parent / "fixtures" / "axe-core" / "axe.min.js"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path, make_server: Any) -> Server:
    server: Server = make_server(f"sqlite:///{tmp_path / 'a11y.db'}", rate_limit=(1e6, 1e6))
    return server


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    return violations(page, ("serious", "critical"))


def violations(page: Any, impacts: tuple[str, ...] = ("minor", "moderate", "serious", "critical")) -> list[str]:
    """axe-core's violations of the given impacts (by default: any) on the page as it is now, one line each."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    found = []
    for v in json.loads(result)["violations"]:
        if v["impact"] in impacts:
            targets = [" ".join(n["target"]) for n in v["nodes"]][:4]
            found.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return found


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    phone = viewport["width"] < 500
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    return context.new_page()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_start_scorepad_and_replay_pages(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    page = new_page(browser, viewport)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert violations(page) == []
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    assert violations(page) == []
    with server.http() as http:
        game = http.post("/api/games", json={"players": 2, "seed": "6", "rules": {"target_score": 50},
                                             "seats": [{"kind": "computer"}, {"kind": "computer"}]}).json()
        ws = server.ws(game["id"])
        ws.until(lambda m: m.get("type") == "update" and m["state"]["obs"]["winner"] is not None)
        ws.close()
        record = http.get(f"/api/games/{game['id']}/record").text
    page.goto(server.base + "/replay")
    page.fill("#text", record)
    page.click("#load")
    page.wait_for_selector("#viewer:not([hidden])", timeout=WAIT)
    page.click("#next")
    assert violations(page) == []
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_table_in_play(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    """A table with melds on it, the player to act with cards selected (buttons shown), and a finished canasta."""
    page = new_page(browser, viewport)
    game = Game("classic", 4, 11, {})
    assert advance(game, lambda g: not g.is_over and g.phase == "play" and g.hand_no == 1
                   and any(m["canasta"] for side in g.observation(0)["melds"] for m in side), seed=3)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    page.locator(".hand .card").first.click(position={"x": 8, "y": 30})
    assert violations(page) == []
    page.context.close()


def test_replay_viewer_buttons_seats_and_pile(browser: Any, server: Server) -> None:
    """Defect 14: first/last buttons say what they do in characters every font has; seats count from 1
    in a redacted record's move list too; the pile is drawn as a card."""
    page = new_page(browser, DESKTOP)
    with server.http() as http:
        done = http.post("/api/games", json={"players": 2, "seed": "6", "rules": {"target_score": 50},
                                             "seats": [{"kind": "computer"}, {"kind": "computer"}]}).json()
        ws = server.ws(done["id"])
        ws.until(lambda m: m.get("type") == "update" and m["state"]["obs"]["winner"] is not None)
        ws.close()
        record = http.get(f"/api/games/{done['id']}/record").text
        live = http.post("/api/games", json={"players": 2, "seed": "7",
                                             "seats": [{"kind": "me"}, {"kind": "computer"}]}).json()
        player = server.ws(live["id"], live["tokens"]["0"])
        legal = player.my_turn()["legal"]
        player.send({"type": "action", "action": legal[0], "version": player.version, "id": 1})
        player.until(lambda m: m.get("type") == "ack")
        player.close()
        redacted = http.get(f"/api/games/{live['id']}/record", headers={"X-Seat-Token": live["tokens"]["0"]}).text
    page.goto(server.base + "/replay")
    page.fill("#text", record)
    page.click("#load")
    page.wait_for_selector("#viewer:not([hidden])", timeout=WAIT)
    for button, word in (("#first", "First"), ("#prev", "Back"), ("#next", "Next"), ("#last", "Last")):
        assert word in page.inner_text(button)
        # every character of the label has a glyph: nothing outside Latin-1
        assert all(ord(ch) < 256 for ch in page.inner_text(button)), button
    page.click("#next")
    page.wait_for_selector("body[data-step='1']", timeout=WAIT)
    top = page.evaluate("document.querySelector('#frame .pile .card') && document.querySelector('#frame .pile .card').dataset.card")
    assert top, "the pile's top card is drawn"
    assert "Seat 1" in page.inner_text("#frame") and "Seat 0" not in page.inner_text("#frame")
    page.fill("#text", redacted)
    page.click("#load")
    page.wait_for_function("document.querySelector('#frame ol')", timeout=WAIT)
    moves = page.eval_on_selector_all("#frame ol li", "els => els.map(e => e.textContent)")
    assert moves and all(m.startswith(("Seat 1 ", "Seat 2 ")) for m in moves), moves[:3]  # in words (issue 49)
    page.context.close()


def staged_play(browser: Any, server: Server, viewport: dict[str, int], phase: str = "play") -> tuple[Any, Stage]:
    """A Classic table where the player is to act in ``phase``, the pile not empty."""
    page = new_page(browser, viewport)
    game = Game("classic", 4, 15, {})
    assert advance(game, lambda g: not g.is_over and g.phase == phase and g.hand_no == 1 and bool(g.pile)
                   and len(g.observation(g.actor)["hand"]) >= 8, seed=8)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    return page, stage


def test_keyboard_plays_a_turn_and_keeps_the_focus(browser: Any, server: Server) -> None:
    """Defect 11: Space on a card selects it and the focus stays on it (aria-pressed says so); Enter on the
    pile discards the selected card; Enter on the stock draws; the turn change is announced."""
    page, stage = staged_play(browser, server, DESKTOP, phase="draw")
    page.wait_for_function("document.getElementById('announce').textContent.includes('Your turn')", timeout=WAIT)
    page.focus("#stock")
    v = stage.version
    page.keyboard.press("Enter")
    stage.wait_version(v + 1)
    assert stage.sent[-1] == "draw"
    page.locator(".hand .card").nth(2).focus()
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.dataset.index") == "2"
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    page.keyboard.press("ArrowRight")  # on to the next card (the hand is one tab stop), select it, unselect it
    page.keyboard.press("Space")
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.dataset.index") == "3"
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "false"
    card = page.evaluate("document.querySelector('.hand .card[data-index=\"2\"]').dataset.card")
    page.focus("#pile")
    v = stage.version
    page.keyboard.press("Enter")
    stage.wait_version(v + 1)
    assert stage.sent[-1] == f"discard {card}" and not stage.refused
    # the next seat is to act: said in the live region
    page.wait_for_function("document.getElementById('announce').textContent.includes('to play')", timeout=WAIT)
    page.context.close()


def test_labels_only_on_elements_with_a_role_and_a_readable_frozen_caption(browser: Any, server: Server) -> None:
    """Defect 11: aria-label only where it is allowed (an element with a role, a landmark, a control);
    the 'frozen' caption has at least 4.5:1 contrast against its own background."""
    page, _ = staged_play(browser, server, DESKTOP)
    bare = page.evaluate("""() => [...document.querySelectorAll('[aria-label]')].filter((e) => {
        const tag = e.tagName.toLowerCase();
        return !e.getAttribute('role') && !['section', 'aside', 'nav', 'main', 'button', 'a', 'input', 'select',
          'textarea', 'svg', 'dialog', 'form'].includes(tag);
      }).map((e) => e.id || e.className)""")
    assert bare == []
    page.context.close()
    game = Game("classic", 4, 16, {})
    assert advance(game, lambda g: not g.is_over and g.frozen and bool(g.pile), seed=9)
    page = new_page(browser, DESKTOP)
    stage = Stage(page, game, 0)
    stage.open(server.base)
    ratio = page.evaluate("""() => {
      const el = [...document.querySelectorAll('#pile *')].find((e) => e.children.length === 0 && /frozen/.test(e.textContent));
      const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
      const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      let bg = null;
      for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
        if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(c)) { bg = rgb(c); break; } }
      if (!bg) bg = [0x2b, 0x8a, 0x4c];  // the felt's lightest green under a transparent caption
      const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg);
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""")
    assert ratio >= 4.5, ratio
    page.context.close()


def test_phone_layout(browser: Any, server: Server) -> None:
    """Defects 11 and 12 at 390x844: no horizontal overflow, side labels not cut, the invite link in sight
    without opening the panel, and 44 px targets for fingers (buttons, and each hand card's visible part)."""
    page = new_page(browser, PHONE)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    page.select_option('select[data-seat="2"]', "invite")
    page.fill("#seed", "5")
    page.click("#start-btn")
    page.wait_for_url("**/table/*", timeout=WAIT)
    page.wait_for_function("document.body.dataset.myTurn === 'true'", timeout=WAIT)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("input.invite-link").first.is_visible()
    cut = page.evaluate("""() => [...document.querySelectorAll('.seat-label strong')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth)
        .map((e) => e.textContent)""")
    assert cut == []
    small = page.evaluate("""() => [...document.querySelectorAll('button, .topbar a, #stock, #pile')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44).map(([name]) => name)""")
    assert small == []
    # a hand card's part not covered by the next card of its group
    strips = page.evaluate("""() => [...document.querySelectorAll('.hand .card')].map((e) => {
        const r = e.getBoundingClientRect(); const next = e.nextElementSibling;
        return Math.min(r.height, (next ? next.getBoundingClientRect().left : r.right) - r.left); })""")
    assert strips and min(strips) >= 44, strips
    page.context.close()


def fill_side(team: Any, melds: str, hands: list[str], threes: int | None = None) -> None:
    team.locator('[data-f="melds"]').fill(melds)
    for p, cards in enumerate(hands):
        team.locator(f'[data-f="hand{p}"]').fill(cards)
    if threes is not None:
        team.locator('[data-f="threes"]').fill(str(threes))


BIG = "K K K K K K K\nQ Q Q Q Q Q Q\nJ J J J J J J\n10 10 10 10 10 10 10"


def test_scorepad_game_to_the_target_with_undo_and_edit(browser: Any, server: Server) -> None:
    """Defect 13: a hand can be undone and edited, the same click does not add a hand twice, the winner is
    named at the target, and a count error never names a suit the user did not type."""
    page = new_page(browser, DESKTOP)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#players", "2")
    rows = page.locator("#history tr[data-hand]")

    def hand(melds: str, threes: int) -> None:
        teams = page.locator("[data-team]")
        fill_side(teams.nth(0), melds, [""], threes)
        teams.nth(0).locator('input[name="went_out"]').check()
        teams.nth(0).locator('[data-f="concealed"]').check()
        fill_side(teams.nth(1), "5 5 5", ["4 9"])
        n = rows.count()
        page.click("#score-btn")
        page.wait_for_function(f"document.querySelectorAll('#history tr[data-hand]').length === {n + 1}"
                               f" || document.getElementById('pad-error').textContent", timeout=WAIT)

    hand(BIG, 4)
    assert rows.count() == 1
    first = page.inner_text("#history")
    page.click("#score-btn")  # the form was cleared: the same hand is not added again
    page.wait_for_function("document.getElementById('pad-error').textContent", timeout=WAIT)
    assert rows.count() == 1
    page.click("#undo")
    assert rows.count() == 0
    hand(BIG, 4)
    assert page.inner_text("#history") == first
    # edit hand 1: two red threes fewer
    page.click('[data-edit="0"]')
    assert page.input_value('[data-team="0"] [data-f="melds"]').startswith("K")
    page.locator('[data-team="0"] [data-f="threes"]').fill("2")
    page.click("#score-btn")
    page.wait_for_function(f"document.getElementById('history').innerText !== {first!r}", timeout=WAIT)
    assert rows.count() == 1
    assert "wins" not in page.inner_text("#winner")
    hand(BIG, 4)
    assert rows.count() == 2
    assert "wins" in page.inner_text("#winner") and "target 5000" in page.inner_text("#winner")
    # a won game takes no more hands (issue 49, defect 5): a new game, asked first
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#reset")
    assert rows.count() == 0
    # nine kings: the message speaks of kings, never of a suit nobody typed
    teams = page.locator("[data-team]")
    fill_side(teams.nth(0), "K K K K K K K K K", [""], 0)
    fill_side(teams.nth(1), "5 5 5", ["4 9"])
    page.click("#score-btn")
    page.wait_for_function("document.getElementById('pad-error').textContent", timeout=WAIT)
    error = page.inner_text("#pad-error")
    assert "9 kings" in error and not any(f"K{s}" in error for s in "shdc"), error
    page.context.close()


@pytest.mark.parametrize(("variant", "first", "second", "expect"), [
    ("samba", {"melds": "4h 5h 6h 7h 8h 9h 10h\nKh Kd Ks Kc Kh 2c JK\nQs Js Ks", "hands": ["", "5c"], "threes": 2},
     {"melds": "9c 9d 9s 9h 9c 9d 9s\nAc Ad 2h", "hands": ["8c 8d", "3s"], "threes": 1}, "Sambas"),
    ("burraco", {"melds": "4h 5h 6h\n3s 4s 5s 6s 7s 8s 9s\nKd Kc JK", "hands": ["", "9c"]},
     {"melds": "Qh Qs Qd", "hands": ["2c", "Ah Ac"]}, "Clean burracos"),
])
def test_scorepad_scores_other_variants(browser: Any, server: Server, variant: str, first: dict[str, Any],
                                        second: dict[str, Any], expect: str) -> None:
    """Defect 13: the scorepad serves the variants the scorekeeper scores, with each one's own fields."""
    page = new_page(browser, DESKTOP)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#variant", variant)
    page.select_option("#players", "4")
    teams = page.locator("[data-team]")
    fill_side(teams.nth(0), first["melds"], first["hands"], first.get("threes"))
    fill_side(teams.nth(1), second["melds"], second["hands"], second.get("threes"))
    teams.nth(0).locator('input[name="went_out"]').check()
    page.click("#score-btn")
    page.wait_for_selector("#result table", timeout=WAIT)
    assert expect in page.inner_text("#result")
    assert page.locator("#history tr[data-hand]").count() == 1
    page.context.close()


def test_scorepad_mille_to_the_target_with_its_settlement(browser: Any, server: Server) -> None:
    """Defect 13 for Mille: the asterisks of every hand go into the game, so the winner and the skunk are named."""
    page = new_page(browser, DESKTOP)
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.select_option("#variant", "mille")
    for n in range(1, 5):  # 320 to 20 a hand: 1280 to 80 after four, past Mille's 1200
        teams = page.locator("[data-team]")
        fill_side(teams.nth(0), "K K K K K K K K", [""])
        teams.nth(0).locator('input[name="went_out"]').check()
        fill_side(teams.nth(1), "5 5 5", ["4 9"])
        page.click("#score-btn")
        page.wait_for_function(f"document.querySelectorAll('#history tr[data-hand]').length === {n}", timeout=WAIT)
    winner = page.inner_text("#winner")
    assert "Player 1 wins: 1280 to 80" in winner and "kunk" in winner, winner
    page.context.close()


# ------------------------------------------------- issue 19 part C: history, scorepad families, replay, rules
SCOREPAD_FAMILIES = [("classic", "4"), ("samba", "4"), ("burraco", "4"), ("mille", "2"), ("american", "4"),
                     ("hand-and-foot", "8")]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_history_scorepad_families_replay_and_rules(browser: Any, server: Server, viewport: dict[str, int]) -> None:
    """No serious or critical violation on the history page (with games in it), the scorepad of every variant
    family (with a scored hand), a named record in the replay viewer and a rules page."""
    page = new_page(browser, viewport)
    with server.http() as http:
        game = http.post("/api/games", json={"players": 2, "seed": "6", "rules": {"target_score": 50},
                                             "seats": [{"kind": "me", "name": "Ana"}, {"kind": "computer"}]}).json()
    live = server.app.state.service.get(game["id"])
    from canasta.notation import format_action
    from canasta.players import get_player

    bots = [get_player("basic", seed=s) for s in range(2)]
    while not live.game.is_over:
        seat = live.game.actor
        action = bots[seat].choose(live.game.observation(seat), live.game.legal_actions())
        server.app.state.service.submit(live, seat, format_action(action), live.version)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    page.evaluate("([id, token]) => localStorage.setItem(`canasta.seat.${id}`, JSON.stringify({seat: 0, token}))",
                  [game["id"], game["tokens"]["0"]])
    page.goto(server.base + "/history")
    page.wait_for_selector("#games tr[data-game]", timeout=WAIT)
    assert serious_violations(page) == []
    page.locator("#games tr[data-game] a").first.click()
    page.wait_for_selector("#viewer:not([hidden])", timeout=WAIT)
    page.click("#last")
    assert "Ana" in page.inner_text("#frame")
    assert serious_violations(page) == []
    page.goto(server.base + "/rules/samba")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert serious_violations(page) == []
    page.goto(server.base + "/scorepad")
    page.wait_for_selector("[data-team]", timeout=WAIT)
    page.on("dialog", lambda dialog: dialog.accept())  # a new game clears the hands: asked (issue 49), agreed
    for variant, players in SCOREPAD_FAMILIES:
        page.select_option("#variant", variant)
        page.select_option("#players", players)
        teams = page.locator("[data-team]")
        for t in range(teams.count()):
            fill_side(teams.nth(t), "Q Q Q" if variant != "burraco" else "Qh Qs Qd", ["9"] * teams.nth(t).locator('[data-f^="hand"]').count())
        page.click("#score-btn")
        page.wait_for_selector("#result table, #pad-error:not(:empty)", timeout=WAIT)
        assert page.inner_text("#pad-error") == "", (variant, page.inner_text("#pad-error"))
        found = serious_violations(page)
        assert found == [], (variant, found)
        page.click("#reset")
    page.context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_on_history_rules_and_the_hand_end(browser: Any, server: Server,
                                                             viewport: dict[str, int]) -> None:
    """Issue 49: zero violations of any impact, also on the history, a rules page and the results panel at a
    hand's end (it had an empty table header; the history two landmarks of one name)."""
    page = new_page(browser, viewport)
    page.goto(server.base + "/history")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert violations(page) == []
    page.goto(server.base + "/rules/classic")
    page.wait_for_selector("h1", timeout=WAIT)
    assert violations(page) == []
    page.context.close()
    page = new_page(browser, viewport)
    playing, ended = positions("classic")
    stage = HandEndStage(page, playing, playing.actor)
    stage.open(server.base)
    stage.game = ended
    stage.push()
    page.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
    assert violations(page) == []
    page.context.close()
