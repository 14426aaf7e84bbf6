"""Card reading: what the discard pile tells of the other hands.

The rules-of-thumb players price their discards by it and the expert's Classic-family worlds deal by it
(:func:`respect_passes`). Here, below :mod:`canasta.players.basic` and :mod:`canasta.players.american_basic`,
so both read it without importing each other.
"""

from __future__ import annotations

import random

from canasta.cards import JOKER, THREE, parse_card
from canasta.players.base import Observation


def is_wild_code(code: int) -> bool:
    """A joker or a 2 (card codes 8-11)."""
    return code == JOKER or 8 <= code <= 11


def pile_passes(obs: Observation) -> list[set[int]]:
    """Card reading: per seat, the natural ranks it has *passed on*: cards it saw on top of the discard
    pile at the start of its turn and did not take (it drew from the stock instead), read off the pile in
    the observation.

    Every Classic-family turn ends with one discard, so the pile since it was last taken is the discards in
    turn order: its top card was thrown by the seat before the one to play, the card under it by the seat
    before that, and so on, and each was then the top card for the seat after its thrower (the upcard at the
    bottom of an untaken pile counts as the dealer's discard: the dealer's left saw it first). A natural
    pair takes any pile (Bicycle: "taking the pack is the best way to get cards"), so a player who passed on
    a card rarely holds a pair of its rank: with BasicPlayer at every seat 4% of passed ranks are held as a
    pair, against 13% of all ranks. The top card does not count for the seat to play until it has drawn;
    wild cards and threes tell nothing. (Reading the thrower too, who holds a pair of the rank thrown even
    more rarely, 1%, did worse over the same 200 games: docs/experiments.md.)"""
    n: int = obs["players"]
    turn: int = obs["turn"]
    passes: list[set[int]] = [set() for _ in range(n)]
    for i, text in enumerate(reversed(obs["pile"])):
        if i == 0 and obs["phase"] == "draw":
            continue  # the seat to play has not decided yet
        code = parse_card(text)
        rank = code >> 2
        if is_wild_code(code) or rank == THREE:
            continue
        passes[(turn - i) % n].add(rank)  # thrown by turn - 1 - i, passed by the seat after it
    return passes


def pile_throws(obs: Observation) -> list[set[int]]:
    """Card reading: per seat, the natural ranks it has *thrown* onto the discard pile since the pile was
    last taken (the top card by the seat before the one to play, the card under it by the seat before that,
    as in :func:`pile_passes`; the upcard at the bottom of a pile never taken counts as the dealer's). Bicycle:
    "Concentrate first on your left opponent's discards": a player rarely throws a rank it holds a pair of
    (with BasicPlayer at every seat, 1% of thrown ranks are still held as a pair)."""
    n: int = obs["players"]
    turn: int = obs["turn"]
    throws: list[set[int]] = [set() for _ in range(n)]
    for i, text in enumerate(reversed(obs["pile"])):
        code = parse_card(text)
        rank = code >> 2
        if is_wild_code(code) or rank == THREE:
            continue
        throws[(turn - 1 - i) % n].add(rank)
    return throws


def respect_passes(dealt: list[int], known: list[int], passed: set[int], pool: list[int],
                    rng: random.Random) -> None:
    """Card reading: a seat that passed on a rank (:func:`pile_passes`) gets at most one natural of it in
    a sampled hand; a dealt card that would make the pair is swapped for a random card of the rest of the
    pool (which becomes the stock) of a rank the seat did not pass on. Cards the seat is known to hold stay."""
    respect_limits(dealt, known, {rank: 1 for rank in passed}, pool, rng)


def respect_limits(dealt: list[int], known: list[int], most: dict[int, int], pool: list[int],
                   rng: random.Random) -> None:
    """A sampled hand (``known`` cards and ``dealt`` ones) holds at most ``most[r]`` naturals of each rank ``r``
    read; a dealt card over its rank's limit is swapped for a random card of the rest of the pool (which becomes
    the stock) of a rank not read. Cards the seat is known to hold stay, over the limit or not."""
    def rank_of(c: int) -> int:
        return -1 if c == JOKER or 8 <= c <= 15 else c >> 2  # wild cards and threes: no rank to read

    for r, limit in most.items():
        held = sum(1 for c in known if rank_of(c) == r)
        for i, c in enumerate(dealt):
            if rank_of(c) != r:
                continue
            held += 1
            if held <= limit:
                continue
            spare = [j for j, d in enumerate(pool) if rank_of(d) not in most]
            if not spare:
                return
            j = rng.choice(spare)
            dealt[i], pool[j] = pool[j], c
            held -= 1


__all__ = ["is_wild_code", "pile_passes", "pile_throws", "respect_limits", "respect_passes"]
