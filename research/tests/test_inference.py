"""Inference from the discards (research.inference) and the expert's ``read_discards`` worlds."""

from __future__ import annotations

import importlib
import math
import random
from typing import Any

from canasta.cards import parse_card
from canasta.engine.actions import DISCARD
from canasta.engine.game import Game
from canasta.players.basic import EXPERT_STYLE, BasicPlayer
from canasta.players.expert import determinize
from research.inference import DiscardRead, deal_reading_discards, discard_log_likelihood, discard_reads, kind_of


def test_discard_reads_name_each_other_side_s_last_discard_and_the_pile_it_went_on() -> None:
    """"The player completes the turn by discarding one card ... onto the discard pile" (Bicycle): the top card is
    the last discard of the seat before the one to play, the one under it of the seat before that. Read for the
    other side's seats only; the bottom card credited to the dealer may be the upcard, so it is not read."""
    obs: dict[str, Any] = {"players": 4, "seat": 0, "side": 0, "partner": 2, "turn": 0, "dealer": 1, "phase": "draw",
                           "frozen": False, "melds": [[], []], "pile": ["5C", "9D", "KH", "4S"]}
    reads = discard_reads(obs)
    assert [(r.seat, r.thrown) for r in reads] == [(3, parse_card("4S")), (1, parse_card("9D"))]
    assert reads[0].then["pile"] == ["5C", "9D", "KH"] and reads[1].then["pile"] == ["5C"]
    assert all(r.then["seat"] == r.then["turn"] == r.seat and r.then["hand"] == [] for r in reads)
    assert reads[0].then["side"] == 1 and reads[0].then["partner"] == 1
    # three cards: the dealer's bottom card may be the upcard
    assert [r.seat for r in discard_reads({**obs, "pile": ["9D", "KH", "4S"]})] == [3]
    # a wild card thrown later froze the pile: it was not frozen when the seat before it threw
    frozen = discard_reads({**obs, "frozen": True, "pile": ["5C", "9D", "2H", "4S"]})
    assert [r.then["frozen"] for r in frozen] == [True, False]
    assert discard_reads({**obs, "pile": []}) == []
    two = discard_reads({**obs, "players": 2, "partner": None, "melds": [[], []], "pile": ["KH", "4S"]})
    assert [(r.seat, r.thrown) for r in two] == [(1, parse_card("4S"))]


def test_a_seat_s_hand_now_is_its_hand_after_the_discard_read() -> None:
    """The premise: a seat has not acted since its last discard, so the hand it threw from is its hand now plus
    the card read (checked along seeded games of BasicPlayer at every seat)."""
    basic = BasicPlayer()
    checked = 0
    for seed in range(3):
        game = Game("classic", 4, f"premise/{seed}")
        after: dict[int, tuple[int, list[int]]] = {}
        while not game.is_over and game.hand_no == 1:
            obs = game.observation(game.actor)
            for read in discard_reads(obs):
                thrown, hand = after[read.seat]
                assert read.thrown == thrown and game.hand_cards(read.seat) == hand
                checked += 1
            action = basic.choose(obs, game.legal_actions())
            actor = game.actor
            game.apply(action)
            if action.kind == DISCARD:
                after[actor] = (action.cards[0], game.hand_cards(actor))
    assert checked > 100


def _empty_pile_read(thrown: str) -> DiscardRead:
    game = Game("classic", 4, "likelihood")
    then = {**game.observation(1), "pile": [], "pile_top": None, "pile_size": 0, "frozen": False, "hand": []}
    return DiscardRead(1, parse_card(thrown), then)


def test_a_discard_is_likelier_from_a_hand_with_no_cheaper_card() -> None:
    """Bicycle: "Discard ... cards that will not help" and keep pairs: a king thrown from a hand of pairs is the
    base policy's cheapest card; from a hand that also held a lone four it is not, so that hand is the less
    likely one."""
    read = _empty_pile_read("KS")
    pairs = [parse_card(c) for c in ("7C", "7D", "8C", "8D", "9C", "9D")]
    lone_four = [*pairs, parse_card("4H")]
    with_pairs, with_four = discard_log_likelihood(read, [pairs, lone_four], EXPERT_STYLE, 10.0)
    assert with_pairs > with_four
    assert with_pairs > math.log(0.5)  # the cheapest of four kinds at this temperature


def test_discard_likelihoods_are_probabilities_over_the_kinds_held() -> None:
    """For one hand before the discard, the chances of throwing each kind of card it holds sum to one."""
    hand = [parse_card(c) for c in ("4H", "7C", "7D", "KS", "2C", "JK", "AH", "AD", "AS")]
    for temperature in (2.0, 20.0):
        total = 0.0
        for kind in {kind_of(c) for c in hand}:
            card = next(c for c in hand if kind_of(c) == kind)
            rest = list(hand)
            rest.remove(card)
            read = _empty_pile_read("KS")
            read = DiscardRead(read.seat, card, read.then)
            total += math.exp(discard_log_likelihood(read, [rest], EXPERT_STYLE, temperature)[0])
        assert math.isclose(total, 1.0, rel_tol=1e-9)


def test_reading_discards_picks_worlds_that_explain_them_and_match_the_observation() -> None:
    """The worlds ``read_discards`` deals match the observation card for card, and make the other sides' last
    discards likelier, on average, than the worlds dealt without the reading."""
    basic = BasicPlayer()
    rng = random.Random(9)
    picked: list[float] = []
    plain: list[float] = []
    for seed in range(2):
        game = Game("classic", 4, f"reading/{seed}")
        while not game.is_over and game.hand_no == 1:
            obs = game.observation(game.actor)
            reads = discard_reads(obs)
            if game.phase == "draw" and reads:
                for _ in range(4):
                    world = deal_reading_discards(obs, rng, deal=determinize, reads=reads, style=EXPERT_STYLE,
                                                  tries=8, temperature=10.0)
                    assert world.observation(game.actor) == obs
                    other = determinize(obs, rng)
                    for w, out in ((world, picked), (other, plain)):
                        out.append(sum(discard_log_likelihood(r, [w.hand_cards(r.seat)], EXPERT_STYLE, 10.0)[0]
                                       for r in reads))
            game.apply(basic.choose(obs, game.legal_actions()))
    assert len(picked) > 100
    assert sum(picked) / len(picked) > sum(plain) / len(plain)


def test_the_discard_signal_script_weighs_worlds_against_the_true_hands() -> None:
    """research/discard_inference_signal.py: its tallies are shares and means (one short hand, so it runs)."""
    example = importlib.import_module("research.discard_inference_signal")
    tally = example.measure("classic", 4, 1, 12, "signal-test", [10.0])
    assert tally.seats > 0
    for key in (0.0, 10.0):
        assert 0.0 <= tally.cards_right[key] <= tally.seats
        assert 1.0 * tally.seats <= tally.effective_worlds[key] <= 12.0 * tally.seats + 1e-6
    assert math.isclose(tally.effective_worlds[0.0], 12.0 * tally.seats)
