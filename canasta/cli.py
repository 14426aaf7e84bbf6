"""The ``canasta`` command line (Typer)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

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


#: An error may quote the user's input: a quotation longer than this is cut to its first half, and the whole
#: line to MAX_ERROR characters, so that a pasted or damaged file is never echoed back whole.
MAX_QUOTE = 120
MAX_ERROR = 1000
_LONG_QUOTE = re.compile(f"'[^'\\n]{{{MAX_QUOTE},}}'|\"[^\"\\n]{{{MAX_QUOTE},}}\"")


def fail(message: str) -> NoReturn:
    """One line on stderr, ``error: ...``, and exit status 2."""
    line = _LONG_QUOTE.sub(lambda m: m.group()[:MAX_QUOTE // 2] + "…" + m.group()[0], " ".join(message.split()))
    if len(line) > MAX_ERROR:
        line = line[:MAX_ERROR - 1] + "…"
    typer.echo(f"error: {line}", err=True)
    raise typer.Exit(2)


@contextmanager
def reading(name: str | Path, kind: str) -> Iterator[None]:
    """Around reading the user's file ``name`` as ``kind`` ("a saved game"): whatever a damaged or foreign file
    makes the reader raise is one line naming the file, not a Python message or a traceback."""
    try:
        yield
    except CanastaError as exc:
        fail(str(exc))
    except RecursionError:
        fail(f"{name} is not {kind}: it is nested too deeply")
    except KeyError as exc:
        fail(f"{name} is not {kind}: the field {exc.args[0] if exc.args else ''!s} is missing")
    except (TypeError, ValueError, AttributeError, IndexError):
        fail(f"{name} is not {kind}: its fields do not have the expected values")


def read_input(path: Path) -> str:
    """The text of the file ``path``, or of standard input for ``-``: UTF-8 (a byte-order mark accepted)."""
    from canasta.record import decode_text, read_text_file

    with reading(path, "readable"):
        if str(path) == "-":
            return decode_text(sys.stdin.buffer.read(), "standard input")
        return read_text_file(path)
    raise AssertionError("unreachable: reading() exits on every error")


@app.command()
def play(
    variant: Annotated[str | None, typer.Option(help="variant name, e.g. classic (default classic)")] = None,
    players: Annotated[int | None, typer.Option(help="number of players (default 4, or the variant's only count)")] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the deal (random if omitted)")] = None,
    rule: RuleOpt = None,
    seat: Annotated[int | None, typer.Option(help="the seat you play (0-based; default 0)")] = None,
    level: Annotated[list[str] | None, typer.Option(
        help="computer players: random, easy, basic (default), medium, hard or expert; SEAT=LEVEL for one seat "
             "(repeatable, e.g. --level expert --level 2=basic); an outside player as module.path:ClassName, "
             "e.g. a trained agent (docs/environments.md)")] = None,
    load: Annotated[Path | None, typer.Option(help="resume a game saved with 'save FILE'")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="resume the game left on quit or Ctrl-C (the autosave)")] = False,
) -> None:
    """Play in the terminal against computer players."""
    from canasta.tui import parse_levels, run_play
    from canasta.tui.prompt import is_interactive
    from canasta.tui.saves import default_autosave_path, read_save

    # a session at a terminal autosaves when it stops unfinished; a piped one only when CANASTA_AUTOSAVE asks
    autosave = default_autosave_path() if is_interactive() or os.environ.get("CANASTA_AUTOSAVE") or resume else None
    if load is not None:  # a file that is not a saved game is one line, before the game starts
        with reading(load, "a saved game"):
            read_save(load)
    try:
        run_play(variant=variant, players=players, seed=seed, rules=parse_rules(rule) or None, seat=seat,
                 levels=parse_levels(level), load=load, resume=resume, autosave=autosave)
    except CanastaError as exc:
        fail(str(exc))


@app.command()
def legal(position: Annotated[Path, typer.Argument(help="a position saved with 'save FILE' in canasta play, "
                                                        "or as JSON (Game.to_json)")]) -> None:
    """Print the legal actions of a saved position, one a line, in the notation."""
    from canasta.notation import format_action
    from canasta.tui.saves import parse_save

    text = read_input(position)
    with reading(position, "a saved game"):
        game = parse_save(text, str(position)).game
    for action in game.legal_actions():
        typer.echo(f"{game.actor}: {format_action(action)}")


@app.command()
def replay(record: Annotated[Path, typer.Argument(help="a game record in the notation")],
           verify: Annotated[bool, typer.Option("--verify", help="also check the seed against the commitment "
                                                "published when the game started (server games)")] = False,
           commitment: Annotated[str | None, typer.Option(
               "--commitment", metavar="HEX", help="with --verify: the commitment the table showed when the game "
               "started (without it, only the record's own Commitment tag is checked)")] = None) -> None:
    """Replay a record, check every action, and print the hand scores."""
    from canasta.record import replay_command, verify_record

    if commitment is not None and not verify:
        fail("--commitment goes with --verify")
    text = read_input(record)
    with reading(record, "a game record"):
        refused = not_a_record(text, record)
        if refused:
            fail(refused)
        summary = verify_record(text, commitment) if verify else replay_command(text)
    typer.echo(summary)


def not_a_record(text: str, path: Path) -> str | None:
    """What to say when ``replay`` is given a file that is not a game record (a saved game, a scorekeeper hand)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    if isinstance(data, dict) and ("canasta_save" in data or "schema" in data):
        return (f"{path} is a saved game (a position, with the stock and every hand), not a game record: resume it with "
                f"'canasta play --load {path}' or list its moves with 'canasta legal {path}'; "
                "write a record with 'record FILE' during the game")
    if isinstance(data, dict) and "teams" in data:
        return f"{path} is a scorekeeper hand, not a game record: score it with 'canasta score {path}'"
    return f"{path} is JSON, not a game record (a record begins with tags such as [Variant \"classic\"])"


