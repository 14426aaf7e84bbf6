"""``Game.from_dict``/``from_json`` refuse positions whose fields contradict each other (issue 17).

The issue: "it accepts a take_snapshot (the state kept when a player takes the pile before completing the meld,
for retracting) inconsistent with the pile, and a retract then loses cards. Validate every such cross-field
invariant on load ... and refuse with a typed error naming what is inconsistent."
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta import Game
from canasta.engine.actions import RETRACT
from canasta.errors import CanastaError, InconsistentPositionError
from canasta.validation import card_codes
from canasta.variants import VARIANTS

ALL_VARIANTS = sorted(VARIANTS)


def _players(variant: str) -> int:
    return 4 if 4 in VARIANTS[variant].player_counts else 2


def _find_retractable_take(variant: str, seed: int, max_steps: int = 3000) -> Game | None:
    """A position of random play (preferring takes and melds) in which a pile take can still be retracted:
    the pile was taken before the side's initial meld was complete, and the rest of it is set aside."""
    rng = random.Random(seed)
    game = Game(variant, _players(variant), seed)
    for _ in range(max_steps):
        if game.is_over:
            game = Game(variant, _players(variant), rng.randrange(100_000))
        if game.took_pile and game.pile_aside and RETRACT in {a.kind for a in game.legal_actions()}:
            return game
        legal = game.legal_actions()
        building = [a for a in legal if a.kind in ("take", "meld")]
        game.apply(rng.choice(building if building and rng.random() < 0.9 else legal))
    return None


def _retractable_take(variant: str, seed: int) -> Game:
    game = _find_retractable_take(variant, seed)
    assert game is not None, f"{variant}: no retractable pile take reached"
    return game


def _deck_counts(game: Game) -> list[int]:
    counts = [0] * len(card_codes(game))
    for code in game.variant.deck():
        counts[code] += 1
    return counts


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot", "american"])
def test_snapshot_inconsistent_with_the_pile_is_refused(variant: str) -> None:
    """A card moved from the cards set aside after the take into the hand keeps the pack whole, but the
    snapshot (the pile a retract restores) still holds it: loading it must be refused, naming take_snapshot;
    otherwise a retract would put that card back on the pile while the hand still holds it."""
    game = _retractable_take(variant, seed=3)
    data = json.loads(game.to_json())
    assert Game.from_json(json.dumps(data)).to_json() == game.to_json()  # the real position loads
    moved = data["pile_aside"].pop()
    data["hands"][game.turn].append(moved)
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.field == "take_snapshot"


def test_snapshot_top_card_not_on_the_table_is_refused() -> None:
    """The snapshot's top card must be in a meld made this turn: a retract takes it back from the hand."""
    game = _retractable_take("classic", seed=3)
    data = json.loads(game.to_json())
    data["take_snapshot"]["top"] = next(c for c in data["hands"][game.turn] if c not in (data["take_snapshot"]["top"],))
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.field == "take_snapshot"


def test_take_without_snapshot_loads_and_a_retract_conserves_the_cards() -> None:
    """A position without the snapshot (as sampled worlds build it) is accepted: its retract restores no pile,
    so it takes back the melds of the turn and no card is created or lost."""
    game = _retractable_take("classic", seed=3)
    data = json.loads(game.to_json())
    data["take_snapshot"] = None
    loaded = Game.from_json(json.dumps(data))
    loaded.apply(next(a for a in loaded.legal_actions() if a.kind == RETRACT))
    assert card_codes(loaded) == _deck_counts(loaded)


def test_phase_inconsistent_with_the_turn_is_refused() -> None:
    """A player still to draw cannot have taken the pile; a player in the play phase has drawn."""
    game = _retractable_take("classic", seed=3)
    data = json.loads(game.to_json())
    data["phase"] = "draw"
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.field == "phase"
    fresh = json.loads(Game("classic", 4, 1).to_json())
    fresh["phase"] = "play"
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(fresh))
    assert info.value.field == "phase"


# ------------------------------------------------------------------ the property
def _card_zones(data: dict[str, Any]) -> list[tuple[Any, Any]]:
    """Every list of cards in a saved position, as (container, key): the stock, the pile, the cards set aside,
    hands, melds, laid-out threes, removed cards, feet, knees, books, pozzetti and face-down piles, bonus
    cards, and the take snapshot's pile and cards (a record, not a zone: moving cards into it tests the
    cross-check)."""
    zones: list[tuple[Any, Any]] = [(data, "stock"), (data, "pile")]
    if isinstance(data.get("pile_aside"), list):
        zones.append((data, "pile_aside"))
    if isinstance(data.get("take_snapshot"), dict):
        zones += [(data["take_snapshot"], "pile"), (data["take_snapshot"], "cards")]
    for key in ("hands", "red_threes", "removed", "feet", "knees", "extra_piles", "face_down", "bonus"):
        for i in range(len(data.get(key) or [])):
            zones.append((data[key], i))
    for side in data["melds"]:
        for meld in side:
            index = next(i for i, x in enumerate(meld) if isinstance(x, list))
            zones.append((meld, index))
    for side in data.get("books") or []:
        for book in side:
            zones.append((book, 1))
    return zones


