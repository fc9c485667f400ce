"""The registry: which game kinds the bot knows and which tables are live.

Every extension registers what it adds in :attr:`Registry.features`, in its ``setup()``: a game its
:class:`~bot.seam.features.Game`, whose :class:`~bot.seam.contract.GameKind` start-up puts in
:attr:`Registry.kinds` (:meth:`~bot.seam.features.Features.start`), any other feature its
:class:`~bot.seam.features.Feature` (the registry belongs to the bot's table manager, not to a
module-global dict, so two bots in one process, as in tests, never share kinds). Every live table
it makes carries what the features lend it (:attr:`~bot.seam.contract.LiveTable.lent`). Everything
else asks it for tables: by id (a button's custom id), by channel (a slash command) or whether a
table is still live (a form answered after the game ended). Dropping a table cancels its
background tasks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from bot.messages.errors import Refusal
from bot.seam.contract import AnyKind, LiveTable
from bot.seam.features import Features
from db.records import GameRecord
from locales import _

log = logging.getLogger(__name__)


class Registry:
    def __init__(self) -> None:
        self.kinds: dict[str, AnyKind] = {}
        self.tables: dict[int, LiveTable] = {}
        #: live here only to answer an interaction: games of guilds another process owns (a DM
        #: interaction arrives on shard 0; a process restarted with other shards). Their clock
        #: (timers, computer seats) runs in the owner's process, never here.
        self.foreign: set[int] = set()
        #: the registered features (``bot.features``), applied to every game at start-up
        self.features = Features()
        self._match_locks: dict[int, asyncio.Lock] = {}

    # -- game kinds ---------------------------------------------------------------------------
    def register(self, kind: AnyKind) -> AnyKind:
        """Know ``kind`` (start-up does this for every registered game; a bench without the bot's
        extensions calls it itself)."""
        self.kinds[kind.key] = kind
        return kind

    def title_of(self, key: str) -> str:
        kind = self.kinds.get(key)
        return kind.title if kind is not None else key

    def match_lock(self, match_id: int | None) -> contextlib.AbstractAsyncContextManager[Any]:
        """Held while a member's role in a duplicate match is decided and taken (sitting at one of
        its tables, opening one, watching one): of two such requests at once, the second is
        decided on what the first wrote, so nobody both watches a table and sits at another of the
        match. Nothing to hold outside a match. (In this process: for requests reaching other
        processes of a sharded bot, each door checks again after its write:
        :func:`bot.tables.secrecy.sides_taken`.)"""
        if match_id is None:
            return contextlib.nullcontext()
        return self._match_locks.setdefault(match_id, asyncio.Lock())

    # -- finding tables -----------------------------------------------------------------------
    def get(self, game_id: int) -> LiveTable:
        table = self.tables.get(game_id)
        if table is None:
            raise Refusal(_("This game has ended; its buttons no longer do anything."))
        return table

    def in_channel(self, channel_id: int, kind: str | None = None) -> LiveTable | None:
        for table in self.tables.values():
            if table.record.channel_id == channel_id and (kind is None or table.kind.key == kind):
                return table
        return None

    def is_live(self, table: LiveTable) -> bool:
        """Still running here (not finished, cancelled or ended since it was looked up)."""
        return self.tables.get(table.id) is table

    def drives(self, table: LiveTable) -> bool:
        """Live here and this process's to drive (its timers and computer seats run here)."""
        return self.is_live(table) and table.id not in self.foreign

    # -- adding and dropping ------------------------------------------------------------------
    def attach(self, record: GameRecord) -> LiveTable:
        """Make a stored game live; a started game is rebuilt by replaying its log."""
        kind = self.kinds[record.kind]
        table = LiveTable(record=record, kind=kind, lent=self.features.lent)
        if record.status == "playing":
            table.rules = kind.rules_from_json(record.rules or {})
            table.engine = kind.replay(table.rules, record)
        self.tables[record.id] = table
        return table

    def drop(self, table: LiveTable) -> None:
        for task in (*table.tasks, *table.timer_tasks):
            if task is not asyncio.current_task():
                task.cancel()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.foreign.discard(table.id)
