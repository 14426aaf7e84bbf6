"""A table's life outside its action log: last connection, expiry, failure (the ``tables`` rows).

The functions block on the database. The server calls them through a :class:`Keeper`, on a thread
of its own: connections are noted in memory and written in one transaction at each sweep, so
800 sockets connecting at once cost no write each, and never queue in front of the group
writer's commits (the first version, one write per connection in the shared thread pool, held
the load test's acks up to 2.8 s).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

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
        missing = [g for g in game_ids if g not in known]
        session.add_all(TableRow(game_id=g, status=OPEN, message="", last_seen=now) for g in missing)
        try:
            session.commit()
            return
        except IntegrityError:  # another process wrote one first (or a game is gone): one by one
            session.rollback()
    for game_id in missing:
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


T = TypeVar("T")


class Keeper:
    """The server's side of this module: one thread for the ``tables`` rows, and the tables seen
    since the last sweep (connections noted in memory, written at the sweep)."""

    def __init__(self, engine: Engine, expiry: float | None) -> None:
        self.engine = engine
        #: seconds a table nobody connects to stays open (None: for ever, and nothing is noted)
        self.expiry = expiry
        self.seen: set[str] = set()
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="canasta-tables")

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(work, self.engine, *args))

    def saw(self, game_id: str) -> None:
        """A client created, joined or left this table: it counts as seen at the next sweep."""
        if self.expiry is not None:
            self.seen.add(game_id)

    async def status(self, game_id: str) -> tuple[str, str]:
        return await self.run(status_of, game_id)

    async def mark_failed(self, game_id: str, message: str) -> None:
        await self.run(mark_failed, game_id, message)

    async def sweep(self, connected: set[str]) -> list[str]:
        """Write what was seen (and the tables with a client now), then expire the others; the expired."""
        if self.expiry is None:
            return []
        seen, self.seen = self.seen | connected, set()
        await self.run(touch, sorted(seen))
        return await self.run(expire, time.time() - self.expiry, connected)

    def close(self) -> None:
        self.executor.shutdown(wait=False)
