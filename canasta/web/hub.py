"""WebSocket clients of each table, versioned updates, computer seats, and Redis fan-out.

Each client has an outgoing queue drained by its own writer task, so a slow or
dropped client never blocks the table; a client whose queue overflows is
disconnected and resynchronises when it reconnects (it sends the last version it
has, and gets the events it missed, or a full resync).

With ``redis_url`` every state change is published on ``canasta:game:<id>``;
every process refreshes that game from the database (the durable log) and
updates its own clients. The pub/sub listener reconnects by itself; after a
reconnect it refreshes every cached game that has clients here and drops the
others from the cache (messages published while Redis was down are lost), and a
client connecting or asking to ``sync`` is served the game checked against the
database (:meth:`Hub.catch_up`), so a lost message costs only latency, never a
table stuck at an old version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketState

from canasta.engine.feet import FootGame
from canasta.web.chat import TableChat, chat_payload
from canasta.web.service import GameService, Live, WebError, hand_end, public_state

log = logging.getLogger("canasta.web")

CHANNEL_PREFIX = "canasta:game:"
QUEUE_LIMIT = 256


#: in a client's queue: "send this client an update now, if it is behind" (built when it is sent)
UPDATE_DUE: dict[str, Any] = {"type": "update-due"}


@dataclass(eq=False)
class Client:
    ws: WebSocket
    game_id: str
    seat: int | None
    sent_version: int = -1
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    #: builds this client's update when its turn in the queue comes (None: it is up to date)
    build: Callable[[Client, bool], dict[str, Any] | None] | None = None
    #: an UPDATE_DUE is in the queue; with force, even at the same version (the seats changed)
    update_due: bool = False
    force_due: bool = False

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            # too far behind: drop it; on reconnect it resyncs from its last version
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)

    def update(self, force: bool = False) -> None:
        """Ask for an update. It is built when the writer gets to it, with every event since the last
        one sent, so a client that falls behind gets one message for several moves, not one each."""
        self.force_due = self.force_due or force
        if not self.update_due:
            self.update_due = True
            self.send(UPDATE_DUE)

    async def writer(self) -> None:
        try:
            while True:
                message = await self.queue.get()
                if message is None:
                    break
                if message is UPDATE_DUE:
                    force, self.update_due, self.force_due = self.force_due, False, False
                    message = self.build(self, force) if self.build is not None else None
                    if message is None:
                        continue
                if self.ws.client_state != WebSocketState.CONNECTED:
                    break
                await self.ws.send_text(json.dumps(message, separators=(",", ":")))
        except Exception:  # a send to a dropped client; the reader notices the close
            log.debug("writer for %s stopped", self.game_id, exc_info=True)
        finally:
            self.closed = True
            if self.ws.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await self.ws.close()


class Hub:
    def __init__(self, service: GameService, *, bot_delay: float = 0.0, redis_url: str | None = None,
                 auto_takeover: bool = False) -> None:
        self.service = service
        self.bot_delay = bot_delay
        self.redis_url = redis_url
        #: hand a human seat idle past ``service.idle_limit`` to the computer by itself
        self.auto_takeover = auto_takeover
        self.idle_timers: dict[str, asyncio.TimerHandle] = {}
        self.clients: dict[str, set[Client]] = {}
        self.driving: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.origin = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self.chat = TableChat()

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        if self.redis_url:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(self.redis_url)
            ready = asyncio.Event()
            self._listener = asyncio.create_task(self._listen(ready))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), 5.0)

    async def stop(self) -> None:
        for timer in self.idle_timers.values():
            timer.cancel()
        self.idle_timers.clear()
        for task in list(self.tasks):
            task.cancel()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -------------------------------------------------------------- clients
    def add(self, client: Client) -> None:
        client.build = self.build_update
        online = self.online(client.game_id)
        self.clients.setdefault(client.game_id, set()).add(client)
        self._presence_changed(client.game_id, online, skip=client)

    def remove(self, client: Client) -> None:
        online = self.online(client.game_id)
        clients = self.clients.get(client.game_id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.clients[client.game_id]
                self.chat.forget(client.game_id)
        client.closed = True
        client.queue.put_nowait(None)
        self._presence_changed(client.game_id, online)

    def online(self, game_id: str) -> list[int]:
        """The seats with a page connected to this process (the others' connections are not known here)."""
        return sorted({c.seat for c in self.clients.get(game_id, ()) if c.seat is not None and not c.closed})

    def _presence_changed(self, game_id: str, before: list[int], skip: Client | None = None) -> None:
        """A seat came online or went: the other pages of the table show it (``skip``: a client just added,
        whose welcome comes first)."""
        if self.online(game_id) == before or game_id not in self.service.cache:
            return
        for client in list(self.clients.get(game_id, ())):
            if client is not skip:
                client.update(force=True)

    def update_for(self, live: Live, client: Client, since: int | None) -> dict[str, Any]:
        """An update message: the events after ``since`` (or a resync) and the seat's state."""
        events = self.service.events_since(live, since) if since is not None else None
        state = public_state(live, client.seat)
        state.update(online=self.online(live.id), idle=self.service.idle_state(live))
        client.sent_version = live.version
        if events is None:
            return {"type": "update", "version": live.version, "resync": True,
                    "events": _hide_keeps(live, client.seat, live.events[-200:]), "state": state}
        return {"type": "update", "version": live.version, "resync": False,
                "events": _hide_keeps(live, client.seat, events), "state": state}

    def build_update(self, client: Client, force: bool) -> dict[str, Any] | None:
        """The update a client's writer sends when it gets to it; None when the client is up to date."""
        try:
            live = self.service.get(client.game_id)
        except WebError:
            return None
        if not force and client.sent_version >= live.version:
            return None
        since = client.sent_version if client.sent_version >= 0 else None
        return self.update_for(live, client, since)

    def broadcast_local(self, game_id: str, force: bool = False) -> None:
        clients = self.clients.get(game_id)
        if not clients:
            return
        live = self.service.get(game_id)
        for client in list(clients):
            if force or client.sent_version < live.version:
                client.update(force)

    def changed(self, game_id: str, force: bool = False) -> None:
        """After a local change: update local clients, tell other processes, let computers move."""
        self.broadcast_local(game_id, force)
        if self._redis is not None:
            self._spawn(self._publish(game_id, force))
        self.drive(game_id)

    async def _publish(self, game_id: str, seats: bool) -> None:
        message = json.dumps({"origin": self.origin, "seats": seats})
        try:
            await self._redis.publish(CHANNEL_PREFIX + game_id, message)
        except Exception:
            log.warning("redis publish failed for %s; other processes catch up on their next refresh", game_id)

    async def _listen(self, ready: asyncio.Event) -> None:
        backoff = 0.1
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                ready.set()
                backoff = 0.1
                self._after_subscribe()
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    channel = message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"]
                    try:
                        data = json.loads(message["data"])
                    except (TypeError, ValueError):
                        continue
                    if data.get("origin") == self.origin:
                        continue
                    if "chat" in data or data.get("reload"):
                        self._on_remote_extra(channel[len(CHANNEL_PREFIX):], data)
                        continue
                    self._on_remote(channel[len(CHANNEL_PREFIX):], bool(data.get("seats")))
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception:
                log.warning("redis pub/sub lost; reconnecting in %.1f s", backoff)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    def _after_subscribe(self) -> None:
        """Whatever was published while unsubscribed is lost: every cached game may be behind the log.
        Games with clients here or computers moving here are refreshed (and their clients updated);
        the others are dropped from the cache, to be rebuilt from the database when next asked for."""
        for game_id in list(self.service.cache):
            if game_id in self.clients or game_id in self.driving:
                self._on_remote(game_id, True)
            else:
                self.service.forget(game_id)

    def catch_up(self, game_id: str) -> Live:
        """The game checked against the database (for a connecting or syncing client); if it had
        fallen behind, the other local clients are updated and the computers move."""
        cached = self.service.cache.get(game_id)
        before = (cached.version, [s.public() for s in cached.seats]) if cached is not None else None
        live = self.service.current(game_id)
        if before is not None and before != (live.version, [s.public() for s in live.seats]):
            self.broadcast_local(game_id, force=True)
        self.drive(game_id)  # a computer to act whose moves were left to a process that stopped
        return live

    def _on_remote(self, game_id: str, seats: bool) -> None:
        if game_id not in self.service.cache:
            return
        try:
            if seats:
                self.service.reload_seats(game_id)
            self.service.refresh(game_id)
        except WebError:
            log.exception("cannot refresh game %s", game_id)
            self.service.forget(game_id)
            return
        self.broadcast_local(game_id, force=seats)
        live = self.service.cache.get(game_id)
        if live is not None:
            self.watch_idle(live)

    # ------------------------------------------------------------ chat and undo
    def say(self, client: Client, text: str | None, emote: str | None) -> None:
        """A seated player's chat line or emote, to every client of the table (spectators read it)."""
        if client.seat is None:
            raise WebError("not-seated", "spectators read the chat but do not write in it", status=403)
        if not self.chat.allow(client):
            raise WebError("chat-flood", "too many chat messages: wait a few seconds")
        live = self.service.get(client.game_id)
        message = chat_payload(client.seat, live.seats[client.seat].name, text, emote)
        self._chat_local(client.game_id, message)
        if self._redis is not None:
            self._spawn(self._publish_extra(client.game_id, {"chat": message}))

    def _chat_local(self, game_id: str, message: dict[str, Any]) -> None:
        self.chat.remember(game_id, message)
        for other in list(self.clients.get(game_id, ())):
            other.send(message)

    def undone(self, game_id: str) -> None:
        """After an undo: the log is shorter; every client resyncs, other processes rebuild the game."""
        self.broadcast_local(game_id, force=True)
        if self._redis is not None:
            self._spawn(self._publish_extra(game_id, {"reload": True}))

    async def _publish_extra(self, game_id: str, content: dict[str, Any]) -> None:
        message = json.dumps({"origin": self.origin, **content})
        try:
            await self._redis.publish(CHANNEL_PREFIX + game_id, message)
        except Exception:
            log.warning("redis publish failed for %s (chat or undo); other processes miss it", game_id)

    def _on_remote_extra(self, game_id: str, data: dict[str, Any]) -> None:
        """A chat line from another process, or an undo there (the cached game is rebuilt from the log)."""
        chat = data.get("chat")
        if isinstance(chat, dict):
            if self.clients.get(game_id):
                self._chat_local(game_id, chat)
            return
        if game_id in self.service.cache:
            self.service.forget(game_id)
            if self.clients.get(game_id):
                try:
                    self.service.get(game_id)
                except WebError:
                    log.exception("cannot rebuild game %s after an undo", game_id)
                    return
                self.broadcast_local(game_id, force=True)

    # ------------------------------------------------------------ computers
    def drive(self, game_id: str) -> None:
        """Start the computer seats of a game moving, if one is to act (once per game at a time)."""
        if game_id in self.driving:
            return
        live = self.service.cache.get(game_id)
        if live is None or not self.clients.get(game_id):
            return  # no computer moves on a table nobody is watching: they resume when someone connects
        if self.service.bot_to_move(live) is None:
            self.watch_idle(live)
            return
        self.driving.add(game_id)
        self._spawn(self._drive(game_id))

    async def _drive(self, game_id: str) -> None:
        try:
            while True:
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)
                live = self.service.cache.get(game_id)
                if live is None or not self.clients.get(game_id):
                    return
                try:
                    moved = await self.service.bot_move_async(live)
                except WebError as exc:
                    if exc.code == "stale":
                        continue  # another process moved; look again
                    self.fail(live, f"the computer player could not move ({exc.message})")
                    return
                except Exception as exc:
                    log.exception("computer player in %s failed", game_id)
                    self.fail(live, f"the computer player could not move ({type(exc).__name__}: {exc})")
                    return
                if not moved:
                    return
                self.broadcast_local(game_id)
                if self._redis is not None:
                    await self._publish(game_id, False)
        finally:
            self.driving.discard(game_id)
            live = self.service.cache.get(game_id)
            if live is not None:
                self.watch_idle(live)

    def fail(self, live: Live, message: str) -> None:
        """A background task of this table cannot go on: mark the table failed (in the database too) and
        tell its players, rather than leave them waiting for a move that never comes."""
        from canasta.web.lifecycle import mark_failed

        live.failed = message
        live.views.clear()
        self._spawn(asyncio.to_thread(mark_failed, self.service.engine, live.id, message))
        for client in list(self.clients.get(live.id, ())):
            client.send({"type": "error", "code": "game-failed", "message": f"this table stopped: {message}"})
            client.update(force=True)

    # ------------------------------------------------------------ idle seats
    def watch_idle(self, live: Live) -> None:
        """With ``auto_takeover``: a timer that hands the human seat to act to the computer at the idle limit."""
        limit = self.service.idle_limit
        if not self.auto_takeover or limit is None:
            return
        old = self.idle_timers.pop(live.id, None)
        if old is not None:
            old.cancel()
        game = live.game
        if hand_end(live) is not None and sum(s.kind == "human" for s in live.seats) >= 2:
            # a hand's end at a table of several players: those who do not click on are counted ready at the limit
            delay = max(0.0, limit - self.service.idle_seconds(live))
            self.idle_timers[live.id] = asyncio.get_running_loop().call_later(delay, self._idle_check, live.id)
            return
        if game.is_over or live.seats[game.actor].kind != "human" or sum(s.kind == "human" for s in live.seats) < 2:
            return  # (a player alone against computers keeps the seat: see GameService.idle_seat)
        delay = max(0.0, limit - self.service.idle_seconds(live))
        self.idle_timers[live.id] = asyncio.get_running_loop().call_later(delay, self._idle_check, live.id)

    def _idle_check(self, game_id: str) -> None:
        self.idle_timers.pop(game_id, None)
        live = self.service.cache.get(game_id)
        if live is None:
            return
        try:
            if hand_end(live) is not None:
                if self.service.auto_ready(live):
                    self.changed(game_id, force=True)
                else:
                    self.watch_idle(live)
                return
            seat = self.service.auto_take_over(live)
        except Exception:
            log.exception("cannot hand the idle seat of %s to the computer", game_id)
            return
        if seat is None:
            self.watch_idle(live)  # it moved meanwhile (or not idle long enough yet): watch the new actor
            return
        log.info("game %s: seat %d idle past %.0f s, handed to the computer", game_id, seat, self.service.idle_limit)
        self.changed(game_id, force=True)


def now() -> float:
    return time.monotonic()


def _hide_keeps(live: Live, seat: int | None, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Hand and Foot's hand-passing deal: while seats are still choosing, the choices made so far (the last
    events) show only as 'keep' to the other seats (the observation reveals them once all have chosen)."""
    game = live.game
    if not isinstance(game, FootGame) or game.phase != "pass":
        return events
    first = live.version - sum(1 for k in game.kept if k)  # the keeps of this deal are the last events
    return [{**e, "action": "keep"} if e["seq"] > first and e["seat"] != seat else e for e in events]
