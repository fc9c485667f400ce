"""What a table's display must remember across a restart, and the writes to the store that keep
it: the table message it posted (and the deal it shows), an old copy still to close, a seat whose
DMs are closed, the standings shown.

Each is queued as a *save* (by what it is about: a newer one replaces an older) and tried at once,
and again before and after each pass of the display's loop: a store that fails leaves the rest
queued and tried again later, and it never counts as Discord failing (nobody is told the table is
not shown when it is). Where the presenter keeps :class:`~db.records.MessageNotes`, the table's
message and the old copies closed are noted there instead, to be written with the next move.

Kept apart from :class:`~bot.messages.display.Display`, which talks to Discord: this side talks only
to the store, and changes with what the store keeps about a table's messages.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable

from db.errors import StoreError
from db.records import MessageNotes
from db.store import Store

log = logging.getLogger(__name__)

Save = Callable[[], Awaitable[None]]


class Saves:
    """The writes one table's display still has to make to the store."""

    def __init__(self, store: Store, game_id: int, notes: MessageNotes | None) -> None:
        self.store = store
        self.game_id = game_id
        #: where the table's message and the old copies closed are noted, to be written with the
        #: next move (:class:`~db.records.MessageNotes`); None: each written at once
        self.notes = notes
        #: the writes still to make, by what they are about (a newer one replaces an older)
        self.queued: dict[str, Save] = {}
        #: writes are made at once, even while the display's loop waits out a pause for Discord
        self.task: asyncio.Task[None] | None = None
        self._saving = asyncio.Lock()
        #: the queued writes that forget a closed old copy, by its message (see :meth:`closed_copies`)
        self._drops: dict[int, Save] = {}

    def put(self, what: str, job: Save) -> None:
        """Queue ``job`` (replacing one queued about the same ``what``), to be made on the next run."""
        self.queued[what] = job

    def keep_old(self, message_id: int, job: Save) -> None:
        """Queue the write that remembers the old copy ``message_id`` as still to close."""
        self.queued[f"old:{message_id}"] = job

    def soon(self) -> None:
        """Make the queued writes now, in a task of their own (one at a time)."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._now(), name=f"saves of game {self.game_id}")

    async def _now(self) -> None:
        try:
            await self.run()
        except Exception:
            # (a bug: logged; the loop tries the saves again on its next pass)
            log.exception("game %s: saving what the table shows failed", self.game_id)

    async def run(self) -> bool:
        """Make the writes still queued, one pass at a time and in order, an old copy's forgetting
        last (another write may carry it: :meth:`closed_copies`); whether all are made (a failing
        store keeps the rest)."""
        async with self._saving:
            queued = list(self.queued.items())
            drops = set(map(id, self._drops.values()))
            queued.sort(key=lambda item: id(item[1]) in drops)  # (stable: the rest in order)
            for what, job in queued:
                if self.queued.get(what) is not job:
                    continue  # replaced meanwhile: the newer one comes in its turn
                try:
                    await job()
                except StoreError as error:
                    log.warning("game %s: could not save %s yet: %s", self.game_id, what, error)
                    return False
                if self.queued.get(what) is job:
                    del self.queued[what]
            return not self.queued

    def forget_old(self, message_id: int) -> None:
        """The old copy ``message_id`` is closed (or is the table again): the store forgets it,
        by a write of its own or with the next write that carries it (:meth:`closed_copies`)."""
        if self.notes is not None:
            self.queued.pop(f"old:{message_id}", None)  # (a save of it still queued: it is closed)
            self.notes.closed.setdefault(self.game_id, set()).add(message_id)
            return
        job: Save = lambda: self._drop_old(message_id)  # noqa: E731 - the job's identity is its key
        self.queued[f"old:{message_id}"] = self._drops[message_id] = job

    async def _drop_old(self, message_id: int) -> None:
        await self.store.drop_old_copy(self.game_id, message_id)
        self._drops.pop(message_id, None)

    def closed_copies(self) -> list[int]:
        """The old copies whose forgetting is still queued: a write about to be made for this
        table drops them in its own transaction (then :meth:`dropped`), rather than one more each."""
        return [m for m, job in self._drops.items() if self.queued.get(f"old:{m}") is job]

    def dropped(self, message_ids: list[int]) -> None:
        """``message_ids`` (from :meth:`closed_copies`) were dropped: their own writes are withdrawn."""
        for message_id in message_ids:
            job = self._drops.pop(message_id, None)
            if job is not None and self.queued.get(f"old:{message_id}") is job:
                del self.queued[f"old:{message_id}"]

    def note_message(self, message_id: int, key: str | None) -> None:
        """The table's message is now ``message_id`` (showing the deal ``key``): noted for the next
        move's write, or written at once (with the old copies closed meanwhile)."""
        if self.notes is not None:
            self.notes.messages[self.game_id] = (message_id, key)
        else:
            self.queued["message"] = functools.partial(self._save_message, message_id, key)

    async def _save_message(self, message_id: int, key: str | None) -> None:
        """The table's new message, with the old copies closed meanwhile: one write."""
        closed = self.closed_copies()
        await self.store.set_message(self.game_id, message_id, key, closed=closed)
        self.dropped(closed)
