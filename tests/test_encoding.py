"""Action indexing and observation encoding (canasta.encoding) over random games of every variant."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

import numpy as np

from canasta.encoding import (
    NUM_ACTIONS,
    action_mask,
    decode,
    describe_index,
    encode_action,
    encode_observation,
    encode_position,
    legal_indices,
    num_actions,
    obs_layout,
    obs_size,
    obs_slots,
    variant_obs_layout,
)
from canasta.engine.game import Game
from canasta.variants import VARIANTS

CASES = [(name, n) for name in sorted(VARIANTS) for n in (2, 3, 4) if n in VARIANTS[name].player_counts]
RULES = [{}, {"wild_canastas": True, "stock_reshuffle": True}]


def _known(variant: str, rules: dict[str, object]) -> dict[str, object]:
    """The table rules of ``rules`` that the variant has (Mille fixes these Classic ones)."""
    return {k: v for k, v in rules.items() if k in VARIANTS[variant].options}


def _random_hand(game: Game, rng: random.Random) -> int:
    steps = 0
    hand_no = game.hand_no
    variant = game.variant_name
    while not game.is_over and game.hand_no == hand_no and steps < 3000:
        legal = game.legal_actions()
        idx = legal_indices(legal, variant)  # raises on a shared index
        assert len(idx) == len(legal)
        for i, a in idx.items():
            assert 0 <= i < num_actions(variant)
            assert decode(i, legal, variant) == a
        mask = action_mask(legal, variant)
        assert mask.sum() == len(legal)
        obs = encode_observation(game.observation(game.actor))
        assert obs.shape == (obs_size(variant, game.num_players),) and np.isfinite(obs).all()
        game.push(rng.choice(legal))
        steps += 1
    return steps


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.parametrize("rules", RULES)
def test_every_legal_action_has_a_unique_index(variant: str, players: int, rules: dict[str, object]) -> None:
    if any(k not in VARIANTS[variant].options for k in rules):
        pytest.skip(f"{variant} has no such table rules")
    for seed in range(2):
        game = Game(variant, players, seed, _known(variant, rules))
        assert _random_hand(game, random.Random(seed)) > 0


def test_basic_player_hands_cover_multi_card_additions() -> None:
    from canasta.players import BasicPlayer
    seen: set[int] = set()
    for seed in range(3):
        game = Game("classic", 4, seed, {"target_score": 1500})
        p = BasicPlayer()
        steps = 0
        while not game.is_over and steps < 4000:
            legal = game.legal_actions()
            seen.update(legal_indices(legal))
            game.push(p.choose(game.observation(game.actor), legal))
            steps += 1
    assert any(describe_index(i).startswith("add") for i in seen)


def test_indices_are_documented_and_stable() -> None:
    from canasta.engine.actions import Action
    assert NUM_ACTIONS == 912  # 908 for Canasta, and four for Mille's Q of spades and J of diamonds
    assert encode_action(Action("draw")) == 0
    assert describe_index(6) == "take"
    assert describe_index(907).startswith("add black threes")
    assert describe_index(NUM_ACTIONS - 1) == "add the jack of diamonds (Mille)"
    with pytest.raises(ValueError):
        describe_index(NUM_ACTIONS)


def test_observation_is_the_seats_view_only() -> None:
    # Two games whose hidden cards differ give the same vector for the seat.
    game = Game("classic", 4, 3)
    d = game.to_dict()
    other = dict(d)
    hands = [list(h) for h in d["hands"]]
    hands[1], hands[3] = hands[3], hands[1]
    other["hands"] = hands
    other["stock"] = list(reversed(d["stock"]))
    swapped = Game.from_dict(other)
    a = encode_observation(game.observation(0))
    b = encode_observation(swapped.observation(0))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, encode_observation(game.observation(1)))


def test_american_table_rules_keep_indices_unique() -> None:
    """Modern American with the Encyclopedia's threes (any number kept, both colours laid out by choice) and
    melds past seven when going out: every legal action still has its own index; a red and a black three
    laid out are two indices (the colours score apart)."""
    rules = {"threes_optional": True, "going_out_overflow": True}
    for seed in range(4):
        assert _random_hand(Game("american", 4, seed, rules), random.Random(seed)) > 0
    from helpers import position
    game = position(variant="american", hands={0: "3h 3s 4c 5c", 2: "8c 9c"}, melds={0: ["Kh Kd Ks"]},
                    stock="6c 7c 8d", rules=rules)
    idx = legal_indices(game.legal_actions(), "american")
    layouts = {i for i, a in idx.items() if a.kind == "meld"}
    assert len(layouts) == 2 and num_actions("american") == 918
    assert {describe_index(i, "american").split(":")[0] for i in layouts} == {"meld a red three", "meld a black three"}


def test_sizes_of_hand_and_foots_six_and_eight_players() -> None:
    """Every table of at most four players keeps its vector; Hand and Foot's 6 and 8 players get a slot per seat
    (the sides, at most four, keep their four slots); the length does not depend on the teams (team_size)."""
    for name in sorted(VARIANTS):
        for n in [None, *(p for p in VARIANTS[name].player_counts if p <= 4)]:
            assert obs_size(name, n) == obs_size(name)
    assert obs_size("classic") == 347 and obs_size("american") == 367 and obs_size("triple-play") == 367
    assert obs_size("hand-and-foot") == 556 and num_actions("hand-and-foot") == 916
    assert obs_slots() == obs_slots(4) == obs_slots(2) == (4, 4)
    assert obs_slots(6) == (6, 4) and obs_slots(8) == (8, 4)
    assert obs_size("hand-and-foot", 6) == 658 and obs_size("hand-and-foot", 8) == 760
    assert sum(n for _, n in obs_layout(6)) == 347 + 4 and sum(n for _, n in obs_layout(8)) == 347 + 8
    assert [name for name, _ in variant_obs_layout("hand-and-foot", 8)] == [name for name, _ in variant_obs_layout("hand-and-foot")]
    for players, rules in ((6, {}), (6, {"team_size": 3}), (8, {})):
        game = Game("hand-and-foot", players, 1, rules)
        assert encode_observation(game.observation(0)).shape == (obs_size("hand-and-foot", players),)
    with pytest.raises(ValueError):
        obs_size("burraco", 6)  # no meld-id variant seats more than four


HF_TABLES = [(6, {}), (6, {"team_size": 3}), (8, {}), (6, {"hand_passing": True, "team_size": 3}),
             (8, {"hand_passing": True})]


@pytest.mark.parametrize(("players", "rules"), HF_TABLES)
def test_hand_and_foot_six_and_eight_players(players: int, rules: dict[str, object]) -> None:
    """Random hands of Hand and Foot's larger tables: every legal action has its own index that decodes back,
    and every seat's view encodes, finite, with its seats relative to its own (slot 0 its own hand)."""
    variant = "hand-and-foot"
    game = Game(variant, players, 5, rules)
    assert _random_hand(game, random.Random(5)) > 0
    game = Game(variant, players, 6, rules)
    rng = random.Random(6)
    names = [name for name, _ in obs_layout(players)]
    hand_sizes = sum(n for _, n in obs_layout(players)[:names.index("hand_sizes")])
    for step in range(600):
        if game.is_over:
            break
        if step % 20 == 0:
            for seat in range(players):
                o = game.observation(seat)
                vec = encode_observation(o)
                assert vec.shape == (obs_size(variant, players),) and np.isfinite(vec).all()
                assert vec.min() >= -1 and vec.max() < 10
                for rel in range(players):
                    assert vec[hand_sizes + rel] == np.float32(o["hand_sizes"][(seat + rel) % players] / 20)
        game.push(rng.choice(game.legal_actions()))


