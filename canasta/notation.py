"""Text notation for actions (records live in :mod:`canasta.record`).

An action is one short line: a verb and its cards, e.g. ``draw``, ``take Kh Kd``,
``meld 9s 9h 2c``, ``add K Kc JK``, ``add #3 6h`` (meld 3 of a variant with
meld ids, such as Burraco), ``merge #3 #5`` (Samba: set 5 combined into set 3), ``discard 4d``, ``ask``, ``yes``, ``no``,
``retract``, ``end``, ``special straight`` (Modern American: the whole hand as a special hand),
``keep 2`` (Hand and Foot's hand-passing deal: dealt pile 2 kept as the foot, pile 1 passed left). In a record it is preceded by its actor: ``2: discard 4d``.
See docs/notation.md.
"""

from __future__ import annotations

from canasta.cards import is_wild_card, parse_card, parse_rank
from canasta.engine.actions import ADD, DISCARD, KEEP, KINDS, MELD, MERGE, SPECIAL, SPECIAL_HANDS, TAKE, Action

# Formatting, the meld-id targets and the wild meld's word live with Action (str(action) formats
# it; canasta.engine.actions imports nothing above it) and are re-exported here, where they always were.
from canasta.engine.actions import ID_BASE as ID_BASE
from canasta.engine.actions import MERGE_STRIDE as MERGE_STRIDE
from canasta.engine.actions import WILD_TARGET as _WILD_TARGET
from canasta.engine.actions import format_action as format_action
from canasta.engine.actions import merge_ids as merge_ids
from canasta.engine.actions import merge_target as merge_target
from canasta.errors import NotationError


def _meld_id(word: str) -> int:
    if not word.startswith("#") or not word[1:].isdigit() or not 1 <= int(word[1:]) < MERGE_STRIDE - ID_BASE:
        raise NotationError(f"{word!r} is not a meld id (write e.g. #3)")
    return int(word[1:])


def parse_action(text: str) -> Action:
    """Parse one action (without actor). Raises :class:`NotationError` on bad text."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb = words[0].lower()
    if verb not in KINDS:
        raise NotationError(f"unknown action {words[0]!r}; actions are: {', '.join(KINDS)}")
    args = words[1:]
    target = 0
    if verb == MERGE:
        if len(args) != 2:
            raise NotationError("merge names two melds, e.g. 'merge #3 #5'")
        return Action(MERGE, (), merge_target(_meld_id(args[0]), _meld_id(args[1])))
    if verb == SPECIAL:
        if len(args) != 1 or args[0].lower() not in SPECIAL_HANDS:
            raise NotationError(f"special names one special hand: {', '.join(SPECIAL_HANDS)} (e.g. 'special straight')")
        return Action(SPECIAL, (), SPECIAL_HANDS.index(args[0].lower()) + 1)
    if verb == KEEP:
        if len(args) != 1 or args[0] not in ("1", "2"):
            raise NotationError("keep names the dealt pile kept as the foot, 1 or 2 (e.g. 'keep 1')")
        return Action(KEEP, (), int(args[0]))
    if verb == TAKE and args and args[0].startswith("#"):
        if not args[0][1:].isdigit() or int(args[0][1:]) < 1:
            raise NotationError(f"{args[0]!r} is not a meld id (write e.g. #3)")
        target, args = ID_BASE + int(args[0][1:]), args[1:]
    if verb == ADD:
        if not args:
            raise NotationError("add needs a meld (its rank) and cards, e.g. 'add K Kc'")
        first = args[0]
        if first.upper() == _WILD_TARGET:
            target, args = 1, args[1:]
        elif first.startswith("#"):
            if not first[1:].isdigit() or int(first[1:]) < 1:
                raise NotationError(f"{first!r} is not a meld id (write e.g. #3)")
            target, args = ID_BASE + int(first[1:]), args[1:]
        elif first.upper() in ("JK", "JOKER"):
            target = 0  # a joker card, not a meld: the meld comes from the naturals named
        else:
            try:
                target = parse_rank(first)
                args = args[1:]
            except NotationError:
                # 'add Kc' alone: the meld is the natural card's rank
                target = 0
    cards = tuple(parse_card(a) for a in args)
    if verb == ADD and target == 0:
        naturals = [c for c in cards if not is_wild_card(c)]
        if not naturals:
            raise NotationError("add with only wild cards must name the meld, e.g. 'add K 2c'")
        target = naturals[0] >> 2
    if verb in (MELD, ADD, DISCARD) and not cards:
        raise NotationError(f"{verb} needs cards")
    if verb not in (MELD, ADD, DISCARD, TAKE) and cards:
        raise NotationError(f"{verb} takes no cards")
    return Action(verb, cards, target)


def format_move(seat: int, action: Action) -> str:
    return f"{seat}: {format_action(action)}"


def parse_move(line: str) -> tuple[int, Action]:
    head, sep, rest = line.partition(":")
    if not sep or not head.strip().isdigit():
        raise NotationError(f"a move is 'SEAT: ACTION', e.g. '0: draw', not {line!r}")
    return int(head), parse_action(rest)


