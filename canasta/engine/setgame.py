"""Set melds on Classic Canasta's turn: Classic, Uruguayan, Cuban and Mille (the family the others extend)."""

from __future__ import annotations

from canasta.engine.game import Game


class SetMeldGame(Game, plays=frozenset()):
    """Melds keyed by rank, the pile frozen and taken with a natural pair, red threes laid out."""
