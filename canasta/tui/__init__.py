"""`canasta play`: the terminal game against computer players.

:func:`run_play` starts or resumes a session (:class:`~canasta.tui.session.TerminalGame`);
:mod:`canasta.tui.view` draws the table, :mod:`canasta.tui.prompt` reads the lines and
:mod:`canasta.tui.saves` keeps saved games. See docs/terminal.md.
"""

from __future__ import annotations

import random
import shlex
import sys
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from canasta.engine.game import Game
from canasta.errors import OptionError
from canasta.players.base import is_class_reference
from canasta.tui.prompt import InputFn, PlainReader, PromptReader, is_interactive
from canasta.tui.saves import autosaves, default_autosave_path, describe_load_conflicts, free_autosave, read_save
from canasta.tui.session import HELP, TerminalGame

#: The computer players a seat may be given (``--level``): canasta.players.get_player's names.
LEVEL_NAMES = ("random", "easy", "basic", "medium", "hard", "expert")


def parse_levels(values: list[str] | None) -> dict[int, str] | None:
    """``["expert"]`` (every computer seat), ``["1=expert", "3=random"]`` or ``["basic,1=expert"]``; None if
    not given. A bare level (key -1) applies to the seats that no ``SEAT=LEVEL`` names."""
    if not values:
        return None
    levels: dict[int, str] = {}
    for value in values:
        for item in filter(None, (x.strip() for x in value.split(","))):
            seat_text, sep, name = item.partition("=")
            name = (name if sep else seat_text).strip()
            if not is_class_reference(name):  # an outside player (a trained agent) keeps its case
                name = name.lower()
                if name not in LEVEL_NAMES:
                    raise OptionError(f"--level {item!r}: the levels are {', '.join(LEVEL_NAMES)}, "
                                      "or an outside player as module.path:ClassName")
            if sep and not seat_text.strip().isdigit():
                raise OptionError(f"--level {item!r}: write LEVEL or SEAT=LEVEL, e.g. 1=expert")
            levels[int(seat_text) if sep else -1] = name
    return levels


def resolve_levels(levels: dict[int, str] | None, players: int, seat: int) -> dict[int, str]:
    """Every computer seat's level (basic unless named); a ``-1`` key is the level of the seats not named."""
    levels = dict(levels or {})
    default = levels.pop(-1, "basic")
    for s in levels:
        if not 0 <= s < players:
            raise OptionError(f"--level names seat {s}; the seats are 0-{players - 1}")
        if s == seat:
            raise OptionError(f"--level names seat {s}, which is yours")
    return {s: levels.get(s, default) for s in range(players) if s != seat}


def unfinished_notices(kept: list[Path]) -> list[str]:
    """What start-up says of the unfinished games already autosaved: where each is, and the command that resumes it."""
    if not kept:
        return []
    if len(kept) == 1:
        return [f"An unfinished game is kept in {kept[0]}: resume it with "
                f"'canasta play --load {shlex.quote(str(kept[0]))}' (this game autosaves apart)."]
    return [f"{len(kept)} unfinished games are kept (this game autosaves apart); resume one with:"] + \
        [f"  canasta play --load {shlex.quote(str(p))}" for p in reversed(kept)]


def _make_console(output: Console | TextIO | None) -> Console:
    if isinstance(output, Console):
        return output
    if output is None:
        return Console(highlight=False)
    return Console(file=output, highlight=False, width=110, color_system=None, force_terminal=False)


def _choose_autosave(load: Path | None, resume: bool,
                     autosave: Path | None) -> tuple[Path | None, Path | None, list[str]]:
    """The game to load (the newest autosave with ``resume``), the file this session autosaves to, and the
    notices of unfinished games kept: one autosave a game, a new game never replaces an unfinished one."""
    if resume:
        if load is not None:
            raise OptionError("give --load FILE or --resume, not both")
        kept = autosaves(autosave or default_autosave_path())
        if not kept:
            raise OptionError(f"no autosaved game to resume ({autosave or default_autosave_path()}): "
                              "start one with 'canasta play'")
        load = autosave = kept[-1]  # the newest; quitting it again saves it in the same file
    notices: list[str] = []
    if autosave is not None:
        kept = autosaves(autosave)
        if load is not None and load.resolve() in [p.resolve() for p in kept]:
            autosave = load  # an autosaved game goes on in its own file
        else:
            notices = unfinished_notices(kept)
            autosave = free_autosave(autosave)
    return load, autosave, notices


