"""Browser tests of the table page's controls and words (issue 19), on positions chosen in the test.

Each test stages a real engine game (``table_stage.Stage``): the page is the real one, served by
the real server; its WebSocket is answered by the engine in the test, so the position is the one
the test needs and every action the page sends is checked by the engine.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_stage import WAIT, Stage, advance
from web_helpers import Server

from canasta.engine.game import Game
from canasta.notation import format_action

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is not installed (run .ci/install-web.sh)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
WILD = {"2", "JK"}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shoot(page: Any, name: str) -> None:
    """With CANASTA_SCREENSHOTS=1, (re)write docs/screenshots/<name>.png."""
    if os.environ.get("CANASTA_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path, make_server: Any) -> Server:
    server: Server = make_server(f"sqlite:///{tmp_path / 'ui.db'}", rate_limit=(1e6, 1e6))
    return server


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    context.close()
    assert errors == []


def rank(card: str) -> str:
    return card if card == "JK" else card[:-1]


def select(page: Any, cards: list[str]) -> None:
    """Click each card of the hand once (the first unselected copy), on its visible strip."""
    for c in cards:
        page.locator(f'.hand .card[data-card="{c}"]:not(.selected)').first.click(position={"x": 8, "y": 30})


def meld_four_of_a_kind(game: Game) -> bool:
    """Play phase, a meld of some rank is legal, and the hand holds four naturals of that rank."""
    if game.is_over or game.phase != "play":
        return False
    hand = game.observation(game.actor)["hand"]
    counts = Counter(rank(c) for c in hand if rank(c) not in WILD | {"3"})
    legal = [format_action(a).split() for a in game.legal_actions()]
    return any(w[0] == "meld" and counts[rank(w[1])] >= 4 and rank(w[1]) not in WILD for w in legal)


def test_four_of_a_kind_get_a_meld_button_and_the_engine_takes_it(page: Any, server: Server) -> None:
    """Defect 3: four tens selected offer 'Meld' (the server lists only three-card melds), and two cards
    selected for one of our melds offer 'Add'; both are sent with every selected card and accepted."""
    game = Game("classic", 4, 11, {})
    assert advance(game, meld_four_of_a_kind, seed=3)
    me = game.actor
    stage = Stage(page, game, me)
    stage.open(server.base)
    hand = game.observation(me)["hand"]
    counts = Counter(rank(c) for c in hand if rank(c) not in WILD | {"3"})
    legal = [format_action(a).split() for a in game.legal_actions()]
    r = next(rank(w[1]) for w in legal if w[0] == "meld" and counts[rank(w[1])] >= 4 and rank(w[1]) not in WILD)
    four = [c for c in hand if rank(c) == r][:4]
    assert f"meld {' '.join(four)}" not in {" ".join(w) for w in legal}  # the server does not list it
    select(page, four)
    assert page.locator(".hand .card.selected").count() == 4
    button = page.locator(f'#actions button[data-send="meld {" ".join(four)}"]')
    assert button.count() == 1, page.inner_text("#actions")
    assert button.inner_text().startswith("Meld ")
    v = stage.version
    button.focus()
    page.keyboard.press("Enter")  # from the keyboard: the focus stays on the controls afterwards
    stage.wait_version(v + 1)
    assert stage.sent[-1] == f"meld {' '.join(four)}" and not stage.refused
    # the selection went with the cards
    assert page.locator(".hand .card[aria-pressed=true]").count() == 0
    assert page.evaluate("!!document.activeElement.closest('#actions, #hand')")


def add_two(game: Game) -> bool:
    """Play phase, and two cards of the hand can each go onto the same meld of ours."""
    if game.is_over or game.phase != "play":
        return False
    hand = game.observation(game.actor)["hand"]
    targets = Counter(w[1] for w in (format_action(a).split() for a in game.legal_actions()) if w[0] == "add")
    return any(n >= 1 and sum(rank(c) == t for c in hand) >= 2 for t, n in targets.items())


def test_two_cards_get_an_add_button_by_click_drag_and_keyboard(page: Any, server: Server) -> None:
    """Defect 3: two cards for one meld get an 'Add' button; the meld itself takes them by keyboard."""
    game = Game("classic", 4, 12, {})
    assert advance(game, add_two, seed=5)
    me = game.actor
    stage = Stage(page, game, me)
    stage.open(server.base)
    hand = game.observation(me)["hand"]
    targets = [w[1] for w in (format_action(a).split() for a in game.legal_actions()) if w[0] == "add"]
    target = next(t for t in targets if sum(rank(c) == t for c in hand) >= 2)
    two = [c for c in hand if rank(c) == target][:2]
    select(page, two)
    button = page.locator(f'#actions button[data-send="add {target} {" ".join(two)}"]')
    assert button.count() == 1, page.inner_text("#actions")
    assert "Add" in button.inner_text()
    # by keyboard: focus the meld and press Enter
    meld = page.locator(f'#melds-us .meld[data-rank="{target}"]')
    meld.focus()
    v = stage.version
    page.keyboard.press("Enter")
    stage.wait_version(v + 1)
    assert stage.sent[-1] == f"add {target} {' '.join(two)}" and not stage.refused


def samba_canasta(game: Game) -> bool:
    if game.is_over or game.hand_no != 1:
        return False
    return any(m["canasta"] for side in game.observation(0)["melds"] for m in side)


def test_samba_melds_show_their_numbers_and_samba_words(page: Any, server: Server) -> None:
    """Defects 4 and 5: every meld shows the '#id' the buttons and the log use; a finished Samba set is a
    canasta (not a 'burraco'), and no Burraco pozzetti appear under Samba's stock."""
    game = Game("samba", 4, 1, {})
    assert advance(game, samba_canasta, seed=1)
    stage = Stage(page, game, game.actor if game.actor is not None else 0)
    stage.open(server.base)
    obs = game.observation(stage.me)
    ids = sorted(f"#{m['id']}" for side in obs["melds"] for m in side)
    shown = sorted(page.eval_on_selector_all(".meld .meld-id", "els => els.map(e => e.textContent)"))
    assert shown == ids
    badges = page.eval_on_selector_all(".meld.canasta .badge", "els => els.map(e => e.textContent)")
    assert badges and all("canasta" in b or "samba" in b for b in badges), badges
    text = page.inner_text("body").lower()
    assert "burraco" not in text and "pozzett" not in text


