"""What a PostgreSQL ``DATABASE_URL`` points at, checked and shown without its password.

Kept apart from the store so a message about a bad URL (at start, or in the tests' skip reason)
needs no pool and no driver: only the URL's text.
"""

from __future__ import annotations

import asyncio
from urllib.parse import unquote, urlsplit, urlunsplit

from db.errors import StoreConfigError

SCHEMES = ("postgresql", "postgres")


class UrlTarget:
    """What a PostgreSQL URL points at, for messages (the password never shows)."""

    __slots__ = ("where", "user", "database", "shown")

    def __init__(self, where: str, user: str, database: str, shown: str) -> None:
        self.where, self.user, self.database, self.shown = where, user, database, shown


def describe_url(url: str) -> UrlTarget:
    """Check that ``url`` is a PostgreSQL URL; :class:`StoreConfigError` in one sentence if it is not."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise StoreConfigError(
            f"DATABASE_URL {_hide_password(url)!r} cannot be parsed ({error}):"
            " write it as postgresql://user:password@host:port/database."
        ) from None
    shown = _hide_password(url)
    if parts.scheme not in SCHEMES:
        raise StoreConfigError(
            f"DATABASE_URL {shown!r} is not a PostgreSQL URL: write it as"
            " postgresql://user:password@host:port/database, or leave it unset to use SQLite."
        )
    user = unquote(parts.username or "") or "(your login name)"
    database = unquote(parts.path.lstrip("/")) or user
    host = parts.hostname or "localhost"
    return UrlTarget(f"{host}:{port or 5432}", user, database, shown)


def _hide_password(url: str) -> str:
    try:
        parts = urlsplit(url.strip())
        if parts.password is None:
            return url.strip()
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "<unparsable URL>"


def failure_reason(error: BaseException) -> str:
    """A failed connection's cause in a few words, for the one sentence :class:`StoreConfigError` says."""
    if isinstance(error, asyncio.TimeoutError):
        return "timed out"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error).strip().splitlines()[0].rstrip(".") if str(error).strip() else type(error).__name__
