"""Fixed numeric encodings of actions and observations, for search and learning.

Both are computed from what a seat may know: the action index from an
:class:`~canasta.engine.actions.Action` (or the legal actions of the position),
the observation vector from ``Game.observation(seat)`` only. docs/research.md
documents the layout; this module is the reference.

**Actions.** Suits never matter for the effect of an action in the registered
variants (the engine lists one action per distinct effect, with canonical
suits), so an action is indexed by its kind and the *kinds* of cards it uses:

==========  =====================================================================
index       action
==========  =====================================================================
0..5        ``draw``, ``ask``, ``yes``, ``no``, ``retract``, ``end``
6..9        ``take`` with no cards from hand / a natural pair / a natural and a
            joker / a natural and a two
10..23      ``discard`` of a natural rank 4..A (10..20), a black three (21), a
            two (22), a joker (23)
24..465     ``meld``: 24 + slot * 34 + shape
466..907    ``add``: 466 + slot * 34 + shape
908..911    Mille: ``discard`` of the Q of spades / J of diamonds, ``add`` of one of
            them, used only where the same move with a plain card of the rank is
            legal too (their values differ; the plain card keeps the usual index)
912..913    Hand and Foot (variants with ``FEET``): ``take`` with two jokers / two
            twos (a wild card on top of the pile); ``num_actions`` is 914 for them
914..915    Hand and Foot (variants offering the table rule ``hand_passing``):
            ``keep 1`` / ``keep 2`` (the hand-passing deal); ``num_actions`` is 916
            for Hand and Foot (Triple Play, which has no such deal, stays at 914)
912..916    Modern American (variants with ``EXTENDED_SET_RULES``): ``special``
            straight, pairs, pairs-wild, garbage, zip-code
917         Modern American: ``meld 3h`` laying out a *red* three (a black three's
            is the meld slot of threes with one natural); ``num_actions`` is 918
912..1319   Mille: a ``meld`` or ``take`` holding ``k`` (1..3) of the Q of spades or
            the J of diamonds (their values differ from the rest of their rank, so
            each count is a move of its own): 912 + ((kind * 2 + card) * 34 + shape)
            * 3 + k - 1, kind 0 meld / 1 take, card 0 queen / 1 jack;
            ``num_actions`` is 1320
==========  =====================================================================

``slot`` is the meld's rank: 0..10 for the natural ranks 4..A, 11 for the meld
of wild cards, 12 for black threes. ``shape`` is the position of
``(naturals, jokers, twos)`` in :data:`SHAPES`: every count triple with one to
four cards, in lexicographic order. Melds and additions the engine lists have
at most four cards (three-card melds, four black threes, and the multi-card
additions it lists for hands of four cards or fewer), so every legal action has
an index, and two legal actions of one position never share one: they differ in
effect, hence in rank or card kinds. :func:`decode` maps an index back to the
legal action of the position that has it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import product
from typing import Any

import numpy as np
import numpy.typing as npt

from canasta.cards import (
    BLACK_THREE_CODES,
    JOKER,
    NUM_CODES,
    RED_THREE_CODES,
    THREE,
    is_two,
    is_wild_card,
    parse_card,
    parse_rank,
)
from canasta.engine import american_table
from canasta.engine.actions import (
    ADD,
    ASK,
    DISCARD,
    DRAW,
    END,
    KEEP,
    MELD,
    MERGE,
    NO,
    RETRACT,
    SPECIAL,
    SPECIAL_HANDS,
    TAKE,
    YES,
    Action,
)
from canasta.engine.american import AmericanGame
from canasta.engine.feet import FootGame
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.sambaplay import SambaPlay
from canasta.engine.setplay import SetMeldPlay
from canasta.notation import ID_BASE, merge_ids, merge_target

#: Pseudo-rank the engine gives the meld of wild cards (a table-rule option).
WILD_RANK = 1
MAX_SEATS = 4
MAX_SIDES = 4

_SIMPLE = {DRAW: 0, ASK: 1, YES: 2, NO: 3, RETRACT: 4, END: 5}
TAKE_BASE = 6
DISCARD_BASE = 10
#: (naturals, jokers, twos) with one to four cards.
SHAPES: tuple[tuple[int, int, int], ...] = tuple(
    (n, j, t) for n, j, t in product(range(5), repeat=3) if 1 <= n + j + t <= 4)
_SHAPE_INDEX = {s: i for i, s in enumerate(SHAPES)}
NUM_SLOTS = 13
MELD_BASE = 24
ADD_BASE = MELD_BASE + NUM_SLOTS * len(SHAPES)
SPECIAL_BASE = ADD_BASE + NUM_SLOTS * len(SHAPES)
#: Cards worth more than the others of their rank (Mille's Q of spades and J of diamonds): where a
#: position lists a discard or single addition of one of them *and* of a plain card of its rank,
#: the special card's action gets an index of its own here.
_SPECIAL_CARDS = (12 * 4 + 0, 11 * 4 + 2)  # Qs, Jd
_SPECIAL = {(DISCARD, c): i for i, c in enumerate(_SPECIAL_CARDS)} | \
    {(ADD, c): len(_SPECIAL_CARDS) + i for i, c in enumerate(_SPECIAL_CARDS)}
NUM_ACTIONS = SPECIAL_BASE + len(_SPECIAL)

_TAKE_SHAPES = {(0, 0, 0): 0, (2, 0, 0): 1, (1, 1, 0): 2, (1, 0, 1): 3}
#: Hand and Foot: the pile topped by a wild card is taken with two more of its kind.
FEET_TAKE_BASE = NUM_ACTIONS
_FEET_TAKE_SHAPES = {(0, 2, 0): 0, (0, 0, 2): 1}
#: Hand and Foot's hand-passing deal: ``keep 1`` / ``keep 2`` at KEEP_BASE, KEEP_BASE + 1.
KEEP_BASE = FEET_TAKE_BASE + len(_FEET_TAKE_SHAPES)
#: Modern American: ``special <hand>`` (target 1..5) at SPECIAL_HAND_BASE + target - 1. Laying out a
#: kept black three is the meld slot of threes with one natural, a red three RED_THREE_LAYOUT (the
#: colours score apart, and table rule threes_optional can offer both in one position).
SPECIAL_HAND_BASE = NUM_ACTIONS
RED_THREE_LAYOUT = SPECIAL_HAND_BASE + len(SPECIAL_HANDS)


def _is_wild(code: int) -> bool:
    return is_wild_card(code)


def _shape(cards: Sequence[int]) -> tuple[int, int, int]:
    jokers = sum(1 for c in cards if c == JOKER)
    twos = sum(1 for c in cards if is_two(c))
    return len(cards) - jokers - twos, jokers, twos


def _slot(rank: int) -> int:
    if 4 <= rank <= 14:
        return rank - 4
    if rank == WILD_RANK:
        return 11
    if rank == THREE:
        return 12
    raise ValueError(f"no meld slot for rank {rank}")


def _meld_rank(cards: Sequence[int]) -> int:
    naturals = [c for c in cards if not _is_wild(c)]
    return naturals[0] >> 2 if naturals else WILD_RANK


def _discard_index(code: int) -> int:
    if code == JOKER:
        return DISCARD_BASE + 13
    rank = code >> 2
    if rank == 2:
        return DISCARD_BASE + 12
    if rank == THREE:
        return DISCARD_BASE + 11
    return DISCARD_BASE + rank - 4


def encode_action(action: Action, variant: str | None = None) -> int:
    """The index of ``action`` in ``range(num_actions(variant))``; ValueError if it has none.

    ``variant`` None (or any variant without meld ids) is the Classic layout above.
    """
    if variant is not None and _meld_ids(variant):
        return _encode_id_action(action, variant)
    kind = action.kind
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind in _MIX_KINDS and _has_special_cards(variant):
        mixed = _mix_index(action)
        if mixed is not None:
            return mixed
    if kind == SPECIAL:
        if variant is None or not _american_rules(variant) or action.cards or not 1 <= action.target <= len(SPECIAL_HANDS):
            raise ValueError(f"no index for {action!r}")
        return SPECIAL_HAND_BASE + action.target - 1
    if kind == KEEP:
        if variant is None or not _passing(variant) or action.cards or action.target not in (1, 2):
            raise ValueError(f"no index for {action!r}")
        return KEEP_BASE + action.target - 1
    if kind == TAKE:
        shape = _shape(action.cards)
        if shape in _FEET_TAKE_SHAPES and variant is not None and _feet(variant):
            return FEET_TAKE_BASE + _FEET_TAKE_SHAPES[shape]
        if shape not in _TAKE_SHAPES:
            raise ValueError(f"no index for {action!r}")
        return TAKE_BASE + _TAKE_SHAPES[shape]
    if kind == DISCARD:
        if len(action.cards) != 1:
            raise ValueError(f"no index for {action!r}")
        return _discard_index(action.cards[0])
    if kind in (MELD, ADD):
        if (kind == MELD and len(action.cards) == 1 and action.cards[0] in RED_THREE_CODES and variant is not None
                and _american_rules(variant)):
            return RED_THREE_LAYOUT
        shape = _shape(action.cards)
        if shape not in _SHAPE_INDEX:
            raise ValueError(f"no index for {action!r}")
        rank = _meld_rank(action.cards) if kind == MELD else action.target
        base = MELD_BASE if kind == MELD else ADD_BASE
        return base + _slot(rank) * len(SHAPES) + _SHAPE_INDEX[shape]
    raise ValueError(f"no index for {action!r}")


def describe_index(index: int, variant: str | None = None) -> str:
    """A text description of an index, independent of any position (for docs and debugging)."""
    if variant is not None and _meld_ids(variant):
        return _describe_id_index(index, variant)
    if variant is not None and _feet(variant) and index in (FEET_TAKE_BASE, FEET_TAKE_BASE + 1):
        return "take with two jokers" if index == FEET_TAKE_BASE else "take with two twos"
    if variant is not None and _passing(variant) and index in (KEEP_BASE, KEEP_BASE + 1):
        return f"keep {index - KEEP_BASE + 1}"
    if _has_special_cards(variant) and MIX_BASE <= index < MIX_BASE + MIX_SIZE:
        rest, k = divmod(index - MIX_BASE, 3)
        rest, shape = divmod(rest, len(SHAPES))
        kind_i, card_i = divmod(rest, 2)
        n, j, t = SHAPES[shape]
        card_name = "the queen of spades" if card_i == 0 else "the jack of diamonds"
        return f"{_MIX_KINDS[kind_i]} with {k + 1} of {card_name}: {n} naturals, {j} jokers, {t} twos (Mille)"
    if variant is not None and _american_rules(variant):
        if SPECIAL_HAND_BASE <= index < SPECIAL_HAND_BASE + len(SPECIAL_HANDS):
            return f"special {SPECIAL_HANDS[index - SPECIAL_HAND_BASE]}"
        if index == MELD_BASE + _slot(THREE) * len(SHAPES) + _SHAPE_INDEX[(1, 0, 0)]:
            return "meld a black three: lay out a black three kept in hand (Modern American)"
        if index == RED_THREE_LAYOUT:
            return "meld a red three: lay out a red three kept in hand (Modern American)"
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} out of range(0, {NUM_ACTIONS})")
    for kind, i in _SIMPLE.items():
        if i == index:
            return kind
    if index < DISCARD_BASE:
        return ("take", "take with a natural pair", "take with a natural and a joker",
                "take with a natural and a two")[index - TAKE_BASE]
    if index >= SPECIAL_BASE:
        kind, code = next(key for key, i in _SPECIAL.items() if i == index - SPECIAL_BASE)
        return f"{kind} {'the queen of spades' if code == _SPECIAL_CARDS[0] else 'the jack of diamonds'} (Mille)"
    if index < MELD_BASE:
        k = index - DISCARD_BASE
        names = [f"rank {r}" for r in range(4, 15)] + ["a black three", "a two", "a joker"]
        return f"discard {names[k]}"
    kind = "meld" if index < ADD_BASE else "add"
    k = index - (MELD_BASE if index < ADD_BASE else ADD_BASE)
    slot, shape = divmod(k, len(SHAPES))
    where = f"rank {slot + 4}" if slot < 11 else ("wild cards" if slot == 11 else "black threes")
    n, j, t = SHAPES[shape]
    return f"{kind} {where}: {n} naturals, {j} jokers, {t} twos"


#: Mille: melds and takes holding special cards (see the table above).
MIX_BASE = NUM_ACTIONS
_MIX_KINDS = (MELD, TAKE)
MIX_SIZE = len(_MIX_KINDS) * len(_SPECIAL_CARDS) * len(SHAPES) * 3
_MIX_VARIANTS: dict[str, bool] = {}


def _has_special_cards(variant: str | None) -> bool:
    """Does ``variant`` value a card above the rest of its rank (Mille's Q of spades, J of diamonds)?"""
    if variant is None:
        return False
    known = _MIX_VARIANTS.get(variant)
    if known is None:
        from canasta.variants import find_variant

        cls = find_variant(variant)
        values: list[int] = getattr(cls(cls.player_counts[0]), "values", None) or [0] * NUM_CODES
        known = _MIX_VARIANTS[variant] = any(values[c] != values[(c >> 2) * 4 + 1] for c in _SPECIAL_CARDS)
    return known


def _mix_index(action: Action) -> int | None:
    """The index of a Mille meld or take holding special cards (None for any other action)."""
    specials = [c for c in action.cards if c in _SPECIAL_CARDS]
    shape = _SHAPE_INDEX.get(_shape(action.cards))
    if action.kind not in _MIX_KINDS or not specials or shape is None or len(specials) > 3:
        return None
    card_i = _SPECIAL_CARDS.index(specials[0])
    return MIX_BASE + ((_MIX_KINDS.index(action.kind) * 2 + card_i) * len(SHAPES) + shape) * 3 + len(specials) - 1


#: variant -> action -> index, filled by legal_indices (positions repeat the same actions; emptied past the limit)
_INDEX_CACHE: dict[str | None, dict[Action, int]] = {}
_INDEX_CACHE_LIMIT = 200_000


def legal_indices(legal: Sequence[Action], variant: str | None = None) -> dict[int, Action]:
    """Index -> action for the legal actions of one position (indices are unique)."""
    out: dict[int, Action] = {}
    cache = _INDEX_CACHE.get(variant)
    if cache is None or len(cache) > _INDEX_CACHE_LIMIT:
        cache = _INDEX_CACHE[variant] = {}
    for a in legal:
        i = cache.get(a)
        if i is None:
            i = cache[a] = encode_action(a, variant)  # an index depends on the action and the variant only
        if i in out:
            # the same move with a plain card and with a card of its own value (Mille): the special one moves
            b = out[i]
            special = _special_index(a)
            if special is None:
                special, a, b = _special_index(b), b, a
            if special is None or special in out:
                raise ValueError(f"{a!r} and {b!r} share action index {i}")
            out[i] = b
            i = special
        out[i] = a
    return out


def _special_index(a: Action) -> int | None:
    if len(a.cards) != 1:
        return None
    k = _SPECIAL.get((a.kind, a.cards[0]))
    return None if k is None else SPECIAL_BASE + k


def action_mask(legal: Sequence[Action] | dict[int, Action], variant: str | None = None) -> npt.NDArray[np.int8]:
    """A 0/1 vector of length ``num_actions(variant)``: 1 at the index of each legal action (``legal`` may
    be the :func:`legal_indices` of the position, already computed)."""
    mask = np.zeros(num_actions(variant), dtype=np.int8)
    indices = legal if isinstance(legal, dict) else legal_indices(legal, variant)
    if indices:
        mask[list(indices)] = 1
    return mask


def decode(index: int, legal: Sequence[Action], variant: str | None = None) -> Action:
    """The legal action with this index; ValueError if none has it."""
    a = legal_indices(legal, variant).get(index)
    if a is not None:
        return a
    raise ValueError(f"action index {index} ({describe_index(index, variant)}) is not legal here")


# ------------------------------------------------- variants with meld ids (Burraco)
#: Layout for variants with meld ids, sets and runs, where suits matter:
#: 0 draw, 1 take (the whole pile), 2..54 discard of card code 8..59 or the joker,
#: then ``meld`` of each three-card multiset that is a valid set or run (in sorted order),
#: then ``add`` of card k (0..52) to meld #n (1..MAX_MELD_ID): ID_ADD_BASE + (n - 1) * 53 + k.
MAX_MELD_ID = 40
_ID_DISCARD_BASE = 2
_CARD_KINDS = 53


@functools.lru_cache(maxsize=64)  # variant name -> flag: asked on every encoding
def _meld_ids(variant: str) -> bool:
    from canasta.variants import find_variant

    return bool(getattr(find_variant(variant), "MELD_IDS", False))


@functools.lru_cache(maxsize=64)  # variant name -> flag: asked on every encoding
def _feet(variant: str) -> bool:
    from canasta.variants import find_variant

    return bool(getattr(find_variant(variant), "FEET", False))


@functools.lru_cache(maxsize=64)  # variant name -> flag: asked on every encoding
def _passing(variant: str) -> bool:
    """Does the variant offer the hand-passing deal (Hand and Foot's table rule ``hand_passing``)?"""
    from canasta.variants import find_variant

    return "hand_passing" in find_variant(variant).options


@functools.lru_cache(maxsize=64)  # variant name -> flag: asked on every encoding
def _american_rules(variant: str) -> bool:
    from canasta.variants import find_variant

    return bool(getattr(find_variant(variant), "EXTENDED_SET_RULES", False))


def _kind(code: int) -> int:
    return 52 if code == JOKER else code - 8


class _IdLayout:
    """The action layout of one meld-id variant (Burraco's, or Samba's with the Classic turn)."""

    def __init__(self, variant: str) -> None:
        from itertools import combinations_with_replacement

        from canasta.variants import find_variant

        cls: Any = find_variant(variant)
        v = cls(cls.player_counts[-1])
        self.classic_turn = bool(getattr(cls, "CLASSIC_TURN", False))
        self.max_id = MAX_SAMBA_MELD_ID if self.classic_turn else MAX_MELD_ID
        self.melds: list[tuple[int, ...]] = []
        self.meld_index: dict[tuple[int, ...], int] = {}
        codes = [*range(8, 60), JOKER]
        for combo in combinations_with_replacement(codes, 3):
            if not isinstance(v.arrange_meld(combo), str):
                self.meld_index[combo] = len(self.melds)
                self.melds.append(combo)
        self.meld_base = _ID_DISCARD_BASE + _CARD_KINDS
        self.add_base = self.meld_base + len(self.melds)
        self.extra_base = self.add_base + self.max_id * _CARD_KINDS
        # Classic turn (Samba): take with a natural pair (by the pair's suits), take #n, ask, yes, no,
        # retract, end
        self.take_id_base = self.extra_base + len(_SUIT_PAIRS)
        self.simple_base = self.take_id_base + self.max_id
        # then (variants with MERGE_SETS) 'merge #a #b' for 1 <= a < b <= max_id, after every older
        # index so that those stay where they were: merge_base + (b - 1) * (b - 2) / 2 + a - 1
        self.merge_base = self.simple_base + len(_CT_SIMPLE)
        self.merges = bool(getattr(cls, "MERGE_SETS", False)) and self.classic_turn
        n_merges = self.max_id * (self.max_id - 1) // 2 if self.merges else 0
        # then (Classic turn) a meld of 4 up to 7 black threes, going out (suits folded: one black three stands
        # for both): black_three_base + count - 4, after every older index
        self.black_three_base = self.merge_base + n_merges
        self.size = self.black_three_base + len(_BLACK_THREE_MELD_SIZES) if self.classic_turn else self.extra_base


#: Samba's hands make more melds than Burraco's: ids up to 80 have an index.
MAX_SAMBA_MELD_ID = 80
_SUIT_PAIRS = [(a, b) for a in range(4) for b in range(a, 4)]
_CT_SIMPLE = (ASK, YES, NO, RETRACT, END)
#: Sizes of the black-three melds beyond the three-card ones (which index as three-card melds).
_BLACK_THREE_MELD_SIZES = (4, 5, 6, 7)
_LAYOUTS: dict[str, _IdLayout] = {}


def _layout(variant: str) -> _IdLayout:
    from canasta.variants import find_variant

    name = find_variant(variant).name
    got = _LAYOUTS.get(name)
    if got is None:
        got = _LAYOUTS[name] = _IdLayout(name)
    return got


def _meld_ids_melds() -> dict[tuple[int, ...], int]:
    return _layout("burraco").meld_index


@functools.lru_cache(maxsize=64)
def num_actions(variant: str | None = None) -> int:
    """Size of the action space of ``variant`` (NUM_ACTIONS for Classic and its relatives)."""
    if variant is not None and _meld_ids(variant):
        return _layout(variant).size
    if variant is not None and _feet(variant):
        return KEEP_BASE + 2 if _passing(variant) else KEEP_BASE
    if variant is not None and _american_rules(variant):
        return RED_THREE_LAYOUT + 1
    if _has_special_cards(variant):
        return MIX_BASE + MIX_SIZE
    return NUM_ACTIONS


def _encode_id_action(action: Action, variant: str = "burraco") -> int:
    lay = _layout(variant)
    kind = action.kind
    if kind == DRAW:
        return 0
    if kind == TAKE and not action.cards and not action.target and not lay.classic_turn:
        return 1
    if kind == DISCARD and len(action.cards) == 1:
        return _ID_DISCARD_BASE + _kind(action.cards[0])
    if kind == MELD:
        key = tuple(sorted(action.cards))
        index = lay.meld_index.get(key)
        if index is not None:
            return lay.meld_base + index
    if kind == ADD and len(action.cards) == 1:
        n = action.target - ID_BASE
        if 1 <= n <= lay.max_id:
            return lay.add_base + (n - 1) * _CARD_KINDS + _kind(action.cards[0])
    if lay.classic_turn:
        if kind == TAKE and len(action.cards) == 2 and not action.target:
            a, b = sorted(c & 3 for c in action.cards)
            return lay.extra_base + _SUIT_PAIRS.index((a, b))
        if kind == TAKE and not action.cards and 1 <= action.target - ID_BASE <= lay.max_id:
            return lay.take_id_base + action.target - ID_BASE - 1
        if kind in _CT_SIMPLE and not action.cards:
            return lay.simple_base + _CT_SIMPLE.index(kind)
        if (kind == MELD and len(action.cards) in _BLACK_THREE_MELD_SIZES
                and all(c in BLACK_THREE_CODES for c in action.cards)):
            return lay.black_three_base + len(action.cards) - _BLACK_THREE_MELD_SIZES[0]
        if kind == MERGE and lay.merges and not action.cards:
            a, b = merge_ids(action.target)
            if 1 <= a < b <= lay.max_id and action.target == merge_target(a, b):
                return lay.merge_base + (b - 1) * (b - 2) // 2 + a - 1
    raise ValueError(f"no index for {action!r}")


def _describe_id_index(index: int, variant: str = "burraco") -> str:
    from canasta.cards import format_card, format_cards

    lay = _layout(variant)
    if not 0 <= index < lay.size:
        raise ValueError(f"action index {index} out of range")

    def code(k: int) -> int:
        return JOKER if k == 52 else k + 8

    if index == 0:
        return "draw"
    if index == 1:
        return "take"
    if index < lay.meld_base:
        return f"discard {format_card(code(index - _ID_DISCARD_BASE))}"
    if index < lay.add_base:
        return f"meld {format_cards(lay.melds[index - lay.meld_base])}"
    if index < lay.extra_base:
        n, k = divmod(index - lay.add_base, _CARD_KINDS)
        return f"add #{n + 1} {format_card(code(k))}"
    if index < lay.take_id_base:
        a, b = _SUIT_PAIRS[index - lay.extra_base]
        return f"take with a natural pair of suits {'shdc'[a]}{'shdc'[b]}"
    if index < lay.simple_base:
        return f"take #{index - lay.take_id_base + 1}"
    if index < lay.merge_base:
        return _CT_SIMPLE[index - lay.simple_base]
    if index >= lay.black_three_base:
        return f"meld {index - lay.black_three_base + _BLACK_THREE_MELD_SIZES[0]} black threes"
    k = index - lay.merge_base
    b = 2
    while (b - 1) * b // 2 <= k:
        b += 1
    return f"merge #{k - (b - 1) * (b - 2) // 2 + 1} #{b}"


# ------------------------------------------------------------------ observations
PHASES = ("draw", "play", "answer", "over")

#: card text -> code, filled as cards are met: an observation lists its cards as text, and parsing them
#: was the largest cost of encoding one
_CARD_CODES: dict[str, int] = {}


#: per card code: 1 for a wild card (joker, two)
_WILD_CODE = [int(_is_wild(c)) for c in range(NUM_CODES)]


def _card_code(text: str) -> int:
    code = _CARD_CODES.get(text)
    if code is None:
        code = _CARD_CODES[text] = parse_card(text)  # raises on a text that is not a card (not cached)
    return code


def obs_slots(players: int | None = None) -> tuple[int, int]:
    """(seat slots, side slots) of the observation vector of a table of ``players``.

    :data:`MAX_SEATS` and :data:`MAX_SIDES` (4 and 4) for every table of at most four players (``None``
    too), so those vectors never change; a larger table (Hand and Foot's 6 or 8 players) has a slot per
    seat, and per side up to ``players // 2`` (such tables play in teams of two or three): 6 players keep 4
    side slots (three teams of two, or two of three), 8 players too (four teams of two)."""
    if players is None or players <= MAX_SEATS:
        return MAX_SEATS, MAX_SIDES
    return players, max(MAX_SIDES, players // 2)


def obs_layout(players: int | None = None) -> tuple[tuple[str, int], ...]:
    """(name, length) of each block of the observation vector, in order, for a table of ``players``
    (:func:`obs_slots`; :data:`OBS_LAYOUT` is the layout of every table of at most four players)."""
    seats, sides = obs_slots(players)
    return (
        ("hand", NUM_CODES),            # own hand: copies of each card code
        ("pile", NUM_CODES),            # discard pile: copies of each card code
        ("pile_top", NUM_CODES),        # one-hot top card of the pile
        ("hand_sizes", seats),          # cards in each hand / 20, seats relative to own (own first)
        ("actor", seats),               # one-hot seat to act, relative to own
        ("phase", len(PHASES)),         # one-hot phase
        ("meld_naturals", sides * 16),  # per side (own first) and meld rank 0..15: naturals / 7
        ("meld_wilds", sides * 16),     # per side and meld rank: wild cards / 7
        ("red_threes", sides),          # per side: red threes laid out / 4
        ("opened", sides),              # per side: has made its initial meld
        ("minimum", sides),             # per side: initial-meld minimum / 100
        ("scores", sides),              # per side: game score / 5000
        ("misc", 8),                    # stock/100, pile size/100, frozen, pending value/100,
                                        # asked, permission yes, permission no, partnership game
    )


def feet_obs_layout(players: int | None = None) -> tuple[tuple[str, int], ...]:
    """Hand and Foot (variants with ``FEET``): blocks after :func:`obs_layout`."""
    seats, sides = obs_slots(players)
    return (
        ("foot_sizes", seats),          # cards in each seat's unplayed foot (and knee) / 11, relative to own
        ("in_foot", seats),             # per seat, relative to own: playing from the foot
        ("books", sides * 3),           # per side (own first): clean, dirty, wild piles closed / 5
    )


#: Card kinds of a turned-up card in :data:`PASS_OBS_LAYOUT`: 0 joker, 1 two, 2 black three, 3 red three,
#: 4..14 the natural ranks 4..A.
PASS_KINDS = 15


def pass_obs_layout(players: int | None = None) -> tuple[tuple[str, int], ...]:
    """Hand and Foot (variants offering the table rule ``hand_passing``): blocks after
    :func:`feet_obs_layout`, zero unless the option is on. The phase 'pass' has no place in the one-hot
    ``phase`` block (whose length every variant shares): its flag is here."""
    seats, _ = obs_slots(players)
    return (
        ("pass_phase", 1),                    # the hand-passing deal: seats are choosing their feet
        ("pass_shown", seats * 2 * PASS_KINDS),  # per seat (relative to own) and pile 1, 2: turned-up card kind
        ("kept", seats * 2),                  # per seat: pile kept as foot, one-hot (own at once, others once all chose)
        ("foot_shown", seats * PASS_KINDS),   # per seat: kind of the turned-up top card of its unplayed foot
    )


def xr_obs_layout(players: int | None = None) -> tuple[tuple[str, int], ...]:
    """Modern American (variants with ``EXTENDED_SET_RULES``): blocks after :func:`obs_layout`."""
    seats, _ = obs_slots(players)
    return (
        ("bonus_cards", seats),         # face-down bonus cards each seat holds / 4, relative to own
        ("turn_card_drawn", 1),         # the turn card has been drawn (no bonus cards any more)
        ("dead_ranks", 11),             # ranks 4..A with a closed natural canasta (either side)
        ("asked_hand", seats),          # per seat, relative to own: asked 'may I go out?' this hand
    )


#: The layouts of every table of at most four players (the vectors saved agents were trained on).
OBS_LAYOUT = obs_layout()
OBS_SIZE = sum(n for _, n in OBS_LAYOUT)
FEET_OBS_LAYOUT = feet_obs_layout()
FEET_OBS_SIZE = OBS_SIZE + sum(n for _, n in FEET_OBS_LAYOUT)
PASS_OBS_LAYOUT = pass_obs_layout()
PASS_OBS_SIZE = sum(n for _, n in PASS_OBS_LAYOUT)
XR_OBS_LAYOUT = xr_obs_layout()
XR_OBS_SIZE = OBS_SIZE + sum(n for _, n in XR_OBS_LAYOUT)


@functools.lru_cache(maxsize=64)
def variant_obs_layout(variant: str | None = None, players: int | None = None) -> tuple[tuple[str, int], ...]:
    """The whole layout of the vector of ``variant`` at a table of ``players`` (not for meld-id variants):
    :func:`obs_layout`, then :func:`feet_obs_layout` (and :func:`pass_obs_layout` where the variant offers
    the hand-passing deal) or :func:`xr_obs_layout` where the variant has them."""
    layout = obs_layout(players)
    if variant is not None and _feet(variant):
        layout += feet_obs_layout(players)
        if _passing(variant):
            layout += pass_obs_layout(players)
    elif variant is not None and _american_rules(variant):
        layout += xr_obs_layout(players)
    return layout


@functools.lru_cache(maxsize=64)
def _block_offsets(variant: str, players: int) -> tuple[dict[str, int], int]:
    """(block name -> offset, length) of :func:`variant_obs_layout` (callers must not change the dict)."""
    blocks: dict[str, int] = {}
    offset = 0
    for name, n in variant_obs_layout(variant, players):
        blocks[name] = offset
        offset += n
    return blocks, offset


def encode_observation(obs: dict[str, Any], dtype: type = np.float32) -> npt.NDArray[Any]:
    """The observation dict of one seat as a flat vector (layout: :func:`variant_obs_layout` of the variant
    and the table's number of players, :data:`OBS_LAYOUT`, then :data:`FEET_OBS_LAYOUT` or
    :data:`XR_OBS_LAYOUT` at tables of at most four; or :data:`ID_OBS_LAYOUT` for a variant with meld ids)."""
    if _meld_ids(obs["variant"]):
        return _encode_id_observation(obs, dtype)
    feet = "foot_sizes" in obs
    xr = "turn_card_drawn" in obs
    seat: int = obs["seat"]
    players: int = obs["players"]
    side: int = obs["side"]
    sides = len(obs["melds"])
    _, side_slots = obs_slots(players)
    if sides > side_slots:
        raise ValueError(f"the observation vector of {players} players has room for {side_slots} sides, "
                         f"not {sides}")
    blocks, size = _block_offsets(obs["variant"], players)
    out: npt.NDArray[Any] = np.zeros(size, dtype=dtype)
    for c in obs["hand"]:
        out[blocks["hand"] + _card_code(c)] += 1
    for c in obs["pile"]:
        out[blocks["pile"] + _card_code(c)] += 1
    if obs["pile_top"] is not None:
        out[blocks["pile_top"] + _card_code(obs["pile_top"])] = 1
    for s in range(players):
        rel = (s - seat) % players
        out[blocks["hand_sizes"] + rel] = obs["hand_sizes"][s] / 20
    if obs["actor"] is not None:
        out[blocks["actor"] + (obs["actor"] - seat) % players] = 1
    if obs["phase"] != "pass":  # Hand and Foot's hand-passing deal has its flag in the pass blocks
        out[blocks["phase"] + PHASES.index(obs["phase"])] = 1
    for s in range(sides):
        rel = (s - side) % sides
        for m in obs["melds"][s]:
            rank = WILD_RANK if m["rank"] == "wild" else parse_rank(m["rank"])
            wilds = sum(_WILD_CODE[_card_code(c)] for c in m["cards"])
            out[blocks["meld_naturals"] + rel * 16 + rank] = (len(m["cards"]) - wilds) / 7
            out[blocks["meld_wilds"] + rel * 16 + rank] = wilds / 7
        out[blocks["red_threes"] + rel] = len(obs["red_threes"][s]) / 4
        out[blocks["opened"] + rel] = float(obs["opened"][s])
        out[blocks["minimum"] + rel] = obs["minimum"][s] / 100
        out[blocks["scores"] + rel] = obs["scores"][s] / 5000
    m = blocks["misc"]
    out[m] = obs["stock_size"] / 100
    out[m + 1] = obs["pile_size"] / 100
    out[m + 2] = float(obs["frozen"])
    out[m + 3] = obs["pending_value"] / 100
    out[m + 4] = float(obs["asked"])
    out[m + 5] = float(obs["permission"] is True)
    out[m + 6] = float(obs["permission"] is False)
    out[m + 7] = float(obs["partner"] is not None)
    if xr and "bonus_cards" in blocks:
        for s in range(players):
            rel = (s - seat) % players
            out[blocks["bonus_cards"] + rel] = obs["bonus_cards"][s] / 4
            out[blocks["asked_hand"] + rel] = float(obs["asked_hand"][s])
        out[blocks["turn_card_drawn"]] = float(obs["turn_card_drawn"])
        for r in obs["dead_ranks"]:
            out[blocks["dead_ranks"] + parse_rank(r) - 4] = 1
    if feet and "foot_sizes" in blocks:
        _encode_feet(out, blocks, obs, seat, side)
    if "pass_phase" in blocks and "pass_shown" in obs:
        _encode_hand_passing(out, blocks, obs, seat)
    return out


def _encode_feet(out: npt.NDArray[Any], blocks: dict[str, int], obs: dict[str, Any], seat: int, side: int) -> None:
    """Hand and Foot's blocks: each seat's foot (and knee) size and whether it plays from it, each side's books."""
    players: int = obs["players"]
    sides = len(obs["melds"])
    for s in range(players):
        rel = (s - seat) % players
        out[blocks["foot_sizes"] + rel] = (
            obs["foot_sizes"][s] + (obs["knee_sizes"][s] if "knee_sizes" in obs else 0)) / 11
        out[blocks["in_foot"] + rel] = float(obs["in_foot"][s])
    kinds = ("clean", "dirty", "wild")
    for s in range(sides):
        rel = (s - side) % sides
        for b in obs["books"][s]:
            out[blocks["books"] + rel * 3 + kinds.index(b["kind"])] += 1 / 5


def _encode_hand_passing(out: npt.NDArray[Any], blocks: dict[str, int], obs: dict[str, Any], seat: int) -> None:
    """The hand-passing deal's blocks: its phase, the cards each seat showed and kept, the foot shown."""
    players: int = obs["players"]
    out[blocks["pass_phase"]] = float(obs["phase"] == "pass")
    for s in range(players):
        rel = (s - seat) % players
        for i, c in enumerate(obs["pass_shown"][s]):
            out[blocks["pass_shown"] + (rel * 2 + i) * PASS_KINDS + _pass_kind(_card_code(c))] = 1
        if obs["kept"][s]:
            out[blocks["kept"] + rel * 2 + obs["kept"][s] - 1] = 1
        if obs["foot_shown"][s] is not None:
            out[blocks["foot_shown"] + rel * PASS_KINDS + _pass_kind(_card_code(obs["foot_shown"][s]))] = 1


def encode_position(game: Any, seat: int, dtype: type = np.float32) -> npt.NDArray[Any]:
    """``encode_observation(game.observation(seat), dtype)``, read from the engine's card codes and counts
    instead of the observation dict's card names (the dict stays for people and JSON). Exactly the same
    vector (tests/test_encoding.py plays every variant to check it), several times faster: the environments
    encode with it."""
    if isinstance(game, MeldIdGame) and not (_feet(game.variant_name) or _american_rules(game.variant_name)):
        return _encode_id_position(game, seat, dtype)
    if not isinstance(game, SetMeldPlay):
        return encode_observation(game.observation(seat), dtype)
    players = game.num_players
    sides = game.num_sides
    _, side_slots = obs_slots(players)
    if sides > side_slots:
        raise ValueError(f"the observation vector of {players} players has room for {side_slots} sides, "
                         f"not {sides}")
    blocks, size = _block_offsets(game.variant_name, players)
    out: dict[int, float] = {}  # index -> value: a few dozen entries, put into the vector at once
    pile = game.pile
    if pile:
        out[blocks["pile_top"] + pile[-1]] = 1
    _encode_seats_and_sides(game, seat, out, blocks)
    _encode_family_blocks(game, seat, out, blocks, dtype)
    vector: npt.NDArray[Any] = np.zeros(size, dtype=dtype)
    h, p = blocks["hand"], blocks["pile"]
    vector[h:h + NUM_CODES] = game.hands[seat]  # the count vector as it is
    if pile:
        vector[p:p + NUM_CODES] = np.bincount(pile, minlength=NUM_CODES)
    vector.put(np.fromiter(out, np.intp, len(out)), np.fromiter(out.values(), dtype, len(out)))
    return vector


@functools.lru_cache(maxsize=1024)
def _seat_slots(variant: str, players: int, seat: int, side: int, sides: int
                ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int, int, int, int], ...]]:
    """Where ``seat``'s vector puts each seat's hand size and the actor flag (seats relative to its own), and
    per side (relative to its own) the offsets of meld naturals, meld wilds, red threes, opened, minimum, scores."""
    blocks, _ = _block_offsets(variant, players)
    rel_seats = [(s - seat) % players for s in range(players)]
    per_side = []
    for s in range(sides):
        rel = (s - side) % sides
        per_side.append((blocks["meld_naturals"] + rel * 16, blocks["meld_wilds"] + rel * 16,
                         blocks["red_threes"] + rel, blocks["opened"] + rel, blocks["minimum"] + rel,
                         blocks["scores"] + rel))
    return (tuple(blocks["hand_sizes"] + r for r in rel_seats), tuple(blocks["actor"] + r for r in rel_seats),
            tuple(per_side))


