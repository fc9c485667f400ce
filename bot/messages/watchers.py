"""Spectators' private views, kept current by the bot like the players' panels.

A spectator's view is an ephemeral reply to their **Watch** (or **Refresh**) press; only that
interaction's token can edit it, for 15 minutes. The newest one per (game, member) is kept here,
and whenever the table changes (a move, a new deal, the end) every view of that table is redrawn:
rendered once from the latest state in each language its spectators read (a view is a private
answer: it speaks its spectator's language, as their panel would) and sent to each through its
token (a webhook edit, outside the bot's channel rate limits). Changes that follow at once (a
computer answering) make one redraw: the redraw waits the presenter's coalescing pause, like the
table's own edit. A view whose token expired is dropped; its Refresh button still works and makes
it current again.

What a view shows is a feature's (fair play's: :attr:`bot.seam.features.Feature.spectator_view`, drawn
from the table message as it looks now); this module only knows when.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.messages.faults import TRANSIENT
from bot.seam.contract import LiveTable, Rendered
from bot.seam.features import Features
from locales import SOURCE, current, speaking

log = logging.getLogger(__name__)

#: an interaction token lives 15 minutes; stop a little earlier so an edit never races its expiry
LIFETIME = 14.5 * 60


@dataclass(slots=True)
class Watching:
    interaction: discord.Interaction
    opened: float
    #: the spectator's language (their client's, when they pressed Watch): the view is theirs alone
    language: str = SOURCE


class Watchers:
    def __init__(
        self,
        sleep: Callable[[float], Awaitable[Any]],
        coalesce: Callable[[], float],
        features: Features,
        face: Callable[[LiveTable], Rendered],
        speech: Callable[[LiveTable], contextlib.AbstractContextManager[str]] | None = None,
    ) -> None:
        #: the table's channel's language: a view in it shares the table message's drawing
        self.speech = speech or (lambda table: contextlib.nullcontext(""))
        #: the registered features: a spectator's view of a table is theirs (none: nobody can watch)
        self.features = features
        #: the table message as it looks now (the presenter's, shared with the table's display)
        self.face = face
        self.sleep = sleep
        self.coalesce = coalesce
        self.clock: Callable[[], float] = lambda: discord.utils.utcnow().timestamp()
        self.views: dict[int, dict[int, Watching]] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.dirty: set[int] = set()
        #: redraws sent (the benchmark and tests count them)
        self.edits = 0

    def opened(self, table: LiveTable, user_id: int, interaction: discord.Interaction) -> None:
        """``interaction`` answered with ``user_id``'s view of ``table``: the one to keep current,
        in the language it was answered in (its presser's)."""
        self.views.setdefault(table.id, {})[user_id] = Watching(interaction, self.clock(), current())

    def changed(self, table: LiveTable) -> None:
        """``table`` changed: its spectators' views are redrawn soon (one redraw for a burst)."""
        if not self.views.get(table.id) or self.features.spectator_view is None:
            return
        self.dirty.add(table.id)
        if table.id not in self.tasks:
            task = asyncio.create_task(self._run(table), name=f"watchers-{table.id}")
            self.tasks[table.id] = task
            task.add_done_callback(lambda _: self.tasks.pop(table.id, None))

    async def _run(self, table: LiveTable) -> None:
        try:
            while table.id in self.dirty:
                pause = self.coalesce()
                if pause:
                    await self.sleep(pause)
                self.dirty.discard(table.id)
                await self._redraw(table)
        except asyncio.CancelledError:
            raise
        except Exception:  # a spectator's view must never disturb the game
            log.exception("game %s: redrawing the spectators' views failed", table.id)

    async def _redraw(self, table: LiveTable) -> None:
        render = self.features.spectator_view
        assert render is not None
        views = self.views.get(table.id, {})
        now = self.clock()
        for user_id in [u for u, w in views.items() if now - w.opened >= LIFETIME]:
            del views[user_id]
        if not views:
            self.views.pop(table.id, None)
            return
        async with table.lock:
            drawn: dict[str, Rendered] = {}  # once per language the spectators read
            with self.speech(table) as channel:
                for language in sorted({w.language for w in views.values()}):
                    with speaking(language):  # the table message's own drawing, where it speaks theirs
                        drawn[language] = render(table, self.face(table) if language == channel else None)
            over = table.engine is None or table.engine.is_over or table.record.status != "playing"
        sends = [self._send(table, user_id, w, drawn[w.language]) for user_id, w in list(views.items())]
        await asyncio.gather(*sends)
        if over:  # the last look is shown: nothing more will change
            self.views.pop(table.id, None)

    async def _send(self, table: LiveTable, user_id: int, watching: Watching, rendered: Rendered) -> None:
        try:
            await watching.interaction.edit_original_response(**rendered.kwargs())
            self.edits += 1
        except TRANSIENT:
            log.info("game %s: a spectator's view can no longer be edited", table.id)
            views = self.views.get(table.id, {})
            if views.get(user_id) is watching:
                del views[user_id]

    async def stop(self, table: LiveTable, user_id: int, text: str) -> None:
        """``user_id`` no longer watches ``table`` (they took a seat at it): their view says
        ``text``, without the hands it showed, and is never redrawn again."""
        watching = self.views.get(table.id, {}).pop(user_id, None)
        if watching is None or self.clock() - watching.opened >= LIFETIME:
            return
        try:
            await watching.interaction.edit_original_response(content=text, embeds=[], view=None, attachments=[])
        except TRANSIENT:
            log.info("game %s: a spectator's view could not be closed", table.id)

    def close(self) -> list[asyncio.Task[None]]:
        """Stop every redraw; returns the tasks for the caller to await."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        return tasks
