"""The shapes of everything a client sends, checked before any work is done.

Every REST body and every WebSocket message is validated by a Pydantic model here:
sizes, ranges and types are refused at the door (``players`` is a small number before any
seat list is built; a name is short printable text; a seed cannot break a record's tag
line), and JSON nested deeper than :data:`MAX_DEPTH` is refused before it is parsed (the
parser is recursive: a few thousand brackets raised ``RecursionError``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    model_validator,
)

#: deepest JSON nesting accepted from a client (the score input needs 4)
MAX_DEPTH = 16
#: longest record the replay viewer takes (a 5,000-point game is ~12,000 characters; this is ~10,000 actions)
MAX_RECORD = 200_000
#: most seats at a table in any variant
MAX_PLAYERS = 8
#: longest player name, in characters
MAX_NAME = 40
#: longest chosen seed
MAX_SEED = 64
MAX_TOKEN = 200
#: versions and seat numbers are at most this (a bound that keeps integers small)
MAX_VERSION = 2**31 - 1

#: a game id: URL-safe base64 (``service.new_id`` makes 12 characters); anything else (a NUL byte, which
#: PostgreSQL refuses in a query and answered with a 500) names no game and is refused at the door
GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
GAME_ID_RULE = "a game id is 1 to 32 letters, digits, '-' or '_'"
_GAME_ID = re.compile(GAME_ID_PATTERN)


def is_game_id(text: object) -> bool:
    return isinstance(text, str) and _GAME_ID.fullmatch(text) is not None


#: longest table chat message, in characters
MAX_CHAT = 200
#: the quick emotes of the table chat: name -> the text everyone sees
EMOTES = {"hello": "Hello!", "good-game": "Good game!", "nice": "Nice play!", "thanks": "Thanks!",
          "oops": "Oops!", "thinking": "Let me think…"}

#: most strings (pairs of unescaped quotes) and structural brackets a client's JSON may hold: they bound the
#: nesting scan's work (a legitimate body has a few hundred; a record is one string whatever its length)
MAX_STRINGS = 10_000
MAX_BRACKETS = 10_000
#: every byte but the four brackets (deleted by ``bytes.translate``), and the brackets mapped to ( and )
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")


class JsonShapeError(ValueError):
    """JSON too deep or too complex to be parsed (its refusal ``code``: too-deep or too-complex)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _structure(data: bytes) -> bytes:
    """The structural brackets of JSON text as ( and ), strings skipped; every step a C-speed pass over the
    bytes (the Python scan it replaces took 1.29 s per MB on the event loop).

    Escapes are taken out first (``\\\\`` pairs, then ``\\"``), so the quotes left delimit strings: splitting
    on them, the even parts are outside strings. Where the text is not JSON, the parser stops at the first
    fault, and up to there this reading is the parser's own."""
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    quotes = unescaped.count(b'"')
    if quotes > 2 * MAX_STRINGS:
        raise JsonShapeError("too-complex", f"JSON with more than {MAX_STRINGS} strings")
    outside = b"".join(unescaped.split(b'"')[::2]) if quotes else unescaped
    brackets = outside.translate(_AS_PARENS, _NOT_BRACKETS)
    if len(brackets) > 2 * MAX_BRACKETS:
        raise JsonShapeError("too-complex", f"JSON with more than {MAX_BRACKETS} arrays and objects")
    return brackets


def json_depth(text: str | bytes, limit: int = MAX_DEPTH) -> int:
    """How deep the JSON text nests, counting no further than ``limit + 1``.

    Work is bounded per byte: a few C-speed passes over the text (:func:`_structure`, which refuses more than
    :data:`MAX_STRINGS` strings or :data:`MAX_BRACKETS` brackets with :class:`JsonShapeError`), then at most
    ``limit + 1`` passes over the brackets, each taking out the innermost pairs (one level of nesting)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    brackets = _structure(data)
    levels = 0
    while brackets and levels <= limit:
        inner_removed = brackets.replace(b"()", b"")
        if len(inner_removed) == len(brackets):
            break
        brackets, levels = inner_removed, levels + 1
    # what is left is unmatched: every opening bracket of it may be one more level on the parser's stack
    return min(levels + brackets.count(b"("), limit + 1)


def check_json_shape(text: str | bytes, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`JsonShapeError` for JSON that nests deeper than ``limit`` or holds too many parts."""
    if json_depth(text, limit) > limit:
        raise JsonShapeError("too-deep", f"JSON nested deeper than {limit} levels")


def _clean_name(value: str) -> str:
    """A display name: NFC, trimmed, printable (no control characters, NUL or lone surrogates)."""
    value = value.strip()
    if not value.isprintable():
        raise ValueError("a name is printable text (no control characters)")
    value = unicodedata.normalize("NFC", value)
    if len(value) > MAX_NAME:
        raise ValueError(f"a name is at most {MAX_NAME} characters")
    return value


_SEED = re.compile(r"[!#-\[\]-~][ !#-\[\]-~]*")


def _clean_seed(value: str) -> str:
    """A chosen seed: printable ASCII without quotes or backslashes (it is written in a record's tag line)."""
    value = value.strip()
    if not _SEED.fullmatch(value):
        raise ValueError('a seed is printable ASCII text without quotes or backslashes, such as "42" or "friday-game"')
    return value


