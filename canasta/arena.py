"""`canasta arena`: computer players against each other, with duplicate deals.

``run_arena(variant, ["expert", "basic"], games=N)`` plays N games. The names are
one per *side* (a partnership plays with two copies of its player). Deals are
duplicated: every deal is played once per rotation of the names over the sides
(two games for two sides: the same cards, seats swapped), so the luck of the deal
cancels out in the comparison; N is rounded up to a whole number of deals.

A player is named as for ``get_player`` (``random``, ``basic``, ``expert``,
``easy``, ``medium``, ``hard``), optionally with ExpertPlayer budget settings:
``expert:worlds=4:max_rollouts=40:seconds=0.5``, or a BasicPlayer style:
``basic:wild_completes=5:black_three_cost=0`` (canasta.players.basic.BasicStyle).

Statistics: each name's win rate with a Wilson 95% confidence interval (a drawn
game counts half), the mean score margin (the name's final score minus the best
other side's) with a 95% interval computed over deals (the games of one deal are
averaged first, since they are not independent), and the mean time per decision.
``hands=H`` ends each game after H hands (the higher total wins) instead of at the
variant's target score, which makes slow players affordable to measure.

Outside players: ``module.path:ClassName`` loads any class with the player interface
(canasta.players.base, docs/players.md), and a name an installed package registers in the
entry-point group ``canasta.players`` is found like a built-in one. Long runs write their
results file as they go (``checkpoint``) and pick up where they stopped (``resume_from``).
"""

from __future__ import annotations

import dataclasses
import json
import math
import multiprocessing
import os
import statistics
import time
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.engine.game import Game
from canasta.players import PLAYERS, Player, get_player
from canasta.players.base import PlayerFactory, is_class_reference, load_class_reference, load_registered, registered_players
from canasta.players.basic import BasicPlayer, BasicStyle
from canasta.players.expert import EXPERT_STYLE, ExpertPlayer, ExpertSettings

Z95 = 1.959963984540054


#: outside players already resolved in this process, by spec (imports and entry-point scans happen once)
_OUTSIDE: dict[str, PlayerFactory] = {}


def outside_factory(spec: str) -> PlayerFactory | None:
    """An outside player: ``module.path:ClassName``, or a name registered in the entry-point group
    ``canasta.players``; None when ``spec`` names neither (a built-in name, or unknown)."""
    if spec in _OUTSIDE:
        return _OUTSIDE[spec]
    name = spec.partition(":")[0].strip().lower()
    if name in PLAYERS:
        return None
    factory = load_class_reference(spec) if is_class_reference(spec) else load_registered(spec)
    if factory is not None:
        _OUTSIDE[spec] = factory
    return factory


