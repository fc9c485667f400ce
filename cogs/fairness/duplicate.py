"""``/<game> duplicate new tables:N`` and ``/<game> duplicate join code:…``: a duplicate match, two
or more tables (channels, or servers) that play the very same deck orders with the same rules,
seat for seat. Each table is an ordinary lobby linked to the match; the first to start fixes the
rules and player count, and every table deals from the match's seed (:func:`bot.fairness.shuffles.match_deal`).
When the last table is over, :mod:`bot.fairness.duplicate` posts the comparison in every table's channel.
``/<game> duplicate close code:…``: a match whose other tables never come is closed by its host
(or a manager of its server) with the tables it has; it is over once those are. One not closed
closes itself once ``MATCH_EXPIRY_DAYS`` have passed (:mod:`bot.fairness.match_expiry`)."""

from __future__ import annotations

import contextlib
import secrets

import discord
from discord import app_commands

from bot.client import manages_server, tables_of
from bot.fairness.duplicate import closed_text, closing_text, expiry_note, expiry_stamp, finish, full_text, may_close
from bot.fairness.shuffles import match_done, new_salt, new_seed
from bot.messages.errors import Refusal
from bot.messages.speech import in_channel, pgettext
from bot.seam.contract import AnyKind
from bot.tables import secrecy
from bot.tables.secrecy import Door
from db.errors import StoreConflict, StoreError
from db.records import GameRecord, MatchRecord
from db.store import Store
from games.common.text import quoted
from locales import _

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


def add_duplicate_commands(group: app_commands.Group, kind: AnyKind) -> None:
    duplicate = app_commands.Group(
        name="duplicate",
        description=pgettext("command description", "Several tables play the same cards, seat for seat"),
        parent=group,
    )

    @duplicate.command(
        name="new",
        description=pgettext("command description", "Open a duplicate match: this channel is its first table"),
    )
    @app_commands.describe(tables=pgettext("option description", "How many tables will play the same cards (2 to 8)"))
    async def new(interaction: discord.Interaction, tables: app_commands.Range[int, 2, 8] = 2) -> None:
        await _new_match(interaction, kind, tables)

    @duplicate.command(
        name="join", description=pgettext("command description", "Open a table of a duplicate match in this channel")
    )
    @app_commands.describe(code=pgettext("option description", "The match's code (the host of its first table has it)"))
    async def join(interaction: discord.Interaction, code: str) -> None:
        store = tables_of(interaction).store
        match = await _match(store, kind, code)
        if match.closed_at is not None:
            raise Refusal(closed_text(match))
        games = await store.match_games(match.id)
        if not games:  # its lobbies were all cancelled (a cancelled lobby leaves its match)
            raise Refusal(
                _(
                    "Duplicate match **{code}** has no table open any more: its lobby was cancelled. Open a new match"
                    " with `/{key} duplicate new`.",
                    code=match.code,
                    key=kind.key,
                )
            )
        if len(games) >= match.tables:
            raise Refusal(full_text(match))
        if any(g.channel_id == interaction.channel_id for g in games):
            raise Refusal(_("This channel is already a table of that match."))
        await _open(interaction, kind, match, like=games[0])

    @duplicate.command(
        name="close",
        description=pgettext("command description", "Close a duplicate match with the tables it has (its host)"),
    )
    @app_commands.describe(code=pgettext("option description", "The match's code"))
    async def close(interaction: discord.Interaction, code: str) -> None:
        await _close_match(interaction, kind, code)


async def _new_match(interaction: discord.Interaction, kind: AnyKind, tables: int) -> None:
    """``/<game> duplicate new``: a match with a free code, this channel its first table (the
    match is discarded if that table cannot open: nobody was told its code)."""
    manager = tables_of(interaction)  # ("tables" is the count asked for)
    if manager.seating.one_channel:  # the local page: no second channel for a second table
        raise Refusal(
            _(
                "A duplicate match needs a channel for each of its tables, and this page has one:"
                " play duplicate matches on Discord."
            )
        )
    store = manager.store
    seed, salt = new_seed(), new_salt().hex()
    expires = expiry_stamp(discord.utils.utcnow(), manager.settings.match_expiry_days)
    match: MatchRecord | None = None
    for _attempt in range(5):
        code = "".join(secrets.choice(CODE_LETTERS) for _letter in range(6))
        try:
            match = await store.create_match(
                kind.key, code, interaction.guild_id, interaction.user.id, tables, seed, salt, expires
            )
            break
        except StoreConflict:
            continue
    if match is None:
        raise Refusal(_("I could not find a free match code: try again."))
    try:
        await _open(interaction, kind, match)
    except Exception:
        # its first table could not open (the channel is busy): nobody was told its code, so
        # it would stay open and unseen for ever
        with contextlib.suppress(StoreError):
            await store.discard_match(match.id)
        raise


