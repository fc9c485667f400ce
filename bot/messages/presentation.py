"""Presentation: the one module that posts, edits and DMs a table's messages.

Every change to what a table's channel should show (the table after a move, a new deal's table,
the final standings, reminders, the clock's warnings) goes to that table's
:class:`~bot.messages.display.Display`, which keeps trying until the channel shows it (see there). What a
message *says* comes from the game's :class:`~bot.seam.contract.GameKind` (or, for a lobby, the
renderer a feature registered: :attr:`bot.seam.features.Features.lobby`). When a move's click came from the table
message itself, the table is edited through that click's own answer (no extra REST call); if that
answer fails, the display edits the table instead, and the player is told the move was saved and
that the table will catch up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.fairness.shuffles import reveal_line, says_checkable
from bot.messages.display import Display, Line, Sleep, too_old_to_edit
from bot.messages.faults import TRANSIENT, Fault
from bot.messages.panels import Panels
from bot.messages.speech import in_channel
from bot.messages.watchers import Watchers
from bot.seam.contract import LiveTable, Rendered
from bot.seam.features import Features
from db.errors import StoreError
from db.records import MessageNotes, OldCopy, ResultRow
from db.store import Store
from games.common.engine import Event
from locales import N_, _, speaking

log = logging.getLogger(__name__)

#: how long a table edit waits for the changes that follow at once (a computer's quick answer)
COALESCE = 0.05


class Presenter:
    def __init__(self, client: discord.Client, store: Store, features: Features) -> None:
        self.client = client
        self.store = store
        #: the registered features: how a lobby and a spectator's view look
        self.features = features
        #: how the displays wait (between tries, and to coalesce); the table manager hands it the
        #: clock's, so that the local mode's clock wakes these pauses too
        self.sleep: Sleep = asyncio.sleep
        self.coalesce = COALESCE
        self.displays: dict[int, Display] = {}
        #: the players' open private panels, redrawn by the bot after each committed move
        self.panels = Panels(client)
        #: the spectators' views, redrawn (coalesced) whenever a table changes
        self.watchers = Watchers(
            sleep=lambda seconds: self.sleep(seconds),
            coalesce=lambda: self.coalesce,
            features=features,
            face=self.live_face,
            speech=self.in_channel,
        )
        self._following: set[asyncio.Task[None]] = set()
        #: what the channels show, still to write: with the next move of any game (:meth:`take_notes`),
        #: at a stop, or found again in the channel after a crash (:mod:`bot.messages.found_again`). None: each
        #: is written at once (a sharded bot: another process may read a table's message meanwhile)
        self.notes: MessageNotes | None = MessageNotes()

    def live_face(self, table: LiveTable) -> Rendered:
        """The live table as it looks now, drawn once a look with the table's display (which the
        spectators' views share), or drawn anew for a table nothing is showing."""
        display = self.displays.get(table.id)
        if display is None or display.table is not table:
            return table.kind.table(table, [])
        return display.live_face()

    def in_channel(self, table: LiveTable) -> contextlib.AbstractContextManager[str]:
        """Speak what ``table``'s channel reads (a notice on the table, a line in the channel),
        whoever's press caused it."""
        return in_channel(self.client, table.record.guild_id, table.record.options)

    def _channel(self, table: LiveTable) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)

    def display(self, table: LiveTable) -> Display:
        display = self.displays.get(table.id)
        if display is None or display.table is not table:
            display = Display(
                self.client,
                self.store,
                table,
                sleep=lambda seconds: self.sleep(seconds),
                coalesce=self.coalesce,
                on_done=self._done,
                on_post=lambda: self._follow(table),
                notes=self.notes,
            )
            self.displays[table.id] = display
        return display

    def take_notes(self) -> MessageNotes | None:
        """The notes still to write, for a write about to be made (emptied here; :meth:`keep_notes`
        puts them back should that write fail)."""
        if not self.notes:
            return None
        taken = MessageNotes(dict(self.notes.messages), dict(self.notes.finales), dict(self.notes.closed))
        self.notes.messages.clear()
        self.notes.finales.clear()
        self.notes.closed.clear()
        return taken

    def keep_notes(self, taken: MessageNotes | None) -> None:
        """Notes taken for a write that failed: still to write (those noted since stand)."""
        if taken is None or self.notes is None:
            return
        for game_id, message in taken.messages.items():
            self.notes.messages.setdefault(game_id, message)
        for game_id, revealed in taken.finales.items():
            self.notes.finales.setdefault(game_id, revealed)
        for game_id, closed in taken.closed.items():
            self.notes.closed.setdefault(game_id, set()).update(closed)

    def _follow(self, table: LiveTable) -> None:
        """The table was posted anew: the open panels are sent again below it (a task of its own,
        so the display's pass, and whoever waits on it, does not wait on the panels)."""
        task = asyncio.get_running_loop().create_task(self.panels.follow(table), name=f"panels follow game {table.id}")
        self._following.add(task)
        task.add_done_callback(self._followed)

    def _followed(self, task: asyncio.Task[None]) -> None:
        self._following.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sending the panels below the new table failed", exc_info=task.exception())

    def _done(self, display: Display) -> None:
        if self.displays.get(display.table.id) is display:
            del self.displays[display.table.id]

    async def settled(self, table: LiveTable, timeout: float = 1.5) -> Fault | None:
        """Wait (briefly) until the channel shows the table; what stands in the way if it does not."""
        return await self.display(table).settled(timeout)

    async def close(self) -> None:
        """Stop every display loop and wait for it, so a graceful stop logs no cancelled task."""
        tasks = [task for display in list(self.displays.values()) for task in display.close()]
        tasks += self.watchers.close()
        await asyncio.gather(*tasks, *self._following, return_exceptions=True)
        # What the next start must know (an old copy still to close, the panels players have open)
        # is written now, if it can be.
        try:
            await self.store.save_panels(self.panels.saved())
        except Exception:
            log.exception("could not save the open panels at the stop; their players press My hand again")
        for display in list(self.displays.values()):
            try:
                await display.saves.run()
            except Exception:
                log.exception("game %s: could not save the display's state at the stop", display.table.id)
        notes = self.take_notes()
        if notes is not None:
            try:
                await self.store.write_notes(notes)
            except Exception:  # found again in the channels at the next start
                log.exception("could not write what the channels show at the stop")

    # -- the table message --------------------------------------------------------------------
    async def update(
        self, table: LiveTable, events: list[Event] | None = None, interaction: discord.Interaction | None = None
    ) -> bool:
        """The table changed: it will show it. Through the interaction's own answer when the click
        came from the table message (then returns True once shown), else by the display loop."""
        display = self.display(table)
        display.want.face = display.live_face
        display.want.version += 1
        self.watchers.changed(table)
        if _from_message(interaction, table.record.message_id) and not display.want.post:
            assert interaction is not None
            try:
                # (the move's one rendering, shared with the spectators: the display has nothing left to show)
                await interaction.response.edit_message(**display.live_face().kwargs())
            except TRANSIENT:
                log.warning("game %s: the answer that shows the table failed; the display retries", table.id)
            else:
                display.want.shown = display.want.version
                return True
        else:
            await _acknowledge(interaction)
        display.wake()
        return False

    def closing(self, table: LiveTable, events: list[Event], interaction: discord.Interaction | None) -> Closing:
        """A move that ends the deal or the game closes the table message: its last look, drawn
        once (before the move is committed, so that the copy still to close is saved in the move's
        own transaction; shown only once it is committed)."""
        with speaking(self.display(table).language()):  # the channel's words, whoever pressed
            rendered = table.kind.closing(table, events)
        message_id = table.record.message_id
        want = self.display(table).want
        if message_id is None or want.post or _from_message(interaction, message_id):
            # (no message, or a deal's table still to post: the message on record is an older one;
            # a click from the table message: its answer closes it, nothing left to close later)
            return Closing(rendered)
        return Closing(rendered, OldCopy(table.id, message_id, look_of(rendered)))

    async def show_move(
        self,
        table: LiveTable,
        events: list[Event],
        before_key: Any,
        interaction: discord.Interaction | None,
        results: list[ResultRow] | None,
        closing: Closing | None = None,
    ) -> bool:
        """Show a committed move: the table edited, or (a deal or the game ended) the old table
        closed (``closing``, drawn by :meth:`closing`) and the next deal's table posted, or the
        final standings. Returns whether the interaction's own answer showed it (False: the
        display shows it as soon as it can)."""
        engine = table.engine
        assert engine is not None
        if table.kind.message_key_of(engine) == before_key and not engine.is_over:
            return await self.update(table, events, interaction)
        if closing is None:
            closing = self.closing(table, events, interaction)
        self.watchers.changed(table)
        display = self.display(table)
        want = display.want
        last = closing.rendered
        shown = False
        if _from_message(interaction, table.record.message_id) and not want.post:
            assert interaction is not None
            try:
                await interaction.response.edit_message(**last.kwargs())
                shown = True
            except TRANSIENT:
                # Left unanswered: the move pipeline tells the player it was saved.
                log.warning("game %s: the answer that closes the deal failed; the display retries", table.id)
        else:
            await _acknowledge(interaction)
        if not shown:
            if table.record.message_id is not None and not want.post:
                # (While a deal's table waits to be posted, the message on record is an older one.)
                saved = closing.copy is not None and closing.copy.message_id == table.record.message_id
                display.retire(table.record.message_id, lambda: last, saved=saved)
        if engine.is_over:
            want.face, want.shown, want.post = None, want.version, False
            self.post_finale(table, results or [])
            return shown
        self._new_table(table, events)
        return shown

    def _new_table(self, table: LiveTable, events: list[Event]) -> None:
        """A new deal: its hands go out by DM, then its table is posted as a new message."""
        display = self.display(table)
        want = display.want
        want.face, want.post = display.live_face, True
        # a player whose live panel the bot will redraw with the new hand needs no DM of it
        want.hands = {s.seat for s in table.seats if not self.panels.live(table, s.seat)}
        want.version += 1
        display.wake()

    def show_ended(self, table: LiveTable, by: str) -> None:
        """The host ended the game: the table shows it, without controls."""
        if table.engine is None or table.record.message_id is None:
            return
        display = self.display(table)

        def ended() -> Rendered:
            rendered = table.kind.table(table, [])
            # the game is over: the shuffle's seed is revealed
            return Rendered(
                content=_with_reveal(_("🛑 Game ended by {by}.", by=by), table), embeds=rendered.embeds, view=None
            )

        display.want.face, display.want.post, display.want.hands = ended, False, set()
        if says_checkable(table):
            # kept like a finale that said it: a restart's comparison does not tell this channel again
            display.save("ended: told checkable", lambda: self.store.set_finale_shown(table.id, revealed=True))
        display.changed()
        self.watchers.changed(table)

    def post_new_table(self, table: LiveTable, events: list[Event]) -> None:
        """The first deal: hands by DM first (so the table can say whose DMs failed), then the table."""
        assert table.engine is not None
        self._new_table(table, events)

    def redraw(self, table: LiveTable) -> None:
        """The table looks different with no move made (its language changed): it is drawn again."""
        self.display(table).changed()
        self.watchers.changed(table)

    def key_text(self, table: LiveTable) -> str | None:
        return json.dumps(table.kind.message_key_of(table.engine)) if table.engine is not None else None

    def repost(self, table: LiveTable, *, with_hands: bool = False) -> None:
        """Post the table afresh (lost in a busy channel, or never posted before a crash). The old
        copy loses its controls and points below, once the new one is up."""
        display = self.display(table)
        if with_hands:
            display.want.hands = {s.seat for s in table.seats}
        display.move_below()

    def resume(self, table: LiveTable) -> None:
        """After a restart: whatever the channel may have missed is shown (the table re-posted if
        its deal was never posted, else edited once to the true state)."""
        if table.record.message_key != self.key_text(table) or table.record.message_id is None:
            self.repost(table, with_hands=True)
        else:
            self.display(table).changed()

    def close_old_copy(self, table: LiveTable, copy: OldCopy) -> None:
        """After a restart: an old copy of ``table`` the stopped bot had not closed yet."""
        self.display(table).restore_old(copy)

    async def show_again(self, table: LiveTable) -> None:
        """Post a table, or a lobby, as a new message (the local mode's channel starts empty)."""
        if table.engine is None:
            await self.post_lobby(table)
        else:
            self.repost(table)

    async def answer(self, interaction: discord.Interaction, rendered: Rendered) -> None:
        """Answer a click by redrawing the (private) message it came from."""
        await interaction.response.edit_message(**rendered.kwargs())

    async def saved_not_shown(self, interaction: discord.Interaction, table: LiveTable) -> None:
        """The move is saved but its answer could not show it: say so, truthfully."""
        text = _(
            "✅ Your move was saved. The table isn't updated yet: it will catch up by itself (or type /{key} table).",
            key=table.kind.key,
        )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except TRANSIENT:
            log.warning("game %s: could not tell a player their move was saved", table.id)

    # -- the lobby ----------------------------------------------------------------------------
    def _lobby(self, table: LiveTable) -> Rendered:
        lobby = self.features.lobby
        if lobby is None:
            raise RuntimeError("no lobby renderer: no feature registered one")
        return lobby(table)

    def lobby(self, table: LiveTable) -> Rendered:
        """The lobby's message as the channel reads it (in its language, whoever pressed)."""
        with speaking(self.display(table).language()):
            return self._lobby(table)

    async def post_lobby(self, table: LiveTable) -> None:
        message = await self._channel(table).send(**self.lobby(table).kwargs())
        await self.remember_message(table, message.id)

    async def refresh_lobby(self, table: LiveTable) -> None:
        """The lobby changed: its message shows it, through the display (retried, coalesced)."""
        if table.record.message_id is None:
            return
        display = self.display(table)
        display.want.face = lambda: self._lobby(table)
        display.changed()

    async def edit_message(self, table: LiveTable, rendered: Rendered) -> None:
        """Show ``rendered`` on the table's message (a lobby closed by a command) if it has one,
        through the display (retried until it is shown)."""
        if table.record.message_id:
            display = self.display(table)
            display.want.face, display.want.post = (lambda: rendered), False
            display.changed()

    def lobby_closed(self, table: LiveTable) -> None:
        """The lobby's message was closed by the answer to a click: an edit still pending must
        not put the lobby back on it."""
        display = self.displays.get(table.id)
        if display is not None:
            display.want.shown = display.want.version

    async def remember_message(self, table: LiveTable, message_id: int) -> None:
        """The lobby was posted as the answer to ``/<game> new``: its message is the table's. The
        lobby is open whatever the store says now: a failed write is tried again by the display."""
        table.record.message_id = message_id
        try:
            await self.store.set_message(table.id, message_id)
        except StoreError as error:
            log.warning("game %s: could not save the lobby's message yet: %s", table.id, error)
            self.display(table).save("message", lambda: self.store.set_message(table.id, message_id))

    # -- lines in the channel -----------------------------------------------------------------
    async def announce(
        self, channel_id: int, guild_id: int | None, text: str | None, rendered: Rendered | None = None
    ) -> None:
        """A message in a channel that may hold no live table (a duplicate match's comparison, or
        that it closed itself)."""
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            if text is not None:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            if rendered is not None:
                await channel.send(**rendered.send_kwargs(), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id, exc_info=True)

    def post_finale(self, table: LiveTable, results: list[ResultRow]) -> None:
        """The final standings: posted once, retried until they are (after a restart too: the
        store keeps whether they were shown)."""

        async def shown() -> None:
            if self.notes is not None:  # (written with the next move, or found again in the channel)
                self.notes.finales[table.id] = says_checkable(table)
                return
            display = self.display(table)
            closed = display.saves.closed_copies()  # (the table the last move closed: forgotten in the same write)
            await self.store.set_finale_shown(table.id, revealed=says_checkable(table), closed=closed)
            display.saves.dropped(closed)

        def standings() -> Rendered:
            rendered = table.kind.finale(table, results)
            rendered.content = _with_reveal(rendered.content, table)  # the game is over: the seed is revealed
            return rendered

        self.display(table).add_line(Line(N_("posting the final standings"), standings, key="finale", on_sent=shown))

    def remind(
        self,
        table: LiveTable,
        text: Callable[[], str | None] | str,
        mentions: Callable[[], discord.AllowedMentions] | None = None,
    ) -> None:
        """A turn reminder, pinging the people it names (or those ``mentions`` allows). ``text``
        may be a function, called when the line is sent: it returns ``None`` once the reminder is
        out of date (the turn moved on). A newer reminder replaces one not yet sent."""
        say = text if callable(text) else (lambda: text)

        def render() -> Rendered | None:
            line = say()
            return None if line is None else Rendered(content=line)

        self.display(table).add_line(
            Line(N_("sending a reminder"), render, key="remind", pings=True, mentions=mentions)
        )

    def ping(
        self, table: LiveTable, text: Callable[[], str | None], mentions: Callable[[], discord.AllowedMentions]
    ) -> None:
        """A turn ping (:mod:`bot.tables.pings`): ``text`` is called when the line is sent (``None``: out
        of date, nothing sent), then ``mentions``, the people it may ping."""

        def render() -> Rendered | None:
            line = text()
            return None if line is None else Rendered(content=line)

        self.display(table).add_line(Line(N_("pinging a player"), render, key="ping", pings=True, mentions=mentions))

    def tell(self, table: LiveTable, text: str) -> None:
        """One line in the table's channel, pinging nobody (the clock's warnings)."""
        self.display(table).add_line(Line(N_("posting a warning"), lambda: Rendered(content=text), key=f"tell:{text}"))


