"""Completeness of ``legal_actions()``: every action ``check()`` accepts is listed, up to folding.

The soak checks soundness (every listed action passes ``check()``); this module checks
the converse on a position. It builds a *superset* of candidate actions without
consulting the generators (every sub-multiset of up to four held cards as a ``meld``,
every held card onto every meld of the side, ``take`` with no card, one card or any
pair of held cards, every ``discard``, and each variant's special actions: ``draw``,
``end``, ``ask``, ``yes``, ``no``, ``retract``, ``keep 1|2``, ``special`` hands,
``merge`` of every ordered pair of melds, ``take #n`` onto every meld, and for a hand
of four cards or fewer every multi-card ``add``), asks ``check()`` about each, and
reports the accepted ones that ``legal_actions()`` does not cover.

Covered means (the folding documented in docs/architecture.md, "What legal_actions()
folds"):

1. **Same fold key**: same kind and target and the same multiset of card *classes*
   (:func:`card_class`): suits are ignored where the variant ignores them.
2. **Reachable in steps**: a ``meld``, ``take`` or ``add`` of several cards is covered
   when a listed action of the same kind (same target for ``add``) does a strict part
   of it (its card classes a strict sub-multiset) and, in the position that listed
   action leads to, adding the rest onto the meld it made or grew is itself covered.
   This is why ``legal_actions()`` needs to list only three-card meld starts and
   one-card additions (plus the multi-card additions that going out needs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from canasta.cards import BLACK_THREE_CODES, JOKER, LOWEST_TWO, NUM_CODES, RED_THREE_CODES, THREE, is_two, is_wild_card
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
from canasta.engine.game import P_OVER, Game
from canasta.engine.idmelds import MeldIdGame
from canasta.engine.idturn import SambaGame
from canasta.engine.setmeld import WILD_RANK
from canasta.errors import IllegalActionError
from canasta.notation import ID_BASE, merge_target

#: Largest meld start tried (the issue's superset: every subset of up to four held cards).
MAX_MELD_CARDS = 4
#: Multi-card additions are candidates only for a hand this small (where going out needs them).
MAX_HAND_FOR_MULTI_ADD = 4
#: Depth of the "reachable in steps" search (a four-card action needs at most three steps).
MAX_STEPS = 4



def card_class(game: Game, code: int) -> int:
    """The class of a card: the code of the card ``legal_actions()`` lets stand for it.

    Variants on Classic's set melds (Classic, Uruguayan, Cuban, Mille, Modern American,
    Hand and Foot, Triple Play) ignore suits except the colour of threes: a natural
    stands for its rank (its spade), a 2 for every 2, a black three for both, a red
    three for both. Cards worth more than the rest of their rank (Mille's Q of spades
    and J of diamonds) are classes of their own, and the plain cards of that rank are
    one class. Meld-id variants with Classic's turn (the Samba family) keep the suits
    of naturals (escaleras are runs in a suit) but fold the 2s and the black threes;
    Burraco keeps every card (a 2 of a run's suit may play natural).
    """
    if code == JOKER:
        return JOKER
    if isinstance(game, MeldIdGame):
        if not isinstance(game, SambaGame):
            return code
        if is_two(code):
            return LOWEST_TWO
        return BLACK_THREE_CODES[0] if code in BLACK_THREE_CODES else code
    if is_two(code):
        return LOWEST_TWO
    if code >> 2 == THREE and not game._threes_ordinary:
        return BLACK_THREE_CODES[0] if code in BLACK_THREE_CODES else RED_THREE_CODES[0]
    if code in game._special_codes:
        return code
    base = (code >> 2) * 4
    # the first plain card of the rank stands for the others
    for x in range(base, base + 4):
        if x not in game._special_codes:
            return x
    return code  # pragma: no cover - every rank has a plain card


def fold_key(game: Game, action: Action) -> tuple[str, int, tuple[int, ...]]:
    """Kind, target and sorted card classes: two actions with one key have the same effect
    up to the suits the variant ignores."""
    return action.kind, action.target, tuple(sorted(card_class(game, c) for c in action.cards))


FoldKey = tuple[str, int, tuple[int, ...]]


def class_table(game: Game) -> list[int]:
    """:func:`card_class` of every card code, computed once a position (it depends only on the variant)."""
    return [card_class(game, code) for code in range(NUM_CODES)]


def _held_by_class(game: Game, seat: int, classes: list[int]) -> list[tuple[int, list[int]]]:
    """Per card class ``seat`` holds, in increasing class order: the codes held (with repeats, lowest first)."""
    hand = game.hands[seat]
    by_class: dict[int, list[int]] = {}
    for c in range(NUM_CODES):
        if hand[c]:
            by_class.setdefault(classes[c], []).extend([c] * hand[c])
    return sorted(by_class.items())


def clashes_in_a_run_or_set(a: int, b: int) -> bool:
    """Two natural cards (not a joker or a 2) that differ in both rank and suit: no set and no run holds both."""
    return a >> 2 != b >> 2 and (a & 3) != (b & 3) and not (is_wild_card(a) or is_wild_card(b))


def clashes_in_a_set(a: int, b: int) -> bool:
    """Two natural cards (not a joker or a 2) of different ranks: no set holds both."""
    return a >> 2 != b >> 2 and not (is_wild_card(a) or is_wild_card(b))


#: Per card code, the codes it clashes with (the two predicates above as tables: the enumeration asks often).
_CLASH_IN_A_RUN_OR_SET = [frozenset(b for b in range(NUM_CODES) if clashes_in_a_run_or_set(a, b)) for a in range(NUM_CODES)]
_CLASH_IN_A_SET = [frozenset(b for b in range(NUM_CODES) if clashes_in_a_set(a, b)) for a in range(NUM_CODES)]


def _sub_multisets(held: list[tuple[int, list[int]]], largest: int,
                   clash: list[frozenset[int]] | None = None) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(sorted card classes, one realisation with the lowest codes) of every non-empty multiset of card
    classes of at most ``largest`` cards drawn from ``held`` (sorted by class, so the classes come sorted:
    the fold key is known without sorting again).

    With ``clash`` (per code, the codes it clashes with), only the multisets whose realisation holds
    no two cards that clash (a clash
    in a part stays in every multiset that contains it, so the enumeration stops growing there):
    see :func:`meld_start_candidates` for why the others need no asking.
    """
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    classes: list[int] = []
    cards: list[int] = []

    def grow(start: int) -> None:
        for i in range(start, len(held)):
            cls, codes = held[i]
            added = 0
            for code in codes[:largest - len(cards)]:
                if clash is not None and not clash[code].isdisjoint(cards):
                    break  # more of this class clash too: they realise with this card in them
                cards.append(code)
                classes.append(cls)
                added += 1
                out.append((tuple(classes), tuple(cards)))
                if len(cards) < largest:
                    grow(i + 1)
            del cards[len(cards) - added:]
            del classes[len(classes) - added:]

    grow(0)
    return out


def meld_start_candidates(game: Game, held: list[tuple[int, list[int]]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ``meld`` candidates: every sub-multiset of up to :data:`MAX_MELD_CARDS` held cards, except those
    that no meld of the variant can hold, which ``check()`` is sure to refuse:

    - meld-id rules (the Samba family and Burraco): two natural cards of different rank *and*
      suit (:func:`clashes_in_a_run_or_set`). There ``check()`` accepts a ``meld`` only when the
      variant's ``arrange_meld`` makes a set (one rank) or a run (one suit) of its cards
      (:func:`refused_by_shape`); the lemma is checked exhaustively, every multiset of up to
      four card codes of each such variant's deck, by ``test_clashing_cards_never_make_a_meld``.
    - set melds (Classic's rules and the variants on them): two natural cards of different ranks
      (:func:`clashes_in_a_set`): every way a ``meld`` is accepted (``Game._check_meld_like``,
      ``setrules.check_meld_like``, Mille's joining melds) first refuses naturals of two ranks
      ("meld-rank", "red-three", "black-three-meld"). Checked on soaked positions of each such
      rules family by ``test_pruning_only_skips_what_check_refuses``.
    """
    clashes = _CLASH_IN_A_RUN_OR_SET if isinstance(game, MeldIdGame) else _CLASH_IN_A_SET
    return _sub_multisets(held, MAX_MELD_CARDS, clashes)


def _meld_targets(game: Game, side: int) -> list[int]:
    """The action targets naming the side's melds."""
    if isinstance(game, MeldIdGame):
        return [ID_BASE + meld_id for meld_id in game.melds[side]]
    return list(game.melds[side])


def keyed_candidates(game: Game, classes: list[int] | None = None) -> Iterator[tuple[FoldKey, Action]]:
    """A superset of the actions that can be legal now (built without the generators), each with its
    :func:`fold_key` (computed while building: the candidates are built per card class, not per card)."""
    if game.phase == P_OVER:
        return
    if classes is None:
        classes = class_table(game)
    seat = game.actor
    held = _held_by_class(game, seat, classes)
    singles = [(cls, cards[0]) for cls, cards in held]
    for kind in (DRAW, ASK, YES, NO, RETRACT, END):
        yield (kind, 0, ()), Action(kind)
    for pile in (1, 2):
        yield (KEEP, pile, ()), Action(KEEP, (), pile)
    for number in range(1, len(SPECIAL_HANDS) + 1):
        yield (SPECIAL, number, ()), Action(SPECIAL, (), number)
    side = game._sides[game.turn]
    targets = _meld_targets(game, side)
    # takes: the whole pile, with one card, with any pair, and (meld ids) the top card onto a meld
    yield (TAKE, 0, ()), Action(TAKE)
    for cls, c in singles:
        yield (TAKE, 0, (cls,)), Action(TAKE, (c,))
    for pair_classes, cards in _sub_multisets(held, 2):
        if len(cards) == 2:
            yield (TAKE, 0, pair_classes), Action(TAKE, cards)
    if isinstance(game, MeldIdGame):
        for t in targets:
            yield (TAKE, t, ()), Action(TAKE, (), t)
        for a, b in ((a, b) for a in game.melds[side] for b in game.melds[side] if a != b):
            target = merge_target(a, b)
            yield (MERGE, target, ()), Action(MERGE, (), target)
    for cls, c in singles:
        yield (DISCARD, 0, (cls,)), Action(DISCARD, (c,))
    for meld_classes, cards in meld_start_candidates(game, held):
        yield (MELD, 0, meld_classes), Action(MELD, cards)
    # additions: every held card onto every meld; for a small hand, every sub-multiset
    additions = _sub_multisets(held, MAX_MELD_CARDS) if game.hand_sizes[seat] <= MAX_HAND_FOR_MULTI_ADD else [
        ((cls,), (c,)) for cls, c in singles]
    for add_classes, cards in additions:
        for t in targets:
            yield (ADD, t, add_classes), Action(ADD, cards, t)


def candidate_actions(game: Game) -> Iterator[Action]:
    """A superset of the actions that can be legal now (built without the generators)."""
    for _, action in keyed_candidates(game):
        yield action


def _accepted(game: Game, action: Action) -> bool:
    try:
        game.check(action)
    except IllegalActionError:
        return False
    return True


def _changed_meld_target(before: Game, after: Game, side: int, action: Action) -> int | None:
    """The target of the meld ``action`` made or grew (None if it cannot be told)."""
    if action.kind == ADD:
        return action.target
    if action.kind == TAKE and action.target:
        return action.target
    old = before.melds[side]
    grown = [key for key, m in after.melds[side].items() if key not in old or len(m.cards) != len(old[key].cards)]
    if len(grown) != 1:
        return None
    return ID_BASE + grown[0] if isinstance(after, MeldIdGame) else grown[0]


def _realise(game: Game, seat: int, classes: Counter[int]) -> tuple[int, ...] | None:
    """Cards of the given classes from ``seat``'s hand (None if not held)."""
    hand = list(game.hands[seat])
    out: list[int] = []
    for cls, count in classes.items():
        for _ in range(count):
            code = next((c for c in range(NUM_CODES) if hand[c] and card_class(game, c) == cls), None)
            if code is None:
                return None
            hand[code] -= 1
            out.append(code)
    return tuple(out)


def _joining_add(game: Game, action: Action) -> Action | None:
    """Where melds of a rank join (Mille's ``MELDS_JOIN``), a ``meld`` of a rank the side has is an ``add``
    (of wild cards alone, onto the meld of wild cards: ``Game._check_meld_like`` joins them so)."""
    if action.kind != MELD or isinstance(game, MeldIdGame) or not game.variant.MELDS_JOIN:
        return None
    ranks = {c >> 2 for c in action.cards if not is_wild_card(c)}
    if len(ranks) > 1:
        return None
    rank = ranks.pop() if ranks else WILD_RANK  # wild cards alone join the meld of wild cards
    return Action(ADD, action.cards, rank) if rank in game.melds[game._sides[game.turn]] else None


class _Node:
    """A position the coverage search visits: its listed actions and their fold keys (computed once),
    and the positions its listed steps lead to (so the many candidates that share a first step,
    four-card meld starts over one three-card start, apply it and list the result once)."""

    __slots__ = ("_keys", "_listed", "game", "steps")

    def __init__(self, game: Game, listed: list[Action] | None = None, keys: set[FoldKey] | None = None) -> None:
        self.game = game
        self._listed = listed
        self._keys = keys
        self.steps: dict[Action, tuple[_Node, int] | None] = {}

    @property
    def listed(self) -> list[Action]:
        if self._listed is None:
            self._listed = self.game.legal_actions()
        return self._listed

    @property
    def keys(self) -> set[FoldKey]:
        if self._keys is None:
            self._keys = {fold_key(self.game, a) for a in self.listed}
        return self._keys

    def step(self, part: Action) -> tuple[_Node, int] | None:
        """(the position after the listed ``part``, target of the meld it made or grew), or None when that
        cannot be followed (refused, the turn or hand ended, or no single meld changed)."""
        if part in self.steps:
            return self.steps[part]
        game = self.game
        after = game.copy()
        followed: tuple[_Node, int] | None = None
        try:
            after.apply(part)
            applied = True
        except IllegalActionError:
            applied = False
        if applied and after.turn == game.turn and after.hand_no == game.hand_no:
            target = _changed_meld_target(game, after, game._sides[game.turn], part)
            if target is not None:
                followed = (_Node(after), target)
        self.steps[part] = followed
        return followed


def is_covered(game: Game, action: Action, listed: list[Action] | None = None, depth: int = MAX_STEPS,
               listed_keys: set[FoldKey] | None = None) -> bool:
    """Whether ``legal_actions()`` covers ``action`` (same fold key, or reachable in listed steps);
    ``listed`` and ``listed_keys`` (its fold keys), if the caller has them."""
    return _covered(_Node(game, listed, listed_keys), action, depth)


def _covered(node: _Node, action: Action, depth: int) -> bool:
    game = node.game
    key = fold_key(game, action)
    if key in node.keys:
        return True
    joined = _joining_add(game, action)
    if joined is not None:
        return _covered(node, joined, depth)
    if action.kind not in (MELD, TAKE, ADD) or len(action.cards) < 2 or depth <= 1:
        return False
    want = Counter(key[2])
    seat = game.actor
    for part in node.listed:
        if part.kind != action.kind or (action.kind == ADD and part.target != action.target):
            continue
        if action.kind == TAKE and part.target != action.target:
            continue
        have = Counter(card_class(game, c) for c in part.cards)
        if have == want or any(have[c] > want[c] for c in have):
            continue
        followed = node.step(part)
        if followed is None:
            continue
        after, target = followed
        rest_cards = _realise(after.game, seat, want - have)
        if rest_cards is None:
            continue
        rest = Action(ADD, rest_cards, target)
        if _accepted(after.game, rest) and _covered(after, rest, depth - 1):
            return True
    return False


def refused_by_shape(game: Game, action: Action, shapes: dict[tuple[int, ...], bool]) -> bool:
    """Whether ``check()`` is certain to refuse ``action`` because its cards make no meld at all.

    Only for the meld-id rules (the Samba family and Burraco), and only for ``meld``: there,
    every way ``check()`` can accept a ``meld`` passes ``action.cards`` unchanged to the
    variant's ``arrange_meld`` and refuses when it answers with a reason (a string)
    (``SambaGame._meld_made_by`` and ``MeldIdGame._meld_made_by``; in any other phase a ``meld``
    is refused before that). ``arrange_meld`` depends on the cards and the variant alone, so its
    verdict is kept in ``shapes`` (one dict per game: one variant). The test
    ``test_pruning_only_skips_what_check_refuses`` asks ``check()`` about every pruned
    candidate of soaked positions.
    """
    if action.kind != MELD or not isinstance(game, MeldIdGame):
        return False
    cards = action.cards
    refused = shapes.get(cards)
    if refused is None:
        variant: Any = game.variant  # a meld-id variant (Samba's or Burraco's class): it has arrange_meld
        refused = shapes[cards] = isinstance(variant.arrange_meld(cards), str)
    return refused


def completeness_misses(game: Game, shapes: dict[tuple[int, ...], bool] | None = None) -> tuple[int, list[Action]]:
    """(candidates checked, accepted candidates that ``legal_actions()`` does not cover) at ``game``.

    Candidates are taken one per fold key (the first realisation, lowest card codes);
    those whose key is listed are covered whatever ``check()`` says and are not asked
    about, nor are meld starts that :func:`refused_by_shape` proves ``check()`` refuses
    (pass the same ``shapes`` dict for every position of one game to keep its verdicts).
    The count is of the candidates passed to ``check()``.
    """
    if shapes is None:
        shapes = {}
    listed = game.legal_actions()
    classes = class_table(game)
    listed_keys = {fold_key(game, a) for a in listed}
    node = _Node(game, listed, listed_keys)
    seen: set[FoldKey] = set()
    checked = 0
    misses: list[Action] = []
    for key, action in keyed_candidates(game, classes):
        if key in seen or key in listed_keys:
            continue  # one realisation per fold key (the others have the same effect), and listed ones are covered
        seen.add(key)
        if refused_by_shape(game, action, shapes):
            continue
        checked += 1
        if _accepted(game, action) and not _covered(node, action, MAX_STEPS):
            misses.append(action)
    return checked, misses


def describe_miss(game: Game, action: Action) -> dict[str, Any]:
    """A miss as JSON-able data: the action, the position and what was listed."""
    from canasta.notation import format_action

    return {"action": format_action(action), "phase": game.phase, "seat": game.actor,
            "hand": [format_action(Action(DISCARD, (c,)))[8:] for c in game.hand_cards(game.actor)],
            "listed": [format_action(a) for a in game.legal_actions()]}
