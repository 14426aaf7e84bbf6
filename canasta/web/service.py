"""The game service: tables stored as header + action log, live games rebuilt by replay.

Everything here is synchronous and runs on the server's event loop thread, so
one check-write-apply step is atomic within a process. Across processes the
unique ``(game_id, seq)`` constraint decides: a process whose cached game is
behind gets an integrity error, reloads the missing actions and reports the
client's action as stale.

Versions: a game's version is the number of actions in its log. Every message
to a client carries it; an action names the version it was chosen at, and is
refused as ``stale`` when the game has moved on (which also rejects duplicates).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from canasta.engine import chance
from canasta.engine.actions import Action
from canasta.engine.game import Game
from canasta.errors import CanastaError, IllegalActionError, NotationError
from canasta.notation import format_action, parse_action
from canasta.players import get_player, hint
from canasta.players.base import Player
from canasta.record import Fairness
from canasta.web.db import WAL_LIMIT, ActionRow, FairnessRow, GameRow, NoteRow, SeatRow, WalBound, make_engine
from canasta.web.fairness import commit, draw_seed, public_fairness, shuffle_for
from canasta.web.schemas import GAME_ID_RULE, is_game_id

HUMAN = "human"
COMPUTER = "computer"
LEVELS = ("basic", "random", "expert")
#: seconds the expert computer thinks about one move at a web table (its search stops at this budget;
#: off the budget it keeps its best move so far, unlike BOT_BUDGET's fallback to the first legal action)
EXPERT_SECONDS = 2.0
#: what undo takes back: the melds and additions of the turn (as ``undo`` in the terminal game)
UNDOABLE = ("meld", "add", "merge")
#: most events a reconnecting client is sent; further behind, it gets a full resync
MAX_REPLAY_EVENTS = 1000
#: seconds a computer player may think about one move before it plays its first legal action
BOT_BUDGET = 10.0
_INSERT_ACTION = insert(ActionRow)
#: the names computer seats are given (distinct at a table; where the list starts depends on the table's id)
COMPUTER_NAMES = ("Ada", "Bruno", "Clara", "Dario", "Elena", "Felix", "Greta", "Hugo", "Iris", "Jonas",
                  "Karla", "Luca", "Mara", "Nico", "Olga", "Paul")


class WebError(Exception):
    """A refused request: ``code`` is stable (tests and clients match on it), ``message`` is for people."""

    def __init__(self, code: str, message: str, status: int = 400, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass
class SeatInfo:
    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None
    invite_hash: str | None

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "level": self.level, "name": self.name,
                "claimed": self.kind == COMPUTER or self.token_hash is not None,
                "invite_open": self.invite_hash is not None}


@dataclass
class Live:
    """A game in memory: rebuilt from the log, kept in step with it."""

    id: str
    variant: str
    players: int
    seed: int | str
    rules: dict[str, Any]
    game: Game
    seats: list[SeatInfo]
    events: list[dict[str, Any]] = field(default_factory=list)
    bots: dict[int, Player] = field(default_factory=dict)
    #: when the last move was made (monotonic): the seat to act has been idle since, for the idle limit
    actor_since: float = field(default_factory=time.monotonic)
    #: an action of this game is being written (others are refused as stale until it is applied)
    writing: bool = False
    #: per seat (None: spectators), the observation and legal actions at one version, built once
    #: when first sent and shared by every client of that seat (see :func:`public_state`)
    views: dict[int | None, tuple[int, dict[str, Any], list[str]]] = field(default_factory=dict)
    #: the seed's commitment and salt (None: a game created before they were kept)
    fairness: Fairness | None = None
    #: why the table stopped (a background task failed), or None; players are told, actions refused
    failed: str | None = None
    #: the table notes (see :class:`canasta.web.db.NoteRow`) as dicts, in order: who clicked on, who left
    notes: list[dict[str, Any]] = field(default_factory=list)
    #: the game as the last hand ended, before the engine dealt the next one (None: no hand just ended)
    finished: Game | None = None
    #: per seat, the observation of ``finished`` at one version (see :func:`hand_end_state`)
    finished_views: dict[int | None, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    #: the game created by a rematch of this one (its id), once a player asked for it
    rematch: str | None = None
    #: a copy of the game before the action being applied (for ``finished``)
    before: Game | None = None
    #: the game before each of the last actions, while they are melds or additions (what undo may take back):
    #: undo restores the last one instead of replaying the whole log on the event loop (48-106 ms at 781 actions)
    undo_points: list[Game] = field(default_factory=list)

    @property
    def version(self) -> int:
        return len(self.events)

    def bot_for(self, seat: int) -> Player | None:
        info = self.seats[seat]
        if info.kind != COMPUTER:
            return None
        bot = self.bots.get(seat)
        if bot is None or bot.name != (info.level or "basic"):
            bot = computer_player(info.level or "basic", f"{self.seed}/{seat}")
            self.bots[seat] = bot
        return bot


def computer_player(level: str, seed: str) -> Player:
    """The computer player of a web seat: the expert's search is bounded by :data:`EXPERT_SECONDS` a move."""
    if level == "expert":
        from canasta.players.expert import ExpertPlayer, ExpertSettings

        return ExpertPlayer(seed, ExpertSettings(seconds=EXPERT_SECONDS))
    return get_player(level, seed=seed)


