"""The store fixtures: every store test runs on SQLite and on PostgreSQL.

PostgreSQL is the server at ``TEST_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``). Each test gets a schema of its own, created for
it and dropped after it, so tests never see each other's rows. Where no server answers, the
PostgreSQL cases skip with the reason; with ``CI`` set they fail instead, so CI cannot pass
without having run them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg  # type: ignore[import-untyped,unused-ignore]
import pytest

from db.postgres import PostgresStore
from db.postgres_url import describe_url
from db.sqlite import SqliteStore
from db.store import Store

DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_TEST_DATABASE_URL

_unreachable: list[str] = []  # the reason, once a first attempt failed: later tests don't wait again


async def postgres_admin() -> asyncpg.Connection:
    """A plain connection to the test server, or the PostgreSQL test skips (fails under CI) with the reason."""
    if not _unreachable:
        try:
            return await asyncpg.connect(TEST_DATABASE_URL, timeout=5)
        except Exception as error:  # every way of not answering is the same skip
            _unreachable.append(f"{type(error).__name__}: {error}")
    reason = (
        f"PostgreSQL not reachable at {describe_url(TEST_DATABASE_URL).shown} ({_unreachable[0]});"
        " start it or set TEST_DATABASE_URL"
    )
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must run the PostgreSQL store tests)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
async def pg_schema() -> AsyncIterator[str]:
    """A fresh schema name on the test server; the schema is dropped after the test."""
    admin = await postgres_admin()
    name = f"cardtable_test_{uuid.uuid4().hex[:12]}"
    try:
        yield name
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        await admin.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Callable[[], Store]]:
    """Makes unopened stores on one fresh test database of the backend; call it again to reopen the same data."""
    made: list[Store] = []
    admin: asyncpg.Connection | None = None
    schema = f"cardtable_test_{uuid.uuid4().hex[:12]}"
    if request.param == "postgres":
        admin = await postgres_admin()

    def make() -> Store:
        store: Store
        if request.param == "sqlite":
            store = SqliteStore(str(tmp_path / "t.sqlite3"))
        else:
            store = PostgresStore(TEST_DATABASE_URL, schema=schema)
        made.append(store)
        return store

    try:
        yield make
    finally:
        for store in made:
            await store.close()
        if admin is not None:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            await admin.close()


@pytest.fixture
async def store(new_store: Callable[[], Store]) -> Store:
    """An open store on a fresh database, on each backend in turn."""
    opened = new_store()
    await opened.open()
    return opened
