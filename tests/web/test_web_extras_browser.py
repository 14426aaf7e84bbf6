"""Browser tests of the table's extras (issue 19, part B), in Chromium: the taken pile waiting for an
initial meld (defect 6), the table chat and emotes, undo against computers, optional sound, and the
expert computer on the start page. With CANASTA_SCREENSHOTS=1 they (re)write docs/screenshots/.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_stage import WAIT, Stage, advance, seat_infos
from web_helpers import Server

from canasta.engine.game import Game
from canasta.notation import format_action
from canasta.variants import VARIANTS

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
AXE = Path(__file__).resolve().parent / "fixtures" / "axe-core" / "axe.min.js"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


def shoot(page: Any, name: str) -> None:
    """With CANASTA_SCREENSHOTS=1, (re)write docs/screenshots/<name>.png."""
    if os.environ.get("CANASTA_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def suffix(viewport: dict[str, int]) -> str:
    return "phone" if viewport["width"] < 500 else "desktop"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path, make_server: Any) -> Server:
    server: Server = make_server(f"sqlite:///{tmp_path / 'extras.db'}", rate_limit=(1e6, 1e6))
    return server


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Pages at a viewport, closed afterwards; any script error on them fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Any:
        phone = viewport["width"] < 500
        context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == []


def serious_violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => JSON.stringify(await axe.run(document))")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[' '.join(n['target']) for n in v['nodes']][:4]}"
            for v in json.loads(result)["violations"] if v["impact"] in ("serious", "critical")]


def solo_table(server: Server, page: Any, seed: str = "0", **body: Any) -> dict[str, Any]:
    """A table against three basic computers, opened in ``page`` as seat 1 (the start page's way)."""
    with server.http() as http:
        seats = [{"kind": "me", "name": "Ana"}] + [{"kind": "computer", "level": "basic"}] * 3
        game: dict[str, Any] = http.post("/api/games", json={"players": 4, "seed": seed, "seats": seats,
                                                             **body}).json()
    token = json.dumps({"seat": 0, "token": game["tokens"]["0"]})
    page.add_init_script(f"localStorage.setItem('canasta.seat.{game['id']}', {json.dumps(token)})")
    page.goto(server.base + game["table"])
    page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)
    return game


# ---------------------------------------------------------------- defect 6: the taken pile
def taken_below_the_minimum() -> Game:
    """Classic, seed 1: a seat took the pile before its side's initial meld was complete (cards set aside)."""
    game = Game("classic", 4, 1)
    assert advance(game, lambda g: bool(g.pile_aside) and len(g.pile_aside) >= 3 and g.phase == "play", seed=1)
    return game


@VIEWPORTS
def test_taken_pile_cards_wait_on_the_table_until_the_meld(new_page: Any, server: Server,
                                                           viewport: dict[str, int]) -> None:
    """Defect 6: the rest of a pile taken while the initial meld is short is shown beside the pile (the
    pile itself is empty), to the seat that took it and to the others, until the meld completes."""
    game = taken_below_the_minimum()
    taker = game.turn
    aside = game.observation(taker)["pile_taken_aside"]
    assert len(aside) >= 3 and game.observation(taker)["pile_size"] == 0
    page = new_page(viewport)
    stage = Stage(page, game, taker)
    stage.open(server.base)
    box = page.locator("#pile-aside")
    box.wait_for(state="visible", timeout=WAIT)
    assert page.locator("#pile-aside .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == aside
    assert "your initial meld" in page.locator("#pile-aside-caption").inner_text()
    assert f"{len(aside)} cards" in page.locator("#pile-aside-caption").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"table-taken-pile-{suffix(viewport)}")
    # the partner's view: the same cards, waiting for the taker's meld
    other = new_page(viewport)
    partner = (taker + 2) % 4
    Stage(other, game, partner).open(server.base)
    other.locator("#pile-aside").wait_for(state="visible", timeout=WAIT)
    assert other.locator("#pile-aside .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == aside
    taker_name = seat_infos(4, partner)[taker]["name"]  # the taker is a computer with a name of its own
    assert f"waiting for {taker_name} (computer)'s initial meld" in other.locator("#pile-aside-caption").inner_text()
    # once the meld is complete (or retracted) the cards leave the area: to the hand, or back to the pile
    assert advance(game, lambda g: g.pile_aside is None, seed=2, prefer=("meld", "add", "retract"))
    stage.push()
    stage.wait_version()
    assert page.locator("#pile-aside").is_hidden()


# ---------------------------------------------------------------- chat
@VIEWPORTS
def test_chat_shows_text_as_text_with_names_and_emotes(new_page: Any, server: Server,
                                                       viewport: dict[str, int]) -> None:
    """The chat panel: a line with HTML in it shows as typed (no element is made of it), with the seat's
    name; an emote; a spectator reads but has no input; axe finds nothing serious with the panel open."""
    page = new_page(viewport)
    game = solo_table(server, page)
    watcher = new_page(viewport)
    watcher.goto(server.base + game["table"])
    watcher.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)

    page.click("#chat-btn")
    assert page.locator("#chat-btn").get_attribute("aria-expanded") == "true"
    markup = '<img src=x onerror="window.pwned=1"><b>bold</b> & more'
    page.fill("#chat-input", markup)
    page.press("#chat-input", "Enter")
    line = page.locator("#chat-log li").first
    line.wait_for(timeout=WAIT)
    assert line.inner_text() == f"Ana (you): {markup}"
    assert page.locator("#chat-log img, #chat-log b").count() == 0
    page.click('#chat .emotes button[data-emote="good-game"]')
    page.locator("#chat-log li").nth(1).wait_for(timeout=WAIT)
    assert "Good game!" in page.locator("#chat-log li").nth(1).inner_text()
    assert page.evaluate("window.pwned === undefined")
    shoot(page, f"table-chat-{suffix(viewport)}")
    assert serious_violations(page) == []

    # the spectator: an unread count, the lines as text, and no input
    watcher.locator("#chat-unread").wait_for(state="visible", timeout=WAIT)
    assert watcher.locator("#chat-unread").inner_text() == "2"
    watcher.click("#chat-btn")
    assert watcher.locator("#chat-log li").first.inner_text() == f"Ana: {markup}"
    # (the panel is drawn for the spectator as it opens: wait for it rather than read it mid-way, as a loaded
    # machine showed)
    watcher.locator("#chat-readonly").wait_for(state="visible", timeout=WAIT)
    watcher.locator("#chat-form").wait_for(state="hidden", timeout=WAIT)
    watcher.click("#chat-close")
    watcher.locator("#chat").wait_for(state="hidden", timeout=WAIT)
    assert watcher.locator("#chat-btn").get_attribute("aria-expanded") == "false"


