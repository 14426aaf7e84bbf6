"""Benchmark and soak harnesses: sane, consistent reports (never assertions on speed)."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from canasta import bench, soak
from canasta.bench import render_bench, run_bench
from canasta.cli import app
from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import CanastaError
from canasta.scoring import score_side
from canasta.soak import render_soak, run_soak, soak_position
from canasta.variants import VARIANTS

LOOP_NAMES = ("checked", "search")


def check_loop(s: dict[str, Any]) -> None:
    assert s["games"] >= 1
    assert s["hands"] >= 1  # a loop runs at least until one hand has finished
    assert s["actions"] > 0
    assert 0 <= s["games_finished"] <= s["games"]
    assert s["seconds"] > 0
    # the rates are the counts over the same elapsed time
    assert math.isclose(s["actions_per_s"] * s["seconds"], s["actions"], rel_tol=0.01, abs_tol=1)
    assert math.isclose(s["hands_per_s"] * s["seconds"], s["hands"], rel_tol=0.01, abs_tol=0.1)
    # actions per finished hand: positive, and at most all actions over the hands
    assert 0 < s["actions_per_hand"] <= s["actions"] / s["hands"] + 0.01


@pytest.mark.parametrize("players", [2, 3, 4])
def test_run_bench_tiny_duration(players: int) -> None:
    result = run_bench(variant="classic", players=players, seconds=0.05, seed=3, rules=None, baseline=False)
    json.dumps(result)  # JSON-able
    assert result["players"] == players
    assert result["baseline"] is None
    assert set(result["loops"]) == set(LOOP_NAMES)
    for name in LOOP_NAMES:
        check_loop(result["loops"][name])
    assert result["machine"]["python"]
    text = render_bench(result)
    for name in LOOP_NAMES:
        assert name in text
    assert "actions/s" in text


def test_run_bench_zero_seconds_still_finishes_a_hand() -> None:
    result = run_bench(variant="classic", players=4, seconds=0, seed=0, rules={}, baseline=False)
    for name in LOOP_NAMES:
        assert result["loops"][name]["hands"] >= 1


def test_run_bench_stops_when_no_hand_ever_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    class Endless:
        """A stand-in game whose hand never ends."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.hand_results: list[Any] = []
            self.is_over = False

        def legal_actions(self) -> list[int]:
            return [0]

        def apply(self, action: int) -> Endless:
            return self

        push = apply

    monkeypatch.setattr(bench, "Game", Endless)
    monkeypatch.setattr(bench, "HAND_GRACE", 0.0)
    result = run_bench(variant="classic", players=4, seconds=0.01, seed=0, rules=None, baseline=False)
    for name in LOOP_NAMES:
        s = result["loops"][name]
        assert s["hands"] == 0 and s["actions"] > 0 and s["actions_per_hand"] is None
    assert "-" in render_bench(result)


def test_run_bench_with_rules() -> None:
    result = run_bench(variant="classic", players=4, seconds=0.02, seed=0, rules={"wild_limit": "not_more_than_naturals"},
                       baseline=False)
    assert result["rules"] == {"wild_limit": "not_more_than_naturals"}
    assert "wild_limit=not_more_than_naturals" in render_bench(result)


def test_run_bench_rejects_bad_configuration() -> None:
    with pytest.raises(CanastaError):
        run_bench(variant="classic", players=5, seconds=0.01, seed=0, rules=None, baseline=False)
    with pytest.raises(CanastaError):
        run_bench(variant="classic", players=4, seconds=0.01, seed=0, rules={"no_such_rule": 1}, baseline=False)


def test_baseline_without_openspiel_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> Any:
        raise ImportError("No module named 'pyspiel'")

    monkeypatch.setattr(bench, "_import_pyspiel", missing)
    result = run_bench(variant="classic", players=2, seconds=0.01, seed=0, rules=None, baseline=True)
    base = result["baseline"]
    assert base["available"] is False
    assert "pip install" in base["reason"]
    json.dumps(result)
    assert "baseline: not run" in render_bench(result)


