"""Readable set-up of Classic Canasta positions for the rule tests.

``position(...)`` builds a :class:`Game` through ``Game.from_dict`` from cards
written in the text notation ("Kh Kd 5c", "JK" for a joker). Every card named
is taken from the pack; the cards nobody named fill the stock (under the cards
given as ``stock``) so that the position holds exactly one pack, as
``from_dict`` requires. ``rest`` sends those remaining cards to the bottom of
the discard pile or into a seat's hand instead, for positions where the stock
must be short or empty.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from canasta.cards import format_card, is_black_three, is_red_three, parse_card
from canasta.engine.actions import DISCARD, Action
from canasta.engine.game import WILD_RANK, Game, _is_wild
from canasta.errors import IllegalActionError
from canasta.notation import format_action, parse_action

Cards = str | Sequence[str] | Sequence[int]


def cards(spec: Cards | None) -> list[int]:
    """Card codes from ``"Kh Kd 5c"``, a list of such words, or a list of codes."""
    if spec is None:
        return []
    if isinstance(spec, str):
        return [parse_card(w) for w in spec.split()]
    return [c if isinstance(c, int) else parse_card(c) for c in spec]


def meld_rank(codes: Sequence[int]) -> int:
    """The rank a meld of these cards is filed under (WILD_RANK for wild cards only)."""
    naturals = [c for c in codes if not _is_wild(c)]
    return naturals[0] >> 2 if naturals else WILD_RANK


def position(players: int = 4, *,
             hands: Mapping[int, Cards] | None = None,
             pile: Cards = "",
             melds: Mapping[int, Iterable[Cards]] | None = None,
             red_threes: Mapping[int, Cards] | None = None,
             stock: Cards | None = None,
             rest: str | int = "stock",
             turn: int = 0,
             phase: str = "draw",
             opened: Sequence[bool] | None = None,
             scores: Sequence[int] | None = None,
             rules: Mapping[str, Any] | None = None,
             frozen: bool | None = None,
             dealer: int | None = None,
             seed: int = 0,
             variant: str = "classic",
             **fields: Any) -> Game:
    """A position of Classic Canasta (or of ``variant``).

    - ``hands``: seat -> cards (seats not named hold no cards).
    - ``pile``: the discard pile, bottom first (the last card is the top).
    - ``melds``: side -> list of melds, each a card string.
    - ``red_threes``: side -> red threes laid out.
    - ``stock``: the next cards to be drawn, in drawing order.
    - ``rest``: where the unnamed cards go: ``"stock"`` (under ``stock``),
      ``"pile"`` (under ``pile``) or a seat number (into that hand).
    - ``opened``: per side; by default a side has opened iff it has melds.
    - ``frozen``: by default the pile is frozen iff the named pile cards hold a
      wild card or a red three (a black three too under ``black_three_freezes``).
    - ``phase``: "draw" (turn start), "play" (after drawing) or "answer".
    - ``variant``: the variant (default Classic), e.g. ``"mille"``.
    - ``fields``: any other key of ``Game.to_dict`` (``pending_value``,
      ``turn_created``, ``melded_before``, ``minimum_extra``, ...).
    """
    rules = dict(rules or {})
    base = Game(variant, players, seed, rules)
    d = base.to_dict()
    v = base.variant
    sides = v.num_sides
    pack = Counter(v.deck())

    def take(codes: list[int], where: str) -> list[int]:
        for c in codes:
            if pack[c] <= 0:
                raise ValueError(f"{where}: no {format_card(c)} left in the pack")
            pack[c] -= 1
        return codes

    hand_lists: list[list[int]] = [[] for _ in range(players)]
    for seat, spec in (hands or {}).items():
        hand_lists[seat] = take(cards(spec), f"hand {seat}")
    pile_list = take(cards(pile), "pile")
    meld_lists: list[list[list[int]]] = [[] for _ in range(sides)]
    for side, specs in (melds or {}).items():
        for spec in specs:
            meld_lists[side].append(take(cards(spec), f"melds of side {side}"))
    reds: list[list[int]] = [[] for _ in range(sides)]
    for side, spec in (red_threes or {}).items():
        reds[side] = take(cards(spec), f"red threes of side {side}")
    top_of_stock = take(cards(stock), "stock")

    remaining = sorted(pack.elements())
    random.Random(f"helpers/{seed}").shuffle(remaining)
    # red threes deepest, so that drawing a few unnamed cards never meets one by accident
    remaining.sort(key=lambda c: 0 if is_red_three(c) else 1)
    stock_list = list(reversed(top_of_stock))
    if rest == "stock":
        stock_list = remaining + stock_list
    elif rest == "pile":
        pile_list = remaining + pile_list
    elif isinstance(rest, int):
        hand_lists[rest].extend(remaining)
    else:
        raise ValueError(f"rest must be 'stock', 'pile' or a seat, not {rest!r}")

    if frozen is None:
        named_pile = cards(pile)
        frozen = any(_is_wild(c) or is_red_three(c) or (v.black_three_freezes and is_black_three(c))
                     for c in named_pile)
    d.update({
        "rules": rules,
        "hand_results": [],
        "history": [],
        "deals": [],
        "scores": list(scores) if scores is not None else [0] * sides,
        "dealer": dealer if dealer is not None else (turn - 1) % players,
        "phase": phase,
        "stock": stock_list,
        "pile": pile_list,
        "frozen": frozen,
        "hands": hand_lists,
        "melds": [[[meld_rank(m), m] for m in ms] for ms in meld_lists],
        "red_threes": reds,
        "opened": list(opened) if opened is not None else [bool(ms) for ms in meld_lists],
        "minimum_extra": [0] * sides,
        "penalties": [[] for _ in range(sides)],
        "melded_before": [False] * players,
        "turn": turn,
        "return_phase": "draw",
        "drawn": phase == "play",
        "took_pile": False,
        "pile_barred": False,
        "asked": False,
        "permission": None,
        "turn_created": [],
        "turn_added_existing": False,
        "pending_value": 0,
        "pile_aside": None,
        "take_snapshot": None,
        "unusable": None,
        "no_discard": False,
    })
    d.update(fields)
    return Game.from_dict(d)


def act(game: Game, *moves: str | Action) -> Game:
    """Apply actions written as text (``"take Kh Kd"``) or given as Actions."""
    for m in moves:
        game.apply(parse_action(m) if isinstance(m, str) else m)
    return game


def assert_illegal(game: Game, move: str | Action, rule: str) -> IllegalActionError:
    """The move is refused naming ``rule``, and the game is exactly as before."""
    action = parse_action(move) if isinstance(move, str) else move
    before = game.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert info.value.rule == rule, f"refused as {info.value.rule!r} ({info.value.message}), expected {rule!r}"
    assert game.to_json() == before, "a refused action changed the game"
    return info.value


def legal_texts(game: Game) -> set[str]:
    return {format_action(a) for a in game.legal_actions()}


def hand_text(game: Game, seat: int) -> list[str]:
    return [format_card(c) for c in game.hand_cards(seat)]


def last_result(game: Game) -> dict[str, Any]:
    assert game.hand_results, "no hand has been scored"
    return game.hand_results[-1]


def items(game: Game, side: int) -> dict[str, int]:
    """Score items of ``side`` in the last scored hand."""
    out: dict[str, int] = last_result(game)["sides"][side]["items"]
    return out


def shuffle_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with every card ``seat`` cannot see dealt anew: the other hands (but
    for their publicly known cards, ``known_hands``) and the stock."""
    d = game.to_dict()
    others = [s for s in range(game.num_players) if s != seat]
    hidden: dict[int, list[int]] = {}
    for s in others:
        rest = list(d["hands"][s])
        for c in d["known"][s]:
            rest.remove(c)
        hidden[s] = rest
    pool = [c for s in others for c in hidden[s]] + list(d["stock"])
    rng.shuffle(pool)
    for s in others:
        n = len(hidden[s])
        d["hands"][s], pool = sorted(list(d["known"][s]) + pool[:n]), pool[n:]
    d["stock"] = pool
    return Game.from_dict(d)


def discards_in_one_hand(player: Any, deal: str, variant: str = "classic", players: int = 4) -> int:
    """Play one hand with ``player`` at every seat, checking each choice is legal; its discards."""
    game = Game(variant, players, deal, {})
    discards = 0
    while not game.is_over and not game.hand_results:
        legal = game.legal_actions()
        choice = player.choose(game.observation(game.actor), legal)
        assert choice in legal
        discards += choice.kind == DISCARD
        game.push(choice)
    return discards
