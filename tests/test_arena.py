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


def test_every_expert_setting_is_reachable_from_the_arena() -> None:
    """Every field of ExpertSettings is an ``expert:`` setting, read as its type (the parser follows the
    dataclass; the base style is set as ``style.KEY``): the learned value (``value=``) included."""
    import dataclasses

    from canasta.arena import expert_settings
    from canasta.players.expert import ExpertSettings

    names = {f.name for f in dataclasses.fields(ExpertSettings)} - {"style"}
    assert set(expert_settings()) == names
    p = make_player("expert:value=linear-v1:read_passes=true:value_worlds=3:seconds=0.25", 1)
    assert isinstance(p, ExpertPlayer) and p.read_passes is True and p.settings.value == "linear-v1"
    assert p.value_worlds == 3 and p.seconds == 0.25
    for bad in ("expert:read_passes=maybe", "expert:worlds=many", "expert:bogus=1", "expert:value=nonesuch",
                "expert:value=net-v2"):
        with pytest.raises(ValueError):
            make_player(bad, 1)


def test_basic_styles_are_named_in_the_arena() -> None:
    """The self-play comparison of BasicPlayer styles that tuned the expert's base policy runs
    through the arena: ``basic:wild_completes=5:black_three_cost=0``."""
    p = make_player("basic:wild_completes=5:black_three_cost=0", 1)
    assert isinstance(p, BasicPlayer)
    assert p.style == BasicStyle(wild_completes=5, black_three_cost=0.0)
    assert make_player("basic:hold_back=3", 1).hold_back == 3  # type: ignore[attr-defined]



def test_family_styles_are_named_in_the_arena() -> None:
    """A family's judgement calls are set as ``american.key=value`` or ``feet.key=value`` (how the expert's
    American and Hand and Foot base styles were compared: docs/experiments.md, "The base style in each set variant"); an
    unknown key or a value of the wrong type is refused by name."""
    from canasta.players.american_basic import AmericanStyle
    from canasta.players.feet_basic import FeetStyle

    p = make_player("basic:feet.pair_wild_hand=14:feet.dirty_from=7:american.start_melds=false:keep_pair=3.5", 1)
    assert isinstance(p, BasicPlayer)
    assert p.style == BasicStyle(keep_pair=3.5, feet=FeetStyle(pair_wild_hand=14, dirty_from=7),
                                 american=AmericanStyle(start_melds=False))
    ranks = make_player("basic:feet.keep_ranks=5+7", 1)
    assert isinstance(ranks, BasicPlayer) and ranks.style.feet == FeetStyle(keep_ranks=(5, 7))
    for bad in ("basic:feet.wings=2", "basic:feet.dirty_from=many", "basic:american=1", "basic:feet.keep_ranks=5,7",
                "basic:feet.keep_ranks=five"):
        with pytest.raises(ValueError, match="basic setting"):
            make_player(bad, 1)


def test_the_expert_s_base_style_is_set_in_the_arena() -> None:
    """``expert:style.KEY=value`` changes one setting of the expert's base and rollout style (EXPERT_STYLE),
    family settings included, so that a base-style setting that wins between basic players can be tried in
    the search; ``pass_danger`` is the older spelling of ``style.pass_danger``."""
    from dataclasses import replace

    from canasta.players.american_basic import AmericanStyle
    from canasta.players.basic import EXPERT_STYLE
    from canasta.players.expert import ExpertPlayer

    p = make_player("expert:style.thrown_danger=0.25:style.american.danger=3:worlds=6", 1)
    assert isinstance(p, ExpertPlayer) and p.worlds == 6
    assert p.style == replace(EXPERT_STYLE, thrown_danger=0.25, american=replace(EXPERT_STYLE.american, danger=3.0))
    assert isinstance(p.style.american, AmericanStyle)
    old = make_player("expert:pass_danger=1", 1)
    assert isinstance(old, ExpertPlayer) and old.style == replace(EXPERT_STYLE, pass_danger=1.0)
    assert isinstance(make_player("expert", 1), ExpertPlayer)
    for bad in ("expert:style.wings=2", "expert:style.freeze_cost=lots", "expert:thrown_danger=0.5"):
        with pytest.raises(ValueError, match="setting"):
            make_player(bad, 1)


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


# -- outside players (issue 23: 'loads any class implementing the documented player interface') ------------


