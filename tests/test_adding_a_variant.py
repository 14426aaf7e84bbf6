"""The worked examples of docs/architecture.md, "Adding a variant" and "Rule families": a variant defined here,
in the test file itself, as a subclass of the family it belongs to with one rule changed, and a rule family of
its own (a subclass of SetMeldGame with two steps changed, registered for a flag its variant sets), each
registered by name and played through the soak (soundness, completeness, replay, scoring arithmetic) like the
built-in ones."""

from __future__ import annotations

from typing import ClassVar

import pytest

from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.engine.setgame import SetMeldGame
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


# ---------------------------------------------------------------------------------------------------------
# Adding a rule family: a house game whose rule no variant hook reaches (the engine's steps change), so it is a
# family class of its own, registered for a flag its variants set (docs/architecture.md, "Rule families").


class StockOnlyGame(SetMeldGame):
    """Set melds on Classic's turn where the discard pile is never taken: every turn draws from the stock.
    Two steps change, the moves and the check; the rest is the family's."""

    PLAYS: ClassVar[frozenset[str]] = frozenset({"STOCK_ONLY"})

    def _take_actions(self) -> list[Action]:
        return []

    def _check_take(self, action: Action, raise_error: bool) -> bool:
        return self._fail(raise_error, "no-pile-taking", "in this house game the discard pile is never taken")


Game.register_family(StockOnlyGame)


class StockOnlyCanasta(Classic):
    """Classic Canasta played by :class:`StockOnlyGame`: the variant sets the family's flag."""

    name: ClassVar[str] = "stock-only"
    title: ClassVar[str] = "Classic Canasta, the pile never taken (house rule)"
    description: ClassVar[str] = "Classic Canasta where every turn draws from the stock."
    STOCK_ONLY: ClassVar[bool] = True


@pytest.fixture
def stock_only(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(VARIANTS, StockOnlyCanasta.name, StockOnlyCanasta)
    return StockOnlyCanasta.name


def test_a_new_family_is_built_for_its_flag_and_changes_its_steps(stock_only: str) -> None:
    """'One class per rule family ... A family overrides the few steps where its rules differ' (issue 22):
    ``Game(name)`` builds the family registered for the variant's flags; the pile a Classic player could take
    is refused by the new family's check, with its own rule name, and not listed."""
    assert Game.family_of(stock_only) is StockOnlyGame and Game.family_of("classic") is SetMeldGame
    hands = {0: "Ks Kh 5c 7d 9s 10c Jd"}
    classic = position(variant="classic", hands=hands, pile="4c Kd", phase="draw", opened=[True, True])
    house = position(variant=stock_only, hands=hands, pile="4c Kd", phase="draw", opened=[True, True])
    assert type(house) is StockOnlyGame
    assert any(a.kind == "take" for a in classic.legal_actions())
    assert [a.kind for a in house.legal_actions()] == ["draw"]
    assert_illegal(house, "take Ks Kh", "no-pile-taking")
    game = Game(stock_only, 4, 3)
    assert type(Game.from_json(game.to_json())) is StockOnlyGame and type(game.copy()) is StockOnlyGame


def test_the_new_family_plays_through_the_soak(stock_only: str) -> None:
    """The soak holds a new family to what it holds the built-in ones: every listed action passes check(),
    every action check() accepts is listed, hands replay, scores add up, every card is counted."""
    result = run_soak(variant=stock_only, players=4, hands=8, seed=2, complete=True)
    assert result["hands"] >= 8
    assert result["failure_count"] == 0, result["failures"][:2]
    assert result["misses"] == 0 and result["positions_checked"] > 300
