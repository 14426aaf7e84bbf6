"""The pure rules engine.

``Game(variant, ...)`` builds the variant's rule family; importing this package imports every family
module, so each has registered itself (``Game.family_of``) before any game is made.
"""

from canasta.engine import american as _american
from canasta.engine import feet as _foot
from canasta.engine import idmelds as _idmelds
from canasta.engine import idturn as _idturn
from canasta.engine import setgame as _setgame
from canasta.engine.actions import Action
from canasta.engine.game import Game

__all__ = ["Action", "Game", "engine_build"]

_FAMILY_MODULES = (_setgame, _american, _foot, _idmelds, _idturn)


def engine_build() -> str:
    """``"compiled"`` where the engine's modules are mypyc's C extensions (setup.py, ``CANASTA_COMPILE=1``),
    else ``"pure Python"``."""
    from canasta.engine import game  # the module object: its file says which build was imported

    return "pure Python" if str(game.__file__).endswith(".py") else "compiled"

