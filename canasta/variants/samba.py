"""Samba: Canasta with three packs, escaleras (sequences of one suit) and several sets of a rank.

Source (the default): ``shared/rules/triple-play-samba-burraco-mille-hand-and-foot-classic.txt``,
section "Samba" ("Denexa"). Where ``encyclopedia-canasta-and-variants.txt`` ("Encyclopedia",
section "Samba") disagrees, its reading is a named option. Every point the texts leave open and
the default chosen is listed in docs/variants/samba.md.

The engine plays Samba through the meld-id mechanisms (``MELD_IDS``: several sets of a rank,
escaleras as runs) with Classic's turn switched on for them (``CLASSIC_TURN``: the frozen pile
and its take conditions, red threes, the initial-meld minimum, "may I go out?"; see
``canasta/engine/idturn.py``) and these hooks: ``arrange_meld``, ``add_arrangement``,
``minimum``, ``score_team``, ``game_won``.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, ClassVar

from canasta.cards import JOKER, NUM_CODES, rank_of
from canasta.runs import Arrangement, is_wild
from canasta.variants.base import Option, Variant, standard_deck, with_defaults

SOURCE = "Denexa 'Samba'"

SAMBA_OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("samba_bonus", 500, "bonus for a samba (a seven-card escalera)",
      "Denexa 'Samba': 'Natural canastas and sambas: 500 points each'; Encyclopedia 'Samba': "
      "'this is a samba and is worth 1,500 points'", (500, 1500)),
    Option("top_minimum", 160, "initial-meld minimum of a side with 7,000 points or more",
      "Denexa 'Samba': '7,000-9,999 160'; Encyclopedia 'Samba': 'The minimum initial meld is 150 if a "
      "partnership has 7,000 or more'", (150, 160)),
    Option("target_score", 10000, "score that ends the game (the deal is played out)",
      "Denexa 'Samba': 'the first partnership to reach the lofty score of 10,000 points'", minimum=1, maximum=1000000),
    Option("going_out_bonus", 200, "bonus for going out", "Denexa 'Samba': 'Going out: 200 points'", minimum=0, maximum=1000),
    Option("failed_go_out_penalty", 100, "penalty when a player told 'yes' to 'may I go out?' does not go out",
      "Denexa 'Samba': 'Not being able to go out after having asked \"May I go out?\": -100 points'", minimum=0, maximum=1000),
    Option("retract_raises_minimum", 10,
      "points added to the side's minimum for the deal when an insufficient initial meld is retracted",
      "not in the Samba texts: Classic Canasta's rule (Bicycle 'Insufficient Melds')", minimum=0, maximum=200),
]}


class Samba(Variant):
    name: ClassVar[str] = "samba"
    title: ClassVar[str] = "Samba"
    description: ClassVar[str] = (
        "Canasta with three packs, 15 cards each, escaleras (sequences of one suit) and sambas, "
        "several sets of a rank, two seven-card melds to go out, and 10,000 to win."
    )
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[dict[str, Option]] = SAMBA_OPTIONS
    #: The text each refusal cites (Variant.RULE_SOURCES): Denexa's 'Samba' page, by section.
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        "pile-blocked": "Denexa 'Samba', 'Freezing the discard pile'; black 3s: 'Card ranks and scoring'",
        "pile-frozen": "Denexa 'Samba', 'Freezing the discard pile'",
        "take-naturals": "Denexa 'Samba', 'Play of the hand'",
        "take-cards": "Denexa 'Samba', 'Play of the hand': 'the top card of the discard pile can, by itself, be "
                      "legally added to a meld ... or they hold two other natural cards of the same rank'",
        "take-top-card": "Denexa 'Samba', 'Melding'",
        "forced-take": "Denexa 'Samba', 'Depletion of the stock'",
        "no-discard": "Denexa 'Samba', 'Depletion of the stock'",
        "minimum-count": "Denexa 'Samba', 'The initial meld': 'Players are required to meet a point threshold the "
                         "first time their partnership melds'",
        "cannot-go-out": "Denexa 'Samba', 'Going out': 'a partnership must have formed at least two seven-card "
                         "melds (canastas or sambas)'",
        "meld-invalid": "Denexa 'Samba', 'Melding': 'A set consists of three to seven cards of the same rank. An "
                        "escalera is made up of three to seven cards of the same suit, in consecutive order'",
        "wild-limit": "Denexa 'Samba', 'Melding': 'Any given set may not contain more than two wild cards. Wild "
                      "cards can only be used in sets; they are prohibited in escaleras'",
        "canasta-closed": "Denexa 'Samba', 'Canastas and sambas': 'No more cards can be added to a canasta or "
                          "samba'",
        "red-three": "Denexa 'Samba', 'Card ranks and scoring': 'Red 3s serve as bonus cards'",
        "black-three-timing": "Denexa 'Samba', 'Card ranks and scoring'",
        "merge-order": "Denexa 'Samba', 'Melding'",
        "merge-sets": "Denexa 'Samba', 'Melding'",
        "merge-rank": "Denexa 'Samba', 'Melding'",
    }

    # -- engine mechanisms switched on ------------------------------------------
    MELD_IDS: ClassVar[bool] = True
    #: Classic's turn on meld ids: frozen pile, red threes, minimum, "may I go out?" (engine/idturn.py)
    CLASSIC_TURN: ClassVar[bool] = True
    EXTRA_PILES: ClassVar[int] = 0
    #: Sets: 'three to seven cards of the same rank' (black threes only when going out).
    SET_RANKS: ClassVar[tuple[int, ...]] = tuple(range(4, 15))
    #: 'Any given set may not contain more than two wild cards.'
    MAX_WILDS: ClassVar[int] = 2
    #: Not in the Samba texts; Classic's 'at least two natural cards' (docs/variants/samba.md).
    MIN_NATURALS: ClassVar[int] = 2
    #: 'Melds are capped at a maximum size of seven cards.'
    CANASTA_SIZE: ClassVar[int] = 7
    #: 'A player may combine two existing sets into one big set, although they cannot divide a larger
    #: set into smaller ones. (Escaleras may not be merged or split.)': the ``merge #a #b`` action.
    MERGE_SETS: ClassVar[bool] = True
    #: Italian: 'The discard pile is always frozen.'
    ALWAYS_FROZEN: ClassVar[bool] = False
    #: Italian: melds of deuces (2s as naturals) and the rule on deuces as wild cards.
    DEUCE_SETS: ClassVar[bool] = False
    #: 'a partnership must have formed at least two seven-card melds (canastas or sambas)'
    CANASTAS_TO_GO_OUT: ClassVar[int] = 2
    #: Melds of wild cards only (Bolivian's bolivias) and their bonus.
    WILD_SETS: ClassVar[bool] = False
    BOLIVIA: ClassVar[int] = 0
    #: Brazilian: 'If a side has a sequence of five cards or less, it loses 1,000.'
    SHORT_SEQUENCE_PENALTY: ClassVar[int] = 0
    #: Value of a black three left in hand (Bolivian: 100).
    BLACK_THREE_IN_HAND: ClassVar[int] = 5

    #: 'Jokers ... 50 points each. 2s ... 20. Aces: 20. Ks-8s: 10. 7s-4s: 5. Black 3s ... 5 points.'
    RANK_VALUES: ClassVar[dict[int, int]] = {
        2: 20, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 10, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10, 14: 20,
    }
    JOKER_VALUE: ClassVar[int] = 50
    NATURAL_CANASTA: ClassVar[int] = 500
    MIXED_CANASTA: ClassVar[int] = 300
    RED_THREE_BONUS: ClassVar[int] = 100
    #: 'If you collect all six, they score 1,000 for the whole set.'
    ALL_RED_THREES: ClassVar[int] = 1000
    #: Packs shuffled together (Chilean: an option, 3 or 4).
    DECKS: ClassVar[int] = 3
    #: (lowest cumulative score, minimum); below 0: 15 (Denexa table).
    MINIMUM_TABLE: ClassVar[tuple[tuple[int, int], ...]] = ((0, 50), (1500, 90), (3000, 120), (7000, 160))
    NEGATIVE_MINIMUM: ClassVar[int] = 15

    def bind(self) -> None:
        r = self.rules
        self.hand_size: int = 15
        self.draw_count: int = 1
        self.target_score: int = r["target_score"]
        self.canastas_to_go_out: int = self.CANASTAS_TO_GO_OUT
        self.natural_canastas_to_go_out: int = 0
        self.stock_end: int = -1  # the hand does not end on a stock count (idmelds' Burraco rule)
        values = [0] * NUM_CODES
        for code in range(8, 60):
            values[code] = self.RANK_VALUES[rank_of(code)]
        values[JOKER] = self.JOKER_VALUE
        self.values: list[int] = values
        self.decks: int = self.rules.get("decks", self.DECKS)
        #: 'If you collect all six': every red three of the pack
        self.red_threes_in_pack: int = 2 * self.decks
        self.hand_values: list[int] = list(values)
        self.hand_values[12] = self.hand_values[15] = self.BLACK_THREE_IN_HAND
        table = list(self.MINIMUM_TABLE)
        table[-1] = (table[-1][0], r["top_minimum"])
        self.minimum_table: tuple[tuple[int, int], ...] = tuple(table)

    def deck(self) -> list[int]:
        """'162 cards in all ... shuffle together three decks ... being sure to include the jokers.'"""
        return standard_deck(self.decks, 2 * self.decks)

    # -- melds -------------------------------------------------------------------
    def arrange_meld(self, cards: tuple[int, ...] | list[int]) -> tuple[str, Arrangement] | str:
        """('set' | 'run', arrangement) of a whole meld, or why it is not one.

        'A set consists of three to seven cards of the same rank. An escalera is made up of three
        to seven cards of the same suit, in consecutive order. For the purposes of escaleras, aces
        rank high, and the cards proceed in their usual order down to the 4.'
        """
        cs = list(cards)
        if len(cs) < 3:
            return "a meld needs at least three cards"
        if len(cs) > self.CANASTA_SIZE:
            return "melds are capped at a maximum size of seven cards"
        nat = [c for c in cs if not is_wild(c)]
        wilds = len(cs) - len(nat)
        if not nat:
            if self.WILD_SETS:  # Bolivian: 'Wild card canastas (bolivias)'
                return "set", (tuple(cs), -1, 0)
            return "wild cards can only be used in sets, with natural cards"
        ranks = {c >> 2 for c in nat}
        if len(ranks) == 1:
            rank = ranks.pop()
            if rank == 3:
                if any(c in (13, 14) for c in nat):
                    return "red threes are laid out, never melded"
                if wilds:
                    return "black threes meld without wild cards"
                return "set", (tuple(cs), -1, 0)
            if wilds > self.MAX_WILDS:
                return "any given set may not contain more than two wild cards"
            if len(nat) < self.MIN_NATURALS:
                return "a set needs at least two natural cards"
            return "set", (tuple(cs), -1, 0)
        return _escalera(cs, wilds)

    def add_arrangement(self, kind: str, cards: list[int], wilds: int,
                        c: int) -> tuple[str, Arrangement] | None:
        """The meld after adding card ``c`` to a meld of ``kind`` with ``cards``, or None."""
        if len(cards) >= self.CANASTA_SIZE:
            return None  # 'No more cards can be added to a canasta or samba.'
        if kind == "set":
            rank = next((x >> 2 for x in cards if not is_wild(x)), 0)
            if rank == 0:  # a meld of wild cards only (Bolivian's bolivia)
                return ("set", ((*cards, c), -1, 0)) if is_wild(c) else None
            if is_wild(c):
                if rank == 3 or wilds >= self.MAX_WILDS:
                    return None
            elif c >> 2 != rank:
                return None
            return "set", ((*cards, c), -1, 0)
        got = _escalera([*cards, c], 0 if not is_wild(c) else 1)
        return None if isinstance(got, str) else got

    def merge_problem(self, game: Any, side: int, a: Any, b: Any) -> tuple[str, str] | None:
        """(rule, reason) why sets ``a`` and ``b`` of ``side`` may not be combined, beyond the
        size and wild-card limits of the combined set (checked by ``arrange_meld``), or None."""
        return None

    def initial_canasta(self, score: int) -> str | None:
        """A canasta the initial meld must include at this score: None (Samba), 'any' or 'natural'."""
        return None

    def going_out_problem(self, sevens: int, runs: int) -> str | None:
        """Why a side with ``sevens`` seven-card melds (``runs`` of them sambas) may not go out, or None.

        'In order to go out, a partnership must have formed at least two seven-card melds (canastas or sambas).'
        """
        if sevens < self.CANASTAS_TO_GO_OUT:
            return ("in order to go out, a partnership must have formed at least two seven-card melds "
                    "(canastas or sambas)")
        return None

    # -- scoring and the game ------------------------------------------------------
    def minimum(self, score: int) -> int:
        """Denexa 'The initial meld values'; 'Below 0 15*'."""
        if score < 0:
            return self.NEGATIVE_MINIMUM
        need = 0
        for low, m in self.minimum_table:
            if score >= low:
                need = m
        return need

    def score_team(self, *, melds: list[tuple[str, list[int], int]], red_threes: int, all_red_threes: bool,
                   hands: list[list[int]], went_out: bool,
                   penalties: list[tuple[str, int]] | None = None) -> dict[str, Any]:
        """Score one partnership (Denexa 'Scoring'): melds are (kind, cards, wild cards)."""
        values = self.values
        items: dict[str, int] = {}
        items["melded_cards"] = sum(values[c] for _, cards, _ in melds for c in cards)
        items["cards_in_hand"] = -sum(self.hand_values[c] for hand in hands for c in hand)
        natural = mixed = sambas = bolivias = 0
        sevens = 0
        for kind, cards, wilds in melds:
            if len(cards) < self.CANASTA_SIZE:
                continue
            sevens += 1
            if kind == "run":
                sambas += self.rules["samba_bonus"]
            elif wilds == len(cards):
                bolivias += self.BOLIVIA  # (Italian's canastas of deuces: counted below)
            elif wilds:
                mixed += self.MIXED_CANASTA
            else:
                natural += self.NATURAL_CANASTA
        items["natural_canastas"] = natural
        items["mixed_canastas"] = mixed
        items["sambas"] = sambas
        if self.WILD_SETS:
            items["bolivias"] = bolivias
        if self.DEUCE_SETS:  # Italian: canastas of deuces melded as naturals
            items["deuce_canastas"] = self.rules["deuce_canasta"] * sum(
                1 for kind, cards, _ in melds if kind == "set" and len(cards) >= self.CANASTA_SIZE
                and all(8 <= c <= 11 for c in cards))
        reds = self.red_three_points(red_threes, all_red_threes)
        # 'If a partnership has not completed at least two seven-card melds, they score -100 for
        # each red 3, or -1,000 for all six.'
        items["red_threes"] = reds if sevens >= self.CANASTAS_TO_GO_OUT else -reds
        items["going_out"] = self.rules["going_out_bonus"] if went_out else 0
        short = self.SHORT_SEQUENCE_PENALTY
        if short:
            items["short_sequence"] = -short if any(kind == "run" and len(cards) <= 5 for kind, cards, _ in melds) else 0
        for name, points in penalties or []:
            items[name] = items.get(name, 0) + points
        return {"total": sum(items.values()), "items": items}

    def red_three_points(self, count: int, all_held: bool) -> int:
        """'100 points each ... If you collect all six, they score 1,000 for the whole set.'"""
        return self.ALL_RED_THREES if all_held else self.RED_THREE_BONUS * count

    def game_won(self, scores: list[int]) -> int | None:
        """'If one or both partnerships has exceeded a score of 10,000, the partnership with the
        higher score at that point wins the game' (a tie at the top plays another deal)."""
        top = max(scores)
        if top >= self.target_score and scores.count(top) == 1:
            return scores.index(top)
        return None


