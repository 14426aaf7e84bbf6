"""Modern American Canasta: the game North American clubs play today.

Sources (``shared/rules``): the "Modern American Canasta" part of
classic-terms-and-modern-american.txt ("Terms", the default) and the "US American
Canasta" section of encyclopedia-canasta-and-variants.txt ("Encyclopedia": where it
differs, a named table rule). American is set-melds like Classic, so it runs on the
Classic turn structure; its differences are data here and the hooks of
``canasta.engine.setrules`` (called by ``canasta.engine.american.AmericanGame``, the rule family
that plays the variants with ``EXTENDED_SET_RULES``).
docs/variants/american.md lists every rule as implemented and what is not implemented.
"""

from __future__ import annotations

from typing import Any, ClassVar

from canasta.cards import JOKER, TWO, rank_of
from canasta.errors import OptionError
from canasta.variants.base import Option, SideScore, standard_deck
from canasta.variants.classic import Classic

SEVEN = 7
ACE = 14

#: Classic table rules with the value Modern American gives them; they are not options of American.
FIXED_RULES: dict[str, Any] = {
    "hand_size": 13,                  # Terms: '13 cards are then dealt to each player.'
    "draw_count": 1,                  # Encyclopedia: 'The draw-two-cards rule is not used.'
    "canastas_to_go_out": 2,          # Terms: 'your team has completed two canastas'
    "natural_canastas_to_go_out": 0,
    "wild_limit": "three",            # unused: the American wild-card rules are in wild_problem
    "black_three_freezes": False,     # threes are never discarded
    "black_three_upcard_covered": False,  # no upcard
    "always_frozen": True,            # Encyclopedia: 'The discard pile is always frozen.'
    "frozen_pile_add_to_meld": False,  # Terms: 'only ... if you have a pair of natural cards'
    "negative_minimum": 125,          # Terms: 'a team that has a negative score is still subject to the 125'
    "fifty_below_1500": False,
    "retract_raises_minimum": 0,      # retracting a pile take is an undo: no penalty in the text
    "concealed_rule": "player",
    "concealed_bonus": 0,             # no concealed bonus in American
    "going_out_bonus": 100,           # Terms: 'their team scores an extra bonus of 100 points'
    "seven_canastas_win": False,
    "wild_canastas": True,            # Terms: 'Melds consisting entirely of wild cards are also allowed.'
    "jokers": 4,                      # Terms: 'Two 52 card standard packs plus 4 jokers'
    "seven_of_each": False,
    "stock_reshuffle": False,
    "stock_out": "optional",          # Terms: 'play can continue as long as each player is able and willing to take'
    "red_three_last_card": "end",     # Terms: 'If the last card drawn from the stock is a three the game ends'
    "only_top_card_usable": False,
    "failed_go_out_penalty": 0,       # a yes binds instead: 'If you ask, and partner says yes, you must go out'
}

