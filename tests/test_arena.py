"""The arena: duplicated deals, statistics, outputs and the `canasta arena` command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from canasta.arena import game_specs, make_player, run_arena, summarize, wilson, write_outputs
from canasta.cli import app
from canasta.players import ExpertPlayer
from canasta.players.basic import BasicPlayer, BasicStyle


def test_deals_are_duplicated_with_sides_rotated() -> None:
    specs = game_specs("classic", ["expert", "basic"], 5, 3, 4, {}, 0)
    assert len(specs) == 6  # rounded up to whole deals
    for a, b in zip(specs[::2], specs[1::2], strict=True):
        assert a.seed == b.seed and a.deal == b.deal
        assert a.names == ("expert", "basic") and b.names == ("basic", "expert")
    three = game_specs("classic", ["a", "b", "c"], 3, 0, 3, {}, 0)
    assert [s.names for s in three] == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]


def test_statistics() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    records = [
        {"deal": 0, "rotation": 0, "names": ["x", "y"], "scores": [5100, 3000], "winners": [0],
         "decisions": [10, 10], "think_seconds": [1.0, 0.5]},
        {"deal": 0, "rotation": 1, "names": ["y", "x"], "scores": [5000, 4800], "winners": [0],
         "decisions": [10, 10], "think_seconds": [0.5, 1.0]},
    ]
    s = summarize(records, ["x", "y"])
    assert s["x"]["games"] == 2 and s["x"]["wins"] == 1.0
    assert s["x"]["mean_margin"] == pytest.approx((2100 - 200) / 2)
    assert s["y"]["mean_margin"] == pytest.approx(-s["x"]["mean_margin"])
    assert s["x"]["mean_decision_seconds"] == pytest.approx(0.1)


def test_player_specs() -> None:
    p = make_player("expert:worlds=2:max_rollouts=10:seconds=0.5", 1)
    assert isinstance(p, ExpertPlayer) and p.worlds == 2 and p.max_rollouts == 10 and p.seconds == 0.5
    with pytest.raises(ValueError):
        make_player("basic:worlds=2", 1)
    with pytest.raises(ValueError):
        make_player("nobody", 1)
    with pytest.raises(ValueError):
        make_player("random:hold_back=3", 1)


def test_basic_styles_are_named_in_the_arena() -> None:
    """The self-play comparison of BasicPlayer styles that tuned the expert's base policy runs
    through the arena: ``basic:wild_completes=5:black_three_cost=0``."""
    p = make_player("basic:wild_completes=5:black_three_cost=0", 1)
    assert isinstance(p, BasicPlayer)
    assert p.style == BasicStyle(wild_completes=5, black_three_cost=0.0)
    assert make_player("basic:hold_back=3", 1).hold_back == 3  # type: ignore[attr-defined]


def test_run_arena_and_outputs(tmp_path: Path) -> None:
    result = run_arena("classic", ["basic", "random"], games=2, workers=1, seed=5, table=2, hands=1)
    assert result["games"] == 2 and result["deals"] == 1
    assert {r["rotation"] for r in result["records"]} == {0, 1}
    assert all(r["hands"] == 1 for r in result["records"])
    assert result["summary"]["basic"]["games"] == 2
    again = run_arena("classic", ["basic", "random"], games=2, workers=2, seed=5, table=2, hands=1)
    assert [r["scores"] for r in again["records"]] == [r["scores"] for r in result["records"]]
    js, png = write_outputs(result, tmp_path / "out")
    assert json.loads(js.read_text())["games"] == 2
    if png is not None:
        assert png.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError):
        run_arena("classic", ["basic", "random", "basic"], games=1, table=4)


def test_arena_command(tmp_path: Path) -> None:
    out = tmp_path / "res"
    r = CliRunner().invoke(app, ["arena", "--games", "2", "--workers", "1",
                                 "--table", "3", "--hands", "1", "--players", "basic,random,random",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "win rate" in r.output and (tmp_path / "res.json").exists()
    bad = CliRunner().invoke(app, ["arena", "--players", "basic,nobody", "--games", "1", "--out", str(out)])
    assert bad.exit_code == 2


def test_strength_curve_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from canasta.arena import plot_curve

    results = [run_arena("classic", [name, "random"], games=2, workers=1, seed=1, table=2, hands=1)
               for name in ("basic", "easy")]
    png = plot_curve(results, tmp_path / "curve.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


def _without_times(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "think_seconds"} for r in result["records"]]


def test_ray_runs_the_same_tournament() -> None:
    """Issue 7: 'with --ray ADDRESS ... runs the same tournament on a Ray cluster'. A local
    cluster plays the same games, with the same results, as one process."""
    pytest.importorskip("ray")
    args: dict[str, Any] = {"games": 4, "seed": 5, "table": 2, "hands": 1}
    here = run_arena("classic", ["basic", "random"], workers=1, **args)
    on_ray = run_arena("classic", ["basic", "random"], ray_address="local", **args)
    assert on_ray["workers"] == "ray:local"
    assert _without_times(on_ray) == _without_times(here)
    assert on_ray["summary"]["basic"]["wins"] == here["summary"]["basic"]["wins"]


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if not installed
    with pytest.raises(ValueError, match=r"canasta\[ray\]"):
        run_arena("classic", ["basic", "random"], games=2, table=2, hands=1, ray_address="local")
