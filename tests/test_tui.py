"""The terminal game, driven by scripted input."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from canasta.cli import app
from canasta.engine.actions import ASK
from canasta.engine.game import Game
from canasta.errors import OptionError
from canasta.notation import format_action
from canasta.players import BasicPlayer, hint
from canasta.tui import TerminalGame, run_play


def scripted(lines: Iterable[str]) -> Callable[[str], str]:
    """An input function that replays ``lines`` and then hits end of input."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def run(lines: Iterable[str], **kw: Any) -> str:
    out = io.StringIO()
    args: dict[str, Any] = {"variant": "classic", "players": 4, "seed": 3, "rules": {}, "seat": 0, "load": None}
    args.update(kw)
    run_play(**args, input_fn=scripted(lines), output=out)
    return out.getvalue()


def test_session_commands_errors_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # seed 3, seat 0: the hand holds As Ac and the pile shows Ad; a meld before drawing is illegal
    text = run(["help", "moves", "hint", "discard Zz", "frobnicate", "meld Kh Kc 2d", "99", "2",
                "table", f"save {save}", "quit"])
    assert "Classic Canasta, 4 players, seed 3" in text
    assert "take Kh Kd" in text                      # help
    assert "1. draw" in text and "2. take As Ac" in text  # moves
    assert "hint: take As Ac" in text
    assert "'Zz' is not a card" in text              # notation error, re-prompted
    assert "unknown action 'frobnicate'" in text
    assert "[rule: draw-first]" in text              # illegal action names the rule
    assert "There is no move 99" in text
    assert "Your hand:" in text and "Stock" in text and "not frozen" in text
    assert "Initial meld so far" not in text or "of 50" in text
    assert f"Saved to {save}" in text
    assert "Game left unfinished" in text
    assert "Traceback" not in text
    saved = Game.from_json(save.read_text())
    assert saved.history[0][1].kind == "take"  # move 2 was the take
    resumed = run(["quit"], load=save)
    assert f"Resumed {save}" in resumed
    assert "A: As Ad Ac" in resumed  # the meld made by the take, restored from the file


def test_end_of_input_ends_cleanly() -> None:
    text = run([])
    assert "End of input" in text


def test_bad_save_path_is_reported(tmp_path: Path) -> None:
    text = run([f"save {tmp_path}/no/such/dir/x.json", "save", "quit"])
    assert "Cannot save to" in text and "save needs a file name" in text


def test_bad_seat_and_bad_load(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="seat"):
        run(["quit"], seat=4)
    with pytest.raises(OptionError, match="cannot read"):
        run(["quit"], load=tmp_path / "missing.json")


class HintTyper:
    """Types BasicPlayer's hint at every prompt: plays a whole game through the text interface."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.game: Game | None = None

    def __call__(self, prompt: str) -> str:
        assert self.game is not None
        action, _ = hint(self.game.observation(self.seat), self.game.legal_actions())
        return format_action(action)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_game_through_the_prompt(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    typer_ = HintTyper(1)
    real_run = TerminalGame.run

    def run_and_capture(self: TerminalGame) -> None:
        typer_.game = self.game
        real_run(self)

    monkeypatch.setattr(TerminalGame, "run", run_and_capture)
    out = io.StringIO()
    run_play(variant="classic", players=players, seed=5, rules={"target_score": 1500}, seat=1, load=None,
             input_fn=typer_, output=out)
    text = out.getvalue()
    assert "End of hand 1" in text and "melded cards" in text and "game score" in text
    assert "Game over" in text and ("wins," in text or "You win," in text)
    assert "Not allowed" not in text and "Traceback" not in text


def test_table_is_shown_at_the_start_of_each_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    typer_ = HintTyper(0)
    lines = iter(range(12))

    def limited(prompt: str) -> str:
        if next(lines, None) is None:
            raise EOFError
        return typer_(prompt)

    real_run = TerminalGame.run

    def run_and_capture(self: TerminalGame) -> None:
        typer_.game = self.game
        real_run(self)

    monkeypatch.setattr(TerminalGame, "run", run_and_capture)
    out = io.StringIO()
    run_play(variant="classic", players=2, seed=8, rules={}, seat=0, load=None, input_fn=limited, output=out)
    text = out.getvalue()
    turns = text.count("Your turn: draw or take the pile.")
    assert turns >= 3
    assert text.count("seat 1: ") >= 2  # the computer's actions are printed as they happen
    # every turn start is preceded by a fresh table
    assert text.count("Cards in hand:") >= turns


def position_before_ask() -> tuple[Game, int]:
    """A 4-player position where the seat to act (a BasicPlayer) is about to ask 'may I go out?'."""
    for seed in range(20):
        game = Game("classic", 4, seed, {"target_score": 1500})
        players = [BasicPlayer(s) for s in range(4)]
        while not game.is_over:
            actor = game.actor
            action = players[actor].choose(game.observation(actor), game.legal_actions())
            if action.kind == ASK:
                return game, actor
            game.apply(action)
    raise AssertionError("no position with an ask found")


def test_human_answers_computer_partner(tmp_path: Path) -> None:
    game, asker = position_before_ask()
    save = tmp_path / "ask.json"
    save.write_text(game.to_json())
    partner = (asker + 2) % 4
    text = run(["maybe", "yes", "quit"], load=save, seat=partner)
    assert f"seat {asker} (partner): ask" in text
    assert "asks: may I go out? Answer yes or no." in text
    assert "unknown action 'maybe'" in text  # re-prompted
    assert "You answered yes." in text
    # the partner goes on with the turn after the answer
    assert f"seat {asker} (partner): " in text.split("You answered yes.")[1]


def test_computer_partner_answers_human(tmp_path: Path) -> None:
    game, asker = position_before_ask()
    save = tmp_path / "ask.json"
    save.write_text(game.to_json())
    text = run(["ask", "quit"], load=save, seat=asker)
    partner = (asker + 2) % 4
    assert f"seat {partner} (partner): yes" in text or f"seat {partner} (partner): no" in text


def test_cli_play_with_input() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--seed", "2", "--players", "2"], input="help\nmoves\nbogus\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Classic Canasta, 2 players, seed 2" in result.output
    assert "1. draw" in result.output
    assert "unknown action 'bogus'" in result.output
    assert "Game left unfinished" in result.output


def test_cli_play_end_of_input_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--seed", "2"], input="draw\n")
    assert result.exit_code == 0 and "End of input" in result.output
    result = runner.invoke(app, ["play", "--seat", "7"], input="")
    assert result.exit_code == 2 and "seat" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = runner.invoke(app, ["play", "--load", str(bad)], input="")
    assert result.exit_code == 2 and "schema" in result.output
