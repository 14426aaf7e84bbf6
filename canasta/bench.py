"""``canasta bench``: throughput of random legal playouts from fresh deals.

Two loops are timed, each for about ``seconds``, over the same games (game ``i``
has seed ``seed + i`` and picks its actions with ``random.Random(seed + i)``, so
both loops play exactly the same action sequences and differ only in speed):

* ``checked``: ``legal_actions()`` + ``random.choice`` + ``apply()`` (every
  action is checked again before it is performed), what a client does;
* ``search``: ``legal_actions()`` + ``random.choice`` + ``push()`` (no re-check),
  what a search or a learning loop does.

A *hand* is one entry of ``Game.hand_results``; a game runs until a side reaches
the target score, and a loop that runs out of time stops in the middle of a game.
``actions_per_hand`` is measured over finished hands only.

With ``baseline=True`` the same kind of Python loop drives OpenSpiel's C++
``gin_rummy`` (``state.legal_actions()``, a random choice, ``state.apply_action()``;
chance nodes sampled from ``state.chance_outcomes()``) for the same duration, as
a point of reference: a two-player rummy game whose rules run in C++ behind the
Python binding. Its ``actions`` count player decisions only; the chance outcomes
(deals and stock draws, which Canasta performs inside ``Game()`` and ``draw``)
are counted apart in ``chance_actions`` but their time is included.

The clock is read here, never in the engine.
"""

from __future__ import annotations

import importlib
import os
import platform
import random
import sys
import time
from typing import Any

from canasta.engine.game import Game

#: Read the clock once every this many actions (the loops stop within one batch).
CLOCK_EVERY = 64
#: A loop goes on past its time until one hand has finished, but not longer than this (plus its time).
HAND_GRACE = 5.0

LOOPS: dict[str, str] = {
    "checked": "legal_actions() + random choice + apply()",
    "search": "legal_actions() + random choice + push()",
}


def machine_info() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "nproc": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.machine(),
    }


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else 0.0


def _time_loop(loop: str, *, variant: str, players: int, seconds: float, seed: int,
               rules: dict[str, Any] | None) -> dict[str, Any]:
    """Run one loop for about ``seconds`` (and at least until one hand has finished, within a grace time)."""
    checked = loop == "checked"
    games = games_finished = hands = actions = actions_in_hands = 0
    game_seed = seed
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    hard_deadline = deadline + seconds + HAND_GRACE  # stop even if no hand has finished by then
    done = False
    while not done:
        game = Game(variant, players, game_seed, rules)
        rng = random.Random(game_seed)
        game_seed += 1
        games += 1
        choice = rng.choice
        step = game.apply if checked else game.push
        results = game.hand_results
        seen = len(results)
        game_actions = 0          # actions of this game so far
        hand_start = 0            # game_actions when the current hand began
        batch = 0
        while not game.is_over:
            step(choice(game.legal_actions()))
            game_actions += 1
            if len(results) != seen:
                hands += len(results) - seen
                seen = len(results)
                actions_in_hands += game_actions - hand_start
                hand_start = game_actions
            batch += 1
            if batch == CLOCK_EVERY:
                batch = 0
                now = clock()
                if now >= deadline and (hands or now >= hard_deadline):
                    done = True
                    break
        else:
            games_finished += 1
        actions += game_actions
        if not done and clock() >= deadline and (hands or clock() >= hard_deadline):
            done = True
    elapsed = clock() - start
    return {
        "loop": loop,
        "description": LOOPS[loop],
        "seconds": round(elapsed, 4),
        "games": games,
        "games_finished": games_finished,
        "hands": hands,
        "actions": actions,
        "actions_per_s": round(_rate(actions, elapsed), 1),
        "hands_per_s": round(_rate(hands, elapsed), 2),
        "actions_per_hand": round(actions_in_hands / hands, 2) if hands else None,
    }


def _import_pyspiel() -> Any:
    """OpenSpiel's binding (an optional dependency without type stubs: ``pip install 'canasta[bench]'``)."""
    return importlib.import_module("pyspiel")


def openspiel_status() -> dict[str, Any]:
    """Whether OpenSpiel's Python binding can be imported, and its version."""
    try:
        _import_pyspiel()
    except ImportError as exc:
        return {"available": False,
                "reason": f"OpenSpiel is not installed ({exc}); install it with: pip install 'canasta[bench]'"}
    try:
        from importlib.metadata import version

        ver: str | None = version("open_spiel")
    except Exception:  # the binding may come from a source build without metadata
        ver = None
    return {"available": True, "version": ver}


