"""Browser tests of playing at the table as a person does (issue 49, defects 3, 4, 8 and 10).

Each test stages a real engine game (``table_stage.Stage``) on the real page; the other seats' moves
are played by the test through the stage, so what the page receives and when is the test's choice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import HandEndStage, positions
from table_stage import WAIT, Stage, advance
from web_helpers import Server

from canasta.engine.game import Game
from canasta.notation import format_action
from canasta.web import create_app

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(create_app(f"sqlite:///{tmp_path_factory.mktemp('play') / 'play.db'}", rate_limit=(1e6, 1e6)))
    yield server
    server.stop()


def new_page(browser: Any, motion: str = "no-preference", width: int = 1280, height: int = 800) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion=motion)
    # the normal pace, once per tab (conftest makes other tests' pages fast); a choice made on the page stays
    context.add_init_script("if (!sessionStorage.getItem('paced')) { localStorage.setItem('canasta.speed', 'normal');"
                            " sessionStorage.setItem('paced', '1'); }")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def others_turn(seed: int) -> tuple[Game, int]:
    """A Classic game in hand 1 at another seat's draw; the player sits one seat after it."""
    game = Game("classic", 4, seed, {})
    assert advance(game, lambda g: g.hand_no == 1 and g.phase == "draw" and len(g.history) > 8, seed=seed)
    return game, (game.actor + 1) % 4


def a_discard(game: Game) -> str:
    return next(t for t in (format_action(a) for a in game.legal_actions()) if t.startswith("discard"))


WATCH = """() => { window.shown = []; window.flights = 0;
  new MutationObserver(() => window.shown.push([Number(document.body.dataset.version), performance.now()]))
    .observe(document.body, {attributes: true, attributeFilter: ['data-version']});
  new MutationObserver((list) => { for (const r of list) for (const n of r.addedNodes)
    if (n.classList && n.classList.contains('flying')) window.flights++; })
    .observe(document.body, {childList: true}); }"""


# ---------------------------------------------------------------- defect 3
def test_others_moves_shown_at_a_pace_with_cards_that_travel(browser: Any, server: Server) -> None:
    """Another seat's draw and discard, sent at once, are shown one after the other at the normal pace
    (the page holds each for 700 ms; setTimeout never fires early, so the bound below cannot flake on a
    slow machine), a card travels for each, and the computer to act is marked as thinking."""
    game, me = others_turn(4)
    page = new_page(browser)
    stage = Stage(page, game, me)
    stage.open(server.base)
    actor = game.actor
    assert page.locator(f'.seat[data-seat="{actor}"] .thinking').inner_text() == "thinking…"
    page.evaluate(WATCH)
    start = stage.version
    stage.play("draw")
    stage.play(a_discard(game))
    stage.wait_version()
    shown = page.evaluate("window.shown")
    versions = [v for v, _ in shown]
    assert versions[-2:] == [start + 1, start + 2]
    assert shown[-1][1] - shown[-2][1] >= 650  # the pace: 700 ms, less a timer's rounding
    assert page.evaluate("window.flights") == 2
    assert page.errors == []
    page.context.close()


def test_no_travel_under_reduced_motion_and_the_pace_is_remembered(browser: Any, server: Server) -> None:
    game, me = others_turn(5)
    page = new_page(browser, motion="reduce")
    stage = Stage(page, game, me)
    stage.open(server.base)
    page.evaluate(WATCH)
    page.select_option("#speed", "fast")
    stage.play("draw")
    stage.play(a_discard(game))
    stage.wait_version()
    assert page.evaluate("window.flights") == 0
    page.reload()
    page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)
    assert page.input_value("#speed") == "fast"
    page.context.close()


# ---------------------------------------------------------------- defect 8
def test_sorting_keeps_wild_cards_together_and_alternates_colours(browser: Any, server: Server) -> None:
    """By rank: threes to aces, then every wild card together (2s and jokers were split to both ends); by suit:
    the colours alternate (spades, hearts, clubs, diamonds: the two red suits were side by side)."""
    game = Game("samba", 4, 3, {})  # the hand holds two 2s and three jokers
    page = new_page(browser)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    shown = "els => els.map(e => e.dataset.card)"
    page.click('[data-order="rank"]')
    cards = page.eval_on_selector_all(".hand .card", shown)
    wild = [k for k, c in enumerate(cards) if c == "JK" or c[:-1] == "2"]
    assert len(wild) == 5 and wild == list(range(len(cards) - 5, len(cards))), cards
    page.click('[data-order="suit"]')
    cards = page.eval_on_selector_all(".hand .card", shown)
    suits = [c[-1] for c in cards if c != "JK" and c[:-1] != "2"]
    order = list(dict.fromkeys(suits))
    colours = ["red" if s in "hd" else "black" for s in order]
    assert all(a != b for a, b in pairwise(colours)), cards
    page.context.close()


