"""Game history for a browser: its finished games with their results, and statistics per variant.

A browser is known by the seat tokens it already holds (the start page and the table keep each seat's token in
``localStorage`` under ``canasta.seat.<game id>``). The page sends them in the body of ``POST /api/history``
(never in a URL); only games whose token matches a seat's stored hash are answered, so a browser sees its own
games and nothing of anyone else's: a wrong token or game id is left out silently (it reveals nothing either way).

What is shown of a game is what its seats saw at the table (names, the score sheet); the record linked from a
finished game is the one ``GET /api/games/<id>/record`` gives anyone once the game is over (docs/web.md).
Running games are listed with a link back to their table, without scores.

A finished game's result never changes, so it is kept in memory once computed; a game not in the server's cache
is rebuilt from its log (the same replay as :meth:`GameService.get`, but not cached, since it runs in a thread).
"""

from __future__ import annotations

import datetime
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from canasta.engine import chance
from canasta.engine.game import Game
from canasta.errors import CanastaError
from canasta.notation import parse_action
from canasta.web.db import ActionRow, FairnessRow, GameRow, SeatRow
from canasta.web.schemas import GAME_ID_PATTERN, Strict, Token
from canasta.web.service import COMPUTER, GameService, hash_secret, parse_seed

#: most seats one request may name (the start page keeps the last 20 games; a table adds the ones joined)
MAX_CLAIMS = 200
#: finished games' results kept in memory
MAX_REMEMBERED = 5000


class SeatClaim(Strict):
    # a game id is URL-safe base64 (service.new_id): anything else (a NUL byte, which PostgreSQL refuses
    # in a query) names no game and is refused before it reaches the database
    game: Annotated[str, Field(min_length=1, max_length=32, pattern=GAME_ID_PATTERN)]
    token: Token


class HistoryRequest(Strict):
    seats: Annotated[list[SeatClaim], Field(max_length=MAX_CLAIMS)]


@dataclass(frozen=True)
class Finished:
    """What a finished game's history row needs, whoever asks (the asker's seat is applied afterwards)."""

    variant: str
    players: int
    created: float
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    sides: int
    scores: tuple[int, ...]
    winner: int | None
    hands: int


class History:
    """Answers ``POST /api/history`` for one :class:`GameService`."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.finished: OrderedDict[str, Finished] = OrderedDict()

    def for_browser(self, claims: list[SeatClaim]) -> dict[str, Any]:
        """The browser's finished games (newest first), its running games, and its statistics per variant."""
        from canasta.variants import VARIANTS

        wanted: dict[str, set[str]] = {}
        for claim in claims:
            wanted.setdefault(claim.game, set()).add(hash_secret(claim.token))
        with Session(self.service.engine) as session:
            rows = session.execute(select(SeatRow).where(SeatRow.game_id.in_(list(wanted)),
                                                         SeatRow.token_hash.is_not(None))).scalars().all()
            mine = {row.game_id: row.seat for row in rows if row.token_hash in wanted[row.game_id]}
        games: list[dict[str, Any]] = []
        running: list[dict[str, Any]] = []
        for game_id, seat in mine.items():
            known = self.finished.get(game_id)
            if known is None:
                known, header = self._result(game_id)
                if known is None:
                    cls = VARIANTS.get(header["variant"])
                    running.append({"id": game_id, "table": f"/table/{game_id}", **header,
                                    "title": cls.title if cls is not None else header["variant"]})
                    continue
            games.append(self._row(game_id, seat, known, VARIANTS))
        games.sort(key=lambda g: g["created"], reverse=True)
        running.sort(key=lambda g: g["created"], reverse=True)
        return {"games": games, "running": running, "stats": _stats(games)}

    def _result(self, game_id: str) -> tuple[Finished | None, dict[str, Any]]:
        """The finished game's result (remembered), or None and the header of a game still running."""
        live = self.service.cache.get(game_id)
        with Session(self.service.engine) as session:
            row = session.execute(select(GameRow).options(selectinload(GameRow.seats))
                                  .where(GameRow.id == game_id)).scalar_one()
            header = {"variant": row.variant, "players": row.players, "created": row.created,
                      "date": _date(row.created)}
            if live is not None and not live.game.is_over:
                return None, header
            game = live.game if live is not None else None
            if game is None:
                fair = session.get(FairnessRow, game_id)
                seed = parse_seed(row.seed)
                game = Game(row.variant, row.players, seed, json.loads(row.rules),
                            shuffle=fair.shuffle if fair is not None else chance.LEGACY)
                try:
                    for text in session.execute(select(ActionRow.action).where(ActionRow.game_id == game_id)
                                                .order_by(ActionRow.seq)).scalars():
                        game.apply(parse_action(text))
                except CanastaError:  # a log that no longer replays: the table cannot say either
                    return None, header
            if not game.is_over:
                return None, header
            finished = Finished(variant=row.variant, players=row.players, created=row.created,
                                names=tuple(s.name for s in row.seats), kinds=tuple(s.kind for s in row.seats),
                                sides=game.num_sides, scores=tuple(game.scores), winner=game.winner,
                                hands=len(game.hand_results))
        self.finished[game_id] = finished
        while len(self.finished) > MAX_REMEMBERED:
            self.finished.popitem(last=False)
        return finished, header

    @staticmethod
    def _row(game_id: str, seat: int, known: Finished, variants: dict[str, Any]) -> dict[str, Any]:
        side = seat % known.sides  # the engine's side_of (canasta.variants.base.Variant.side_of)
        others = [score for s, score in enumerate(known.scores) if s != side]
        result = "tie" if known.winner is None else ("won" if known.winner == side else "lost")
        cls = variants.get(known.variant)
        return {
            "id": game_id, "variant": known.variant, "title": cls.title if cls is not None else known.variant,
            "players": known.players, "created": known.created, "date": _date(known.created),
            "seat": seat, "side": side, "sides": known.sides,
            "seats": [{"seat": s, "name": name or f"Seat {s + 1}", "computer": kind == COMPUTER,
                       "side": s % known.sides} for s, (name, kind) in enumerate(zip(known.names, known.kinds,
                                                                                      strict=True))],
            "scores": list(known.scores), "winner": known.winner, "result": result,
            "margin": known.scores[side] - max(others), "hands": known.hands,
            "record": f"/replay?game={game_id}", "table": f"/table/{game_id}",
        }


def _date(created: float) -> str:
    return datetime.datetime.fromtimestamp(created, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _stats(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per variant: games, wins, losses, ties, and the average margin (your side's score minus the best other)."""
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        by_variant.setdefault(g["variant"], []).append(g)
    out = []
    for variant, played in sorted(by_variant.items(), key=lambda item: item[1][0]["title"]):
        out.append({"variant": variant, "title": played[0]["title"], "games": len(played),
                    "wins": sum(g["result"] == "won" for g in played),
                    "losses": sum(g["result"] == "lost" for g in played),
                    "ties": sum(g["result"] == "tie" for g in played),
                    "average_margin": round(sum(g["margin"] for g in played) / len(played), 1)})
    return out