def test_baseline_with_openspiel() -> None:
    pytest.importorskip("pyspiel")
    result = run_bench(variant="classic", players=4, seconds=0.05, seed=0, rules=None, baseline=True)
    base = result["baseline"]
    assert base["available"] is True
    assert base["game"] == "gin_rummy"
    assert base["actions"] > 0 and base["chance_actions"] > 0 and base["hands"] >= 1
    assert math.isclose(base["actions_per_s"] * base["seconds"], base["actions"], rel_tol=0.01, abs_tol=1)
    for name in LOOP_NAMES:
        expected = result["loops"][name]["actions_per_s"] / base["actions_per_s"]
        assert math.isclose(base["ratio"][name], expected, rel_tol=1e-3)
    json.dumps(result)
    assert "gin_rummy" in render_bench(result)


def test_bench_compare_times_another_variant_in_the_same_run() -> None:
    """``compare`` runs another variant's checked loop interleaved with the others and gives
    the ratio of the checked rates (the variant issues' "within 2x of Classic in the same run")."""
    result = run_bench(variant="mille", players=2, seconds=0.05, seed=0, compare="classic")
    other = result["compare"]
    assert other["variant"] == "classic" and other["players"] == 4
    assert other["actions"] > 0 and other["actions_per_s"] > 0
    assert other["ratio"] == round(result["loops"]["checked"]["actions_per_s"] / other["actions_per_s"], 4)
    assert "compared with classic" in render_bench(result)
    assert run_bench(variant="classic", players=4, seconds=0.01, seed=0, compare="mille")["compare"]["players"] == 2
    with pytest.raises(CanastaError):
        run_bench(variant="classic", players=4, seconds=0.01, seed=0, compare="no-such-variant")


# ------------------------------------------------------------------ soak


@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak_finds_no_failures(players: int) -> None:
    result = run_soak(variant="classic", players=players, hands=20, seed=100)
    json.dumps(result)
    assert result["failure_count"] == 0, render_soak(result)
    assert result["failures"] == []
    assert result["hands"] >= 20
    assert result["hands_rescored"] + result["hands_unrescored"] == result["hands"]
    assert result["hands_rescored"] > 0
    assert result["actions"] > 0
    assert result["seeds"][0] == 100
    assert sum(result["action_kinds"].values()) == result["actions"]
    assert sum(result["hand_endings"].values()) == result["hands_rescored"]
    assert "no failures" in render_soak(result)


@pytest.mark.parametrize(("variant", "players"), [(name, n) for name in sorted(set(VARIANTS) - {"classic"})
                                                   for n in (2, 3, 4) if n in VARIANTS[name].player_counts])
def test_soak_other_variants(variant: str, players: int) -> None:
    if players not in VARIANTS[variant].player_counts:
        pytest.skip(f"{variant} is not played by {players}")
    result = run_soak(variant=variant, players=players, hands=10, seed=50)
    assert result["failure_count"] == 0, render_soak(result)
    assert result["hands"] >= 10


def test_soak_leaves_a_game_after_max_game_hands() -> None:
    """A game that random play keeps going (Cuban to 7500) is left after ``max_game_hands``
    hands and the next seed starts, so that the run stays linear in its length."""
    result = run_soak(variant="cuban", players=4, hands=7, seed=0, max_game_hands=3)
    assert result["failure_count"] == 0, render_soak(result)
    assert result["hands"] == 7
    assert result["games"] == 3 and result["games_capped"] == 2  # 3 + 3 + 1 hands
    assert result["seeds"] == [0, 2]
    assert "left after" in render_soak(result)


