"""The command line: `legal`, `variants`, and errors without tracebacks."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from canasta import Game
from canasta.cli import app, parse_rules
from canasta.notation import format_action, parse_move

runner = CliRunner()


def test_legal_prints_every_legal_action_of_a_saved_position(tmp_path: Path) -> None:
    game = Game("classic", 4, seed=11)
    rng = random.Random(11)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "position.json"
    path.write_text(game.to_json())
    result = runner.invoke(app, ["legal", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines == [f"{game.actor}: {format_action(a)}" for a in game.legal_actions()]
    # every printed line parses back to a legal action of that position
    for line in lines:
        seat, action = parse_move(line)
        assert seat == game.actor
        game.copy().apply(action)


def test_legal_refuses_a_broken_position_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"schema": 1, "variant": "classic"}')
    result = runner.invoke(app, ["legal", str(path)])
    assert result.exit_code == 2
    assert "saved position is incomplete" in result.output
    missing = runner.invoke(app, ["legal", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2
    assert "cannot read" in missing.output


def test_legal_refuses_a_position_that_lost_a_card(tmp_path: Path) -> None:
    data = Game("classic", 4, seed=3).to_dict()
    data["stock"].pop()
    path = tmp_path / "short.json"
    import json

    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["legal", str(path)])
    assert result.exit_code == 2
    assert "holds 107 cards; classic uses 108" in result.output


def test_variants_lists_options_with_defaults() -> None:
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    assert "classic: Classic Canasta (2, 3, 4, 6 players)" in result.output
    assert "wild_limit = 'three'" in result.output


def test_play_with_an_unknown_rule_is_a_clear_error() -> None:
    result = runner.invoke(app, ["play", "--rule", "no_such_rule=1", "--seed", "1"], input="quit\n")
    assert result.exit_code == 2
    assert "has no table rule 'no_such_rule'" in result.output


def test_rule_pairs_parse_and_bad_pairs_are_refused() -> None:
    assert parse_rules(["wild_limit=three", " jokers = 2 "]) == {"wild_limit": "three", "jokers": "2"}
    result = runner.invoke(app, ["bench", "--rule", "jokers", "--seconds", "0.1"])
    assert result.exit_code != 0
    assert "name=value" in result.output


def test_a_missing_extra_is_named_in_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: every command that needs an extra says which one, in one line, never with a traceback; a
    missing base dependency is not blamed on an extra."""
    import sys

    from canasta import cli

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails as if not installed
    checkout = Path(cli.__file__).resolve().parent.parent
    monkeypatch.chdir(checkout)  # tests run from a checkout: the command that works there (issue 50)
    result = runner.invoke(app, ["serve", "--port", "1"])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: this command needs the 'web' extra (module uvicorn is missing): "
                                      "pip install -e '.[web]'")
    numpy_missing = cli.missing_module_message(ModuleNotFoundError("No module named 'numpy'", name="numpy"))
    assert "'web'" not in numpy_missing and "reinstall canasta" in numpy_missing

    def broken(**_options: object) -> None:
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib")

    monkeypatch.setattr(cli, "app", broken)
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == "error: this command needs the 'arena' extra (module matplotlib is missing): pip install -e '.[arena]'\n"
    monkeypatch.chdir(checkout.parent)  # elsewhere: the checkout's path
    assert cli.missing_module_message(ModuleNotFoundError(name="redis")).endswith(f"pip install -e '{checkout}[servers]'")


def test_legal_and_replay_say_what_a_wrong_file_is(tmp_path: Path) -> None:
    """Issue 18 item 8: `legal` on a record names the file and points to `replay`; item 5: `replay` on a
    saved position says what it is instead of echoing it."""
    game = Game("classic", 2, seed=1)
    record = tmp_path / "game.txt"
    from canasta.record import export_record

    record.write_text(export_record(game))
    result = runner.invoke(app, ["legal", str(record)])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {record} is a game record, not a saved game: replay it with 'canasta replay {record}'"
    position = tmp_path / "position.json"
    position.write_text(game.to_json())
    result = runner.invoke(app, ["replay", str(position)])
    assert result.exit_code == 2 and "is a saved game" in result.output and "canasta legal" in result.output
    garbage = tmp_path / "notes.txt"
    garbage.write_text("hello")
    result = runner.invoke(app, ["legal", str(garbage)])
    assert result.exit_code == 2 and str(garbage) in result.output and "not a saved game" in result.output


def test_serve_and_arena_leave_the_folder_they_run_in_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 50: `canasta serve` keeps its SQLite default and `canasta arena` its results in the user's data
    folder, not in the current one (a checkout would show them as untracked, or see a tracked file replaced)."""
    import uvicorn

    from canasta import arena

    data, here = tmp_path / "data", tmp_path / "checkout"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kw: None)
    result = runner.invoke(app, ["serve", "--port", "1"])
    assert result.exit_code == 0, result.output
    assert f"(database {data / 'canasta' / 'canasta.db'})" in result.output
    written: list[Path] = []
    monkeypatch.setattr(arena, "run_arena", lambda *args, **kw: {"summary": {}})
    monkeypatch.setattr(arena, "render", lambda result: "")
    monkeypatch.setattr(arena, "write_outputs", lambda result, out: (written.append(out), (out, None))[1])
    result = runner.invoke(app, ["arena", "--games", "2"])
    assert result.exit_code == 0, result.output
    assert written == [data / "canasta" / "arena" / "arena-results"]
    assert list(here.iterdir()) == []


def test_help_shows_flags_without_a_value() -> None:
    """A flag such as --resume takes no value, and the help says so (typer 0.29 showed '--resume <bool>')."""
    result = subprocess.run([sys.executable, "-m", "canasta.cli", "play", "--help"], capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "100"}, check=True)
    assert "--resume" in result.stdout and "<bool>" not in result.stdout


def test_click_s_own_refusals_are_one_line_like_every_other_error() -> None:
    """An unknown option or a bad value reads like the project's other errors: one 'error:' line, status 2
    (Typer's rich panel titled 'Error' was the only error in another form)."""
    for args in (["play", "--bogus"], ["play", "--rule", "x"], ["score", "/no/such/file"]):
        result = subprocess.run([sys.executable, "-m", "canasta.cli", *args], capture_output=True, text=True)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, (args, result.stderr)