def _escalera(cs: list[int], wilds: int) -> tuple[str, Arrangement] | str:
    if wilds:
        return "wild cards can only be used in sets; they are prohibited in escaleras"
    suits = {c & 3 for c in cs}
    ranks = sorted(c >> 2 for c in cs)
    if len(suits) > 1:
        if len(set(ranks)) == 1:
            return "a set is cards of one rank"
        return "a meld is a set of one rank or an escalera of one suit"
    if ranks[0] == 3:
        return "black threes cannot be used in escaleras"
    if ranks[0] < 4:
        return "in an escalera aces rank high, and the cards proceed in their usual order down to the 4"
    if any(b != a + 1 for a, b in pairwise(ranks)):
        return "an escalera is cards of one suit in consecutive order"
    order = tuple(sorted(cs))
    return "run", (order, -1, ranks[0])


class Bolivian(Samba):
    """Encyclopedia 'Bolivian Canasta': 'similar to Samba, as it uses three decks and sequence melds. Play is
    to 15,000. Wild card canastas (bolivias) count 2,500. A side must have a samba (called escalera in this
    game) and at least one other canasta to go out. Red threes only count positive if two or more canastas
    have been melded. Black threes are negative 100 instead of negative 5 when left in hand.'

    Everything else is Samba's (docs/variants/bolivian.md)."""

    name: ClassVar[str] = "bolivian"
    title: ClassVar[str] = "Bolivian Canasta"
    description: ClassVar[str] = (
        "Samba to 15,000 with bolivias (canastas of wild cards, 2500); going out needs an escalera "
        "of seven and another canasta; a black three left in hand costs 100."
    )
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        **Samba.RULE_SOURCES,
        "cannot-go-out": "Encyclopedia 'Bolivian Canasta': 'A side must have a samba (called escalera in this "
                         "game) and at least one other canasta to go out'",
        "meld-invalid": "Denexa 'Samba', 'Melding'; Encyclopedia 'Bolivian Canasta': 'Wild card canastas "
                        "(bolivias)'",
    }
    options: ClassVar[dict[str, Option]] = with_defaults(
        SAMBA_OPTIONS, "Encyclopedia 'Bolivian Canasta': 'Play is to 15,000'", target_score=15000)
    WILD_SETS: ClassVar[bool] = True
    BOLIVIA: ClassVar[int] = 2500
    BLACK_THREE_IN_HAND: ClassVar[int] = 100

    def going_out_problem(self, sevens: int, runs: int) -> str | None:
        """'A side must have a samba (called escalera in this game) and at least one other canasta to go out.'"""
        if runs < 1 or sevens < 2:
            return "a side must have an escalera of seven cards and at least one other canasta to go out"
        return None