def run_play(*, variant: str | None = None, players: int | None = None, seed: int | None = None,
             rules: dict[str, Any] | None = None, seat: int | None = None, levels: dict[int, str] | None = None,
             load: Path | None = None, resume: bool = False, autosave: Path | None = None,
             input_fn: InputFn | None = None, output: Console | TextIO | None = None,
             screen: bool | None = None) -> None:
    """Play in the terminal as ``seat`` against computer players, or resume ``load`` (or the autosave).

    Options left None take their defaults (Classic, 4 players or the variant's count, a random seed,
    seat 0, basic players); beside ``load`` they must agree with the saved game. ``autosave`` is the
    file written when the session stops unfinished (quit, end of input, Ctrl-C); ``screen`` redraws
    one screen a turn (by default when input and output are a terminal)."""
    console = _make_console(output)
    interactive = input_fn is None and is_interactive()
    if screen is None:
        screen = interactive and output is None
    load, autosave, notices = _choose_autosave(load, resume, autosave)
    if load is not None:
        saved = read_save(load)
        game = saved.game
        mine = saved.seat if saved.seat is not None else (seat or 0)
        wanted = resolve_levels(levels, game.num_players, mine) if levels is not None and 0 <= mine < game.num_players \
            else None
        conflicts = describe_load_conflicts(saved, {"variant": variant, "players": players, "seed": seed,
                                                    "rule": rules or None, "seat": seat, "level": wanted})
        if conflicts:
            raise OptionError(f"{load} is a saved game with its own settings; leave out the options that differ: "
                              + "; ".join(conflicts))
        seat = mine
        levels = saved.levels or levels
        banner = (f"Resumed {load}: {game.variant.title}, {game.num_players} players, hand {game.hand_no}, "
                  f"you are seat {seat}. Type 'help' for help.")
    else:
        from canasta.variants import find_variant

        variant = variant or "classic"
        if players is None:
            counts = find_variant(variant).player_counts
            players = 4 if 4 in counts else counts[0]
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)  # shown, so the deal can be replayed
        game = Game(variant, players, seed, rules or {})
        seat = seat or 0
        banner = f"{game.variant.title}, {players} players, seed {seed}. Type 'help' for help."
    if not 0 <= seat < game.num_players:
        if load is not None and saved.seat is not None:
            raise OptionError(f"{load} is a damaged save: it names seat {seat}, and the game's seats are "
                              f"0-{game.num_players - 1}")
        raise OptionError(f"--seat must be between 0 and {game.num_players - 1}, not {seat}")
    resolved = resolve_levels(levels, game.num_players, seat)
    reader: InputFn
    session_box: list[TerminalGame] = []
    if input_fn is not None:
        reader = input_fn
    elif interactive:
        reader = PromptReader(lambda: session_box[0].candidates())
    else:
        reader = PlainReader(sys.stdin, console.file)
    session = TerminalGame(game, seat, reader, console, levels=resolved, screen=screen, autosave=autosave)
    session_box.append(session)
    if load is not None:
        session.restore_context()  # this hand's moves in the log, this turn's melds undoable
    session.event(None, banner)  # printed, and kept in the last moves of the first screen
    for notice in notices:
        session.event(None, Text(notice, style="yellow"))
    session.run()
    if session.game.is_over and autosave is not None and load == autosave and autosave.exists():
        autosave.unlink()  # the resumed game is finished: nothing is left to resume


__all__ = ["HELP", "LEVEL_NAMES", "TerminalGame", "parse_levels", "resolve_levels", "run_play"]
