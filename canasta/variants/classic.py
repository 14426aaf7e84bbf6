"""Classic Canasta for 4 (partnerships), 3 and 2 players.

Sources (``shared/rules``): classic-canasta-bicycle.txt ("Bicycle"),
triple-play-...-classic.txt sections "Canasta" and "Canasta for two players"
("Denexa"), encyclopedia-canasta-and-variants.txt ("Encyclopedia"),
classic-play-going-out-scoring-fragment.txt ("Fragment") and
classic-terms-and-modern-american.txt ("Terms"). Where they disagree the default
is documented in docs/variants/classic.md and the other reading is an option.
"""

from __future__ import annotations

from typing import Any, ClassVar

from canasta.cards import JOKER, NUM_CODES, THREE, TWO, is_red_three, rank_of
from canasta.errors import OptionError
from canasta.variants.base import Option, SideScore, Variant, standard_deck

CLASSIC_OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("hand_size", 0, "cards dealt to each player; 0 means by player count (11 for 4, 13 for 3, 15 for 2)",
      "Encyclopedia: 'A number of cards other than 11 may be dealt ... 13 and 15 being common choices'", minimum=0, maximum=15),
    Option("draw_count", 0, "cards drawn from the stock each turn; 0 means by player count (2 for 2 players, else 1)",
      "Denexa 'Canasta for two players'; Encyclopedia: 'draw two cards rather than one each turn'", minimum=0, maximum=3),
    Option("canastas_to_go_out", 0, "canastas a side needs to go out; 0 means by player count (2 for 2 players, else 1)",
      "Bicycle 'at least one canasta to go out'; Encyclopedia 'Require that two canastas be played in order to go out'", minimum=0, maximum=5),
    Option("natural_canastas_to_go_out", 0, "how many of the canastas needed to go out must be natural",
      "Encyclopedia: 'Variation on the above: Require one or both to be natural canastas'", (0, 1, 2)),
    Option("wild_limit", "three", "wild cards allowed in a meld that is not yet a canasta: at most three ('three'), "
      "or also never more wild than natural ('not_more_than_naturals')",
      "Bicycle/Denexa 'not more than three wild cards'; Encyclopedia 'never have more wild cards than natural cards'",
      ("three", "not_more_than_naturals")),
    Option("black_three_freezes", False, "a black three in the pile freezes it (Bicycle) instead of only blocking the next player",
      "Bicycle 'frozen any time it contains ... a black three'; Denexa/Fragment: blocks only while on top"),
    Option("black_three_upcard_covered", True, "a black three turned as the first upcard is covered like a red three or wild card",
      "Bicycle/Encyclopedia cover any three; Denexa covers only jokers, 2s and red 3s"),
    Option("always_frozen", False, "the pile is always frozen: taken only with a natural pair (Uruguayan rummy)",
      "Encyclopedia: 'require that a natural pair be played ... (i.e., the pile is always frozen)'"),
    Option("frozen_pile_add_to_meld", False, "a frozen pile may also be taken by adding the top card to an existing meld",
      "Bicycle allows only a natural pair when frozen; some tables allow the meld addition"),
    Option("negative_minimum", 15, "initial meld minimum when the side's score is negative",
      "Bicycle 'Minus Score 0'; Encyclopedia/Denexa 'Negative 15' (no meld is below 15, so they agree in play)", (0, 15, 50)),
    Option("fifty_below_1500", False, "every side below 1500 (negative included) needs 50",
      "Encyclopedia: 'Require that all players with less than 1,500 points meld 50, even with a negative score'"),
    Option("retract_raises_minimum", 10, "points added to the side's minimum for the deal when an insufficient initial meld is retracted",
      "Bicycle: 'may also retract all cards in the meld ... penalized ... by an increase of ten points in the minimum count'", minimum=0, maximum=200),
    Option("concealed_rule", "player", "going out concealed needs no earlier meld by the player ('player', Bicycle) or by the side ('side')",
      "Bicycle 'must not have made a prior meld ... not added to a partner's melds'; Denexa/Encyclopedia 'without the partnership having previously melded'",
      ("player", "side")),
    Option("concealed_bonus", 100, "extra bonus for going out concealed, on top of going out",
      "Bicycle 'an extra 100'; Encyclopedia suggests 250 or 500 when two canastas are needed", minimum=0, maximum=1000),
    Option("going_out_bonus", 100, "bonus for going out", "Bicycle 'For going out 100'", minimum=0, maximum=1000),
    Option("seven_canastas_win", False, "a side that melds 7 canastas in one hand gains 5000 and wins",
      "Encyclopedia: 'any player/team that manages to meld 7 canastas in one hand ... automatically gain 5000 points'"),
    Option("wild_canastas", False, "melds made entirely of wild cards are allowed (a wild canasta scores as natural, 500)",
      "Encyclopedia: 'Allowing canastas made entirely of wild cards'"),
    Option("jokers", 4, "jokers in the pack", "Encyclopedia: 'Play with a modified deck, such as six, two, or zero jokers'", (0, 2, 4, 6)),
    Option("seven_of_each", False, "only 7 of each meldable rank (4 to ace) in the pack",
      "Encyclopedia: 'or only 7 of each meldable card'"),
    Option("stock_reshuffle", False, "when the stock runs out, the discard pile is turned over as a new stock",
      "Encyclopedia: 'consider flipping over the discard pile and turning it into a new stock'"),
    Option("stock_out", "forced_if_matches", "when the stock is empty: a player must take a discard that matches a side meld "
      "and may take otherwise ('forced_if_matches'); may take but is never forced ('optional'); the hand ends at once "
      "('end'); or a player must take the pile whenever a take is legal, the hand ending when one cannot ('compulsory', Denexa)",
      "Bicycle 'must take and meld the card discarded ... or chooses not to'; Encyclopedia 'the hand ends immediately'; "
      "Denexa 'play continues with players taking the discard pile, melding if able, and discarding, until a player goes "
      "out as normal, or is unable to take the discard pile'",
      ("forced_if_matches", "optional", "end", "compulsory")),
    Option("unmelded_pile_frozen", True, "the pile is frozen for a side that has not melded: it takes the pile only with a "
      "natural pair (Fragment); false: only a wild card or red three (or a black three, black_three_freezes) freezes it "
      "(Bicycle, Denexa, the Encyclopedia)",
      "Fragment: 'If your team has not yet melded any cards onto the table, or if the top card is a wild card or a black "
      "three, the discard pile is frozen'"),
    Option("initial_meld_from_hand", False, "the initial meld's minimum counts only cards from the hand, never the pile's "
      "top card (Terms); false: the top card taken counts (Bicycle)",
      "Terms: 'In our game (including Modern American), the initial meld must be made entirely from your hand'; "
      "Bicycle: 'A partnership may use the top card of the discard to form the first meld'"),
    Option("red_three_last_card", "end", "last card of the stock a red three: play ends at once ('end', Fragment) "
      "or the player may still meld but not discard ('meld_then_end', Denexa)",
      "Fragment 'Play immediately ends if the last card drawn ... is a red three'; Denexa 'does any melding possible, after which play ceases'",
      ("end", "meld_then_end")),
    Option("only_top_card_usable", False, "cards taken with the pile (other than the top card) cannot be melded in that turn",
      "Encyclopedia: 'only the top card can be used in this turn'"),
    Option("target_score", 5000, "score that ends the game (the final deal is played out)", "Bicycle 'Game score is 5,000'", minimum=1, maximum=1000000),
    Option("failed_go_out_penalty", 100, "penalty when a player told 'yes' to 'may I go out?' does not go out",
      "Denexa: 'Not being able to go out after having asked \"May I go out?\": -100 points'", minimum=0, maximum=1000),
]}


