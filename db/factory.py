"""Which store the bot uses: one setting, ``DATABASE_URL``; SQLite when it is unset."""

from __future__ import annotations

from db.postgres import PostgresStore
from db.sqlite import SqliteStore
from db.store import Store


def make_store(database_url: str | None, sqlite_path: str, *, sqlite_synchronous: str = "FULL") -> Store:
    """The store for these settings, not yet opened (the bot calls ``open()`` when it starts).

    ``database_url`` empty or None: :class:`db.sqlite.SqliteStore` on ``sqlite_path``, the
    default. A ``postgresql://`` (or ``postgres://``) URL: :class:`db.postgres.PostgresStore`.
    Anything else raises :class:`StoreConfigError`, one sentence saying what to write instead;
    ``open()`` then raises the same for a server that is down, refuses the user or lacks the database.
    """
    url = (database_url or "").strip()
    if not url:
        return SqliteStore(sqlite_path, synchronous=sqlite_synchronous)
    return PostgresStore(url)  # a URL that is not PostgreSQL's, or cannot be parsed, fails here at once
