"""Cards as small integers, with parsing and formatting in the text notation.

A card is ``rank * 4 + suit`` for the 52 suited cards (rank 2..14, ace high;
suit 0..3 = spades, hearts, diamonds, clubs) and :data:`JOKER` for a joker.
Hands and piles are count vectors indexed by card code (length
:data:`NUM_CODES`), because two or more decks hold several copies of a card and
the rules look at counts, not at identities.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from canasta.errors import NotationError

SUITS = "shdc"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_CHARS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
              8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen",
              13: "king", 14: "ace"}
PARSE_RANK = {v: k for k, v in RANK_CHARS.items()} | {"T": 10, "1": 14}

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO, THREE, ACE = 2, 3, 14
JOKER = 60
#: Pseudo-rank used for jokers in rank-indexed tables.
JOKER_RANK = 15
NUM_CODES = 61
#: Ranks that can form ordinary melds in the classic family (4 up to ace).
NATURAL_RANKS = tuple(range(4, 15))


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


#: The codes of the 2s (wild in every variant), and of the threes by colour.
TWO_CODES = tuple(card(TWO, suit) for suit in (SPADES, HEARTS, DIAMONDS, CLUBS))
BLACK_THREE_CODES = (card(THREE, SPADES), card(THREE, CLUBS))
RED_THREE_CODES = (card(THREE, HEARTS), card(THREE, DIAMONDS))
LOWEST_TWO, HIGHEST_TWO = min(TWO_CODES), max(TWO_CODES)


def is_two(code: int) -> bool:
    return LOWEST_TWO <= code <= HIGHEST_TWO


def is_wild_card(code: int) -> bool:
    """A joker or a 2: the wild cards of every variant of the family."""
    return code == JOKER or LOWEST_TWO <= code <= HIGHEST_TWO


def rank_of(code: int) -> int:
    """Rank 2..14 of a suited card, JOKER_RANK for a joker."""
    return JOKER_RANK if code == JOKER else code >> 2


def suit_of(code: int) -> int:
    """Suit 0..3, or -1 for a joker."""
    return -1 if code == JOKER else code & 3


def is_red(code: int) -> bool:
    return code != JOKER and (code & 3) in (HEARTS, DIAMONDS)


def is_red_three(code: int) -> bool:
    return code >> 2 == THREE and (code & 3) in (HEARTS, DIAMONDS) and code != JOKER


def is_black_three(code: int) -> bool:
    return code >> 2 == THREE and (code & 3) in (SPADES, CLUBS) and code != JOKER


def format_card(code: int) -> str:
    if code == JOKER:
        return "JK"
    if not 8 <= code < 60:
        raise NotationError(f"no card has code {code}")
    return RANK_CHARS[code >> 2] + SUITS[code & 3]


def parse_card(text: str) -> int:
    """Parse ``Ah``, ``10d``, ``Td``, ``3s`` or ``JK`` (case-insensitive)."""
    t = text.strip()
    if t.upper() in ("JK", "JOKER", "*"):
        return JOKER
    if len(t) < 2:
        raise NotationError(f"{text!r} is not a card (write e.g. Ah, 10d, Td, 3s, JK)")
    rank_text, suit_text = t[:-1].upper(), t[-1].lower()
    if rank_text not in PARSE_RANK or suit_text not in SUITS:
        raise NotationError(f"{text!r} is not a card (write e.g. Ah, 10d, Td, 3s, JK)")
    return card(PARSE_RANK[rank_text], SUITS.index(suit_text))


def parse_cards(texts: Iterable[str]) -> list[int]:
    return [parse_card(t) for t in texts]


def format_cards(codes: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in codes)


def parse_rank(text: str) -> int:
    """Parse a rank alone (``K``, ``10``, ``T``, ``A``, ``JK``) for meld targets."""
    t = text.strip().upper()
    if t in ("JK", "JOKER"):
        return JOKER_RANK
    if t in PARSE_RANK:
        return PARSE_RANK[t]
    raise NotationError(f"{text!r} is not a rank (write e.g. K, 10, A)")


def format_rank(rank: int) -> str:
    if rank == JOKER_RANK:
        return "JK"
    if rank not in RANK_CHARS:
        raise NotationError(f"no rank {rank}")
    return RANK_CHARS[rank]


def counts_of(codes: Iterable[int]) -> list[int]:
    counts = [0] * NUM_CODES
    for c in codes:
        counts[c] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[int]:
    """Expand a count vector into a sorted list of codes."""
    out: list[int] = []
    for code, n in enumerate(counts):
        if n:
            out.extend([code] * n)
    return out


def sort_key(code: int) -> tuple[int, int]:
    """Display order: by rank (jokers last), then suit."""
    return (rank_of(code), suit_of(code))


def build_deck(decks: int, jokers: int, drop_per_rank: int = 0) -> list[int]:
    """The cards of ``decks`` standard packs plus ``jokers`` jokers.

    ``drop_per_rank`` removes that many copies of each natural rank 4..A (the
    "only 7 of each meldable card" table rule removes one of the eight).
    """
    deck: list[int] = []
    for rank in range(2, 15):
        copies = [card(rank, s) for s in range(4)] * decks
        if rank >= 4 and drop_per_rank:
            copies = copies[drop_per_rank:]
        deck.extend(copies)
    deck.extend([JOKER] * jokers)
    return deck