AMERICAN_OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("target_score", 8500, "score that ends the game (the higher side wins)",
           "Terms: 'The winners will be the first team to achieve a cumulative score of 8500 or more points'", minimum=1, maximum=1000000),
    Option("initial_pure_meld", "pure", "the three-natural meld the initial meld must include is pure ('pure', Terms) "
           "or may also hold wild cards ('three_naturals', Encyclopedia)",
           "Terms: 'Must include a pure meld of at least three matching natural cards (with no wild cards)'; "
           "Encyclopedia: 'a matching set of three natural cards, though you are allowed to have wild cards in this meld'",
           ("pure", "three_naturals")),
    Option("take_pile_on_initial_meld", True, "a side may take the pile in the turn of its initial meld (Terms) "
           "or not ('false', Encyclopedia: 'Many groups do not allow')",
           "Terms: 'When making the initial meld you may take the discard pile in the same turn'; Encyclopedia: "
           "'Many groups do not allow taking the pile and making your team's initial meld on the same turn'"),
    Option("bonus_cards", True, "the first side to meld draws 4 bonus cards, the second 3, while the turn card is "
           "in the stock (Terms); 'false': the Encyclopedia's wings, never used",
           "Terms 'Bonus cards'; Encyclopedia: 'The wings are never revealed, scored or otherwise permitted to affect the game'"),
    Option("pairs_garbage_score", 0, "score of the pairs and garbage special hands in the scorekeeper: 0 means the "
           "Terms' table (pairs 2500, pairs with wilds 2000, garbage 2000); 3500 is the table rule",
           "Terms 'Table Rules': 'Some players award a higher score of 3500 points for pairs and garbage hands.'",
           (0, 3500)),
    Option("zip_code_score", 0, "score of the 'zip code' special hand; the text gives none, so 0 means the table "
           "does not play it (the engine does not offer it, the scorekeeper refuses it)",
           "Terms: 'Zip Code: 1 set four of a kind, 2 sets 3 of a kind and 2 sets pairs.' (no score given)", minimum=0, maximum=10000),
    Option("pairs_wilds", "twos", "the wild pair of the 'pairs with wilds' hand: a pair of twos ('twos', Terms), a "
           "pair of twos or of jokers ('twos_or_jokers'), or no such hand: seven natural pairs, sevens and aces "
           "allowed, never threes or wild cards ('none')",
           "Terms: 'With twos, sevens and aces'; Table Rules: 'Some players allow the pairs hand with wilds, sevens "
           "and aces to use a pair of jokers or a pair of twos as the wilds.' / 'Some players allow the pairs hand "
           "to include sevens or aces but never threes or wild cards.'",
           ("twos", "twos_or_jokers", "none")),
    Option("garbage_hand", "fours_and_threes", "the garbage hand: two fours and two threes of a kind, no wild cards "
           "('fours_and_threes', Terms), or four natural threes of a kind and two matching wild cards "
           "('threes_and_wild_pair')",
           "Terms: 'two sets of four of a kind and two sets of three of a kind, without any wild cards or threes'; "
           "Table Rules: 'Some players require for the garbage hand four natural sets of three equal cards plus two "
           "matching wild cards (two twos or two jokers).'",
           ("fours_and_threes", "threes_and_wild_pair")),
    Option("threes_optional", False, "the Encyclopedia's threes: laying a three out is optional (any number may "
           "be kept, also after the side has melded), a three may be the final discard when going out, and threes "
           "in hand count with those laid out in the no-canasta penalty (Terms, the default: at most one three is "
           "kept, only before the side melds, and threes are never discarded)",
           "Encyclopedia: 'Both red and black threes may be played to the table ... Unlike in other versions of "
           "canasta, this is optional.'; 'Threes can't be discarded, except as your final discard when going out'; "
           "'(and for this purpose threes in your hand count as though they were on the table)'"),
    Option("going_out_overflow", False, "a meld may grow past seven cards on the step that leaves the player one "
           "card to go out with (Terms, the default: 'A meld can never contain more than seven cards.')",
           "Encyclopedia: 'One common exception, is to allow melds of 8 or more cards when going out. Skilled "
           "players will play a wild card on an existing canasta for the win.'"),
    Option("special_from_pile", False, "a special hand may be completed by taking its 14th card from a discard pile "
           "of exactly one card",
           "Table Rules: 'Some play that a special hand can be completed by taking its 14th card from the discard "
           "pile, but only if the discard pile has just one card in it'"),
]}

#: Terms 'Bonuses or penalties for threes': per colour, by how many of that colour.
THREES_TABLE: tuple[int, ...] = (0, 100, 300, 500, 1000)
#: rank counts 2..A of a straight's naturals (with one joker)
_STRAIGHT = [1] * 13
#: group sizes (ranks, and jokers as one group) of the other special hands: pairs, garbage (both
#: readings), zip code
_SPECIAL_SHAPES = ([2] * 7, [3, 3, 4, 4], [2, 3, 3, 3, 3], [2, 2, 3, 3, 4])
#: Terms 'Special hand scores'.
SPECIAL_HANDS: dict[str, int] = {"straight": 3000, "pairs": 2500, "pairs-wild": 2000, "garbage": 2000, "zip-code": 0}