def _encode_seats_and_sides(game: Any, seat: int, out: dict[int, float], blocks: dict[str, int]) -> None:
    """The blocks of :data:`OBS_LAYOUT` after the cards, from the engine's state (see :func:`encode_position`)."""
    hand_sizes, actor, per_side = _seat_slots(game.variant_name, game.num_players, seat, game._sides[seat],
                                              game.num_sides)
    for i, n in zip(hand_sizes, game.hand_sizes, strict=True):
        out[i] = n / 20
    if not game.is_over:
        out[actor[game.actor]] = 1
    phase = game.phase
    if phase != "pass":  # Hand and Foot's hand-passing deal has its flag in the pass blocks
        out[blocks["phase"] + PHASES.index(phase)] = 1
    scores, opened, red_threes = game.scores, game.opened, game.red_threes
    for s, (naturals, wilds_at, threes_at, opened_at, minimum_at, scores_at) in enumerate(per_side):
        for m in game.melds[s].values():
            # the engine counts the cards of a meld of wild cards as its naturals
            wilds = len(m.cards) if m.rank == WILD_RANK else m.wilds
            out[naturals + m.rank] = (len(m.cards) - wilds) / 7
            out[wilds_at + m.rank] = wilds / 7
        out[threes_at] = len(red_threes[s]) / 4
        out[opened_at] = float(opened[s])
        out[minimum_at] = game.minimum(s) / 100
        out[scores_at] = scores[s] / 5000
    m = blocks["misc"]
    out[m] = len(game.stock) / 100
    out[m + 1] = len(game.pile) / 100
    out[m + 2] = float(_frozen_view(game))
    out[m + 3] = game.pending_value / 100
    out[m + 4] = float(game.asked)
    out[m + 5] = float(game.permission is True)
    out[m + 6] = float(game.permission is False)
    out[m + 7] = float(game.variant.partner_of(seat) is not None)