class Brazilian(Bolivian):
    """Encyclopedia 'Brazilian Canasta': 'Similar to Bolivia, but only to 10,000. The minimum meld requirements
    are 150 from 5,000 to 7,000; a canasta from 7,000 to 8,000; 200 from 8,000 to 9,000; and a natural canasta
    from 9,000 up. Wild card canastas count 2,000. Partnerships receive 1,000 for five red threes and 1,200 for
    all six. If a side has a sequence of five cards or less, it loses 1,000.' Everything else is Bolivian's
    (docs/variants/brazilian.md)."""

    name: ClassVar[str] = "brazilian"
    title: ClassVar[str] = "Brazilian Canasta"
    description: ClassVar[str] = (
        "Bolivian Canasta to 10,000 with bolivias worth 2000, initial melds up to a natural canasta, "
        "1000/1200 for five/six red threes, and 1000 lost for a short sequence."
    )
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        **Bolivian.RULE_SOURCES,
        "minimum-count": "Encyclopedia 'Brazilian Canasta': 'The minimum meld requirements are 150 from 5,000 to "
                         "7,000; a canasta from 7,000 to 8,000; 200 from 8,000 to 9,000; and a natural canasta "
                         "from 9,000 up'",
    }
    options: ClassVar[dict[str, Option]] = with_defaults(
        SAMBA_OPTIONS, "Encyclopedia 'Brazilian Canasta': 'Similar to Bolivia, but only to 10,000'",
        target_score=10000)
    BOLIVIA: ClassVar[int] = 2000
    SHORT_SEQUENCE_PENALTY: ClassVar[int] = 1000
    #: Below 5,000 the text is silent: Samba's table. 7,000-8,000 and 9,000 up: a canasta (no points).
    MINIMUM_TABLE: ClassVar[tuple[tuple[int, int], ...]] = (
        (0, 50), (1500, 90), (3000, 120), (5000, 150), (7000, 0), (8000, 200), (9000, 0))

    def bind(self) -> None:
        super().bind()
        self.minimum_table = self.MINIMUM_TABLE  # Samba's top_minimum option does not apply

    def initial_canasta(self, score: int) -> str | None:
        """'a canasta from 7,000 to 8,000 ... and a natural canasta from 9,000 up'."""
        if score >= 9000:
            return "natural"
        if 7000 <= score < 8000:
            return "any"
        return None

    def red_three_points(self, count: int, all_held: bool) -> int:
        """'Partnerships receive 1,000 for five red threes and 1,200 for all six' (fewer: Samba's 100 each)."""
        if count >= 6:
            return 1200
        if count == 5:
            return 1000
        return self.RED_THREE_BONUS * count


