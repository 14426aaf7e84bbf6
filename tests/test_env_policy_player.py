"""A policy over the environments' encoding plays in the arena (issue 55, item 3): PolicyPlayer and SB3Player."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np

from canasta.arena import run_arena
from canasta.encoding import encode_observation
from canasta.engine.game import Game
from canasta.env.policy_player import PolicyPlayer, SB3Player


def highest_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


class HighestLegalPlayer(PolicyPlayer):
    def __init__(self, seed: int | str | None = 0) -> None:
        super().__init__(seed, highest_legal)


def test_policy_player_sees_the_encoding_and_plays_the_decoded_index() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation, mask))
        return highest_legal(observation, mask)

    g = Game("classic", 2, 3)
    player = PolicyPlayer(0, policy)
    for _ in range(30):
        obs, legal = g.observation(g.actor), g.legal_actions()
        action = player.choose(obs, legal)
        assert action in legal
        assert np.array_equal(seen[-1][0], encode_observation(obs))  # within bounds: clipping changes nothing
        g.push(action)
    with pytest.raises(ValueError, match="the mask does not allow"):
        PolicyPlayer(0, lambda o, m: int(np.flatnonzero(m == 0)[0])).choose(g.observation(g.actor), g.legal_actions())


def test_a_policy_player_plays_in_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("issue55_agents")
    module.HighestLegalPlayer = HighestLegalPlayer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "issue55_agents", module)
    result = run_arena("classic", ["issue55_agents:HighestLegalPlayer", "random"], games=2, workers=1, hands=1)
    assert result["games"] == 2 and result["summary"]["issue55_agents:HighestLegalPlayer"]["decisions"] > 0


def test_a_saved_maskable_ppo_model_plays_in_the_arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sb3_contrib")
    import importlib.util

    example = Path(__file__).resolve().parent.parent / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", example)
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    result = train.train(steps=128, eval_hands=0, n_steps=64, batch_size=32, seed=2)
    path = tmp_path / "ppo.zip"
    result["model"].save(path)

    class Agent(SB3Player):
        model_path = str(path)

    module = types.ModuleType("issue55_sb3")
    module.Agent = Agent  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "issue55_sb3", module)
    out = run_arena("classic", ["issue55_sb3:Agent", "random"], games=2, workers=1, hands=1)
    assert out["games"] == 2 and out["summary"]["issue55_sb3:Agent"]["decisions"] > 0
    # no module of one's own: the model file named in the environment
    monkeypatch.setenv("CANASTA_SB3_MODEL", str(path))
    named = "canasta.env.policy_player:SB3Player"
    out = run_arena("classic", [named, "random"], games=2, workers=1, hands=1)
    assert out["summary"][named]["decisions"] > 0
    monkeypatch.delenv("CANASTA_SB3_MODEL")
    with pytest.raises(ValueError, match="CANASTA_SB3_MODEL"):
        SB3Player(0)


def test_a_policy_player_takes_a_seat_in_the_terminal_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """``canasta play --level 0=module.path:ClassName``: the level keeps the class name's case, and the seat's
    computer player is the outside class, which plays its turns."""
    import io

    from rich.console import Console

    from canasta.errors import OptionError
    from canasta.tui import parse_levels
    from canasta.tui.session import TerminalGame

    module = types.ModuleType("issue55_tui")
    module.HighestLegalPlayer = HighestLegalPlayer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "issue55_tui", module)
    levels = parse_levels(["basic,0=issue55_tui:HighestLegalPlayer"])
    assert levels == {-1: "basic", 0: "issue55_tui:HighestLegalPlayer"}
    with pytest.raises(OptionError, match=r"module\.path:ClassName"):
        parse_levels(["0=grandmaster"])
    game = Game("classic", 4, 5)
    terminal = TerminalGame(game, 1, lambda prompt: "quit", Console(file=io.StringIO()), levels={0: levels[0]})
    assert isinstance(terminal.bots[0], HighestLegalPlayer)
    while game.actor == 0:  # seat 0 plays first: its whole turn
        terminal.computer_turn()
    assert {s for s, _, _ in game.history} == {0}
