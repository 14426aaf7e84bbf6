"""Rule families whose modules the core still imports as mixins (moved to their own modules as they split off)."""

from __future__ import annotations

from typing import ClassVar

from canasta.engine.setgame import SetMeldGame


class FootGame(SetMeldGame, plays=frozenset({"FEET"})):
    """Hand and Foot and Triple Play: a foot (and knee) per seat, books closing at seven."""

    _feet: ClassVar[bool] = True