def test_burraco_words_and_pozzetti(page: Any, server: Server) -> None:
    """Defect 5: Burraco keeps its own words: the pozzetti under the stock, burracos for finished melds."""
    game = Game("burraco", 4, 2, {})
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    assert "2 pozzetti left" in page.inner_text("#stock")


def test_american_lays_threes_down_and_names_its_items(page: Any, server: Server) -> None:
    """Defect 5: Modern American's red three is laid down, not 'Meld 3'; its sheet says 'Aces and sevens'."""
    game = Game("american", 4, 3, {})

    def three_to_lay(g: Game) -> bool:
        return not g.is_over and any(format_action(a) in ("meld 3h", "meld 3d") for a in g.legal_actions())

    assert advance(game, three_to_lay, seed=2)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    three = next(format_action(a).split()[1] for a in game.legal_actions() if format_action(a) in ("meld 3h", "meld 3d"))
    select(page, [three])
    button = page.locator(f'#actions button[data-send="meld {three}"]')
    assert button.inner_text() == f"Lay down 3{'♥' if three == '3h' else '♦'}"
    # the end of the hand: the sheet's items in words
    assert advance(game, lambda g: bool(g.hand_results), seed=4, limit=20000)
    stage.push()
    page.wait_for_selector("#sheet[open]", timeout=WAIT)
    sheet = page.inner_text("#sheet")
    assert "Aces and sevens in hand" in sheet and "Aces sevens" not in sheet


def test_selection_stays_in_step_after_a_refused_pile_click(page: Any, server: Server) -> None:
    """Defect 9: a refused click on the pile leaves the selected cards selected, on screen and in the code."""
    game = Game("classic", 4, 13, {})
    assert advance(game, lambda g: not g.is_over and g.phase == "draw" and bool(g.pile) and g.hand_no == 1
                   and not any(format_action(a).startswith("take") for a in g.legal_actions()), seed=6)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    first, second = game.observation(stage.me)["hand"][:2]
    page.locator(".hand .card").nth(0).click(position={"x": 8, "y": 30})
    page.locator(".hand .card").nth(1).click(position={"x": 8, "y": 30})
    page.click("#pile")
    page.wait_for_selector("#message.error", timeout=WAIT)
    assert stage.refused  # the engine said no
    assert page.locator(".hand .card.selected").count() == 2
    page.locator(".hand .card").nth(0).click(position={"x": 8, "y": 30})  # unselects the first: one is left
    assert page.eval_on_selector_all(".hand .card.selected", "els => els.map(e => e.dataset.index)") == ["1"]
    assert first and second


