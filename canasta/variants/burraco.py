"""Burraco: Canasta's Italian cousin with runs, one wild card per meld and the pozzetti.

Source: ``shared/rules/triple-play-samba-burraco-mille-hand-and-foot-classic.txt``,
section "Burraco" ("Denexa"). Where the text leaves a point open the default is
the nearest Classic reading and the other reading is an option; every such point
is listed in docs/variants/burraco.md.

The engine plays Burraco by the rule family its flag ``MELD_IDS`` chooses (``MeldIdGame``:
melds with ids and a kind, set or run), reading its data (``EXTRA_PILES``: face-down
piles a side picks up when a player runs out of cards; ``CLOSING``: going out
needs a discard and a hook's conditions) and these hooks: ``arrange_meld``,
``set_problem``, ``close_problem``, ``card_value``.
"""

from __future__ import annotations

from typing import ClassVar

from canasta.cards import JOKER, NUM_CODES, rank_of
from canasta.errors import OptionError
from canasta.runs import Arrangement, arrange_run, is_wild, set_problem
from canasta.variants.base import Option, Variant, standard_deck

SOURCE = "Denexa 'Burraco'"

BURRACO_OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("hand_size", 11, "cards dealt to each player",
      "Denexa 'Burraco': 'deals eleven cards to each player'", minimum=5, maximum=15),
    Option("pozzetto_size", 11, "cards in each pozzetto",
      "Denexa 'Burraco': 'makes two piles of eleven cards each. These two piles are called the pozzetti'", minimum=5, maximum=15),
    Option("clean_burraco_to_close", False,
      "closing needs a clean burraco (a common Italian table rule) instead of any burraco",
      "Denexa 'Burraco': 'That side has at least one burraco' (any kind: the default)"),
    Option("stock_end", 2, "the hand ends after the turn in which the stock is drawn down to this many cards",
      "Denexa 'Burraco': 'The hand also ends automatically if the stock is drawn down to two cards'", (0, 2)),
    Option("stalemate", True, "the hand ends after a full orbit of turns that only take a one-card pile and discard",
      "Denexa 'Burraco': 'After four turns (a complete orbit) of this, the hand ends'"),
    Option("target_reached", "reach", "the game ends when a side reaches the target ('reach', the Object) "
      "or only when it exceeds it ('exceed', the last paragraph)",
      "Denexa 'Burraco': 'score 2,000 points before your opponent' / 'until one partnership exceeds a score of 2,000'",
      ("reach", "exceed")),
    Option("target_score", 2000, "score that ends the game (the deal is played out)",
      "Denexa 'Burraco': 'The object of Burraco is to score 2,000 points'", minimum=1, maximum=1000000),
    Option("pozzetto_penalty", 100, "penalty for a side that did not pick up its pozzetto",
      "Denexa 'Burraco': 'If a partnership failed to pick up their pozzetto, they take a -100 point penalty'", minimum=0, maximum=1000),
    Option("closing_bonus", 100, "bonus for closing", "Denexa 'Burraco': 'Closing: 100 points'", minimum=0, maximum=1000),
]}


