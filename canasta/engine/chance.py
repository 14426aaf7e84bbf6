"""The engine's chance: every shuffle and random pick is derived from the game's seed and a label.

Two schemes, named in saved games and records so that old ones replay unchanged:

``mt19937`` (the first, and the default for seeds given by hand): ``random.Random(f"{seed}/{label}")``.
It is reproducible and fine for practice, but Python's generator is not built to resist prediction,
and it was used with 30-bit seeds that a search recovers from one hand's cards.

``hmac-sha256`` (server games, with at least 128 secret bits of seed): the stream for a label is
HMAC-SHA256(key = seed, message = label ‖ counter) for counter 0, 1, 2, ... (8 bytes, big-endian),
a pseudorandom function of the seed; a draw below ``n`` reads the fewest whole bits that cover
``n - 1`` and rejects values ``>= n`` (no modulo bias); a shuffle is Fisher-Yates from the last
position down. Nothing here depends on the Python version, so a record replays the same everywhere.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

LEGACY = "mt19937"
HMAC_SHA256 = "hmac-sha256"
SCHEMES = (LEGACY, HMAC_SHA256)
#: fewest hexadecimal digits of a seed for the ``hmac-sha256`` scheme (128 bits)
MIN_SECRET_HEX = 32


class HmacStream:
    """Uniform draws from HMAC-SHA256(seed, label ‖ counter): a pure function of (seed, label)."""

    def __init__(self, seed: str, label: str) -> None:
        self._key = seed.encode()
        self._label = label.encode()
        self._counter = 0
        self._pool = 0  # unread bits, least significant first
        self._bits = 0

    def _bits_of(self, k: int) -> int:
        while self._bits < k:
            block = hmac.new(self._key, self._label + self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._pool |= int.from_bytes(block, "big") << self._bits
            self._bits += 256
        out = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._bits -= k
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        k = (n - 1).bit_length()
        while True:
            value = self._bits_of(k)
            if value < n:
                return value

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted(self, options: Sequence[T], weights: Sequence[int]) -> T:
        """One of ``options``, each with probability proportional to its whole-number weight."""
        pick = self.below(sum(weights))
        for option, weight in zip(options, weights, strict=True):
            if pick < weight:
                return option
            pick -= weight
        raise AssertionError("unreachable: pick < sum(weights)")


class LegacyStream:
    """The first scheme: Python's Mersenne Twister seeded by ``f"{seed}/{label}"``."""

    def __init__(self, seed: int | str, label: str) -> None:
        self._rng = random.Random(f"{seed}/{label}")

    def shuffle(self, items: list[T]) -> None:
        self._rng.shuffle(items)

    def weighted(self, options: Sequence[T], weights: Sequence[int]) -> T:
        return self._rng.choices(list(options), weights=list(weights))[0]


def stream(scheme: str, seed: int | str, label: str) -> HmacStream | LegacyStream:
    """The chance stream of ``label`` (``"1"`` for hand 1's deal, ``"1/reshuffle/2"``, ...) under ``scheme``."""
    if scheme == HMAC_SHA256:
        return HmacStream(str(seed), label)
    return LegacyStream(seed, label)


__all__ = ["HMAC_SHA256", "LEGACY", "MIN_SECRET_HEX", "SCHEMES", "HmacStream", "LegacyStream", "stream"]