#: every variant at each of its tables, and the table rules whose observation blocks differ
POSITION_TABLES = [(v, n, {}) for v in sorted(VARIANTS) for n in VARIANTS[v].player_counts] + [
    ("hand-and-foot", 4, {"hand_passing": True}), ("hand-and-foot", 6, {"hand_passing": True, "team_size": 3}),
    ("hand-and-foot", 4, {"red_threes_laid_out": False}), ("classic", 4, {"always_frozen": True}),
    ("hand-and-foot", 4, {"self_deal": True})]


@pytest.mark.parametrize(("variant", "players", "rules"), POSITION_TABLES)
def test_encode_position_is_the_observation_dicts_vector(variant: str, players: int, rules: dict[str, object]) -> None:
    """The environments encode from the engine's codes (issue 55): for every seat, at every step of random
    whole hands, exactly the vector the observation dict gives (and in float64 too)."""
    from canasta.players import get_player

    rng = random.Random(players)
    basic = get_player("basic", 0)  # half the moves BasicPlayer's: it melds (random play seldom does)
    for seed in range(2):
        g = Game(variant, players, seed, rules)
        g.deals_next_hand = False
        steps = 0
        while not g.hand_results and not g.is_over and steps < 600:
            for seat in range(players):
                want = encode_observation(g.observation(seat))
                got = encode_position(g, seat)
                assert got.dtype == want.dtype
                assert np.array_equal(got, want), (variant, seed, steps, seat, np.flatnonzero(got != want)[:5])
            legal = g.legal_actions()
            g.push(basic.choose(g.observation(g.actor), legal) if rng.random() < 0.5 else rng.choice(legal))
            steps += 1
        assert np.array_equal(encode_position(g, 0, np.float64), encode_observation(g.observation(0), np.float64))