def parse_seed(text: str) -> int | str:
    stripped = text.strip()
    if stripped.lstrip("-").isdigit() and len(stripped) < 19:
        return int(stripped)
    return stripped


def public_state(live: Live, seat: int | None) -> dict[str, Any]:
    """The state message for one seat (or a spectator, ``seat=None``).

    Built from ``Game.observation`` only (``observation(None)`` for a spectator: what
    every seat sees), so the message holds nothing that is not face up. The observation
    and legal actions are built once per (version, seat) and shared by every message
    of that seat at that version (the legal actions only for the seat to act); the
    seats' kinds are read fresh, since a takeover changes them without a move.
    """
    version = live.version
    cached = live.views.get(seat)
    if cached is not None and cached[0] == version:
        _, obs, legal = cached
    else:
        game = live.game
        obs = game.observation(seat)  # seat None: the engine's spectator view, only what every seat sees
        legal = []
        if seat is not None and not game.is_over and game.actor == seat:
            legal = [format_action(a) for a in game.legal_actions()]
        live.views[seat] = (version, obs, legal)
    pause = hand_end(live)
    return {"version": version, "obs": obs, "legal": legal if live.failed is None and pause is None else [],
            "seats": [s.public() for s in live.seats], "failed": live.failed, **hand_end_state(live, seat, pause),
            "can_undo": seat is not None and undo_refusal(live, seat) is None}


def undo_refusal(live: Live, seat: int) -> str | None:
    """Why ``seat`` may not take back the last action now (None: it may), from what is cheap to check:
    only in a game against computers, only the seat's own meld or addition of the turn it is playing."""
    game = live.game
    if sum(1 for s in live.seats if s.kind == HUMAN) > 1:
        return "undo is for games against computers only: with other people at the table a play stands"
    if live.failed is not None or game.is_over:
        return "the game is over"
    if hand_end(live) is not None:
        return "the hand is over: a finished hand's plays stand"
    if game.actor != seat or game.phase != "play":
        return "undo takes back a meld or addition of your turn, before the discard"
    if not live.events or live.events[-1]["seat"] != seat or live.events[-1]["action"].split()[0] not in UNDOABLE:
        return "nothing to undo: undo takes back the melds and additions of this turn, before the discard"
    return None


