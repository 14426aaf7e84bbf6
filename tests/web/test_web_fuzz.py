"""Every REST endpoint fuzzed by schemathesis against the app's own OpenAPI schema: no 500, ever.

The examples are bounded (and derandomized, so a run is repeatable); schemathesis sends both data
that fits the schema and data that breaks it. Issue 20 item 8: a name with a lone surrogate, a seed
"a\\nb", deep JSON, a NUL on PostgreSQL all gave 500s before the schemas in canasta/web/schemas.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from canasta.web import create_app  # noqa: E402
from canasta.web.limits import Limits  # noqa: E402

#: examples per operation and generation mode: enough to reach every field's edge, bounded in time
EXAMPLES = 60


@pytest.fixture(params=["sqlite", "postgresql"])
def fuzz_schema(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    url = f"sqlite:///{tmp_path / 'fuzz.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    app = create_app(url, limits=Limits(games=None, sockets_per_client=None, sockets_per_game=None))
    yield schemathesis.openapi.from_asgi("/openapi.json", app)
    app.state.service.close()


schema = schemathesis.pytest.from_fixture("fuzz_schema")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
def test_no_endpoint_answers_a_server_error(case: Any) -> None:
    case.call_and_validate(checks=[not_a_server_error])


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["action", "hint", "sync", "takeover", "reclaim", "ping", "hello", "teleport", "chat",
                              "undo"])},
    optional={"action": st.sampled_from(["draw", "discard 4d", ""]) | JSON, "version": st.integers(-2, 3) | JSON,
              "text": st.text(max_size=30) | JSON, "emote": st.sampled_from(["nice", "<b>"]) | JSON,
              "since": st.integers(-2, 3) | JSON, "seat": st.integers(-1, 4) | JSON, "id": JSON, "token": JSON,
              "extra": JSON})
REPLIES = {"ack", "error", "update", "hint", "pong", "chat-history", "chat", "undone"}


def test_no_websocket_message_closes_the_socket(tmp_path: Path, make_server: Any) -> None:
    """Random messages, well-formed or not, on a seated socket: each gets an answer, the socket stays
    open (deep JSON and a lone surrogate closed it before). Bounded: 80 messages, one table."""
    server = make_server(f"sqlite:///{tmp_path / 'ws.db'}", rate_limit=(1e6, 1e6))
    with server.http() as http:
        game = http.post("/api/games", json={"players": 2, "seats": [{"kind": "me"}, {"kind": "me"}]}).json()
    ws = server.ws(game["id"], game["tokens"]["0"])
    ws.until(lambda m: m.get("type") == "update")

    @settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(MESSAGES)
    def one(message: dict[str, Any]) -> None:
        ws.send(json.dumps(message))
        ws.send({"type": "ping", "id": "probe"})
        reply = ws.until(lambda m: m.get("type") == "pong" or m.get("code") == "flood")
        assert reply["type"] == "pong"
        assert all(m.get("type") in REPLIES | {"welcome"} for m in ws.received)

    one()
    ws.send('{"type": "ping", "id": "\\ud800"}')  # a lone surrogate in an id
    assert ws.until(lambda m: m.get("type") in ("pong", "error"))["type"] in ("pong", "error")
    ws.send({"type": "ping"})
    assert ws.until(lambda m: m.get("type") == "pong")["type"] == "pong"
    ws.close()


#: every route and socket that takes a game id in its path (issue 51: schemathesis never sent a NUL there)
ID_ROUTES = [("GET", "/api/games/{}"), ("GET", "/api/games/{}/record"), ("POST", "/api/games/{}/join"),
             ("POST", "/api/games/{}/rematch"), ("GET", "/table/{}")]
#: (no "", ".", ".." or "/": those lead to other routes, as the server decodes %2F and URLs are normalised)
GAME_IDS = st.one_of(st.text(min_size=1, max_size=40).filter(lambda s: "/" not in s and s not in (".", "..")),
                     st.sampled_from(["\x00", "a\x00b", "%00", "é", "a" * 33, " ", "\ud800", "abc"]))


@pytest.fixture(params=["sqlite", "postgresql"])
def fuzz_client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    url = f"sqlite:///{tmp_path / 'ids.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    app = create_app(url, limits=Limits(games=None, sockets_per_client=None, sockets_per_game=None))
    with TestClient(app) as client:
        yield client


def test_no_game_id_in_a_path_answers_a_server_error(fuzz_client: Any) -> None:
    """Path parameters fuzzed on both databases: a NUL in a game id gave 500 on PostgreSQL (psycopg.DataError)
    and closed a WebSocket without a word. Every id that is not a game's is a 404 with a code, or a socket
    closed after an error message. Bounded: 60 ids, each on every route and the socket."""
    from urllib.parse import quote

    from canasta.web.schemas import is_game_id

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(GAME_IDS)
    def one(game_id: str) -> None:
        path_id = quote(game_id.encode("utf-8", "surrogatepass"), safe="")
        for method, route in ID_ROUTES:
            r = fuzz_client.request(method, route.format(path_id), json={"seat": 0, "invite": "x"})
            assert r.status_code < 500, (method, route, game_id, r.text)
            if not is_game_id(game_id):
                assert r.status_code == 404 and r.json()["code"] == "bad-game-id", (method, route, game_id, r.text)
            elif r.status_code >= 400:  # a well-formed id of no game (the table page is served for any)
                assert r.json()["code"] in ("no-game", "bad-request"), r.text
        with fuzz_client.websocket_connect(f"/ws/{path_id}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["code"] == ("no-game" if is_game_id(game_id) else "bad-game-id")

    one()