def _mutate(data: dict[str, Any], op: str, source: int, target: int, pick: int) -> bool:
    """Move, drop or duplicate one card between zones (False if there is no card to pick)."""
    zones = _card_zones(data)
    full = [z for z in zones if z[0][z[1]]]
    if not full:
        return False
    container, key = full[source % len(full)]
    cards = container[key]
    i = pick % len(cards)
    card = cards[i]
    to_container, to_key = zones[target % len(zones)]
    if op in ("move", "drop"):
        del cards[i]
    if op in ("move", "duplicate"):
        to_container[to_key].append(card)
    return True


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(ALL_VARIANTS), seed=st.integers(0, 5000), at_take=st.booleans(),
       steps=st.integers(0, 300), op=st.sampled_from(["move", "drop", "duplicate"]),
       source=st.integers(0, 10_000), target=st.integers(0, 10_000), pick=st.integers(0, 10_000),
       playout_seed=st.integers(0, 10_000))
def test_mutated_positions_are_refused_or_conserve_every_card(variant: str, seed: int, at_take: bool, steps: int,
                                                              op: str, source: int, target: int, pick: int,
                                                              playout_seed: int) -> None:
    """Issue 17: 'mutate a valid position's JSON (move/drop/duplicate a card between zones) and either load
    refuses it or the loaded game conserves every card through a random playout including retracts.'"""
    found = _find_retractable_take(variant, seed) if at_take and variant != "burraco" else None  # (no retract)
    if found is not None:
        game = found
    else:
        game = Game(variant, _players(variant), seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
    data = copy.deepcopy(json.loads(game.to_json()))
    if not _mutate(data, op, source, target, pick):
        return
    try:
        loaded = Game.from_json(json.dumps(data))
    except CanastaError:
        return  # refused: the property holds
    deck = _deck_counts(loaded)
    rng = random.Random(playout_seed)
    for step in range(200):
        assert card_codes(loaded) == deck, f"{variant}: cards not conserved after {step} actions of the playout"
        if loaded.is_over:
            break
        legal = loaded.legal_actions()
        retracts = [a for a in legal if a.kind == RETRACT]
        loaded.apply(retracts[0] if retracts and rng.random() < 0.7 else rng.choice(legal))


@pytest.mark.parametrize(("variant", "flag", "field"), [("hand-and-foot", "in_foot", "feet"),
                                                         ("triple-play", "in_foot", "feet"),
                                                         ("triple-play", "in_knee", "knees")])
def test_picked_up_pile_that_still_holds_cards_is_refused(variant: str, flag: str, field: str) -> None:
    """Denexa: a player who has played their hand 'picks up their foot' (Triple Play: the knee first): a seat
    marked as playing from its foot (knee) whose foot (knee) pile still holds cards is inconsistent."""
    data = json.loads(Game(variant, 4, 2).to_json())
    data[flag][0] = True
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.field == field


def _position_with(variant: str, wanted: Any, seed: int = 4, max_steps: int = 4000) -> Game:
    rng = random.Random(seed)
    game = Game(variant, _players(variant), seed)
    for _ in range(max_steps):
        if game.is_over:
            game = Game(variant, _players(variant), rng.randrange(100_000))
        if wanted(game):
            return game
        legal = game.legal_actions()
        building = [a for a in legal if a.kind in ("take", "meld", "add")]
        game.apply(rng.choice(building if building and rng.random() < 0.9 else legal))
    raise AssertionError(f"{variant}: no such position reached")


def test_wild_card_in_an_escalera_is_refused() -> None:
    """Denexa 'Samba': 'Wild cards can only be used in sets; they are prohibited in escaleras.' A saved
    escalera holding a 2 (the pack still whole: the 2 comes from the stock) is refused, naming the melds (found
    by the property above: it loaded, and its listed additions were refused by check())."""
    game = _position_with("samba", lambda g: any(m.kind == "run" for side in g.melds for m in side.values()))
    data = json.loads(game.to_json())
    run = next(m for side in data["melds"] for m in side if m[1] == "run")
    wild = next(c for c in data["stock"] if 8 <= c <= 11)
    data["stock"].remove(wild)
    run[2].append(wild)
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.field == "melds"


def test_set_meld_with_a_card_of_another_rank_is_refused() -> None:
    """Bicycle 'Melds': a meld is 'three or more cards of the same rank'."""
    game = _position_with("classic", lambda g: any(g.melds[s] for s in range(2)))
    data = json.loads(game.to_json())
    rank, cards = next(m for side in data["melds"] for m in side)
    other = next(c for c in data["stock"] if c >> 2 not in (rank, 2, 3) and c < 60)
    data["stock"].remove(other)
    cards.append(other)
    with pytest.raises(InconsistentPositionError) as info:
        Game.from_json(json.dumps(data))
    assert info.value.field == "melds"
