"""A table's life outside its action log: last connection, expiry, failure (the ``tables`` rows).

All functions here block on the database: the server calls them through ``asyncio.to_thread``.
"""

from __future__ import annotations

import time

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from canasta.web.db import GameRow, TableRow

OPEN, EXPIRED, FAILED = "open", "expired", "failed"


def touch(engine: Engine, game_ids: list[str], now: float | None = None) -> None:
    """Record that a client is (or was just) connected to each of these open tables."""
    if not game_ids:
        return
    now = time.time() if now is None else now
    with Session(engine) as session:
        session.execute(update(TableRow).where(TableRow.game_id.in_(game_ids), TableRow.status == OPEN)
                        .values(last_seen=now))
        known = set(session.execute(select(TableRow.game_id).where(TableRow.game_id.in_(game_ids))).scalars())
        session.commit()
    for game_id in game_ids:
        if game_id not in known:
            _insert(engine, TableRow(game_id=game_id, status=OPEN, message="", last_seen=now))


def _insert(engine: Engine, row: TableRow) -> None:
    try:
        with Session(engine) as session:
            session.add(row)
            session.commit()
    except IntegrityError:  # another process wrote it first, or the game does not exist
        pass


def status_of(engine: Engine, game_id: str) -> tuple[str, str]:
    """(status, message) of a table; a table with no row is open."""
    with Session(engine) as session:
        row = session.get(TableRow, game_id)
        return (OPEN, "") if row is None else (row.status, row.message)


def mark_failed(engine: Engine, game_id: str, message: str) -> None:
    message = message[:400]
    with Session(engine) as session:
        row = session.get(TableRow, game_id)
        if row is not None:
            row.status, row.message = FAILED, message
            session.commit()
            return
    _insert(engine, TableRow(game_id=game_id, status=FAILED, message=message, last_seen=time.time()))


def expire(engine: Engine, older_than: float, keep: set[str], now: float | None = None) -> list[str]:
    """Mark expired every open table nobody connected to since ``older_than`` (wall clock), except ``keep``
    (tables with a client connected here); the tables expired."""
    now = time.time() if now is None else now
    with Session(engine) as session:
        stale = set(session.execute(select(TableRow.game_id).where(
            TableRow.status == OPEN, TableRow.last_seen < older_than)).scalars())
        # tables created before the ``tables`` rows existed: their creation is their last sign of life
        never = set(session.execute(select(GameRow.id).outerjoin(TableRow, TableRow.game_id == GameRow.id).where(
            TableRow.game_id.is_(None), GameRow.created < older_than)).scalars())
        stale -= keep
        never -= keep
        if stale:
            session.execute(update(TableRow).where(TableRow.game_id.in_(stale), TableRow.status == OPEN)
                            .values(status=EXPIRED, message="nobody connected to this table for a long time"))
        for game_id in never:
            session.add(TableRow(game_id=game_id, status=EXPIRED,
                                 message="nobody connected to this table for a long time", last_seen=now))
        session.commit()
    return sorted(stale | never)