CHILEAN_OPTIONS: dict[str, Option] = {
    **SAMBA_OPTIONS,
    "decks": Option("decks", 3, "packs shuffled together (with their jokers): 3 (162 cards) or 4 (216 cards)",
                    "Encyclopedia 'Chilean Canasta': 'Can be played with either three decks (162 cards) or four "
                    "decks (216 cards)'", (3, 4)),
}


class Chilean(Samba):
    """Encyclopedia 'Chilean Canasta': 'Allows both sambas and bolivias. Can be played with either three decks
    (162 cards) or four decks (216 cards)'. Everything else is Samba's; bolivias as in Bolivian
    (docs/variants/chilean.md)."""

    name: ClassVar[str] = "chilean"
    title: ClassVar[str] = "Chilean Canasta"
    description: ClassVar[str] = (
        "Samba with bolivias (canastas of wild cards, 2500) as well as sambas, "
        "played with three or four packs."
    )
    options: ClassVar[dict[str, Option]] = CHILEAN_OPTIONS
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        **Samba.RULE_SOURCES,
        "meld-invalid": "Denexa 'Samba', 'Melding'; Encyclopedia 'Chilean Canasta': 'Allows both sambas and "
                        "bolivias'",
    }
    WILD_SETS: ClassVar[bool] = True
    BOLIVIA: ClassVar[int] = Bolivian.BOLIVIA


