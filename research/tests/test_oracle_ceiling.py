"""research/oracle_ceiling.py: the expert searching the true deal, a bound on what card reading could buy."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from typing import Any

import pytest

from canasta.arena import GameSpec, play_one
from canasta.cards import is_red_three
from canasta.engine.game import Game

oracle = importlib.import_module("research.oracle_ceiling")


def a_game_in_play(seed: str = "oracle/1", actions: int = 40) -> Game:
    game = Game("classic", 4, seed, {})
    rng = random.Random(seed)
    for _ in range(actions):
        game.push(rng.choice(game.legal_actions()))
    return game


def without_stock(game: Game) -> dict[str, Any]:
    state = game.to_dict()
    state.pop("stock")
    return state


def test_a_hands_oracle_deals_the_true_hands_with_the_stock_shuffled() -> None:
    game = a_game_in_play()
    player = oracle.HandsOracle("t")
    player.truth = game
    deal = player.world_dealer(game.observation(game.actor), game.legal_actions())
    world = deal({}, random.Random(3))
    assert without_stock(world) == without_stock(game)
    assert sorted(world.stock) == sorted(game.stock) and world.stock != game.stock
    assert world is not game


def test_a_deal_oracle_deals_the_true_game_itself() -> None:
    game = a_game_in_play()
    player = oracle.DealOracle("t")
    player.truth = game
    world = player.world_dealer(game.observation(game.actor), game.legal_actions())({}, random.Random(3))
    assert world.to_dict() == game.to_dict() and world is not game


@pytest.mark.parametrize("mode", ["partner", "opponents"])
def test_a_partial_oracle_redeals_only_the_hands_it_does_not_know(mode: str) -> None:
    """The revealed seats hold their true hands; the others hold as many cards, with the cards every seat saw
    go into their hands (a taken pile) kept, and their hidden cards and the stock dealt anew among them."""
    cls = oracle.PartnerOracle if mode == "partner" else oracle.OpponentsOracle
    worlds_redealt = 0
    for k in range(12):
        game = a_game_in_play(f"oracle/{k}", actions=60 + 7 * k)
        if game.is_over:
            continue
        seat = game.actor
        player = cls("t")
        player.truth = game
        world = player.world_dealer(game.observation(seat), game.legal_actions())(
            game.observation(seat), random.Random(k))
        truth, dealt = game.to_dict(), world.to_dict()
        redealt = [s for s in range(4) if s != seat and (game.side_of(s) == game.side_of(seat)) != (mode == "partner")]
        for s in range(4):
            if s not in redealt:
                assert dealt["hands"][s] == truth["hands"][s]
            else:
                assert len(dealt["hands"][s]) == len(truth["hands"][s])
                assert not Counter(truth["known"][s]) - Counter(dealt["hands"][s])
                assert not any(is_red_three(c) for c in dealt["hands"][s])
        pooled = sorted(truth["stock"] + [c for s in redealt for c in truth["hands"][s]])
        assert sorted(dealt["stock"] + [c for s in redealt for c in dealt["hands"][s]]) == pooled
        assert {k: v for k, v in dealt.items() if k not in ("hands", "stock")} == \
            {k: v for k, v in truth.items() if k not in ("hands", "stock")}
        worlds_redealt += [dealt["hands"][s] for s in redealt] != [truth["hands"][s] for s in redealt]
    assert worlds_redealt >= 8


def opponents_seen(cls: type, seed: str, actions: int) -> tuple[Game, bool] | None:
    """A game ``actions`` random actions in (None if it is not at a draw or a play) and whether the worlds of an
    oracle of class ``cls`` for the seat to act hold the opponents' true hands."""
    game = a_game_in_play(seed, actions)
    if game.is_over or game.phase not in ("draw", "play"):
        return None
    seat = game.actor
    player = cls("t")
    player.truth = game
    obs = game.observation(seat)
    world = player.world_dealer(obs, game.legal_actions())(obs, random.Random(seed))
    opponents = [s for s in range(4) if game.side_of(s) != game.side_of(seat)]
    return game, all(world.hand_cards(s) == game.hand_cards(s) for s in opponents)


