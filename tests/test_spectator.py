"""The spectator's view, ``Game.observation(None)``: only what every seat sees.

Property: for every seat ``s``, the spectator's observation equals ``s``'s except for ``s``'s own
hand, identity (seat, side, partner) and entries of per-seat lists at index ``s``; so whatever the
spectator holds about a seat ``i``, every other seat's observation holds too.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta.engine.game import Game
from canasta.variants import VARIANTS

OWN = ("hand", "seat", "side", "partner")

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    (name, players, {}) for name, cls in sorted(VARIANTS.items()) for players in cls.player_counts[:2]
] + [
    ("hand-and-foot", 4, {"hand_passing": True}),
    ("hand-and-foot", 2, {"hand_passing": True}),
    ("hand-and-foot", 4, {"self_deal": True}),
]


def assert_spectator_sees_only_shared(game: Game) -> None:
    spectator = game.observation(None)
    assert spectator["hand"] == [] and spectator["seat"] is None
    assert spectator["side"] is None and spectator["partner"] is None
    n = game.num_players
    for seat in range(n):
        seen = game.observation(seat)
        assert set(seen) == set(spectator)
        for key, value in spectator.items():
            if key in OWN or value == seen[key]:
                continue
            # only a per-seat list may differ, and only at the observing seat's own entry
            assert isinstance(value, list) and len(value) == n, (key, value, seen[key])
            for other in range(n):
                if other != seat:
                    assert value[other] == seen[key][other], (key, other, value, seen[key])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_spectator_view_holds_only_what_every_seat_sees(table: tuple[str, int, dict[str, Any]], seed: int,
                                                        steps: int) -> None:
    variant, players, rules = table
    game = Game(variant, players, seed, rules)
    pick = random.Random(seed)
    for _ in range(steps):
        assert_spectator_sees_only_shared(game)
        if game.is_over:
            break
        game.apply(pick.choice(game.legal_actions()))
    assert_spectator_sees_only_shared(game)


def test_hand_passing_keep_is_hidden_from_spectators() -> None:
    """The reported leak: seat 0 kept pile 2 during phase 'pass'; a spectator saw kept=[2, None, None, None]."""
    game = Game("hand-and-foot", 4, 1, {"hand_passing": True})
    assert game.phase == "pass"
    first = game.actor
    game.apply(next(a for a in game.legal_actions() if a.target == 2))
    assert game.phase == "pass"
    assert game.observation(first)["kept"][first] == 2
    assert game.observation(None)["kept"] == [None] * 4
    assert game.observation((first + 1) % 4)["kept"] == [None] * 4
    assert_spectator_sees_only_shared(game)


def test_web_spectator_state_is_the_engine_spectator_view() -> None:
    from canasta.web.service import Live, SeatInfo, public_state

    game = Game("hand-and-foot", 4, 1, {"hand_passing": True})
    game.apply(next(a for a in game.legal_actions() if a.target == 2))
    seats = [SeatInfo(s, "human", None, "", None, None) for s in range(4)]
    live = Live(id="x", variant="hand-and-foot", players=4, seed=1, rules={"hand_passing": True}, game=game,
                seats=seats, events=[{"seq": 1, "seat": 0, "action": "keep 2"}])
    state = public_state(live, None)
    assert state["obs"] == game.observation(None)
    assert state["obs"]["kept"] == [None] * 4
    assert state["legal"] == []
