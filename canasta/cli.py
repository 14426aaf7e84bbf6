"""The ``canasta`` command line (Typer)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from canasta.errors import CanastaError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Canasta: play, check, replay and score games of the Canasta family.")

RuleOpt = Annotated[list[str] | None, typer.Option("--rule", "-r", help="table rule as name=value (repeatable)")]


def parse_rules(pairs: list[str] | None) -> dict[str, Any]:
    """Turn ``["wild_limit=three", ...]`` into a dict; values are coerced by the variant."""
    rules: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"--rule takes name=value, not {pair!r}")
        rules[name.strip()] = value.strip()
    return rules


def player_count(variant: str, players: int | None) -> int:
    """``--players``, or by default 4 where the variant allows it, else its first count (Mille: 2)."""
    if players is not None:
        return players
    from canasta.variants import find_variant

    counts = find_variant(variant).player_counts
    return 4 if 4 in counts else counts[0]


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


@app.command()
def play(
    variant: Annotated[str, typer.Option(help="variant name, e.g. classic")] = "classic",
    players: Annotated[int | None, typer.Option(help="number of players (default 4, or the variant's only count)")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the deal (random if omitted)")] = None,
    rule: RuleOpt = None,
    seat: Annotated[int, typer.Option(help="the seat you play (0-based)")] = 0,
    load: Annotated[Path | None, typer.Option(help="resume a game saved with 'save FILE'")] = None,
) -> None:
    """Play in the terminal against computer players."""
    from canasta.tui import run_play

    try:
        run_play(variant=variant, players=player_count(variant, players), seed=seed, rules=parse_rules(rule), seat=seat, load=load)
    except CanastaError as exc:
        fail(str(exc))


@app.command()
def legal(position: Annotated[Path, typer.Argument(help="a position saved as JSON (Game.to_json)")]) -> None:
    """Print the legal actions of a saved position, one a line, in the notation."""
    from canasta.engine.game import Game
    from canasta.notation import format_action

    try:
        game = Game.from_json(position.read_text())
    except OSError as exc:
        fail(f"cannot read {position}: {exc.strerror}")
        return
    except CanastaError as exc:
        fail(str(exc))
        return
    for action in game.legal_actions():
        typer.echo(f"{game.actor}: {format_action(action)}")


@app.command()
def replay(record: Annotated[Path, typer.Argument(help="a game record in the notation")]) -> None:
    """Replay a record, check every action, and print the hand scores."""
    from canasta.record import replay_command

    try:
        text = record.read_text()
    except OSError as exc:
        fail(f"cannot read {record}: {exc.strerror}")
        return
    try:
        typer.echo(replay_command(text))
    except CanastaError as exc:
        fail(str(exc))


@app.command()
def score(
    file: Annotated[Path, typer.Argument(help="JSON description of the end of a hand ('-' for stdin)")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The scorekeeper: score a hand played with real cards."""
    from canasta.scorekeeper import render_sheet, score_input

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
        return
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{file} is not JSON: {exc}")
        return
    try:
        result = score_input(data)
    except CanastaError as exc:
        fail(str(exc))
        return
    typer.echo(json.dumps(result, indent=2) if as_json else render_sheet(data, result))


@app.command()
def bench(
    variant: Annotated[str, typer.Option(help="variant name")] = "classic",
    players: Annotated[int | None, typer.Option(help="number of players (default 4, or the variant's only count)")] = None,
    seconds: Annotated[float, typer.Option(help="how long to run")] = 10.0,
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    rule: RuleOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    baseline: Annotated[bool, typer.Option(help="also time OpenSpiel's gin_rummy with the same loop, if installed")] = False,
    compare: Annotated[str | None, typer.Option(help="also time this variant's checked loop in the same run (e.g. classic)")] = None,
) -> None:
    """Random legal playouts from fresh deals: actions/s, hands/s, actions per hand."""
    from canasta.bench import render_bench, run_bench

    try:
        result = run_bench(variant=variant, players=player_count(variant, players), seconds=seconds, seed=seed,
                           rules=parse_rules(rule), baseline=baseline, compare=compare)
    except CanastaError as exc:
        fail(str(exc))
        return
    typer.echo(json.dumps(result, indent=2) if as_json else render_bench(result))


