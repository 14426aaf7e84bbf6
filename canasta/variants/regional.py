"""Regional two-deck variants of Classic Canasta: Uruguayan and Cuban.

Both are described in encyclopedia-canasta-and-variants.txt only by their
differences from Classic Canasta, so everything the text does not change is
Classic (docs/variants/uruguayan.md, docs/variants/cuban.md).
"""

from __future__ import annotations

from typing import ClassVar

from canasta.cards import TWO, rank_of
from canasta.variants.base import Option, Variant, with_defaults
from canasta.variants.classic import CLASSIC_OPTIONS, Classic


class Uruguayan(Classic):
    """Encyclopedia 'Uruguayan Canasta': 'regular canasta with two variants: The deck is always
    frozen; Canastas made solely of wild cards are allowed. They are worth 2,000 points'."""

    name: ClassVar[str] = "uruguayan"
    title: ClassVar[str] = "Uruguayan Canasta"
    description: ClassVar[str] = (
        "Classic Canasta as first played in Montevideo: the pile is always frozen, "
        "and canastas of wild cards alone are allowed, worth 2000."
    )
    options: ClassVar[dict[str, Option]] = {
        **with_defaults(CLASSIC_OPTIONS, "Encyclopedia 'Uruguayan Canasta'", always_frozen=True),
        "wild_canastas": Option(
            "wild_canastas", True, "melds made entirely of wild cards are allowed (a wild canasta scores 2000)",
            "Encyclopedia 'Uruguayan Canasta': 'Canastas made solely of wild cards are allowed. They are worth "
            "2,000 points'")}
    WILD_CANASTA: ClassVar[int | None] = 2000


CUBAN_OPTIONS: dict[str, Option] = with_defaults(
    CLASSIC_OPTIONS, "Encyclopedia 'Cuban Canasta'", always_frozen=True, target_score=7500)
CUBAN_OPTIONS["wild_canastas"] = Option(
    "wild_canastas", True, "melds made entirely of wild cards are allowed (a wild canasta scores 2000 with three "
    "deuces, 500 more for each further deuce, 4000 with seven)",
    "Encyclopedia 'Cuban Canasta': 'Wild card canastas are worth between 2,000 and 4,000; depending on the number "
    "of deuces'")
CUBAN_OPTIONS["threes_without_canasta"] = Option(
    "threes_without_canasta", "zero",
    "red threes of a side without a canasta: not scored ('zero', the text's 'scored only if canastas are made') "
    "or scored against it ('negative', as in Classic and Bolivian)",
    "Encyclopedia 'Cuban Canasta': 'Threes are scored only if canastas are made'", ("zero", "negative"))


class Cuban(Classic):
    """Encyclopedia 'Cuban Canasta'."""

    name: ClassVar[str] = "cuban"
    title: ClassVar[str] = "Cuban Canasta"
    description: ClassVar[str] = (
        "A two-deck game to 7500 with an always-frozen pile, wild-card canastas worth 2000 to 4000, "
        "a red-three table that pays only with canastas, and black threes that leave play with the pile."
    )
    options: ClassVar[dict[str, Option]] = CUBAN_OPTIONS
    #: 'Requires 150 for an initial meld if a partnership is over 5,000': over is above, so 150 from 5001 (scores
    #: are whole numbers, in fact multiples of 5), and 5000 itself still needs Classic's 120
    MINIMUM_TABLE: ClassVar[tuple[tuple[int, int], ...]] = ((0, 50), (1500, 90), (3000, 120), (5001, 150))
    WILD_CANASTA: ClassVar[int | None] = 2000
    #: 'they count 100 for one, 300 for two, 500 for three and 1,000 for four'
    RED_THREE_TABLE: ClassVar[tuple[int, ...]] = (0, 100, 300, 500, 1000)
    #: 'Black threes are removed from play if a discard pile is taken; a partnership that removes
    #: all four black threes this way gets 100 points'
    REMOVES_BLACK_THREES_ON_TAKE: ClassVar[bool] = True
    ALL_BLACK_THREES_REMOVED_BONUS: ClassVar[int] = 100

    def wild_canasta_bonus(self, cards: list[int]) -> int:
        """'Wild card canastas are worth between 2,000 and 4,000; depending on the number of deuces'.

        Two packs hold four jokers, so a seven-card wild canasta has 3 to 7 deuces:
        read as 2000 with three deuces and 500 more for each further deuce (4000 with seven).
        """
        deuces = sum(1 for c in cards if rank_of(c) == TWO)
        return min(4000, 2000 + 500 * max(0, deuces - 3))

    def red_three_score(self, count: int, *, all_held: bool, canastas: int, melded: bool) -> int:
        points = self.RED_THREE_TABLE[min(count, len(self.RED_THREE_TABLE) - 1)]
        if canastas:
            return points
        return -points if self.rules["threes_without_canasta"] == "negative" else 0

    def removed_black_threes_bonus(self, count: int) -> int:
        return self.ALL_BLACK_THREES_REMOVED_BONUS if count >= 4 else 0


REGIONAL_VARIANTS: tuple[type[Variant], ...] = (Uruguayan, Cuban)
