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


def test_the_player_can_copy_the_commitment_at_the_start_and_finds_it_at_the_end(
        browser: Any, tmp_path: Path, make_server: Callable[..., Server]) -> None:
    """Issue 51: `canasta replay --verify --commitment HEX` needs the commitment the table showed before the
    first card; the table offers it to copy then, and the game's end panel shows it again."""
    server = make_server(f"sqlite:///{tmp_path / 'web.db'}")
    with server.http() as http:
        bots = [{"kind": "computer", "level": "basic"}] * 2  # a short game watched to its end
        game = http.post("/api/games", json={"players": 2, "seats": bots, "rules": {"target_score": 50}}).json()
        commitment = http.get(f"/api/games/{game['id']}").json()["fairness"]["commitment"]
    page = browser.new_page()
    try:
        page.goto(f"{server.base}/table/{game['id']}")
        page.wait_for_selector("#fairness-copy", state="visible", timeout=WAIT)
        assert page.get_attribute("#fairness-copy", "title") == commitment
        assert page.inner_text("#fairness-copy") == "Copy commitment"
        page.wait_for_selector("#fairness-end code", timeout=60_000)
        end = page.inner_text("#fairness-end")
        assert commitment in end and f"--commitment {commitment}" in end
    finally:
        page.close()


def test_a_used_invite_says_so_before_asking_a_name(browser: Any, tmp_path: Path,
                                                    make_server: Callable[..., Server]) -> None:
    """Issue 49, defect 10: an invite already taken says it is used at once, not after asking the visitor's
    name for a seat they cannot take; the page goes on as a spectator's."""
    server = make_server(f"sqlite:///{tmp_path / 'web.db'}")
    with server.http() as http:
        game = http.post("/api/games", json={"players": 2, "seats": [{"kind": "me"}, {"kind": "invite"}]}).json()
        invite = game["invite_links"]["1"].split("invite=")[1]
        assert http.post(f"/api/games/{game['id']}/join", json={"seat": 1, "invite": invite, "name": "Bea"}).is_success
    page = browser.new_page()
    try:
        page.goto(server.base + game["invite_links"]["1"])
        page.wait_for_function("document.body.textContent.includes('already been used')", timeout=WAIT)
        assert not page.is_visible("#join")  # no name asked
        assert page.url.endswith(f"/table/{game['id']}")
    finally:
        page.close()
