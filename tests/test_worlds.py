"""Determinizations of canasta.players.worlds: Hand and Foot, Triple Play, Modern American.

Along seeded games (the random player at even seats, the basic player at odd ones) every
sampled world must show the acting seat exactly its observation, give it exactly the legal
actions of the real game, hold exactly the variant's pack, and play on to the end of the hand
with random moves. Different sampling seeds deal the hidden cards differently but never touch
what the seat sees.

The observation does not show some turn state (was the pile taken, or taken back, this turn;
was the last stock card a red three; has an open side melded this turn): the module enumerates
it, so with ``legal=`` the world matches exactly, and without it the function either returns a
world that still matches or raises ValueError (the caller falls back to another player).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from canasta.engine.actions import Action
from canasta.engine.american import AmericanGame
from canasta.engine.feet import FootGame
from canasta.engine.game import Game
from canasta.players import get_player
from canasta.players.worlds import determinize_american, determinize_feet, determinizer_for
from canasta.validation import position_problems
from canasta.variants import find_variant

CASES = [("hand-and-foot", 2), ("hand-and-foot", 3), ("hand-and-foot", 4), ("triple-play", 4), ("american", 4)]


def _det(variant: str) -> Any:
    return determinize_american if variant == "american" else determinize_feet


def _positions(variant: str, players: int, seed: int, decisions: int, every: int = 1,
               rules: dict[str, Any] | None = None) -> Iterator[tuple[Game, int, dict[str, Any], list[Action]]]:
    """Every ``every``-th decision of a seeded game: (a copy of the game, acting seat, its observation,
    legal actions)."""
    game = Game(variant, players, seed, rules)
    bots = [get_player("random" if s % 2 == 0 else "basic", seed=seed * 10 + s) for s in range(players)]
    for step in range(decisions):
        if game.is_over:
            return
        seat = game.actor
        obs = game.observation(seat)
        legal = game.legal_actions()
        if step % every == 0:
            yield game.copy(), seat, obs, legal
        game.apply(bots[seat].choose(obs, legal))


def _cards(world: Game) -> Counter[int]:
    held = list(world.stock) + list(world.pile) + list(world.pile_aside or [])
    for h in world.hands:
        held += [c for c, k in enumerate(h) for _ in range(k)]
    held += [c for side in world.melds for m in side.values() for c in m.cards]
    held += [c for r in world.red_threes for c in r] + [c for r in world.removed for c in r]
    if isinstance(world, AmericanGame):
        held += [c for b in world.bonus for c in b]
    if isinstance(world, FootGame):
        held += [c for f in world.feet for c in f] + [c for k in world.knees for c in k]
        held += [c for side in world.books for _, cards in side for c in cards]
        held += [c for piles in world.passing for p in piles for c in p]  # the hand-passing deal's piles
    return Counter(held)


def _hidden(world: Game, seat: int) -> tuple[Any, ...]:
    """Everything the seat cannot see: the other hands, feet, knees, bonus cards, the stock."""
    out: list[Any] = [tuple(world.stock)]
    out += [tuple(h) for s, h in enumerate(world.hands) if s != seat]
    if isinstance(world, FootGame):
        out += [tuple(f) for f in world.feet] + [tuple(k) for k in world.knees]
    if isinstance(world, AmericanGame):
        out += [tuple(b) for b in world.bonus]
    return tuple(out)


def _check(world: Game, seat: int, obs: dict[str, Any], legal: list[Action], play_seed: int) -> None:
    assert world.observation(seat) == obs
    assert world.legal_actions() == legal
    assert _cards(world) == Counter(world.variant.deck())
    assert position_problems(world) == []
    rng = random.Random(play_seed)
    hand_no = world.hand_no
    for _ in range(6000):
        if world.is_over or world.hand_no != hand_no:
            return
        moves = world.legal_actions()
        assert moves, f"the world reached a position without legal actions (phase {world.phase})"
        world.apply(rng.choice(moves))
    raise AssertionError("the hand did not end in 6000 random moves")


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_worlds_match_the_seat_along_games(variant: str, players: int) -> None:
    det = _det(variant)
    rng = random.Random(variant)
    checked = 0
    for seed in (1, 2):
        for game, seat, obs, legal in _positions(variant, players, seed, 240, every=3):
            world = det(obs, rng, legal)
            assert world.hands[seat] == game.hands[seat]
            _check(world, seat, obs, legal, checked)
            checked += 1
    assert checked >= 100


@pytest.mark.parametrize("players", [2, 4])
def test_worlds_match_the_seat_in_the_hand_passing_deal(players: int) -> None:
    """Hand and Foot's hand-passing deal (option hand_passing): during the phase 'pass' (every decision of it,
    the other seats' hidden choices drawn at random) and after it (feet with their turned-up card on top), the
    world shows the seat exactly its observation."""
    rng = random.Random(players)
    passing = after = 0
    for seed in (1, 2, 3):
        for game, seat, obs, legal in _positions("hand-and-foot", players, seed, 60, rules={"hand_passing": True}):
            if obs["phase"] != "pass" and game.history and len(game.history) % 4:
                continue
            world = determinize_feet(obs, rng, legal)
            assert world.hands[seat] == game.hands[seat]
            if obs["phase"] == "pass":
                assert [[p[-1] for p in ps] for ps in world.passing] == [[p[-1] for p in ps] for ps in game.passing]
                passing += 1
            else:
                assert [f[-1] if f else None for f in world.feet] == game.foot_shown
                after += 1
            _check(world, seat, obs, legal, passing + after)
    assert passing == 3 * players and after >= 20


@pytest.mark.parametrize(("variant", "players"), [("hand-and-foot", 2), ("triple-play", 4), ("american", 4)])
def test_without_legal_a_world_matches_or_value_error(variant: str, players: int) -> None:
    """Without the legal actions the turn state may be ambiguous: never an inconsistent world."""
    det = _det(variant)
    rng = random.Random(variant)
    worlds = refused = 0
    for _game, seat, obs, legal in _positions(variant, players, 3, 300, every=2):
        try:
            world = det(obs, rng)
        except ValueError as exc:
            assert "turn state" in str(exc)
            refused += 1
            continue
        _check(world, seat, obs, legal, worlds)
        worlds += 1
    assert worlds > 4 * refused


def test_triple_play_pile_take_is_recovered_from_the_legal_actions() -> None:
    """After a pile take a Triple Play player knocks instead of discarding: the world must know."""
    seen = set()
    for seed in range(1, 5):
        for game, _seat, obs, legal in _positions("triple-play", 4, seed, 300):
            if obs["phase"] != "play" or not any(a.kind in ("discard", "end") for a in legal):
                continue
            world = determinize_feet(obs, random.Random(seed), legal)
            assert world.took_pile == game.took_pile
            assert world.legal_actions() == legal
            seen.add(game.took_pile)
    assert seen == {True, False}


def test_american_bonus_cards_are_dealt_face_down() -> None:
    """Bonus cards held face down (the seat's own too) come from the unseen cards."""
    found = 0
    for seed in range(1, 7):
        for game, _seat, obs, legal in _positions("american", 4, seed, 300):
            if not any(obs["bonus_cards"]):
                continue
            world = determinize_american(obs, random.Random(seed), legal)
            assert [len(b) for b in world.bonus] == obs["bonus_cards"]
            assert world.pile_aside is None or game.pile_aside is not None
            found += 1
    assert found


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), decisions=st.integers(0, 160),
       deal=st.integers(0, 2**32))
