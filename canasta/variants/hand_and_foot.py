"""Hand and Foot: Canasta with five packs, a second hand (the foot) per player, and books.

Sources (``shared/rules``): triple-play-samba-burraco-mille-hand-and-foot-classic.txt,
section "Hand and Foot" ("Denexa": the defaults), and encyclopedia-canasta-and-variants.txt,
section "Hand and Foot" with its "Variations" list ("Encyclopedia": table-rule options).

Hand and Foot is built on the Classic engine. The Classic table rules the engine reads
are *fixed* to Hand and Foot's values (:data:`FIXED_RULES`); the engine switches on the
generic mechanisms of ``canasta.engine.feet`` with ``FEET``: a face-down foot per seat
picked up when the hand is played out, melds that close into books at seven cards (a new
meld of that rank may then begin), the pile taken seven cards at a time, going out with
required books, minimums by round, and a fixed number of hands per game.
docs/variants/hand-and-foot.md lists every rule with its sentence, and what is not implemented.
"""

from __future__ import annotations

from typing import Any, ClassVar

from canasta.cards import JOKER, rank_of
from canasta.errors import OptionError
from canasta.variants.base import Option, standard_deck
from canasta.variants.classic import Classic

SOURCE = "Denexa 'Hand and Foot'"

#: Classic table rules with the value Hand and Foot gives them; they are not options of Hand and Foot.
FIXED_RULES: dict[str, Any] = {
    "draw_count": 2,                  # 'draw either the top two cards of one of the stock piles'
    "canastas_to_go_out": 0,          # replaced by the books of the going-out rule
    "natural_canastas_to_go_out": 0,
    "wild_limit": "three",            # unused: wild_capacity is the 1-in-3..5, 2-in-6..7 rule
    "black_three_freezes": False,     # no frozen pile in Hand and Foot
    "black_three_upcard_covered": False,  # 'If the upcard is a joker, 2, or red 3' only
    "always_frozen": False,
    "frozen_pile_add_to_meld": False,
    "negative_minimum": 50,           # unused: minimums go by round
    "fifty_below_1500": False,
    "retract_raises_minimum": 0,      # the text has no rule for an insufficient opening: taken back, no penalty
    "concealed_rule": "player",
    "concealed_bonus": 0,             # no concealed bonus in the text
    "seven_canastas_win": False,
    "wild_canastas": True,            # 'A player can also make a meld that consists of all wild cards.'
    "jokers": 4,                      # unused: deck() counts the packs' jokers
    "seven_of_each": False,
    "stock_reshuffle": False,         # 'the game simply continues without a stock'
    "stock_out": "optional",          # '... until a player ... is unable or unwilling to draw from the discard pile'
    "red_three_last_card": "meld_then_end",  # 'does any melding possible, after which play ceases'
    "only_top_card_usable": False,
    "target_score": 10**9,            # unused: the game is four hands
}

