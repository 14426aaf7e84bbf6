"""Mille: a two-player rummy of the Canasta family, usually played for money.

Source (``shared/rules``): triple-play-samba-burraco-mille-hand-and-foot-classic.txt,
section "Mille" ("Denexa"). Mille is built on the Classic engine: the Classic table
rules the engine reads are *fixed* to Mille's values (:data:`FIXED_RULES`: they are not
options of Mille), the few points the text leaves open are :data:`MILLE_OPTIONS`, and
the differences are class flags and hooks (threes are an ordinary rank, melds of a rank
join, 2s meld without limit and as a meld of 2s, the scoring with naturals, the stakes).
docs/variants/mille.md lists every rule with its sentence and every open point.
"""

from __future__ import annotations

from typing import Any, ClassVar

from canasta.cards import DIAMONDS, NUM_CODES, SPADES, TWO, card, rank_of
from canasta.errors import OptionError
from canasta.variants.base import Option, SideScore, standard_deck
from canasta.variants.classic import Classic

#: Classic table rules with the value Mille gives them; they are not options of Mille.
FIXED_RULES: dict[str, Any] = {
    "hand_size": 15,                  # 'Shuffle and deal fifteen cards to each player.'
    "draw_count": 1,                  # 'they draw one card from the stock'
    "canastas_to_go_out": 0,          # no canastas in Mille
    "natural_canastas_to_go_out": 0,
    "wild_limit": "three",            # unused: wild_capacity is unlimited
    "black_three_freezes": False,     # threes are an ordinary rank
    "black_three_upcard_covered": False,  # 'Turn one card face up from the stock.'
    "always_frozen": True,            # the pile is taken only with two naturals
    "frozen_pile_add_to_meld": False,
    "negative_minimum": 0,            # no initial meld minimum
    "fifty_below_1500": False,
    "retract_raises_minimum": 0,
    "concealed_rule": "player",
    "concealed_bonus": 0,             # no bonus for going out
    "going_out_bonus": 0,
    "seven_canastas_win": False,
    "wild_canastas": True,            # 'Three or more 2s can also be laid down as a meld of 2s'
    "jokers": 0,                      # '(Unlike Canasta, Mille does not use jokers.)'
    "seven_of_each": False,
    "stock_reshuffle": True,          # 'the remainder of the discard pile is shuffled ... to form a new stock'
    "stock_out": "optional",          # stock and pile used up: take the pile if able, or the hand ends
    "red_three_last_card": "end",     # unused: no red threes
    "only_top_card_usable": False,
    "failed_go_out_penalty": 0,       # nobody to ask
}

MILLE_OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("target_score", 1200, "score that ends the game (the final hand is played out; a tie on top plays another hand)",
           "Denexa 'Mille': 'The game ends when one player has scored 1,200 or more.'", minimum=1, maximum=1000000),
    Option("stakes_small", 0, "the smaller stake, paid per 100 points of difference; 0 (with stakes_large 0) means "
           "not playing for money", "Denexa: 'Stakes are typically expressed as two dollar amounts, the second three "
           "times as much as the first, e.g. $1-$3'", minimum=0, maximum=1000),
    Option("stakes_large", 0, "the larger stake, paid for losing, per natural of the winner and per chapeau of the "
           "loser; 0 means three times stakes_small", "Denexa: 'The larger amount once for losing the game.'", minimum=0, maximum=1000),
    Option("double_skunk", "negative_total", "a double skunk is a loser whose game score is negative ('negative_total') "
           "or whose score for the last hand is negative ('negative_last_hand', the literal words)",
           "Denexa: 'If the losing player ended the hand with a negative score, it is a double skunk.'",
           ("negative_total", "negative_last_hand")),
    Option("restock_limit", 5, "times the stock may be rebuilt from the pile in one hand; after that a player who "
           "cannot draw takes the pile if able or ends the hand (nobody goes out); 0: no limit, as the text "
           "(a hand can then go on for ever when neither player can meld their last cards)",
           "Denexa: 'If the stock is depleted, the upcard is set aside and the remainder of the discard pile is "
           "shuffled and turned face down to form a new stock.' (no limit given)", minimum=0, maximum=20),
    Option("meld_min_naturals", 1, "natural cards a new meld needs; the text sets no minimum (2s 'may be melded "
           "alongside any other combination of cards'), 2 as in Canasta",
           "Denexa: '2s are considered wild cards, and may be melded alongside any other combination of cards.'",
           (1, 2)),
]}