async def _close_match(interaction: discord.Interaction, kind: AnyKind, code: str) -> None:
    """``/<game> duplicate close``: its host (or a manager) closes the match with the tables it
    has; each table's channel is told, and the comparison is posted once the policy allows it."""
    tables = tables_of(interaction)
    match = await _match(tables.store, kind, code)
    if not may_close(match, interaction.user.id, interaction.guild_id, manages_server(interaction)):
        raise Refusal(
            _("Only the match's host (who opened its first table) or a member who can manage its server can close it.")
        )
    closed_already = _("Duplicate match **{code}** is closed already.", code=match.code)
    if match.closed_at is not None:
        raise Refusal(closed_already)
    opened = await tables.store.match_games(match.id)
    if not opened:
        raise Refusal(_("Duplicate match **{code}** has no table to close it with.", code=match.code))
    if match_done(match, opened):
        raise Refusal(_("Duplicate match **{code}** is over already: all its tables have played.", code=match.code))
    closed = await tables.store.close_match(match.id)
    if closed is None:  # closed by another call since it was read (its host and a manager at once)
        raise Refusal(closed_already)
    match = closed
    # the tables read after the close is committed: a table ending meanwhile either shows here
    # as over, or reads the match as closed when it ends (bot.fairness.duplicate.prepare) and finishes it
    games = await tables.store.match_games(match.id)
    here = next((g for g in games if g.channel_id == interaction.channel_id), None)
    with in_channel(interaction.client, interaction.guild_id, here.options if here is not None else {}):
        said = closing_text(match, games)  # posted for the whole channel: in its language
    await interaction.response.send_message(said)
    if secrecy.match_allows(Door.COMPARISON, match, games):
        await finish(tables.store, tables.presenter, kind, games)


async def _match(store: Store, kind: AnyKind, code: str) -> MatchRecord:
    """The match of ``kind`` with ``code`` (as typed), or the refusal that there is none."""
    match = await store.match_by_code(code.strip().upper())
    if match is None or match.kind != kind.key:
        raise Refusal(
            _(
                "There is no {game} duplicate match with the code {code}.",
                game=kind.title,
                code=quoted(code.strip().upper()),
            )
        )
    return match


async def _open(
    interaction: discord.Interaction, kind: AnyKind, match: MatchRecord, like: GameRecord | None = None
) -> None:
    """This channel's table of ``match`` (:meth:`bot.tables.seating.Seating.open_match_table`), then its
    lobby and the note of which table it is."""
    tables = tables_of(interaction)
    lobby = tables.features.lobby  # the lobby feature's renderer, read from the registered features
    if lobby is None:
        raise Refusal(_("Tables cannot be opened here: the lobby is not loaded."))
    table, number = await tables.seating.open_match_table(
        kind, interaction.guild_id, interaction.channel_id or 0, interaction.user, match, like
    )
    async with table.lock:
        await interaction.response.send_message(**tables.presenter.lobby(table).kwargs())
        message = await interaction.original_response()
        await tables.presenter.remember_message(table, message.id)
    with tables.presenter.in_channel(table):  # posted for the whole channel
        said = _(
            "⚖️ This is table {number} of {tables} of duplicate match **{code}**: every table plays the same"
            " cards, seat for seat, with the rules and player count of the first table to start. Open the other"
            " tables with `/{key} duplicate join code:{code}` (in another channel or server).",
            number=number,
            tables=match.tables,
            code=match.code,
            key=table.kind.key,
        ) + expiry_note(match, number)
    await interaction.followup.send(said)
