"""``canasta bench``: throughput of random legal playouts from fresh deals.

Two loops are timed, each for about ``seconds``, over the same games (game ``i``
has seed ``seed + i`` and picks its actions with ``random.Random(seed + i)``, so
both loops play exactly the same action sequences and differ only in speed).
The loops (and the baseline) run interleaved, in alternating slices of at most
:data:`SLICE` seconds, so that all of them see the same machine load and their
ratio holds even on a shared machine:

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

With ``compare="classic"`` (``--compare``) the ``checked`` loop of another variant
(4 players, default rules) runs interleaved with the others, and ``compare.ratio`` is
the benchmarked variant's ``checked`` actions/s over it: the "within 2x of Classic in
the same run" figure of the variant issues, from one command.

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

from canasta.engine import engine_build
from canasta.engine.game import Game
from canasta.variants import find_variant

#: Read the clock once every this many actions (the loops stop within one batch).
CLOCK_EVERY = 64
#: A loop goes on past its time until one hand has finished, but not longer than this (plus its time).
HAND_GRACE = 5.0
#: The loops run in alternating slices of at most this many seconds (same machine load for all).
SLICE = 0.5

BASELINE_DESCRIPTION = ("state.legal_actions() + random choice + state.apply_action(); "
                        "chance nodes sampled from chance_outcomes()")

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
        "engine": engine_build(),
    }


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else 0.0


class _Runner:
    """One timed loop that can be run in slices and resumed where it stopped (even mid-game)."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self.games = self.games_finished = self.hands = self.actions = self.actions_in_hands = 0

    def run(self, until: float) -> None:
        """Play until the clock reaches ``until`` (read once every :data:`CLOCK_EVERY` actions)."""
        clock = time.perf_counter
        start = clock()
        try:
            self._run(until, clock)
        finally:
            self.elapsed += clock() - start

    def _run(self, until: float, clock: Any) -> None:
        raise NotImplementedError

    def stats(self) -> dict[str, Any]:
        e = self.elapsed
        return {
            "seconds": round(e, 4),
            "games": self.games,
            "games_finished": self.games_finished,
            "hands": self.hands,
            "actions": self.actions,
            "actions_per_s": round(_rate(self.actions, e), 1),
            "hands_per_s": round(_rate(self.hands, e), 2),
            "actions_per_hand": round(self.actions_in_hands / self.hands, 2) if self.hands else None,
        }


class _CanastaRunner(_Runner):
    def __init__(self, loop: str, *, variant: str, players: int, seed: int, rules: dict[str, Any] | None) -> None:
        super().__init__()
        self.loop = loop
        self.variant = variant
        self.players = players
        self.rules = rules
        self.next_seed = seed
        self.game: Game | None = None
        self.rng = random.Random(0)
        self.seen = 0        # hand results of the current game already counted
        self.hand_start = 0  # actions of the current game when its current hand began
        self.game_actions = 0

    def _new_game(self) -> Game:
        game = self.game = Game(self.variant, self.players, self.next_seed, self.rules)
        self.rng = random.Random(self.next_seed)
        self.next_seed += 1
        self.games += 1
        self.seen = len(game.hand_results)
        self.hand_start = self.game_actions = 0
        return game

    def _run(self, until: float, clock: Any) -> None:
        while True:
            game = self.game if self.game is not None else self._new_game()
            choice = self.rng.choice
            legal_actions = game.legal_actions
            step = game.apply if self.loop == "checked" else game.push
            results = game.hand_results
            n = 0
            while n < CLOCK_EVERY and not game.is_over:
                step(choice(legal_actions()))
                n += 1
                if len(results) != self.seen:
                    self.hands += len(results) - self.seen
                    self.seen = len(results)
                    self.actions_in_hands += self.game_actions + n - self.hand_start
                    self.hand_start = self.game_actions + n
            self.game_actions += n
            self.actions += n
            if game.is_over:
                self.games_finished += 1
                self.game = None
            if clock() >= until:
                return


class _OpenSpielRunner(_Runner):
    def __init__(self, *, seed: int, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name
        self.game = _import_pyspiel().load_game(game_name)
        self.rng = random.Random(seed)
        self.state: Any = None
        self.game_actions = 0
        self.chance_actions = 0

    def _run(self, until: float, clock: Any) -> None:
        choice = self.rng.choice
        rand = self.rng.random
        while True:
            state = self.state
            if state is None:
                state = self.state = self.game.new_initial_state()
                self.games += 1
                self.game_actions = 0
            n = chance = 0
            while n + chance < CLOCK_EVERY and not state.is_terminal():
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
                    chance += 1
                else:
                    state.apply_action(choice(state.legal_actions()))
                    n += 1
            self.game_actions += n
            self.actions += n
            self.chance_actions += chance
            if state.is_terminal():
                self.games_finished += 1
                self.hands += 1  # one OpenSpiel gin_rummy game is one hand
                self.actions_in_hands += self.game_actions
                self.state = None
            if clock() >= until:
                return

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "chance_actions": self.chance_actions}


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


