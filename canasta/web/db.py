"""Storage: a game is its header (variant, players, seed, rules, seats) and its action log.

The live state is never stored: it is rebuilt by replaying the log (see
:mod:`canasta.web.service`). Each action row is committed before the action is
acknowledged, and ``(game_id, seq)`` is unique, so two processes (or a retried
request) can never both write the same step of a game.

SQLite (the default) runs in WAL mode with a busy timeout, and the writer keeps
the write-ahead log bounded (:class:`WalBound`); PostgreSQL is used through
psycopg 3 (``postgresql://`` URLs are mapped to ``postgresql+psycopg://``).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(80))
    #: the table rules as JSON text (only the options the creator set)
    rules: Mapped[str] = mapped_column(Text, default="{}")
    created: Mapped[float] = mapped_column(Float, default=time.time)
    seats: Mapped[list[SeatRow]] = relationship(back_populates="game", order_by="SeatRow.seat",
                                                cascade="all, delete-orphan")


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: "human" or "computer"
    kind: Mapped[str] = mapped_column(String(16))
    #: computer level ("basic", "random"); for a human seat handed to a computer, the level it plays at
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    name: Mapped[str] = mapped_column(String(40), default="")
    #: sha256 of the seat token (None until a human claims the seat)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: sha256 of the invite code (None once claimed, and for computer seats)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    game: Mapped[GameRow] = relationship(back_populates="seats")


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_action_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: 1 for the first action of the game, then 2, 3, ...: the game's version after it
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(120))
    created: Mapped[float] = mapped_column(Float, default=time.time)


class FairnessRow(Base):
    """How a game's seed was drawn and the commitment published for it (games before this table have none).

    A table of its own, so that databases made before it gain it by ``create_all`` without a migration.
    """

    __tablename__ = "fairness"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    #: the shuffle scheme of the engine (canasta.engine.chance)
    shuffle: Mapped[str] = mapped_column(String(16))
    #: 32 hex digits, or 'v2-' and 32 (a version 2 commitment); revealed with the seed in the finished game's record
    salt: Mapped[str] = mapped_column(String(64))
    #: canasta.record.seed_commitment (hex), published from the start
    commitment: Mapped[str] = mapped_column(String(64))
    #: the creator chose the seed (a practice game)
    chosen: Mapped[bool] = mapped_column(Boolean, default=False)


class TableRow(Base):
    """A table's life outside its log: when a client last connected, and whether it was closed.

    ``status`` is "open", "expired" (nobody connected for the server's ``table_expiry``) or
    "failed" (a background task could not go on; ``message`` says why). A separate table, so that
    databases created before it gain it by ``create_all`` without a migration.
    """

    __tablename__ = "tables"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), default="open")
    message: Mapped[str] = mapped_column(String(400), default="")
    #: wall-clock time of the last connection, disconnection or sweep that saw a client connected
    last_seen: Mapped[float] = mapped_column(Float, default=time.time, index=True)


class NoteRow(Base):
    """What happens at a table besides its moves, in order: a player ready for the next hand ("ready",
    ``text`` the hand's number), a seat handed to the computer ("left") or taken back ("back", ``text``
    the player's name then), a new game with the same seats ("rematch", ``text`` its id).

    ``version`` is the game's version when it happened (the moves after it follow it). Kept in the
    database so that a restarted server (or another process) still knows who has clicked on, and who
    made each move. A table of its own, so that older databases gain it by ``create_all``.
    """

    __tablename__ = "table_notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(80), default="")
    created: Mapped[float] = mapped_column(Float, default=time.time)


def normalize_url(url: str) -> str:
    """Accept plain ``postgresql://`` and file paths as well as SQLAlchemy URLs."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


def make_engine(url: str, *, background_checkpoint: bool = False) -> Engine:
    """An engine over ``url``. With ``background_checkpoint`` (SQLite files), commits never copy the
    write-ahead log into the database themselves: the caller runs :func:`checkpoint` off the event
    loop instead (a commit that ran the automatic checkpoint took up to ~20 ms; one that does not, ~0.1 ms)."""
    url = normalize_url(url)
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 10, "check_same_thread": False}
    else:
        kwargs["pool_pre_ping"] = True
        kwargs["pool_size"] = 10
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
                if background_checkpoint:
                    cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute("PRAGMA busy_timeout=10000")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    create_schema(engine)
    return engine


#: the PostgreSQL advisory lock that serialises the creation of the tables (any number unique to canasta)
SCHEMA_LOCK = 0x63616E6173746101


def create_schema(engine: Engine) -> None:
    """Create the tables that do not exist yet. Processes started together on an empty PostgreSQL database
    would race (CREATE TABLE is not idempotent under concurrency: the loser fails on pg_type's unique index),
    so there the creation runs under a transaction-level advisory lock and the others then find the tables."""
    if engine.dialect.name != "postgresql":
        Base.metadata.create_all(engine)
        return
    with engine.begin() as conn:
        conn.execute(select(func.pg_advisory_xact_lock(SCHEMA_LOCK)))
        Base.metadata.create_all(conn)


def checkpoint(engine: Engine, mode: str = "PASSIVE") -> None:
    """Copy SQLite's write-ahead log into the database file (nothing to do for PostgreSQL).

    PASSIVE never waits for readers or writers; a thread may run it while the event loop
    goes on committing (sqlite3 releases the GIL while it works).
    """
    if engine.dialect.name != "sqlite" or mode not in ("PASSIVE", "TRUNCATE"):
        return
    with engine.connect() as conn:
        conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")


#: a SQLite -wal file past this many bytes is checkpointed and truncated by the writer
WAL_LIMIT = 16 << 20


class WalBound:
    """Keeps SQLite's write-ahead log under ``limit`` bytes (give or take one batch of commits).

    Checkpoints that never wait (PASSIVE, automatic or in the background) copy the log into the
    database but cannot restart it while commits keep coming: the log is reused from its start only
    when a writer begins just after a checkpoint has copied everything, which under sustained writes
    almost never happens, so the file grew without bound (1 GB against a 21 MB database in 60 s).
    After each commit the writer looks at the file's size (one ``stat``) and, past the limit, runs a
    TRUNCATE checkpoint: it waits (busy timeout) for readers to reach the newest snapshot, copies
    the log and truncates it to zero bytes. Nothing to do for PostgreSQL or an in-memory database.
    """

    def __init__(self, engine: Engine, limit: int = WAL_LIMIT) -> None:
        self.engine = engine
        self.limit = limit
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        self.path = f"{database}-wal" if database and database != ":memory:" and not database.startswith("file:") \
            else None
        #: TRUNCATE checkpoints run so far (for tests and the curious)
        self.truncations = 0
        #: held by every checkpoint of this process: a TRUNCATE that met a PASSIVE one running would
        #: give up at once (SQLite does not wait for another checkpoint) and the log grow on meanwhile
        self.lock = threading.Lock()

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        with self.lock:
            checkpoint(self.engine, mode)

    def after_commit(self) -> None:
        if self.path is None:
            return
        try:
            size = os.path.getsize(self.path)
        except OSError:
            return
        if size > self.limit:
            self.checkpoint("TRUNCATE")  # if another process's checkpoint refuses it, the next commit retries
            self.truncations += 1