Name = Annotated[str, Field(max_length=4 * MAX_NAME), AfterValidator(_clean_name)]
Seed = Annotated[str, Field(min_length=1, max_length=MAX_SEED), AfterValidator(_clean_seed)]
Token = Annotated[str, Field(max_length=MAX_TOKEN)]
SeatNumber = Annotated[StrictInt, Field(ge=0, lt=MAX_PLAYERS)]
Version = Annotated[StrictInt, Field(ge=0, le=MAX_VERSION)]
RuleValue = Annotated[StrictBool | StrictInt | Annotated[str, Field(max_length=40)], Field(union_mode="left_to_right")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    kind: Literal["me", "invite", "computer"] = Field(description="me, invite or computer")
    level: Annotated[str, Field(max_length=16)] | None = None
    name: Name = ""


class CreateGame(Strict):
    variant: Annotated[str, Field(max_length=40, pattern=r"^[a-z][a-z_-]*$")] = "classic"
    players: Annotated[StrictInt, Field(ge=2, le=MAX_PLAYERS)] = 4
    seed: Seed | None = None
    rules: Annotated[dict[Annotated[str, Field(max_length=40)], RuleValue], Field(max_length=64)] = \
        Field(default_factory=dict)
    seats: Annotated[list[SeatSpec], Field(max_length=MAX_PLAYERS)] | None = None


class JoinSeat(Strict):
    seat: SeatNumber
    invite: Token
    name: Name = ""


class ReplayRequest(Strict):
    record: Annotated[str, Field(max_length=MAX_RECORD)]


class ScoreRequest(BaseModel):
    """The score input of :func:`canasta.scorekeeper.score_input` (docs/scorekeeper.md); the scorekeeper
    checks the meaning of each entry, this model bounds its size and shape."""

    model_config = ConfigDict(extra="forbid")
    variant: Annotated[str, Field(max_length=40)] | None = None
    rules: Annotated[dict[Annotated[str, Field(max_length=40)], RuleValue], Field(max_length=64)] | None = None
    players: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)] | None = None
    teams: Annotated[list[dict[Annotated[str, Field(max_length=40)], Any]], Field(max_length=MAX_PLAYERS)]
    game: dict[Annotated[str, Field(max_length=40)], Any] | None = None


# ------------------------------------------------------------------ WebSocket messages
MessageId = StrictInt | Annotated[str, Field(max_length=64)] | None


class Hello(Strict):
    type: Literal["hello"]
    token: Token | None = None
    since: Version | None = None


class ActionMessage(Strict):
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=120)]
    #: required: the version the action was chosen at (an action without it could be applied to a later position)
    version: Version
    id: MessageId = None


class HintMessage(Strict):
    type: Literal["hint"]
    id: MessageId = None


class SyncMessage(Strict):
    type: Literal["sync"]
    since: Version | None = None
    id: MessageId = None


class TakeoverMessage(Strict):
    type: Literal["takeover"]
    seat: SeatNumber
    id: MessageId = None


class ReclaimMessage(Strict):
    type: Literal["reclaim"]
    id: MessageId = None


class PingMessage(Strict):
    type: Literal["ping"]
    id: MessageId = None


def _clean_chat(value: str) -> str:
    """A chat line: NFC, trimmed, printable, not empty (shown as text by the page, never as HTML)."""
    value = unicodedata.normalize("NFC", value.strip())
    if not value:
        raise ValueError("a chat message is not empty")
    if not value.isprintable():
        raise ValueError("a chat message is printable text (no control characters or line breaks)")
    return value


class ChatMessage(Strict):
    """A table chat line or a quick emote (exactly one of the two)."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=MAX_CHAT), AfterValidator(_clean_chat)] | None = None
    emote: Literal[tuple(EMOTES)] | None = None  # type: ignore[valid-type]
    id: MessageId = None

    @model_validator(mode="after")
    def _one_of(self) -> ChatMessage:
        if (self.text is None) == (self.emote is None):
            raise ValueError("a chat message has either a text or an emote")
        return self


class UndoMessage(Strict):
    """Take back the last meld or addition of this turn (games against computers only)."""

    type: Literal["undo"]
    version: Version
    id: MessageId = None


class NextHandMessage(Strict):
    """A player has seen the end of a hand and clicks on to the next one."""

    type: Literal["next"]
    id: MessageId = None


ClientMessage = Annotated[
    Hello | ActionMessage | HintMessage | SyncMessage | TakeoverMessage | ReclaimMessage | PingMessage
    | ChatMessage | UndoMessage | NextHandMessage,
    Field(discriminator="type"),
]
MESSAGE_TYPES = ("hello", "action", "hint", "sync", "takeover", "reclaim", "ping", "chat", "undo", "next")
client_message: TypeAdapter[Any] = TypeAdapter(ClientMessage)

#: which refusal code a bad field of a WebSocket message gets (the others: bad-request)
FIELD_CODES = {"action": "bad-action", "seat": "bad-seat", "text": "bad-chat", "emote": "bad-chat",
               "chat": "bad-chat"}


def first_error(errors: list[Any]) -> tuple[str, str]:
    """(field path, message) of a validation error's first entry, safe to put in JSON."""
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = str(first.get("msg", "invalid"))
    # a path may hold a client's own key (a lone surrogate would make the reply unencodable)
    where = where.encode("utf-8", "backslashreplace").decode("utf-8")[:80]
    return where, message
