"""The FastAPI application: REST endpoints, the WebSocket of each table, static pages.

``create_app(database_url)`` builds an app over one database; several processes
may share a PostgreSQL database when they are given the same ``redis_url``.
See docs/web.md for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import multiprocessing
import pathlib
import time
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Header, Path, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

import canasta.web.lifecycle as lifecycle
from canasta.errors import CanastaError
from canasta.web.history import History, HistoryRequest
from canasta.web.hub import Client, Hub
from canasta.web.limits import BodyLimit, Limits
from canasta.web.schemas import (
    FIELD_CODES,
    GAME_ID_PATTERN,
    GAME_ID_RULE,
    MESSAGE_TYPES,
    CreateGame,
    JoinSeat,
    JsonShapeError,
    ReplayRequest,
    ScoreRequest,
    check_json_shape,
    client_message,
    first_error,
    is_game_id,
)
from canasta.web.service import GameService, WebError

STATIC = pathlib.Path(str(resources.files("canasta.web") / "static"))
#: largest WebSocket message accepted from a client (characters)
MAX_MESSAGE = 4096
#: per connection: messages per second refilled, and the burst allowed (a flood beyond is refused)
RATE, BURST = 50.0, 100.0


#: seconds a heavy request (a replay, a score sheet) may wait for its turn before it is refused as busy
#: (the work itself is bounded by counts: replay.MAX_REPLAY_ACTIONS, the score input's model)
WORK_BUDGET = 10.0
#: the refusal code of a bad field of a request (the others: bad-request)
BODY_FIELD_CODES = {"seats": "bad-seats", "rules": "bad-options", "variant": "bad-options", "game_id": "bad-game-id"}
#: a game id in a path, checked before any work (see schemas.GAME_ID_PATTERN)
GameId = Annotated[str, Path(pattern=GAME_ID_PATTERN, description=GAME_ID_RULE)]
#: heavy requests worked on at once (in threads); more wait for a turn, up to WORK_BUDGET
HEAVY_AT_ONCE = 2


def variants_info() -> list[dict[str, Any]]:
    from canasta.variants import VARIANTS

    out = []
    # Classic first (the start page's default choice), then the others by title
    for name, cls in sorted(VARIANTS.items(), key=lambda item: (item[0] != "classic", item[1].title)):
        out.append({
            "name": name, "title": cls.title, "description": cls.description,
            "player_counts": list(cls.player_counts), "rules_page": f"/rules/{name}",
            "options": [{"name": o.name, "default": o.default, "help": o.help, "source": o.source,
                         "choices": list(o.choices) if o.choices is not None else None,
                         "type": type(o.default).__name__, "minimum": o.minimum, "maximum": o.maximum}
                        for o in cls.options.values()],
        })
    return out


@dataclass
class _Server:
    """What the routes of one app share: the games, the fan-out, the budgets."""

    service: GameService
    hub: Hub
    keeper: lifecycle.Keeper
    limits: Limits
    heavy: asyncio.Semaphore
    workers: ReplayWorkers | None
    rate: float
    burst: float

    async def bounded(self, work: Any, *args: Any) -> Any:
        """Run CPU-heavy ``work(*args)`` a few at a time, in a thread (a coroutine function: awaited), refused
        with 503 when it waits too long for its turn (the work itself is bounded by counts)."""
        try:
            await asyncio.wait_for(self.heavy.acquire(), WORK_BUDGET)
        except TimeoutError:
            raise WebError("busy", "the server is busy with other heavy requests; try again", status=503) from None
        try:
            if asyncio.iscoroutinefunction(work):
                return await work(*args)
            return await asyncio.to_thread(work, *args)
        finally:
            self.heavy.release()


def create_app(database_url: str = "sqlite:///canasta.db", *, redis_url: str | None = None,
               bot_delay: float = 0.0, idle_limit: float | None = 120.0, auto_takeover: bool = False,
               rate_limit: tuple[float, float] = (RATE, BURST), limits: Limits | None = None,
               table_expiry: float | None = 24 * 3600.0, replay_processes: bool = True) -> FastAPI:
    """The web app over ``database_url`` (SQLite path or URL, or ``postgresql://...``).

    ``redis_url`` fans updates out to other processes sharing the database; ``bot_delay`` paces
    computer players (seconds per action); ``idle_limit`` is how long a seat must have been idle
    before another player may hand it to the computer (None: never); with ``auto_takeover`` the
    server does that by itself at the limit (``canasta serve`` turns it on); ``rate_limit`` is
    (messages per second, burst) per connection; ``limits`` the per-client budgets (games created,
    sockets; see :class:`canasta.web.limits.Limits`); ``table_expiry`` how long a table nobody connects
    to stays open (seconds; None: for ever); ``replay_processes`` replays records for the viewer in worker
    processes (False: in threads, as tests that hold a replay mid-work need). See "Threat model and limits"
    in docs/web.md.
    """
    service = GameService(database_url, idle_limit=idle_limit, background_checkpoint=True)
    server = _Server(service=service, hub=Hub(service, bot_delay=bot_delay, redis_url=redis_url, auto_takeover=auto_takeover),
                     keeper=lifecycle.Keeper(service.engine, table_expiry), limits=Limits() if limits is None else limits,
                     heavy=asyncio.Semaphore(HEAVY_AT_ONCE), workers=ReplayWorkers(HEAVY_AT_ONCE) if replay_processes else None,
                     rate=rate_limit[0], burst=rate_limit[1])
    app = FastAPI(title="canasta", lifespan=_lifespan(server))
    app.add_middleware(BodyLimit)
    app.state.service = service
    app.state.hub = server.hub
    app.state.limits = server.limits
    app.state.keeper = server.keeper
    _add_error_handlers(app)
    _add_pages(app)
    _add_game_api(app, server)
    _add_tools_api(app, server)
    _add_table_socket(app, server)
    return app


def _lifespan(server: _Server) -> Any:
    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Everything loaded so far (FastAPI, pydantic, SQLAlchemy, the engine: ~140,000 objects) lives as long
        # as the process: out of the collector's reach, a full collection scans only the games' own objects
        # (with 200 games in memory a full collection took ~70 ms on an idle core, ~30 ms after the freeze).
        gc.collect()
        gc.freeze()
        await server.hub.start()
        background = [asyncio.create_task(_checkpoints(server.service)),
                      asyncio.create_task(_expiry(server.hub, server.keeper))]
        try:
            yield
        finally:
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await server.hub.stop()
            server.keeper.close()
            server.service.close()
            if server.workers is not None:
                server.workers.close()

    return lifespan


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(WebError)
    async def _web_error(_request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse(exc.payload(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{**e, "loc": tuple(p for p in e.get("loc", ()) if p != "path")} for e in exc.errors()]
        where, what = first_error(errors)
        code = BODY_FIELD_CODES.get(where.split(".")[0], "bad-request")
        if code == "bad-game-id":  # no such game can exist: said plainly, not as a pattern
            return JSONResponse({"type": "error", "code": code, "message": GAME_ID_RULE}, status_code=404)
        message = f"{where}: {what}" if where else what
        return JSONResponse({"type": "error", "code": code, "message": message}, status_code=400)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html")


def _add_pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return _page("index.html")

    @app.get("/table/{game_id}", include_in_schema=False)
    async def table(game_id: GameId) -> FileResponse:
        return _page("table.html")

    @app.get("/scorepad", include_in_schema=False)
    async def scorepad() -> FileResponse:
        return _page("scorepad.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return _page("replay.html")

    @app.get("/history", include_in_schema=False)
    async def history_page() -> FileResponse:
        return _page("history.html")

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules_page(variant: str) -> HTMLResponse:
        from canasta.web.rules_page import rules_page as render_rules

        infos = {v["name"]: v for v in variants_info()}
        info = infos.get(variant)
        if info is None:
            raise WebError("no-variant", f"no variant {variant!r}", status=404)
        return HTMLResponse(render_rules(info, set(infos)))

    # browsers ask for /favicon.ico whatever the page's <link rel="icon"> says: the SVG drawn in static/
    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        return Response("ok", media_type="text/plain")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def _add_game_api(app: FastAPI, server: _Server) -> None:
    service, hub, keeper = server.service, server.hub, server.keeper

    @app.get("/api/variants")
    async def api_variants() -> list[dict[str, Any]]:
        return variants_info()

    @app.post("/api/games")
    async def api_create(body: CreateGame, request: Request) -> dict[str, Any]:
        if not server.limits.allow_game(_client_of(request)):
            raise WebError("too-many-games", "too many games created from here; wait a minute", status=429)
        # ``players`` is already a small number (the model bounds it): the seat list is short
        seats = [s.model_dump() for s in body.seats] if body.seats is not None else \
            [{"kind": "me"}] + [{"kind": "computer", "level": "basic"}] * (body.players - 1)
        created = service.create_game(variant=body.variant, players=body.players, seed=body.seed,
                                      rules=body.rules, seats=seats)
        gid = created["id"]
        keeper.saw(gid)
        return {"id": gid, "tokens": {str(k): v for k, v in created["tokens"].items()},
                "invites": {str(k): v for k, v in created["invites"].items()},
                "invite_links": {str(k): f"/table/{gid}?seat={k}&invite={v}" for k, v in created["invites"].items()},
                "table": f"/table/{gid}"}

    @app.post("/api/games/{game_id}/join")
    async def api_join(game_id: GameId, body: JoinSeat) -> dict[str, Any]:
        live = service.get(game_id)
        if not 0 <= body.seat < live.players:
            raise WebError("bad-seat", f"there is no seat {body.seat}")
        token = service.join(game_id, body.seat, body.invite, body.name)
        hub.changed(game_id, force=True)
        return {"seat": body.seat, "token": token}

    @app.get("/api/games/{game_id}")
    async def api_game(game_id: GameId, x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
        live = hub.catch_up(game_id)
        seat = service.seat_of(live, x_seat_token)
        return {"id": live.id, "variant": live.variant, "players": live.players, "seat": seat,
                "idle_limit": service.idle_limit, "fairness": service.fairness(live), **_strip(service, live, seat),
                "online": hub.online(game_id), "idle": service.idle_state(live)}

    @app.post("/api/games/{game_id}/rematch")
    async def api_rematch(game_id: GameId, x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
        """A new game with the same seats once this one is over; every player's seat token works there too."""
        live = hub.catch_up(game_id)
        seat = service.seat_of(live, x_seat_token)
        new_id = service.rematch(live, seat)
        keeper.saw(new_id)
        hub.changed(game_id, force=True)  # the others are offered the new table
        return {"id": new_id, "seat": seat, "table": f"/table/{new_id}"}

    @app.get("/api/games/{game_id}/record")
    async def api_record(game_id: GameId, x_seat_token: str | None = Header(default=None)) -> PlainTextResponse:
        # the seat token comes in a header only: a URL is kept in histories, logs and Referer headers
        live = service.get(game_id)
        seat = service.seat_of(live, x_seat_token)
        text = service.record(live, seat)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="canasta-{game_id}.txt"'})


def _add_tools_api(app: FastAPI, server: _Server) -> None:
    """The scorekeeper, the replay viewer and a browser's history: heavy work, run a few at a time."""

    # the body is read by hand (every refusal is a ``bad-score``), but documented for clients and the fuzzer
    @app.post("/api/score", openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": ScoreRequest.model_json_schema()}}}})
    async def api_score(request: Request) -> dict[str, Any]:
        data = await _json_body(request)
        try:
            ScoreRequest.model_validate(data)
        except ValidationError as exc:
            where, what = first_error(list(exc.errors()))
            raise WebError("bad-score", f"{where}: {what}" if where else what) from None
        result: dict[str, Any] = await server.bounded(_score, data)
        return result

    @app.post("/api/replay")
    async def api_replay(body: ReplayRequest) -> Response:
        from canasta.web.replay import replay_answer

        # the replay's budget is MAX_REPLAY_ACTIONS; its frames are encoded where it runs (7 MB for 9,200
        # actions: FastAPI encoding them on the loop held it ~0.9 s)
        if server.workers is not None:
            status, encoded = await server.bounded(server.workers.run, replay_answer, body.record)
        else:
            status, encoded = await server.bounded(replay_answer, body.record)
        return Response(encoded, status_code=status, media_type="application/json")

    # A browser's games, known by the seat tokens it holds (in the body, never the URL): canasta/web/history.py
    history = History(server.service)

    @app.post("/api/history")
    async def api_history(body: HistoryRequest) -> dict[str, Any]:
        found: dict[str, Any] = await server.bounded(history.for_browser, body.seats)
        return found


def _add_table_socket(app: FastAPI, server: _Server) -> None:
    limits = server.limits

    @app.websocket("/ws/{game_id}")
    async def ws_table(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        who = _client_of(ws)
        refusal = None if is_game_id(game_id) else WebError("bad-game-id", GAME_ID_RULE, status=404)
        refused = limits.open_socket(who) if refusal is None else None
        if refused is not None:
            refusal = WebError("too-many-sockets", refused, status=429)
        if refusal is not None:
            with contextlib.suppress(Exception):  # its hello first, so that the client reads the refusal
                await asyncio.wait_for(ws.receive(), 1.0)
            await _send_close(ws, refusal.payload())
            return
        try:
            await _serve_socket(server, ws, game_id, who)
        finally:
            limits.close_socket(who)


async def _serve_socket(server: _Server, ws: WebSocket, game_id: str, who: str) -> None:
    """A socket past the door: its hello names a seat (or none), then the table's caps admit it or not."""
    service, hub, keeper = server.service, server.hub, server.keeper
    try:
        hello = await _first_message(ws)
        live = hub.catch_up(game_id)  # checked against the log: news from other processes may have been lost
        seat = service.seat_of(live, hello.get("token"))
        status, why = await keeper.status(game_id)
        if status == lifecycle.EXPIRED and not live.game.is_over:
            service.forget(game_id)
            raise WebError("expired", f"this table is closed: {why}", status=410)
        if status == lifecycle.FAILED:
            live.failed = why
    except WebError as exc:
        await _send_close(ws, exc.payload())
        return
    except WebSocketDisconnect:
        return
    here = [c.seat is not None for c in hub.clients.get(game_id, ()) if not c.closed]
    refused = server.limits.join_table(who, seat is not None, sum(here), len(here) - sum(here))
    if refused is not None:
        await _send_close(ws, WebError("too-many-sockets", refused, status=429).payload())
        return
    try:
        await _serve_table(server, ws, live, seat, hello.get("since"), who)
    finally:
        server.limits.leave_table(who, seat is not None)


async def _serve_table(server: _Server, ws: WebSocket, live: Any, seat: int | None, since: int | None,
                       who: str) -> None:
    """A socket admitted to its table: the welcome, then its messages until it closes."""
    service, hub, keeper = server.service, server.hub, server.keeper
    game_id = live.id
    client = Client(ws=ws, game_id=game_id, seat=seat)
    writer = asyncio.create_task(client.writer())
    hub.add(client)
    keeper.saw(game_id)
    client.send({"type": "welcome", "game": game_id, "seat": seat, "players": live.players,
                 "variant": live.variant, "idle_limit": service.idle_limit, "auto_takeover": hub.auto_takeover,
                 "fairness": service.fairness(live)})
    client.send(hub.update_for(live, client, since))
    client.send({"type": "chat-history", "messages": hub.chat.history(game_id)})
    hub.drive(game_id)
    tokens, last = server.burst, time.monotonic()
    try:
        while not client.closed:
            raw = await ws.receive()
            if raw.get("type") == "websocket.disconnect":
                break
            now = time.monotonic()
            tokens = min(server.burst, tokens + (now - last) * server.rate)
            last = now
            if tokens < 1 or not server.limits.allow_message(who, _size_of(raw)):
                client.send(WebError("flood", "too many messages: slow down").payload())
                continue
            tokens -= 1
            reply = await _handle(service, hub, client, raw)
            if reply is not None:
                client.send(reply)
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(client)
        keeper.saw(game_id)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, 2.0)


class ReplayWorkers:
    """A pool of worker processes for the replay viewer, started at the first replay: a long replay in a
    thread of the server took the GIL from the event loop (two 6.5 s replays: the loop waited 0.4-0.6 s at
    the 99th percentile); a process of its own does not."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pool: ProcessPoolExecutor | None = None

    async def run(self, work: Any, *args: Any) -> Any:
        if self.pool is None:  # spawn: a fresh interpreter, not a fork of a process with threads
            self.pool = ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"))
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, work, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool for the next request
            self.pool = None
            raise WebError("busy", "the replay worker stopped; try again", status=503) from None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)


def _client_of(conn: Request | WebSocket) -> str:
    """Who a request comes from, for the per-client limits: its remote address."""
    return conn.client.host if conn.client is not None else "unknown"


def _score(data: Any) -> dict[str, Any]:
    from canasta.scorekeeper import score_input

    try:
        return score_input(data)
    except CanastaError as exc:
        raise WebError("bad-score", str(exc)) from None


async def _expiry(hub: Hub, keeper: lifecycle.Keeper) -> None:
    """Now and then: note the tables seen (and those with a client here), expire those nobody connected
    to for ``keeper.expiry`` seconds, and drop them from memory (their computers stop with them)."""
    if keeper.expiry is None:
        return
    while True:
        await asyncio.sleep(min(60.0, max(keeper.expiry / 4, 0.05)))
        try:
            gone = await keeper.sweep({gid for gid, clients in hub.clients.items() if clients})
        except Exception:
            logging.getLogger("canasta.web").warning("table expiry failed; the next sweep retries", exc_info=True)
            continue
        for game_id in gone:
            if not hub.clients.get(game_id):
                hub.service.forget(game_id)


async def _checkpoints(service: GameService, every: float = 1.0) -> None:
    """SQLite: copy the write-ahead log into the database in a thread, so no commit on the event loop does it."""
    if service.engine.dialect.name != "sqlite":
        return
    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(service.checkpoint)
        except Exception:
            logging.getLogger("canasta.web").warning("SQLite checkpoint failed; the next one retries", exc_info=True)


def _strip(service: GameService, live: Any, seat: int | None) -> dict[str, Any]:
    from canasta.web.service import public_state

    return public_state(live, seat)


async def _json_body(request: Request) -> Any:
    raw = await request.body()  # its size and depth were checked by BodyLimit (the body is parsed only here)
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise WebError("bad-json", "the request body is not JSON") from None


async def _first_message(ws: WebSocket) -> dict[str, Any]:
    try:
        raw = await asyncio.wait_for(ws.receive(), 30.0)
    except TimeoutError:
        raise WebError("no-hello", "send {\"type\": \"hello\", \"token\": ..., \"since\": ...} first") from None
    if raw.get("type") == "websocket.disconnect":
        raise WebSocketDisconnect()
    message = _validate(_parse(raw))
    if message.type != "hello":
        raise WebError("no-hello", "the first message must be {\"type\": \"hello\", \"token\": ..., \"since\": ...}")
    hello: dict[str, Any] = message.model_dump()
    return hello


def _size_of(raw: Any) -> int:
    """A WebSocket message's size for the per-client byte budget (a text message: its characters)."""
    text, data = raw.get("text"), raw.get("bytes")
    return len(text) if isinstance(text, str) else len(data) if isinstance(data, bytes) else 0


def _parse(raw: Any) -> dict[str, Any]:
    """A client's WebSocket message as JSON, checked once: size, shape (nesting, parts), an object."""
    text = raw.get("text")
    if text is None:
        data = raw.get("bytes")
        if data is None:
            raise WebError("bad-json", "empty message")
        if len(data) > MAX_MESSAGE:
            raise WebError("too-large", f"messages are at most {MAX_MESSAGE} characters")
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise WebError("bad-json", "messages are JSON text") from None
    if len(text) > MAX_MESSAGE:
        raise WebError("too-large", f"messages are at most {MAX_MESSAGE} characters")
    try:
        check_json_shape(text)
    except JsonShapeError as exc:
        raise WebError(exc.code, exc.message.replace("JSON", "messages", 1)) from None
    try:
        message = json.loads(text)
    except ValueError:
        raise WebError("bad-json", "messages are JSON objects") from None
    if not isinstance(message, dict):
        raise WebError("bad-json", "messages are JSON objects with a 'type'")
    return message


def _validate(message: dict[str, Any]) -> Any:
    """A parsed message checked against its model in :mod:`canasta.web.schemas`."""
    kind = message.get("type")
    if kind not in MESSAGE_TYPES:
        kind_text = repr(kind)[:40].encode("utf-8", "backslashreplace").decode()
        raise WebError("unknown-type", f"unknown message type {kind_text}; types: action, hint, sync, takeover, "
                                       "reclaim, ping, chat, undo, next")
    try:
        return client_message.validate_python(message)
    except ValidationError as exc:
        errors = list(exc.errors())
        loc = errors[0].get("loc", ()) if errors else ()
        where, what = first_error([{**errors[0], "loc": loc[1:]}] if errors else [])
        code = FIELD_CODES.get(str(loc[-1]) if loc else "", "bad-request")
        raise WebError(code, f"{where}: {what}" if where else what) from None


async def _send_close(ws: WebSocket, payload: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(payload))
        await ws.close(code=4003 if payload.get("code") == "bad-token" else 4000)


async def _handle(service: GameService, hub: Hub, client: Client, raw: Any) -> dict[str, Any] | None:
    """One client message; the reply to that client (others get updates through the hub)."""
    parsed: dict[str, Any] | None = None
    try:
        parsed = _parse(raw)  # the only scan and parse of the message: the error path reuses it for the id
        message = _validate(parsed)
        kind = message.type
        live = service.get(client.game_id)
        if kind == "action":
            await service.submit_async(live, client.seat, message.action, message.version)
            reply = {"type": "ack", "id": message.id, "version": live.version}
            client.send(reply)
            hub.changed(client.game_id)
            return None
        if kind == "hint":
            return service.hint(live, client.seat)
        if kind == "sync":
            live = hub.catch_up(client.game_id)
            return hub.update_for(live, client, message.since)
        if kind == "takeover":
            if message.seat >= live.players:
                raise WebError("bad-seat", "takeover names a seat number")
            service.take_over(live, client.seat, message.seat)
            hub.changed(client.game_id, force=True)
            return None
        if kind == "reclaim":
            service.reclaim(live, client.seat)
            hub.changed(client.game_id, force=True)
            return None
        if kind == "ping":
            return {"type": "pong", "version": live.version}
        if kind == "chat":
            hub.say(client, message.text, message.emote)
            return None
        if kind == "undo":
            taken = service.undo(live, client.seat, message.version)
            client.send({"type": "undone", "id": message.id, "action": taken, "version": live.version})
            hub.undone(client.game_id)  # then everyone's resync (this client's too)
            return None
        if kind == "next":
            await service.ready_async(live, client.seat)
            hub.changed(client.game_id, force=True)
            return None
        raise WebError("bad-request", "already connected")
    except WebError as exc:
        out = exc.payload()
        message_id = parsed.get("id") if parsed is not None else None
        if isinstance(message_id, int | str) and len(str(message_id)) < 64:
            out["id"] = message_id
        return out
