"""Episode rewards shared by the environments: zero-sum hand scores."""

from __future__ import annotations

from typing import Any

from canasta.engine.game import Game


def hand_rewards(game: Game, hand_results_before: int, scale: float) -> list[float]:
    """Per seat: ``scale`` * (own side's score in the hands finished since, minus the sides' mean)."""
    totals = [0.0] * game.num_sides
    for result in game.hand_results[hand_results_before:]:
        for s, score in enumerate(_hand_totals(result)):
            totals[s] += score
    mean = sum(totals) / len(totals)
    return [scale * (totals[game.side_of(seat)] - mean) for seat in range(game.num_players)]


def _hand_totals(result: Any) -> list[int]:
    """The per-side totals of one entry of ``Game.hand_results``."""
    if isinstance(result, dict):
        sides = result.get("sides")
        if isinstance(sides, list):
            return [int(s["total"]) for s in sides]
    raise ValueError(f"unexpected hand result {result!r}")