def _frozen_view(game: Any) -> bool:
    """The observation's ``frozen``: Hand and Foot shows False, the other set-meld families the pile's state."""
    return False if isinstance(game, FootGame) else bool(game.frozen or game.variant.always_frozen)


def _encode_family_blocks(game: Any, seat: int, out: dict[int, float], blocks: dict[str, int], dtype: type) -> None:
    """Modern American's and Hand and Foot's blocks (:func:`xr_obs_layout`, :func:`feet_obs_layout`,
    :func:`pass_obs_layout`), from the engine's state."""
    players, sides = game.num_players, game.num_sides
    if isinstance(game, AmericanGame) and "bonus_cards" in blocks:
        for s in range(players):
            rel = (s - seat) % players
            out[blocks["bonus_cards"] + rel] = len(game.bonus[s]) / 4
            out[blocks["asked_hand"] + rel] = float(game.asked_hand[s])
        out[blocks["turn_card_drawn"]] = float(american_table.turn_card_drawn(game))
        for r in american_table.dead_ranks(game):
            out[blocks["dead_ranks"] + r - 4] = 1
    if not isinstance(game, FootGame) or "foot_sizes" not in blocks:
        return
    v = game.variant
    side: int = game._sides[seat]
    for s in range(players):
        rel = (s - seat) % players
        out[blocks["foot_sizes"] + rel] = (len(game.feet[s]) + (len(game.knees[s]) if v.knee_size else 0)) / 11
        out[blocks["in_foot"] + rel] = float(game.in_foot[s])
    kinds = ("clean", "dirty", "wild")
    for s in range(sides):
        rel = (s - side) % sides
        closed = [0, 0, 0]
        for r, cards in game.books[s]:
            closed[kinds.index(v.book_kind(r, sum(_WILD_CODE[c] for c in cards) if r != WILD_RANK else 0))] += 1
        for k, n in enumerate(closed):
            if n:  # fifths added one by one in ``dtype``, as encode_observation's vector does
                out[blocks["books"] + rel * 3 + k] = float(np.full(n, 1 / 5, dtype).cumsum()[-1])
    if "pass_phase" in blocks and v.hand_passing:
        revealed = game.phase != "pass"
        out[blocks["pass_phase"]] = float(not revealed)
        for s in range(players):
            rel = (s - seat) % players
            for i, pile in enumerate(game.passing[s]):
                out[blocks["pass_shown"] + (rel * 2 + i) * PASS_KINDS + _pass_kind(pile[-1])] = 1
            kept = game.kept[s]
            if kept and (revealed or s == seat):
                out[blocks["kept"] + rel * 2 + kept - 1] = 1
            shown = game.foot_shown[s]
            if shown is not None:
                out[blocks["foot_shown"] + rel * PASS_KINDS + _pass_kind(shown)] = 1


