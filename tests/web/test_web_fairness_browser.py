"""The table page tells every seat when the creator chose the seed (Chromium, as in test_web_browser)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Server

from canasta.record import PRACTICE

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]
WAIT = 20_000  # ms


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def banner(browser: Any, url: str, name: str | None = None) -> tuple[str, str]:
    page = browser.new_page()
    try:
        page.goto(url)
        if name is not None:  # an invited friend is asked for a name before taking the seat
            page.fill("#join-name", name)
            page.click("#join-btn")
        page.wait_for_function("document.getElementById('fairness') && !document.getElementById('fairness').hidden",
                               timeout=WAIT)
        return page.inner_text("#fairness"), str(page.get_attribute("#fairness", "title"))
    finally:
        page.close()


def test_practice_banner_for_the_invited_friend_and_spectators(browser: Any, tmp_path: Path,
                                                              make_server: Callable[..., Server]) -> None:
    server = make_server(f"sqlite:///{tmp_path / 'web.db'}")
    with server.http() as http:
        chosen = http.post("/api/games", json={"players": 2, "seed": "5",
                                               "seats": [{"kind": "me"}, {"kind": "invite"}]}).json()
        drawn = http.post("/api/games", json={"players": 2}).json()
        commitment = http.get(f"/api/games/{drawn['id']}").json()["fairness"]["commitment"]
    invite = server.base + chosen["invite_links"]["1"]
    for url, name in ((invite, "Bea"), (f"{server.base}/table/{chosen['id']}", None)):  # the friend, a spectator
        text, _ = banner(browser, url, name)
        assert text == PRACTICE
    text, title = banner(browser, f"{server.base}/table/{drawn['id']}")
    assert text == "fair deal: seed committed" and commitment in title