def test_this_turn_shows_on_the_side_to_act_only(page: Any, server: Server) -> None:
    """Defect 9: the points melded this turn show on the row of the side whose turn it is."""
    game = Game("classic", 4, 14, {})
    assert advance(game, lambda g: not g.is_over and g.pending_value > 0, seed=7)
    me = (game.turn + 1) % 4  # an opponent of the player who is melding
    stage = Stage(page, game, me)
    stage.open(server.base)
    assert "this turn" not in page.inner_text("#melds-us")
    assert f"this turn {game.pending_value}" in page.inner_text("#melds-them")


def test_samba_offers_one_take_button_per_choice(page: Any, server: Server) -> None:
    """Defect 9: cards that take the pile in several suit choices give one 'Take the pile' button."""
    game = Game("samba", 4, 1, {})

    def two_ways(g: Game) -> bool:
        if g.is_over or g.phase != "draw":
            return False
        takes = [format_action(a) for a in g.legal_actions() if format_action(a).startswith("take ")]
        kinds = [tuple(sorted(rank(c) for c in t.split()[1:])) for t in takes if "#" not in t]
        return len(kinds) != len(set(kinds))

    assert advance(game, two_ways, seed=1)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    take = next(format_action(a) for a in game.legal_actions() if format_action(a).startswith("take ") and "#" not in format_action(a))
    select(page, take.split()[1:])
    labels = page.eval_on_selector_all("#actions button", "els => els.map(e => e.textContent)")
    takes = [label for label in labels if label.startswith("Take the pile with")]
    assert len(takes) == 1, labels


def test_hand_and_foot_books_are_shown_and_the_foot_announced(page: Any, server: Server) -> None:
    """Defect 10: completed piles are drawn on the table (not only counted); picking up a foot is announced."""
    game = Game("hand-and-foot", 4, 0, {})
    assert advance(game, lambda g: not g.is_over and g.hand_no == 1 and any(g.observation(0)["books"]), seed=0)
    stage = Stage(page, game, 0)
    stage.open(server.base)
    books = game.observation(0)["books"]
    assert page.locator(".meld.book").count() == sum(len(b) for b in books)
    assert "pile ·" in page.inner_text("#felt")  # "clean pile · 7": Hand and Foot's word
    # a foot picked up: the page says who
    assert advance(game, lambda g: not g.is_over and any(g.observation(0)["in_foot"]) and g.hand_no == 1, seed=1)
    stage.push()
    page.wait_for_selector("#notice:not([hidden])", timeout=WAIT)
    assert "picked up the foot" in page.inner_text("#notice")


def test_small_things_of_the_pages(page: Any, server: Server) -> None:
    """Defect 15: a favicon (no 404 on any page), table rules named in words, the rules page rendered from
    Markdown (headings, lists and tables, no raw text in a <pre>), hints written as sentences."""
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    labels = page.eval_on_selector_all(".option-row label", "els => els.map(e => e.textContent)")
    assert labels and not any("_" in label for label in labels), labels[:5]
    href = page.get_attribute("#rules-link", "href")
    assert href
    page.goto(server.base + href)
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    assert page.locator("pre.rules").count() == 0
    assert page.locator("#text h3, #text h2").count() >= 1  # "## The rules as implemented"
    assert page.locator("#text li").count() >= 3 and page.locator("#text strong").count() >= 3
    assert "**" not in page.inner_text("#text")
    for path in ("/scorepad", "/replay"):
        page.goto(server.base + path)
        page.wait_for_load_state("load")
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    page.fill("#seed", "21")
    page.click("#start-btn")
    page.wait_for_function("document.body.dataset.myTurn === 'true'", timeout=WAIT)
    v = page.evaluate("document.body.dataset.version")
    page.click("#hint-btn")
    page.wait_for_function(f"document.body.dataset.hintVersion === '{v}'", timeout=WAIT)
    hint = page.inner_text("#message")
    assert hint.startswith("Hint: ") and not any(f". {c}" in hint for c in "abcdefghijklmnopqrstuvwxyz"), hint
    assert missing == []


def test_one_card_is_not_one_cards(page: Any, server: Server) -> None:
    """Defect 15: a seat holding one card says '1 card'."""
    game = Game("classic", 2, 17, {})
    assert advance(game, lambda g: not g.is_over and 1 in g.hand_sizes and g.hand_no == 1, seed=10, limit=20000)
    seat = game.hand_sizes.index(1)
    stage = Stage(page, game, 1 - seat)
    stage.open(server.base)
    text = page.inner_text("#felt")
    assert "1 card" in text and "1 cards" not in text


