"""Saved games of the terminal game: the position with the session around it (your seat, the levels).

A save is ``{"canasta_save": 1, "seat": 0, "levels": {"1": "basic", ...}, "game": {...}}`` where
``game`` is ``Game.to_dict()``. A bare position (``Game.to_json``, as ``canasta legal`` reads) loads too;
it names no seat. Files of another kind (a game record, a scorekeeper hand) are recognised and refused
with the command that reads them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.engine.game import Game
from canasta.errors import OptionError, SchemaError

SAVE_VERSION = 1


@dataclass
class Saved:
    """A loaded save: the game, and the seat and levels if the file names them."""

    game: Game
    seat: int | None = None
    levels: dict[int, str] = field(default_factory=dict)


def save_text(game: Game, seat: int, levels: dict[int, str]) -> str:
    return json.dumps({"canasta_save": SAVE_VERSION, "seat": seat,
                       "levels": {str(s): name for s, name in sorted(levels.items())},
                       "game": game.to_dict()}, separators=(",", ":"))


def write_save(path: Path, game: Game, seat: int, levels: dict[int, str], make_dirs: bool = False) -> None:
    """Write atomically: a save interrupted half-way must not destroy the previous one. ``make_dirs`` creates
    the folder (the autosave's; a file the player names must be in a folder that exists)."""
    if make_dirs:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(save_text(game, seat, levels))
    os.replace(tmp, path)


def foreign_file(path: Path, kind: str) -> str | None:
    """Why ``save`` (``kind`` "a saved game") or ``record`` ("a game record") must not write over ``path``: it
    exists and is not a file of that kind (a text file named by mistake). None when writing is safe."""
    if not path.exists():
        return None
    if path.is_dir():
        return f"{path} is a folder"
    try:
        text = path.read_bytes()[:1_000_000].decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        text = ""
    ours = what_is(text) == "a game record" if kind == "a game record" else _is_save(text)
    return None if ours else f"{path} exists and is not {kind}: it is left as it is; choose another name"


def _is_save(text: str) -> bool:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(data, dict) and ("canasta_save" in data or "schema" in data)


def what_is(text: str) -> str | None:
    """A short name for a file that is not a saved game ("a game record", "a scorekeeper hand"), else None."""
    stripped = text.lstrip()
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # a record's tags look like JSON lists: JSON is tried first
        return "a game record" if stripped.startswith(("[", "hand ")) else None
    if isinstance(data, dict) and "teams" in data:
        return "a scorekeeper hand"
    return None


def parse_save(text: str, name: str) -> Saved:
    """A save or a bare position from ``text`` (read from file ``name``), or an error that says what the file is."""
    kind = what_is(text)
    if kind == "a game record":
        raise OptionError(f"{name} is a game record, not a saved game: replay it with 'canasta replay {name}'")
    if kind == "a scorekeeper hand":
        raise OptionError(f"{name} is a scorekeeper hand, not a saved game: score it with 'canasta score {name}'")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OptionError(f"{name} is not a saved game (not JSON: {exc}); "
                          "save one with 'save FILE' in 'canasta play'") from None
    if not isinstance(data, dict):
        raise OptionError(f"{name} is not a saved game (a JSON object is expected)")
    if "canasta_save" in data:
        if data["canasta_save"] != SAVE_VERSION:
            raise OptionError(f"{name} is a save of version {data['canasta_save']!r}; this version reads {SAVE_VERSION}")
        try:
            game = Game.from_dict(data["game"])
            seat = int(data["seat"])
            levels = {int(s): str(n) for s, n in (data.get("levels") or {}).items()}
        except SchemaError as exc:
            raise OptionError(f"{name}: {exc}") from None
        except KeyError as exc:
            raise OptionError(f"{name} is a damaged save: it has no {exc.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError):
            raise OptionError(f"{name} is a damaged save: its seat, levels or game are not of the saved kinds") from None
        return Saved(game, seat, levels)
    if "schema" not in data:
        raise OptionError(f"{name} is not a saved game (it has neither 'canasta_save' nor 'schema'); "
                          "save one with 'save FILE' in 'canasta play'")
    try:
        return Saved(Game.from_dict(data))
    except SchemaError as exc:
        raise OptionError(f"{name}: {exc}") from None


def read_save(path: Path) -> Saved:
    from canasta.record import read_text_file

    return parse_save(read_text_file(path), str(path))


def default_autosave_path() -> Path:
    """Where quitting saves the game for ``canasta play --resume``: $CANASTA_AUTOSAVE, else the XDG state dir."""
    override = os.environ.get("CANASTA_AUTOSAVE")
    if override:
        return Path(override).expanduser()
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "canasta" / "autosave.json"


def autosaves(path: Path) -> list[Path]:
    """The autosaved games beside ``path`` (``autosave.json``, ``autosave-2.json``, ...), the newest last: one a game,
    so that starting a new game never replaces an unfinished one."""
    found = [path] if path.is_file() else []
    found += [p for p in path.parent.glob(f"{path.stem}-*{path.suffix}")
              if p.stem[len(path.stem) + 1:].isdigit() and p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name))


def free_autosave(path: Path) -> Path:
    """The autosave file of a new game: ``path`` if no game is kept there, else the first free numbered name."""
    n = 1
    candidate = path
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate


def describe_load_conflicts(saved: Saved, options: dict[str, Any]) -> list[str]:
    """The options given beside --load that disagree with the saved game (None: not given)."""
    g = saved.game
    have: dict[str, Any] = {"variant": g.variant_name, "players": g.num_players, "seed": g.seed,
                            "rule": g.variant.non_default_rules(), "seat": saved.seat}
    out: list[str] = []
    for name, given in options.items():
        if given is None or name not in have or have[name] is None:
            continue
        if name == "variant":
            from canasta.variants import find_variant

            if find_variant(given).name == g.variant_name:
                continue
        elif name == "rule":
            wanted = type(g.variant)(g.num_players, given).non_default_rules()
            if wanted == have["rule"]:
                continue
            out.append(f"--rule: the saved game's table rules are {have['rule'] or 'the defaults'}")
            continue
        elif str(given) == str(have[name]):
            continue
        out.append(f"--{name} {given}: the saved game has {name} {have[name]}")
    levels = options.get("level")
    if levels is not None and saved.levels and levels != saved.levels:
        shown = ", ".join(f"{s}={n}" for s, n in sorted(saved.levels.items()))
        out.append(f"--level: the saved game's computer players are {shown}")
    return out


__all__ = ["SAVE_VERSION", "Saved", "autosaves", "default_autosave_path", "describe_load_conflicts", "foreign_file", "free_autosave", "parse_save", "read_save",
           "save_text", "what_is", "write_save"]
