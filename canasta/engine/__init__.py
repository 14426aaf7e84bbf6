"""The pure rules engine."""

from canasta.engine.actions import Action
from canasta.engine.game import Game

__all__ = ["Action", "Game"]