@pytest.mark.parametrize("variant", ["samba", "italian", "bolivian", "brazilian", "chilean", "mille"])
def test_soak_plays_games_to_their_end_in_every_family(variant: str) -> None:
    """A game that reaches its target is checked at its end (winner, no legal action left) in
    the variants outside the Classic class too: the end-of-game check reads ``hands_per_game``,
    which every variant has (a merge once left it on Classic only, and every finished Samba-family
    game failed the soak)."""
    players = 2 if variant == "mille" else 4
    result = run_soak(variant=variant, players=players, hands=4, seed=1, rules={"target_score": 300})
    assert result["failure_count"] == 0, render_soak(result)
    assert result["games_finished"] >= 1


def test_soak_with_table_rules() -> None:
    rules = {"wild_limit": "not_more_than_naturals", "stock_out": "end", "black_three_freezes": True}
    result = run_soak(variant="classic", players=4, hands=10, seed=7, rules=rules)
    assert result["failure_count"] == 0, render_soak(result)


def test_soak_position_replays_the_soak_choices() -> None:
    game, action = soak_position(variant="classic", players=3, seed=5, index=25)
    assert len(game.history) == 25
    assert action is not None and action in game.legal_actions()
    again, same = soak_position(variant="classic", players=3, seed=5, index=25)
    assert again.to_dict() == game.to_dict() and same == action


def _first_hand_end(players: int, seed: int) -> int:
    """Index of the action that ends the first hand of the soak game ``seed``."""
    game = Game("classic", players, seed)
    rng = random.Random(seed)
    i = 0
    while not game.hand_results:
        game.apply(rng.choice(game.legal_actions()))
        i += 1
    return i - 1


def test_soak_catches_a_score_whose_items_do_not_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    real = score_side

    def broken(*args: Any, **kwargs: Any) -> Any:
        s = real(*args, **kwargs)
        return {"total": s["total"] + 1, "items": s["items"]}

    monkeypatch.setattr("canasta.engine.setplay.score_side", broken)
    result = run_soak(variant="classic", players=2, hands=3, seed=0, max_failures=2)
    assert result["failure_count"] >= 1
    f = result["failures"][0]
    assert f["kind"] == "score-sum"
    assert f["seed"] == 0
    # the failure names the hand-ending action, which soak_position reproduces
    assert f["action_index"] == _first_hand_end(2, 0)
    game, action = soak_position(variant="classic", players=2, seed=0, index=f["action_index"])
    assert action is not None
    game.apply(action)
    assert len(game.hand_results) == 1
    assert "FAILURES" in render_soak(result)


def test_soak_catches_a_score_that_the_final_table_contradicts(monkeypatch: pytest.MonkeyPatch) -> None:
    real = score_side

    def padded(*args: Any, **kwargs: Any) -> Any:
        s = real(*args, **kwargs)
        return {"total": s["total"] + 10, "items": {**s["items"], "bogus": 10}}  # adds up, but wrong

    monkeypatch.setattr("canasta.engine.setplay.score_side", padded)
    # the soak rescores with canasta.scoring.score_side (not the patched name in the engine)
    result = run_soak(variant="classic", players=4, hands=2, seed=0, max_failures=1)
    assert result["failure_count"] >= 1
    assert result["failures"][0]["kind"] == "rescore"


