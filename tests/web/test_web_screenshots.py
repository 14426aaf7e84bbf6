"""The table compared with reviewed pictures of it (issue 49): an unintended visual change fails with a diff image.

Fixed positions (seeded engine games, staged on the real page: ``layout_helpers``) are shot at a fixed size
and compared pixel by pixel with the references in tests/web/fixtures/screens/. A pixel differs when one of
its channels moves by more than ``CHANNEL_SLACK`` (anti-aliasing moves edges by a few levels); a shot
passes while at most ``PIXEL_SHARE`` of its pixels differ. On failure the test writes the new shot and a
diff image (differing pixels in red over a faded reference) beside each other and names them.

Deterministic: reduced motion and Playwright's ``animations="disabled"``, no caret, the same positions each
run; the references were made with fontconfig resolving system-ui, sans-serif and serif to DejaVu (Debian's
fonts-dejavu), so on a machine that resolves them otherwise the test is skipped rather than failing on glyphs.

After an intended change: ``CANASTA_UPDATE_SCREENS=1 python3 -m pytest tests/web/test_web_screenshots.py``,
then look at every rewritten picture before committing it.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import open_table, positions
from table_stage import WAIT
from web_helpers import Server

from canasta.web import create_app

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")
np = pytest.importorskip("numpy")
Image = pytest.importorskip("PIL.Image")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--font-render-hinting=none",
        "--force-color-profile=srgb"]
REFERENCES = Path(__file__).resolve().parent / "fixtures" / "screens"
CHANNEL_SLACK = 48
PIXEL_SHARE = 0.0002  # repeated runs here differ by no pixel at all; a recoloured dealer mark is 0.09%
FONTS = {"system-ui": "DejaVu Sans", "sans-serif": "DejaVu Sans", "serif": "DejaVu Serif"}
# name: (variant, viewport, moment)
SHOTS = {
    "classic-desktop-play": ("classic", (1280, 720), "play"),
    "classic-desktop-end": ("classic", (1366, 800), "end"),
    "hand-and-foot-phone-play": ("hand-and-foot", (390, 844), "play"),
    "samba-phone-end": ("samba", (390, 844), "end"),
}


def fonts_as_referenced() -> str | None:
    """Why the shots cannot match here (a font resolved otherwise than for the references), or None."""
    if shutil.which("fc-match") is None:
        return "fc-match is missing: the fonts the page gets are unknown"
    for alias, family in FONTS.items():
        got = subprocess.run(["fc-match", "-f", "%{family}", alias], capture_output=True, text=True).stdout
        if got.split(",")[0] != family:
            return f"fontconfig resolves {alias} to {got!r}, the references were made with {family}"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = fonts_as_referenced()
    if reason:
        pytest.skip(reason)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(create_app(f"sqlite:///{tmp_path_factory.mktemp('shots') / 'shots.db'}", rate_limit=(1e6, 1e6)))
    yield server
    server.stop()


def differing(shot: Any, reference: Any) -> Any:
    """A mask of the pixels whose colour moved by more than the slack in some channel."""
    delta = np.abs(shot.astype(np.int16) - reference.astype(np.int16)).max(axis=2)
    return delta > CHANNEL_SLACK


def diff_image(reference: Any, mask: Any) -> Any:
    faded = (reference.astype(np.float32) * 0.35 + 255 * 0.65).astype(np.uint8)
    faded[mask] = (220, 0, 0)
    return Image.fromarray(faded)


def test_differing_pixels_are_counted_past_the_slack_only() -> None:
    """The comparison itself: a small shift of colour passes, a changed block is found and drawn in red."""
    reference = np.full((10, 10, 3), 100, dtype=np.uint8)
    shot = reference.copy()
    shot[:, :, 0] += CHANNEL_SLACK  # anti-aliasing's size of change: not a difference
    assert not differing(shot, reference).any()
    shot[2:4, 2:5] = 255
    mask = differing(shot, reference)
    assert int(mask.sum()) == 6
    assert np.asarray(diff_image(reference, mask))[3, 3].tolist() == [220, 0, 0]


@pytest.mark.parametrize("name", list(SHOTS))
def test_the_table_looks_as_reviewed(browser: Any, server: Server, name: str, tmp_path: Path) -> None:
    variant, viewport, moment = SHOTS[name]
    playing, ended = positions(variant)
    page, stage = open_table(browser, server, viewport, playing)
    try:
        if moment == "end":
            stage.game = ended
            stage.push()
            page.wait_for_selector('#sheet[open][data-mode="hand-end"]', timeout=WAIT)
        page.evaluate("document.fonts.ready")
        png = page.screenshot(animations="disabled", caret="hide")
        assert page.errors == []
    finally:
        page.context.close()
    reference_path = REFERENCES / f"{name}.png"
    if os.environ.get("CANASTA_UPDATE_SCREENS"):
        REFERENCES.mkdir(parents=True, exist_ok=True)
        reference_path.write_bytes(png)
        return
    assert reference_path.exists(), f"no reference {reference_path}: make it with CANASTA_UPDATE_SCREENS=1"
    shot = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    reference = np.asarray(Image.open(reference_path).convert("RGB"))
    assert shot.shape == reference.shape, f"{name}: {shot.shape} against the reference's {reference.shape}"
    mask = differing(shot, reference)
    share = float(mask.mean())
    if share > PIXEL_SHARE:
        (tmp_path / f"{name}-new.png").write_bytes(png)
        diff_image(reference, mask).save(tmp_path / f"{name}-diff.png")
        pytest.fail(f"{name}: {share:.2%} of the pixels differ from {reference_path.name} "
                    f"(allowed {PIXEL_SHARE:.2%}); the new shot and the diff are in {tmp_path}")
