"""canasta: one rules engine for the Canasta family of card games."""

from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import CanastaError, IllegalActionError, NotationError
from canasta.variants import find_variant

__version__ = "0.1.0"

__all__ = ["Action", "CanastaError", "Game", "IllegalActionError", "NotationError", "__version__", "find_variant"]