async def _acknowledge(interaction: discord.Interaction | None) -> None:
    """A click from elsewhere than the table (a private panel, an old copy) that nothing answered
    yet: acknowledged silently; the display shows the move on the table."""
    if interaction is None or interaction.response.is_done() or interaction.message is None:
        return
    try:
        await interaction.response.defer()
    except TRANSIENT:
        log.warning("could not acknowledge a click", exc_info=True)


def _from_message(interaction: discord.Interaction | None, message_id: int | None) -> bool:
    """The click came from the table message and is not answered yet: its answer edits the table
    (unless the message is too old for Discord to edit: then the display posts it again)."""
    return (
        interaction is not None
        and not interaction.response.is_done()
        and interaction.message is not None
        and interaction.message.id == message_id
        and not too_old_to_edit(message_id)
    )


@dataclass(frozen=True, slots=True)
class Closing:
    """The last look of a table message that a move closes, drawn once: shown by the move's
    answer or edited in by the display; ``copy``, when the display is to close it, is saved with
    the move (:meth:`db.store.Store.record_action`)."""

    rendered: Rendered
    copy: OldCopy | None = None


def look_of(rendered: Rendered) -> dict[str, Any]:
    """What a restart needs to close an old copy as it was to end: its text and embeds."""
    return {"content": rendered.content, "embeds": [e.to_dict() for e in rendered.embeds]}


def _with_reveal(content: str | None, table: LiveTable) -> str | None:
    """A game-over message's text with the shuffle's seed revealed (when the game had a commitment)."""
    reveal = reveal_line(table)
    return content if reveal is None else f"{content}\n{reveal}" if content else reveal