# ---------------------------------------------------------------- defect 4
def play_phase(seed: int) -> tuple[Game, int]:
    """A Classic game in hand 1 at the player's play phase (a card drawn), holding a pair or more of a rank."""
    game = Game("classic", 4, seed, {})
    assert advance(game, lambda g: g.hand_no == 1 and g.phase == "play" and len(g.history) > 4, seed=seed)
    return game, game.actor


def focused(page: Any) -> dict[str, str]:
    info: dict[str, str] = page.evaluate("""() => { const e = document.activeElement;
        return {id: e.id, index: e.dataset.index ?? '', card: e.dataset.card ?? '', action: e.dataset.action ?? '',
                text: e.textContent.trim().slice(0, 40)}; }""")
    return info


def test_keyboard_play_reaches_the_hand_at_once_and_moves_within_it(browser: Any, server: Server) -> None:
    """Two keys to the hand (a skip link), arrows within it, a rank's key selects a card of it, Shift+Tab
    leaves the hand for the sort buttons (never onto a 'Discard' button), the shortcut legend is shown."""
    game, me = play_phase(7)
    page = new_page(browser)
    stage = Stage(page, game, me)
    stage.open(server.base)
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "skip-to-hand"
    page.keyboard.press("Enter")
    assert focused(page)["index"] == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert focused(page)["index"] == "2"
    assert page.locator("#hand .card[tabindex='0']").count() == 1  # the hand is one tab stop
    hand = game.observation(me)["hand"]
    rank = next(c for c in hand if c != "JK")[:-1]
    page.keyboard.press("0" if rank == "10" else rank.lower())
    picked = page.eval_on_selector_all("#hand .card.selected", "els => els.map(e => e.dataset.card)")
    assert len(picked) == 1 and picked[0][:-1] == rank
    assert page.locator("#actions button").count() > 0  # a card selected: its moves are offered
    page.keyboard.press("Shift+Tab")
    after = focused(page)
    assert not after["action"].startswith("discard") and "Discard" not in after["text"], after
    legend = page.locator("#keys-legend")
    assert legend.is_visible() and "D draw" in legend.inner_text().replace("\n", " ")
    page.keyboard.press("Escape")
    assert page.locator("#hand .card.selected").count() == 0
    assert page.errors == []
    page.context.close()


def test_draw_by_key_and_a_click_out_of_turn_is_answered(browser: Any, server: Server) -> None:
    game, me = others_turn(6)
    page = new_page(browser)
    stage = Stage(page, game, me)
    stage.open(server.base)
    page.click("#stock")
    assert "Not your turn" in page.inner_text("#message")
    while game.actor != me:  # the others play to the player's turn
        stage.play("draw" if game.phase == "draw" else a_discard(game))
    stage.wait_version()
    page.keyboard.press("d")
    page.wait_for_function("document.body.dataset.phase === 'play'", timeout=WAIT)
    assert stage.sent == ["draw"]
    page.context.close()


def test_the_hand_end_is_read_aloud_with_its_result_and_focuses_the_panel(browser: Any, server: Server) -> None:
    """The live region says who went out and each side's points (it said only 'Hand 1 is over'), and the
    results panel's button takes the focus."""
    playing, ended = positions("classic")
    page = new_page(browser)
    stage = HandEndStage(page, playing, playing.actor)
    stage.open(server.base)
    stage.game = ended
    stage.push()
    page.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
    said = page.inner_text("#announce")
    result = ended.hand_results[-1]
    assert "Hand 1 is over." in said and ("went out" in said or "Nobody went out" in said), said
    for side in result["sides"]:
        assert f"{side['total']} this hand" in said, said
    assert page.evaluate("document.activeElement.id") == "sheet-close"
    page.context.close()


# ---------------------------------------------------------------- defect 6
def test_a_refusal_is_in_the_players_words(browser: Any, server: Server) -> None:
    """The rule's id and the citation of the rule text stay out of the message (they go to the console)."""
    game, me = play_phase(7)
    page = new_page(browser)
    stage = Stage(page, game, me)
    stage.open(server.base)
    refusal = {"type": "error", "code": "illegal", "rule": "meld-rank",
               "message": "A meld needs three cards of one rank (Bicycle 'Melds')"}
    for ws in stage.sockets:
        ws.send(json.dumps(refusal))
    page.wait_for_function("document.getElementById('message').textContent.length > 0", timeout=WAIT)
    assert page.inner_text("#message") == "A meld needs three cards of one rank"
    page.context.close()


# ---------------------------------------------------------------- defect 9
class VersionedStage(Stage):
    """The stage refusing an action chosen at an older version as the server does ('stale')."""

    def _on_message(self, ws: Any, raw: str | bytes) -> None:
        m = json.loads(raw)
        if m.get("type") == "action" and m.get("version") != self.version:
            ws.send(json.dumps({"type": "error", "code": "stale", "id": m.get("id"),
                                "message": f"the game is at version {self.version}, the action was chosen at {m['version']}"}))
            return
        super()._on_message(ws, raw)