class GameService:
    """Create, join, load and play games; the database holds the truth."""

    def __init__(self, database_url: str, *, max_cached: int = 2000, idle_limit: float | None = 120.0,
                 background_checkpoint: bool = False, wal_limit: int = WAL_LIMIT) -> None:
        self.engine: Engine = make_engine(database_url, background_checkpoint=background_checkpoint)
        #: SQLite: the writer truncates the write-ahead log when it passes ``wal_limit`` bytes
        self.wal = WalBound(self.engine, wal_limit)
        self.writer = GroupWriter(self.engine, self.wal)
        #: the owner runs :meth:`checkpoint` in a thread now and then (SQLite)
        self.background_checkpoint = background_checkpoint
        self.cache: OrderedDict[str, Live] = OrderedDict()
        self.max_cached = max_cached
        self.idle_limit = idle_limit

    def close(self) -> None:
        if self.background_checkpoint:
            with contextlib.suppress(Exception):  # what is left stays in the log, read back on the next start
                self.wal.checkpoint()
        self.engine.dispose()

    def checkpoint(self) -> None:
        self.wal.checkpoint()

    # ---------------------------------------------------------------- create
    def create_game(self, *, variant: str, players: int, seed: str | None, rules: dict[str, Any],
                    seats: list[dict[str, Any]]) -> dict[str, Any]:
        """Create a table. ``seats`` has one entry per seat: ``{"kind": "me"|"invite"|"computer", ...}``.

        Returns the game id, a token for each ``me`` seat and an invite code for each ``invite`` seat.
        """
        if not isinstance(players, int) or isinstance(players, bool):
            raise WebError("bad-request", "players must be a whole number")
        if not isinstance(rules, dict):
            raise WebError("bad-request", "rules must be an object of table rules")
        # a chosen seed makes a practice game (its creator may know every card); otherwise 128 secret bits
        seed_value = parse_seed(seed) if seed else draw_seed()
        try:
            game = Game(variant, players, seed_value, rules, shuffle=shuffle_for(chosen=bool(seed)))
        except CanastaError as exc:
            raise WebError("bad-options", str(exc)) from None
        shuffle, fairness = commit(seed_value, chosen=bool(seed), table=game)
        if len(seats) != players:
            raise WebError("bad-seats", f"give one seat entry for each of the {players} seats, not {len(seats)}")
        game_id = new_id()
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        rows: list[SeatRow] = []
        robot_names = computer_names(game_id, [str(spec.get("name") or "") for spec in seats if isinstance(spec, dict)])
        for i, spec in enumerate(seats):
            if not isinstance(spec, dict):
                raise WebError("bad-seats", f"seat {i}: an object with 'kind' (me, invite or computer)")
            kind = spec.get("kind")
            name = str(spec.get("name") or "")[:40]
            level = spec.get("level") or "basic"
            row = SeatRow(seat=i, name=name)
            if kind == "me":
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                row.kind, row.token_hash, row.level = HUMAN, hash_secret(token), None
            elif kind == "invite":
                code = secrets.token_urlsafe(12)
                invites[i] = code
                row.kind, row.invite_hash, row.level = HUMAN, hash_secret(code), None
            elif kind == "computer":
                if level not in LEVELS:
                    raise WebError("bad-seats", f"seat {i}: computer level must be one of {', '.join(LEVELS)}")
                row.kind, row.level = COMPUTER, level
                row.name = name or robot_names.pop(0)
            else:
                raise WebError("bad-seats", f"seat {i}: kind must be me, invite or computer, not {kind!r}")
            rows.append(row)
        with Session(self.engine) as session:
            session.add(GameRow(id=game_id, variant=game.variant_name, players=players, seed=str(seed_value),
                                rules=json.dumps(game.variant.non_default_rules()), seats=rows))
            session.flush()  # the game row first: the fairness row refers to it
            session.add(FairnessRow(game_id=game_id, shuffle=shuffle, salt=fairness.salt,
                                    commitment=fairness.commitment, chosen=fairness.chosen))
            session.commit()
        return {"id": game_id, "tokens": tokens, "invites": invites}

    def join(self, game_id: str, seat: int, invite: str, name: str = "") -> str:
        """Claim an invited seat; returns the seat's token. An invite works once.

        The claim is one conditional UPDATE (``... WHERE invite_hash = <this invite>``), so of two
        processes claiming at once the database lets exactly one change the row; the other changes
        nothing and is refused.
        """
        if not isinstance(invite, str) or not invite or len(invite) > 200:
            raise WebError("bad-invite", "this invite is not valid (or was already used)", status=403)
        token = secrets.token_urlsafe(24)
        # the computer kept the seat warm while the invite was open: the claimed seat is human
        values: dict[str, Any] = {"token_hash": hash_secret(token), "invite_hash": None, "kind": HUMAN, "level": None}
        if name:
            values["name"] = name[:40]
        claim = (update(SeatRow)
                 .where(SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.invite_hash == hash_secret(invite))
                 .values(**values))
        with self.engine.begin() as conn:
            claimed = conn.execute(claim).rowcount
        if claimed != 1:
            raise WebError("bad-invite", "this invite is not valid (or was already used)", status=403)
        self.reload_seats(game_id)
        live = self.cache.get(game_id)
        if live is not None and not live.game.is_over and live.game.actor == seat:
            live.actor_since = time.monotonic()
        return token

    # ------------------------------------------------------------------ load
    def exists(self, game_id: str) -> bool:
        if game_id in self.cache:
            return True
        with Session(self.engine) as session:
            return session.get(GameRow, game_id) is not None

    def get(self, game_id: str) -> Live:
        """The live game, rebuilt from the log if it is not in memory."""
        live = self.cache.get(game_id)
        if live is not None:
            self.cache.move_to_end(game_id)
            return live
        if not is_game_id(game_id):  # (the routes check it at the door too; this keeps it out of every query)
            raise WebError("bad-game-id", GAME_ID_RULE, status=404)
        with Session(self.engine) as session:
            row = session.execute(select(GameRow).options(selectinload(GameRow.seats))
                                  .where(GameRow.id == game_id)).scalar_one_or_none()
            if row is None:
                raise WebError("no-game", f"there is no game {game_id!r}", status=404)
            seed = parse_seed(row.seed)
            rules = json.loads(row.rules)
            fair = session.get(FairnessRow, game_id)
            shuffle = fair.shuffle if fair is not None else chance.LEGACY
            fairness = None if fair is None else Fairness(salt=fair.salt, commitment=fair.commitment,
                                                          chosen=bool(fair.chosen))
            live = Live(id=row.id, variant=row.variant, players=row.players, seed=seed, rules=rules,
                        game=Game(row.variant, row.players, seed, rules, shuffle=shuffle),
                        seats=[_seat_info(s) for s in row.seats], fairness=fairness)
            actions = session.execute(select(ActionRow).where(ActionRow.game_id == game_id)
                                      .order_by(ActionRow.seq)).scalars().all()
            _load_notes(live, session)  # before the replay: the notes say who made each move
            self._replay(live, [(a.seq, a.seat, a.action) for a in actions])
        self.cache[game_id] = live
        self._evict()
        return live

    def current(self, game_id: str) -> Live:
        """The live game checked against the database: the log's new actions and the seats as stored.

        For a client connecting or asking to sync: a cached game may be behind when another process
        wrote while the fan-out (Redis) was down, and only the database knows; without this check
        such a table stayed at its old version for good. A cached game whose log no longer replays
        is dropped and rebuilt.
        """
        if game_id not in self.cache:
            return self.get(game_id)
        try:
            self.reload_seats(game_id)
            live = self.refresh(game_id)
        except WebError:
            self.forget(game_id)
            return self.get(game_id)
        assert live is not None
        self.cache.move_to_end(game_id)
        return live

    def _replay(self, live: Live, rows: list[tuple[int, int, str]]) -> None:
        # only the melds and additions after the last other action can be taken back: a point before each
        # of those (and none before the others, so a long log is not copied at every meld)
        last_fixed = max((i for i, row in enumerate(rows) if row[2].split(" ", 1)[0] not in UNDOABLE), default=-1)
        if last_fixed >= 0:
            live.undo_points.clear()
        for i, (seq, seat, text) in enumerate(rows):
            if seq != live.version + 1:
                raise WebError("corrupt-log", f"game {live.id}: action {seq} follows version {live.version}", status=500)
            if seat != live.game.actor:
                raise WebError("corrupt-log", f"game {live.id}: action {seq} by seat {seat}, not the actor", status=500)
            action = parse_action(text)
            if seq == rows[-1][0]:  # the last action may end a hand: keep the table as it ends
                live.before = table_copy(live.game)
            hand_no = live.game.hand_no
            if i > last_fixed:
                live.undo_points.append(live.game.copy())
            live.game.apply(action)
            live.events.append({"seq": seq, "seat": seat, "action": text, "hand": hand_no,
                                "by": mover_name(live, seat, seq)})
            if seq == rows[-1][0]:
                keep_finished_table(live, action)
        live.actor_since = time.monotonic()

    def refresh(self, game_id: str) -> Live | None:
        """Bring a cached game up to date with the log (after another process wrote). None if not cached."""
        live = self.cache.get(game_id)
        if live is None:
            return None
        with Session(self.engine) as session:
            actions = session.execute(select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq > live.version)
                                      .order_by(ActionRow.seq)).scalars().all()
            self._replay(live, [(a.seq, a.seat, a.action) for a in actions])
        return live

    def reload_seats(self, game_id: str) -> None:
        live = self.cache.get(game_id)
        if live is not None:
            self._reload_seats_of(live)

    def _reload_seats_of(self, live: Live) -> None:
        game_id = live.id
        with Session(self.engine) as session:
            rows = session.execute(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)).scalars().all()
            live.seats = [_seat_info(s) for s in rows]
            _load_notes(live, session)  # who clicked on, who left, as another process may have written

    def _evict(self) -> None:
        while len(self.cache) > self.max_cached:
            self.cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self.cache.pop(game_id, None)

    # ----------------------------------------------------------------- seats
    def seat_of(self, live: Live, token: str | None) -> int | None:
        """The seat a token is bound to; None for no token (a spectator). A wrong token is refused."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise WebError("bad-token", "this seat token is not valid for this game", status=403)
        digest = hash_secret(token)
        for attempt in range(2):
            for info in live.seats:
                if info.token_hash is not None and secrets.compare_digest(info.token_hash, digest):
                    return info.seat
            if attempt == 0:
                # the seat may have been claimed on another process while its news was lost (Redis
                # down): the database decides before the token is refused
                self._reload_seats_of(live)
        raise WebError("bad-token", "this seat token is not valid for this game", status=403)

    def set_seat_kind(self, live: Live, seat: int, kind: str, level: str | None) -> None:
        with Session(self.engine) as session:
            row = session.execute(select(SeatRow).where(SeatRow.game_id == live.id, SeatRow.seat == seat)).scalar_one()
            row.kind, row.level = kind, level
            session.commit()
        live.seats[seat].kind = kind
        live.seats[seat].level = level

    def idle_seconds(self, live: Live) -> float:
        return time.monotonic() - live.actor_since

    def take_over(self, live: Live, by_seat: int | None, seat: int) -> None:
        """Hand an idle human seat to the basic computer player (asked by another seated player)."""
        game = live.game
        if by_seat is None:
            raise WebError("not-seated", "only a player at the table can hand a seat to the computer", status=403)
        if game.is_over or seat != game.actor:
            raise WebError("not-idle", "only the seat whose turn it is can be handed to the computer")
        if seat == by_seat or live.seats[seat].kind != HUMAN:
            raise WebError("not-idle", "that seat is not an idle human seat")
        if self.idle_limit is None or self.idle_seconds(live) < self.idle_limit:
            limit = "never" if self.idle_limit is None else f"after {self.idle_limit:.0f} s"
            raise WebError("not-idle", f"seat {seat} has not been idle long enough (a seat may be handed over {limit})")
        self.set_seat_kind(live, seat, COMPUTER, "basic")
        self.note(live, seat, "left", seat_name(live, seat))

    def idle_seat(self, live: Live) -> int | None:
        """The human seat to act, when it has been idle past the limit (None otherwise)."""
        game = live.game
        if self.idle_limit is None or game.is_over or hand_end(live) is not None:
            return None
        seat = game.actor
        if live.seats[seat].kind != HUMAN or self.idle_seconds(live) < self.idle_limit:
            return None
        if sum(1 for s in live.seats if s.kind == HUMAN) < 2:
            return None  # a player alone against computers keeps the seat: nobody waits on them
        return seat

    def auto_take_over(self, live: Live) -> int | None:
        """Hand the seat to act to the basic computer player if it is idle past the limit; the seat handed over."""
        seat = self.idle_seat(live)
        if seat is not None:
            self.set_seat_kind(live, seat, COMPUTER, "basic")
            self.note(live, seat, "left", seat_name(live, seat))
        return seat

    def reclaim(self, live: Live, seat: int | None) -> None:
        """A player whose seat was handed to the computer takes it back."""
        if seat is None or live.seats[seat].token_hash is None:
            raise WebError("not-seated", "only the seat's own player can take it back", status=403)
        if live.seats[seat].kind == HUMAN:
            raise WebError("not-computer", "your seat is already yours")
        self.set_seat_kind(live, seat, HUMAN, None)
        self.note(live, seat, "back", seat_name(live, seat))
        if not live.game.is_over and live.game.actor == seat:
            live.actor_since = time.monotonic()  # back at the table: the idle clock starts again

    # --------------------------------------------------------------- actions
    def _check(self, live: Live, seat: int | None, text: Any, version: Any) -> tuple[Action, str]:
        """Every check of an action before it is written: the action and its stored text, or a WebError."""
        game = live.game
        if seat is None:
            raise WebError("not-seated", "spectators cannot act", status=403)
        if not isinstance(text, str) or not text.strip() or len(text) > 120:
            raise WebError("bad-action", "an action is a short text such as 'draw' or 'discard 4d'")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise WebError("bad-request", "version must be a whole number")
        if game.is_over:
            raise WebError("game-over", "the game is over")
        if live.failed is not None:
            raise WebError("game-failed", f"this table stopped: {live.failed}", status=409)
        if version is not None and version != live.version:
            raise WebError("stale", f"the game is at version {live.version}, the action was chosen at {version}")
        if live.writing:
            raise WebError("stale", "another action of this game is being written")
        pause = hand_end(live)
        if pause is not None:
            raise WebError("hand-over", f"hand {pause['hand']} is over: the next one starts when every player "
                                        "has clicked on")
        if game.actor != seat:
            raise WebError("not-your-turn", f"it is seat {game.actor}'s turn, not yours")
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise WebError("bad-action", str(exc)) from None
        try:
            game.check(action)
        except IllegalActionError as exc:
            raise WebError("illegal", exc.message, rule=exc.rule) from None
        return action, format_action(action)

    def _apply(self, live: Live, seq: int, seat: int, action: Action, stored: str) -> None:
        """Apply a written action to the game in memory (unless a refresh already replayed it from the log)."""
        if live.version != seq - 1:
            return
        live.before = table_copy(live.game)
        hand_no = live.game.hand_no
        if action.kind in UNDOABLE:
            live.undo_points.append(live.game.copy())
        else:
            live.undo_points.clear()
        live.game.push(action)
        live.events.append({"seq": seq, "seat": seat, "action": stored, "hand": hand_no,
                            "by": mover_name(live, seat, seq)})
        keep_finished_table(live, action)
        live.actor_since = time.monotonic()  # the idle clock counts from the last move

    def submit(self, live: Live, seat: int | None, text: Any, version: Any) -> Action:
        """Check, write, then apply one action, all at once (for callers outside the event loop).

        Raises :class:`WebError`; a refusal changes nothing. The server uses :meth:`submit_async`.
        """
        action, stored = self._check(live, seat, text, version)
        assert seat is not None
        seq = live.version + 1
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_ACTION, _action_row(live.id, seq, seat, stored))
            self.wal.after_commit()
        except IntegrityError:
            # another process wrote this step first: catch up and refuse
            self.refresh(live.id)
            raise WebError("stale", "the game moved on in the meantime") from None
        self._apply(live, seq, seat, action, stored)
        return action

    async def submit_async(self, live: Live, seat: int | None, text: Any, version: Any) -> Action:
        """Check, write, then apply one action; the write goes through the group writer, off the event loop.

        The action is applied only once its row is committed (so it is acknowledged only then), and it is
        applied even if the caller is cancelled meanwhile: the game in memory never differs from the log.
        While it is written, other actions of the game are refused as ``stale``.
        """
        action, stored = self._check(live, seat, text, version)
        assert seat is not None
        seq = live.version + 1
        live.writing = True

        def written(ok: bool) -> None:
            live.writing = False
            if ok:
                self._apply(live, seq, seat, action, stored)

        try:
            await self.writer.write(_action_row(live.id, seq, seat, stored), written)
        except IntegrityError:
            self.refresh(live.id)  # another process wrote this step first: catch up and refuse
            raise WebError("stale", "the game moved on in the meantime") from None
        return action

    def undo(self, live: Live, seat: int | None, version: int) -> str:
        """Take back the seat's last meld or addition of this turn (games against computers only); the action
        taken back. The position is the copy kept before it (:attr:`Live.undo_points`: no replay of the log),
        and the row leaves the log."""
        if seat is None:
            raise WebError("not-seated", "spectators cannot undo", status=403)
        refusal = undo_refusal(live, seat)
        if refusal is not None:
            raise WebError("no-undo", refusal)
        if version != live.version:
            raise WebError("stale", f"the game is at version {live.version}, the undo was asked at {version}")
        if live.writing:
            raise WebError("stale", "another action of this game is being written")
        last = live.events[-1]
        action = parse_action(last["action"])
        if not live.undo_points:  # (kept with every meld and addition: not expected)
            raise WebError("no-undo", "this play can no longer be taken back")
        before = live.undo_points[-1]
        # a play that showed the seat new cards (a foot, a pozzetto, a replacement) cannot be taken back
        if sorted(before.hand_cards(seat)) != sorted([*live.game.hand_cards(seat), *action.cards]):
            raise WebError("no-undo", "that play brought new cards into your hand: it cannot be taken back")
        with self.engine.begin() as conn:
            removed = conn.execute(delete(ActionRow).where(ActionRow.game_id == live.id,
                                                           ActionRow.seq == last["seq"])).rowcount
        if removed != 1:
            self.forget(live.id)
            raise WebError("stale", "the game moved on in the meantime")
        live.game = live.undo_points.pop()
        live.events.pop()
        live.views.clear()
        live.actor_since = time.monotonic()
        return str(last["action"])

    def bot_to_move(self, live: Live) -> Player | None:
        if live.game.is_over or hand_end(live) is not None:
            return None  # (at a hand's end the computers wait for the players to click on)
        return live.bot_for(live.game.actor)

    def bot_move(self, live: Live) -> bool:
        """Let the computer seat to act play one action. False when no computer is to act."""
        bot = self.bot_to_move(live)
        if bot is None:
            return False
        seat = live.game.actor
        action = bot.choose(live.game.observation(seat), live.game.legal_actions())
        self.submit(live, seat, format_action(action), live.version)
        return True

    async def bot_move_async(self, live: Live, budget: float = BOT_BUDGET) -> bool:
        """:meth:`bot_move` through the group writer; the computer thinks in a thread (the event loop
        goes on serving every other table) for at most ``budget`` seconds, then plays its first legal action."""
        bot = self.bot_to_move(live)
        if bot is None or live.writing or live.failed is not None:
            return False
        seat, version = live.game.actor, live.version
        legal = live.game.legal_actions()
        if not legal:
            raise CanastaError(f"seat {seat} has no legal action at version {version}")
        thinking = asyncio.ensure_future(asyncio.to_thread(bot.choose, live.game.observation(seat), legal))
        try:
            action = await asyncio.wait_for(asyncio.shield(thinking), budget)
        except TimeoutError:
            action = legal[0]
        if live.version != version or live.bot_for(seat) is not bot:
            return True  # the table changed while it thought (a reclaim): look again
        await self.submit_async(live, seat, format_action(action), version)
        return True

    def hint(self, live: Live, seat: int | None) -> dict[str, Any]:
        game = live.game
        if seat is None or game.is_over or game.actor != seat:
            raise WebError("not-your-turn", "a hint is for the player whose turn it is")
        action, reason = hint(game.observation(seat), game.legal_actions())
        return {"type": "hint", "version": live.version, "action": format_action(action), "reason": reason}

    def events_since(self, live: Live, since: int) -> list[dict[str, Any]] | None:
        """The events after version ``since``, or None when a full resync is needed."""
        if since < 0 or since > live.version or live.version - since > MAX_REPLAY_EVENTS:
            return None
        return live.events[since:]

    def fairness(self, live: Live) -> dict[str, Any] | None:
        """The seed's commitment and whether the creator chose it, for every seat and spectator."""
        return public_fairness(live.game.shuffle, live.fairness)

    # ------------------------------------------------------- the flow of a hand
    def note(self, live: Live, seat: int, kind: str, text: str = "") -> dict[str, Any]:
        """Write a table note (see :class:`canasta.web.db.NoteRow`) at the game's version, and keep it in memory."""
        row = {"version": live.version, "seat": seat, "kind": kind, "text": text[:80]}
        self._write_note(live.id, row)
        live.notes.append(row)
        return row

    def _write_note(self, game_id: str, row: dict[str, Any]) -> None:
        with Session(self.engine) as session:
            session.add(NoteRow(game_id=game_id, created=time.time(), **row))
            session.commit()

    def _ready_note(self, live: Live, seat: int | None) -> dict[str, Any] | None:
        """The note of ``seat`` clicking on at a hand's end; None if it already did. Refused when no hand waits."""
        pause = hand_end(live)
        if pause is None:
            raise WebError("not-paused", "no hand is waiting to be closed")
        if seat is None or seat not in pause["waiting"] + pause["ready"]:
            raise WebError("not-seated", "only the players at the table click on to the next hand", status=403)
        if seat in pause["ready"]:
            return None  # a second click (another tab of the same seat): already counted
        return {"version": live.version, "seat": seat, "kind": "ready", "text": str(pause["hand"])}

    def _noted_ready(self, live: Live, row: dict[str, Any]) -> None:
        live.notes.append(row)
        if hand_end(live) is None:
            live.actor_since = time.monotonic()  # the next hand begins: the idle clock starts now

    def ready(self, live: Live, seat: int | None) -> None:
        """A player has seen the hand's end and clicks on; the next hand starts once every player has."""
        row = self._ready_note(live, seat)
        if row is not None:
            self._write_note(live.id, row)
            self._noted_ready(live, row)

    async def ready_async(self, live: Live, seat: int | None) -> None:
        """:meth:`ready` with the note written in a thread: the event loop goes on serving the other tables
        (at a hand's end every player of a table clicks at once)."""
        row = self._ready_note(live, seat)
        if row is not None:
            await asyncio.to_thread(self._write_note, live.id, row)
            self._noted_ready(live, row)

    def auto_ready(self, live: Live) -> list[int]:
        """At the idle limit of a hand's end (a table of several players): the players who did not click on
        are counted as ready, so that one closed tab does not hold the others for good. The seats counted."""
        pause = hand_end(live)
        if pause is None or self.idle_limit is None or self.idle_seconds(live) < self.idle_limit:
            return []
        for seat in pause["waiting"]:
            self.note(live, seat, "ready", str(pause["hand"]))
        live.actor_since = time.monotonic()
        return list(pause["waiting"])

    def rematch(self, live: Live, seat: int | None) -> str:
        """A new game with the same seats (names, computers, the players' seat tokens), once the game is over;
        the same id for every player who asks. Seats still waiting for a friend go to a computer."""
        if seat is None:
            raise WebError("not-seated", "only a player at the table can start a new game with its seats", status=403)
        if not live.game.is_over:
            raise WebError("not-over", "a new game with the same seats starts when this one is over")
        if live.rematch is not None:
            return live.rematch
        seed_value = draw_seed()
        shuffle, fairness = commit(seed_value, chosen=False, table=live.game)
        game_id = new_id()
        used = [s.name for s in live.seats]
        spare = [n for n in COMPUTER_NAMES if n not in used]
        rows = []
        for info in live.seats:
            row = SeatRow(seat=info.seat, kind=info.kind, level=info.level, name=info.name, token_hash=info.token_hash)
            if info.kind == HUMAN and info.token_hash is None:  # an invite nobody took
                row.kind, row.level, row.name = COMPUTER, "basic", spare.pop(0) if spare else f"Computer {info.seat + 1}"
            rows.append(row)
        with Session(self.engine) as session:
            session.add(GameRow(id=game_id, variant=live.game.variant_name, players=live.players, seed=str(seed_value),
                                rules=json.dumps(live.game.variant.non_default_rules()), seats=rows))
            session.flush()
            session.add(FairnessRow(game_id=game_id, shuffle=shuffle, salt=fairness.salt,
                                    commitment=fairness.commitment, chosen=fairness.chosen))
            session.commit()
        self.note(live, seat, "rematch", game_id)
        live.rematch = game_id
        return game_id

    def idle_state(self, live: Live) -> dict[str, Any] | None:
        """Where an idle limit applies (a table with several players), who it runs for and the seconds left."""
        game = live.game
        if self.idle_limit is None or game.is_over or sum(1 for s in live.seats if s.kind == HUMAN) < 2:
            return None
        pause = hand_end(live)
        if pause is not None:
            seats = pause["waiting"]
        elif live.seats[game.actor].kind == HUMAN:
            seats = [game.actor]
        else:
            return None
        return {"seats": seats, "hand_end": pause is not None,
                "left": round(max(0.0, self.idle_limit - self.idle_seconds(live)), 1)}

    # --------------------------------------------------------------- records
    def record(self, live: Live, seat: int | None) -> str:
        """The game as a record; redacted for the downloader's seat (spectators: seat 0's public view) unless over."""
        from canasta.record import export_record

        game = live.game
        names = [info.name for info in live.seats]  # shown at the table to every seat and spectator already
        if game.is_over:  # the seed and salt are revealed: anyone may check them against the commitment
            return export_record(game, fairness=live.fairness, names=names)
        # A spectator may only have what is face up: a record redacted for any seat, minus that seat's hand,
        # would still be more than a spectator saw, so spectators get no running record.
        if seat is None:
            raise WebError("not-seated", "a running game's record is for its players (it shows the downloader's hand)",
                           status=403)
        return export_record(game, seat=seat, fairness=live.fairness, names=names)


