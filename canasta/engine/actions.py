"""Atomic actions of a turn.

A turn is split into small decisions (draw or take the pile, then one meld or
addition at a time, then the discard) so that the legal actions at any point
number a few dozen at most: good for search and reinforcement learning, and
each step can be checked and explained on its own. See docs/architecture.md.

An action's text (``str(action)``, :func:`format_action`) is written here, next to the
action; :mod:`canasta.notation`, above this module, parses it and re-exports the formatting.
"""

from __future__ import annotations

from typing import NamedTuple

from canasta.cards import NUM_CODES, format_card, format_rank

DRAW = "draw"        # draw from the stock
TAKE = "take"        # take the discard pile; cards = cards from hand melded with the top card
MELD = "meld"        # start a new meld with the named cards
ADD = "add"          # add the named cards to the side's meld of rank ``target``
DISCARD = "discard"  # discard one card, ending the turn
ASK = "ask"          # "Partner, may I go out?"
YES = "yes"          # partner's answer
NO = "no"
RETRACT = "retract"  # take back an insufficient initial meld (with the Bicycle penalty)
END = "end"          # decline to take the pile when the stock is gone, ending the hand
MERGE = "merge"      # Samba: combine two sets of a rank into one ('merge #a #b', meld b into meld a)
SPECIAL = "special"  # Modern American: lay down the whole hand as a special hand ('special straight')
KEEP = "keep"        # Hand and Foot's hand-passing deal: keep dealt pile 1 or 2 (target) as the foot, pass the other

KINDS = (DRAW, TAKE, MELD, ADD, DISCARD, ASK, YES, NO, RETRACT, END, MERGE, SPECIAL, KEEP)

#: The special hands of Modern American, in the order of their ``special`` action targets (1, 2, ...).
SPECIAL_HANDS = ("straight", "pairs", "pairs-wild", "garbage", "zip-code")

#: ``add #n ...`` names meld n of a variant with meld ids; its action target is ID_BASE + n.
ID_BASE = 100
#: ``merge #a #b`` (a < b) has the action target ID_BASE + a + MERGE_STRIDE * b.
MERGE_STRIDE = 1000
#: the word of the notation for the meld of wild cards (``add W 2c``; its action target is 1)
WILD_TARGET = "W"


class Action(NamedTuple):
    """One atomic step. ``cards`` are card codes; ``target`` is a meld's rank for ``add``
    (``ID_BASE + n`` for meld ``#n``; for ``merge`` both ids, see :func:`merge_target`;
    for ``special`` the position of the hand in :data:`SPECIAL_HANDS`, plus one; for ``keep`` the pile, 1 or 2)."""

    kind: str
    cards: tuple[int, ...] = ()
    target: int = 0

    def __str__(self) -> str:
        return format_action(self)


def merge_target(a: int, b: int) -> int:
    """The action target of ``merge #a #b``: set ``b`` combined into set ``a``."""
    return ID_BASE + a + MERGE_STRIDE * b


def merge_ids(target: int) -> tuple[int, int]:
    """(a, b) of a ``merge`` action's target (see :func:`merge_target`)."""
    b, rest = divmod(target, MERGE_STRIDE)
    return rest - ID_BASE, b


def format_action(action: Action) -> str:
    """The action in the text notation (:mod:`canasta.notation`, which parses it back): here, with
    :class:`Action`, so that ``str(action)`` needs nothing above this module."""
    parts = [action.kind]
    if action.kind == SPECIAL:
        t = action.target
        parts.append(SPECIAL_HANDS[t - 1] if 1 <= t <= len(SPECIAL_HANDS) else f"?{t}")
    elif action.kind == KEEP:
        parts.append(str(action.target))
    elif action.kind == MERGE:
        a, b = merge_ids(action.target)
        parts += [f"#{a}", f"#{b}"]
    elif action.kind == TAKE and action.target >= ID_BASE:  # Samba: 'take #n', the top card onto meld n
        parts.append(f"#{action.target - ID_BASE}")
    elif action.kind == ADD:
        t = action.target
        parts.append(WILD_TARGET if t == 1 else f"#{t - ID_BASE}" if t >= ID_BASE else format_rank(t))
    parts.extend(format_card(c) for c in action.cards)
    return " ".join(parts)


DRAW_ACTION = Action(DRAW)
ASK_ACTION = Action(ASK)
YES_ACTION = Action(YES)
NO_ACTION = Action(NO)
RETRACT_ACTION = Action(RETRACT)
END_ACTION = Action(END)

# Interned actions: legal-action generation is the hot path of every bot and benchmark (the Game's
# and the Modern American rules' of canasta.engine.setrules share them).
#: the discard of each card code
DISCARD_ACTIONS = [Action(DISCARD, (c,)) for c in range(NUM_CODES)]
#: the addition of each natural card code to the meld of its rank
ADD_NATURAL_ACTIONS = [Action(ADD, (c,), c >> 2) for c in range(NUM_CODES)]
_ADD_CACHE: dict[tuple[int, int], Action] = {}
_MELD_CACHE: dict[tuple[int, ...], Action] = {}
_TAKE_CACHE: dict[tuple[int, ...], Action] = {}
_TARGET_CACHE: dict[tuple[str, int], Action] = {}


def add_action(card: int, target: int) -> Action:
    """The addition of ``card`` to the meld ``target`` (a rank, or ``ID_BASE`` + a meld id) (interned)."""
    a = _ADD_CACHE.get((card, target))
    if a is None:
        a = _ADD_CACHE[(card, target)] = Action(ADD, (card,), target)
    return a


def add_wild_action(w: int, rank: int) -> Action:
    """The addition of the wild card ``w`` to the meld of ``rank`` (interned)."""
    return add_action(w, rank)


def take_action(cards: tuple[int, ...]) -> Action:
    """The take of the pile with ``cards`` from the hand (interned)."""
    a = _TAKE_CACHE.get(cards)
    if a is None:
        a = _TAKE_CACHE[cards] = Action(TAKE, cards)
    return a


def target_action(kind: str, target: int) -> Action:
    """An action with no cards and a target: ``take #n`` (the top card onto meld n), ``merge #a #b`` (interned)."""
    a = _TARGET_CACHE.get((kind, target))
    if a is None:
        a = _TARGET_CACHE[(kind, target)] = Action(kind, (), target)
    return a


def meld_action(cards: tuple[int, ...]) -> Action:
    """The new meld of ``cards`` (interned)."""
    a = _MELD_CACHE.get(cards)
    if a is None:
        a = _MELD_CACHE[cards] = Action(MELD, cards)
    return a


def special_action(name: str) -> Action:
    """The action laying down the whole hand as the special hand ``name`` (e.g. "straight")."""
    return Action(SPECIAL, (), SPECIAL_HANDS.index(name) + 1)