def _pass_kind(code: int) -> int:
    """The kind of a turned-up card (:data:`PASS_KINDS`)."""
    if code == JOKER:
        return 0
    rank = code >> 2
    if rank == 2:
        return 1
    if rank == THREE:
        return 3 if code in RED_THREE_CODES else 2
    return rank


#: Observation layout of variants with meld ids (Burraco): suits matter, melds are sets and runs.
ID_OBS_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", NUM_CODES), ("pile", NUM_CODES), ("pile_top", NUM_CODES),
    ("hand_sizes", MAX_SEATS),        # / 20, seats relative to own
    ("actor", MAX_SEATS), ("phase", len(PHASES)),
    ("set_naturals", MAX_SIDES * 16),  # per side (own first) and rank: naturals of its set / 9
    ("set_wild", MAX_SIDES * 16),      # per side and rank: 1 if its set has a wild card
    ("run_cover", MAX_SIDES * 4 * 15),  # per side, suit and value 1..14: covered by a run (count)
    ("run_wild", MAX_SIDES * 4 * 15),   # per side, suit and value: played by a wild card
    ("burracos", MAX_SIDES * 2),       # per side: clean, dirty burracos / 4
    ("piles", MAX_SIDES + MAX_SEATS + 2),  # per side: pozzetto taken; per seat: face-down size / 11;
                                           # pozzetti left (/2); barred card present
    ("scores", MAX_SIDES),            # / 2000
    ("misc", 4),                      # stock/100, pile/100, orbit/4, partnership game
)
ID_OBS_SIZE = sum(n for _, n in ID_OBS_LAYOUT)