ITALIAN_TEXT = ("Encyclopedia 'Italian Canasta': 'Italian canasta is a Samba variant. The number of cards in the "
                "discard pile at the beginning of the game varies with the initial card turned up. The discard pile "
                "is always frozen. Deuces may, but a partnership may not play deuces as wild cards if deuces have "
                "been melded and a canasta is incomplete. Game is to 15,000'")

ITALIAN_OPTIONS: dict[str, Option] = {
    **with_defaults(SAMBA_OPTIONS, "Encyclopedia 'Italian Canasta': 'Game is to 15,000'", target_score=15000),
    "start_pile": Option(
        "start_pile", "pips", "the discard pile at the start: 'pips' (the upcard on top of as many more cards "
        "from the stock as its number: ace 1, 2-10 their number, J/Q/K 10, joker 0) or 'upcard' (Samba's "
        "single upcard)",
        "Encyclopedia 'Italian Canasta': 'The number of cards in the discard pile at the beginning of the game "
        "varies with the initial card turned up' (the count is this project's reading)", ("pips", "upcard")),
    "deuce_rule": Option(
        "deuce_rule", "deuce_meld", "when a side may not play 2s as wild cards: 'deuce_meld' (while one of its "
        "melds of deuces is short of seven cards) or 'no_canasta' (while it has a meld of deuces and no "
        "seven-card meld at all)",
        "Encyclopedia 'Italian Canasta': 'a partnership may not play deuces as wild cards if deuces have been "
        "melded and a canasta is incomplete' (which canasta: this project's reading)", ("deuce_meld", "no_canasta")),
    "deuce_canasta": Option(
        "deuce_canasta", 500, "bonus for a canasta of seven deuces (a natural canasta's 500 by default)",
        "not in the text: 'Deuces may' be melded as naturals, so their canasta is a natural canasta", minimum=0, maximum=5000),
}


