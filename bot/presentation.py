"""Presentation: the one module that posts, edits and DMs a table's messages.

The table message (edited in place, or posted afresh for a new deal), hands sent by DM, the final
standings, reminders and the clock's one-line warnings all go out from here, so how the bot
talks to Discord for a table (and what it does when Discord refuses) is decided in one place.
What a message *says* comes from the game's :class:`~bot.contract.GameKind` (or, for a lobby,
the lobby cog's renderer registered in :attr:`Presenter.lobby`). Answering a click may stay
with the code handling the click; when a move's click came from the table message itself, the
table is edited through that answer (no extra REST call).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.contract import LiveTable, Rendered
from bot.fairness import reveal_line
from db.store import ResultRow, Store
from games.common.engine import Event

log = logging.getLogger(__name__)

LobbyRenderer = Callable[[LiveTable], Rendered]


class Presenter:
    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store
        #: how a lobby looks; the lobby cog puts its renderer here in its ``setup()``
        self.lobby: LobbyRenderer | None = None

    def _channel(self, table: LiveTable) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)

    # -- the table message --------------------------------------------------------------------
    async def show(self, table: LiveTable, rendered: Rendered, interaction: discord.Interaction | None) -> None:
        """Edit the table message: through the interaction's own answer when it came from that
        message (no extra REST call), else with one edit."""
        message_id = table.record.message_id
        if (
            interaction is not None
            and not interaction.response.is_done()
            and interaction.message is not None
            and interaction.message.id == message_id
        ):
            await interaction.response.edit_message(**rendered.kwargs())
            return
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()
        if message_id is None:
            return
        try:
            await self._channel(table).get_partial_message(message_id).edit(**rendered.kwargs())
        except discord.NotFound:
            await self.post_table(table, rendered)
        except discord.HTTPException:
            log.warning("could not edit the table of game %s", table.id, exc_info=True)

    async def show_move(
        self,
        table: LiveTable,
        events: list[Event],
        before_key: Any,
        interaction: discord.Interaction | None,
        results: list[ResultRow] | None,
    ) -> None:
        """Show a committed move: the table edited, or (a deal or the game ended) the old table
        closed and the next deal's table posted, or the final standings."""
        engine = table.engine
        assert engine is not None
        new_message = table.kind.message_key(engine) != before_key or engine.is_over
        if not new_message:
            await self.show(table, table.kind.table(table, events), interaction)
            return
        await self.show(table, table.kind.closing(table, events), interaction)
        if engine.is_over:
            await self.post_finale(table, results or [])
            return
        try:
            await self.post_new_table(table, events)
        except discord.HTTPException:
            # The move is saved; the table can be brought back with /<game> table (or by a restart).
            log.warning("could not post the new table of game %s", table.id, exc_info=True)

    async def show_ended(self, table: LiveTable, by: str) -> None:
        """The host ended the game: the table shows it, without controls."""
        if table.engine is not None and table.record.message_id is not None:
            rendered = table.kind.table(table, [])
            rendered.view = None
            rendered.content = _with_reveal(f"🛑 Game ended by {by}.", table)
            await self.show(table, rendered, None)

    async def post_new_table(self, table: LiveTable, events: list[Event]) -> None:
        """A new deal: hands go out privately first, so the table can say whose DMs failed."""
        assert table.engine is not None
        await self.send_hands(table)
        await self.post_table(table, table.kind.table(table, events))

    async def post_table(self, table: LiveTable, rendered: Rendered) -> None:
        message = await self._channel(table).send(**rendered.send_kwargs())
        key = self.key_text(table)
        table.record.message_id, table.record.message_key = message.id, key
        await self.store.set_message(table.id, message.id, key)

    def key_text(self, table: LiveTable) -> str | None:
        return json.dumps(table.kind.message_key(table.engine)) if table.engine is not None else None

    async def repost(self, table: LiveTable, *, with_hands: bool = False) -> None:
        """Post the table afresh (lost in a busy channel, or never posted before a crash); the
        old message's buttons then answer that it is out of date."""
        if with_hands:
            await self.send_hands(table)
        await self.post_table(table, table.kind.table(table, []))

    async def show_again(self, table: LiveTable) -> None:
        """Post a table, or a lobby, as a new message (the local mode's channel starts empty)."""
        if table.engine is None:
            await self.post_lobby(table)
        else:
            await self.repost(table)

    async def answer(self, interaction: discord.Interaction, rendered: Rendered) -> None:
        """Answer a click by redrawing the (private) message it came from."""
        await interaction.response.edit_message(**rendered.kwargs())

    # -- the lobby ----------------------------------------------------------------------------
    def _lobby(self, table: LiveTable) -> Rendered:
        if self.lobby is None:
            raise RuntimeError("no lobby renderer: the lobby cog is not loaded")
        return self.lobby(table)

    async def post_lobby(self, table: LiveTable) -> None:
        message = await self._channel(table).send(**self._lobby(table).kwargs())
        await self.remember_message(table, message.id)

    async def refresh_lobby(self, table: LiveTable) -> None:
        if table.record.message_id is None:
            return
        await self._channel(table).get_partial_message(table.record.message_id).edit(**self._lobby(table).kwargs())

    async def edit_message(self, table: LiveTable, rendered: Rendered) -> None:
        """Edit the table's message (a lobby closed by a command) if it has one."""
        if table.record.message_id:
            await self._channel(table).get_partial_message(table.record.message_id).edit(**rendered.kwargs())

    async def remember_message(self, table: LiveTable, message_id: int) -> None:
        """The lobby was posted as the answer to ``/<game> new``: its message is the table's."""
        table.record.message_id = message_id
        await self.store.set_message(table.id, message_id)

    # -- private messages ---------------------------------------------------------------------
    async def send_hands(self, table: LiveTable) -> None:
        for seat in table.seats:
            if seat.user_id is None or seat.ai_level is not None or seat.dm_closed:
                continue
            rendered = table.kind.dm(table, seat.seat)
            if rendered is None:
                continue
            try:
                channel = await self.client.create_dm(discord.Object(seat.user_id))
                await channel.send(**rendered.send_kwargs())
            except discord.Forbidden:
                seat.dm_closed = True
                await self.store.update_seat(table.id, seat)
                table.notice(
                    f"📪 I can't DM {seat.name} (their DMs are closed): "
                    f"they can use **{table.kind.hand_button}** instead."
                )
            except discord.HTTPException:
                log.warning("could not DM seat %s of game %s", seat.seat, table.id, exc_info=True)

    # -- lines in the channel -----------------------------------------------------------------
    async def post_finale(self, table: LiveTable, results: list[ResultRow]) -> None:
        rendered = table.kind.finale(table, results)
        rendered.content = _with_reveal(rendered.content, table)
        try:
            await self._channel(table).send(**rendered.send_kwargs())
        except discord.HTTPException:
            log.warning("could not post the final standings of game %s", table.id, exc_info=True)

    async def announce(self, channel_id: int, guild_id: int | None, text: str | None, rendered: Rendered) -> None:
        """A message in a channel that may hold no live table (a duplicate match's comparison)."""
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            if text is not None:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            await channel.send(**rendered.send_kwargs(), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id, exc_info=True)

    async def remind(self, table: LiveTable, text: str) -> None:
        """A turn reminder, pinging the people it names."""
        try:
            await self._channel(table).send(text, allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException:
            log.warning("could not send a reminder in game %s", table.id, exc_info=True)

    async def tell(self, table: LiveTable, text: str) -> None:
        """One line in the table's channel, pinging nobody (the clock's warnings)."""
        try:
            await self._channel(table).send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the channel of game %s: %s", table.id, text, exc_info=True)


def _with_reveal(content: str | None, table: LiveTable) -> str | None:
    """A game-over message's text with the shuffle's seed revealed (when the game had a commitment)."""
    reveal = reveal_line(table)
    return content if reveal is None else f"{content}\n{reveal}" if content else reveal
