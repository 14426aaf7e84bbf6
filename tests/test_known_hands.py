"""Cards everyone saw go into a hand stay visible as ``known_hands`` while they are held.

Issue 7: the expert 'samples the unseen cards consistently with everything the seat has
observed (the cards it saw taken from the pile, discards, melds, counts)'. The discard pile
is face up (Bicycle: the discards are placed 'face up'), so when a player takes it, every
player knows those cards are in that hand until they are played.
"""

from __future__ import annotations

import random

import pytest

from canasta.cards import parse_card
from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import SchemaError
from canasta.players.expert import determinize
from tests.helpers import position


def _taken_game() -> Game:
    """Seat 0 (opened) takes a pile of 9c 5d 4s under a king with a natural pair of kings."""
    game = position(hands={0: "Kh Kd 5d 8c 7c 6s", 1: "Qh Qd Qs Jh Jd", 2: "Th Td Ts 4h", 3: "6h 6d 4d 7h"}, pile="9c 5d 4s Ks",
                    opened=[True, False], melds={0: ["8h 8d 8s"]}, frozen=False)
    game.apply(Action("take", (parse_card("Kh"), parse_card("Kd"))))
    return game


def test_taken_pile_is_known_to_every_seat() -> None:
    game = _taken_game()
    for seat in range(4):
        assert game.observation(seat)["known_hands"][0] == ["4s", "5d", "9c"]
        assert game.observation(seat)["known_hands"][1] == []


def test_known_card_leaves_when_played_but_not_when_a_twin_stays() -> None:
    game = _taken_game()
    game.apply(Action("add", (parse_card("8c"),), 8))  # not a known card: nothing changes
    assert game.observation(1)["known_hands"][0] == ["4s", "5d", "9c"]
    game.apply(Action("discard", (parse_card("5d"),)))  # one of two 5d: the other may be the known one
    assert game.observation(1)["known_hands"][0] == ["4s", "5d", "9c"]


def test_known_card_leaves_when_its_last_copy_is_played() -> None:
    game = _taken_game()
    game.apply(Action("discard", (parse_card("5d"),)))
    for _ in range(3):  # seats 1-3 draw and discard; seat 0 plays its other 5d
        game.apply(Action("draw"))
        game.apply(Action("discard", (game.hand_cards(game.turn)[-1],)))
    game.apply(Action("draw"))
    game.apply(Action("discard", (parse_card("5d"),)))
    assert game.observation(3)["known_hands"][0] == ["4s", "9c"]


def test_known_survives_copy_and_json_and_is_validated() -> None:
    game = _taken_game()
    assert Game.from_json(game.to_json()).observation(2)["known_hands"] == game.observation(2)["known_hands"]
    assert game.copy().known == game.known
    d = game.to_dict()
    d["known"][1] = [parse_card("9c")]  # seat 1 does not hold a 9c
    with pytest.raises(SchemaError, match="known"):
        Game.from_dict(d)


def test_expert_worlds_keep_the_known_cards_in_their_hand() -> None:
    game = _taken_game()
    game.apply(Action("discard", (parse_card("7c"),)))  # seat 1 to play: seat 0 holds 9c 5d 4s
    obs = game.observation(1)
    for k in range(5):
        world = determinize(obs, random.Random(k))
        held = world.hand_cards(0)
        assert all(held.count(parse_card(c)) >= 1 for c in ("9c", "5d", "4s"))
        assert world.observation(1)["known_hands"] == obs["known_hands"]


def test_burraco_pile_take_is_known_until_played() -> None:
    """Burraco: 'take the entire discard pile' (Denexa 'Burraco'): the face-up pile is known to be in
    the taker's hand, and a card of it leaves the list once it is melded or discarded."""
    game = Game("burraco", 4, seed=3)
    rng = random.Random(1)
    for _ in range(400):
        legal = game.legal_actions()
        take = next((a for a in legal if a.kind == "take"), None)
        if take is not None and len(game.pile) >= 2:
            seat, pile = game.actor, sorted(game.pile)
            game.apply(take)
            assert sorted(game.known[seat]) == pile
            assert all(sorted(game.observation(s)["known_hands"][seat]) == sorted(
                game.observation(seat)["known_hands"][seat]) for s in range(4))
            discard = next(a for a in game.legal_actions() if a.kind == "discard" and a.cards[0] in pile)
            game.apply(discard)
            assert game.known[seat].count(discard.cards[0]) <= game.hands[seat][discard.cards[0]]
            assert len(game.known[seat]) == len(pile) - 1 or game.hands[seat][discard.cards[0]] > 0
            return
        game.apply(rng.choice(legal))
    raise AssertionError("no pile of two or more cards was taken")