class Burraco(Variant):
    name: ClassVar[str] = "burraco"
    title: ClassVar[str] = "Burraco"
    description: ClassVar[str] = (
        "The Italian game of runs and sets with one wild card per meld: take the whole pile freely, "
        "run out of cards to pick up your pozzetto, close with a burraco, 2000 to win."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2, 4)
    options: ClassVar[dict[str, Option]] = BURRACO_OPTIONS
    #: The text each refusal cites (Variant.RULE_SOURCES): Denexa's 'Burraco' page, by section.
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        "take-whole-pile": "Denexa 'Burraco', 'Game play': 'when you draw from the discard, you take the entire "
                           "pile'",
        "one-card-pile": "Denexa 'Burraco', 'Game play'",
        "meld-invalid": "Denexa 'Burraco', 'Melding': 'the set, which is three or more cards of the same rank ... "
                        "the run or sequence, which is three or more consecutive cards of the same suit'",
        "duplicate-set": "Denexa 'Burraco', 'Melding': 'Each partnership can only have one set for each rank'",
        "wild-limit": "Denexa 'Burraco', 'Wild cards': 'Each meld can only contain one wild card'",
        "close-with-discard": "Denexa 'Burraco', 'Ending the hand'",
        "cannot-close": "Denexa 'Burraco', 'Ending the hand'",
        "add-one-card": "Denexa 'Burraco', 'Melding'",
    }

    # -- engine mechanisms switched on ------------------------------------------
    MELD_IDS: ClassVar[bool] = True
    EXTRA_PILES: ClassVar[int] = 2
    #: Sets: any rank from 3 to ace ('You cannot have a set of jokers or 2s').
    SET_RANKS: ClassVar[tuple[int, ...]] = tuple(range(3, 15))
    MAX_WILDS: ClassVar[int] = 1  # 'Each meld can only contain one wild card'
    CANASTA_SIZE: ClassVar[int] = 7  # 'Any meld of seven or more cards is called a burraco'

    #: 'Jokers: 30 points each. 2s: 20. Aces: 15. Ks-8s: 10. 7s-3s: 5.'
    RANK_VALUES: ClassVar[dict[int, int]] = {
        2: 20, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 10, 9: 10, 10: 10, 11: 10, 12: 10, 13: 10, 14: 15,
    }
    JOKER_VALUE: ClassVar[int] = 30
    CLEAN_BURRACO: ClassVar[int] = 200
    DIRTY_BURRACO: ClassVar[int] = 100

    def bind(self) -> None:
        r = self.rules
        self.hand_size: int = r["hand_size"]
        self.pozzetto_size: int = r["pozzetto_size"]
        self.draw_count: int = 1
        self.target_score: int = r["target_score"]
        self.stock_end: int = r["stock_end"]
        values = [0] * NUM_CODES
        for code in range(8, 60):
            values[code] = self.RANK_VALUES[rank_of(code)]
        values[JOKER] = self.JOKER_VALUE
        self.values: list[int] = values
        if self.num_players * self.hand_size + self.EXTRA_PILES * self.pozzetto_size + 10 > len(self.deck()):
            raise OptionError("those hands and pozzetti leave too few cards for a stock")

    def deck(self) -> list[int]:
        """'shuffle together two decks ... including the jokers. This will give you a 108-card deck.'"""
        return standard_deck(2, 4)

    # -- hooks -------------------------------------------------------------------
    def arrange_meld(self, cards: tuple[int, ...] | list[int]) -> tuple[str, Arrangement] | str:
        """('set' | 'run', arrangement) of a whole meld, or why it is not one."""
        why = set_problem(cards, self.MAX_WILDS)
        if why is None:
            return "set", (tuple(cards), -1, 0)
        got = arrange_run(cards, self.MAX_WILDS)
        if got is not None:
            return "run", got
        nat = [c for c in cards if not is_wild(c)]
        if len(cards) < 3:
            return "a meld needs at least three cards"
        if nat and len({c >> 2 for c in nat}) == 1 and len(nat) < len(cards) - self.MAX_WILDS:
            return why
        if not nat:
            return why
        if len({c & 3 for c in nat}) > 1 and len({c >> 2 for c in nat}) > 1:
            return "a meld is a set of one rank or a run of one suit"
        return ("not a run: a run is consecutive cards of one suit, the ace high or low but only one ace, "
                "with one wild card at most")

    def close_problem(self, *, piles_done: bool, burracos: int, clean_burracos: int, discard: int) -> str | None:
        """Why a side may not close with this final discard, or None ('Ending the hand')."""
        if not piles_done:
            return "your side must pick up its pozzetto before it can close"
        if self.rules["clean_burraco_to_close"]:
            if not clean_burracos:
                return "your side needs a clean burraco to close (table rule clean_burraco_to_close)"
        elif not burracos:
            return "your side needs at least one burraco to close"
        if is_wild(discard):
            return "the final discard cannot be a wild card"
        return None

    def burraco_kind(self, wilds: int) -> tuple[str, int]:
        """('clean' | 'dirty', bonus) of a burraco with ``wilds`` cards playing wild.

        'If a burraco has no wild cards, it is called a clean burraco. Otherwise, it is a dirty
        burraco'; a 2 played as its natural value in a run 'is not counted as a wild card'.
        """
        if wilds:
            return "dirty", self.DIRTY_BURRACO
        return "clean", self.CLEAN_BURRACO

    def minimum(self, score: int) -> int:
        """Burraco has no initial-meld minimum."""
        return 0

    def game_won(self, scores: list[int]) -> int | None:
        top = max(scores)
        reached = top > self.target_score if self.rules["target_reached"] == "exceed" else top >= self.target_score
        if reached and scores.count(top) == 1:
            return scores.index(top)
        return None
