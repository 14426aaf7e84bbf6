"""Fair shuffles for server games: secret 128-bit seeds, a published commitment, the seed revealed at the end.

A server game's seed is 128 random bits from :mod:`secrets` (32 hex digits), dealt with the engine's
``hmac-sha256`` scheme; its commitment, SHA-256 of ``salt:seed`` (:func:`canasta.record.seed_commitment`),
is stored with the game and shown to every seat from the first connection, before any card is played.
The record of the finished game reveals the seed and the salt, so any player can run
``canasta replay --verify RECORD``. A seed chosen by the creator deals as ``canasta play --seed`` does
(scheme ``mt19937``) and marks the game, for every seat, as practice.
"""

from __future__ import annotations

import secrets
from typing import Any

from canasta.engine import chance
from canasta.record import PRACTICE, Fairness, seed_commitment

#: bytes of randomness in a drawn seed and in a salt
SEED_BYTES = 16


def draw_seed() -> str:
    """A secret seed for a server game: 128 bits from the operating system's generator, as hex."""
    return secrets.token_hex(SEED_BYTES)


def commit(seed: int | str, *, chosen: bool) -> tuple[str, Fairness]:
    """The shuffle scheme for a new game's seed and its commitment (with a fresh salt)."""
    salt = secrets.token_hex(SEED_BYTES)
    shuffle = chance.LEGACY if chosen else chance.HMAC_SHA256
    return shuffle, Fairness(salt=salt, commitment=seed_commitment(seed, salt), chosen=chosen)


def public_fairness(shuffle: str, fairness: Fairness | None) -> dict[str, Any] | None:
    """What every seat (and spectator) is told about the deal: never the seed or the salt."""
    if fairness is None:  # a game created before commitments were kept
        return None
    return {"commitment": fairness.commitment, "shuffle": shuffle, "practice": fairness.chosen,
            "notice": PRACTICE if fairness.chosen else None,
            "verify": "the record of the finished game reveals the seed and salt: canasta replay --verify RECORD"}


__all__ = ["SEED_BYTES", "commit", "draw_seed", "public_fairness"]