HAND_AND_FOOT_OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("decks", 0, "standard packs (each with two jokers) in the shoe; 0 means one more than the number of players "
           "(5 for four players)",
           "Denexa: 'a 270-card deck consisting of five standard 52-card decks plus jokers'; Encyclopedia: 'The number "
           "of decks used is typically one more than the number of players, though this can vary'"),
    Option("hand_size", 11, "cards in each player's hand",
           "Denexa: 'deals two piles of eleven cards'; Encyclopedia: 'dealt as 11 cards each, or sometimes as 13'",
           (11, 13)),
    Option("foot_size", 11, "cards in each player's foot",
           "Denexa: 'two piles of eleven cards'; Encyclopedia: 'a hand of 11 and a second hand of 13' / "
           "'11 cards each, or sometimes as 13 cards each'", (11, 13)),
    Option("clean_books", 2, "clean (natural) piles a side needs to go out",
           "Denexa 'Going out': 'two clean piles, two dirty piles, and one wild pile'; Encyclopedia: "
           "'Usually the requirement to go out is 2 clean and 1 dirty'"),
    Option("dirty_books", 2, "dirty (mixed) piles a side needs to go out", "Denexa 'Going out' (as clean_books)"),
    Option("wild_books", 1, "piles of wild cards a side needs to go out", "Denexa 'Going out' (as clean_books)"),
    Option("partner_in_foot", True, "going out needs both partners to have played from their foot",
           "Denexa: 'both players must have played at least part of one turn with their foot piles'; Encyclopedia: "
           "'others allow you to go out even if your partner is still in their hand'"),
    Option("permission", "required", "asking 'May I go out?' before going out: 'required' (Denexa), 'optional' "
           "(as in Classic Canasta) or 'none' (asking is not allowed)",
           "Denexa: 'the player wishing to go out must have received permission'; Encyclopedia: 'some versions require "
           "asking ..., while other versions specifically disallow asking, and still others give you the option'",
           ("required", "optional", "none")),
    Option("eights_five", False, "eights are worth 5 points instead of 10",
           "Encyclopedia: 'In some versions, eights are worth only 5 points'"),
    Option("black_three_value", 5, "points of a black three (only ever counted against a side)",
           "Denexa 'Black 3s: Cannot be melded. 5 points'; Encyclopedia: 'Black threes do not count any points'",
           (0, 5)),
    Option("red_three_value", 100, "points of each red three laid out (and against a side for one left in an "
           "unplayed foot)", "Denexa 'Red 3s ... 100 points'; Encyclopedia: 'Red threes may also vary in point value, "
           "although 500 or 100 are most common'", (100, 300, 500)),
    Option("going_out_bonus", 100, "bonus for going out", "Denexa 'Going out: 100 points'"),
    Option("failed_go_out_penalty", 100, "penalty when a player told 'yes' to 'may I go out?' does not go out",
           "Denexa 'Penalties': 'Not being able to go out after having asked \"May I go out?\": -100 points'"),
    Option("hands_per_game", 4, "hands in a game (the minimum of the fourth applies to any later hand)",
           "Denexa: 'The game ends after four hands have been played.'"),
]}


