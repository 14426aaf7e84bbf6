"""Layout of the table as a player sees it (issue 49): boxes on the screen, not nodes in the DOM.

A merge once left conflict markers in app.css; Chromium dropped the rules around them, the results
panel fell below the table (its button at y=1092 on a 720-px screen) and seat labels lost their styling,
while every DOM test passed. These tests measure where things are: for Classic, Samba, Hand and Foot and
Burraco at 1366x800, 1280x720 and 390x844,

- mid-hand the player's hand, the stock and the pile are inside the viewport together, unscrolled (on the
  phone the hand is docked at the bottom of the screen), nothing overflows the page's width, and seat
  labels carry their styles (computed style, not class names);
- at a hand's end the whole results panel and its button are inside the viewport and the button has focus.

One browser serves every case; each case loads one page and shows it two positions over the same socket.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import VARIANTS, open_table, positions
from table_stage import WAIT
from web_helpers import Server

from canasta.web import create_app

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
VIEWPORTS = {"1366x800": (1366, 800), "1280x720": (1280, 720), "390x844": (390, 844)}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(create_app(f"sqlite:///{tmp_path_factory.mktemp('layout') / 'layout.db'}", rate_limit=(1e6, 1e6)))
    yield server
    server.stop()


def look(page: Any, name: str) -> None:
    """With CANASTA_LAYOUT_SHOTS=<dir>, the viewport as a PNG there: for a person to look at."""
    where = os.environ.get("CANASTA_LAYOUT_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def boxes(page: Any, selectors: list[str]) -> dict[str, dict[str, float] | None]:
    found: dict[str, dict[str, float] | None] = page.evaluate(
        """(sels) => Object.fromEntries(sels.map((s) => { const e = document.querySelector(s);
             if (!e) return [s, null]; const r = e.getBoundingClientRect();
             return [s, {left: r.left, top: r.top, right: r.right, bottom: r.bottom}]; }))""", selectors)
    return found


def outside(box: dict[str, float] | None, width: int, height: int) -> bool:
    slack = 0.5  # sub-pixel rounding of fractional layouts
    return (box is None or box["left"] < -slack or box["top"] < -slack or box["right"] > width + slack
            or box["bottom"] > height + slack)


def overflowing(page: Any) -> list[str]:
    """Elements whose right edge passes the viewport's (the page would scroll sideways), and the page's own width."""
    found: list[str] = page.evaluate("""() => {
        const out = [...document.querySelectorAll('body *')].filter((e) => {
          if (e.closest('[hidden], dialog:not([open]), .sr-only')) return false;
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.right > innerWidth + 0.5;
        }).map((e) => e.id || e.className || e.tagName);
        if (document.documentElement.scrollWidth > innerWidth) out.push('page:' + document.documentElement.scrollWidth);
        return out; }""")
    return found


def seat_label_styles(page: Any) -> list[dict[str, str]]:
    """The computed look of each seat's number and dealer mark (styled: a background and rounded corners)."""
    styles: list[dict[str, str]] = page.evaluate("""() => [...document.querySelectorAll(
        '.seat-label .seat-number, .seat-label .dealer-mark')].map((e) => { const c = getComputedStyle(e);
        return {bg: c.backgroundColor, radius: c.borderTopLeftRadius, display: c.display}; })""")
    return styles


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_table_and_results_panel_fit_the_screen(browser: Any, server: Server, variant: str, size: str) -> None:
    width, height = VIEWPORTS[size]
    playing, ended = positions(variant)
    page, stage = open_table(browser, server, (width, height), playing)
    try:
        look(page, f"{variant}-{size}-play")
        # mid-hand: the hand, the stock and the pile in sight together, without scrolling
        assert page.evaluate("scrollY") == 0
        seen = boxes(page, ["#stock", "#pile", "#hand", "#hand .card:first-child", "#hand .card:last-child"])
        assert [s for s, b in seen.items() if outside(b, width, height)] == [], seen
        if width < 500:  # the phone docks the hand (with the moves) at the bottom of the screen
            dock = page.evaluate("""() => { const d = document.getElementById('hand').closest('.controls');
                return {position: getComputedStyle(d).position, bottom: d.getBoundingClientRect().bottom}; }""")
            assert dock["position"] == "fixed" and abs(dock["bottom"] - height) < 1, dock
            # and the table above the dock: both sides' melds in sight, none under the dock
            covered = page.evaluate("""() => { const top = document.querySelector('.controls').getBoundingClientRect().top;
                return [...document.querySelectorAll('#melds-us, #melds-them, #seat-bottom')]
                  .filter((e) => e.getBoundingClientRect().bottom > top + 0.5).map((e) => e.id); }""")
            assert covered == []
        assert overflowing(page) == []
        styles = seat_label_styles(page)
        assert len(styles) >= 5  # four seat numbers and the dealer
        assert all(s["bg"] not in ("rgba(0, 0, 0, 0)", "transparent") and s["radius"] != "0px"
                   and s["display"] == "inline-block" for s in styles), styles
        # the hand's end: the whole panel and its button in sight, the button focused
        stage.game = ended
        stage.push()
        page.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
        look(page, f"{variant}-{size}-end")
        seen = boxes(page, ["#sheet", "#sheet-close"])
        assert [s for s, b in seen.items() if outside(b, width, height)] == [], seen
        assert page.evaluate("document.activeElement && document.activeElement.id") == "sheet-close"
        assert overflowing(page) == []
        assert page.errors == []
    finally:
        page.context.close()
