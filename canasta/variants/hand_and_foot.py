"""Hand and Foot: Canasta with five packs, a second hand (the foot) per player, and books.

Sources (``shared/rules``): triple-play-samba-burraco-mille-hand-and-foot-classic.txt,
section "Hand and Foot" ("Denexa": the defaults), and encyclopedia-canasta-and-variants.txt,
section "Hand and Foot" with its "Variations" list ("Encyclopedia": table-rule options).

Hand and Foot is built on the Classic engine. The Classic table rules the engine reads
are *fixed* to Hand and Foot's values (:data:`FIXED_RULES`); ``FEET`` makes the engine play it
with the rule family ``canasta.engine.feet.FootGame``: a face-down foot per seat
picked up when the hand is played out, melds that close into books at seven cards (a new
meld of that rank may then begin), the pile taken seven cards at a time, going out with
required books, minimums by round, and a fixed number of hands per game.
docs/variants/hand-and-foot.md lists every rule with its sentence, and what is not implemented.

Teams of three (table rule ``team_size`` 3, 6 players only): two sides, seat mod 2 (0-2-4 against
1-3-5). Neither text has them; the engine reads the rules for two with "partners" for "partner":
"May I go out?" is asked of one partner, the next teammate in turn order (seat + 2, :meth:`partner_of`),
whose answer binds the side; ``partner_in_foot`` needs every teammate in the foot (Encyclopedia: 'A team
may not go out until each member has played one card from the second hand'; the engine reads the side
from ``teammates_of``); ``partner_in_hand_penalty`` is paid for each teammate still in the hand.
"""

from __future__ import annotations

from typing import Any, ClassVar