@app.command()
def score(
    file: Annotated[Path, typer.Argument(help="JSON description of the end of a hand ('-' for stdin)")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The scorekeeper: score a hand played with real cards."""
    from canasta.scorekeeper import render_sheet, score_input

    text = read_input(file)
    name = "standard input" if str(file) == "-" else str(file)
    with reading(name, "a scorekeeper hand"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            fail(f"{name} is not JSON: {exc}")
        result = score_input(data)
        shown = json.dumps(result, indent=2) if as_json else render_sheet(data, result)
    typer.echo(shown)


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


@app.command("complete-soak")
def complete_soak(
    out: Annotated[str, typer.Option(help="JSON-lines file of the chunks: appended to, and resumed from")],
    variants: Annotated[str, typer.Option(help="comma-separated variants (default: all)")] = "",
    hands: Annotated[int, typer.Option(help="hands a variant")] = 2000,
    minutes: Annotated[float, typer.Option(help="stop after this many minutes (the file keeps every finished chunk)")] = 60.0,
    summary: Annotated[bool, typer.Option("--summary", help="only print the totals of --out (several files: "
                                                            "comma-separated)")] = False,
) -> None:
    """The long completeness soak: every variant in fair rounds, resumable, with its totals."""
    from canasta.soak import render_complete_rounds, run_complete_rounds, summarize_complete_rounds
    from canasta.variants import VARIANTS

    paths = [p for p in out.split(",") if p]
    if not summary:
        chosen = [v.strip() for v in variants.split(",") if v.strip()] or list(VARIANTS)
        unknown = [v for v in chosen if v not in VARIANTS]
        if unknown:
            fail(f"unknown variants: {', '.join(unknown)}")
            return
        run_complete_rounds(paths[0], variants=chosen, hands=hands, stop_after_seconds=60 * minutes)
    for path in paths if summary else []:
        read_input(Path(path))
    with reading(out, "a file of complete-soak chunks (JSON lines)"):
        totals = summarize_complete_rounds(paths)
    typer.echo(render_complete_rounds(totals, hands))
    if any(t["failure_count"] for t in totals):
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
    database: Annotated[str | None, typer.Option(help="SQLite file or URL, or postgresql://... (default: canasta.db in "
                                                      "the user's data folder, e.g. ~/.local/share/canasta)")] = None,
    redis: Annotated[str | None, typer.Option(help="redis://... to share tables with other processes")] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a computer player waits before each action")] = 0.4,
    idle_limit: Annotated[float, typer.Option(help="seconds before an idle seat may be handed to the computer")] = 120.0,
    auto_takeover: Annotated[bool, typer.Option(help="hand a seat idle past --idle-limit to the computer by itself "
                                                     "(its player can take it back)")] = True,
    games_per_minute: Annotated[float, typer.Option(help="games one client (address) may create a minute, "
                                                         "in bursts of as many; 0: no limit")] = 20.0,
    sockets_per_client: Annotated[int, typer.Option(help="open WebSockets per client address; 0: no limit")] = 32,
    messages_per_second: Annotated[float, typer.Option(help="WebSocket messages a second per client address, over "
                                                            "all its sockets, in bursts of twice as many; 0: no limit")] = 200.0,
    table_expiry: Annotated[float, typer.Option(help="hours a table nobody connects to stays open; 0: for ever")] = 24.0,
) -> None:
    """Serve the web app: play in the browser, alone or with friends (needs the 'web' extra)."""
    try:
        import uvicorn

        from canasta.web import create_app
    except ImportError as exc:
        fail(missing_module_message(exc))
        return
    from canasta.web.limits import Limits

    limits = Limits(games=(games_per_minute, games_per_minute) if games_per_minute > 0 else None,
                    sockets_per_client=sockets_per_client if sockets_per_client > 0 else None,
                    messages=(messages_per_second, 2 * messages_per_second) if messages_per_second > 0 else None)
    if messages_per_second <= 0:
        limits.message_bytes = None  # no message limit: no byte budget either
    if database is None:  # not the current folder: a server started in a checkout must not leave a file in it
        folder = user_data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        database = str(folder / "canasta.db")
    web_app = create_app(database, redis_url=redis, bot_delay=bot_delay, idle_limit=idle_limit,
                         auto_takeover=auto_takeover, limits=limits,
                         table_expiry=table_expiry * 3600 if table_expiry > 0 else None)
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
        fail(missing_module_message(exc))
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
    out: Annotated[Path | None, typer.Option(help="results file stem: writes STEM.json and STEM.png (default: "
                                              "arena-results in the user's data folder, e.g. ~/.local/share/canasta/arena)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    ray: Annotated[str | None, typer.Option("--ray", help="run the games on a Ray cluster: 'local', 'auto' or "
                                            "HOST:PORT (pip install 'canasta[ray]')")] = None,
    checkpoint_every: Annotated[int, typer.Option(min=1, help="write STEM.json after every N finished deals "
                                                  "(and when interrupted)")] = 5,
    resume: Annotated[bool, typer.Option("--resume", help="continue the interrupted run in STEM.json "
                                         "(same arguments; more games extend a finished run): only the missing games are played")] = False,
) -> None:
    """Computer players against each other over duplicated deals: win rates, margins, decision times.

    A player is a built-in name (random, basic, easy, medium, hard, expert, with settings as
    expert:worlds=4), an outside class as module.path:ClassName, or a name an installed package
    registers in the entry-point group canasta.players (docs/players.md)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    from canasta.arena import render, run_arena, write_json, write_outputs

    names = [n.strip() for n in players.split(",") if n.strip()]
    if out is None:  # results of a run are not files of the folder it runs in (a checkout tracks none)
        out = user_data_dir() / "arena" / "arena-results"
    earlier = resume_arena(out) if resume else None
    try:
        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), transient=True, disable=as_json) as bar:
            task = bar.add_task("games", total=None)
            result = run_arena(variant, names, games=games, workers=workers, seed=seed, table=table,
                               rules=parse_rules(rule), hands=hands, ray_address=ray,
                               progress=lambda done, total: bar.update(task, completed=done, total=total),
                               checkpoint=lambda partial: write_json(partial, out),
                               checkpoint_every=checkpoint_every, resume_from=earlier)
    except (CanastaError, ValueError) as exc:
        fail(str(exc))
        return
    except KeyboardInterrupt:
        fail(f"interrupted: the finished games are in {out.with_suffix('.json')}; "
             "run the same command with --resume to continue")
        return
    js, png = write_outputs(result, out)
    if as_json:
        typer.echo(json.dumps({k: v for k, v in result.items() if k != "records"}, indent=2))
        return
    typer.echo(render(result))
    typer.echo(f"results: {js}" + (f", plot: {png}" if png else f" (pip install {install_target('arena')} for the plot)"))


