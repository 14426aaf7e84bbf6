"""Variant definitions: parameters as data, rule differences as small hooks.

A :class:`Variant` subclass sets class-level tables and declares its named
table-rule :class:`Option` s. An instance is a variant *bound* to a player count
and chosen options; the engine reads its plain attributes on the hot path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar, NotRequired, TypedDict

from canasta.cards import JOKER, TWO, build_deck, rank_of
from canasta.errors import OptionError


@dataclass(frozen=True)
class Option:
    """A named table rule. ``choices`` limits an option to a few values; ``minimum`` and ``maximum`` bound a
    whole-number option (every whole-number option without choices has both, so a value that would break
    the game later, such as a negative hand size, is refused when the game is created); ``source`` cites
    the text."""

    name: str
    default: Any
    help: str
    source: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any) -> Any:
        """Turn a command-line string or JSON value into the option's type."""
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool:
                if text in ("1", "true", "yes", "on"):
                    value = True
                elif text in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise OptionError(f"option {self.name} takes true or false, not {value!r}")
            elif kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise OptionError(f"option {self.name} takes a whole number, not {value!r}") from None
        # bool is a subclass of int: an int option must not accept true/false
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise OptionError(f"option {self.name} takes a {kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(f"option {self.name} must be one of {', '.join(map(repr, self.choices))}, not {value!r}")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise OptionError(f"option {self.name} takes a whole number from {self.minimum} to {self.maximum}, "
                              f"not {value!r}")
        return value


#: The names the texts of shared/rules are cited by (Bicycle's Classic, the Fragment, the Terms page with
#: Modern American, the Encyclopedia, Denexa's pages).
TEXT_NAMES = re.compile(r"\b(Bicycle|Denexa|Encyclopedia|Fragment|Terms)\b")


@lru_cache(maxsize=4096)
def _names_a_text(message: str) -> bool:
    """Whether a refusal's message already names a text (cached: the completeness soak meets the same
    messages hundreds of thousands of times)."""
    return TEXT_NAMES.search(message) is not None


class SideScore(TypedDict):
    """One side's score for a hand, item by item (:func:`canasta.scoring.score_side` makes it; a variant's
    own scoring hooks return it too, which is why it is defined here, below both)."""

    total: int
    items: dict[str, int]
    #: Mille: the naturals of the hand (asterisks on the score sheet).
    naturals: NotRequired[int]
    #: Mille: a negative hand score (a chapeau).
    chapeau: NotRequired[bool]


class Variant:
    """Base of all variants. Subclasses override class attributes and hooks."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    rules_version: ClassVar[int] = 1
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[dict[str, Option]] = {}
    #: Rules of a parent variant that this variant fixes (not options of its own): name -> value.
    fixed_rules: ClassVar[dict[str, Any]] = {}
    #: Hands in a game, where a game is a number of hands rather than a target score (Hand and Foot);
    #: on the base class because the soak, the scorekeeper and the engine read it for every variant.
    hands_per_game: int | None = None
    #: The text a refusal cites, by the refusal's rule (``IllegalActionError.rule``): each variant cites its own
    #: texts of shared/rules (a test checks every refusal met in a soak of each variant). Procedural refusals
    #: ("draw first", "you do not hold those cards") have none.
    RULE_SOURCES: ClassVar[dict[str, str]] = {}

    def rule_source(self, rule: str) -> str:
        """The text (and section or sentence) a refusal under ``rule`` cites in this variant."""
        return self.RULE_SOURCES[rule]

    def cite(self, rule: str, message: str) -> str:
        """``message`` with this variant's text for ``rule`` appended, unless it already names a text (or the
        rule is procedural: no source)."""
        source = self.RULE_SOURCES.get(rule)
        if source is None or _names_a_text(message):
            return message
        return f"{message} ({source})"

    def __init__(self, num_players: int, rules: dict[str, Any] | None = None) -> None:
        if num_players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise OptionError(f"{self.name} is played by {counts} players, not {num_players}")
        self.num_players = num_players
        chosen = dict(rules or {})
        for key, value in list(chosen.items()):
            if key in self.fixed_rules and key not in self.options:
                # a full rules dict (e.g. from an observation) may name them, with the fixed value
                if value != self.fixed_rules[key]:
                    raise OptionError(f"{self.name} fixes the table rule {key!r} at {self.fixed_rules[key]!r}")
                del chosen[key]
        unknown = sorted(set(chosen) - set(self.options))
        if unknown:
            raise OptionError(
                f"{self.name} has no table rule {unknown[0]!r}; known: {', '.join(sorted(self.options))}"
            )
        self.rules: dict[str, Any] = {}
        for key, opt in self.options.items():
            self.rules[key] = opt.coerce(chosen[key]) if key in chosen else self.player_default(key)
        self.bind()

    # -- parameters ---------------------------------------------------------
    def player_default(self, key: str) -> Any:
        """Default of an option, which may depend on the number of players."""
        return self.options[key].default

    def bind(self) -> None:
        """Compute derived attributes from ``self.rules``."""

    def non_default_rules(self) -> dict[str, Any]:
        return {k: v for k, v in self.rules.items() if v != self.player_default(k)}

    def deck(self) -> list[int]:
        raise NotImplementedError

    @property
    def num_sides(self) -> int:
        return 2 if self.num_players == 4 else self.num_players

    def side_of(self, seat: int) -> int:
        return seat % self.num_sides

    def partner_of(self, seat: int) -> int | None:
        """The one seat asked "may I go out?" by ``seat`` (None: nobody to ask)."""
        if self.num_players == 4:
            return (seat + 2) % 4
        return None

    def teammates_of(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side, in turn order from ``seat`` (empty for a player alone).

        With teams of two this is the partner; with teams of three (Hand and Foot's ``team_size``) both
        other players of the side, of whom :meth:`partner_of` is the one asked "may I go out?"."""
        n = self.num_players
        side = self.side_of(seat)
        return tuple(s for s in ((seat + k) % n for k in range(1, n)) if self.side_of(s) == side)

    def settle(self, scores: list[int], hand_results: list[dict[str, Any]],
               winner: int | None) -> dict[str, Any] | None:
        """The end-of-game settlement between the players (Mille's stakes), or None."""
        return None


def with_defaults(options: dict[str, Option], source: str, **defaults: Any) -> dict[str, Option]:
    """A variant's options: a parent's, with some defaults changed (``source`` cites why)."""
    out = dict(options)
    for key, value in defaults.items():
        opt = options[key]
        out[key] = replace(opt, default=value, source=f"{source}; {opt.source}")
    return out


def standard_deck(decks: int, jokers: int, drop_per_rank: int = 0) -> list[int]:
    return build_deck(decks, jokers, drop_per_rank)


def is_wild_code(code: int) -> bool:
    return code == JOKER or rank_of(code) == TWO