def test_two_tabs_of_one_seat_the_second_is_told(browser: Any, server: Server) -> None:
    """Both tabs of one seat discard at once: the first is played, the second tab says its move was not made."""
    game, me = play_phase(7)
    first, second = new_page(browser), new_page(browser)
    stage = VersionedStage(first, game, me)
    stage.open(server.base)
    stage.page = second
    stage.open(server.base)
    card = next(t for t in (format_action(a) for a in game.legal_actions()) if t.startswith("discard")).split()[1]
    for page in (first, second):
        page.locator(f'#hand .card[data-card="{card}"]').first.click(position={"x": 8, "y": 30})
    v = stage.version
    first.click("#pile")
    first.wait_for_function(f"Number(document.body.dataset.version) === {v + 1}", timeout=WAIT)
    # the stage answers the tab that sent: the second still shows the old position, and discards too
    second.click("#pile")
    second.wait_for_function("document.getElementById('message').textContent.includes('not made')", timeout=WAIT)
    assert "version" not in second.inner_text("#message")
    assert stage.sent == [f"discard {card}"]
    first.context.close()
    second.context.close()


# ---------------------------------------------------------------- defect 7
@pytest.mark.parametrize(("variant", "players"), [("classic", 6), ("hand-and-foot", 6), ("hand-and-foot", 8)])
def test_six_and_eight_players_are_offered_and_seated(browser: Any, server: Server, variant: str,
                                                      players: int) -> None:
    """The start page offers every count the engine plays (it stopped at four); at the table each seat has its
    label, one on each side and the rest across the top, and nothing passes the page's width."""
    page = new_page(browser, width=1366, height=800)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    page.select_option("#variant", variant)
    assert str(players) in page.eval_on_selector_all("#players option", "els => els.map(e => e.value)")
    game = Game(variant, players, 1, {})
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    seats = page.eval_on_selector_all(".seat[data-seat]", "els => els.map(e => Number(e.dataset.seat))")
    assert sorted(seats) == list(range(players))
    assert page.locator("#seat-top .seat-sub").count() == players - 3
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    look_path = os.environ.get("CANASTA_LAYOUT_SHOTS")
    if look_path:
        page.screenshot(path=f"{look_path}/{variant}-{players}.png")
    assert page.errors == []
    page.context.close()


# ---------------------------------------------------------------- defect 10
def test_small_things_phone_start_controls_and_no_next_minimum_at_a_hand_end(browser: Any, server: Server) -> None:
    """The phone's start page controls are 44 px tall (they were 19-21 px); Samba's finished table does not
    show the next hand's minimum as if it were this one's."""
    page = new_page(browser, width=390, height=844)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    small = page.evaluate("""() => [...document.querySelectorAll('#start select, #start input, #start button')]
        .filter((e) => e.offsetParent !== null && e.type !== 'radio' && e.type !== 'checkbox')
        .map((e) => [e.id || e.name || e.tagName, e.getBoundingClientRect().height]).filter(([, h]) => h < 44)""")
    assert small == []
    page.context.close()
    playing, ended = positions("samba")
    page = new_page(browser)
    stage = HandEndStage(page, playing, playing.actor)
    stage.open(server.base)
    stage.game = ended
    stage.push()
    page.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
    heads = page.eval_on_selector_all(".meld-head", "els => els.map(e => e.textContent)")
    assert heads and not any("minimum" in h for h in heads), heads
    page.context.close()


# ---------------------------------------------------------------- accessibility: cards in words
def test_cards_are_named_in_words_for_screen_readers(browser: Any, server: Server) -> None:
    """A hand card's accessible name is "king of hearts", not "K♥" (a screen reader spells "K")."""
    game, me = play_phase(7)
    page = new_page(browser)
    stage = Stage(page, game, me)
    stage.open(server.base)
    names = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.getAttribute('aria-label'))")
    suits = ("spades", "hearts", "diamonds", "clubs")
    assert names and all(n.startswith("joker") or any(f" of {s}" in n for s in suits) for n in names), names
    assert not any("♥" in n or "♠" in n for n in names)
    page.context.close()


def test_the_others_melds_are_named_as_melds(browser: Any, server: Server) -> None:
    game = Game("classic", 4, 3, {})
    assert advance(game, lambda g: g.hand_no == 1 and g.phase == "play"
                   and bool(g.observation(g.actor)["melds"][1 - g.observation(g.actor)["side"]]), seed=3)
    page = new_page(browser)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    labels = page.eval_on_selector_all("#melds-them .meld", "els => els.map(e => [e.getAttribute('role'),"
                                       " e.getAttribute('aria-label')])")
    assert labels and all(role == "group" and label and label.startswith("Them: ") and "card" in label
                          for role, label in labels), labels
    page.context.close()
