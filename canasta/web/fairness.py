"""Fair shuffles for server games: secret 128-bit seeds, a published commitment, the seed revealed at the end.

A server game's seed is 128 random bits from :mod:`secrets` (32 hex digits), dealt with the engine's
``hmac-sha256`` scheme; its commitment (:func:`canasta.record.seed_commitment`, version 2: SHA-256 of the
JSON of the salt, the seed and the table's variant, rules, players and shuffle) is stored with the game and shown to every seat from the first connection, before any card is played.
The record of the finished game reveals the seed and the salt, so any player can run
``canasta replay --verify --commitment HEX RECORD`` with the commitment the table showed at the start. A seed chosen by the creator deals as ``canasta play --seed`` does
(scheme ``mt19937``) and marks the game, for every seat, as practice.
"""

from __future__ import annotations

import secrets
from typing import Any

from canasta.engine import chance
from canasta.engine.game import Game
from canasta.record import PRACTICE, Fairness, game_setup, seed_commitment

#: bytes of randomness in a drawn seed and in a salt
SEED_BYTES = 16


def draw_seed() -> str:
    """A secret seed for a server game: 128 bits from the operating system's generator, as hex."""
    return secrets.token_hex(SEED_BYTES)


def shuffle_for(*, chosen: bool) -> str:
    """The shuffle scheme of a new game: a chosen seed deals as ``canasta play --seed`` does."""
    return chance.LEGACY if chosen else chance.HMAC_SHA256


def commit(seed: int | str, *, chosen: bool, table: Game) -> tuple[str, Fairness]:
    """The shuffle scheme for a new game's seed and its version 2 commitment (with a fresh salt), binding
    the seed and the setup of ``table`` (a game of the same variant, rules and players) with that scheme."""
    salt = "v2-" + secrets.token_hex(SEED_BYTES)
    shuffle = shuffle_for(chosen=chosen)
    setup = {**game_setup(table), "Shuffle": shuffle}
    return shuffle, Fairness(salt=salt, commitment=seed_commitment(seed, salt, setup), chosen=chosen)


def public_fairness(shuffle: str, fairness: Fairness | None) -> dict[str, Any] | None:
    """What every seat (and spectator) is told about the deal: never the seed or the salt."""
    if fairness is None:  # a game created before commitments were kept
        return None
    return {"commitment": fairness.commitment, "shuffle": shuffle, "practice": fairness.chosen,
            "notice": PRACTICE if fairness.chosen else None,
            "verify": "the record of the finished game reveals the seed and salt: canasta replay --verify "
                      f"--commitment {fairness.commitment} RECORD"}


__all__ = ["SEED_BYTES", "commit", "draw_seed", "public_fairness", "shuffle_for"]
