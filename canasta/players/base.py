"""The interface every computer player implements, and how outside players are found.

A player sees only what a human at its seat would see: the observation dict from
``Game.observation(seat)`` and the list of legal actions. It never gets the
:class:`~canasta.engine.game.Game`, so it cannot peek at the stock or other hands.

A player written outside this package is named ``module.path:ClassName`` (imported on
demand), or by a short name its distribution registers in the entry-point group
``canasta.players`` (see docs/players.md).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from canasta.engine.actions import Action

Observation = dict[str, Any]

#: the entry-point group installed packages register their players in
ENTRY_POINT_GROUP = "canasta.players"


@runtime_checkable
class Player(Protocol):
    """Chooses one atomic action at a time."""

    name: str

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        """Return one of ``legal`` (which is never empty)."""
        ...


PlayerFactory = Callable[[int | str | None], Player]


def is_class_reference(spec: str) -> bool:
    """``module.path:ClassName``: a module path, a colon and an identifier (no ``key=value``)."""
    module, sep, attr = spec.partition(":")
    return bool(sep) and bool(module) and attr.isidentifier() and all(p.isidentifier() for p in module.split("."))


def player_factory(cls: Any, label: str) -> PlayerFactory:
    """``cls`` checked against the interface, as a factory taking the seed.

    The class is called with the seed (``cls(seed)``) when its constructor takes an argument,
    else with none; instances get ``name`` = ``label`` when they have none of their own.
    """
    construct: Callable[..., Player] = cls  # (before isclass narrows cls to a plain type)
    if not inspect.isclass(cls):
        raise ValueError(f"player {label!r} is not a class but {type(cls).__name__}")
    if not callable(getattr(cls, "choose", None)):
        raise ValueError(f"player {label!r}: class {cls.__name__} has no choose(obs, legal) method")
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):  # a constructor without a readable signature: assume it takes the seed
        takes_seed = True
    else:
        try:
            signature.bind(0)
            takes_seed = True
        except TypeError:
            try:
                signature.bind()
            except TypeError:
                raise ValueError(f"player {label!r}: class {cls.__name__} must be constructible as "
                                 f"{cls.__name__}(seed) or {cls.__name__}()") from None
            takes_seed = False

    def make(seed: int | str | None = 0) -> Player:
        player = construct(seed) if takes_seed else construct()
        if not isinstance(getattr(player, "name", None), str):
            with contextlib.suppress(AttributeError):  # __slots__ or a read-only property: the arena names it anyway
                player.name = label
        return player

    return make


def load_class_reference(spec: str) -> PlayerFactory:
    """The player class named ``module.path:ClassName``, imported (from the working directory too)."""
    module_name, _, attr = spec.partition(":")
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)  # a module next to where the command runs, as ``python -m`` would find it
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise ValueError(f"player {spec!r}: module {exc.name or module_name!r} not found "
                         "(install it, or run from the directory that holds it)") from None
    except Exception as exc:  # the module itself fails on import: name the cause in one line
        raise ValueError(f"player {spec!r}: importing {module_name} failed: {type(exc).__name__}: {exc}") from None
    if not hasattr(module, attr):
        raise ValueError(f"player {spec!r}: module {module_name} has no attribute {attr!r}")
    return player_factory(getattr(module, attr), spec)


def registered_players() -> dict[str, Any]:
    """Entry points of the group ``canasta.players`` by (lower-case) name, not yet loaded."""
    return {ep.name.strip().lower(): ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def load_registered(name: str) -> PlayerFactory | None:
    """The player an installed distribution registers as ``name``, or None when none does."""
    ep = registered_players().get(name.strip().lower())
    if ep is None:
        return None
    try:
        target = ep.load()
    except Exception as exc:
        raise ValueError(f"player {name!r} (entry point {ep.value}): loading failed: {type(exc).__name__}: {exc}") from None
    return player_factory(target, name)