def user_data_dir() -> Path:
    """Where canasta keeps a user's files by default (the server's database, arena results), by the platform's
    convention: $XDG_DATA_HOME/canasta or ~/.local/share/canasta, ~/Library/Application Support/canasta,
    %LOCALAPPDATA%\\canasta."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "canasta"


def resume_arena(out: Path) -> dict[str, Any]:
    """The results of the run ``arena --resume`` continues, or one line saying why that file cannot be resumed."""
    from canasta.arena import load_results

    js = out.with_suffix(".json")
    if js.exists():
        read_input(js)  # the encoding, named like every other file's
    try:
        return load_results(out)
    except RecursionError:
        fail(f"cannot resume: {js} is not a results file (it is nested too deeply)")
    except ValueError as exc:
        fail(str(exc))


#: The extra that installs each optional module (pyproject.toml); a module not named here is a base dependency.
EXTRAS = {"fastapi": "web", "uvicorn": "web", "sqlalchemy": "web", "psycopg": "servers", "redis": "servers",
          "httpx": "web", "websockets": "web", "playwright": "test", "pettingzoo": "rl", "gymnasium": "rl", "pyspiel": "bench",
          "open_spiel": "bench", "matplotlib": "arena", "ray": "ray"}


def install_target(extra: str) -> str:
    """What to give pip for ``extra`` from where the user stands: ``'canasta[web]'`` for an installed package,
    ``-e '.[web]'`` in a checkout (pip cannot find 'canasta' by name there), or the checkout's path elsewhere."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file():
        return f"'canasta[{extra}]'"
    here = Path.cwd().resolve()
    return f"-e '.[{extra}]'" if here == root else f"-e '{root}[{extra}]'"