def _action_row(game_id: str, seq: int, seat: int, stored: str) -> dict[str, Any]:
    return {"game_id": game_id, "seq": seq, "seat": seat, "action": stored, "created": time.time()}


class GroupWriter:
    """Group commit of action rows, in a thread so that no commit blocks the event loop.

    Rows that arrive while a transaction is being committed go together in the next one
    (one commit, one fsync on PostgreSQL, for all of them). Each row's ``written`` callback
    runs on the event loop once its transaction is over, before its waiter resumes.
    If a batch fails on the unique ``(game_id, seq)`` (another process wrote one of those
    steps), its rows are written one by one so that only the loser fails.
    """

    def __init__(self, engine: Engine, wal: WalBound | None = None) -> None:
        self.engine = engine
        self.wal = wal
        self.pending: list[tuple[dict[str, Any], Callable[[bool], None], asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        #: transactions committed and rows written (for the load test's curiosity)
        self.commits = 0
        self.rows = 0

    async def write(self, row: dict[str, Any], written: Callable[[bool], None]) -> None:
        """Commit ``row``, then call ``written(True)`` (``written(False)`` if it failed), even if this waiter
        was cancelled meanwhile; then return, or raise the failure."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending.append((row, written, future))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._flush())
        await future

    def _insert(self, rows: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(_INSERT_ACTION, rows)
        if self.wal is not None:  # in the writer's thread: a TRUNCATE that waits for readers blocks no one else
            self.wal.after_commit()

    @staticmethod
    def _done(item: tuple[dict[str, Any], Callable[[bool], None], asyncio.Future[None]], error: BaseException | None) -> None:
        _row, written, future = item
        written(error is None)
        if not future.done():
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)

    async def _flush(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                await asyncio.to_thread(self._insert, [row for row, _, _ in batch])
            except IntegrityError:
                for item in batch:
                    try:
                        await asyncio.to_thread(self._insert, [item[0]])
                    except Exception as exc:
                        self._done(item, exc)
                    else:
                        self.commits += 1
                        self.rows += 1
                        self._done(item, None)
                continue
            except Exception as exc:
                for item in batch:
                    self._done(item, exc)
                continue
            self.commits += 1
            self.rows += len(batch)
            for item in batch:
                self._done(item, None)


def _seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(seat=row.seat, kind=row.kind, level=row.level, name=row.name,
                    token_hash=row.token_hash, invite_hash=row.invite_hash)


# ------------------------------------------------------------------ the flow of a hand, names
def computer_names(game_id: str, taken: list[str]) -> list[str]:
    """Names for the computer seats of a table: distinct, none a player's, the same for the same table."""
    start = int(hashlib.sha256(game_id.encode()).hexdigest(), 16) % len(COMPUTER_NAMES)
    ordered = COMPUTER_NAMES[start:] + COMPUTER_NAMES[:start]
    free = [n for n in ordered if n not in taken]
    return free + [f"Computer {k}" for k in range(1, 9)]


def seat_name(live: Live, seat: int) -> str:
    return live.seats[seat].name or f"Player {seat + 1}"


def mover_name(live: Live, seat: int, seq: int) -> str:
    """Who made move ``seq`` of ``seat``, as it was then: its player, or the computer standing in for them.

    Read from the notes of takeovers ("left") and returns ("back") before that move, so a log keeps who
    played each move when a seat changes hands later."""
    info = live.seats[seat]
    name = seat_name(live, seat)
    then: str | None = None
    for note in live.notes:
        if note["seat"] == seat and note["kind"] in ("left", "back") and note["version"] < seq:
            then = note["kind"]
    by_computer = info.kind == COMPUTER if then is None else then == "left"
    if by_computer and (then is not None or info.token_hash is not None):
        return f"Computer for {name}"
    return name


def table_copy(game: Game) -> Game:
    """A copy of the game without its history (copying it at every move would cost in proportion to the game)."""
    history = game.history
    game.history = []
    try:
        return game.copy()
    finally:
        game.history = history


def hand_just_ended(game: Game) -> bool:
    """The last action ended a hand and no action of the next has been played yet."""
    results = game.hand_results
    return bool(results) and results[-1]["actions_end"] == len(game.history)


def keep_finished_table(live: Live, action: Action) -> None:
    """After an action: when it ended a hand (and not the game), keep the table as the hand ended.

    The engine scores a hand and deals the next inside the hand's last action; the action is played
    again on the copy taken before it, with the deal switched off (as the terminal game does)."""
    before, live.before = live.before, None
    live.finished_views.clear()
    game = live.game
    if before is None or game.is_over or not hand_just_ended(game):
        live.finished = None
        return
    before.deals_next_hand = False
    before.push(action)
    live.finished = before


def hand_end(live: Live) -> dict[str, Any] | None:
    """The pause at a hand's end: the hand, the players still to click on and those who did; None when
    play goes on (no hand just ended, the game is over, or every player at the table clicked on)."""
    game = live.game
    if game.is_over or not hand_just_ended(game):
        return None
    hand = game.hand_results[-1]["hand"]
    ready = {n["seat"] for n in live.notes if n["kind"] == "ready" and n["text"] == str(hand)}
    players = [s.seat for s in live.seats if s.kind == HUMAN and s.token_hash is not None]
    waiting = [s for s in players if s not in ready]
    if not waiting:
        return None
    return {"hand": hand, "waiting": waiting, "ready": [s for s in players if s in ready]}


def hand_end_state(live: Live, seat: int | None, pause: dict[str, Any] | None) -> dict[str, Any]:
    """The parts of a state message about the flow of the game: the pause at a hand's end with the table as
    the hand ended (that seat's view of it: its own hand only), the notes of who left and came back, the rematch."""
    finished = None
    if pause is not None and live.finished is not None:
        cached = live.finished_views.get(seat)
        if cached is not None and cached[0] == live.version:
            finished = cached[1]
        else:
            finished = live.finished.observation(seat)
            finished.update(hand_results=live.game.hand_results, scores=list(live.game.scores), actor=None,
                            hand_over=True)
            live.finished_views[seat] = (live.version, finished)
    notes = [n for n in live.notes if n["kind"] in ("left", "back")]
    return {"pause": pause, "finished": finished, "notes": notes, "rematch": live.rematch}


def _load_notes(live: Live, session: Session) -> None:
    rows = session.execute(select(NoteRow).where(NoteRow.game_id == live.id).order_by(NoteRow.id)).scalars().all()
    live.notes = [{"version": r.version, "seat": r.seat, "kind": r.kind, "text": r.text} for r in rows]
    live.rematch = next((n["text"] for n in reversed(live.notes) if n["kind"] == "rematch"), live.rematch)