def test_hand_sorted_by_suit_and_arranged_by_drag(page: Any, server: Server) -> None:
    """Sort the hand by suit (runs need it) or by rank, and move a card by dragging it within the hand."""
    game = Game("samba", 4, 2, {})
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    page.click('[data-order="suit"]')
    cards = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")
    suits = [c[-1] if c != "JK" and c[:-1] != "2" else "w" for c in cards]
    assert suits == sorted(suits, key=lambda s: "shcdw".index(s)), cards  # one suit after another, wilds last
    page.click('[data-order="rank"]')
    by_rank = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(by_rank) == sorted(game.observation(stage.me)["hand"]) and by_rank != cards
    # drag the last card onto the first: it goes first, and stays there after the next update
    last = page.locator(".hand .card").last
    moved = last.get_attribute("data-card")
    box_from, box_to = last.bounding_box(), page.locator(".hand .card").first.bounding_box()
    assert box_from and box_to
    page.mouse.move(box_from["x"] + 30, box_from["y"] + 40)
    page.mouse.down()
    page.mouse.move(box_to["x"] + 8, box_to["y"] + 40, steps=8)
    page.mouse.up()
    assert page.locator(".hand .card").first.get_attribute("data-card") == moved
    assert page.get_attribute('[data-order="rank"]', "aria-pressed") == "false"
    stage.push()
    stage.wait_version()
    assert page.locator(".hand .card").first.get_attribute("data-card") == moved


def test_drawn_card_marked_log_in_words_and_reduced_motion(browser: Any, server: Server) -> None:
    """The card just drawn is marked (and animated only without prefers-reduced-motion); the log says
    what happened in words, with what a taken pile held."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    game = Game("classic", 4, 18, {})
    assert advance(game, lambda g: not g.is_over and g.phase == "draw" and g.hand_no == 1, seed=11)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    v = stage.version
    page.click("#stock")
    stage.wait_version(v + 1)
    drawn = page.locator(".hand .card.just-drawn")
    assert drawn.count() >= 1
    assert drawn.first.evaluate("e => getComputedStyle(e).animationName") == "none"
    line = page.locator("#log li").last
    assert line.get_attribute("data-action") == "draw"
    assert line.inner_text() == "Ana (you) drew from the stock"
    # discard by the button: the log speaks of the card with its suit sign
    page.locator(".hand .card").first.click(position={"x": 8, "y": 30})
    card = page.locator(".hand .card.selected").get_attribute("data-card")
    page.click('#actions button[data-send^="discard"]')
    stage.wait_version(v + 2)
    assert page.locator("#log li").last.inner_text().startswith("Ana (you) discarded ")
    assert card and card not in page.locator("#log li").last.inner_text()
    context.close()


def test_first_game_guide_is_shown_once_for_classic(page: Any, server: Server) -> None:
    """A newcomer's guide to one turn in Classic, its current step marked; dismissed, it stays away."""
    game = Game("classic", 4, 19, {})
    assert advance(game, lambda g: not g.is_over and g.phase == "draw", seed=12)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    assert page.locator("#guide").is_visible()
    assert page.locator('#guide li.now').get_attribute("data-step") == "draw"
    page.click("#stock")
    page.wait_for_selector('#guide li.now[data-step="play"]', timeout=WAIT)
    page.click("#guide-close")
    assert not page.locator("#guide").is_visible()
    page.reload()
    page.wait_for_function("Number(document.body.dataset.version || -1) >= 0", timeout=WAIT)
    assert not page.locator("#guide").is_visible()


def test_invite_link_copied_to_the_clipboard(browser: Any, server: Server) -> None:
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    page.select_option('select[data-seat="2"]', "invite")
    page.click("#start-btn")
    page.wait_for_selector("input.invite-link", timeout=WAIT)
    link = page.input_value("input.invite-link")
    page.click(".copy-invite")
    page.wait_for_function("document.querySelector('.copy-invite').textContent === 'Copied'", timeout=WAIT)
    assert page.evaluate("navigator.clipboard.readText()") == link
    context.close()


def mid_hand(game: Game) -> bool:
    """The first hand under way with melds on both sides, the player to act in the play phase."""
    if game.is_over or game.hand_no != 1 or game.phase != "play":
        return False
    obs = game.observation(game.actor)
    books = "books" not in obs or any(obs["books"])  # Hand and Foot: a completed pile on the table too
    return all(len(side) >= 2 for side in obs["melds"]) and len(obs["hand"]) >= 6 and books


