"""The expert with the research options the product does not have, for the scripts of ``research/``.

``research_expert(seed, **options)`` takes the fields of :class:`canasta.players.expert.ExpertSettings` and:

- ``discard_model``: a distilled discard model as base and rollout policy (:class:`research.distilled.DistilledSearchExpert`);
- ``value="net-v2"``: the network value at the leaves (:class:`research.net_value.NetValueExpert`);
- ``played_out=True``: every rollout played to the end of the hand (no learned value at the leaves).
"""

from __future__ import annotations

from typing import Any

from canasta.engine.game import Game
from canasta.players.expert import ExpertPlayer, ExpertSettings


class PlayedOut:
    """A leaf value that supports no table: the expert plays every rollout out."""

    def supports_table(self, variant: str, players: int) -> bool:
        return False

    def __call__(self, game: Game, side: int) -> float:
        raise AssertionError("a played-out rollout is never valued")


def research_expert(seed: int | str | None = 0, discard_model: str | None = None, played_out: bool = False,
                    **options: Any) -> ExpertPlayer:
    """The expert of ``options`` (ExpertSettings fields) with the research options above."""
    net = options.get("value") == "net-v2"
    if net:
        del options["value"]
    settings = ExpertSettings(**options)
    player: ExpertPlayer
    if discard_model not in (None, "", "none"):
        from research.distilled import DistilledSearchExpert
        player = DistilledSearchExpert(seed, settings, discard_model=str(discard_model))
    elif net:
        from research.net_value import NetValueExpert
        player = NetValueExpert(seed, settings)
    else:
        player = ExpertPlayer(seed, settings)
    if played_out:
        player.leaf_value = PlayedOut()
    return player