def test_soak_catches_a_stuck_state(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game.legal_actions

    def stuck(self: Game) -> Any:
        return [] if len(self.history) == 30 else real(self)

    monkeypatch.setattr(Game, "legal_actions", stuck)
    result = run_soak(variant="classic", players=4, hands=1, seed=0, max_failures=1)
    f = result["failures"][0]
    assert (f["kind"], f["action_index"], f["seed"]) == ("stuck", 30, 0)


def test_soak_catches_a_listed_action_that_check_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game.legal_actions
    bogus = Action("meld", (4 * 14, 4 * 14 + 1, 4 * 14 + 2, 4 * 14 + 3, 4 * 14))  # five aces: never legal

    def listed(self: Game) -> Any:
        out = real(self)
        return [*out, bogus] if len(self.history) == 20 else out

    monkeypatch.setattr(Game, "legal_actions", listed)
    result = run_soak(variant="classic", players=4, hands=1, seed=0, max_failures=1)
    f = result["failures"][0]
    assert (f["kind"], f["action_index"]) == ("refused", 20)
    assert "check() refuses" in f["message"]


def test_soak_catches_a_duplicate_listed_action(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game.legal_actions

    def doubled(self: Game) -> Any:
        out = real(self)
        return [*out, out[0]] if len(self.history) == 15 else out

    monkeypatch.setattr(Game, "legal_actions", doubled)
    result = run_soak(variant="classic", players=2, hands=1, seed=1, max_failures=1)
    f = result["failures"][0]
    assert (f["kind"], f["action_index"], f["seed"]) == ("duplicate", 15, 1)


def test_soak_catches_a_hand_that_never_ends() -> None:
    # random hands take a few hundred actions: a limit of 50 must flag the first hand of the first game
    result = run_soak(variant="classic", players=4, hands=1, seed=0, max_hand_actions=50, max_failures=1)
    f = result["failures"][0]
    assert (f["kind"], f["action_index"], f["seed"], f["hand"]) == ("endless", 50, 0, 1)


def test_soak_catches_lost_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game.card_count

    def leaky(self: Game) -> int:
        return real(self) - (len(self.history) >= 12)

    monkeypatch.setattr(Game, "card_count", leaky)
    result = run_soak(variant="classic", players=3, hands=1, seed=4, max_failures=1)
    f = result["failures"][0]
    assert (f["kind"], f["action_index"], f["seed"]) == ("cards", 11, 4)
    assert "action" in f


def test_soak_catches_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Game.apply

    def boom(self: Game, action: Any) -> Game:
        if len(self.history) == 7:
            raise RuntimeError("injected")
        return real(self, action)

    monkeypatch.setattr(Game, "apply", boom)
    result = run_soak(variant="classic", players=2, hands=1, seed=9, max_failures=1)
    f = result["failures"][0]
    assert (f["kind"], f["action_index"]) == ("exception", 7)
    assert "RuntimeError: injected" in f["message"] and "traceback" in f


def test_soak_keeps_going_after_a_failure_and_caps_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak, "MAX_FAILURES_KEPT", 2)
    real = Game.legal_actions

    def stuck(self: Game) -> Any:
        return [] if len(self.history) == 3 else real(self)

    monkeypatch.setattr(Game, "legal_actions", stuck)
    seen: list[dict[str, Any]] = []
    # every game fails before its first hand ends: max_failures stops the run
    result = run_soak(variant="classic", players=4, hands=1, seed=0, max_failures=5, progress=seen.append)
    assert result["stopped_early"] is True
    assert result["failure_count"] == 5 and result["hands"] == 0 and result["games"] == 5
    assert [f["seed"] for f in result["failures"]] == [0, 1]  # only the first two kept
    assert [p["failure_count"] for p in seen] == [1, 2, 3, 4, 5]
    assert "stopped early" in render_soak(result)


# ------------------------------------------------------------------- CLI


runner = CliRunner()


def test_cli_bench_json() -> None:
    res = runner.invoke(app, ["bench", "--seconds", "0.2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["players"] == 4 and data["variant"] == "classic"
    for name in LOOP_NAMES:
        check_loop(data["loops"][name])


def test_cli_bench_text_and_errors() -> None:
    res = runner.invoke(app, ["bench", "--seconds", "0.05", "--players", "2"])
    assert res.exit_code == 0, res.output
    assert "checked" in res.output and "search" in res.output
    res = runner.invoke(app, ["bench", "--seconds", "0.05", "--players", "7"])
    assert res.exit_code == 2
    assert "error:" in res.output


def test_cli_soak_json() -> None:
    res = runner.invoke(app, ["soak", "--hands", "5", "--players", "3", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["failure_count"] == 0 and data["hands"] >= 5
