"""Several server processes started together on one empty PostgreSQL database each create the tables: all of
them start (docs/web.md, "Several processes"). Before, the loser of the race stopped on
``duplicate key value violates unique constraint "pg_type_typname_nsp_index"``."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator

import pytest

from canasta.web.db import make_engine

PG = "host=127.0.0.1 port=5432 user=postgres dbname=test"


@pytest.fixture
def empty_schemas(pg_url: str) -> Iterator[list[str]]:
    """Five fresh, empty schemas (the tables are created in each by the test)."""
    import psycopg

    names = [f"web_race_{secrets.token_hex(5)}" for _ in range(5)]
    with psycopg.connect(PG, autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE SCHEMA "{name}"')
    try:
        yield names
    finally:
        with psycopg.connect(PG, autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP SCHEMA "{name}" CASCADE')


def test_processes_started_together_on_an_empty_database_all_start(empty_schemas: list[str]) -> None:
    for schema in empty_schemas:
        url = f"postgresql://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"
        start = threading.Barrier(4)
        errors: list[BaseException] = []

        def open_database(url: str = url, start: threading.Barrier = start,
                          errors: list[BaseException] = errors) -> None:
            start.wait()
            try:
                make_engine(url).dispose()
            except BaseException as exc:  # collected: the test names what a starting process would die of
                errors.append(exc)

        threads = [threading.Thread(target=open_database) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == [], f"{schema}: {errors[0]!r}"
