"""OpenSpiel's clone and resample at engine speed (issue 55): a clone is the engine's Game.copy() (sharing only
what the engine never changes in place), plays exactly as its source, and leaves the source untouched;
a resample copies once and draws once from its sampler; a seeded resampler makes ISMCTS reproducible."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

import numpy as np
import pyspiel

import canasta.env.openspiel_game as osg
from canasta.engine.game import Game

#: Game attributes a copy shares with its source by the engine's design (Game.copy: "immutable members are
#: shared"): the variant and per-seat tables built once, memo tables of pure functions of the rules, the
#: records of deals and finished hands (written within the step that deals or scores, then only replaced)
#: and the take snapshot (replaced, never changed).
SHARED_BY_DESIGN = {"variant", "_sides", "_partners", "_mates", "_laid_out", "_blocks_pile", "deals",
                    "hand_results", "take_snapshot"}
VARIANTS = [("classic", 4), ("classic", 2), ("samba", 4), ("hand-and-foot", 4), ("burraco", 4), ("american", 4)]


def _mutables(obj: Any, path: str, out: dict[int, str], seen: set[int]) -> None:
    """Every mutable object reachable from ``obj`` (id -> first path to it)."""
    if id(obj) in seen or isinstance(obj, (int, float, str, bytes, bool, type(None), frozenset, range, type)):
        return
    seen.add(id(obj))
    if isinstance(obj, (list, tuple)):
        if isinstance(obj, list):
            out[id(obj)] = path
        for i, x in enumerate(obj):
            _mutables(x, f"{path}[{i}]", out, seen)
    elif isinstance(obj, dict):
        out[id(obj)] = path
        for k, x in obj.items():
            _mutables(x, f"{path}[{k!r}]", out, seen)
    elif isinstance(obj, set):
        out[id(obj)] = path
    else:
        params: Any = getattr(type(obj), "__dataclass_params__", None)
        frozen = dataclasses.is_dataclass(obj) and params is not None and params.frozen
        if not frozen:
            out[id(obj)] = path
        attrs = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
        for slot in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, slot):
                attrs[slot] = getattr(obj, slot)
        for k, x in attrs.items():
            _mutables(x, f"{path}.{k}", out, seen)


def _shared_paths(a: Any, b: Any) -> set[str]:
    ma: dict[int, str] = {}
    mb: dict[int, str] = {}
    _mutables(a, "episode", ma, set())
    _mutables(b, "episode", mb, set())
    return {ma[i] for i in set(ma) & set(mb)}


def _by_design(path: str) -> bool:
    attr = path.removeprefix("episode.game.").split(".")[0].split("[")[0]
    return path.startswith("episode.game.") and (attr in SHARED_BY_DESIGN or attr.endswith("_memo"))


def _played(state: Any, rng: random.Random, steps: int) -> Any:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _snapshot(state: Any) -> tuple[str, list[float], list[int], list[list[float]]]:
    return (json.dumps(state.game.to_dict(), sort_keys=True, default=str), state.returns(), state.history(),
            [state.observation_tensor(p) for p in range(state.num_players())])


@pytest.mark.parametrize(("variant", "players"), VARIANTS)
def test_a_clone_shares_no_mutable_object_and_plays_as_its_source(variant: str, players: int) -> None:
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": variant, "players": players})
    for trial in range(6):  # seeded positions at several depths
        rng = random.Random(trial)
        state = game.new_initial_state()
        state.apply_action(trial)
        _played(state, rng, 15 * trial)
        before = _snapshot(state)
        clone = state.clone()
        leaks = {p for p in _shared_paths(state.episode, clone.episode) if not _by_design(p)}
        assert leaks == set(), (variant, trial, sorted(leaks)[:5])
        assert _snapshot(clone) == before
        seed = rng.random()
        _played(clone, random.Random(seed), 400)  # play the clone on: the source must not move
        assert _snapshot(state) == before
        _played(state, random.Random(seed), 400)  # the same actions from the source: the same positions
        assert _snapshot(state) == _snapshot(clone)


@pytest.mark.patches_engine  # (patches Game.copy: the pure-Python pass only)
def test_clone_and_resample_copy_the_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds on work, not time: a clone is one Game.copy() (it was a copy.deepcopy of the state, 50 times
    slower), and a resample is one clone and one draw from the sampler."""
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": "classic", "players": 4})
    state = _played(game.new_initial_state(), random.Random(1), 41)
    copies = 0
    real_copy = Game.copy

    def counting_copy(self: Game) -> Game:
        nonlocal copies
        copies += 1
        return real_copy(self)

    monkeypatch.setattr(Game, "copy", counting_copy)
    state.clone()
    assert copies == 1
    draws = 0

    def sampler() -> float:
        nonlocal draws
        draws += 1
        return 0.25

    state.resample_from_infostate(state.current_player(), sampler)
    assert (copies, draws) == (2, 1)


@pytest.mark.parametrize("variant", ["classic", "samba", "hand-and-foot"])
def test_a_resample_is_a_function_of_the_sampler_and_hides_what_the_player_cannot_see(variant: str) -> None:
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": variant, "players": 4})
    state = _played(game.new_initial_state(), random.Random(3), 31)
    player = state.current_player()
    one = state.resample_from_infostate(player, lambda: 0.125)
    two = state.resample_from_infostate(player, lambda: 0.125)
    other = state.resample_from_infostate(player, lambda: 0.875)
    assert one.game.to_dict() == two.game.to_dict()
    assert one.game.hands != other.game.hands or one.game.stock != other.game.stock
    for world in (one, other):
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.history() == state.history()
        assert _shared_paths(state.episode, world.episode) <= {
            p for p in _shared_paths(state.episode, world.episode) if _by_design(p)}


def _ismcts_actions(seed: int, decisions: int) -> list[int]:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(osg.SHORT_NAME, {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(seed))
    bot.set_resampler(osg.seeded_resampler(bot._random_state))
    state = game.new_initial_state()
    state.apply_action(seed)
    actions: list[int] = []
    while len(actions) < decisions and not state.is_terminal():
        legal = state.legal_actions()
        action = bot.step(state) if len(legal) > 1 else legal[0]
        actions.append(int(action))
        state.apply_action(action)
    return actions


def test_ismcts_with_the_seeded_resampler_is_reproducible() -> None:
    """OpenSpiel's own resample_from_infostate passes a system-seeded UniformProbabilitySampler: with the
    seeded resampler, one random_state gives one search (issue 55: 19 of 25 decisions differed before)."""
    assert _ismcts_actions(4, 12) == _ismcts_actions(4, 12)


def test_a_states_strings_are_written_once_until_it_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds on work: ISMCTS asks a node's information state up to three times; the text is written once per
    position and player, and again after an action (a clone starts without the texts)."""
    game = pyspiel.load_game(osg.SHORT_NAME, {"variant": "classic", "players": 2})
    state = _played(game.new_initial_state(), random.Random(5), 21)
    written: list[int] = []
    real = osg.information_state_text

    def counting(g: Game, player: int) -> str:
        written.append(player)
        return real(g, player)

    monkeypatch.setattr(osg, "information_state_text", counting)
    first = [state.information_state_string(0) for _ in range(3)]
    state.information_state_string(1)
    assert written == [0, 1] and len(set(first)) == 1
    clone = state.clone()
    assert clone.information_state_string(0) == first[0] and written == [0, 1, 0]
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != first[0] and written == [0, 1, 0, 0]
