"""OpenSpiel resampling deals only positions the real game can reach (issue 21, defect 1), and OpenSpiel's own
ISMCTSBot with random rollouts plays whole hands on them."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

import numpy as np
import pyspiel

import canasta.env.openspiel_game as osg
from canasta.validation import position_problems
from canasta.variants import VARIANTS

RESAMPLES = 2000


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_thousands_of_resamples_pass_the_position_validation(variant: str) -> None:
    players = 2 if variant == "mille" else 4
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": variant, "players": players})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.RandomState(0)
    done, deal = 0, 0
    while done < RESAMPLES:
        state = game.new_initial_state()
        state.apply_action(deal)
        deal += 1
        step = 0
        while not state.is_terminal() and done < RESAMPLES:
            if step % 5 == 0:  # every fifth decision, from every seat's point of view in turn
                player = state.current_player()
                world = state.resample_from_infostate(player, sampler)
                assert position_problems(world.game) == [], (deal, step)
                assert world.legal_actions() == state.legal_actions()
                done += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
            step += 1


def test_ismcts_with_random_rollouts_plays_fifty_hands_against_random() -> None:
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    class ISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's ISMCTSBot keeps no state between moves but does not implement restart_at, which
        evaluate_bots calls (pyspiel.Bot's raises 'not implemented' for every game)."""

        def restart_at(self, state: Any) -> None:
            pass

    game = pyspiel.load_game(osg.SHORT_NAME, {"players": 2})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [ISMCTS(game, evaluator, uct_c=2.0, max_simulations=2, random_state=np.random.RandomState(2)),
            UniformRandomBot(1, np.random.RandomState(3))]
    for _ in range(50):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert abs(sum(returns)) < 1e-9