@app.command()
def soak(
    variant: Annotated[str, typer.Option(help="variant name")] = "classic",
    players: Annotated[int | None, typer.Option(help="number of players (default 4, or the variant's only count)")] = None,
    hands: Annotated[int, typer.Option(help="hands to play")] = 1000,
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    rule: RuleOpt = None,
    max_game_hands: Annotated[int, typer.Option(help="leave a game after this many hands and start the next seed")] = 200,
    complete: Annotated[bool, typer.Option("--complete", help="also check that legal_actions() lists every action "
                                                              "check() accepts (slow)")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Random legal hands with every invariant checked at every step."""
    from canasta.soak import render_soak, run_soak

    try:
        result = run_soak(variant=variant, players=player_count(variant, players), hands=hands, seed=seed, rules=parse_rules(rule),
                          max_game_hands=max_game_hands, complete=complete)
    except CanastaError as exc:
        fail(str(exc))
        return
    typer.echo(json.dumps(result, indent=2) if as_json else render_soak(result))
    if result.get("failures"):
        raise typer.Exit(1)


@app.command()
def variants() -> None:
    """List the variants and their table-rule options with defaults."""
    from canasta.variants import VARIANTS

    for name, cls in sorted(VARIANTS.items()):
        typer.echo(f"{name}: {cls.title} ({', '.join(map(str, cls.player_counts))} players)")
        for opt in cls.options.values():
            typer.echo(f"  {opt.name} = {opt.default!r}: {opt.help}")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    database: Annotated[str, typer.Option(help="SQLite file or URL, or postgresql://...")] = "canasta.db",
    redis: Annotated[str | None, typer.Option(help="redis://... to share tables with other processes")] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a computer player waits before each action")] = 0.4,
    idle_limit: Annotated[float, typer.Option(help="seconds before an idle seat may be handed to the computer")] = 120.0,
    auto_takeover: Annotated[bool, typer.Option(help="hand a seat idle past --idle-limit to the computer by itself "
                                                     "(its player can take it back)")] = True,
) -> None:
    """Serve the web app: play in the browser, alone or with friends (needs the 'web' extra)."""
    try:
        import uvicorn

        from canasta.web import create_app
    except ImportError as exc:
        fail(f"the web server needs its extra: pip install 'canasta[web]' ({exc})")
        return
    web_app = create_app(database, redis_url=redis, bot_delay=bot_delay, idle_limit=idle_limit,
                         auto_takeover=auto_takeover)
    typer.echo(f"canasta: http://{host}:{port}/ (database {database})")
    uvicorn.run(web_app, host=host, port=port, log_level="warning", ws_max_size=65536)


@app.command()
def loadtest(
    games: Annotated[int, typer.Option(help="concurrent games")] = 10,
    seconds: Annotated[float, typer.Option(help="how long to run")] = 10.0,
    players: Annotated[int, typer.Option(help="players per game")] = 4,
    url: Annotated[str | None, typer.Option(help="a running server (default: start one on 127.0.0.1)")] = None,
    think: Annotated[float, typer.Option(help="seconds each client waits before acting")] = 0.0,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Concurrent games of computer players over WebSockets: actions/s and round-trip p50/p99."""
    try:
        from canasta.web.loadtest import render_loadtest, run_loadtest
    except ImportError as exc:
        fail(f"the load test needs the web extra: pip install 'canasta[web]' ({exc})")
        return
    try:
        result = run_loadtest(games=games, seconds=seconds, players=players, url=url, think=think)
    except (ValueError, RuntimeError) as exc:
        fail(str(exc))
        return
    typer.echo(json.dumps(result, indent=2) if as_json else render_loadtest(result))


@app.command()
def arena(
    variant: Annotated[str, typer.Option(help="variant name, e.g. classic")] = "classic",
    players: Annotated[str, typer.Option(help="one player per side, comma-separated, e.g. expert,basic; "
                                         "settings as expert:worlds=4:max_rollouts=40")] = "basic,random",
    games: Annotated[int, typer.Option(help="games to play (rounded up to whole duplicated deals)")] = 20,
    workers: Annotated[int | None, typer.Option(help="processes (default: all cores)")] = None,
    seed: Annotated[int, typer.Option(help="seed of the deals")] = 0,
    table: Annotated[int | None, typer.Option(help="players at the table (default 4 for two sides where the variant allows it)")] = None,
    hands: Annotated[int, typer.Option(help="end each game after this many hands (0: play to the target)")] = 0,
    rule: RuleOpt = None,
    out: Annotated[Path, typer.Option(help="results file stem: writes STEM.json and STEM.png")] = Path("arena-results"),
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    ray: Annotated[str | None, typer.Option("--ray", help="run the games on a Ray cluster: 'local', 'auto' or "
                                            "HOST:PORT (pip install 'canasta[ray]')")] = None,
) -> None:
    """Computer players against each other over duplicated deals: win rates, margins, decision times."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    from canasta.arena import render, run_arena, write_outputs

    names = [n.strip() for n in players.split(",") if n.strip()]
    try:
        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), transient=True, disable=as_json) as bar:
            task = bar.add_task("games", total=None)
            result = run_arena(variant, names, games=games, workers=workers, seed=seed, table=table,
                               rules=parse_rules(rule), hands=hands, ray_address=ray,
                               progress=lambda done, total: bar.update(task, completed=done, total=total))
    except (CanastaError, ValueError) as exc:
        fail(str(exc))
        return
    js, png = write_outputs(result, out)
    if as_json:
        typer.echo(json.dumps({k: v for k, v in result.items() if k != "records"}, indent=2))
        return
    typer.echo(render(result))
    typer.echo(f"results: {js}" + (f", plot: {png}" if png else " (pip install 'canasta[arena]' for the plot)"))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