def missing_module_message(exc: ImportError) -> str:
    """One line naming what to install for a module that is missing: its extra, or the base install."""
    name = (exc.name or str(exc)).split(".")[0]
    extra = EXTRAS.get(name)
    if extra is not None:
        return f"this command needs the '{extra}' extra (module {name} is missing): pip install {install_target(extra)}"
    return (f"module {name} is missing from this install: reinstall canasta with its dependencies "
            "(pip install canasta, or pip install -e . in a checkout)")


def main() -> None:
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        raise SystemExit(1) from None
    except typer.TyperException as exc:  # Click's own refusals (an unknown option, a bad value): one line like ours
        if type(exc).__name__ == "NoArgsIsHelpError":  # `canasta` alone: the help, as Click shows it
            typer.echo(exc.format_message())
        else:
            context = getattr(exc, "ctx", None)
            hint = f" (try '{context.command_path} --help')" if context is not None else ""
            typer.echo(f"error: {' '.join(exc.format_message().split())}{hint}", err=True)
        raise SystemExit(getattr(exc, "exit_code", 2)) from None
    except ImportError as exc:  # an extra not installed, anywhere a command reaches it: one line, no traceback
        if (exc.name or "").split(".")[0] in ("", "canasta"):
            raise  # a fault of canasta itself, not a missing install: keep the traceback
        typer.echo(f"error: {missing_module_message(exc)}", err=True)
        raise SystemExit(2) from None
    if isinstance(code, int) and code:  # outside Click's standalone mode an Exit's status is returned
        raise SystemExit(code)


if __name__ == "__main__":
    main()