class HandAndFoot(Classic):
    name: ClassVar[str] = "hand-and-foot"
    title: ClassVar[str] = "Hand and Foot"
    description: ClassVar[str] = (
        "North America's family canasta: five packs, an 11-card hand and an 11-card foot each, two-card draws, "
        "piles that close at seven, and two clean, two dirty and one wild pile to go out; four hands a game."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    options: ClassVar[dict[str, Option]] = HAND_AND_FOOT_OPTIONS
    fixed_rules: ClassVar[dict[str, Any]] = FIXED_RULES

    # -- engine mechanisms switched on (canasta.engine.feet) -----------------------
    FEET: ClassVar[bool] = True
    #: 'A pile cannot contain more than seven cards; once a pile has been completed, a new meld of the
    #: same rank can be established.'
    MELD_MAX: ClassVar[int | None] = 7
    #: 'the top seven cards of the discard pile (or the whole pile if it contains less than seven cards)'
    PILE_TAKE: ClassVar[int] = 7
    #: 'Black 3s: Cannot be melded.'
    BLACK_THREES_MELD: ClassVar[bool] = False
    WILD_MELD_MAX: ClassVar[int] = 7
    #: 'First round: 50 points ... Fourth round: 150 points'
    ROUND_MINIMUMS: ClassVar[tuple[int, ...]] = (50, 90, 120, 150)
    #: 'Wild piles: 1500 points each. Clean piles: 500 points each. Dirty piles: 300 points each.'
    WILD_CANASTA: ClassVar[int | None] = 1500
    NATURAL_CANASTA: ClassVar[int] = 500
    MIXED_CANASTA: ClassVar[int] = 300

    def player_default(self, key: str) -> Any:
        if key in self.fixed_rules:
            return self.fixed_rules[key]
        return self.options[key].default

    def bind(self) -> None:
        self.rules.update(self.fixed_rules)
        super().bind()
        r = self.rules
        self.decks: int = r["decks"] or self.num_players + 1
        self.foot_size: int = r["foot_size"]
        self.clean_books: int = r["clean_books"]
        self.dirty_books: int = r["dirty_books"]
        self.wild_books: int = r["wild_books"]
        self.partner_in_foot: bool = r["partner_in_foot"]
        self.permission: str = r["permission"]
        self.hands_per_game = r["hands_per_game"]
        if self.hands_per_game < 1:
            raise OptionError("hands_per_game must be at least 1")
        if min(self.clean_books, self.dirty_books, self.wild_books) < 0:
            raise OptionError("the books needed to go out cannot be negative")
        values = list(self.values)
        for code in range(8, 60):
            rank = rank_of(code)
            if rank == 8 and r["eights_five"]:
                values[code] = 5
            elif rank == 3:
                values[code] = r["red_three_value"] if code in (13, 14) else r["black_three_value"]
        self.values = values
        if not 2 <= self.decks <= 8:
            raise OptionError("decks must be 2 to 8")
        if self.num_players * (self.hand_size + self.foot_size) + 20 > len(self.deck()):
            raise OptionError("those hands and feet leave too few cards for a stock")

    def deck(self) -> list[int]:
        """Denexa: 'five standard 52-card decks plus jokers' (270 cards: two jokers a pack)."""
        decks = self.rules["decks"] or self.num_players + 1
        return standard_deck(decks, 2 * decks)

    def describe_rules(self) -> dict[str, Any]:
        return {k: v for k, v in self.rules.items() if k in self.options}

    # -- hooks -------------------------------------------------------------------
    def round_minimum(self, hand_no: int) -> int:
        """The opening-meld minimum of hand ``hand_no`` (1-based): 50, 90, 120, 150."""
        table = self.ROUND_MINIMUMS
        return table[min(max(hand_no, 1), len(table)) - 1]

    def wild_capacity(self, naturals: int, wilds: int, is_canasta: bool) -> int:
        """'no more than one wild card in a meld of three, four, or five cards and no more than two in a
        meld of six or seven': how many more wild cards a meld with these counts may take."""
        return max(0, self.max_wilds(naturals) - wilds)

    @staticmethod
    def max_wilds(naturals: int) -> int:
        """The most wild cards a meld with ``naturals`` natural cards may hold (seven cards at most)."""
        best = 0
        for w in range(0, 3):
            size = naturals + w
            if size <= 7 and w <= (1 if size <= 5 else 2):
                best = w
        return best

    def upcard_must_be_covered(self, code: int) -> bool:
        """'If the upcard is a joker, 2, or red 3, discard it face-down into one of the stocks'."""
        return code == JOKER or rank_of(code) == 2 or code in (13, 14)

    def upcard_freezes(self, code: int) -> bool:
        return False

    def blocks_pile(self, code: int) -> bool:
        """'a player may never draw from the discard pile if the upcard is a black 3'."""
        return code in (12, 15)

    def red_three_score(self, count: int, *, all_held: bool, canastas: int, melded: bool) -> int:
        """'Red threes: 100 points each' (the table rule red_three_value)."""
        return int(self.rules["red_three_value"]) * count

    def book_kind(self, rank: int, wilds: int) -> str:
        """'clean' | 'dirty' | 'wild' of a completed pile (rank 1 is the meld of wild cards)."""
        if rank == 1:
            return "wild"
        return "dirty" if wilds else "clean"

    def meld_problem(self, cards: list[int]) -> str | None:
        if len(cards) > 7:
            return "a pile cannot contain more than seven cards"
        wild = [c for c in cards if c == JOKER or rank_of(c) == 2]
        nat = [c for c in cards if c not in wild]
        if nat and all(rank_of(c) == 3 for c in nat) and any(c in (12, 15) for c in nat):
            return "black 3s cannot be melded"
        if nat and len({rank_of(c) for c in nat}) == 1 and rank_of(nat[0]) != 3:
            if len(cards) < 3:
                return "a meld needs at least three cards"
            if len(nat) < 2:
                return "a meld must contain at least two natural cards"
            if len(wild) > self.max_wilds(len(nat)):
                return "no more than one wild card in a meld of three to five cards, two in a meld of six or seven"
            return None
        return super().meld_problem(cards)

