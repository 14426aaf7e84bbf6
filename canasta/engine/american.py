"""Modern American Canasta: set melds with the extended rules of :mod:`canasta.engine.setrules`."""

from __future__ import annotations

from typing import ClassVar

from canasta.engine.setgame import SetMeldGame


class AmericanGame(SetMeldGame, plays=frozenset({"EXTENDED_SET_RULES"})):
    """Classic's turn with Modern American's melds, opening, discards, threes and bonus cards."""

    _american_rules: ClassVar[bool] = True