#: Appended for a meld-id variant with Classic's turn (Samba): per side (own first) red threes / 6,
#: opened, minimum / 100; then frozen, pending value / 100, asked, permission yes, permission no.
CT_OBS_EXTRA = MAX_SIDES * 3 + 5


def obs_size(variant: str | None = None, players: int | None = None) -> int:
    """Length of the observation vector of ``variant`` at a table of ``players``.

    ``players`` None or at most four: the one length of every such table of the variant. More (Hand and
    Foot's 6 and 8 players) widen the per-seat (and per-side) blocks (:func:`obs_slots`); the length does
    not depend on the table rules (6 players in three teams of two or two teams of three alike)."""
    if variant is not None and _meld_ids(variant) and not (_feet(variant) or _american_rules(variant)):
        if players is not None and players > MAX_SEATS:
            raise ValueError(f"the observation vector of {variant} has room for {MAX_SEATS} seats, not {players}")
        return ID_OBS_SIZE + (CT_OBS_EXTRA if _layout(variant).classic_turn else 0)
    return sum(n for _, n in variant_obs_layout(variant, players))


def _encode_id_observation(obs: dict[str, Any], dtype: type) -> npt.NDArray[Any]:
    ct = _layout(obs["variant"]).classic_turn
    out: npt.NDArray[Any] = np.zeros(ID_OBS_SIZE + (CT_OBS_EXTRA if ct else 0), dtype=dtype)
    seat: int = obs["seat"]
    players: int = obs["players"]
    side: int = obs["side"]
    sides = len(obs["melds"])
    if players > MAX_SEATS or sides > MAX_SIDES:
        raise ValueError(f"the observation vector of {obs['variant']} has room for {MAX_SEATS} seats and "
                         f"{MAX_SIDES} sides, not {players} players in {sides} sides")
    b: dict[str, int] = {}
    offset = 0
    for name, n in ID_OBS_LAYOUT:
        b[name] = offset
        offset += n
    for c in obs["hand"]:
        out[b["hand"] + _card_code(c)] += 1
    for c in obs["pile"]:
        out[b["pile"] + _card_code(c)] += 1
    if obs["pile_top"] is not None:
        out[b["pile_top"] + _card_code(obs["pile_top"])] = 1
    for s in range(players):
        rel = (s - seat) % players
        out[b["hand_sizes"] + rel] = obs["hand_sizes"][s] / 20
        out[b["piles"] + MAX_SIDES + rel] = obs["face_down"][s] / 11
    if obs["actor"] is not None:
        out[b["actor"] + (obs["actor"] - seat) % players] = 1
    out[b["phase"] + PHASES.index(obs["phase"])] = 1
    for s in range(sides):
        rel = (s - side) % sides
        clean = dirty = 0
        for m in obs["melds"][s]:
            cards = [_card_code(c) for c in m["cards"]]
            if m["kind"] == "set":
                r = parse_rank(m["rank"]) if m["rank"] else WILD_RANK  # Bolivian: a meld of wild cards
                wild = sum(1 for c in cards if _is_wild(c))
                out[b["set_naturals"] + rel * 16 + r] += (len(cards) - wild) / 9  # Samba: several sets
                if wild:
                    out[b["set_wild"] + rel * 16 + r] = 1.0
            else:
                suit = next(c & 3 for i, c in enumerate(cards) if i != m["wild_index"])
                low = _run_low(cards, m["wild_index"])
                for i in range(len(cards)):
                    slot = b["run_cover"] + (rel * 4 + suit) * 15 + low + i
                    out[slot] += 1
                    if i == m["wild_index"]:
                        out[b["run_wild"] + (rel * 4 + suit) * 15 + low + i] = 1
            if m["canasta"]:
                if m["natural"]:
                    clean += 1
                else:
                    dirty += 1
        out[b["burracos"] + rel * 2] = clean / 4
        out[b["burracos"] + rel * 2 + 1] = dirty / 4
        out[b["piles"] + rel] = float(obs["piles_taken"][s] > 0)
        out[b["scores"] + rel] = obs["scores"][s] / 2000
    out[b["piles"] + MAX_SIDES + MAX_SEATS] = len(obs["extra_piles"]) / 2
    out[b["piles"] + MAX_SIDES + MAX_SEATS + 1] = float(obs["barred"] is not None)
    m0 = b["misc"]
    out[m0] = obs["stock_size"] / 100
    out[m0 + 1] = obs["pile_size"] / 100
    out[m0 + 2] = obs["orbit"] / 4
    out[m0 + 3] = float(obs["partner"] is not None)
    if ct:
        x = ID_OBS_SIZE
        for s in range(sides):
            rel = (s - side) % sides
            out[x + rel] = len(obs["red_threes"][s]) / 6
            out[x + MAX_SIDES + rel] = float(obs["opened"][s])
            out[x + 2 * MAX_SIDES + rel] = obs["minimum"][s] / 100
        x += 3 * MAX_SIDES
        out[x] = float(obs["frozen"])
        out[x + 1] = obs["pending_value"] / 100
        out[x + 2] = float(obs["asked"])
        out[x + 3] = float(obs["permission"] is True)
        out[x + 4] = float(obs["permission"] is False)
    return out