@pytest.mark.parametrize("mode", ["opponents-draw", "opponents-play"])
def test_a_phase_oracle_knows_the_opponents_only_in_its_phase(mode: str) -> None:
    """In its own phase the oracle's worlds hold the opponents' true hands; in the other, sampled ones."""
    cls = oracle.OpponentsAtDrawOracle if mode == "opponents-draw" else oracle.OpponentsInPlayOracle
    assert oracle.MODES[mode] == f"research.oracle_ceiling:{cls.__name__}"
    seen = {True: 0, False: 0}
    for k in range(16):
        got = opponents_seen(cls, f"phase/{k}", 30 + 5 * k)
        if got is not None:
            own_phase = got[0].phase == ("draw" if mode == "opponents-draw" else "play")
            assert got[1] == own_phase
            seen[own_phase] += 1
    assert seen[True] and seen[False]


def test_a_discard_oracle_knows_the_opponents_only_where_the_base_policy_would_discard() -> None:
    from canasta.engine.actions import DISCARD

    assert oracle.MODES["opponents-discard"] == "research.oracle_ceiling:OpponentsAtDiscardOracle"
    base = oracle.ExpertPlayer("t").base_policy("classic")
    seen = {True: 0, False: 0}
    for k in range(40):
        got = opponents_seen(oracle.OpponentsAtDiscardOracle, f"discard/{k}", 30 + 3 * k)
        if got is not None:
            game = got[0]
            discards = base.choose(game.observation(game.actor), game.legal_actions()).kind == DISCARD
            assert got[1] == discards
            seen[discards] += 1
    assert seen[True] and seen[False]


def test_the_sampled_worlds_of_the_shipped_expert_differ_from_the_truth() -> None:
    """The control for the two tests above: the expert's own worlds are sampled, not the true hands."""
    game = a_game_in_play()
    player = oracle.ExpertPlayer("t")
    world = player.world_dealer(game.observation(game.actor), game.legal_actions())(
        game.observation(game.actor), random.Random(3))
    assert without_stock(world)["hands"] != without_stock(game)["hands"]


def test_the_oracle_s_games_show_players_the_truth() -> None:
    spec = GameSpec("mille", 2, (), (oracle.MODES["hands"], "basic"), 0, 0, "arena/9/0", 1)
    record = oracle.play_one_with_truth(spec)
    assert record["hands"] == 1 and record["decisions"][0] > 0


def test_an_oracle_in_the_plain_arena_is_a_clear_error() -> None:
    spec = GameSpec("mille", 2, (), (oracle.MODES["hands"], "basic"), 0, 0, "arena/9/0", 1)
    with pytest.raises(ValueError, match="an oracle needs the game"):
        play_one(spec)


def test_the_safe_discard_basic_never_feeds_the_next_player_where_another_discard_would_not() -> None:
    """--mode basic-safe: the base policy told which discards the next player could take the pile with; it throws
    its own choice where that is safe, else the cheapest safe one, and feeds only where every discard feeds."""
    from canasta.engine.actions import DISCARD
    from canasta.players.basic import EXPERT_STYLE, BasicPlayer

    player = oracle.SafeDiscardBasic("t")
    base = BasicPlayer(style=EXPERT_STYLE)
    changed = checked = 0
    for number in range(6):
        game = Game("classic", 4, f"safe/{number}", {})
        while not game.is_over and not game.hand_results:
            legal = game.legal_actions()
            choice = player.choose(oracle.show_truth(game, game.actor), legal)
            assert choice in legal
            if choice.kind == DISCARD:
                checked += 1
                own = base.choose(game.observation(game.actor), legal)
                feeding = [oracle.feeds_next(game, a) for a in legal if a.kind == DISCARD]
                assert not oracle.feeds_next(game, choice) or all(feeding)
                changed += choice != own
                assert choice == own or oracle.feeds_next(game, own)
            game.push(choice)
    assert checked and changed
    with pytest.raises(ValueError, match="needs the game"):
        game = Game("classic", 4, "safe/x", {})
        player.choose(game.observation(game.actor), game.legal_actions())
