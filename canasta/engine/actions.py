"""Atomic actions of a turn.

A turn is split into small decisions (draw or take the pile, then one meld or
addition at a time, then the discard) so that the legal actions at any point
number a few dozen at most: good for search and reinforcement learning, and
each step can be checked and explained on its own. See docs/architecture.md.
"""

from __future__ import annotations

from typing import NamedTuple

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


class Action(NamedTuple):
    """One atomic step. ``cards`` are card codes; ``target`` is a meld's rank for ``add``
    (``ID_BASE + n`` for meld ``#n``; for ``merge`` both ids, see :func:`canasta.notation.merge_target`;
    for ``special`` the position of the hand in :data:`SPECIAL_HANDS`, plus one; for ``keep`` the pile, 1 or 2)."""

    kind: str
    cards: tuple[int, ...] = ()
    target: int = 0

    def __str__(self) -> str:
        from canasta.notation import format_action

        return format_action(self)


DRAW_ACTION = Action(DRAW)
ASK_ACTION = Action(ASK)
YES_ACTION = Action(YES)
NO_ACTION = Action(NO)
RETRACT_ACTION = Action(RETRACT)
END_ACTION = Action(END)


def special_action(name: str) -> Action:
    """The action laying down the whole hand as the special hand ``name`` (e.g. "straight")."""
    return Action(SPECIAL, (), SPECIAL_HANDS.index(name) + 1)