class American(Classic):
    """Terms 'Modern American Canasta': four players in partnerships, 13 cards, game to 8500."""

    name: ClassVar[str] = "american"
    title: ClassVar[str] = "Modern American Canasta"
    description: ClassVar[str] = (
        "The North American club game: 13 cards, no upcard, an always-frozen pile, at most two wild cards, "
        "sevens and aces canastas worth 2500, dead ranks, bonus cards, 125/155/180 to open, and 8500 to win."
    )
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[dict[str, Option]] = AMERICAN_OPTIONS
    #: The text each refusal cites (Variant.RULE_SOURCES): the Terms page's Modern American sections.
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        "meld-rank": "Terms 'Melds': 'A meld of 4s, 5s, 6s, 8s, 9s, 10s, jacks, queens or kings consists of at least "
                     "three and not more than of seven cards of the appropriate rank'",
        "meld-size": "Terms 'Melds': 'consists of at least three and not more than of seven cards'",
        "meld-naturals": "Terms 'Melds': 'provided the meld contains at least two natural cards'",
        "take": "Terms 'The Play in American Canasta': 'You can only take the discard pile if you have a pair of "
                "natural cards in your hand which are of the same rank as the top card of the discard pile'",
        "take-rank": "Terms 'The Play in American Canasta': 'a pair of natural cards in your hand which are of the "
                     "same rank as the top card'",
        "pile-frozen": "Terms 'The Play in American Canasta': 'You can only take the discard pile if you have a "
                       "pair of natural cards'",
        "pile-blocked": "Terms 'The Play in American Canasta': 'You can only take the discard pile if you have a "
                        "pair of natural cards in your hand which are of the same rank as the top card'",
        "duplicate-meld": "Terms 'Melds': 'One team is not allowed to have more than one meld of the same rank'",
        "wild-meld": "Terms 'Melds': 'Melds consisting entirely of wild cards are also allowed'",
        "wild-meld-open": "Terms 'Melds': 'If your team starts a meld of wild cards, you cannot add any wild cards "
                          "to any of your other melds until your wild card canasta is complete'",
        "wild-limit": "Terms 'Melds': 'Wild cards can be used as substitutes for one or two of the cards'",
        "minimum-count": "Terms 'The Initial Meld in American Canasta'",
        "no-discard-left": "Terms 'The Play in American Canasta': 'Each turn must be ended by discarding one card'",
        "cannot-go-out": "Terms 'American Canasta: End of the Play'",
        "must-go-out": "Terms 'American Canasta: End of the Play': 'If you ask, and partner says yes, you must go "
                       "out'",
        "three-discard": "Terms 'The Play in American Canasta': 'Threes can never be discarded'",
        "discard-restricted": "Terms 'The Play in American Canasta': 'There are certain restrictions on discards'",
        "forced-take": "Terms 'American Canasta: End of the Play'",
    }
    fixed_rules: ClassVar[dict[str, Any]] = FIXED_RULES

    #: the engine's American mechanisms (canasta.engine.setrules)
    EXTENDED_SET_RULES: ClassVar[bool] = True
    SCORES_TABLE: ClassVar[bool] = True
    #: Terms: 'When you are in a position to go out you may, if you wish, first ask your partner's permission.'
    ASK_PERMISSION: ClassVar[bool] = True
    #: Terms: 'No card is turned face up to start a discard pile'
    NO_UPCARD: ClassVar[bool] = True
    #: Terms: 'The ninth card from the bottom of the draw pile is turned at right angles'
    TURN_CARD_DEPTH: ClassVar[int] = 9
    #: Terms: 'If your team is the first to meld you draw four bonus cards; ... otherwise three'
    BONUS_CARDS: ClassVar[tuple[int, int]] = (4, 3)
    #: Terms: 'A meld can never contain more than seven cards.'
    MELD_MAX: ClassVar[int] = 7
    #: Terms: 'Wild cards can be used as substitutes for one or two of the cards'
    MAX_WILDS: ClassVar[int] = 2
    #: Terms: 'provided that the meld already contains at least five natural cards'
    WILD_AFTER_NATURALS: ClassVar[int] = 5
    WILD_CANASTA: ClassVar[int | None] = 2000
    #: Terms: ((cumulative score floor, minimum)); 'a team that has a negative score is still subject to the 125'
    MINIMUM_TABLE: ClassVar[tuple[tuple[int, int], ...]] = ((0, 125), (3000, 155), (5000, 180))
    FROZEN_PILE_TEXT: ClassVar[str | None] = (
        "(Terms: 'You can only take the discard pile if you have a pair of natural cards in your hand which are "
        "of the same rank as the top card')")
    MIXED_CANASTA: ClassVar[int] = 300
    NATURAL_CANASTA: ClassVar[int] = 500
    #: Terms: 'each complete pure canasta of aces or sevens: 2500 points'
    ACES_SEVENS_CANASTA: ClassVar[int] = 2500
    #: Terms: 'a complete twos canasta scores 3000 points'; 'joker canasta ... 2500'; other wild 2000
    TWOS_CANASTA: ClassVar[int] = 3000
    JOKER_CANASTA: ClassVar[int] = 2500
    #: Terms 'Penalties for incomplete canastas'
    INCOMPLETE_ACES_SEVENS: ClassVar[int] = 2500
    INCOMPLETE_WILD: ClassVar[int] = 2000
    INCOMPLETE_WILD_FOUR_JOKERS: ClassVar[int] = 2500
    #: Terms: 'for three or more sevens [aces] remaining in a player's hand: minus 1500 points'
    HELD_ACES_SEVENS: ClassVar[int] = 1500

    def player_default(self, key: str) -> Any:
        if key in self.fixed_rules:
            return self.fixed_rules[key]
        return self.options[key].default

    def bind(self) -> None:
        self.rules.update(self.fixed_rules)
        super().bind()
        values = list(self.values)
        for code in range(12, 16):  # Terms: 'a three in hand at the end of the play ... counts 5 points'
            values[code] = 5
        self.values = values
        if self.rules["target_score"] <= 0:
            raise OptionError("target_score must be positive")
        self.initial_pure: bool = self.rules["initial_pure_meld"] == "pure"
        self.bonus_cards: bool = self.rules["bonus_cards"]
        self.take_on_initial: bool = self.rules["take_pile_on_initial_meld"]
        self.threes_optional: bool = self.rules["threes_optional"]
        self.going_out_overflow: bool = self.rules["going_out_overflow"]

    def deck(self) -> list[int]:
        return standard_deck(2, 4)

    # -- hooks -----------------------------------------------------------------
    def minimum(self, score: int) -> int:
        """Terms: 'less than 3000: 125 points; 3000 to 4995: 155 points; 5000 or more: 180 points'."""
        need = 125
        for floor, value in self.MINIMUM_TABLE:
            if score >= floor:
                need = value
        return need

    def blocks_pile(self, code: int) -> bool:
        """A wild card (or a three) on top: no natural pair can match it."""
        return code == JOKER or rank_of(code) in (TWO, 3)

    def wild_problem(self, rank: int, naturals: int, wilds: int, *, initial: bool, created_dirty: bool) -> str | None:
        """Why a meld of ``rank`` with these counts (after the addition) may not hold that many wild cards.

        ``initial``: the meld was put down in this turn, the turn of the side's initial meld;
        ``created_dirty``: it held a wild card from the outset (aces).
        """
        if wilds == 0:
            return None
        if rank == SEVEN:
            return "sevens never take wild cards (Terms: 'wild cards cannot be used at all in a meld of sevens')"
        if wilds > self.MAX_WILDS:
            return "a meld holds at most two wild cards (Terms: 'substitutes for one or two of the cards')"
        if rank == ACE and not created_dirty:
            return ("a meld of aces takes wild cards only if it is part of the initial meld with a wild card from the "
                    "outset (Terms: 'If an ace meld is begun pure ... no wild cards can be added to it')")
        if initial:
            if naturals < 2:
                return "a meld needs at least two natural cards"
            return None
        if naturals < self.WILD_AFTER_NATURALS:
            return ("after the initial meld a wild card goes only on a meld with at least five natural cards "
                    "(Terms: 'subsequently, provided that the meld already contains at least five natural cards')")
        return None

    def meld_problem(self, cards: list[int]) -> str | None:
        """Why these cards cannot be one finished American meld (scorekeeper, soak)."""
        wild = [c for c in cards if c == JOKER or rank_of(c) == TWO]
        nat = [c for c in cards if c not in wild]
        if len(cards) > self.MELD_MAX and not self.going_out_overflow:
            return "a meld can never contain more than seven cards"
        if len(cards) < 3:
            return "a meld needs at least three cards"
        if not nat:
            return None
        ranks = {rank_of(c) for c in nat}
        if len(ranks) > 1:
            return "a meld is cards of one rank (plus wild cards)"
        rank = ranks.pop()
        if rank == 3:
            return "threes are laid out, never melded"
        if len(nat) < 2:
            return "a meld must contain at least two natural cards"
        if wild:
            # the most permissive history: put down in the initial meld with its wild cards
            return self.wild_problem(rank, len(nat), len(wild), initial=True, created_dirty=True)
        return None

    def canasta_kind(self, cards: list[int]) -> tuple[str, int]:
        """Terms 'Canasta and going out bonuses'."""
        wild = [c for c in cards if c == JOKER or rank_of(c) == TWO]
        if len(wild) == len(cards):
            jokers = sum(1 for c in cards if c == JOKER)
            if jokers == 0:
                return "wild", self.TWOS_CANASTA
            if jokers == 4:
                return "wild", self.JOKER_CANASTA
            return "wild", self.WILD_CANASTA or 0
        if wild:
            return "mixed", self.MIXED_CANASTA
        if rank_of(cards[0]) in (SEVEN, ACE):
            return "natural", self.ACES_SEVENS_CANASTA
        return "natural", self.NATURAL_CANASTA

    def threes_points(self, threes: list[int]) -> int:
        """Terms: 'one red three 100 ... four black threes 1000', red and black counted apart."""
        red = sum(1 for c in threes if c in (13, 14))
        black = len(threes) - red
        return THREES_TABLE[min(red, 4)] + THREES_TABLE[min(black, 4)]

    def special_hands(self) -> tuple[str, ...]:
        return tuple(SPECIAL_HANDS)

    def special_hand_problem(self, kind: str, hand: list[int]) -> str | None:
        """Why ``hand`` (a count vector of card codes) is not the special hand ``kind`` at this table, or None.

        Terms 'American Canasta: Special Hands' and the special-hand table rules (options
        ``pairs_wilds``, ``garbage_hand``, ``zip_code_score``). Groups are of distinct ranks
        (seven pairs are seven ranks; a set of four is not two pairs).
        """
        if kind not in SPECIAL_HANDS:
            return f"unknown special hand {kind!r}"
        ranks = [0] * 15  # 2..14 by rank
        for r in range(2, 15):
            b = r * 4
            ranks[r] = hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3]
        jokers = hand[JOKER]
        total = sum(ranks) + jokers
        if total != 14:
            return f"a special hand is a combination of 14 cards (Terms), not {total}"
        groups = sorted((k for k in ranks[4:] if k), reverse=True)  # natural ranks 4..A
        twos, threes = ranks[2], ranks[3]
        if kind == "straight":
            if jokers == 1 and all(ranks[r] == 1 for r in range(2, 15)):
                return None
            return "a straight 'consists of one card of every rank: A-2-3-4-5-6-7-8-9-10-J-Q-K-joker' (Terms)"
        if threes:
            return "only a straight may hold a three (Terms: 'It must not contain any jokers or threes')"
        if kind == "pairs":
            if jokers or twos or groups != [2] * 7:
                return "a pairs hand is seven natural pairs, 'without wild cards' (Terms)"
            return None
        if kind == "pairs-wild":
            wilds = self.rules["pairs_wilds"]
            if wilds == "none":
                return "this table plays the pairs hand 'never [with] threes or wild cards' (table rule pairs_wilds=none)"
            wild_pair = (twos == 2 and jokers == 0) or (wilds == "twos_or_jokers" and jokers == 2 and twos == 0)
            if not wild_pair or groups != [2] * 6 or ranks[SEVEN] != 2 or ranks[ACE] != 2:
                return ("a pairs hand with wild cards holds a pair of twos"
                        + (" or of jokers" if wilds == "twos_or_jokers" else "")
                        + " and natural pairs: 'a hand with a pair of twos must contain both sevens and aces as well' "
                        "(Terms)")
            return None
        if kind == "garbage":
            if self.rules["garbage_hand"] == "threes_and_wild_pair":
                wild_pair = (twos == 2 and jokers == 0) or (jokers == 2 and twos == 0)
                if not wild_pair or groups != [3, 3, 3, 3]:
                    return ("garbage at this table is 'four natural sets of three equal cards plus two matching wild "
                            "cards (two twos or two jokers)' (table rule garbage_hand)")
                return None
            if jokers or twos or groups != [4, 4, 3, 3]:
                return ("garbage 'consists of two sets of four of a kind and two sets of three of a kind, without any "
                        "wild cards or threes' (Terms)")
            return None
        # zip code: 'Example: 2-2-4-4-4-4-6-6-6-9-9-9-A-A' (twos make a group; jokers are not a kind)
        if not self.rules["zip_code_score"]:
            return "this table does not play the zip code hand (the text gives it no score: set zip_code_score)"
        if jokers or sorted((k for k in ranks[2:] if k), reverse=True) != [4, 3, 3, 2, 2]:
            return "a zip code is '1 set four of a kind, 2 sets 3 of a kind and 2 sets pairs' (Terms)"
        return None

    def special_kinds(self, hand: list[int]) -> list[str]:
        """The special hands ``hand`` (a count vector) is at this table, in SPECIAL_HANDS order (the
        engine's list of legal ``special`` actions; :meth:`special_hand_problem` says why not)."""
        jokers = hand[JOKER]
        if jokers > 2:
            return []
        # a quick exit first: a straight has one card of every rank, the others no lone card
        for b in range(8, 60, 4):
            if (hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3] == 1) != (jokers == 1):
                return []
        counts = [hand[b] + hand[b + 1] + hand[b + 2] + hand[b + 3] for b in range(8, 60, 4)]  # ranks 2..A
        if sum(counts) + jokers != 14:
            return []
        if jokers == 1:
            return ["straight"] if counts == _STRAIGHT else []
        if counts[1]:  # a three: only in a straight
            return []
        groups = sorted([k for k in counts if k] + ([jokers] if jokers else []))
        if groups not in _SPECIAL_SHAPES:
            return []
        return [k for k in SPECIAL_HANDS if k != "straight" and self.special_hand_problem(k, hand) is None]

    def special_hand_score(self, kind: str) -> int:
        """Terms 'Special hand scores' (with the table rules pairs_garbage_score, zip_code_score)."""
        if kind not in SPECIAL_HANDS:
            raise OptionError(f"unknown special hand {kind!r}; known: {', '.join(SPECIAL_HANDS)}")
        if kind == "zip-code":
            return int(self.rules["zip_code_score"])
        if kind in ("pairs", "pairs-wild", "garbage") and self.rules["pairs_garbage_score"]:
            return int(self.rules["pairs_garbage_score"])
        return SPECIAL_HANDS[kind]

    def score_table(self, melds: list[tuple[int, list[int]]], threes: list[int], hands: list[list[int]],
                    went_out: bool) -> SideScore:
        """Terms 'American Canasta: Scoring', items 1 to 5, by the side's number of complete canastas."""
        values = self.values
        items: dict[str, int] = {}
        canastas = [cards for _, cards in melds if len(cards) >= 7]
        n = len(canastas)
        bonus = {"natural": 0, "mixed": 0, "wild": 0}
        for cards in canastas:
            kind, points = self.canasta_kind(cards)
            bonus[kind] += points
        # 4. 'If a team has completed at least one canasta, the total value of all the cards (other than
        # threes) melded by the team ... is added'; 'If a team has not completed any canastas, then the value
        # of all their melded cards is subtracted'
        melded = sum(values[c] for _, cards in melds for c in cards)
        items["melded_cards"] = melded if n else -melded
        if self.threes_optional and n == 0:
            # Encyclopedia: a penalty with no canastas, 'and for this purpose threes in your hand count as though
            # they were on the table' (so not also as 5 points in hand)
            threes = [*threes, *(c for hand in hands for c in hand if rank_of(c) == 3)]
            hands = [[c for c in hand if rank_of(c) != 3] for hand in hands]
        # 5. 'The total value of all the cards remaining in the hands of the players is subtracted'
        items["cards_in_hand"] = -sum(values[c] for hand in hands for c in hand)
        # 1. canasta bonuses and going out
        items["natural_canastas"] = bonus["natural"]
        items["mixed_canastas"] = bonus["mixed"]
        items["wild_canastas"] = bonus["wild"]
        items["going_out"] = self.rules["going_out_bonus"] if went_out else 0
        # 2. incomplete pure aces, sevens, wild melds; three or more aces or sevens in a player's hand
        incomplete = 0
        for _, cards in melds:
            if len(cards) >= 7:
                continue
            wild = sum(1 for c in cards if c == JOKER or rank_of(c) == TWO)
            if wild == len(cards):
                four_jokers = sum(1 for c in cards if c == JOKER) == 4
                incomplete -= self.INCOMPLETE_WILD_FOUR_JOKERS if four_jokers else self.INCOMPLETE_WILD
            elif wild == 0 and rank_of(cards[0]) in (SEVEN, ACE):
                incomplete -= self.INCOMPLETE_ACES_SEVENS
        items["incomplete_melds"] = incomplete
        held_penalty = 0
        for hand in hands:
            for rank in (SEVEN, ACE):
                if sum(1 for c in hand if rank_of(c) == rank and c != JOKER) >= 3:
                    held_penalty -= self.HELD_ACES_SEVENS
        items["aces_sevens_in_hand"] = held_penalty
        # 3. threes: penalty with no canasta, nothing with one, bonus with two or more
        points = self.threes_points(threes)
        items["threes"] = -points if n == 0 else (0 if n == 1 else points)
        return {"total": sum(items.values()), "items": items}

    def score_special(self, kind: str) -> SideScore:
        """Terms 6: 'the team that went out scores only the amount shown below for the special hand'."""
        points = self.special_hand_score(kind)
        return {"total": points, "items": {"special_hand": points}}


__all__ = ["AMERICAN_OPTIONS", "FIXED_RULES", "SPECIAL_HANDS", "American"]