# ---------------------------------------------------------------- undo
def meld_from_the_page(page: Any) -> str:
    """Draw, then select the cards of the first meld offered and press its button; the meld's text."""
    page.wait_for_selector("body[data-my-turn=true]", timeout=WAIT)
    page.click("#stock")
    page.wait_for_selector("body[data-phase=play]", timeout=WAIT)
    meld: str = page.evaluate("window.canastaTable.state().legal.find((a) => a.startsWith('meld'))")
    for card in meld.split()[1:]:
        page.locator(f'.hand .card[data-card="{card}"]:not(.selected)').first.click(position={"x": 8, "y": 30})
    version = page.evaluate("Number(document.body.dataset.version)")
    page.locator("#actions button", has_text="Meld").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) === {version + 1}", timeout=WAIT)
    return meld


def hand_of(page: Any) -> list[str]:
    cards: list[str] = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card).sort()")
    return cards


def test_undo_button_and_shortcut_against_computers(new_page: Any, server: Server) -> None:
    """Against computers, Undo (button or Ctrl+Z) takes back the meld just made: the cards are back in the
    hand and the page says what was taken back; with nothing to take back the button is not offered."""
    page = new_page()
    solo_table(server, page)  # seed 0: seat 1 plays first and can meld after its draw
    page.wait_for_selector("body[data-my-turn=true]", timeout=WAIT)
    assert page.locator("#undo-btn").is_hidden()
    page.click("#stock")
    page.wait_for_selector("body[data-phase=play]", timeout=WAIT)
    before = hand_of(page)
    version = page.evaluate("Number(document.body.dataset.version)")
    meld: str = page.evaluate("window.canastaTable.state().legal.find((a) => a.startsWith('meld'))")
    for card in meld.split()[1:]:
        page.locator(f'.hand .card[data-card="{card}"]:not(.selected)').first.click(position={"x": 8, "y": 30})
    page.locator("#actions button", has_text="Meld").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) === {version + 1}", timeout=WAIT)
    assert len(hand_of(page)) == len(before) - 3
    page.locator("#undo-btn").wait_for(state="visible", timeout=WAIT)
    shoot(page, "table-undo-desktop")
    page.click("#undo-btn")
    page.wait_for_function(f"Number(document.body.dataset.version) === {version}", timeout=WAIT)
    assert hand_of(page) == before
    assert page.locator("#message").inner_text().startswith("Taken back: your meld of ")
    assert page.locator("#undo-btn").is_hidden()
    # the keyboard: Ctrl+Z does the same
    for card in meld.split()[1:]:
        page.locator(f'.hand .card[data-card="{card}"]:not(.selected)').first.click(position={"x": 8, "y": 30})
    page.locator("#actions button", has_text="Meld").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) === {version + 1}", timeout=WAIT)
    page.locator("#undo-btn").wait_for(state="visible", timeout=WAIT)
    page.keyboard.press("Control+z")
    page.wait_for_function(f"Number(document.body.dataset.version) === {version}", timeout=WAIT)
    assert hand_of(page) == before


