"""Logs a host can use: where they go, how they look, and one line per game event.

:func:`configure` sets the process's logging from ``LOG_LEVEL`` and ``LOG_FORMAT``: ``text`` (a
readable line: time, level, logger, message) or ``json`` (one JSON object a line, with the game,
guild and channel as fields of their own where a line is about a game), on standard error, where
systemd's journal and container runtimes collect it.

The levels mean something: ERROR is a fault a person should look at (a bug, a store that refuses,
Discord refusing what the bot sent); WARNING is trouble the bot handles itself (Discord failing for a
while, a lease taken over); INFO is one line per game event (:func:`event`: a lobby opened, a game
started, a game ended) and the bot's start; DEBUG adds the bot's own detail. At DEBUG,
discord.py's own loggers stay at INFO: their DEBUG lines carry every request and gateway payload,
which hold players' hands (a DM, a private panel).

No line names a hand, a seed or a salt (a test plays a whole game at DEBUG and looks): game events
carry only the game's number, kind, preset, where it is played and the player count.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import IO, Any

#: the logger of game events (a lobby, a start, an end)
GAMES = logging.getLogger("cardtable.games")
#: the fields a line about a game carries (``extra`` of the log call)
FIELDS = ("event", "game", "kind", "guild", "channel")


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%dT%H:%M:%S%z")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, the
    game fields where given, and ``error`` (the traceback) for a line logged with one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in FIELDS:
            found = getattr(record, name, None)
            if found is not None:
                line[name] = found
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


#: the handler :func:`configure` installed (replaced, not added to, when called again)
_installed: logging.Handler | None = None


def configure(level: str = "INFO", fmt: str = "text", stream: IO[str] | None = None) -> logging.Handler:
    """The process's logging: one handler on the root logger, at ``level``, in ``fmt``."""
    global _installed
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    if _installed is not None:
        root.removeHandler(_installed)
    root.addHandler(handler)
    _installed = handler
    number = logging.getLevelName(level)
    root.setLevel(number)
    # discord.py's DEBUG lines hold whole payloads (hands in DMs and panels): never below INFO
    logging.getLogger("discord").setLevel(max(number, logging.INFO))
    return handler


def where(guild_id: int | None, channel_id: int | None) -> str:
    return f"guild {guild_id if guild_id is not None else '-'} channel {channel_id if channel_id is not None else '-'}"


def event(what: str, record: Any, detail: str = "", *, level: int = logging.INFO) -> None:
    """One line about a game (``record``: its :class:`~db.records.GameRecord`): ``game #12 started:
    ohhell (classic), 4 players; guild … channel …``. Never pass a hand, the seed or the salt."""
    text = f"game #{record.id} {what}: {record.kind} ({record.preset})"
    if detail:
        text += f", {detail}"
    GAMES.log(
        level,
        "%s; %s",
        text,
        where(record.guild_id, record.channel_id),
        extra={
            "event": what,
            "game": record.id,
            "kind": record.kind,
            "guild": record.guild_id,
            "channel": record.channel_id,
        },
    )


def context(interaction: Any, game_id: int | None = None) -> dict[str, Any]:
    """The ``extra`` of a log line about an interaction: its guild and channel, and the game when
    known (what :func:`event` lines carry, so a host can find every line of one game)."""
    return {"game": game_id, "guild": interaction.guild_id, "channel": interaction.channel_id}


def what_was_used(interaction: Any) -> str:
    """The command or control an interaction used, for a log line: the command's name, or the
    first part of a control's custom id (``ohp``), never the rest (it may name a card)."""
    data = interaction.data or {}
    if data.get("name"):
        return f"/{data['name']}"
    custom_id = str(data.get("custom_id") or "")
    return f"control {custom_id.split(':', 1)[0]}" if custom_id else "an interaction"