class Italian(Samba):
    """Encyclopedia 'Italian Canasta' (quoted in ``ITALIAN_TEXT``): Samba with a starting pile whose size
    depends on the upcard, a pile that is always frozen, melds of deuces and the deuce rule, to 15,000.
    Everything else is Samba's; the points the text leaves open are in docs/variants/italian.md."""

    name: ClassVar[str] = "italian"
    title: ClassVar[str] = "Italian Canasta"
    description: ClassVar[str] = (
        "Samba to 15,000 with a starting pile sized by the upcard, a discard pile always frozen, and melds "
        "of deuces (no 2 plays wild while the side's deuce meld is short of a canasta)."
    )
    options: ClassVar[dict[str, Option]] = ITALIAN_OPTIONS
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        **Samba.RULE_SOURCES,
        "pile-frozen": "Encyclopedia 'Italian Canasta': 'The discard pile is always frozen'",
        "deuce-wild": "Encyclopedia 'Italian Canasta': 'a partnership may not play deuces as wild cards if deuces "
                      "have been melded and a canasta is incomplete'",
    }
    #: 'The discard pile is always frozen.'
    ALWAYS_FROZEN: ClassVar[bool] = True
    #: 'Deuces may [be melded]': sets of 2s only, as naturals.
    DEUCE_SETS: ClassVar[bool] = True

    def start_pile_extra(self, up: int) -> int:
        """'The number of cards in the discard pile at the beginning of the game varies with the initial card
        turned up': this many more cards from the stock go under the upcard (option ``start_pile``)."""
        if self.rules["start_pile"] == "upcard" or up == JOKER:
            return 0
        r = rank_of(up)
        return 1 if r == 14 else min(r, 10)

    def arrange_meld(self, cards: tuple[int, ...] | list[int]) -> tuple[str, Arrangement] | str:
        """Samba's melds and melds of deuces: 'Deuces may' (three to seven 2s, no joker)."""
        cs = list(cards)
        if cs and all(is_wild(c) for c in cs):
            if not all(_is_two(c) for c in cs):
                return "a meld of deuces holds deuces only (no joker)"
            if len(cs) < 3:
                return "a meld needs at least three cards"
            if len(cs) > self.CANASTA_SIZE:
                return "melds are capped at a maximum size of seven cards"
            return "set", (tuple(cs), -1, 0)
        return super().arrange_meld(cs)

    def add_arrangement(self, kind: str, cards: list[int], wilds: int,
                        c: int) -> tuple[str, Arrangement] | None:
        if kind == "set" and cards and wilds == len(cards) and all(_is_two(x) for x in cards):
            if len(cards) >= self.CANASTA_SIZE or not _is_two(c):
                return None
            return "set", ((*cards, c), -1, 0)
        return super().add_arrangement(kind, cards, wilds, c)

    def deuces_barred(self, game: Any, side: int) -> bool:
        """'a partnership may not play deuces as wild cards if deuces have been melded and a canasta is
        incomplete' (option ``deuce_rule``)."""
        deuce_melds = [m for m in game.melds[side].values() if m.kind == "set" and m.rank == 0 and m.cards
                       and all(_is_two(c) for c in m.cards)]  # (a set of wild cards only has rank 0)
        if not deuce_melds:
            return False
        if self.rules["deuce_rule"] == "no_canasta":
            return not any(len(m.cards) >= self.CANASTA_SIZE for m in game.melds[side].values())
        return any(len(m.cards) < self.CANASTA_SIZE for m in deuce_melds)

    def deuce_problem(self, game: Any, side: int, meld_cards: Any, cards: tuple[int, ...]) -> str | None:
        """Why the meld or addition of ``cards`` (making a meld of ``meld_cards``) plays a deuce as a wild
        card while that is barred, or None."""
        if not any(_is_two(c) for c in cards) or all(_is_two(c) for c in meld_cards):
            return None
        if not self.deuces_barred(game, side):
            return None
        if self.rules["deuce_rule"] == "no_canasta":
            return ("'a partnership may not play deuces as wild cards if deuces have been melded and a canasta is "
                    "incomplete': your side has melded deuces and has no canasta yet")
        return ("'a partnership may not play deuces as wild cards if deuces have been melded and a canasta is "
                "incomplete': complete your side's meld of deuces first")


def _is_two(code: int) -> bool:
    return 8 <= code <= 11


__all__ = ["CHILEAN_OPTIONS", "ITALIAN_OPTIONS", "SAMBA_OPTIONS", "Bolivian", "Brazilian", "Chilean", "Italian",
           "Samba"]
