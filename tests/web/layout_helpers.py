"""Positions and pages shared by the layout and screenshot tests (issue 49): seeded engine games staged on the
real table page, mid-hand and at the first hand's end (the server's pause over the finished table)."""

from __future__ import annotations

from typing import Any

from table_stage import Stage, advance
from web_helpers import Server

from canasta.engine.game import Game

# (variant, seed): seeds whose first hand reaches melds on both sides within the search's limit
VARIANTS = {"classic": 3, "samba": 1, "hand-and-foot": 0, "burraco": 2}


def mid_hand(game: Game) -> bool:
    """Hand 1 under way, the player to act in the play phase, melds on both sides (a book too in Hand and Foot)."""
    if game.is_over or game.hand_no != 1 or game.phase != "play":
        return False
    obs = game.observation(game.actor)
    books = "books" not in obs or any(obs["books"])
    return all(len(side) >= 1 for side in obs["melds"]) and len(obs["hand"]) >= 6 and books


_positions: dict[str, tuple[Game, Game]] = {}


def positions(variant: str) -> tuple[Game, Game]:
    """The variant's mid-hand position and its first hand's end (the table as it ended: no new deal)."""
    if variant not in _positions:
        seed = VARIANTS[variant]
        game = Game(variant, 4, seed, {})
        assert advance(game, mid_hand, seed=seed)
        ended = game.copy()
        ended.deals_next_hand = False
        assert advance(ended, lambda g: bool(g.hand_results), seed=seed, prefer=("meld", "add", "take", "go_out"))
        _positions[variant] = (game, ended)
    return _positions[variant]


class HandEndStage(Stage):
    """The stage at a hand's end: the server's pause (the player still to click on) over the finished table."""

    def state(self) -> dict[str, Any]:
        s = super().state()
        if self.game.hand_results:
            finished = dict(s["obs"], hand_results=self.game.hand_results, scores=list(self.game.scores),
                            actor=None, hand_over=True)
            s.update(obs=finished, legal=[], finished=finished,
                     pause={"hand": self.game.hand_results[-1]["hand"], "waiting": [self.me], "ready": []})
        return s


def open_table(browser: Any, server: Server, viewport: tuple[int, int], game: Game) -> tuple[Any, HandEndStage]:
    width, height = viewport
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
                                  reduced_motion="reduce")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    stage = HandEndStage(page, game, game.actor)
    stage.open(server.base)
    return page, stage
