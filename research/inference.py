"""Inference from the discards: how likely a sampled world makes the discards the other seats were seen to make.

Every Classic-family turn ends with one discard, and a seat has not acted since its last one, so its hand now is
its hand right after that discard: in a sampled world, the hand it held when it chose the discard is the world's
hand plus the card on the pile. A model of the seat's choice (the base policy's discard rule, softened) then says
how likely that choice was from that hand. A world where the seat held a singleton it would rather have thrown
than the king it threw is less likely than one where every other card was a pair or a wild card: weighting the
worlds by it reads the wild cards and pairs behind the discards, which the rules-of-thumb readings
(:mod:`canasta.players.card_reading`) do not. No log of past actions is needed: the pile since it was last taken
shows each seat's last discard, and the table then is the table now (melds others made since are kept, an
approximation; the pile is cut back to what it was).

The model is :class:`~canasta.players.basic.BasicPlayer`'s discard cost: the seat throws card ``c`` with
probability proportional to ``exp(-cost(c) / temperature)`` over the kinds of card it held (a natural rank, the
twos, a joker, the black threes).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from canasta.cards import JOKER, parse_card
from canasta.engine.game import Game
from canasta.players.base import Observation
from canasta.players.basic import BasicStyle, discard_costs
from canasta.players.card_reading import is_wild_code

#: the softness of the discard model, in the discard cost's points (a pair kept is worth 25 to 50)
TEMPERATURE = 20.0


@dataclass(frozen=True)
class DiscardRead:
    """A seat's last discard, still on the pile: the card, and the thrower's observation when it threw it (its
    hand left empty: each world fills it in)."""

    seat: int
    thrown: int
    then: Observation


def kind_of(code: int) -> int:
    """The kinds a discard is chosen among: cards of one kind cost the same (a rank's suits, the twos)."""
    return -1 if code == JOKER else code >> 2


def discard_reads(obs: Observation) -> list[DiscardRead]:
    """The last discard of each seat of another side that is still on the pile, with the table it was thrown on.

    The pile's top card was thrown by the seat before the one to play, the card under it by the seat before that
    (:func:`canasta.players.card_reading.pile_throws`); a seat's last discard is on the pile unless the pile was
    taken since. The bottom card of a pile credited to the dealer may be the upcard, thrown by nobody: not read."""
    n: int = obs["players"]
    turn: int = obs["turn"]
    sides = len(obs["melds"])
    pile: list[str] = obs["pile"]
    reads: list[DiscardRead] = []
    for i in range(min(n, len(pile))):
        seat = (turn - 1 - i) % n
        if seat == obs["seat"] or seat % sides == obs["side"]:
            continue
        if i == len(pile) - 1 and seat == obs["dealer"]:
            continue  # perhaps the upcard
        position = len(pile) - 1 - i
        before = pile[:position]
        later = pile[position + 1:]
        # the pile froze later only if a wild card came later and none lay in it then
        frozen = bool(obs["frozen"]) and not (
            any(is_wild_code(parse_card(c)) for c in later) and not any(is_wild_code(parse_card(c)) for c in before))
        then = dict(obs)
        then.update(seat=seat, side=seat % sides, partner=(seat + sides) % n if sides < n else None, turn=seat,
                    phase="play", hand=[], pile=before, frozen=frozen, pending_value=0,
                    pile_top=before[-1] if before else None, pile_size=len(before))
        reads.append(DiscardRead(seat, parse_card(pile[position]), then))
    return reads


def discard_log_likelihood(read: DiscardRead, hands: Sequence[Sequence[int]], style: BasicStyle,
                           temperature: float = TEMPERATURE) -> list[float]:
    """For each hand the seat may hold now, the log-probability that it threw ``read.thrown`` from that hand with
    the thrown card added (the hand it held when it chose)."""
    before = [[*hand, read.thrown] for hand in hands]
    out: list[float] = []
    for hand, costs in zip(before, discard_costs(read.then, before, style), strict=True):
        by_kind: dict[int, float] = {}
        for code, cost in zip(hand, costs, strict=True):
            by_kind[kind_of(code)] = cost
        low = min(by_kind.values())
        total = sum(math.exp(-(cost - low) / temperature) for cost in by_kind.values())
        out.append(-(by_kind[kind_of(read.thrown)] - low) / temperature - math.log(total))
    return out


__all__ = ["TEMPERATURE", "DiscardRead", "discard_log_likelihood", "discard_reads", "kind_of"]


def deal_reading_discards(obs: Observation, rng: random.Random, deal: Callable[[Observation, random.Random], Game],
                          reads: list[DiscardRead], style: BasicStyle, tries: int,
                          temperature: float) -> Game:
    """One of ``tries`` worlds dealt by ``deal``, picked with odds of how likely its hands make the other sides'
    last discards (``reads``) under the discard model of ``style`` (:mod:`research.inference`)."""
    worlds = [deal(obs, rng) for _ in range(tries)]
    logs = [0.0] * tries
    for read in reads:
        for k, x in enumerate(discard_log_likelihood(
                read, [w.hand_cards(read.seat) for w in worlds], style, temperature)):
            logs[k] += x
    top = max(logs)
    return rng.choices(worlds, weights=[math.exp(x - top) for x in logs])[0]
