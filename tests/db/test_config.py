"""Bad configuration gets one sentence saying what is wrong and what to do: a ``DATABASE_URL`` of
another kind or that cannot be parsed, a server that is down, a missing database, a refused user,
an SQLite file that cannot be opened. Also which store :func:`db.factory.make_store` picks."""

from __future__ import annotations

import socket
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from db.errors import StoreConfigError
from db.factory import make_store
from db.postgres import PostgresStore
from db.sqlite import SqliteStore
from tests.db.conftest import TEST_DATABASE_URL, postgres_admin

# -- bad configuration: one sentence each ------------------------------------------------------


def one_sentence(message: str) -> str:
    assert "\n" not in message and message[0].isupper() and message.endswith(".")
    assert "hunter2" not in message
    return message


def with_url(user: str | None = None, database: str | None = None, port: int | None = None) -> str:
    parts = urlsplit(TEST_DATABASE_URL)
    host = parts.hostname or "localhost"
    netloc = f"{user or parts.username or 'postgres'}@{host}:{port or parts.port or 5432}"
    return urlunsplit(parts._replace(netloc=netloc, path=f"/{database}" if database else parts.path))


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_no_url_means_sqlite() -> None:
    for unset in (None, "", "   "):
        store = make_store(unset, "cardtable.sqlite3")
        assert isinstance(store, SqliteStore) and store.path == "cardtable.sqlite3"


def test_a_postgres_url_means_postgres() -> None:
    for url in ("postgresql://bot:hunter2@db.example:5433/cards", "postgres://localhost/cards"):
        assert isinstance(make_store(url, "cardtable.sqlite3"), PostgresStore)


@pytest.mark.parametrize(
    "url", ["mysql://bot:hunter2@db/cards", "cardtable.sqlite3", "sqlite:///cardtable.sqlite3", "localhost:5432"]
)
def test_a_url_of_another_kind_is_refused(url: str) -> None:
    with pytest.raises(StoreConfigError) as error:
        make_store(url, "cardtable.sqlite3")
    assert "is not a PostgreSQL URL" in one_sentence(str(error.value))
    assert "leave it unset to use SQLite" in str(error.value)


def test_an_unparsable_url_is_refused() -> None:
    with pytest.raises(StoreConfigError) as error:
        make_store("postgresql://bot:hunter2@localhost:fivefourthreetwo/cards", "x")
    assert "cannot be parsed" in one_sentence(str(error.value))


def test_a_bad_schema_name_is_refused() -> None:
    with pytest.raises(StoreConfigError) as error:
        PostgresStore("postgresql://localhost/cards", schema='x"; DROP TABLE games; --')
    one_sentence(str(error.value))


async def test_a_server_that_is_down() -> None:
    port = closed_port()
    store = PostgresStore(f"postgresql://bot:hunter2@127.0.0.1:{port}/cards")
    with pytest.raises(StoreConfigError) as error:
        await store.open()
    assert one_sentence(str(error.value)) == (
        f"No PostgreSQL server answers at 127.0.0.1:{port} (connection refused):"
        " start it, or fix the host and port in DATABASE_URL."
    )


async def test_a_host_that_does_not_exist() -> None:
    store = PostgresStore("postgresql://bot@no-such-host.invalid/cards", connect_timeout=5)
    with pytest.raises(StoreConfigError) as error:
        await store.open()
    assert one_sentence(str(error.value)).startswith("No PostgreSQL server answers at no-such-host.invalid:5432 (")


async def test_a_database_that_does_not_exist() -> None:
    await (await postgres_admin()).close()
    store = PostgresStore(with_url(database="cardtable_no_such_database"))
    with pytest.raises(StoreConfigError) as error:
        await store.open()
    assert one_sentence(str(error.value)).endswith(
        "has no database 'cardtable_no_such_database': create it (createdb cardtable_no_such_database)"
        " or fix the database name in DATABASE_URL."
    )


async def test_a_user_the_server_refuses() -> None:
    await (await postgres_admin()).close()
    store = PostgresStore(with_url(user="cardtable_no_such_user"))
    with pytest.raises(StoreConfigError) as error:
        await store.open()
    message = one_sentence(str(error.value))
    assert "refused user 'cardtable_no_such_user'" in message and "fix the user name or password" in message


async def test_an_sqlite_file_that_cannot_be_opened(tmp_path: Path) -> None:
    path = str(tmp_path / "no-such-folder" / "cardtable.sqlite3")
    store = make_store(None, path)
    with pytest.raises(StoreConfigError) as error:
        await store.open()
    assert one_sentence(str(error.value)) == (
        f"The SQLite database {path!r} cannot be opened (unable to open database file):"
        " check that its folder exists and is writable, or fix DATABASE_PATH."
    )