def _run_interleaved(runners: list[_Runner], seconds: float) -> None:
    """Give each runner about ``seconds`` of time, in alternating slices, so that all of them
    see the same machine load; then let any runner without a finished hand go on until it
    has one (at most ``seconds + HAND_GRACE`` more)."""
    clock = time.perf_counter
    slice_s = min(SLICE, seconds / 4) if seconds > 0 else 0.0
    while True:
        pending = [r for r in runners if r.elapsed < seconds]
        if not pending:
            break
        for r in pending:
            r.run(clock() + min(slice_s, seconds - r.elapsed))
    for r in runners:
        limit = r.elapsed + seconds + HAND_GRACE
        while not r.hands and r.elapsed < limit:
            r.run(clock() + min(SLICE, limit - r.elapsed))


def run_bench(*, variant: str = "classic", players: int = 4, seconds: float = 10.0, seed: int = 0,
              rules: dict[str, Any] | None = None, baseline: bool = False,
              compare: str | None = None) -> dict[str, Any]:
    """Time random legal playouts; return a JSON-able dict (see the module docstring).

    Each loop (and the baseline) gets about ``seconds`` of time, in alternating
    slices, so the whole run takes about two (three with ``baseline``) times that. Bad variant, player count or
    rules raise the engine's :class:`~canasta.errors.CanastaError` before any timing.
    """
    seconds = max(0.0, float(seconds))
    Game(variant, players, seed, rules)  # validate the configuration first
    compare_players = 4
    if compare is not None:  # 4 players, or the variant's only count (Mille: 2)
        counts = find_variant(compare).player_counts
        compare_players = 4 if 4 in counts else counts[0]
    result: dict[str, Any] = {
        "variant": variant,
        "players": players,
        "rules": dict(rules or {}),
        "seed": seed,
        "seconds_per_loop": seconds,
        "machine": machine_info(),
        "loops": {},
        "baseline": None,
        "compare": None,
    }
    runners: dict[str, _Runner] = {
        loop: _CanastaRunner(loop, variant=variant, players=players, seed=seed, rules=rules) for loop in LOOPS}
    status = openspiel_status() if baseline else None
    base_runner: _OpenSpielRunner | None = None
    if status is not None and status["available"]:
        base_runner = _OpenSpielRunner(seed=seed, game_name="gin_rummy")
    compare_runner = (None if compare is None else
                      _CanastaRunner("checked", variant=compare, players=compare_players, seed=seed, rules=None))
    _run_interleaved([*runners.values(), *([base_runner] if base_runner else []),
                      *([compare_runner] if compare_runner else [])], seconds)
    if compare_runner is not None:
        other = compare_runner.stats()
        mine = runners["checked"].stats()["actions_per_s"]
        result["compare"] = {"variant": compare, "players": compare_players, "loop": "checked", **other,
                             "ratio": round(mine / other["actions_per_s"], 4) if other["actions_per_s"] else None}
    for loop, runner in runners.items():
        result["loops"][loop] = {"loop": loop, "description": LOOPS[loop], **runner.stats()}
    if base_runner is not None and status is not None:
        base = {"game": base_runner.game_name, "description": BASELINE_DESCRIPTION, **base_runner.stats(), **status}
        rate = base["actions_per_s"]
        base["ratio"] = {loop: round(result["loops"][loop]["actions_per_s"] / rate, 4) if rate else None
                         for loop in LOOPS}
        result["baseline"] = base
    elif status is not None:
        result["baseline"] = status
    return result


def render_bench(result: dict[str, Any]) -> str:
    """The result of :func:`run_bench` as readable text."""
    m = result["machine"]
    rules = ", ".join(f"{k}={v}" for k, v in sorted(result["rules"].items())) or "defaults"
    lines = [
        f"canasta bench: {result['variant']}, {result['players']} players, rules: {rules}, first seed {result['seed']}",
        f"machine: {m['nproc']} CPUs, {m['implementation']} {m['python']}, {m['platform']}; "
        f"engine: {m.get('engine', 'pure Python')}",
        "",
        f"{'loop':<10} {'actions/s':>12} {'hands/s':>10} {'actions/hand':>13} {'games':>7} {'hands':>7} {'actions':>10} {'seconds':>8}",
    ]

    def row(name: str, s: dict[str, Any]) -> str:
        per_hand = "-" if s["actions_per_hand"] is None else f"{s['actions_per_hand']:.1f}"
        return (f"{name:<10} {s['actions_per_s']:>12,.0f} {s['hands_per_s']:>10,.1f} {per_hand:>13} "
                f"{s['games']:>7,} {s['hands']:>7,} {s['actions']:>10,} {s['seconds']:>8.2f}")

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
    other = result.get("compare")
    if other is not None:
        lines.append("")
        lines.append(f"compared with {other['variant']} ({other['players']} players, default rules), same run:")
        lines.append(row(other["variant"], other))
        text = "-" if other["ratio"] is None else f"{other['ratio']:.2f}x"
        slower = "-" if not other["ratio"] else f"{1 / other['ratio']:.2f}x"
        lines.append(f"  ratio {result['variant']} checked / {other['variant']} checked (actions/s): {text} "
                     f"(cost per action {slower})")
    return "\n".join(lines)


def main() -> None:  # pragma: no cover - convenience: python -m canasta.bench [seconds]
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(render_bench(run_bench(seconds=seconds, baseline=True)))


if __name__ == "__main__":  # pragma: no cover
    main()