from canasta.cards import JOKER, rank_of
from canasta.errors import OptionError
from canasta.variants.base import Option, standard_deck, with_defaults
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
    # The text has no rule for an insufficient opening: it is taken back with Bicycle's penalty (the side's
    # minimum rises by 10 for the hand), which also keeps a player from melding and retracting for ever.
    "retract_raises_minimum": 10,
    "concealed_rule": "player",
    "concealed_bonus": 0,             # no concealed bonus in the text
    "seven_canastas_win": False,
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
           "of decks used is typically one more than the number of players, though this can vary'", minimum=0, maximum=10),
    Option("hand_size", 11, "cards in each player's hand",
           "Denexa: 'deals two piles of eleven cards'; Encyclopedia: 'dealt as 11 cards each, or sometimes as 13'",
           (11, 13)),
    Option("foot_size", 11, "cards in each player's foot",
           "Denexa: 'two piles of eleven cards'; Encyclopedia: 'a hand of 11 and a second hand of 13' / "
           "'11 cards each, or sometimes as 13 cards each'", (11, 13)),
    Option("clean_books", 2, "clean (natural, 'red') piles a side needs to go out (default 1 with 2 or 3 players "
           "alone)",
           "Denexa 'Going out': 'two clean piles, two dirty piles, and one wild pile'; Encyclopedia: "
           "'Usually the requirement to go out is 2 clean and 1 dirty' and 'When playing a singles game (that is, "
           "without partners), the requirement is one red canasta and one black canasta'", minimum=0, maximum=5),
    Option("dirty_books", 2, "dirty (mixed, 'black') piles a side needs to go out (default 1 with 2 or 3 players "
           "alone)", "Denexa 'Going out' (as clean_books)", minimum=0, maximum=5),
    Option("wild_books", 1, "piles of wild cards a side needs to go out (default 0 with 2 or 3 players alone)",
           "Denexa 'Going out' (as clean_books)", minimum=0, maximum=3),
    Option("partner_in_foot", True, "going out needs both partners to have played from their foot",
           "Denexa: 'both players must have played at least part of one turn with their foot piles'; Encyclopedia: "
           "'others allow you to go out even if your partner is still in their hand'"),
    Option("partner_in_hand_penalty", 0, "penalty for going out while the partner is still in the hand "
           "(with partner_in_foot false)", "Encyclopedia: 'others allow you to go out even if your partner is still "
           "in their hand (though points in their foot still count against you, possibly with an additional 100 "
           "point penalty)'", (0, 100)),
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
    Option("going_out_bonus", 100, "bonus for going out", "Denexa 'Going out: 100 points'", minimum=0, maximum=1000),
    Option("failed_go_out_penalty", 100, "penalty when a player told 'yes' to 'may I go out?' does not go out",
           "Denexa 'Penalties': 'Not being able to go out after having asked \"May I go out?\": -100 points'", minimum=0, maximum=1000),
    Option("hands_per_game", 4, "hands in a game (the minimum of the fourth applies to any later hand)",
           "Denexa: 'The game ends after four hands have been played.'", minimum=1, maximum=10),
    Option("wild_canastas", True, "melds (and piles) of wild cards only are allowed",
           "Denexa: 'A player can also make a meld that consists of all wild cards.'; Encyclopedia: 'Some variants "
           "allow a wildcard canasta, and then the requirement can be at least one black canasta, at least one red "
           "canasta, and a wild card canasta' (false: wild_books must be 0)"),
    Option("pile_pickup", "seven", "taking the discard pile: 'seven' (the top seven cards, Denexa), 'none' (never), "
           "'natural_pair' (the top seven cards, with a natural pair of the top card's rank only), "
           "'whole' (the whole pile) or 'foot_whole' (the whole pile, by a player in the foot only)",
           "Denexa: 'the top seven cards of the discard pile'; Encyclopedia: 'No discards may be picked up. Some "
           "variants allow picking up discards with a natural pair, but a player may take at most seven cards from "
           "the discard pile. Still some variants allow you to pick up a discard, but only if you pick up the whole "
           "deck' / 'If a player is currently in their foot, and is able to play the top discard, then they may "
           "pick up the entire discard pile ... This is the only method by which discards can be picked up.'",
           ("seven", "none", "natural_pair", "whole", "foot_whole")),
    Option("floating", False, "a player in the foot may end the turn without discarding ('float')",
           "Encyclopedia: 'A player currently in their foot may choose to pass, or \"float\", rather than discard "
           "at the end of their turn (the rest of the turn plays as normal).'"),
    Option("black_three_out", True, "the last card discarded to go out may be a black three",
           "Encyclopedia: 'Black threes ... are thus useful only as discards; however, you may not go out with one "
           "in your hand.'"),
    Option("red_three_held", 0, "points against a side for each red three in an unplayed foot (0: the same as "
           "red_three_value)", "Encyclopedia: 'Red threes count 300 to 500 points each against you, the amount "
           "depending on local variation, if you hold any in your hand (or foot) when a team goes out.'",
           (0, 300, 400, 500)),
    Option("red_threes_laid_out", True, "red threes are laid out and replaced (Denexa); false: they stay in the "
           "hand like black threes, are never melded, may be discarded, block the pile when on top, and count "
           "red_three_held (300 unless set) against the side when held at the end",
           "Denexa: 'any red 3s encountered throughout the game are laid down and new cards drawn to replace them'; "
           "Encyclopedia: 'Black threes ... are thus useful only as discards; however, you may not go out with one "
           "in your hand. The same is true of red threes; in fact these are even worse. Red threes count 300 to 500 "
           "points each against you, the amount depending on local variation, if you hold any in your hand (or "
           "foot) when a team goes out.'"),
    Option("ask_in_hand", False, "'May I go out?' may be asked by a player still in the hand (not only in the foot)",
           "Encyclopedia: 'some versions require asking for and receiving your partner's permission before going "
           "out' (the question is not tied to the foot there)"),
    Option("black_unlimited", False, "a dirty (black) canasta stays open past seven cards while its natural "
           "cards outnumber its wild cards; a clean (red) one closes at seven",
           "Encyclopedia: 'A red canasta can contain no more than 7 cards, while a black canasta can grow to "
           "unlimited size as long as the number of natural cards exceeds the number of wild cards.'"),
    Option("self_deal", False, "each player pulls a stack from the stock to deal their own hand and foot: "
           "the stack is hand_size + foot_size + e cards, e drawn from the deal's seeded chance "
           "(-2..2 with weights 1, 2, 3, 2, 1); an exact stack scores exact_deal_bonus for the side (off by "
           "default: the pull is a skill of the hand the engine can only replace by invented odds)",
           "Denexa: 'Each player takes a small portion of one of the stocks and deals two piles of eleven cards ... "
           "If a player managed to pull exactly 22 cards from the stock, they immediately score a 100-point "
           "bonus. Otherwise, any excess cards are returned to the stock.'"),
    Option("exact_deal_bonus", 100, "bonus for pulling exactly the cards of hand and foot (with self_deal)",
           "Denexa: 'they immediately score a 100-point bonus'; Encyclopedia: 'If the player drew exactly 22 "
           "cards, their team scores 100 bonus points.'", minimum=0, maximum=1000),
    Option("hand_choice", "dealt", "which of the two dealt piles is the hand: 'dealt' (the first pile) or "
           "'lowest_bottom' (the pile whose bottom card is lower; the other is the foot)",
           "Encyclopedia: 'The hand with the lowest bottom card is played first.'", ("dealt", "lowest_bottom")),
    Option("team_size", 2, "players in a partnership: 2 (teams of two: two teams with 4 players, three or four "
           "with 6 or 8) or 3 (two teams of three, with 6 players only; seats alternate, 0-2-4 against 1-3-5)",
           "The project's Hand and Foot issue: '2-4 players and teams of three' (neither text has teams of three; "
           "the Encyclopedia's 'played by teams of two players (usually two teams, but it also works with three "
           "or four teams)' is the default); with three, the Encyclopedia's 'A team may not go out until each "
           "member has played one card from the second hand'", (2, 3)),
    Option("hand_passing", False, "the hand-passing deal: the top card of each player's two dealt piles is turned "
           "up; each player, in turn from the dealer's left (the choices are hidden until all have chosen), keeps "
           "one as the foot (action 'keep 1' or 'keep 2') and passes the other to the player on the left, whose "
           "hand it becomes",
           "Encyclopedia: 'After the deal (but before looking at the cards), each player turns up the top card of "
           "each hand. He then selects one hand to keep as his \"foot\", and passes the other to the player on his "
           "left. Each player then picks up the hand passed to him and plays it as the \"hand\".'"),
]}


