"""Table chat: short messages and quick emotes, from seated players to everyone at the table.

Limits (see "Threat model and limits" in docs/web.md): a message is at most
:data:`canasta.web.schemas.MAX_CHAT` characters of printable text (checked by the
``ChatMessage`` model); each connection may send :data:`CHAT_BURST` messages at once and
then one every ``1 / CHAT_RATE`` seconds, on top of the connection's general message
limit; spectators read but do not write. Messages are not stored: each process keeps
the last :data:`HISTORY` of a table while it has clients there, for those who connect.
The text goes out as it was typed, inside JSON; the page shows it as text, never as HTML.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from typing import Any

from canasta.web.schemas import EMOTES

#: chat messages a connection may send per second once its burst is used up
CHAT_RATE = 0.5
#: chat messages a connection may send at once
CHAT_BURST = 3.0
#: messages of a table kept for clients that connect
HISTORY = 50


class TableChat:
    """The per-connection allowance and the recent messages of each table (in this process)."""

    def __init__(self, rate: float = CHAT_RATE, burst: float = CHAT_BURST) -> None:
        self.rate = rate
        self.burst = burst
        #: per connection: (tokens left, when last refilled)
        self.allowance: weakref.WeakKeyDictionary[Any, tuple[float, float]] = weakref.WeakKeyDictionary()
        self.recent: dict[str, deque[dict[str, Any]]] = {}

    def allow(self, connection: Any) -> bool:
        """Take one message from the connection's allowance; False when it has none left."""
        now = time.monotonic()
        tokens, last = self.allowance.get(connection, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.allowance[connection] = (tokens, now)
            return False
        self.allowance[connection] = (tokens - 1, now)
        return True

    def remember(self, game_id: str, message: dict[str, Any]) -> None:
        self.recent.setdefault(game_id, deque(maxlen=HISTORY)).append(message)

    def history(self, game_id: str) -> list[dict[str, Any]]:
        return list(self.recent.get(game_id, ()))

    def forget(self, game_id: str) -> None:
        self.recent.pop(game_id, None)


def chat_payload(seat: int, name: str, text: str | None, emote: str | None) -> dict[str, Any]:
    """The message every client of the table gets: who (seat and display name) and what."""
    return {"type": "chat", "seat": seat, "name": name or f"Player {seat + 1}",
            "text": EMOTES[emote] if emote is not None else text, "emote": emote}
