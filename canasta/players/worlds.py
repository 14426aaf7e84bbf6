"""Determinizations for the families :mod:`canasta.players.expert` does not cover: full game
positions consistent with one seat's observation, the cards the seat has not seen dealt at random.

- :func:`determinize_feet`: Hand and Foot and Triple Play (``FEET``). Every card the seat has not
  seen (not in its hand, on the table, in the pile, laid out, or known to be in another hand) is
  dealt to the other hands, to every unplayed foot and knee (the seat's own too: nobody has looked
  at them) and to the stock, with the sizes the observation gives. With the hand-passing deal the
  turned-up cards are public: on top of each seat's two piles during the phase ``pass`` (the other
  seats' hidden choices are drawn at random), on top of each unplayed foot afterwards.
- :func:`determinize_american`: Modern American (``EXTENDED_SET_RULES``): as the Classic
  determinization, and the face-down bonus cards of every seat (its own too: the observation shows
  only their number) are dealt from the unseen cards. The turn card and the dead ranks need no
  state of their own: the engine derives them from the stock size and the melds, which the world
  copies.
- :func:`determinizer_for`: the function for a variant class, or None.

What is copied, derived, or guessed. Scores, turn, phase, hand number, dealer, melds (in their
order), books, red threes, removed cards, the pile, opened sides, minimums, the pending initial
meld count, ask/permission, who is in the foot or knee, and known cards are copied. A side's
``knee_side`` (Triple Play) is true when one of its seats has picked up the knee (that is the
only way a knee is picked up). ``opened_turn`` (American) is true when the side is open and the
turn has a pending count (the count is reset each turn and grows only during an initial meld).
When the pile was taken while the side was below its minimum, the cards set aside are copied
from the observation's ``pile_taken_aside`` (they lay face up in the pile: every seat sees them).

Turn-internal state that the observation does not show, and that can change the acting seat's
legal actions: whether the pile was taken this turn (Triple Play: no discard after a take, the
turn ends with ``end``; American: the melds that still count as the initial meld; the pile's top
card of a take that can be retracted), whether a pile take was retracted this turn (``pile_barred``),
whether the last stock card was a red three (``no_discard``, Hand and Foot), how often the stock
was restocked, and whether an open side already melded or added this turn (asking "may I go out?",
American). Each function enumerates the possible values (the most common first) and

- with ``legal`` (the seat's legal actions, as the caller has them): returns the first world whose
  legal actions equal ``legal``, or raises ValueError if none does;
- without it: returns the first world if every possibility gives the acting seat the same legal
  actions, and raises ValueError if they differ (the caller then falls back to another player).

Guessed, with no effect on the seat's view or legal actions (only on how the world plays on):
the phase an "answer" returns to (``play`` when the asker's turn shows a pending count or cards
set aside, else ``draw``); which melds an open side made this turn (none); the meld a taken pile's
top card went to (the first that fits, except in an American initial meld, where it changes the
seat's moves and is enumerated); penalties already incurred this hand (none: the observation does
not list them; they only change the hand's score); ``melded_before`` (true once the seat's side is
open); the order of cards within a closed book (the observation lists them sorted); the seed of
later restocks. Hidden hands never get a card that is laid out on sight (red threes; every three
in American): the engine never leaves one in a hand.

Measured along seeded games (random and basic players; tests/test_worlds.py and longer runs):
with ``legal`` every position gave a world; without it about one decision in four of Triple
Play's play phase raises ValueError (an empty pile: after a draw, or after a take?), and about one
in a hundred elsewhere (a take retracted this turn, a red three as the last stock card).

Every world satisfies ``world.observation(seat) == obs``; tests/test_worlds.py checks it, with
equal legal actions and card conservation, along seeded games.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

from canasta.cards import NUM_CODES, parse_card, parse_rank
from canasta.engine.actions import Action
from canasta.engine.american import AmericanGame
from canasta.engine.feet import FootGame
from canasta.engine.game import Game, _is_wild
from canasta.errors import CanastaError
from canasta.players.base import Observation
from canasta.variants import find_variant

WILD_RANK = 1

Determinizer = Callable[..., Game]


def _rank(text: str) -> int:
    return WILD_RANK if text == "wild" else parse_rank(text)


def _cards(texts: list[str]) -> list[int]:
    return [parse_card(c) for c in texts]


def _unseen_pool(base: Game, seen: list[int], rng: random.Random) -> list[int]:
    unseen = [0] * NUM_CODES
    for c in base.variant.deck():
        unseen[c] += 1
    for c in seen:
        unseen[c] -= 1
    if any(k < 0 for k in unseen):
        raise ValueError("the observation holds more cards than the pack")
    pool = [c for c in range(NUM_CODES) for _ in range(unseen[c])]
    rng.shuffle(pool)
    return pool


def _classic_dict(obs: Observation, rng: random.Random, feet: bool) -> tuple[dict[str, Any], list[int], Game]:
    """The Classic-family state of the world (turn flags at their defaults) and the pool of
    unseen cards left after the other hands are dealt; the caller deals the rest."""
    players: int = obs["players"]
    seat: int = obs["seat"]
    base = Game(obs["variant"], players, 0, obs["rules"])
    v: Any = base.variant
    d = base.to_dict()
    hand = _cards(obs["hand"])
    pile = _cards(obs["pile"])
    melds: list[list[list[Any]]] = [[[_rank(m["rank"]), _cards(m["cards"])] for m in side] for side in obs["melds"]]
    red_threes = [_cards(r) for r in obs["red_threes"]]
    removed = [_cards(r) for r in obs["removed"]]
    known: list[list[int]] = [[] if s == seat else _cards(k) for s, k in enumerate(obs["known_hands"])]
    books: list[list[list[Any]]] = []
    if feet:
        books = [[[_rank(b["rank"]), _cards(b["cards"])] for b in side] for side in obs["books"]]
    seen: list[int] = hand + pile + [c for side in melds for _, cs in side for c in cs]
    seen += [c for side in books for _, cs in side for c in cs]
    seen += [c for r in red_threes + removed for c in r] + [c for k in known for c in k]
    seen += _cards(obs["pile_taken_aside"])  # a taken pile's rest, set aside until the initial meld completes
    if feet and "pass_shown" in obs:  # the hand-passing deal's turned-up cards: dealt by determinize_feet
        seen += [parse_card(c) for piles in obs["pass_shown"] for c in piles]
        seen += [parse_card(c) for c in obs["foot_shown"] if c is not None]
    pool = _unseen_pool(base, seen, rng)
    # threes laid out on sight (red ones; all of them in American) are never held in a hand
    laid_out = [c for c in pool if base._laid_out[c]]
    pool = [c for c in pool if not base._laid_out[c]]
    hands: list[list[int]] = []
    for s in range(players):
        if s == seat:
            hands.append(hand)
            continue
        n = obs["hand_sizes"][s] - len(known[s])
        if n < 0 or n > len(pool):
            raise ValueError("the hand sizes do not fit the unseen cards")
        hands.append(known[s] + pool[:n])
        del pool[:n]
    pool += laid_out
    rng.shuffle(pool)
    scores: list[int] = list(obs["scores"])
    opened: list[bool] = list(obs["opened"])
    sides = [v.side_of(s) for s in range(players)]
    if feet:
        floor = [v.round_minimum(obs["hand_no"])] * len(scores)
    else:
        floor = [v.minimum(sc) for sc in scores]
    d.update({
        "seed": rng.getrandbits(32), "scores": scores, "hand_results": list(obs["hand_results"]),
        "hand_no": obs["hand_no"], "dealer": obs["dealer"], "winner": obs["winner"], "phase": obs["phase"],
        "reshuffles": 0, "stock": [], "pile": pile, "frozen": bool(obs["frozen"]), "hands": hands,
        "melds": melds, "red_threes": red_threes, "removed": removed, "opened": opened,
        "minimum_extra": [m - f for m, f in zip(obs["minimum"], floor, strict=True)],
        "penalties": [[] for _ in scores], "melded_before": [opened[sides[s]] for s in range(players)],
        "known": [_cards(k) if s == seat else known[s] for s, k in enumerate(obs["known_hands"])],
        "turn": obs["turn"], "return_phase": "draw", "drawn": obs["phase"] == "play", "took_pile": False,
        "pile_barred": False, "asked": obs["asked"], "permission": obs["permission"], "turn_created": [],
        "turn_added_existing": False, "pending_value": obs["pending_value"], "pile_aside": None,
        "retracted": obs.get("retracted_this_turn", False),
        "take_snapshot": None, "unusable": None, "no_discard": False, "history": [], "deals": [],
    })
    if feet:
        d["books"] = books
    return d, pool, base


def _turn_candidates(obs: Observation, d: dict[str, Any], aside: list[int], base: Game) -> list[dict[str, Any]]:
    """The possible values of the turn state the observation does not show (the likeliest first)."""
    v: Any = base.variant
    rules = v.rules
    phase: str = obs["phase"]
    turn: int = obs["turn"]
    side = v.side_of(turn)
    opened: bool = obs["opened"][side]
    pending: int = obs["pending_value"]
    side_melds: list[list[Any]] = d["melds"][side]
    side_books: list[list[Any]] = d.get("books", [[]] * (side + 1))[side]
    this_turn = phase != "draw" and (not opened or pending > 0)  # every meld of the side is this turn's
    created = sorted({r for r, _ in side_melds} | {r for r, _ in side_books}) if this_turn else []
    common: dict[str, Any] = {"turn_created": created}
    if phase == "answer":
        common["return_phase"] = "play" if pending or aside else "draw"
        common["drawn"] = common["return_phase"] == "play"
    american = isinstance(base, AmericanGame)
    if american:
        common["opened_turn"] = bool(opened and pending > 0 and phase != "draw")
    took: list[dict[str, Any]] = []
    # a take empties the pile unless the variant takes only the top cards (Hand and Foot's seven)
    whole = not isinstance(base, FootGame) or len(v.deck()) <= v.PILE_TAKE
    if phase == "play" or (phase == "answer" and common["return_phase"] == "play"):
        if aside:
            if opened:
                raise ValueError("cards are missing: more unseen cards than the hands, feet and stock hold")
            took = _takes(side_melds, side_books, created, list(aside), opened, american, d["pile"])
        elif whole and obs["pile"]:
            took = [{}]
        else:
            took = [{}]
            took += _takes(side_melds, side_books, created, None, True, False, d["pile"]) if opened or pending else []
            if not opened:
                took += _takes(side_melds, side_books, created, [], opened, american, d["pile"])
    elif aside:
        raise ValueError("cards are missing: more unseen cards than the hands, feet and stock hold")
    else:
        took = [{}]
    options: list[list[dict[str, Any]]] = [took]
    if phase == "draw" and not opened and obs["pile"] and _may_be_barred(obs, d, base):
        options.append([{}, {"pile_barred": True}])
    if phase == "play" and obs["stock_size"] == 0 and rules.get("red_three_last_card") == "meld_then_end":
        options.append([{}, {"no_discard": True}])
    if obs["stock_size"] == 0 and rules.get("stock_reshuffle") and phase != "over":
        limit = v.restock_limit if v.restock_limit is not None else 1
        options.append([{"reshuffles": k} for k in range(limit + 1)])
    if phase == "play" and opened and not pending:
        options.append([{}, {"turn_added_existing": True}])
    out = []
    for combo in itertools.product(*options):
        c = dict(common)
        for part in combo:
            c.update(part)
        out.append(c)
    return out


def _may_be_barred(obs: Observation, d: dict[str, Any], base: Game) -> bool:
    """Could the turn's seat have taken the pile and taken it back? The retract raised the minimum
    (by the table rule's step), and the cards shown with the top card went back to the hand as
    cards everyone saw: a natural of the top card's rank, or two wild cards under a wild top."""
    side = base.variant.side_of(obs["turn"])
    step = base.variant.rules.get("retract_raises_minimum", 0)
    if step and d["minimum_extra"][side] < step:
        return False
    known = _cards(obs["known_hands"][obs["turn"]])
    top = parse_card(obs["pile"][-1])
    if _is_wild(top):
        return sum(1 for c in known if _is_wild(c)) >= 2
    return any(c >> 2 == top >> 2 and not _is_wild(c) for c in known)


def _takes(melds: list[list[Any]], books: list[list[Any]], created: list[int], aside: list[int] | None,
           opened: bool, every_rank: bool, pile: list[int]) -> list[dict[str, Any]]:
    """A pile take this turn: once per meld its top card may have gone to if ``every_rank`` (the
    rank changes what the seat may meld: American's initial meld with the pile), else for the first
    meld that fits (the top card then matters only to a retract, which puts it back on the pile).
    The snapshot's pile is what a retract restores: the cards left on ``pile`` (Hand and Foot takes
    only the top cards) and the cards set aside."""
    out: list[dict[str, Any]] = []
    for r, cards in melds + books:
        if len(cards) < 3 or (not opened and r not in created):
            continue
        if out and not every_rank:
            break
        top = cards[0]
        out.append({"took_pile": True, "pile_aside": aside, "take_snapshot": {
            "cards": [c for c in cards[1:3]], "top": top, "frozen": False, "pile": [*pile, *(aside or [])],
            "red_threes": 0}})
    return out


#: turn state that the observation does not show (named in the ValueError)
_HIDDEN = ("took_pile", "pile_aside", "take_snapshot", "pile_barred", "no_discard", "reshuffles",
           "turn_added_existing")


def _choose(obs: Observation, d: dict[str, Any], candidates: list[dict[str, Any]],
            legal: list[Action] | None) -> Game:
    """The first candidate world that shows ``obs`` and gives the acting seat ``legal`` (or, without
    ``legal``, the first one if all give the same legal actions)."""
    seat: int = obs["seat"]
    acting = obs["actor"] == seat
    first: Game | None = None
    first_legal: list[Action] | None = None
    error = "no world fits the observation and the legal actions"
    for cand in candidates:
        try:
            world = Game.from_dict({**d, **cand})
            if world.observation(seat) != obs:
                error = "the world's observation differs from the seat's"
                continue
        except (CanastaError, ValueError, KeyError) as exc:
            error = f"no world fits the observation: {exc}"
            continue
        if not acting:
            return world
        got = world.legal_actions()
        if legal is not None:
            if got == legal:
                return world
        elif first is None:
            first, first_legal = world, got
        elif got != first_legal:
            hidden = ", ".join(sorted(k for k in cand if k in _HIDDEN and cand[k] != candidates[0].get(k)))
            raise ValueError(f"the seat's legal actions depend on turn state the observation does not show "
                             f"({hidden}): pass legal= to pick the matching world")
    if first is not None:
        return first
    raise ValueError(error)


def determinize_feet(obs: Observation, rng: random.Random, legal: list[Action] | None = None) -> Game:
    """A Hand and Foot or Triple Play position consistent with ``obs`` (see the module text).

    Raises ValueError if the observation cannot be completed consistently."""
    if not getattr(find_variant(obs["variant"]), "FEET", False):
        raise ValueError(f"{obs['variant']} is not a Hand and Foot variant")
    d, pool, base = _classic_dict(obs, rng, feet=True)
    players: int = obs["players"]

    def take(n: int) -> list[int]:
        if n > len(pool):
            raise ValueError("too few unseen cards for the feet and knees")
        got = pool[:n]
        del pool[:n]
        return got

    passing = "pass_shown" in obs  # Hand and Foot's hand-passing deal: turned-up cards are public
    tops: list[int | None] = [None if c is None else parse_card(c) for c in obs["foot_shown"]] if passing else []
    shown = [[parse_card(c) for c in piles] for piles in obs["pass_shown"]] if passing else []
    if passing:
        v0: Any = base.variant
        # each seat's two piles (during the phase 'pass'), the turned-up card on top (last)
        d["passing"] = [[[*take(v0.hand_size - 1), piles[0]], [*take(v0.foot_size - 1), piles[1]]] if piles else []
                        for piles in shown]
        # the other seats' choices are hidden until all have chosen: a seat that has chosen gets either pile
        dealer, actor = obs["dealer"], obs["actor"]
        chosen = {(dealer + 1 + i) % players for i in range((actor - dealer - 1) % players)} \
            if obs["phase"] == "pass" else set(range(players))
        d["kept"] = [k if k is not None else (rng.choice((1, 2)) if s in chosen else 0)
                     for s, k in enumerate(obs["kept"])]
        d["feet"] = [[*take(n - 1), c] if c is not None else take(n)
                     for n, c in zip(obs["foot_sizes"], tops, strict=True)]
        d["foot_shown"] = tops
    else:
        d["feet"] = [take(n) for n in obs["foot_sizes"]]
    d["in_foot"] = list(obs["in_foot"])
    if "knee_sizes" in obs:
        d["knees"] = [take(n) for n in obs["knee_sizes"]]
        d["in_knee"] = list(obs["in_knee"])
        v: Any = base.variant
        d["knee_side"] = [any(obs["in_knee"][s] for s in range(players) if v.side_of(s) == side)
                          for side in range(v.num_sides)]
    d["frozen"] = False
    return _stock_and_choose(obs, d, pool, base, legal)


def _stock_and_choose(obs: Observation, d: dict[str, Any], pool: list[int], base: Game,
                      legal: list[Action] | None) -> Game:
    """The rest of the unseen cards make the stock; the cards of a taken pile set aside are the observation's."""
    if len(pool) != obs["stock_size"]:
        raise ValueError("the unseen cards do not match the stock size")
    aside = _cards(obs["pile_taken_aside"])
    d["stock"] = pool
    return _choose(obs, d, _turn_candidates(obs, d, aside, base), legal)


def determinize_american(obs: Observation, rng: random.Random, legal: list[Action] | None = None) -> Game:
    """A Modern American position consistent with ``obs``, face-down bonus cards included.

    Raises ValueError if the observation cannot be completed consistently."""
    if not getattr(find_variant(obs["variant"]), "EXTENDED_SET_RULES", False):
        raise ValueError(f"{obs['variant']} is not a Modern American variant")
    if obs["rules"].get("only_top_card_usable"):
        raise ValueError("the cards taken with the pile that are not usable this turn are not reconstructed")
    d, pool, base = _classic_dict(obs, rng, feet=False)
    bonus = []
    for n in obs["bonus_cards"]:
        if n > len(pool):
            raise ValueError("too few unseen cards for the bonus cards")
        bonus.append(pool[:n])
        del pool[:n]
    d["bonus"] = bonus
    return _stock_and_choose(obs, d, pool, base, legal)


def determinizer_for(variant_cls: type) -> Determinizer | None:
    """The determinization of this module for a variant class (Hand and Foot family, Modern
    American), or None for the families :mod:`canasta.players.expert` covers."""
    if getattr(variant_cls, "FEET", False):
        return determinize_feet
    if getattr(variant_cls, "EXTENDED_SET_RULES", False):
        return determinize_american
    return None


__all__ = ["Determinizer", "determinize_american", "determinize_feet", "determinizer_for"]