def _setting_reader(kind: Any) -> Callable[[str], Any]:
    """How a setting's text becomes a value of the constructor parameter's type (``int | None`` reads an int)."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    if kind is bool:
        def read_bool(text: str) -> bool:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{text!r} is not a yes/no value (1/0, true/false)")
        return read_bool
    if kind in (int, float, str):
        return kind  # type: ignore[no-any-return]
    if typing.get_origin(kind) is tuple and typing.get_args(kind)[0] is int:
        def read_ints(text: str) -> tuple[int, ...]:
            # '+' joins the numbers: ',' separates the players of --players and ':' their settings
            try:
                return tuple(int(part) for part in text.split("+") if part)
            except ValueError:
                raise ValueError(f"{text!r} is not a list of whole numbers joined by '+' (5+7)") from None
        return read_ints
    raise TypeError(f"no reader for {kind!r}")


#: expert settings the product no longer has: options measured level with the default or worse at the table
#: (docs/experiments.md says what each measured; research/ keeps the code of those worth rerunning)
REMOVED_EXPERT_SETTINGS = frozenset({
    "objective", "objective_scale", "search", "leaf", "leaf_at", "safe", "gate", "american_discards",
    "read_layoffs", "read_discards", "discard_tries", "discard_temperature", "fill_worlds", "opponents",
    "discard_model",
})


def expert_settings() -> dict[str, Callable[[str], Any]]:
    """Every field of :class:`ExpertSettings` an ``expert:key=value`` spec may set (so a new setting needs no
    change here), with how its text is read; the base style is set as ``style.KEY``."""
    hints = typing.get_type_hints(ExpertSettings)
    return {f.name: _setting_reader(hints[f.name]) for f in dataclasses.fields(ExpertSettings) if f.name != "style"}


def _style_fields(style_class: Any, prefix: str = "") -> dict[str, Callable[[str], Any]]:
    """The settings of a style dataclass and its nested family styles (``feet.dirty_from``), with readers."""
    hints = typing.get_type_hints(style_class)
    out: dict[str, Callable[[str], Any]] = {}
    for f in dataclasses.fields(style_class):
        kind = hints[f.name]
        if dataclasses.is_dataclass(kind):
            out |= _style_fields(kind, f"{prefix}{f.name}.")
        else:
            out[prefix + f.name] = _setting_reader(kind)
    return out


def basic_style(params: list[str], base: BasicStyle | None = None) -> BasicStyle:
    """A BasicStyle from ``key=value`` settings on top of ``base`` (by default BasicPlayer's); a family's
    judgement calls as ``american.key=value`` or ``feet.key=value``
    (:class:`~canasta.players.american_basic.AmericanStyle`, :class:`~canasta.players.feet_basic.FeetStyle`)."""
    readers = _style_fields(BasicStyle)
    top: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for p in params:
        key, sep, value = p.partition("=")
        if not sep or key not in readers:
            raise ValueError(f"basic setting {p!r}: use one of {', '.join(readers)} as key=value")
        try:
            read = readers[key](value)
        except ValueError as exc:
            raise ValueError(f"basic setting {p!r}: {exc}") from None
        group, dot, field = key.partition(".")
        if dot:
            nested.setdefault(group, {})[field] = read
        else:
            top[key] = read
    style = dataclasses.replace(base if base is not None else BasicStyle(), **top)
    for group, values in nested.items():
        style = dataclasses.replace(style, **{group: dataclasses.replace(getattr(style, group), **values)})
    return style


def make_player(spec: str, seed: int | str) -> Player:
    """A player from ``name``, ``expert:key=value:...`` (ExpertPlayer settings),
    ``basic:key=value:...`` (a BasicStyle: how the tuned styles are compared), an outside
    class ``module.path:ClassName``, or a name an installed package registers in the entry-point
    group ``canasta.players`` (docs/players.md)."""
    spec = spec.strip()
    outside = outside_factory(spec)
    if outside is not None:
        return outside(seed)
    name, *params = spec.split(":")
    if not params:
        if name.strip().lower() not in PLAYERS:
            registered = sorted(registered_players())
            raise ValueError(f"unknown player {name!r}; known: {', '.join(sorted(PLAYERS))}"
                             + (f"; registered: {', '.join(registered)}" if registered else "")
                             + "; or an outside class as module.path:ClassName")
        return get_player(name, seed)
    kind = name.strip().lower()
    if kind == "basic":
        return BasicPlayer(seed, style=basic_style(params))
    if kind != "expert":
        raise ValueError(f"only 'expert' and 'basic' take settings, not {name!r}")
    settings = expert_settings()
    kwargs: dict[str, Any] = {}
    style_params: list[str] = []
    for p in params:
        key, sep, value = p.partition("=")
        if sep and key == "pass_danger":  # the older spelling of style.pass_danger
            key = "style.pass_danger"
        if sep and key.startswith("style."):  # the base and rollout style: EXPERT_STYLE with this changed
            style_params.append(f"{key.removeprefix('style.')}={value}")
            continue
        if sep and key in REMOVED_EXPERT_SETTINGS:
            raise ValueError(f"expert setting {p!r}: {key!r} was an experiment, measured level or worse, and is "
                             "no longer a setting (docs/experiments.md)")
        if not sep or key not in settings:
            raise ValueError(f"expert setting {p!r}: use key=value with a key of "
                             f"{', '.join(sorted(settings))}, or style.KEY for a setting of the base style")
        try:
            kwargs[key] = settings[key](value)
        except ValueError as exc:
            raise ValueError(f"expert setting {p!r}: {exc}") from None
    if style_params:
        kwargs["style"] = basic_style(style_params, EXPERT_STYLE)
    return ExpertPlayer(seed, ExpertSettings(**kwargs))


@dataclass(frozen=True)
class GameSpec:
    variant: str
    table: int
    rules: tuple[tuple[str, Any], ...]
    names: tuple[str, ...]       # one per side, in side order for this game
    deal: int
    rotation: int
    seed: str
    hands: int


def play_one(spec: GameSpec) -> dict[str, Any]:
    """Play one game; a JSON-able record. Each player is shown ``game.observation(seat)``."""
    game = Game(spec.variant, spec.table, spec.seed, dict(spec.rules))
    seat_players = [make_player(spec.names[game.side_of(s)], f"{spec.seed}/{s}") for s in range(spec.table)]
    sides = game.num_sides
    decisions = [0] * sides
    think = [0.0] * sides
    steps = 0
    while not game.is_over:
        if spec.hands and len(game.hand_results) >= spec.hands:
            break
        actor = game.actor
        legal = game.legal_actions()
        t0 = time.perf_counter()
        action = seat_players[actor].choose(game.observation(actor), legal)
        dt = time.perf_counter() - t0
        side = game.side_of(actor)
        decisions[side] += 1
        think[side] += dt
        if action not in legal:
            raise RuntimeError(f"{spec.names[side]} chose an illegal action {action!r}")
        game.push(action)
        steps += 1
    scores = list(game.scores)
    top = max(scores)
    leaders = [s for s in range(sides) if scores[s] == top]
    return {"deal": spec.deal, "rotation": spec.rotation, "seed": spec.seed, "names": list(spec.names),
            "scores": scores, "winners": leaders, "hands": len(game.hand_results), "actions": steps,
            "decisions": decisions, "think_seconds": think}


def game_specs(variant: str, names: list[str], games: int, seed: int, table: int,
               rules: dict[str, Any], hands: int) -> list[GameSpec]:
    sides = len(names)
    deals = max(1, math.ceil(games / sides))
    out: list[GameSpec] = []
    for d in range(deals):
        for r in range(sides):
            rotated = tuple(names[(i - r) % sides] for i in range(sides))
            out.append(GameSpec(variant, table, tuple(sorted(rules.items())), rotated, d, r,
                                f"arena/{seed}/{d}", hands))
    return out


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    if p in (0.0, 1.0):  # closed forms at the ends (no rounding outside [0, 1])
        edge = n / (n + Z95 ** 2)
        return (0.0, 1 - edge) if p == 0.0 else (edge, 1.0)
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _margin(scores: list[int], side: int) -> float:
    """A side's final score minus the best other side's."""
    return float(scores[side] - max(x for i, x in enumerate(scores) if i != side))


def hands_per_game(records: list[dict[str, Any]]) -> dict[str, float]:
    """Hands a game: median, nearest-rank 99th percentile and longest (whether games end, and how soon)."""
    hands = sorted(r["hands"] for r in records)
    if not hands:
        return {}
    return {"median": statistics.median(hands), "p99": hands[math.ceil(0.99 * len(hands)) - 1], "max": hands[-1]}


def summarize(records: list[dict[str, Any]], names: list[str]) -> dict[str, Any]:
    """Win rates, margins and decision times per distinct name (see the module docstring)."""
    out: dict[str, Any] = {}
    for name in dict.fromkeys(names):
        wins = 0.0
        n = 0
        margins_by_deal: dict[int, list[float]] = {}
        decisions = 0
        think = 0.0
        for r in records:
            sides = [i for i, nm in enumerate(r["names"]) if nm == name]
            if not sides:
                continue
            n += 1
            winners = r["winners"]
            ours = [s for s in sides if s in winners]
            wins += len(ours) / len(winners) if ours else 0.0
            margin = sum(_margin(r["scores"], s) for s in sides) / len(sides)
            margins_by_deal.setdefault(r["deal"], []).append(margin)
            decisions += sum(r["decisions"][s] for s in sides)
            think += sum(r["think_seconds"][s] for s in sides)
        per_deal = [sum(m) / len(m) for m in margins_by_deal.values()]
        k = len(per_deal)
        mean_margin = sum(per_deal) / k if k else 0.0
        sd = math.sqrt(sum((m - mean_margin) ** 2 for m in per_deal) / (k - 1)) if k > 1 else 0.0
        half = Z95 * sd / math.sqrt(k) if k > 1 else float("nan")
        lo, hi = wilson(wins, n)
        out[name] = {"games": n, "wins": wins, "win_rate": wins / n if n else 0.0, "win_ci95": [lo, hi],
                     "mean_margin": mean_margin, "margin_ci95": [mean_margin - half, mean_margin + half],
                     "decisions": decisions, "mean_decision_seconds": think / decisions if decisions else 0.0}
    return out


#: the settings a results file must share with the command that resumes it (its number of deals may be smaller:
#: a finished run is extended with more games, since a deal's cards depend only on the seed and its index)
RESUME_KEYS = ("variant", "table", "rules", "players", "seed", "hands_per_game")


def run_arena(variant: str, names: list[str], games: int = 20, workers: int | None = None, seed: int = 0,
              table: int | None = None, rules: dict[str, Any] | None = None, hands: int = 0,
              progress: Callable[[int, int], None] | None = None, ray_address: str | None = None,
              checkpoint: Callable[[dict[str, Any]], object] | None = None, checkpoint_every: int = 5,
              resume_from: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the games (in ``workers`` processes; all cores by default) and summarize them.

    With ``ray_address`` the games run as Ray tasks on that cluster instead (``"local"`` starts a
    cluster on this machine; ``"auto"`` or ``"HOST:PORT"`` joins a running one, whose nodes must
    have canasta installed). The results are the same either way: a game depends only on its spec.

    ``checkpoint`` gets the partial result (``"complete": False``) after every ``checkpoint_every``
    deals' worth of finished games, and once more if the run is interrupted (Ctrl-C, an error).
    ``resume_from`` is such a partial result: its games are kept and only the missing ones are played,
    so the final result equals an uninterrupted run's (the settings must match; timings aside). A result of
    fewer deals, finished or not, is extended the same way: only the new deals' games are played.
    """
    from canasta.variants import find_variant

    cls = find_variant(variant)
    if table is None:
        table = 4 if len(names) == 2 else len(names)
        if table not in cls.player_counts and len(names) in cls.player_counts:
            table = len(names)  # e.g. Mille: two players alone
    sides = cls(table, rules or {}).num_sides
    if len(names) != sides:
        raise ValueError(f"{variant} with {table} players has {sides} sides: name {sides} players, not {len(names)}")
    for n in names:
        make_player(n, 0)  # fail early on a bad name
    specs = game_specs(variant, names, games, seed, table, rules or {}, hands)
    workers = max(1, workers or os.cpu_count() or 1)
    settings = {"variant": variant, "table": table, "rules": rules or {}, "players": names, "seed": seed,
                "hands_per_game": hands or None, "deals": len(specs) // sides,
                "workers": workers if ray_address is None else f"ray:{ray_address}"}
    records: list[dict[str, Any]] = []
    earlier_seconds = 0.0
    if resume_from is not None:
        for key in RESUME_KEYS:
            if resume_from.get(key) != settings[key]:
                raise ValueError(f"cannot resume: the results file has {key}={resume_from.get(key)!r}, this run "
                                 f"{settings[key]!r} (resume with the arguments of the interrupted run)")
        if int(resume_from.get("deals", 0)) > len(specs) // sides:
            raise ValueError(f"cannot resume: the results file has deals={resume_from.get('deals')!r}, more than this "
                             f"run's {len(specs) // sides} (resume with at least its number of games)")
        records = list(resume_from.get("records", []))
        earlier_seconds = float(resume_from.get("seconds", 0.0))
        finished = {(r["deal"], r["rotation"]) for r in records}
        specs = [sp for sp in specs if (sp.deal, sp.rotation) not in finished]
    total = len(records) + len(specs)
    start = time.perf_counter()

    def result(complete: bool) -> dict[str, Any]:
        ordered = sorted(records, key=lambda r: (r["deal"], r["rotation"]))
        return {**settings, "games": len(ordered), "complete": complete,
                "seconds": earlier_seconds + time.perf_counter() - start,
                "summary": summarize(ordered, names), "hands": hands_per_game(ordered), "records": ordered}

    every = max(1, checkpoint_every) * sides
    played = 0
    try:
        games_iter = _map(specs, workers) if ray_address is None else _map_ray(specs, ray_address)
        for rec in games_iter:
            records.append(rec)
            played += 1
            if checkpoint is not None and played % every == 0 and len(records) < total:
                checkpoint(result(complete=False))
            if progress is not None:
                progress(len(records), total)
    except BaseException:
        if checkpoint is not None and played:
            checkpoint(result(complete=False))  # whatever finished before the interruption is kept
        raise
    return result(complete=True)


def _map(specs: list[GameSpec], workers: int) -> Iterator[dict[str, Any]]:
    if workers == 1 or len(specs) == 1:
        yield from map(play_one, specs)
        return
    ctx = multiprocessing.get_context("spawn" if os.name == "nt" else "fork")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(play_one, specs)


def _map_ray(specs: list[GameSpec], address: str) -> Iterator[dict[str, Any]]:
    """One Ray task per game, yielded as they finish (for tournaments that outgrow one machine)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs the optional extra: pip install 'canasta[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        task = ray.remote(play_one)
        pending = [task.remote(spec) for spec in specs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started_here:
            ray.shutdown()


def render(result: dict[str, Any]) -> str:
    lines = [f"{result['variant']}, {result['table']} players, {result['games']} games "
             f"({result['deals']} deals, duplicated), {result['seconds']:.0f} s on "
             + (f"{w} workers" if isinstance(w := result["workers"], int) else f"Ray ({w.removeprefix('ray:')})")
             + (f", {result['hands_per_game']} hand(s) a game" if result["hands_per_game"] else "")]
    lines.append(f"{'player':<28} {'win rate':>9} {'95% CI':>15} {'margin':>9} {'95% CI':>19} {'s/decision':>11}")
    for name, s in result["summary"].items():
        lo, hi = s["win_ci95"]
        mlo, mhi = s["margin_ci95"]
        lines.append(f"{name:<28} {s['win_rate']:>8.1%} {f'[{lo:.1%}, {hi:.1%}]':>15} {s['mean_margin']:>+9.0f}"
                     f" {f'[{mlo:+.0f}, {mhi:+.0f}]':>19} {s['mean_decision_seconds']:>11.4f}")
    if (h := result.get("hands")) and not result["hands_per_game"]:
        lines.append(f"hands a game: median {h['median']:g}, 99th percentile {h['p99']}, longest {h['max']}")
    return "\n".join(lines)


def write_json(result: dict[str, Any], out: Path) -> Path:
    """``out``.json, replaced whole (written beside it, then renamed): a run killed while it writes
    a checkpoint leaves the previous checkpoint, never half a file."""
    out.parent.mkdir(parents=True, exist_ok=True)
    js = out.with_suffix(".json")
    partial = js.with_name(js.name + ".partial")
    partial.write_text(json.dumps(result, indent=1))
    os.replace(partial, js)
    return js


def load_results(out: Path) -> dict[str, Any]:
    """The results file ``out``.json of an earlier (interrupted) run, for ``resume_from``."""
    js = out.with_suffix(".json")
    try:
        loaded = json.loads(js.read_text())
    except FileNotFoundError:
        raise ValueError(f"nothing to resume: {js} does not exist") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"cannot resume: {js} is not a results file ({exc})") from None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("records"), list):
        raise ValueError(f"cannot resume: {js} is not a results file (no records)")
    return loaded


def write_outputs(result: dict[str, Any], out: Path) -> tuple[Path, Path | None]:
    """``out``.json, and ``out``.png when matplotlib is installed (extra ``arena``)."""
    js = write_json(result, out)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return js, None
    names = list(result["summary"])
    s = result["summary"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    rates = [s[n]["win_rate"] for n in names]
    err = [[max(0.0, s[n]["win_rate"] - s[n]["win_ci95"][0]) for n in names],
           [max(0.0, s[n]["win_ci95"][1] - s[n]["win_rate"]) for n in names]]
    ax1.bar(names, rates, yerr=err, capsize=6, color=["tab:blue", "tab:orange", "tab:green", "tab:red"][: len(names)])
    ax1.set_ylim(0, 1)
    ax1.axhline(1 / len(names), color="grey", linestyle=":")
    ax1.set_ylabel("win rate (95% CI)")
    ax1.set_title(f"{result['variant']}, {result['table']} players, {result['games']} games")
    first = names[0]
    margins: list[float] = []
    for r in result["records"]:
        margins.extend(_margin(r["scores"], i) for i, nm in enumerate(r["names"]) if nm == first)
    ax2.hist(margins, bins=20, color="tab:blue")
    ax2.axvline(0, color="grey", linestyle=":")
    ax2.set_xlabel(f"score margin of {first} per game")
    ax2.set_ylabel("games")
    fig.tight_layout()
    png = out.with_suffix(".png")
    fig.savefig(png, dpi=100)
    plt.close(fig)
    return js, png


def plot_curve(results: list[dict[str, Any]], out: Path) -> Path:
    """Strength against time: for each result (first player vs the second), the first player's
    win rate (95% CI) and mean margin against its mean time per decision. Needs matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = []
    for r in results:
        first = r["players"][0]
        s = r["summary"][first]
        points.append((s["mean_decision_seconds"], s["win_rate"], s["win_ci95"], s["mean_margin"], first, r["games"]))
    points.sort()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    xs = [p[0] for p in points]
    ax1.errorbar(xs, [p[1] for p in points],
                 yerr=[[max(0.0, p[1] - p[2][0]) for p in points], [max(0.0, p[2][1] - p[1]) for p in points]],
                 marker="o", capsize=5)
    for x, y, _, _, label, n in points:
        ax1.annotate(f"{label} ({n})", (x, y), textcoords="offset points", xytext=(4, 6), fontsize=7)
    ax1.axhline(0.5, color="grey", linestyle=":")
    ax1.set_xscale("log")
    ax1.set_ylim(0, 1)
    ax1.set_xlabel("mean seconds per decision")
    ax1.set_ylabel(f"win rate against {results[0]['players'][1]} (95% CI)")
    ax2.plot(xs, [p[3] for p in points], marker="o")
    ax2.axhline(0, color="grey", linestyle=":")
    ax2.set_xscale("log")
    ax2.set_xlabel("mean seconds per decision")
    ax2.set_ylabel("mean score margin")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
