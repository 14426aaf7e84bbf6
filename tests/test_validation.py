"""canasta.validation: real play passes it at every step; positions the game cannot reach do not."""

from __future__ import annotations

import random

import pytest

from canasta.cards import NUM_CODES, parse_card
from canasta.engine.game import Game
from canasta.validation import InvalidPositionError, position_problems, validate_position
from canasta.variants import VARIANTS


def _players(variant: str) -> int:
    return 2 if variant == "mille" else 4


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_seeded_random_play_passes_at_every_step(variant: str) -> None:
    for seed in range(2):
        game = Game(variant, _players(variant), seed)
        rng = random.Random(seed)
        for _ in range(600):
            if game.is_over:
                break
            assert position_problems(game) == [], (seed, game.hand_no)
            game.push(rng.choice(game.legal_actions()))


RED_THREES = (parse_card("3h"), parse_card("3d"))


def _live_classic(seed: int = 3) -> Game:
    game = Game("classic", 4, seed)
    rng = random.Random(seed)
    for _ in range(40):
        game.push(rng.choice(game.legal_actions()))
    return game


def test_a_red_three_in_a_hand_is_refused() -> None:
    game = _live_classic()
    seat = (game.actor + 1) % 4
    stock_red = next(i for i, c in enumerate(game.stock) if c in RED_THREES)
    # a card of the hand that nobody has seen (a card from a taken pile is known to every seat)
    swap = next(c for c in range(NUM_CODES) if game.hands[seat][c] and c not in RED_THREES
                and c not in game.known[seat])
    red = game.stock[stock_red]
    game.stock[stock_red] = swap
    game.hands[seat][swap] -= 1
    game.hands[seat][red] += 1
    problems = position_problems(game)
    assert problems and all(p.startswith("threes") for p in problems)
    with pytest.raises(InvalidPositionError):
        validate_position(game)


def test_red_threes_in_hand_are_allowed_where_the_rules_keep_them() -> None:
    game = Game("burraco", 4, 1)  # Burraco has no red-three rule
    hand = game.hands[0]
    i = next(i for i, c in enumerate(game.stock) if c in RED_THREES)
    red = game.stock[i]
    c = next(c for c in range(NUM_CODES) if hand[c] and c not in RED_THREES)
    game.stock[i] = c
    hand[c] -= 1
    hand[red] += 1
    assert position_problems(game) == []


def test_cards_sizes_and_phase_are_checked() -> None:
    game = _live_classic()
    game.stock.pop()
    assert any(p.startswith("cards") for p in position_problems(game))
    game = _live_classic()
    game.hand_sizes[1] += 1
    assert any(p.startswith("sizes") for p in position_problems(game))
    game = _live_classic()
    game.phase = "pass"  # Hand and Foot's, not Classic's
    assert any(p.startswith("phase") for p in position_problems(game))


def test_a_live_hand_without_a_legal_action_is_refused() -> None:
    # the position that crashed ISMCTS: a seat whose only card is a red three it may not hold
    game = _live_classic(5)
    seat = game.actor
    hand = game.hands[seat]
    moved = [c for c in range(NUM_CODES) for _ in range(hand[c])]
    for c in moved:
        hand[c] = 0
    reds = [i for i, c in enumerate(game.stock) if c in RED_THREES]
    red = game.stock.pop(reds[0])
    game.stock.extend(moved)
    hand[red] = 1
    game.hand_sizes[seat] = 1
    problems = position_problems(game)
    assert any(p.startswith("threes") for p in problems)
