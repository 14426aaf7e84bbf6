"""Every command that reads a file or standard input answers any bytes with one line (issue 50, item 4).

A file of another encoding, a byte-order mark, JSON nested 100,000 deep, or fields of the wrong type: exit
status 2 and one line that starts with ``error:``, never a traceback or a message made of Python internals.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from canasta import Game
from canasta.cli import app
from canasta.record import export_record

runner = CliRunner()

SHEET = {"variant": "classic", "teams": [
    {"name": "Zoë", "melds": [["Kh", "Kd", "Ks", "Kc", "Kh", "Kd", "Ks"], ["5h", "5d", "5s"]], "threes": ["3h"],
     "hands": [[], ["9h", "4c"]], "went_out": True},
    {"name": "Ann", "melds": [["Qh", "Qd", "Qs", "2c"]], "threes": [], "hands": [["Ah", "As"], ["6c"]]}]}


def one_line_error(result: Result) -> str:
    """The single error line of a refused command (exit status 2, no traceback)."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output and "Error(" not in result.output and "object is not" not in result.output
    return lines[0]


def file_commands(path: Path) -> list[list[str]]:
    """Each command that reads the file ``path`` (the arena's --resume reads STEM.json)."""
    return [["score", str(path)], ["replay", str(path)], ["replay", "--verify", str(path)], ["legal", str(path)],
            ["play", "--load", str(path)], ["arena", "--resume", "--out", str(path.with_suffix(""))],
            ["complete-soak", "--summary", "--out", str(path)]]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=200),
                      st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                                   lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
                                       st.sampled_from(["teams", "seed", "game", "canasta_save", "seat", "schema",
                                                        "variant", "records", "hands"]), kids, max_size=4),
                                   max_leaves=10).map(lambda v: json.dumps(v).encode())))
def test_any_bytes_in_any_file_command_are_one_line(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "input.json"
    path.write_bytes(data)
    for args in file_commands(path):
        result = runner.invoke(app, args, input=b"")
        if args[0] == "complete-soak" and not data.strip() and result.exit_code == 0:
            continue  # an empty file of chunks is an empty summary
        one_line_error(result)
    one_line_error(runner.invoke(app, ["score", "-"], input=data))


def test_a_latin_1_score_sheet_is_named_not_decoded_into_nonsense(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    path.write_bytes(json.dumps(SHEET, ensure_ascii=False).encode("latin-1"))
    line = one_line_error(runner.invoke(app, ["score", str(path)]))
    assert f"{path} is not UTF-8 text" in line and "save it as UTF-8" in line
    line = one_line_error(runner.invoke(app, ["score", "-"], input=path.read_bytes()))
    assert "standard input is not UTF-8 text" in line


@pytest.mark.parametrize("make", [
    lambda: ["score", json.dumps(SHEET, ensure_ascii=False)],
    lambda: ["replay", export_record(Game("classic", 2, seed=1))],
    lambda: ["legal", Game("classic", 2, seed=1).to_json()],
])
def test_a_byte_order_mark_is_accepted(tmp_path: Path, make: Callable[[], list[str]]) -> None:
    command, text = make()
    path = tmp_path / "file.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    result = runner.invoke(app, [command, str(path)])
    assert result.exit_code == 0, result.output
    if command == "score":
        assert "Zoë" in result.output


def test_deeply_nested_json_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    for args in file_commands(path):
        line = one_line_error(runner.invoke(app, args))
        assert len(line) < 400, line  # the file is not echoed back


@settings(max_examples=15, deadline=None)
@given(data=st.binary(max_size=300))
def test_any_bytes_on_the_games_standard_input_end_the_game_cleanly(data: bytes) -> None:
    """``canasta play`` reads its moves from standard input: any bytes are refused or played, never a traceback."""
    result = runner.invoke(app, ["play", "--seed", "1"], input=data)
    assert result.exit_code == 0 and result.exception is None, (result.output[-500:], result.exception)
    assert "Traceback" not in result.output
