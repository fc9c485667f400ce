"""After a crash: the table messages and final standings the bot posted whose notes were lost,
found again in the channel.

What is only known once Discord answers (a new deal's table message, the standings shown) is
noted in memory and written with the next move (:class:`~db.records.MessageNotes`); a crash loses
those notes. The restarted bot reads the bot's messages after the table's message on record and
takes back those that carry the controls the table or its standings carry now, so it posts
neither a deal's table nor the standings twice.

Kept apart from :mod:`bot.messages.presentation`, which shows what the game is: this side reads
the channel, once, at a start.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

from bot.fairness.shuffles import reveal_line, says_checkable
from bot.messages.display import Line, moved_below
from bot.messages.faults import TRANSIENT
from bot.messages.presentation import Presenter
from bot.seam.contract import LiveTable, Rendered
from db.records import ResultRow
from locales import N_

log = logging.getLogger(__name__)

#: how many of a channel's messages after a table's are read to find its messages after a crash
FIND_LIMIT = 50


async def find_posted(presenter: Presenter, table: LiveTable, like: Rendered) -> list[discord.Message]:
    """The bot's messages in the table's channel after its message on record that carry a control
    of ``like`` (the table as it is, or its standings: one posted whose note was lost; a hand-over
    offer or an end's question carries the game's id too, but none of those controls), oldest
    first; none where the channel cannot be read."""
    after = discord.Object(table.record.message_id) if table.record.message_id is not None else None
    me = presenter.client.user
    wanted = _custom_ids(like.view.children if like.view is not None else [])
    channel = presenter.client.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
    try:
        return [
            message
            async for message in channel.history(limit=FIND_LIMIT, after=after)
            if me is not None and message.author.id == me.id and wanted & _message_ids(message)
        ]
    except TRANSIENT:
        log.warning("game %s: could not read its channel to find its messages", table.id, exc_info=True)
        return []


async def find_table(presenter: Presenter, table: LiveTable) -> None:
    """A table posted whose message the stopped bot never wrote is the table's message again
    (edited to the game as it is); an older one found with it loses its controls."""
    found = await find_posted(presenter, table, presenter.live_face(table))
    if not found:
        return
    display = presenter.display(table)
    *older, newest = found
    table.record.message_id, table.record.message_key = newest.id, presenter.key_text(table)
    display.saves.note_message(newest.id, table.record.message_key)
    for message in older:
        display.retire(message.id, moved_below)


async def find_finale(presenter: Presenter, table: LiveTable, results: list[ResultRow]) -> bool:
    """Whether the final standings of a finished game are in its channel already (their note was
    lost); noted as shown if they are."""
    with presenter.in_channel(table):
        found = await find_posted(presenter, table, table.kind.finale(table, results))
    if not found:
        return False
    # Whether they said the shuffle can be checked is read off them: a duplicate match's table
    # held its seed while another table played, and the match may be over since. If so, the
    # channel is told now, as standings posted now would have told it.
    revealed = says_checkable(table)
    if revealed:
        with presenter.in_channel(table):
            line = reveal_line(table)
        if line is not None and not any(line in (message.content or "") for message in found):
            presenter.display(table).add_line(
                Line(N_("posting the final standings"), lambda: Rendered(content=reveal_line(table)), key="finale")
            )
    if presenter.notes is not None:
        presenter.notes.finales[table.id] = revealed
    else:
        presenter.display(table).save("finale", lambda: presenter.store.set_finale_shown(table.id, revealed=revealed))
    return True


def _custom_ids(items: Iterable[object]) -> set[str]:
    """The custom ids of a view's items, or of a message's component rows (buttons, menus)."""
    ids: set[str] = set()
    for item in items:
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            ids.add(custom_id)
        ids |= _custom_ids(getattr(item, "children", []))
    return ids


def _message_ids(message: discord.Message) -> set[str]:
    return _custom_ids(message.components)