@pytest.mark.parametrize(("variant", "seed", "shot"), [("samba", 1, "samba"), ("hand-and-foot", 0, "hand-and-foot"),
                                                     ("burraco", 2, "burraco")])
@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_variant_tables_fit_the_screen(browser: Any, server: Server, variant: str, seed: int, shot: str,
                                       viewport: tuple[int, int]) -> None:
    """Defect 12 for every family of table: no horizontal overflow, every meld inside the page, no script error.
    With CANASTA_SCREENSHOTS=1 these are docs/screenshots/<variant>.png (desktop)."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500,
                                  has_touch=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    game = Game(variant, 4, seed, {})
    assert advance(game, mid_hand, seed=seed)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    playable = page.locator(".hand .card.playable")
    if playable.count():
        playable.first.click(position={"x": 8, "y": 30})
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    outside = page.evaluate("""() => [...document.querySelectorAll('.meld, .hand .card, #stock, #pile')]
        .filter((e) => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth + 0.5; })
        .map((e) => e.className)""")
    assert outside == []
    # each seat's "(computer)" or "(you)" in one piece: the phone's side columns broke off the ")"
    tag_lines = page.evaluate("[...document.querySelectorAll('.seat-kind')].map((e) => e.getClientRects().length)")
    assert len(tag_lines) == 4 and set(tag_lines) == {1}, tag_lines
    if width > 500:
        shoot(page, shot)
    assert errors == []
    context.close()


def test_two_selected_cards_dragged_onto_a_meld(page: Any, server: Server) -> None:
    """Defect 3 by drag: the selected cards go with the dragged one onto our meld, in one 'add'."""
    game = Game("classic", 4, 12, {})
    assert advance(game, add_two, seed=5)
    stage = Stage(page, game, game.actor)
    stage.open(server.base)
    hand = game.observation(stage.me)["hand"]
    targets = [w[1] for w in (format_action(a).split() for a in game.legal_actions()) if w[0] == "add"]
    target = next(t for t in targets if sum(rank(c) == t for c in hand) >= 2)
    two = [c for c in hand if rank(c) == target][:2]
    select(page, two[:1])
    card = page.locator(f'.hand .card[data-card="{two[1]}"]:not(.selected)').first
    start, end = card.bounding_box(), page.locator(f'#melds-us .meld[data-rank="{target}"]').bounding_box()
    assert start and end
    page.mouse.move(start["x"] + 8, start["y"] + 40)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=10)
    page.mouse.up()
    stage.wait_version(1)
    assert sorted(stage.sent[-1].split()[2:]) == sorted(two) and stage.sent[-1].startswith(f"add {target} ")
    assert not stage.refused


def test_burraco_pozzetto_pick_up_is_announced(page: Any, server: Server) -> None:
    """Defect 10: when a side takes its pozzetto, the table says so (the observation's piles_taken grows)."""
    game = Game("burraco", 4, 0, {})
    before: list[Game] = []

    def taken(g: Game) -> bool:
        if any(g.observation(0)["piles_taken"]):
            return True
        before[:] = [g.copy()]  # the position just before the next action
        return False

    assert advance(game, taken, seed=0, limit=5000, prefer=("meld", "add", "take", "discard"))
    assert before and before[0].hand_no == game.hand_no
    stage = Stage(page, before[0], 0)
    stage.open(server.base)
    stage.game = game
    stage.push()
    page.wait_for_selector("#notice:not([hidden])", timeout=WAIT)
    assert "pozzetto" in page.inner_text("#notice")


def test_the_others_last_plays_are_marked(page: Any, server: Server) -> None:
    """The melds another seat made or added to since our last move are marked; our own move clears them."""
    game = Game("classic", 4, 20, {})
    assert advance(game, lambda g: not g.is_over and g.hand_no == 1 and g.phase == "play"
                   and any(format_action(a).startswith("meld ") for a in g.legal_actions()), seed=13)
    me = (game.actor + 1) % 4
    stage = Stage(page, game, me)
    stage.open(server.base)
    assert page.locator(".meld.fresh").count() == 0
    text = next(format_action(a) for a in game.legal_actions() if format_action(a).startswith("meld "))
    stage.play(text)
    stage.wait_version()
    fresh = page.locator(".meld.fresh")
    assert fresh.count() == 1
    shown = fresh.first.evaluate("e => [...e.querySelectorAll('.card')].map(c => c.dataset.card)")
    assert sorted(shown) == sorted(text.split()[1:])