#: 'Q♠: 100 points, J♦: 50 points, Aces: 15, K-10: 10, 9-3: 5, 2s: 20'
RANK_VALUES: dict[int, int] = {2: 20, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5, 8: 5, 9: 5,
                               10: 10, 11: 10, 12: 10, 13: 10, 14: 15}
QUEEN_OF_SPADES = card(12, SPADES)
JACK_OF_DIAMONDS = card(11, DIAMONDS)


def round_to_hundred(score: int) -> int:
    """'round the scores to the nearest 100': halves go away from zero (550 -> 600, -50 -> -100)."""
    sign = -1 if score < 0 else 1
    return sign * ((abs(score) + 50) // 100 * 100)


class Mille(Classic):
    """Denexa 'Mille': two players alone, 104 cards, melds of a rank with 2s wild, game to 1200."""

    name: ClassVar[str] = "mille"
    title: ClassVar[str] = "Mille"
    description: ClassVar[str] = (
        "A two-player game from Quebec: 104 cards without jokers, one meld per rank with 2s wild, "
        "the pile taken only with two naturals, doubled scores for naturals, 1200 to win, played for stakes."
    )
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    options: ClassVar[dict[str, Option]] = MILLE_OPTIONS
    fixed_rules: ClassVar[dict[str, Any]] = FIXED_RULES

    RANK_VALUES: ClassVar[dict[int, int]] = RANK_VALUES
    HAS_CANASTAS: ClassVar[bool] = False
    THREES_ORDINARY: ClassVar[bool] = True
    MELDS_JOIN: ClassVar[bool] = True
    #: a meld of 2s may hold all eight 2s of the pack
    WILD_MELD_MAX: ClassVar[int] = 8
    RESTOCK_KEEPS_UPCARD: ClassVar[bool] = True
    RULE_SOURCES: ClassVar[dict[str, str]] = {
        **Classic.RULE_SOURCES,
        "meld-rank": "Denexa 'Mille': 'A meld consists of three or more cards of the same rank'",
        "meld-size": "Denexa 'Mille': 'A meld consists of three or more cards of the same rank'",
        "meld-naturals": "Denexa 'Mille': '2s are considered wild cards, and may be melded alongside any other "
                         "combination of cards'",
        "take": "Denexa 'Mille': 'If a player has two or more cards in their hand of the same rank as the upcard, "
                "they may immediately meld the upcard along with these cards, then take the entire discard pile'",
        "wild-meld": "Denexa 'Mille': 'Three or more 2s can also be laid down as a meld of 2s'",
        "wild-limit": "Denexa 'Mille'",
        # a minimum exists only by a table rule: Denexa sets none
        "minimum-count": "a table rule; Denexa 'Mille' sets no initial meld minimum",
    }
    FROZEN_PILE_TEXT: ClassVar[str | None] = (
        "(Denexa 'Mille': 'A 2 cannot be used to take the discard pile; this can only be done with two or more "
        "natural cards of the same rank as the upcard')")
    SKUNK_BELOW: ClassVar[int] = 600

    def player_default(self, key: str) -> Any:
        if key in self.fixed_rules:
            return self.fixed_rules[key]
        return self.options[key].default

    def bind(self) -> None:
        self.rules.update(self.fixed_rules)
        super().bind()
        values = [0] * NUM_CODES
        for code in range(8, 60):
            values[code] = self.RANK_VALUES[rank_of(code)]
        values[QUEEN_OF_SPADES] = 100
        values[JACK_OF_DIAMONDS] = 50
        self.values = values
        small = self.rules["stakes_small"]
        large = self.rules["stakes_large"] or 3 * small
        if small < 0 or large < 0:
            raise OptionError("stakes are amounts of money: 0 or more")
        self.stakes: tuple[int, int] | None = (small, large) if small or large else None
        if self.rules["restock_limit"] < 0:
            raise OptionError("restock_limit is a number of restocks: 0 (no limit) or more")
        self.restock_limit = self.rules["restock_limit"] or None

    def deck(self) -> list[int]:
        """'a 104-card deck formed by shuffling together two standard 52-card decks'."""
        return standard_deck(2, 0)

    # -- hooks -----------------------------------------------------------------
    def minimum(self, score: int) -> int:
        """No initial meld minimum: the text sets none."""
        return 0

    def wild_capacity(self, naturals: int, wilds: int, is_canasta: bool) -> int:
        """The text sets no limit on 2s in a meld."""
        return 99

    def min_naturals(self) -> int:
        return int(self.rules["meld_min_naturals"])

    def blocks_pile(self, code: int) -> bool:
        """A pile topped by a 2 cannot be taken: 'A 2 cannot be used to take the discard pile', and
        a 2 on top would need 2s to take it. Threes are ordinary cards."""
        return rank_of(code) == TWO

    def upcard_must_be_covered(self, code: int) -> bool:
        return False  # 'Turn one card face up from the stock. This card, the upcard, is the first card of the discard pile.'

    def upcard_freezes(self, code: int) -> bool:
        return False

    def meld_problem(self, cards: list[int]) -> str | None:
        """'A meld consists of three or more cards of the same rank'; 2s wild without limit;
        'Three or more 2s can also be laid down as a meld of 2s'."""
        if len(cards) < 3:
            return "a meld needs at least three cards"
        nat = [c for c in cards if rank_of(c) != TWO]
        if not nat:
            return None if len(cards) <= 8 else "a meld of 2s holds at most the eight 2s of the pack"
        if len({rank_of(c) for c in nat}) > 1:
            return "a meld is cards of one rank (plus 2s)"
        if len(nat) < self.min_naturals():
            return f"a meld must contain at least {self.min_naturals()} natural cards (table rule meld_min_naturals)"
        return None

    def score_hand(self, melds: list[tuple[int, list[int]]], hands: list[list[int]],
                   went_out: bool) -> SideScore | None:
        """Denexa 'Scoring': melded cards minus cards in hand, with the two kinds of natural.

        - a meld of all eight cards of one rank without 2s: 'the value of this meld is doubled';
        - no 2s melded except in a meld of 2s: 'the value of all of their melded cards is doubled';
        - both: 'the natural meld scores 4x the value of the cards, and all other cards score double'.
        Each natural is one asterisk (``naturals``); a negative hand score is a chapeau.
        A player who melded nothing has no natural (nothing was doubled).
        """
        values = self.values
        melded = 0
        natural_value = 0
        natural_melds = 0
        clean = bool(melds)
        for _, cards in melds:
            value = sum(values[c] for c in cards)
            melded += value
            twos = sum(1 for c in cards if rank_of(c) == TWO)
            if twos and twos < len(cards):
                clean = False  # a 2 in a meld other than a meld of 2s
            if not twos and len(cards) >= 8:
                natural_melds += 1
                natural_value += value
        in_hand = sum(values[c] for hand in hands for c in hand)
        items = {
            "melded_cards": melded,
            "natural_melds": natural_value * (2 if clean else 1),
            "no_twos_natural": melded if clean else 0,
            "cards_in_hand": -in_hand,
        }
        total = sum(items.values())
        return {"total": total, "items": items, "naturals": natural_melds + (1 if clean else 0),
                "chapeau": total < 0}

    def settle(self, scores: list[int], hand_results: list[dict[str, Any]],
               winner: int | None) -> dict[str, Any] | None:
        """Denexa 'Ending the game': skunks and, when playing for money, what the loser pays.

        'The larger amount once for losing the game; once for each natural scored by the winner;
        once for each of the loser's chapeaux. The smaller amount ... once for each 100-point
        difference in score ... round the scores to the nearest 100, subtract the smaller from the
        larger, and divide the difference by 100. In the event of a skunk, the payment is doubled;
        in the event of a double skunk, the payment is tripled.'
        """
        if winner is None or len(scores) != 2:
            return None
        loser = 1 - winner
        naturals = sum(int(h["sides"][winner].get("naturals", 0)) for h in hand_results)
        chapeaux = sum(1 for h in hand_results if h["sides"][loser].get("chapeau"))
        if self.rules["double_skunk"] == "negative_last_hand":
            double = bool(hand_results) and hand_results[-1]["sides"][loser]["total"] < 0
        else:
            double = scores[loser] < 0
        skunk = "double_skunk" if double else "skunk" if scores[loser] < self.SKUNK_BELOW else None
        multiplier = {None: 1, "skunk": 2, "double_skunk": 3}[skunk]
        rounded = [round_to_hundred(s) for s in scores]
        hundreds = abs(rounded[winner] - rounded[loser]) // 100
        out: dict[str, Any] = {
            "winner": winner, "loser": loser, "scores": list(scores), "rounded_scores": rounded,
            "winner_naturals": naturals, "loser_chapeaux": chapeaux, "hundreds": hundreds,
            "skunk": skunk, "multiplier": multiplier, "stakes": None, "payment": None, "items": {},
        }
        if self.stakes is not None:
            small, large = self.stakes
            items = {"losing": large, "winner_naturals": large * naturals,
                     "loser_chapeaux": large * chapeaux, "difference": small * hundreds}
            out["stakes"] = [small, large]
            out["items"] = items
            out["payment"] = sum(items.values()) * multiplier
        return out


__all__ = ["FIXED_RULES", "MILLE_OPTIONS", "Mille", "round_to_hundred"]