def _time_openspiel(*, seconds: float, seed: int, game_name: str = "gin_rummy") -> dict[str, Any]:
    game = _import_pyspiel().load_game(game_name)
    rng = random.Random(seed)
    choice = rng.choice
    rand = rng.random
    games = games_finished = actions = chance_actions = actions_in_games = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    done = False
    while not done:
        state = game.new_initial_state()
        games += 1
        game_actions = 0
        batch = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rand()
                acc = 0.0
                chosen = outcomes[-1][0]
                for outcome, p in outcomes:
                    acc += p
                    if r < acc:
                        chosen = outcome
                        break
                state.apply_action(chosen)
                chance_actions += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                game_actions += 1
            batch += 1
            if batch == CLOCK_EVERY:
                batch = 0
                if clock() >= deadline and games_finished:
                    done = True
                    break
        else:
            games_finished += 1
            actions_in_games += game_actions
        actions += game_actions
        if not done and clock() >= deadline and games_finished:
            done = True
    elapsed = clock() - start
    return {
        "game": game_name,
        "description": "state.legal_actions() + random choice + state.apply_action(); chance sampled from chance_outcomes()",
        "seconds": round(elapsed, 4),
        "games": games,
        "games_finished": games_finished,
        # one OpenSpiel gin_rummy game is one hand
        "hands": games_finished,
        "actions": actions,
        "chance_actions": chance_actions,
        "actions_per_s": round(_rate(actions, elapsed), 1),
        "hands_per_s": round(_rate(games_finished, elapsed), 2),
        "actions_per_hand": round(actions_in_games / games_finished, 2) if games_finished else None,
    }


def run_bench(*, variant: str = "classic", players: int = 4, seconds: float = 10.0, seed: int = 0,
              rules: dict[str, Any] | None = None, baseline: bool = False) -> dict[str, Any]:
    """Time random legal playouts; return a JSON-able dict (see the module docstring).

    Each loop (and the baseline) runs for about ``seconds``, so the whole run takes
    about two (three with ``baseline``) times that. Bad variant, player count or
    rules raise the engine's :class:`~canasta.errors.CanastaError` before any timing.
    """
    seconds = max(0.0, float(seconds))
    Game(variant, players, seed, rules)  # validate the configuration first
    result: dict[str, Any] = {
        "variant": variant,
        "players": players,
        "rules": dict(rules or {}),
        "seed": seed,
        "seconds_per_loop": seconds,
        "machine": machine_info(),
        "loops": {},
        "baseline": None,
    }
    for loop in LOOPS:
        result["loops"][loop] = _time_loop(loop, variant=variant, players=players, seconds=seconds,
                                           seed=seed, rules=rules)
    if baseline:
        status = openspiel_status()
        if status["available"]:
            base = _time_openspiel(seconds=seconds, seed=seed)
            base.update(status)
            rate = base["actions_per_s"]
            base["ratio"] = {loop: round(result["loops"][loop]["actions_per_s"] / rate, 4) if rate else None
                             for loop in LOOPS}
            result["baseline"] = base
        else:
            result["baseline"] = status
    return result


def render_bench(result: dict[str, Any]) -> str:
    """The result of :func:`run_bench` as readable text."""
    m = result["machine"]
    rules = ", ".join(f"{k}={v}" for k, v in sorted(result["rules"].items())) or "defaults"
    lines = [
        f"canasta bench: {result['variant']}, {result['players']} players, rules: {rules}, first seed {result['seed']}",
        f"machine: {m['nproc']} CPUs, {m['implementation']} {m['python']}, {m['platform']}",
        "",
        f"{'loop':<10} {'actions/s':>12} {'hands/s':>10} {'actions/hand':>13} {'games':>7} {'hands':>7} {'actions':>10} {'seconds':>8}",
    ]

    def row(name: str, s: dict[str, Any]) -> str:
        per_hand = "-" if s["actions_per_hand"] is None else f"{s['actions_per_hand']:.1f}"
        return (f"{name:<10} {s['actions_per_s']:>12,.0f} {s['hands_per_s']:>10,.1f} {per_hand:>13} "
                f"{s['games']:>7} {s['hands']:>7} {s['actions']:>10,} {s['seconds']:>8.2f}")

    for name, s in result["loops"].items():
        lines.append(row(name, s))
    for name, s in result["loops"].items():
        lines.append(f"  {name}: {s['description']}")
    base = result.get("baseline")
    if base is not None:
        lines.append("")
        if not base.get("available"):
            lines.append(f"baseline: not run: {base.get('reason')}")
        else:
            version = base.get("version") or "unknown version"
            lines.append(f"baseline: OpenSpiel {version} {base['game']} (C++ rules, same Python loop; "
                         f"player actions only, {base['chance_actions']:,} chance outcomes also sampled)")
            lines.append(row(base["game"], base))
            for name, ratio in base["ratio"].items():
                text = "-" if ratio is None else f"{ratio:.2f}x"
                lines.append(f"  ratio canasta {name} / openspiel {base['game']} (actions/s): {text}")
    return "\n".join(lines)


def main() -> None:  # pragma: no cover - convenience: python -m canasta.bench [seconds]
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(render_bench(run_bench(seconds=seconds, baseline=True)))


if __name__ == "__main__":  # pragma: no cover
    main()
