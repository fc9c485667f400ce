"""Settings from the environment (and a ``.env`` file beside the project, if there is one)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from dotenv import load_dotenv

from db.sqlite_connection import SYNCHRONOUS


class SettingsError(Exception):
    """A setting is missing or wrong; the message says what to do, in one sentence."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False)  # a secret: never in a log line or a traceback's locals
    database_path: str = "cardtable.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    ai_delay: float = 1.5
    #: ``postgresql://…`` to keep the games in PostgreSQL; unset: SQLite at ``database_path``.
    #: May hold a password, so it stays out of ``repr`` like the token.
    database_url: str | None = field(default=None, repr=False)
    #: SQLite's ``PRAGMA synchronous``: FULL (every acknowledged move is on disk) unless relaxed
    sqlite_synchronous: str = "FULL"
    #: upload the card emoji set as the application's emojis at start-up (``CARD_EMOJIS``, on
    #: unless set to off); off here so that a bot built in code (tests, the local mode) keeps
    #: cards as text unless it asks
    card_emojis: bool = False
    #: how many shards the bot's guilds are split into (1: unsharded, one process)
    shard_count: int = 1
    #: the shards this process runs; None: all of them
    shard_ids: tuple[int, ...] | None = None
    #: worker processes that decide computer moves; 0 decides them in a thread of this process
    #: (from the environment the default is the number of cores; here 0, for tests and local play)
    computer_workers: int = 0
    #: the port of the health, readiness and metrics endpoint (``HEALTH_PORT``); None: no endpoint
    health_port: int | None = None
    #: the address it listens on: this machine only unless the host says otherwise
    health_host: str = "127.0.0.1"
    #: ``text`` (one readable line a record) or ``json`` (one JSON object a line, for log collectors)
    log_format: str = "text"
    #: game packages to load besides those under ``cogs/`` (dotted module names, each an extension
    #: with a ``kind`` module, like ``cogs/<game>``): loaded with the games, before the other
    #: features, so that those add their commands to it. Set in code only (a test's third game)
    extra_games: tuple[str, ...] = ()
    #: how long a duplicate match waits for its tables to open before the bot closes it with the
    #: tables it has (``MATCH_EXPIRY_DAYS``; 0: never, as before, its host closes it)
    match_expiry_days: float = 7.0
    #: bind each game's decks to a future public drand round (bot.fairness.beacon; ``DRAND``, on unless set
    #: to off): the bot's own default is on, as the beacon is what shows that the bot did not pick
    #: its seed, and a game whose round does not come in time is still played, labelled. Off here,
    #: so that a bot built in code (tests, the local mode) works offline exactly as before.
    drand: bool = False

    @property
    def sharded(self) -> bool:
        return self.shard_count > 1

    @property
    def own_shards(self) -> tuple[int, ...]:
        """The shards this process runs (unsharded: shard 0 of 1)."""
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    @classmethod
    def from_env(cls, *, require_token: bool = True) -> Settings:
        load_dotenv()
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if require_token and not token:
            raise SettingsError(
                "No bot token: copy .env.example to .env and set DISCORD_TOKEN to the token from the "
                "Discord Developer Portal (your application -> Bot -> Reset Token), or play on this machine "
                "without one: .venv/bin/pip install -q -e '.[local]' && .venv/bin/python -m bot.host.local"
            )
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server ID (digits only), not {guild!r}.")
        level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        try:
            delay = float(os.environ.get("AI_DELAY_SECONDS", "1.5") or 1.5)
        except ValueError:
            raise SettingsError("AI_DELAY_SECONDS must be a number of seconds, such as 1.5.") from None
        synchronous = os.environ.get("SQLITE_SYNCHRONOUS", "").strip().upper() or "FULL"
        if synchronous not in SYNCHRONOUS:
            raise SettingsError(f"SQLITE_SYNCHRONOUS must be FULL, NORMAL or EXTRA, not {synchronous!r}.")
        emojis = os.environ.get("CARD_EMOJIS", "on").strip().lower() or "on"
        if emojis not in ("on", "off"):
            raise SettingsError(f"CARD_EMOJIS must be on or off, not {emojis!r}.")
        shard_count, shard_ids = _shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
        workers_text = os.environ.get("COMPUTER_WORKERS", "").strip()
        if workers_text and not workers_text.isdigit():
            raise SettingsError(
                f"COMPUTER_WORKERS must be a number of processes (0 decides in a thread), not {workers_text!r}."
            )
        workers = int(workers_text) if workers_text else (os.cpu_count() or 1)
        port_text = os.environ.get("HEALTH_PORT", "").strip()
        if port_text and not (port_text.isdigit() and 0 < int(port_text) < 65536):
            raise SettingsError(
                f"HEALTH_PORT must be a port number (1 to 65535), or empty for no endpoint, not {port_text!r}."
            )
        log_format = os.environ.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in ("text", "json"):
            raise SettingsError(f"LOG_FORMAT must be text or json, not {log_format!r}.")
        expiry_text = os.environ.get("MATCH_EXPIRY_DAYS", "").strip()
        try:
            expiry = float(expiry_text) if expiry_text else 7.0
        except ValueError:
            expiry = -1.0
        if not (0 <= expiry < 10_000):
            raise SettingsError(
                f"MATCH_EXPIRY_DAYS must be a number of days (such as 7, or 0 for never), not {expiry_text!r}."
            )
        drand = os.environ.get("DRAND", "on").strip().lower() or "on"
        if drand not in ("on", "off"):
            raise SettingsError(f"DRAND must be on or off, not {drand!r}.")
        return cls(
            token=token,
            database_path=os.environ.get("DATABASE_PATH", "").strip() or "cardtable.sqlite3",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            ai_delay=delay,
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            sqlite_synchronous=synchronous,
            card_emojis=emojis == "on",
            shard_count=shard_count,
            shard_ids=shard_ids,
            computer_workers=workers,
            health_port=int(port_text) if port_text else None,
            health_host=os.environ.get("HEALTH_HOST", "").strip() or "127.0.0.1",
            log_format=log_format,
            match_expiry_days=expiry,
            drand=drand == "on",
        )


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0-3`` -> (0, 1, 2, 3); ``0,2`` -> (0, 2); ``0-1,4``; raises ValueError for anything else."""
    found: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(part)
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(part)
        found.update(range(first, last + 1))
    return tuple(sorted(found))


def _shards(count_text: str, ids_text: str) -> tuple[int, tuple[int, ...] | None]:
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if count_text and not (count_text.isdigit() and int(count_text) >= 1):
        raise SettingsError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}.")
    count = int(count_text) if count_text else 1
    if not ids_text:
        return count, None
    if not count_text:
        raise SettingsError(
            "SHARD_IDS needs SHARD_COUNT: set SHARD_COUNT to the total number of shards of the bot (all processes)."
        )
    try:
        ids = parse_shard_ids(ids_text)
    except ValueError:
        raise SettingsError(f"SHARD_IDS must list shard numbers like 0-3 or 0,2, not {ids_text!r}.") from None
    outside = [i for i in ids if i >= count]
    if outside:
        raise SettingsError(
            f"SHARD_IDS {ids_text!r} names shard {outside[0]}, but with SHARD_COUNT={count} the shards are"
            f" 0 to {count - 1}."
        )
    return count, ids
