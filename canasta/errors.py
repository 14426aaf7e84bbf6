"""Typed errors. Every refusal names the rule it enforces; the game is left unchanged."""

from __future__ import annotations


class CanastaError(Exception):
    """Base class of every error the package raises on bad input."""


class NotationError(CanastaError, ValueError):
    """Text that is not a valid card, action or record."""


class IllegalActionError(CanastaError):
    """A well-formed action the rules do not allow now.

    ``rule`` is a short stable identifier (e.g. ``"pile-frozen"``) that tests and
    clients can match on; the message explains it in words.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"


class UnknownVariantError(CanastaError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown variant"


class OptionError(CanastaError, ValueError):
    """A table-rule option that does not exist or has a bad value."""


class ScoreInputError(CanastaError, ValueError):
    """Input to the scorekeeper that does not describe a possible end of hand."""


class SchemaError(CanastaError, ValueError):
    """A saved position that cannot be loaded."""


class InconsistentPositionError(SchemaError):
    """A saved position whose fields contradict each other (cards that a retract would create or lose, a phase
    the current player's state does not allow). ``field`` names the field found inconsistent."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
