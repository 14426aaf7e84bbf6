"""Test helpers for the web tests: a real server in a thread, and a WebSocket client with bounded waits."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

RECV_TIMEOUT = 10.0


class Server:
    """uvicorn serving one app in a background thread."""

    def __init__(self, app: Any) -> None:
        self.config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=65536,
                                     lifespan="on")
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                break
            self.thread.join(0.02)
        if not self.server.started:
            raise RuntimeError("server did not start")
        sock = self.server.servers[0].sockets[0]
        self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.app = app

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10)

    def ws(self, game_id: str, token: str | None = None, since: int | None = 0) -> WS:
        return WS(self, game_id, token, since)


class WS:
    """A table connection with bounded waits."""

    def __init__(self, server: Server, game_id: str, token: str | None, since: int | None) -> None:
        self._stack = contextlib.ExitStack()
        self.conn: ClientConnection = self._stack.enter_context(
            connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10, max_size=2**22))
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.send({"type": "hello", "token": token, "since": since})

    def send(self, message: Any) -> None:
        self.conn.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.conn.recv(timeout=timeout))
        self.received.append(message)
        if message.get("type") == "update":
            self.state = message["state"]
            self.version = message["version"]
        return message

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
        for _ in range(limit):
            message = self.recv()
            if pred(message):
                return message
        raise AssertionError("expected message never came")

    def my_turn(self) -> dict[str, Any]:
        """Wait until this seat has legal actions, the table pauses at a hand's end, or the game is over."""
        if self.state is not None and (self.state["legal"] or self.state["obs"]["winner"] is not None
                                       or self.state.get("pause")):
            return self.state
        self.until(lambda m: m.get("type") == "update" and (bool(m["state"]["legal"]) or bool(m["state"].get("pause"))
                                                              or m["state"]["obs"]["winner"] is not None))
        assert self.state is not None
        return self.state

    def close(self) -> None:
        self._stack.close()
