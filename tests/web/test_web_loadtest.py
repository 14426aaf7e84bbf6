"""`canasta loadtest` runs bounded: a local server, two games, three seconds."""

from __future__ import annotations

from typer.testing import CliRunner

from canasta.cli import app
from canasta.web.loadtest import render_loadtest, run_loadtest


def test_loadtest_plays_and_reports() -> None:
    result = run_loadtest(games=2, seconds=3.0, players=2)
    assert result["actions"] > 0 and result["games_started"] >= 2
    assert result["errors"] == {}
    assert result["rtt_p99_ms"] >= result["rtt_p50_ms"] > 0
    assert "round trip" in render_loadtest(result)


def test_loadtest_rejects_bad_arguments() -> None:
    out = CliRunner().invoke(app, ["loadtest", "--games", "0"])
    assert out.exit_code == 2 and "games" in out.output