@functools.lru_cache(maxsize=1)
def _id_blocks() -> dict[str, int]:
    blocks: dict[str, int] = {}
    offset = 0
    for name, n in ID_OBS_LAYOUT:
        blocks[name] = offset
        offset += n
    return blocks


def _encode_id_position(game: MeldIdGame, seat: int, dtype: type) -> npt.NDArray[Any]:
    """:func:`encode_position` of a variant with meld ids: ``_encode_id_observation`` read from the engine."""
    ct = _layout(game.variant_name).classic_turn
    players, sides = game.num_players, game.num_sides
    if players > MAX_SEATS or sides > MAX_SIDES:
        raise ValueError(f"the observation vector of {game.variant_name} has room for {MAX_SEATS} seats and "
                         f"{MAX_SIDES} sides, not {players} players in {sides} sides")
    out: npt.NDArray[Any] = np.zeros(ID_OBS_SIZE + (CT_OBS_EXTRA if ct else 0), dtype=dtype)
    b = _id_blocks()
    out[b["hand"]:b["hand"] + NUM_CODES] = game.hands[seat]
    if game.pile:
        out[b["pile"]:b["pile"] + NUM_CODES] = np.bincount(game.pile, minlength=NUM_CODES)
        out[b["pile_top"] + game.pile[-1]] = 1
    for s in range(players):
        rel = (s - seat) % players
        out[b["hand_sizes"] + rel] = game.hand_sizes[s] / 20
        out[b["piles"] + MAX_SIDES + rel] = len(game.face_down[s]) / 11
    if not game.is_over:
        out[b["actor"] + (game.actor - seat) % players] = 1
    out[b["phase"] + PHASES.index(game.phase)] = 1
    side: int = game._sides[seat]
    canasta_size = game.variant.CANASTA_SIZE
    for s in range(sides):
        rel = (s - side) % sides
        clean = dirty = 0
        for m in game.melds[s].values():
            cards = m.cards
            if m.kind == "set":
                r = m.rank or WILD_RANK  # Bolivian: a meld of wild cards
                wild = sum(_WILD_CODE[c] for c in cards)
                out[b["set_naturals"] + rel * 16 + r] += (len(cards) - wild) / 9  # Samba: several sets
                if wild:
                    out[b["set_wild"] + rel * 16 + r] = 1.0
            else:
                low = _run_low(cards, m.wild_index)
                cover = b["run_cover"] + (rel * 4 + m.suit) * 15 + low
                for i in range(len(cards)):
                    out[cover + i] += 1
                if m.wild_index >= 0:
                    out[b["run_wild"] + (rel * 4 + m.suit) * 15 + low + m.wild_index] = 1
            if len(cards) >= canasta_size:
                if m.wilds == 0:
                    clean += 1
                else:
                    dirty += 1
        out[b["burracos"] + rel * 2] = clean / 4
        out[b["burracos"] + rel * 2 + 1] = dirty / 4
        out[b["piles"] + rel] = float(game.piles_taken[s] > 0)
        out[b["scores"] + rel] = game.scores[s] / 2000
    x = b["piles"] + MAX_SIDES + MAX_SEATS
    out[x] = len(game.extra_piles) / 2
    out[x + 1] = float(game.barred is not None)
    m0 = b["misc"]
    out[m0:m0 + 4] = (len(game.stock) / 100, len(game.pile) / 100, game.orbit / 4,
                      float(game.variant.partner_of(seat) is not None))
    if ct and isinstance(game, SambaPlay):
        _encode_classic_turn(game, side, out)
    return out


