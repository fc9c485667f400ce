"""Issue 13, defect 9, at start: a SQLite file that is read-only, or a disk that is full, while the
store opens (migrating a new file, or checking an existing one) is refused in one sentence that
says what to do, and the store's thread is closed so the process can exit. (The tests run as
root, for whom a chmod'ed file stays writable: SQLite's own errors are raised at the first write.)"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

import db.sqlite_connection
from db.sqlite import SqliteStore
from db.store import StoreConfigError
from tests.db.test_config import one_sentence


@pytest.mark.parametrize("error", ["attempt to write a readonly database", "database or disk is full"])
@pytest.mark.parametrize("existing", [False, True])
async def test_a_read_only_or_full_database_at_start_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str, existing: bool
) -> None:
    path = str(tmp_path / "cards.sqlite3")
    if existing:
        first = SqliteStore(path)
        await first.open()
        await first.close()
    real = db.sqlite_connection.run

    async def failing(conn: Any, sql: str, params: tuple[Any, ...] = ()) -> None:
        if sql.startswith("BEGIN"):
            raise sqlite3.OperationalError(error)
        await real(conn, sql, params)

    monkeypatch.setattr(db.sqlite_connection, "run", failing)
    store = SqliteStore(path)
    with pytest.raises(StoreConfigError) as raised:
        await store.open()
    message = one_sentence(str(raised.value))
    assert error in message and "DATABASE_PATH" in message and "writable" in message
    # (the event loop's own executor threads exit with it; aiosqlite's would keep the process alive)
    left = [t for t in threading.enumerate() if not t.daemon and not t.name.startswith(("asyncio", "MainThread"))]
    for thread in left:
        thread.join(timeout=2)  # (a closed connection's thread ends a moment after the close)
    assert store._db is None and not any(t.is_alive() for t in left), left
