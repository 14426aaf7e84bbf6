"""Rule families whose modules the core still imports as mixins (moved to their own modules as they split off)."""

from __future__ import annotations

from typing import ClassVar

from canasta.engine.game import Game


class MeldIdGame(Game, plays=frozenset({"MELD_IDS"})):
    """Burraco: melds with ids (sets and runs), pozzetti, closing."""

    _meld_ids: ClassVar[bool] = True


class SambaGame(MeldIdGame, plays=frozenset({"MELD_IDS", "CLASSIC_TURN"})):
    """Samba and its family: meld ids and runs on Classic's turn."""

    _classic_turn: ClassVar[bool] = True