def _encode_classic_turn(game: SambaPlay, side: int, out: npt.NDArray[Any]) -> None:
    """The :data:`CT_OBS_EXTRA` block of Samba and its relatives, from the engine's state."""
    sides = game.num_sides
    x = ID_OBS_SIZE
    for s in range(sides):
        rel = (s - side) % sides
        out[x + rel] = len(game.red_threes[s]) / 6
        out[x + MAX_SIDES + rel] = float(game.opened[s])
        out[x + 2 * MAX_SIDES + rel] = game.minimum(s) / 100
    x += 3 * MAX_SIDES
    out[x:x + 5] = (float(game.frozen), game.pending_value / 100, float(game.asked),
                    float(game.permission is True), float(game.permission is False))


def _run_low(cards: list[int], wild_index: int) -> int:
    """Value (1..14) of a run's low end, from its first natural card."""
    for i, c in enumerate(cards):
        if i != wild_index:
            r = c >> 2
            if r == 14:  # an ace: low if the run goes up from it, high at the top
                return 1 - i if i == 0 and len(cards) > 1 else 14 - i
            return r - i
    return 1


# ------------------------------------------------------------------ bounds of the observation vector
#: Where a figure has no hard limit, the vector saturates (the environments clip to :func:`obs_bounds`):
#: game scores at +-50,000 points, an initial-meld minimum or a pending value at 1,000 points.
SCORE_SATURATION = 50_000
POINTS_SATURATION = 1_000


