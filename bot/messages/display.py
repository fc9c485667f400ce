"""One table's display: what its channel *should* show, what it has shown, and the one loop that
closes the difference.

Every change to a table (a move, a new deal, the end, a reminder) only updates the desired state
here and wakes the loop; the loop alone talks to Discord over REST for this table. Each pass it
renders the *latest* state (several quick changes become one edit; the live table is drawn once a
look, see :meth:`Display.live_face`, and a :class:`~bot.seam.contract.Rendered` can be sent again: its
pictures are kept as bytes), then tries, in
order: the hands still to send by DM, the new table message to post, the current message to edit,
old copies to close (their controls removed), and the lines to post (standings, reminders,
warnings). Whatever fails stays desired and is tried again after a pause that honours Discord's
``retry_after``; when the channel could not be shown the truth for long (about 30 s, or at once
when a permission is missing), the players are told in one line, once per spell of trouble.

What the display must remember across a restart (the table message it posted, an old copy still
to close, standings shown) is written to the store as *saves* (:class:`~bot.messages.saves.Saves`),
tried before and after each pass; a store that fails never counts as Discord failing. An old copy
is saved before its edit is tried, so a restarted bot finishes closing it (:meth:`Display.restore_old`).

Rendering reads the live table, so it takes ``table.lock`` (never a half-applied move); sending
does not, so a slow or failing Discord never holds up the players' moves.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.host import metrics
from bot.messages.faults import TRANSIENT, Fault, classify
from bot.messages.saves import Save, Saves
from bot.messages.speech import member_language, table_language
from bot.messages.trouble import trouble_line
from bot.seam.contract import LiveTable, Rendered
from bot.tables.snapshot import snapshot
from db.records import GameRecord, MessageNotes, OldCopy
from db.store import Store
from locales import N_, _, speaking

log = logging.getLogger(__name__)

#: how long the channel may lag behind the game before the players are told
TELL_AFTER = 30.0
#: a table message this old is posted again rather than edited: Discord limits edits of messages
#: older than an hour (error 30046), and a play-by-post deal edits its table for days
REPOST_AGE = 50 * 60.0


def too_old_to_edit(message_id: int) -> bool:
    """Whether the message (its age read from its id) is near Discord's hour for edits."""
    age = discord.utils.utcnow() - discord.utils.snowflake_time(message_id)
    return age.total_seconds() >= REPOST_AGE


Render = Callable[[], Rendered]


def moved_below() -> Rendered:
    """What an older copy of the table says once it has lost its controls to a newer one below."""
    return Rendered(content=_("⬇️ This table moved below."), embeds=[], view=None)


Sleep = Callable[[float], Awaitable[Any]]


@dataclass
class Line:
    """A message to post in the channel once (standings, a reminder, a warning)."""

    what: str
    #: renders the line when it is sent; ``None``: not worth sending any more (the turn moved on)
    render: Callable[[], Rendered | None]
    #: a newer line with the same key replaces one not sent yet (a reminder supersedes the last)
    key: str | None = None
    pings: bool = False
    #: whom a line that pings may ping, asked once it is rendered (None: any member it mentions)
    mentions: Callable[[], discord.AllowedMentions] | None = None
    #: run once the line is posted (the standings: stored as shown, so a restart does not repeat them)
    on_sent: Callable[[], Awaitable[None]] | None = None


@dataclass
class Desired:
    """What the channel should show beyond what it shows now."""

    #: bumped by every change the current table message must show; ``shown`` is what it shows
    version: int = 0
    shown: int = 0
    #: how the current message looks (the live table, or its last look once the game is over)
    face: Render | None = None
    #: the current table must be posted as a new message (a new deal, /table, a deleted message)
    post: bool = False
    #: seats whose hand for this deal is still to be sent by DM
    hands: set[int] = field(default_factory=set)
    #: old copies of the table to close, by message id
    old: dict[int, Render] = field(default_factory=dict)
    #: old copies to close only once the new one is up ("this table moved below")
    after_post: set[int] = field(default_factory=set)
    lines: list[Line] = field(default_factory=list)

    def converged(self) -> bool:
        return not (self.shown < self.version or self.post or self.hands or self.old or self.lines)