def test_undo_is_not_offered_with_another_person(new_page: Any, server: Server) -> None:
    """With a friend at the table a play stands: no Undo button, and Ctrl+Z asks the server, which says why."""
    with server.http() as http:
        seats = [{"kind": "me", "name": "Ana"}, {"kind": "computer"}, {"kind": "invite"}, {"kind": "computer"}]
        game = http.post("/api/games", json={"players": 4, "seed": "0", "seats": seats}).json()
    token = json.dumps({"seat": 0, "token": game["tokens"]["0"]})
    page = new_page()
    page.add_init_script(f"localStorage.setItem('canasta.seat.{game['id']}', {json.dumps(token)})")
    page.goto(server.base + game["table"])
    meld_from_the_page(page)
    assert page.locator("#undo-btn").is_hidden()
    page.evaluate("window.canastaTable.send({type: 'undo', version: Number(document.body.dataset.version)})")
    page.wait_for_function("document.getElementById('message').textContent.includes('computers only')",
                           timeout=WAIT)


# ---------------------------------------------------------------- sound
def test_sound_is_off_by_default_remembered_and_beeps_for_the_turn(new_page: Any, server: Server) -> None:
    """No beep until the player turns sound on (remembered in localStorage); then a beep when the turn
    comes back and a three-note one at a hand's end; turned off again, silence."""
    game = Game("classic", 4, 3)
    me = game.actor
    page = new_page()
    stage = Stage(page, game, (me + 1) % 4)  # the page's seat plays right after the seat to act
    stage.open(server.base)
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "false"
    stage.play("draw")
    discard = next(format_action(a) for a in game.legal_actions() if format_action(a).startswith("discard"))
    stage.play(discard)
    stage.wait_version()
    page.wait_for_selector("body[data-my-turn=true]", timeout=WAIT)
    assert page.evaluate("document.body.dataset.beeps") is None  # off by default: the turn came silently
    page.click("#sound-btn")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('canasta.sound')") == "on"
    assert page.evaluate("document.body.dataset.beeps") == "1"  # the toggle plays one, as a sample
    # the page's seat plays; three computers play; the turn comes back: one beep
    page.click("#stock")
    page.wait_for_selector("body[data-phase=play]", timeout=WAIT)
    mine = next(format_action(a) for a in game.legal_actions() if format_action(a).startswith("discard"))
    page.evaluate(f"window.canastaTable.send({{type: 'action', action: {json.dumps(mine)}, "
                  "version: Number(document.body.dataset.version)})")
    page.wait_for_selector("body[data-my-turn=false]", timeout=WAIT)
    for _ in range(3):
        stage.play("draw")
        stage.play(next(format_action(a) for a in game.legal_actions() if format_action(a).startswith("discard")))
    page.wait_for_selector("body[data-my-turn=true]", timeout=WAIT)
    assert page.evaluate("[document.body.dataset.beeps, document.body.dataset.lastBeep]") == ["2", "turn"]
    # remembered: a reload keeps it on
    page.reload()
    page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    page.click("#sound-btn")  # off: muted
    assert page.evaluate("localStorage.getItem('canasta.sound')") == "off"
    assert page.evaluate("document.body.dataset.beeps") is None


def test_sound_beeps_at_a_hands_end(new_page: Any, server: Server) -> None:
    """The hand-end tune plays when a hand's result arrives (sound on)."""
    game = Game("classic", 4, 4)
    assert advance(game, lambda g: g.hand_no == 1 and not g.is_over and g.phase == "play"
                   and any(a.kind == "discard" for a in g.legal_actions()), seed=4)
    page = new_page()
    page.add_init_script("localStorage.setItem('canasta.sound', 'on')")
    stage = Stage(page, game, (game.actor + 1) % 4)
    stage.open(server.base)
    start = game.hand_no
    assert advance(game, lambda g: g.hand_no > start or g.is_over, seed=5)
    stage.push()
    stage.wait_version()
    page.wait_for_function("document.body.dataset.lastBeep === 'hand-end'", timeout=WAIT)


# ---------------------------------------------------------------- the expert on the start page
def test_start_page_offers_the_expert_in_every_variant(new_page: Any, server: Server) -> None:
    """Every variant's seat list offers the expert computer; a table made with one from the start page
    opens and the computers play."""
    page = new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    for variant in sorted(VARIANTS):
        page.select_option("#variant", variant)
        options = page.locator("select[data-seat] option").evaluate_all("os => os.map(o => o.value)")
        assert "computer:expert" in options, variant
    page.select_option("#variant", "classic")
    for select in page.locator("select[data-seat]").all():
        select.select_option("computer:expert")
    page.click("#start-btn")
    page.wait_for_url("**/table/**", timeout=WAIT)
    page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)
    seats = page.evaluate("window.canastaTable.state().seats.map(s => s.level)")
    assert seats[1:] == ["expert"] * 3