def test_sampling_seeds_change_hidden_cards_never_the_view(case: tuple[str, int], seed: int, decisions: int,
                                                          deal: int) -> None:
    variant, players = case
    det = _det(variant)
    positions = list(_positions(variant, players, seed, decisions + 1))
    assert positions
    game, seat, obs, legal = positions[-1]
    before = copy.deepcopy(obs)
    deals = set()
    for k in range(6):
        world = det(obs, random.Random(deal + k), legal)
        assert world.observation(seat) == obs
        assert world.legal_actions() == legal
        assert world.hands[seat] == game.hands[seat]
        deals.add(_hidden(world, seat))
    assert len(deals) > 1
    assert obs == before  # the observation itself is left as it was


def test_determinizer_for() -> None:
    assert determinizer_for(find_variant("hand-and-foot")) is determinize_feet
    assert determinizer_for(find_variant("triple-play")) is determinize_feet
    assert determinizer_for(find_variant("american")) is determinize_american
    for name in ("classic", "burraco", "samba"):
        assert determinizer_for(find_variant(name)) is None


def test_observations_that_cannot_be_completed_raise_value_error() -> None:
    game = Game("hand-and-foot", 4, 5)
    obs = game.observation(game.actor)
    with pytest.raises(ValueError):
        determinize_american(obs, random.Random(0))
    with pytest.raises(ValueError):
        determinize_feet({**obs, "stock_size": obs["stock_size"] + 1}, random.Random(0))
    with pytest.raises(ValueError):
        determinize_feet(obs, random.Random(0), legal=[])
    american = Game("american", 4, 5)
    obs = american.observation(american.actor)
    with pytest.raises(ValueError):
        determinize_feet(obs, random.Random(0))
    with pytest.raises(ValueError):
        determinize_american({**obs, "hand_sizes": [s + 200 for s in obs["hand_sizes"]]}, random.Random(0))