class Display:
    def __init__(
        self,
        client: discord.Client,
        store: Store,
        table: LiveTable,
        *,
        sleep: Sleep,
        coalesce: float,
        on_done: Callable[[Display], None],
        on_post: Callable[[], None] | None = None,
        notes: MessageNotes | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.table = table
        self.sleep = sleep
        self.coalesce = coalesce
        self.on_done = on_done
        #: called once the table is posted as a new message (the open panels follow it below)
        self.on_post = on_post
        #: the live table's last drawing and the look it was drawn for (see :meth:`live_face`)
        self._drawn: tuple[tuple[Any, ...], Rendered] | None = None
        self.want = Desired(face=self.live_face)
        self.failures = 0
        self.trouble_since: float | None = None
        self.told = False
        self.task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._pausing = False  # the loop waits out a pause after a failure
        self._waiters: list[asyncio.Future[Fault | None]] = []
        #: the writes to the store what the channel shows depends on (``notes``: where the table's
        #: message and the old copies closed are noted instead, see :class:`~bot.messages.saves.Saves`)
        self.saves = Saves(store, table.id, notes)

    def language(self) -> str:
        """What the table's channel reads: every look and line of the display is drawn in it,
        whoever's press asked for it (:func:`bot.messages.speech.table_language`)."""
        record = self.table.record
        return table_language(self.client, record.guild_id, record.options)

    # -- changes (called by the presenter; never talk to Discord) -------------------------------
    def live_face(self) -> Rendered:
        """The live table as it looks now, drawn once a look: the display's post or edit, the
        answer of a click on the table message and the spectators' views of one move share one
        rendering. A look is the change the display is to show (``want.version``) and what the
        table message is drawn from (the game's state, the notices, who plays each seat), so
        nothing that changes it is missed even where no change was announced."""
        table = self.table
        state = snapshot(table.engine) if table.engine is not None else None
        language = self.language()
        look = (
            self.want.version,
            state,
            tuple(table.notices),
            tuple((s.user_id, s.ai_level) for s in table.seats),
            language,
        )
        if self._drawn is None or self._drawn[0] != look:
            with speaking(language):
                self._drawn = (look, table.kind.table(table, []))
        return self._drawn[1]

    def changed(self) -> None:
        self.want.version += 1
        self.wake()

    def wake(self) -> None:
        self._wake.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"display of game {self.table.id}")

    def add_line(self, line: Line) -> None:
        if line.key is not None:
            self.want.lines = [old for old in self.want.lines if old.key != line.key]
        self.want.lines.append(line)
        self.wake()

    def retire(self, message_id: int, render: Render, *, after_post: bool = False, saved: bool = False) -> None:
        """An old copy of the table is to lose its controls and end as ``render()`` shows it
        (``after_post``: once the copy replacing it is up). Saved first, so a restart closes it
        (``saved``: it is already, with the move that closed it)."""
        self.want.old[message_id] = render
        if after_post:
            self.want.after_post.add(message_id)
        if not saved:
            self.saves.keep_old(message_id, lambda: self._save_old(message_id, render, after_post))
            self.saves.soon()
        self.wake()

    def move_below(self) -> None:
        """Post the table afresh; the copy on record loses its controls and points below once
        the new one is up (``/<game> table``, and a table too old for Discord to edit)."""
        old = self.table.record.message_id
        if old is not None and not self.want.post:
            self.retire(old, moved_below, after_post=True)
        self.want.post = True
        self.want.version += 1
        self.wake()

    def restore_old(self, copy: OldCopy) -> None:
        """After a restart: an old copy the stopped bot had not closed yet (already saved)."""
        message_id = copy.message_id
        if copy.after_post and message_id == self.table.record.message_id and not self.want.post:
            # It was to close once its replacement was up, which never happened: it is the table.
            self.saves.forget_old(message_id)
        else:
            # (The copy on record while the table is being posted again: it closes once that is up,
            # with the look it was saved with, a deal's result rather than "moved below".)
            look = Rendered(
                content=copy.look.get("content"),
                embeds=[discord.Embed.from_dict(e) for e in copy.look.get("embeds", [])],
                view=None,
            )
            after_post = copy.after_post or message_id in self.want.after_post
            self.want.old[message_id] = render = lambda: look
            if after_post:
                self.want.after_post.add(message_id)
            self.saves.keep_old(message_id, lambda: self._save_old(message_id, render, after_post))
        self.wake()

    def save(self, what: str, job: Save) -> None:
        """A write the display's state depends on; tried now, and again until the store takes it."""
        self.saves.put(what, job)
        self.saves.soon()
        self.wake()

    async def _save_old(self, message_id: int, render: Render, after_post: bool) -> None:
        if self.want.old.get(message_id) is not render:
            return  # closed already: nothing to remember
        rendered = await self._render(render)
        if self.want.old.get(message_id) is render:
            # Rendered once: the edit sends this very look (a rendering may draw a picture).
            self.want.old[message_id] = lambda: rendered
        look = {"content": rendered.content, "embeds": [e.to_dict() for e in rendered.embeds]}
        await self.store.save_old_copy(OldCopy(self.table.id, message_id, look, after_post))

    def _closed_old(self, message_id: int) -> None:
        self.want.old.pop(message_id, None)
        self.want.after_post.discard(message_id)
        self.saves.forget_old(message_id)

    def hurry(self) -> None:
        """A person asked for the table (``/<game> table``, Start): try now, not after the pause."""
        if self._pausing and self.task is not None:
            self.task.cancel()
            self.task = None
            self._pausing = False
        self.wake()

    async def settled(self, timeout: float) -> Fault | None:
        """Wait for the next pass (at most ``timeout`` s); ``None`` if the table is up as it should
        be, else the fault that stands in the way.
        A pass that has not finished in time counts as a fault of its own ("still trying")."""
        future: asyncio.Future[Fault | None] = asyncio.get_running_loop().create_future()
        self._waiters.append(future)
        self.hurry()
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            return Fault(N_("showing the table"), 0, 0)

    def close(self) -> list[asyncio.Task[None]]:
        """Cancel the loop (a write to the store in progress finishes); returns the tasks for the
        caller to await."""
        if self.task is not None:
            self.task.cancel()
        return [t for t in (self.task, self.saves.task) if t is not None]

    # -- the loop -----------------------------------------------------------------------------
    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                if self.coalesce and not self._waiters and self._only_edit_pending():
                    # Let the moves that follow at once (a computer answering) land first: one edit.
                    await self.sleep(self.coalesce)
                fault = await self._pass()
                # A waiter asks whether the table is up: a failure elsewhere (closing an old copy,
                # a DM) does not make that answer "no".
                table_up = not self.want.post and self.want.shown >= self.want.version
                for waiter in self._waiters:
                    if not waiter.done():
                        waiter.set_result(None if table_up else fault)
                self._waiters.clear()
                if fault is None and not self.saves.queued:
                    if self.trouble_since is not None:  # caught up: how long the channel was behind
                        metrics.DISPLAY_BEHIND.observe(asyncio.get_running_loop().time() - self.trouble_since)
                    self.failures, self.trouble_since, self.told = 0, None, False
                    if not self._wake.is_set():
                        # All shown: the loop ends (an idle task would hold nothing but a wait);
                        # the next change starts it again.
                        return
                    continue
                self.failures += 1
                metrics.DISPLAY_RETRIES.labels(str(fault.status if fault is not None else 0)).inc()
                if fault is None:
                    # All shown; only the store refused a write: try it again later, telling nobody.
                    fault = Fault(N_("saving what the table shows"), 0, 0)
                else:
                    await self._tell_if_long(fault)
                delay = fault.delay(self.failures)
                log.warning(
                    "game %s: %s failed (%s %s); trying again in %.0f s",
                    self.table.id,
                    fault.what,
                    fault.status or "timeout",
                    fault.code,
                    delay,
                )
                self._pausing = True
                try:
                    await self.sleep(delay)
                finally:
                    self._pausing = False
                self._wake.set()
        finally:
            if self.want.converged() and not self.saves.queued and self.table.record.status != "playing":
                self.on_done(self)

    def _only_edit_pending(self) -> bool:
        w = self.want
        return w.shown < w.version and not (w.post or w.hands or w.old or w.lines)

    async def _pass(self) -> Fault | None:
        try:
            await self.saves.run()  # an old copy is saved before its edit is tried
            fault = await self._try_all()
            await self.saves.run()
            return fault
        except Exception:
            # A bug (or the store failing) must not stop the display for good: log, try again later.
            log.exception("game %s: showing the table failed", self.table.id)
            return Fault(N_("showing the table"), 0, 0)

    async def _render(self, render: Callable[[], Any], language: str | None = None) -> Any:
        """Draw under the table's lock, in the channel's language (or ``language``: a DM's)."""
        async with self.table.lock:
            with speaking(language or self.language()):
                return render()

    def _channel(self) -> discord.PartialMessageable:
        record = self.table.record
        return self.client.get_partial_messageable(record.channel_id, guild_id=record.guild_id)

    async def _try_all(self) -> Fault | None:
        """One pass over what the channel still lacks, in the order it must appear; the fault that
        says most of those met, or None."""
        record = self.table.record  # (the one this pass began with, should a refresh replace it)
        # 1. Hands go out before a new table is posted, so that it can say whose DMs are closed.
        faults = await self._send_hands()
        # 2. The current table, posted afresh (also when it is too old for Discord to edit), or
        # 3. edited in place.
        faults += await self._show_table(record)
        # 4. Old copies lose their controls.
        faults += await self._close_old_copies()
        # 5. Lines, in order (standings after the last table, a reminder after the table it is about).
        faults += await self._send_lines()
        if not faults:
            return None
        # The fault that says most: a missing permission, then a rate limit, then the first.
        faults.sort(key=lambda f: (f.permission is None, f.retry_after is None))
        return faults[0]

    async def _send_hands(self) -> list[Fault]:
        faults: list[Fault] = []
        for seat in sorted(self.want.hands):
            fault = await self._send_hand(seat)
            if fault is None:
                self.want.hands.discard(seat)
            else:
                faults.append(fault)
        return faults

    async def _show_table(self, record: GameRecord) -> list[Fault]:
        want = self.want
        # (Only a game in play moves: a lobby, or a game's last look, is edited; a refused edit
        # posts it again below.)
        engine = self.table.engine
        playing = engine is not None and not engine.is_over and want.face == self.live_face
        if playing and not want.post and want.shown < want.version and record.message_id is not None:
            if too_old_to_edit(record.message_id):
                self.move_below()
        if want.post:
            return await self._post_table(record)
        if want.shown < want.version and record.message_id is not None:
            return await self._edit_table(record, record.message_id)
        return []

    async def _post_table(self, record: GameRecord) -> list[Fault]:
        want = self.want
        face = want.face or self.live_face
        rendered, version, key = await self._render(lambda: (face(), want.version, self._key()))
        try:
            message = await self._channel().send(**rendered.send_kwargs())
        except TRANSIENT as error:
            return [classify(error, N_("posting the table"), posting=True)]
        record.message_id, record.message_key = message.id, key
        want.post, want.shown = False, version
        self.saves.note_message(message.id, key)
        if self.on_post is not None:
            self.on_post()
        return []

    async def _edit_table(self, record: GameRecord, message_id: int) -> list[Fault]:
        want = self.want
        face = want.face or self.live_face
        rendered, version = await self._render(lambda: (face(), want.version))
        try:
            await self._channel().get_partial_message(message_id).edit(**rendered.kwargs())
        except TRANSIENT as error:
            fault = classify(error, N_("editing the table"), posting=False)
            if fault.too_old:
                self.move_below()  # Discord will not edit it: post it again, at once
                self._wake.set()
            elif fault.gone:
                want.post = True  # deleted: post it again, at once
                self._wake.set()
            elif fault.bad_request:
                log.error("game %s: Discord refused the table (%s)", self.table.id, error)
                want.shown = max(want.shown, version)
            else:
                return [fault]
        else:
            if record.message_id == message_id:
                want.shown = version
        return []

    async def _close_old_copies(self) -> list[Fault]:
        faults: list[Fault] = []
        want = self.want
        for message_id, render in list(want.old.items()):
            if message_id in want.after_post and want.post:
                continue
            rendered = await self._render(render)
            try:
                await self._channel().get_partial_message(message_id).edit(**rendered.kwargs())
            except TRANSIENT as error:
                fault = classify(error, N_("closing an old copy of the table"), posting=False)
                if fault.too_old:
                    await self._delete_old(message_id)
                elif fault.gone or fault.bad_request:
                    self._closed_old(message_id)
                else:
                    faults.append(fault)
            else:
                if want.old.get(message_id) is render:
                    self._closed_old(message_id)
        return faults

    async def _send_lines(self) -> list[Fault]:
        """Stops at the first line that fails (those after it wait their turn)."""
        want = self.want
        while want.lines:
            line = want.lines[0]
            rendered_line: Rendered | None = await self._render(line.render)
            if rendered_line is not None:
                mentions = discord.AllowedMentions(users=True) if line.pings else discord.AllowedMentions.none()
                if line.pings and line.mentions is not None:
                    mentions = line.mentions()
                try:
                    await self._channel().send(**rendered_line.send_kwargs(), allowed_mentions=mentions)
                except TRANSIENT as error:
                    fault = classify(error, line.what, posting=True)
                    if not fault.bad_request:
                        return [fault]
                    log.error("game %s: Discord refused %s (%s)", self.table.id, line.what, error)
            if want.lines and want.lines[0] is line:
                want.lines.pop(0)
            if line.on_sent is not None:
                self.saves.put(f"sent:{id(line)}", line.on_sent)
        return []

    async def _delete_old(self, message_id: int) -> None:
        """An old copy Discord will not let the bot edit (30046) must not keep live controls: it
        is deleted (the current table shows the game), or, failing that, left as it is."""
        try:
            await self._channel().get_partial_message(message_id).delete()
        except TRANSIENT as error:
            log.warning("game %s: could not delete an old copy of the table: %s", self.table.id, error)
        self._closed_old(message_id)

    def _key(self) -> str | None:
        engine = self.table.engine
        return json.dumps(self.table.kind.message_key_of(engine)) if engine is not None else None

    async def _send_hand(self, seat: int) -> Fault | None:
        table = self.table
        record = table.seats[seat]
        if record.user_id is None or record.ai_level is not None or record.dm_closed or table.engine is None:
            return None
        # (a DM no press of theirs asked for: in the player's own language, as last seen)
        rendered = await self._render(
            lambda: table.kind.dm(table, seat), member_language(record.user_id, self.language())
        )
        if rendered is None:
            return None
        try:
            channel = await self.client.create_dm(discord.Object(record.user_id))
            await channel.send(**rendered.send_kwargs())
        except (discord.Forbidden, discord.NotFound):
            # Refused for good (closed DMs, or no such user): the table says to use the button.
            record.dm_closed = True
            self.saves.put(f"seat:{seat}", functools.partial(self.store.update_seat, table.id, record))
            with speaking(self.language()):
                table.notice(
                    _(
                        "📪 I can't DM {name} (their DMs are closed): they can use **{button}** instead.",
                        name=record.name,
                        button=table.kind.hand_button,
                    )
                )
            self.changed()
        except TRANSIENT as error:
            return classify(error, f"sending {record.name} their hand", posting=False)
        return None

    async def _tell_if_long(self, fault: Fault) -> None:
        now = asyncio.get_running_loop().time()
        if self.trouble_since is None:
            self.trouble_since = now
        if self.told or (fault.permission is None and now - self.trouble_since < TELL_AFTER):
            return
        with speaking(self.language()):
            text = trouble_line(self.table, fault, finale_pending=any(line.key == "finale" for line in self.want.lines))
        try:
            await self._channel().send(text, allowed_mentions=discord.AllowedMentions.none())
        except TRANSIENT:
            # Tried again only after the next (capped) pause: a refusing channel is not flooded.
            log.warning("game %s: could not tell the channel either: %s", self.table.id, text)
        else:
            self.told = True