def obs_bounds(variant: str, players: int, rules: dict[str, Any] | None = None
               ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """(low, high) of every entry of the observation vector of ``variant`` at a table of ``players``:
    finite, float32, derived from the pack (a count never exceeds the cards there are). An entry reaches
    its bound only in extreme positions; the two figures without a hard limit saturate
    (:data:`SCORE_SATURATION`, :data:`POINTS_SATURATION`): the environments clip to these bounds."""
    from canasta.variants import find_variant

    cls: Any = find_variant(variant)
    deck = list(cls(players, rules or {}).deck())
    n = float(len(deck))
    copies = float(max(deck.count(c) for c in set(deck)))
    per_rank = 4 * copies
    wilds = float(sum(1 for c in deck if _is_wild(c)))
    threes = float(sum(1 for c in deck if c >> 2 == THREE))
    points = POINTS_SATURATION / 100
    if _meld_ids(variant) and not (_feet(variant) or _american_rules(variant)):
        score = SCORE_SATURATION / 2000
        high: dict[str, float] = {
            "hand": copies, "pile": copies, "pile_top": 1, "hand_sizes": n / 20, "actor": 1, "phase": 1,
            "set_naturals": per_rank / 9, "set_wild": 1, "run_cover": n, "run_wild": 1, "burracos": n / 7 / 4,
            "piles": max(1.0, n / 11), "scores": score, "misc": max(1.0, n / 100)}
        low_parts, high_parts = [], []
        for name, size in ID_OBS_LAYOUT:
            low_parts.append(np.full(size, -score if name == "scores" else 0.0))
            high_parts.append(np.full(size, high[name]))
        if _layout(variant).classic_turn:
            extra = [threes / 6] * MAX_SIDES + [1.0] * MAX_SIDES + [points] * MAX_SIDES + [1, points, 1, 1, 1]
            low_parts.append(np.zeros(CT_OBS_EXTRA))
            high_parts.append(np.array(extra, dtype=float))
        return np.concatenate(low_parts).astype(np.float32), np.concatenate(high_parts).astype(np.float32)
    score = SCORE_SATURATION / 5000
    high = {
        "hand": copies, "pile": copies, "pile_top": 1, "hand_sizes": n / 20, "actor": 1, "phase": 1,
        "meld_naturals": per_rank / 7, "meld_wilds": wilds / 7, "red_threes": threes / 4, "opened": 1,
        "minimum": points, "scores": score, "foot_sizes": n / 11, "in_foot": 1, "books": n / 7 / 5,
        "pass_phase": 1, "pass_shown": 1, "kept": 1, "foot_shown": 1, "bonus_cards": n / 4,
        "turn_card_drawn": 1, "dead_ranks": 1, "asked_hand": 1}
    misc = [n / 100, n / 100, 1, points, 1, 1, 1, 1]  # stock, pile, frozen, pending value, flags
    lows, highs = [], []
    for name, size in variant_obs_layout(variant, players):
        lows.append(np.full(size, -score if name == "scores" else 0.0))
        highs.append(np.array(misc, dtype=float) if name == "misc" else np.full(size, high[name]))
    return np.concatenate(lows).astype(np.float32), np.concatenate(highs).astype(np.float32)