class FirstLegalPlayer:
    """An outside player as a researcher would write one: the interface of docs/players.md, nothing
    imported from canasta. It plays the first legal action and counts its decisions."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self.seed = seed
        self.decisions = 0

    def choose(self, obs: dict[str, Any], legal: list[Any]) -> Any:
        self.decisions += 1
        return legal[0]


class NoChoose:
    def __init__(self, seed: int | str | None = 0) -> None:
        self.seed = seed


OUTSIDE = f"{__name__}:FirstLegalPlayer"


def test_an_outside_class_is_loaded_by_module_path() -> None:
    player = make_player(OUTSIDE, "s/0")
    assert isinstance(player, FirstLegalPlayer) and player.seed == "s/0"
    assert player.name == OUTSIDE  # named after its spec when the class gives no name
    result = run_arena("classic", [OUTSIDE, "basic"], games=2, workers=1, seed=3, table=2, hands=1)
    assert result["summary"][OUTSIDE]["games"] == 2 and result["summary"][OUTSIDE]["decisions"] > 0
    in_workers = run_arena("classic", [OUTSIDE, "basic"], games=2, workers=2, seed=3, table=2, hands=1)
    assert _without_times(in_workers) == _without_times(result)  # built again from its name in each worker


@pytest.mark.parametrize(("spec", "message"), [
    ("no_such_module_xyz:Player", "module 'no_such_module_xyz' not found"),
    (f"{__name__}:Missing", "has no attribute 'Missing'"),
    ("json:loads", "is not a class but function"),
    (f"{__name__}:NoChoose", "has no choose(obs, legal) method"),
])
def test_outside_player_errors_are_one_line(spec: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_player(spec, 0)
    r = CliRunner().invoke(app, ["arena", "--players", f"{spec},basic", "--games", "1", "--workers", "1",
                                 "--out", str(tmp_path / "res")])
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_a_registered_entry_point_is_found_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed package registers its player in the entry-point group ``canasta.players``;
    a distribution's dist-info directory on sys.path is what importlib.metadata reads."""
    dist = tmp_path / "firstlegal_player-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: firstlegal-player\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[canasta.players]\nfirstlegal = {OUTSIDE}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    player = make_player("firstlegal", 1)
    assert isinstance(player, FirstLegalPlayer)
    result = run_arena("classic", ["firstlegal", "basic"], games=2, workers=1, seed=4, table=2, hands=1)
    assert result["summary"]["firstlegal"]["games"] == 2
    with pytest.raises(ValueError, match="registered: firstlegal"):
        make_player("nobody", 0)  # the unknown-name error lists what is registered


# -- results written as the run goes, and resumed ---------------------------------------------------------


def _same_result(a: dict[str, Any], b: dict[str, Any]) -> None:
    """Equal but for timings (the seconds, each game's think time and the mean decision time)."""
    assert _without_times(a) == _without_times(b)
    timeless = {k: v for k, v in a.items() if k not in ("seconds", "summary", "records")}
    assert timeless == {k: v for k, v in b.items() if k not in ("seconds", "summary", "records")}
    for name in a["summary"]:
        assert ({k: v for k, v in a["summary"][name].items() if k != "mean_decision_seconds"}
                == {k: v for k, v in b["summary"][name].items() if k != "mean_decision_seconds"})


class StopAfter(Exception):
    pass


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_run_resumes_to_the_uninterrupted_result(workers: int) -> None:
    args: dict[str, Any] = {"games": 10, "seed": 9, "table": 2, "hands": 1, "workers": workers}
    full = run_arena("classic", ["basic", "random"], **args)
    assert full["complete"] is True and full["games"] == 10
    checkpoints: list[dict[str, Any]] = []

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise StopAfter  # the test hook: an interruption after three finished games

    with pytest.raises(StopAfter):
        run_arena("classic", ["basic", "random"], checkpoint=checkpoints.append, checkpoint_every=1,
                  progress=stop_after_three, **args)
    # a checkpoint after the first deal (two games), and the one written on the interruption
    assert [c["games"] for c in checkpoints] == [2, 3] and not checkpoints[-1]["complete"]
    partial = json.loads(json.dumps(checkpoints[-1]))  # as read back from the results file
    resumed = run_arena("classic", ["basic", "random"], resume_from=partial, **args)
    assert resumed["complete"] is True
    _same_result(resumed, full)


def test_resume_refuses_other_settings() -> None:
    partial = run_arena("classic", ["basic", "random"], games=2, workers=1, seed=9, table=2, hands=1)
    with pytest.raises(ValueError, match="seed=9"):
        run_arena("classic", ["basic", "random"], games=2, workers=1, seed=10, table=2, hands=1, resume_from=partial)


def test_resume_extends_a_finished_run_with_more_deals() -> None:
    """A finished run of 2 deals resumed with 3 plays only the third deal's games and equals a run of 3 from
    the start; a run of fewer deals than its file is refused (it would drop games)."""
    args: dict[str, Any] = {"workers": 1, "seed": 12, "table": 2, "hands": 1}
    short = run_arena("classic", ["basic", "random"], games=4, **args)
    played: list[int] = []
    extended = run_arena("classic", ["basic", "random"], games=6, resume_from=short,
                         progress=lambda done, total: played.append(done), **args)
    assert extended["deals"] == 3 and extended["complete"] is True
    _same_result(extended, run_arena("classic", ["basic", "random"], games=6, **args))
    assert len(played) == 2
    with pytest.raises(ValueError, match="deals=3"):
        run_arena("classic", ["basic", "random"], games=4, resume_from=extended, **args)


def test_arena_command_checkpoints_and_resumes(tmp_path: Path) -> None:
    base = ["arena", "--games", "6", "--workers", "1", "--table", "2", "--hands", "1", "--seed", "2",
            "--players", "basic,random"]
    full = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "full")])
    assert full.exit_code == 0, full.output
    # the results file an interrupted run leaves: its checkpoint after the first deal
    checkpoints: list[dict[str, Any]] = []

    def stop(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena("classic", ["basic", "random"], games=6, workers=1, seed=2, table=2, hands=1,
                  checkpoint=checkpoints.append, checkpoint_every=1, progress=stop)
    (tmp_path / "cut.json").write_text(json.dumps(checkpoints[-1]))
    assert checkpoints[-1]["games"] == 2
    resumed = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "cut"), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    _same_result(json.loads((tmp_path / "cut.json").read_text()), json.loads((tmp_path / "full.json").read_text()))
    missing = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "none"), "--resume"])
    assert missing.exit_code == 2 and "nothing to resume" in missing.output
