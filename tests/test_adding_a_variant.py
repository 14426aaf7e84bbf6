"""The worked example of docs/architecture.md, "Adding a variant": a variant defined here, in the test
file itself, as a subclass of the family it belongs to with one rule changed, registered by name and
played through the soak (soundness, completeness, replay, scoring arithmetic) like the built-in ones."""

from __future__ import annotations

from typing import ClassVar

import pytest

from canasta.engine.game import Game
from canasta.soak import run_soak
from canasta.variants import VARIANTS, Classic, find_variant
from tests.helpers import act, assert_illegal, position


class FlatFiftyCanasta(Classic):
    """Classic Canasta with one house rule changed: every initial meld needs 50 points, whatever the
    side's score (Classic: 50, 90 from 1,500, 120 from 3,000)."""

    name: ClassVar[str] = "flat-fifty"
    title: ClassVar[str] = "Classic Canasta, flat 50 minimum (house rule)"
    description: ClassVar[str] = "Classic Canasta where the initial meld always needs 50."
    MINIMUM_TABLE: ClassVar[tuple[tuple[int, int], ...]] = ((0, 50),)


@pytest.fixture
def flat_fifty(monkeypatch: pytest.MonkeyPatch) -> str:
    """Registered for the test only (the registry is a dict from name to class: ``canasta.variants.register``)."""
    monkeypatch.setitem(VARIANTS, FlatFiftyCanasta.name, FlatFiftyCanasta)
    return FlatFiftyCanasta.name


def test_the_new_variant_is_found_by_name_and_changes_one_rule(flat_fifty: str) -> None:
    assert find_variant(flat_fifty) is FlatFiftyCanasta
    # Classic at 3,000 asks 120 for the initial meld; the house rule asks 50 (and everything else is Classic's)
    hand = {0: "Ks Kh Kd JK 5c 7d 9s"}  # three kings and a joker: 80 points
    classic = position(variant="classic", hands=hand, scores=[3000, 0], phase="play")
    flat = position(variant=flat_fifty, hands=hand, scores=[3000, 0], phase="play")
    assert classic.minimum(0) == 120 and flat.minimum(0) == 50
    act(classic, "meld Ks Kh Kd JK")
    assert_illegal(classic, "discard 5c", "minimum-count")
    act(flat, "meld Ks Kh Kd JK", "discard 5c")
    assert flat.opened[0] and flat.turn == 1
    game = Game(flat_fifty, 4, 7)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_the_new_variant_plays_through_the_soak(flat_fifty: str) -> None:
    """'... checked by a test that defines a small variant in the test file itself (a family subclass with
    one changed rule) and plays it through the soak' (issue 22): every listed action passes check(), every
    action check() accepts is listed (completeness), hands replay, scores add up, every card is counted."""
    result = run_soak(variant=flat_fifty, players=4, hands=12, seed=5, complete=True)
    assert result["hands"] >= 12
    assert result["failure_count"] == 0, result["failures"][:2]
    assert result["misses"] == 0 and result["positions_checked"] > 500