class Classic(Variant):
    name: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic Canasta"
    description: ClassVar[str] = (
        "The 1950s standard game: two packs and four jokers, melds of one rank, "
        "red threes as bonuses, a frozen discard pile, and 5000 to win."
    )
    #: 4 in two partnerships, 3 and 2 alone (Bicycle, Denexa); 6 in two partnerships of three (Encyclopedia 'The
    #: cards and deal': 'also for a six player game in two partnerships of three'), seats alternating.
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 6)
    options: ClassVar[dict[str, Option]] = CLASSIC_OPTIONS

    #: Card point values (Bicycle 'Point Value of Cards').
    RANK_VALUES: ClassVar[dict[int, int]] = {
        2: 20, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 10, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10, 14: 20,
    }
    JOKER_VALUE: ClassVar[int] = 50
    RED_THREE_BONUS: ClassVar[int] = 100
    #: Bicycle: 'Failure to declare receipt of a red three ... results in a 500 point penalty' (real cards only).
    UNDECLARED_RED_THREE_PENALTY: ClassVar[int] = 500
    ALL_RED_THREES_BONUS: ClassVar[int] = 200  # each, when one side holds all four
    NATURAL_CANASTA: ClassVar[int] = 500
    MIXED_CANASTA: ClassVar[int] = 300
    #: (lowest cumulative score, minimum) in ascending order (Bicycle table).
    MINIMUM_TABLE: ClassVar[tuple[tuple[int, int], ...]] = ((0, 50), (1500, 90), (3000, 120))
    #: Bonus of a canasta made only of wild cards; None: it scores as a natural canasta.
    WILD_CANASTA: ClassVar[int | None] = None
    #: Cuban: black threes in a taken pile leave play instead of going to the hand.
    REMOVES_BLACK_THREES_ON_TAKE: ClassVar[bool] = False
    MAX_WILDS: ClassVar[int] = 3
    MIN_NATURALS: ClassVar[int] = 2
    CANASTA_SIZE: ClassVar[int] = 7
    #: The variant has canastas (Mille has none: its melds are only sets of a rank).
    HAS_CANASTAS: ClassVar[bool] = True
    #: Threes are an ordinary meldable rank (no red-three bonus, no black-three block) - Mille.
    THREES_ORDINARY: ClassVar[bool] = False
    #: A meld of a rank the side already has joins that meld instead of being refused - Mille
    #: ('All cards of the same rank that are laid down by a player are considered to form one meld').
    MELDS_JOIN: ClassVar[bool] = False
    #: Most cards in a meld made only of wild cards (where the table rules allow one).
    WILD_MELD_MAX: ClassVar[int] = 7
    #: Restocking from the pile (table rule ``stock_reshuffle``): the top card stays as the new
    #: pile ('the upcard is set aside', Mille) or the whole pile is turned over; how often per hand
    #: (None: every time the stock runs out).
    RESTOCK_KEEPS_UPCARD: ClassVar[bool] = False
    RESTOCK_LIMIT: ClassVar[int | None] = 1
    #: Why a player may not take the pile with a wild card, if the variant words it its own way.
    FROZEN_PILE_TEXT: ClassVar[str | None] = None
    #: No upcard: the discard pile starts empty (Modern American).
    NO_UPCARD: ClassVar[bool] = False
    #: A player may ask 'may I go out?' (where there is a partner).
    ASK_PERMISSION: ClassVar[bool] = True
    #: The variant scores a side itself from melds, laid-out threes and hands (``score_table``).
    SCORES_TABLE: ClassVar[bool] = False
    #: Black threes may be melded when going out (Hand and Foot: never).
    BLACK_THREES_MELD: ClassVar[bool] = True
    #: Most cards in a meld (None: no limit); Hand and Foot's piles close at seven.
    MELD_MAX: ClassVar[int | None] = None
    #: Ranks whose melds never take a wild card (Triple Play: 5s and 7s).
    NO_WILD_RANKS: ClassVar[tuple[int, ...]] = ()
    #: A covered upcard is buried in the middle of the stock (Triple Play), not at the bottom (Hand and Foot).
    UPCARD_BURIED_MIDDLE: ClassVar[bool] = False
    #: The text a refusal of the engine's shared rules cites (Variant.RULE_SOURCES).
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        "meld-rank": "Bicycle 'Melds'",
        "meld-size": "Bicycle 'Melds'",
        "meld-naturals": "Bicycle 'Melds'",
        "take": "Bicycle 'Taking the Pile'",
        "wild-meld": "Bicycle 'Melds'",
        "wild-limit": "Bicycle 'Melds'",
        "minimum-count": "Bicycle 'Insufficient Melds'",
    }

    @property
    def num_sides(self) -> int:
        """Two partnerships with 4 or 6 players (seats 0, 2, 4 against 1, 3, 5); 2 or 3 play alone."""
        return 2 if self.num_players in (4, 6) else self.num_players

    def partner_of(self, seat: int) -> int | None:
        """Six players: the texts ask 'partner' (Bicycle: 'ask permission of partner'), so in a partnership of
        three the question goes to one partner, the next teammate in turn order (seat + 2), whose answer binds."""
        if self.num_players == 6:
            return (seat + 2) % 6
        return super().partner_of(seat)

    def player_default(self, key: str) -> Any:
        n = self.num_players
        if key == "hand_size":
            # no text gives the deal of six: Bicycle's eleven of four players (66 cards of 108 dealt)
            return {6: 11, 4: 11, 3: 13, 2: 15}[n]
        if key == "draw_count":
            return 2 if n == 2 else 1
        if key == "canastas_to_go_out":
            return 2 if n == 2 else 1
        return super().player_default(key)

    def bind(self) -> None:
        r = self.rules
        for key in ("hand_size", "draw_count", "canastas_to_go_out"):
            if r[key] <= 0:
                r[key] = self.player_default(key)
        self.hand_size: int = r["hand_size"]
        self.draw_count: int = r["draw_count"]
        self.canastas_to_go_out: int = r["canastas_to_go_out"]
        self.natural_canastas_to_go_out: int = min(r["natural_canastas_to_go_out"], self.canastas_to_go_out)
        self.wilds_not_more_than_naturals: bool = r["wild_limit"] == "not_more_than_naturals"
        self.black_three_freezes: bool = r["black_three_freezes"]
        self.always_frozen: bool = r["always_frozen"]
        self.frozen_pile_add_to_meld: bool = r["frozen_pile_add_to_meld"]
        self.wild_canastas: bool = r["wild_canastas"]
        self.target_score: int = r["target_score"]
        self.restock_limit: int | None = self.RESTOCK_LIMIT
        values = [0] * NUM_CODES
        for code in range(8, 60):
            rank = rank_of(code)
            values[code] = self.RED_THREE_BONUS if is_red_three(code) else self.RANK_VALUES[rank]
        values[JOKER] = self.JOKER_VALUE
        self.values: list[int] = values
        if self.num_players * self.hand_size + 20 > len(self.deck()):
            raise OptionError(f"{self.num_players} hands of {self.hand_size} cards leave too few cards for a stock")

    def deck(self) -> list[int]:
        return standard_deck(2, self.rules["jokers"], 1 if self.rules["seven_of_each"] else 0)

    # -- hooks -----------------------------------------------------------------
    def minimum(self, score: int) -> int:
        """Initial meld minimum for a side with this cumulative score."""
        if score < 0:
            return 50 if self.rules["fifty_below_1500"] else self.rules["negative_minimum"]
        need = 0
        for floor, value in self.MINIMUM_TABLE:
            if score >= floor:
                need = value
        return need

    def wild_capacity(self, naturals: int, wilds: int, is_canasta: bool) -> int:
        """How many more wild cards a set meld with these counts may take."""
        if is_canasta:
            # Bicycle: wilds may be added to a completed canasta over the limit of three;
            # the Encyclopedia's 'never more wild cards than natural cards' still holds.
            return max(0, naturals - wilds) if self.wilds_not_more_than_naturals else 99
        cap = self.MAX_WILDS
        if self.wilds_not_more_than_naturals:
            cap = min(cap, naturals)
        return max(0, cap - wilds)

    def red_three_meld_text(self) -> str:
        """Why red threes cannot be melded, in this variant's words."""
        return "red threes are laid out, never melded (Bicycle 'Red Threes')"

    def wild_limit_text(self) -> str:
        """Why a meld may not take another wild card, citing this variant's text."""
        if self.wilds_not_more_than_naturals:
            return "a meld may never have more wild cards than natural cards, nor more than three (Encyclopedia)"
        return f"a meld may hold at most three wild cards until it is a canasta ({self.rule_source('wild-limit')})"

    def upcard_must_be_covered(self, code: int) -> bool:
        rank = rank_of(code)
        if code == JOKER or rank == TWO:
            return True
        if rank == THREE:
            return is_red_three(code) or self.rules["black_three_upcard_covered"]
        return False

    def blocks_pile(self, code: int) -> bool:
        """Bicycle: 'When the discard pile is topped by a wild card or a black three' it cannot be
        taken; a red three on top is the turned upcard covered by the next card."""
        return code == JOKER or rank_of(code) in (TWO, THREE)

    def min_naturals(self) -> int:
        """Natural cards a new meld needs (Bicycle 'at least two natural cards')."""
        return self.MIN_NATURALS

    def score_hand(self, melds: list[tuple[int, list[int]]], hands: list[list[int]],
                   went_out: bool) -> SideScore | None:
        """A variant's own hand score, or None for the table-driven Canasta scoring."""
        return None

    def score_table(self, melds: list[tuple[int, list[int]]], threes: list[int], hands: list[list[int]],
                    went_out: bool) -> SideScore:
        """A variant's whole side score from its table (``SCORES_TABLE``; Modern American)."""
        raise NotImplementedError

    def upcard_freezes(self, code: int) -> bool:
        rank = rank_of(code)
        if code == JOKER or rank == TWO or is_red_three(code):
            return True
        return rank == THREE and self.black_three_freezes

    def canasta_kind(self, cards: list[int]) -> tuple[str, int]:
        """("natural" | "mixed" | "wild", bonus) of a completed canasta."""
        wild = sum(1 for c in cards if c == JOKER or rank_of(c) == TWO)
        if wild == len(cards):
            if self.WILD_CANASTA is None:
                return "natural", self.NATURAL_CANASTA  # the Encyclopedia option gives no value: as natural
            return "wild", self.wild_canasta_bonus(cards)
        if wild:
            return "mixed", self.MIXED_CANASTA
        return "natural", self.NATURAL_CANASTA

    def wild_canasta_bonus(self, cards: list[int]) -> int:
        return self.WILD_CANASTA or 0

    def red_three_score(self, count: int, *, all_held: bool, canastas: int, melded: bool) -> int:
        """Bicycle: 100 each, 200 each when one side holds all four; subtracted if the side made no meld."""
        total = (self.ALL_RED_THREES_BONUS if all_held else self.RED_THREE_BONUS) * count
        return total if melded else -total

    def removed_black_threes_bonus(self, count: int) -> int:
        return 0

    def meld_problem(self, cards: list[int]) -> str | None:
        """Why these cards cannot be one finished meld on the table, or None.

        Used to check melds described from outside the engine (the scorekeeper).
        A meld is valid if some order of legal melds and additions builds it:
        Bicycle 'at least two natural cards and not more than three wild cards',
        with wild cards over the limit only once it is a completed canasta.
        """
        wild = [c for c in cards if c == JOKER or rank_of(c) == TWO]
        nat = [c for c in cards if c not in wild]
        if not nat:
            if self.wild_canastas and 3 <= len(cards) <= 7:
                return None
            return "wild cards may never be melded without natural cards"
        ranks = {rank_of(c) for c in nat}
        if len(ranks) > 1:
            return "a meld is cards of one rank (plus wild cards)"
        rank = ranks.pop()
        if rank == THREE:
            if any(is_red_three(c) for c in nat):
                return "red threes are laid out, never melded"
            if wild or not 3 <= len(nat) <= 4:
                return "black threes meld only as three or four black threes without wild cards"
            return None
        if len(cards) < 3:
            return "a meld needs at least three cards"
        if len(nat) < self.MIN_NATURALS:
            return "a meld must contain at least two natural cards"
        cap = self.wild_capacity(len(nat), 0, False)
        if len(wild) <= cap:
            return None
        # Extra wild cards only after it became a canasta: naturals + allowed wilds must reach seven.
        if len(nat) + cap >= self.CANASTA_SIZE and self.wild_capacity(len(nat), cap, True) >= len(wild) - cap:
            return None
        return "too many wild cards for that meld"
