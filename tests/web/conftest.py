"""Fixtures for the web tests: databases (SQLite file, fresh PostgreSQL schema) and a real server.

Servers run uvicorn in a thread on 127.0.0.1 with an ephemeral port; clients use
httpx and the ``websockets`` sync client, whose every receive has a timeout, so
a missing message fails the test instead of hanging it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from web_helpers import Server

from canasta.web import create_app

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


def _pg_available() -> str | None:
    try:
        import psycopg

        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3):
            return None
    except Exception as exc:
        return f"PostgreSQL at 127.0.0.1:5432 is unreachable: {exc}"


# The table shows the other seats' moves at a person's pace (700 ms each by default, issue 49), and cards
# travel. Tests that play whole hands against computers compare the page with the server as soon as the
# server is done: their pages see moves as they arrive (the "fast" pace, as a player may choose), and
# without travelling cards unless a test asks for motion (their screenshots show the table at rest).
# test_web_table_play.py tests the pace and the motion and sets both per page.
FAST_PACE = "if (!localStorage.getItem('canasta.speed')) localStorage.setItem('canasta.speed', 'fast');"


@pytest.fixture(autouse=True, scope="session")
def _moves_shown_as_they_arrive() -> Iterator[None]:
    try:
        from playwright.sync_api import Browser
    except ImportError:
        yield
        return
    original = Browser.new_context

    def new_context(self: Any, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("reduced_motion", "reduce")
        context = original(self, *args, **kwargs)
        context.add_init_script(FAST_PACE)
        return context

    Browser.new_context = new_context  # type: ignore[method-assign]
    yield
    Browser.new_context = original  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh schema in the test database for this test run, dropped afterwards."""
    reason = _pg_available()
    if reason:
        pytest.skip(reason)
    import psycopg

    schema = f"web_test_{secrets.token_hex(6)}"
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_ADMIN}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'canasta.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def make_server() -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def make(db: str, **kwargs: Any) -> Server:
        server = Server(create_app(db, **kwargs))
        servers.append(server)
        return server

    yield make
    for s in servers:
        s.stop()
