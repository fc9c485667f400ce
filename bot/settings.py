"""Settings from the environment (and a ``.env`` file beside the project, if there is one)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from dotenv import load_dotenv

from db.sqlite import SYNCHRONOUS


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

    @classmethod
    def from_env(cls, *, require_token: bool = True) -> Settings:
        load_dotenv()
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if require_token and not token:
            raise SettingsError(
                "No bot token: copy .env.example to .env and set DISCORD_TOKEN to the token from the "
                "Discord Developer Portal (your application -> Bot -> Reset Token), or play on this machine "
                "without one: .venv/bin/pip install -q -e '.[local]' && .venv/bin/python -m bot.local"
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
        return cls(
            token=token,
            database_path=os.environ.get("DATABASE_PATH", "").strip() or "cardtable.sqlite3",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            ai_delay=delay,
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            sqlite_synchronous=synchronous,
            card_emojis=emojis == "on",
        )