class HandAndFoot(Classic):
    name: ClassVar[str] = "hand-and-foot"
    title: ClassVar[str] = "Hand and Foot"
    description: ClassVar[str] = (
        "North America's family canasta: five packs, an 11-card hand and an 11-card foot each, two-card draws, "
        "piles that close at seven, and two clean, two dirty and one wild pile to go out; four hands a game."
    )
    #: 4: two partnerships; 6 and 8: three or four teams of two (Encyclopedia: 'played by teams of two players
    #: (usually two teams, but it also works with three or four teams)'), or with 6 two teams of three (table
    #: rule team_size 3); 2 and 3: players alone
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 6, 8)
    options: ClassVar[dict[str, Option]] = HAND_AND_FOOT_OPTIONS
    fixed_rules: ClassVar[dict[str, Any]] = FIXED_RULES

    # -- the rule family (canasta.engine.feet.FootGame) and the constants it reads --
    FEET: ClassVar[bool] = True
    #: 'A pile cannot contain more than seven cards; once a pile has been completed, a new meld of the
    #: same rank can be established.'
    MELD_MAX: ClassVar[int] = 7
    #: 'the top seven cards of the discard pile (or the whole pile if it contains less than seven cards)'
    PILE_TAKE: ClassVar[int] = 7
    #: 'Black 3s: Cannot be melded.'
    BLACK_THREES_MELD: ClassVar[bool] = False
    #: No discard after a pile take (Triple Play's knock).
    NO_DISCARD_AFTER_TAKE: ClassVar[bool] = False
    #: cards in each knee (Triple Play; Hand and Foot has none)
    knee_size: int = 0
    WILD_MELD_MAX: ClassVar[int] = 7
    #: 'First round: 50 points ... Fourth round: 150 points'
    ROUND_MINIMUMS: ClassVar[tuple[int, ...]] = (50, 90, 120, 150)
    #: 'Wild piles: 1500 points each. Clean piles: 500 points each. Dirty piles: 300 points each.'
    WILD_CANASTA: ClassVar[int | None] = 1500
    NATURAL_CANASTA: ClassVar[int] = 500
    MIXED_CANASTA: ClassVar[int] = 300

    #: players in a partnership (table rule team_size; Triple Play has no such option: 2)
    team_size: int = 2
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        "meld-rank": "Denexa 'Hand and Foot': 'A meld consists of three to seven cards of the same rank'",
        "meld-size": "Denexa 'Hand and Foot': 'A meld consists of three to seven cards of the same rank'",
        "take": "Denexa 'Hand and Foot': 'In order to draw from the discards, the player must be able to immediately "
                "meld the top card of the discard pile with two cards from their hand'",
        # two natural cards: a meld of three holds 'no more than one wild card'
        "meld-naturals": "Denexa 'Hand and Foot': 'A meld can contain no more than one wild card in a meld of "
                         "three, four, or five cards'",
        "wild-limit": "Denexa 'Hand and Foot': 'A meld can contain no more than one wild card in a meld of three, "
                      "four, or five cards and no more than two in a meld of six or seven'",
        "minimum-count": "Denexa 'Hand and Foot': 'A partnership's first melds of the hand must meet a minimum "
                         "value'",
        "wild-meld": "table rule wild_canastas false; Encyclopedia: 'Some variants allow a wildcard canasta'",
    }

    def red_three_meld_text(self) -> str:
        if self.red_threes_laid_out:
            return ("red threes are laid out, never melded (Denexa: 'any red 3s encountered throughout the game are "
                    "laid down and new cards drawn to replace them')")
        return ("red threes are kept in hand and never melded (table rule red_threes_laid_out; Encyclopedia: 'The "
                "same is true of red threes')")

    def wild_limit_text(self) -> str:
        if self.black_unlimited:
            return ("no more than one wild card in a meld of three to five cards, two in a meld of six or seven, and "
                    "past seven fewer wild than natural cards (Denexa 'Hand and Foot'; Encyclopedia: 'as long as the "
                    "number of natural cards exceeds the number of wild cards')")
        return f"too many wild cards for that meld ({self.rule_source('wild-limit')})"

    @property
    def num_sides(self) -> int:
        """Teams of two: seats s and s + players/2 are partners (4, 6 or 8 players); 2 or 3 play alone.
        Teams of three (team_size 3, 6 players): two sides, seats 0, 2, 4 against 1, 3, 5."""
        if self.team_size == 3:
            return 2
        return self.num_players // 2 if self.num_players >= 4 else self.num_players

    def partner_of(self, seat: int) -> int | None:
        """The partner asked "may I go out?". Teams of three: the texts ask one partner ("the player wishing
        to go out must have received permission to go out from their partner"), so the question goes to the
        next teammate in turn order, the one on the player's left (seat + 2); that answer binds the side as
        with two. The other teammate is only in :meth:`teammates_of` (going out waits for both feet)."""
        if self.team_size == 3:
            return (seat + 2) % self.num_players
        if self.num_players >= 4:
            return (seat + self.num_players // 2) % self.num_players
        return None

    #: Encyclopedia: 'When playing a singles game (that is, without partners), the requirement is one red
    #: canasta and one black canasta' (red: clean, black: dirty): the defaults with 2 or 3 players alone.
    SINGLES_BOOKS: ClassVar[dict[str, int]] = {"clean_books": 1, "dirty_books": 1, "wild_books": 0}

    def player_default(self, key: str) -> Any:
        if key in self.fixed_rules:
            return self.fixed_rules[key]
        if key in self.SINGLES_BOOKS and self.num_players < 4:
            return self.SINGLES_BOOKS[key]
        return self.options[key].default

    def bind(self) -> None:
        self.rules.update(self.fixed_rules)
        super().bind()
        r = self.rules
        self.decks: int = r.get("decks") or self.num_players + 1
        self.foot_size: int = r["foot_size"]
        self.clean_books: int = r["clean_books"]
        self.dirty_books: int = r["dirty_books"]
        self.wild_books: int = r["wild_books"]
        self.partner_in_foot: bool = r["partner_in_foot"]
        self.permission: str = r["permission"]
        self.hands_per_game = r["hands_per_game"]

        def opt(key: str) -> Any:  # options Hand and Foot offers and Triple Play does not
            return r.get(key, HAND_AND_FOOT_OPTIONS[key].default)

        self.pile_pickup: str = opt("pile_pickup")
        #: cards taken from the pile with its top card (all of them: 'whole'; none may be taken: 'none')
        self.pile_take: int = {"seven": self.PILE_TAKE, "natural_pair": self.PILE_TAKE, "none": 0}.get(
            self.pile_pickup, 1 << 30)
        self.floating: bool = opt("floating")
        self.black_three_out: bool = opt("black_three_out")
        self.ask_in_hand: bool = opt("ask_in_hand")
        self.black_unlimited: bool = opt("black_unlimited")
        self.self_deal: bool = opt("self_deal")
        self.exact_deal_bonus: int = opt("exact_deal_bonus")
        self.hand_choice: str = opt("hand_choice")
        self.hand_passing: bool = opt("hand_passing")
        #: red threes laid out and replaced (Denexa), or kept in the hand (Encyclopedia); read by the engine
        self.red_threes_laid_out: bool = opt("red_threes_laid_out")
        self.team_size = int(opt("team_size"))
        if self.team_size == 3 and self.num_players != 6:
            raise OptionError(f"team_size=3 (two teams of three) needs 6 players, not {self.num_players}; "
                              "with 4, 6 or 8 players the teams are of two (team_size=2)")
        if self.hand_passing and self.hand_choice != "dealt":
            raise OptionError("hand_passing and hand_choice=lowest_bottom both decide which pile is the hand: "
                              "choose one")
        self.partner_in_hand_penalty: int = opt("partner_in_hand_penalty")
        red_held = opt("red_three_held")
        if self.hands_per_game < 1:
            raise OptionError("hands_per_game must be at least 1")
        if min(self.clean_books, self.dirty_books, self.wild_books) < 0:
            raise OptionError("the books needed to go out cannot be negative")
        if not self.wild_canastas and self.wild_books:
            raise OptionError("wild_canastas=false leaves no pile of wild cards to make: set wild_books=0 too "
                              "(Encyclopedia: 'Some variants allow a wildcard canasta, and then the requirement can "
                              "be ... a wild card canasta')")
        values = list(self.values)
        for code in range(8, 60):
            rank = rank_of(code)
            if rank == 8 and r["eights_five"]:
                values[code] = 5
            elif rank == 3:
                # an unplayed red three counts red_three_held against (Encyclopedia), else red_three_value; kept
                # in hand, 'Red threes count 300 to 500 points each against you': 300 unless red_three_held is set
                held_default = r["red_three_value"] if self.red_threes_laid_out else 300
                values[code] = (red_held or held_default) if code in (13, 14) else r["black_three_value"]
        self.values = values
        if not 2 <= self.decks <= 10:
            raise OptionError("decks must be 2 to 10")
        if self.num_players * (self.hand_size + self.foot_size) + 20 > len(self.deck()):
            raise OptionError("those hands and feet leave too few cards for a stock")

    def deck(self) -> list[int]:
        """Denexa: 'five standard 52-card decks plus jokers' (270 cards: two jokers a pack)."""
        decks = self.rules.get("decks") or self.num_players + 1
        return standard_deck(decks, 2 * decks)

    # -- hooks -------------------------------------------------------------------
    def round_minimum(self, hand_no: int) -> int:
        """The opening-meld minimum of hand ``hand_no`` (1-based): 50, 90, 120, 150."""
        table = self.ROUND_MINIMUMS
        return table[min(max(hand_no, 1), len(table)) - 1]

    def wild_capacity(self, naturals: int, wilds: int, is_canasta: bool) -> int:
        """'no more than one wild card in a meld of three, four, or five cards and no more than two in a
        meld of six or seven': how many more wild cards a meld with these counts may take."""
        if not self.black_unlimited:
            return max(0, self.max_wilds(naturals) - wilds)
        k = 0
        while self.wilds_ok(naturals, wilds + k + 1):
            k += 1
        return k

    def wilds_ok(self, naturals: int, wilds: int) -> bool:
        """May a meld of ``naturals`` natural and ``wilds`` wild cards stand? Denexa's 'no more than one wild
        card in a meld of three, four, or five cards and no more than two in a meld of six or seven'; past
        seven (option black_unlimited) 'as long as the number of natural cards exceeds the number of wild cards'."""
        size = naturals + wilds
        if size <= 7:
            return wilds <= (1 if size <= 5 else 2)
        return self.black_unlimited and wilds > 0 and naturals > wilds

    def closes(self, rank: int, wilds: int) -> bool:
        """Does a meld of seven cards close into a pile? Always, except a dirty (black) canasta with the
        option black_unlimited: 'a black canasta can grow to unlimited size'."""
        return not (self.black_unlimited and rank != 1 and wilds > 0)

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
        """'a player may never draw from the discard pile if the upcard is a black 3'; a red three kept in hand
        (red_threes_laid_out false) cannot be melded either, so it blocks the pile alike."""
        return code in (12, 15) or (code in (13, 14) and not self.red_threes_laid_out)

    def red_three_score(self, count: int, *, all_held: bool, canastas: int, melded: bool) -> int:
        """'Red threes: 100 points each' (the table rule red_three_value)."""
        return int(self.rules["red_three_value"]) * count

    def books_problem(self, books: list[tuple[int, int]]) -> str | None:
        """Why these closed piles ((rank, wild cards); rank 1: wild cards) do not let the side go out.

        Denexa 'Going out': 'they must have completed two clean piles, two dirty piles, and one wild pile'."""
        counts = {"clean": 0, "dirty": 0, "wild": 0}
        for rank, wilds in books:
            counts[self.book_kind(rank, wilds)] += 1
        need = {"clean": self.clean_books, "dirty": self.dirty_books, "wild": self.wild_books}
        if all(counts[k] >= need[k] for k in need):
            return None
        have = ", ".join(f"{counts[k]} {k}" for k in need)
        source = "Denexa 'Going out'"
        if self.num_players < 4 and need == {k[:-6]: n for k, n in self.SINGLES_BOOKS.items()}:
            source = ("Encyclopedia: 'When playing a singles game (that is, without partners), the requirement is "
                      "one red canasta and one black canasta'")
        return (f"to go out your side needs {self.clean_books} clean, {self.dirty_books} dirty and {self.wild_books} "
                f"wild pile(s); it has {have} ({source})")

    def book_kind(self, rank: int, wilds: int) -> str:
        """'clean' | 'dirty' | 'wild' of a completed pile (rank 1 is the meld of wild cards)."""
        if rank == 1:
            return "wild"
        return "dirty" if wilds else "clean"

    def meld_problem(self, cards: list[int]) -> str | None:
        wild = [c for c in cards if c == JOKER or rank_of(c) == 2]
        nat = [c for c in cards if c not in wild]
        if len(cards) > 7 and not (self.black_unlimited and nat and wild and len(nat) > len(wild)):
            return "a pile cannot contain more than seven cards"
        if nat and all(rank_of(c) == 3 for c in nat) and any(c in (12, 15) for c in nat):
            return "black 3s cannot be melded"
        if nat and len({rank_of(c) for c in nat}) == 1 and rank_of(nat[0]) != 3:
            if len(cards) < 3:
                return "a meld needs at least three cards"
            if len(nat) < 2:
                return "a meld must contain at least two natural cards"
            if not self.wilds_ok(len(nat), len(wild)):
                return "no more than one wild card in a meld of three to five cards, two in a meld of six or seven"
            return None
        return super().meld_problem(cards)



TP_SOURCE = "Denexa 'Triple Play'"

TRIPLE_PLAY_OPTIONS: dict[str, Option] = {
    k: o for k, o in with_defaults(
        HAND_AND_FOOT_OPTIONS, TP_SOURCE, decks=6, permission="required", partner_in_foot=False,
        going_out_bonus=200, failed_go_out_penalty=0).items()
    if k in ("decks", "permission", "going_out_bonus", "failed_go_out_penalty", "hands_per_game")
}
TRIPLE_PLAY_OPTIONS["decks"] = Option(
    "decks", 6, "standard packs (each with two jokers) in the shoe",
    "Denexa 'Triple Play': 'six standard decks, plus twelve jokers (two per deck), 324 cards in all'", (5, 6, 7))


class TriplePlay(HandAndFoot):
    """Triple Play (Hand, Knee, and Foot): Hand and Foot with a knee, a basic book, and its own scores."""

    name: ClassVar[str] = "triple-play"
    title: ClassVar[str] = "Triple Play"
    description: ClassVar[str] = (
        "Hand, Knee, and Foot: six packs, a 15-card hand, a 13-card knee picked up with the side's first canasta "
        "and an 11-card foot; canastas of 5s and 7s without wild cards; the basic book to go out."
    )
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[dict[str, Option]] = TRIPLE_PLAY_OPTIONS
    fixed_rules: ClassVar[dict[str, Any]] = {
        **FIXED_RULES,
        "hand_size": 15,          # 'deal a fifteen-card hand to each player'
        "foot_size": 11,          # 'an eleven-card foot pile'
        "partner_in_foot": False,  # going out needs the basic book and permission only
        "clean_books": 0, "dirty_books": 0, "wild_books": 0,  # the basic book instead (books_problem)
        "wild_canastas": True,    # 'A player can also make a meld that consists of all wild cards.'
        "eights_five": False,
        "black_three_value": 100,  # 'unplayed black 3s are -100 points each'
        "red_three_value": 500,    # 'Unplayed red 3s have a value of -500 points each' (laid out: 100 each)
    }
    KNEE_SIZE: ClassVar[int] = 13  # 'deal out a thirteen-card knee pile for each player'
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        "meld-rank": "Denexa 'Triple Play': 'A meld consists of three to seven cards of the same rank'",
        "meld-size": "Denexa 'Triple Play': 'A meld consists of three to seven cards of the same rank'",
        "take": "Denexa 'Triple Play': 'the player must have two cards in their hand that they can immediately meld "
                "with the top card of the discard pile'",
        "wild-meld": "Denexa 'Triple Play': 'A player can also make a meld that consists of all wild cards'",
        "meld-naturals": "Denexa 'Triple Play': 'A meld can contain only one wild card in a meld of three to five "
                         "cards'",
        "wild-limit": "Denexa 'Triple Play': 'A meld can contain only one wild card in a meld of three to five "
                      "cards, and no more than two in a meld of six or seven'",
        "minimum-count": "Denexa 'Triple Play': 'On the first turn of the deal that a partnership melds, they must "
                         "meet a minimum point threshold'",
    }
    #: 'the top card of the discard pile ... pick up the discard pile and add it to their hand'
    PILE_TAKE: ClassVar[int] = 1 << 30
    NO_DISCARD_AFTER_TAKE: ClassVar[bool] = True
    #: 'Melds of 5s and 7s can never contain wild cards.'
    NO_WILD_RANKS: ClassVar[tuple[int, ...]] = (5, 7)
    #: 'If the upcard is a joker, 2, red 3, 5, or 7, bury it face-down in the middle of the stock'
    UPCARD_BURIED_MIDDLE: ClassVar[bool] = True
    #: '7s: 5,000 points per canasta. 5s: 3,000 per canasta. Wild cards: 2,500 points per canasta.'
    RANK_CANASTA: ClassVar[dict[int, int]] = {7: 5000, 5: 3000}
    WILD_CANASTA: ClassVar[int | None] = 2500
    #: 'Red 3s: 100 points each. Collecting seven or more red 3s: 300 points.'
    RED_THREE_EACH: ClassVar[int] = 100
    SEVEN_RED_THREES: ClassVar[int] = 300

    def __init__(self, num_players: int, rules: dict[str, Any] | None = None) -> None:
        if (rules or {}).get("hand_passing") not in (None, False, "false"):
            # The Encyclopedia's variation passes one of two dealt hands; with a hand, a knee and a foot the text
            # gives no rule for which piles are turned up, kept or passed.
            raise OptionError("triple-play has no hand-passing deal: the Encyclopedia's variation (hand_passing) "
                              "is one of Hand and Foot, whose players are dealt two piles, not three")
        super().__init__(num_players, rules)

    def bind(self) -> None:
        super().bind()
        self.knee_size = self.KNEE_SIZE
        if self.num_players * (self.hand_size + self.knee_size + self.foot_size) + 20 > len(self.deck()):
            raise OptionError("those hands, knees and feet leave too few cards for a stock")

    def upcard_must_be_covered(self, code: int) -> bool:
        return super().upcard_must_be_covered(code) or rank_of(code) in (5, 7)

    def wild_capacity(self, naturals: int, wilds: int, is_canasta: bool) -> int:
        # 'A meld can contain only one wild card in a meld of three to five cards, and no more than two in a
        # meld of six or seven' (the 5s and 7s are refused by NO_WILD_RANKS, which knows the rank)
        return super().wild_capacity(naturals, wilds, is_canasta)

    def canasta_kind(self, cards: list[int]) -> tuple[str, int]:
        """'7s: 5,000 ... 5s: 3,000 ... Wild cards: 2,500 ... Natural canastas: 500 ... Mixed canastas: 300'."""
        wild = sum(1 for c in cards if c == JOKER or rank_of(c) == 2)
        if wild == len(cards):
            return "wild", 2500
        if wild:
            return "mixed", self.MIXED_CANASTA
        rank = rank_of(cards[0])
        return "natural", self.RANK_CANASTA.get(rank, self.NATURAL_CANASTA)

    def red_three_score(self, count: int, *, all_held: bool, canastas: int, melded: bool) -> int:
        """'Red 3s: 100 points each. Collecting seven or more red 3s: 300 points.'"""
        return self.RED_THREE_EACH * count + (self.SEVEN_RED_THREES if count >= 7 else 0)

    def books_problem(self, books: list[tuple[int, int]]) -> str | None:
        """The basic book: 'A natural canasta of 5s / A natural canasta of 7s / A canasta of wild cards /
        Any natural canasta / Any mixed canasta' (five canastas, each counted once)."""
        fives = sum(1 for r, w in books if r == 5 and not w)
        sevens = sum(1 for r, w in books if r == 7 and not w)
        wild = sum(1 for r, _ in books if r == 1)
        natural = sum(1 for r, w in books if r != 1 and not w)
        mixed = sum(1 for r, w in books if r != 1 and w)
        missing = []
        if not fives:
            missing.append("a natural canasta of 5s")
        if not sevens:
            missing.append("a natural canasta of 7s")
        if not wild:
            missing.append("a canasta of wild cards")
        if natural - min(fives, 1) - min(sevens, 1) < 1:
            missing.append("another natural canasta")
        if not mixed:
            missing.append("a mixed canasta")
        if not missing:
            return None
        return "to go out your side needs the basic book; missing: " + ", ".join(missing) + " (Denexa 'Triple Play')"

    def meld_problem(self, cards: list[int]) -> str | None:
        wild = [c for c in cards if c == JOKER or rank_of(c) == 2]
        nat = [c for c in cards if c not in wild]
        if wild and nat and rank_of(nat[0]) in self.NO_WILD_RANKS:
            return "melds of 5s and 7s can never contain wild cards"
        return super().meld_problem(cards)
