"""Limits on what one client may ask of the server: body sizes, JSON depth, game creation, sockets.

:class:`BodyLimit` is plain ASGI middleware: it reads a request body up to a size (per path
prefix) and refuses a larger one with 413 and a JSON nested deeper than the limit with 400,
before the application parses anything. :class:`Limits` holds the per-client budgets
(a client is its remote address): games created (a token bucket) and open sockets (per
client and per table).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from canasta.web.schemas import MAX_DEPTH, JsonShapeError, check_json_shape

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: largest request body in bytes, by path prefix (the first that matches); others get DEFAULT_BODY
BODY_LIMITS = (("/api/replay", 1_000_000),)
DEFAULT_BODY = 64_000


def _error(code: str, message: str) -> bytes:
    return json.dumps({"type": "error", "code": code, "message": message}).encode()


class BodyLimit:
    """Refuse oversized or too deeply nested request bodies before the application sees them."""

    def __init__(self, app: ASGIApp, limits: tuple[tuple[str, int], ...] = BODY_LIMITS,
                 default: int = DEFAULT_BODY, max_depth: int = MAX_DEPTH) -> None:
        self.app = app
        self.limits = limits
        self.default = default
        self.max_depth = max_depth

    def limit_for(self, path: str) -> int:
        for prefix, limit in self.limits:
            if path.startswith(prefix):
                return limit
        return self.default

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, 413, "too-large", f"the request body is larger than {limit} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(send, 413, "too-large", f"the request body is larger than {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:  # bounded work per byte (C-speed passes), on the loop: see schemas.json_depth
            check_json_shape(body, self.max_depth)
        except JsonShapeError as exc:
            await self._refuse(send, 400, exc.code, exc.message)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, message: str) -> None:
        payload = _error(code, message)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": payload})


@dataclass
class Bucket:
    tokens: float
    last: float


def _take(buckets: dict[str, Bucket], client: str, per_second: float, burst: float, now: float | None,
          cost: float = 1.0) -> bool:
    """Take ``cost`` tokens from ``client``'s bucket (refilled at ``per_second``, holding at most ``burst``)."""
    now = time.monotonic() if now is None else now
    bucket = buckets.get(client)
    if bucket is None:
        if len(buckets) > 10_000:  # forget the clients whose bucket is full again
            for key in [k for k, b in buckets.items() if b.tokens + (now - b.last) * per_second >= burst]:
                del buckets[key]
        bucket = buckets[client] = Bucket(burst, now)
    bucket.tokens = min(burst, bucket.tokens + (now - bucket.last) * per_second)
    bucket.last = now
    if bucket.tokens < cost:
        return False
    bucket.tokens -= cost
    return True


@dataclass
class Limits:
    """Per-client budgets (None: no bound). ``games`` is (games per minute refilled, burst); ``messages``
    (WebSocket messages per second, burst) over all the client's sockets, on top of each socket's own
    rate, and ``message_bytes`` the same in bytes (a message's work grows with its size: 4 KB messages at
    the message rate alone came to 800 KB/s). Open WebSockets: ``sockets_per_client`` per address, all
    kinds; ``sockets_per_game`` the seated players' per table; spectators have caps of their own, per table
    and per address, so that watchers (anyone with the table's id) never keep a seated player out."""

    games: tuple[float, float] | None = (20.0, 20.0)
    messages: tuple[float, float] | None = (200.0, 400.0)
    #: a player's messages are ~100 bytes: 16 KB/s is 160 of them a second, a burst of 64 KB sixteen full-size ones
    message_bytes: tuple[float, float] | None = (16_384.0, 65_536.0)
    sockets_per_client: int | None = 32
    sockets_per_game: int | None = 24
    spectators_per_game: int | None = 16
    spectators_per_client: int | None = 8
    game_buckets: dict[str, Bucket] = field(default_factory=dict)
    message_buckets: dict[str, Bucket] = field(default_factory=dict)
    byte_buckets: dict[str, Bucket] = field(default_factory=dict)
    sockets: dict[str, int] = field(default_factory=dict)
    spectators: dict[str, int] = field(default_factory=dict)

    def allow_game(self, client: str, now: float | None = None) -> bool:
        """Take one game from the client's budget; False when it is spent."""
        if self.games is None:
            return True
        per_minute, burst = self.games
        return _take(self.game_buckets, client, per_minute / 60.0, burst, now)

    def allow_message(self, client: str, size: int = 0, now: float | None = None) -> bool:
        """Take one WebSocket message of ``size`` bytes from the client's budgets (all its sockets), in
        messages and in bytes; False when either is spent."""
        if self.message_bytes is not None:
            per_second, burst = self.message_bytes
            if not _take(self.byte_buckets, client, per_second, burst, now, cost=min(float(size), burst)):
                return False
        if self.messages is None:
            return True
        per_second, burst = self.messages
        return _take(self.message_buckets, client, per_second, burst, now)

    def open_socket(self, client: str) -> str | None:
        """Count a new socket of ``client`` (any kind, before its hello); the refusal's reason, or None."""
        held = self.sockets.get(client, 0)
        if self.sockets_per_client is not None and held >= self.sockets_per_client:
            return f"at most {self.sockets_per_client} open connections per client"
        self.sockets[client] = held + 1
        return None

    def close_socket(self, client: str) -> None:
        _release(self.sockets, client)

    def join_table(self, client: str, seated: bool, seated_here: int, spectators_here: int) -> str | None:
        """Admit a socket to a table once its seat is known (``seated_here``/``spectators_here``: the table's
        sockets of each kind already); the refusal's reason, or None. A spectator admitted is counted
        against its address until :meth:`leave_table`."""
        if seated:
            if self.sockets_per_game is not None and seated_here >= self.sockets_per_game:
                return f"this table has {self.sockets_per_game} player connections already"
            return None
        if self.spectators_per_game is not None and spectators_here >= self.spectators_per_game:
            return f"this table has {self.spectators_per_game} spectators already (its players can still connect)"
        watching = self.spectators.get(client, 0)
        if self.spectators_per_client is not None and watching >= self.spectators_per_client:
            return f"at most {self.spectators_per_client} spectator connections per client"
        self.spectators[client] = watching + 1
        return None

    def leave_table(self, client: str, seated: bool) -> None:
        if not seated:
            _release(self.spectators, client)


def _release(counts: dict[str, int], client: str) -> None:
    held = counts.get(client, 0) - 1
    if held > 0:
        counts[client] = held
    else:
        counts.pop(client, None)
