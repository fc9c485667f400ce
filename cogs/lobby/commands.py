"""The lobby's commands in each game's group (:mod:`bot.seam.groups`): ``/<game> new``, ``set``,
``rules``, ``scores``, ``table``, ``leave``, ``back``, ``end`` and ``handover``
(:mod:`cogs.lobby.handover`), added by
:func:`add_lobby_commands` at the lobby's setup; ``set`` is :mod:`cogs.lobby.options`. Each
command's body is a module function the registration calls.

Commands change tables only through the runtime (``bot.tables``: its seating and presenter);
``/<game> scores`` of a finished game reads the stored result from the store (a read, no write).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client import tables_of
from bot.messages.errors import Refusal, mark_committed
from bot.messages.speech import in_channel, pgettext
from bot.seam.contract import AnyKind, LiveTable
from bot.tables import secrecy
from bot.tables.secrecy import Door
from cogs.lobby.controls import channel_lobby
from cogs.lobby.ending import confirm_view, question
from cogs.lobby.handover import add_handover_command
from cogs.lobby.options import option_choices, set_option, value_choices
from cogs.lobby.render import closed_lobby
from draw.budget import Budget
from draw.common import timer_label
from draw.looks import display_lines
from games.common.text import quoted
from locales import _, translate


def add_lobby_commands(group: app_commands.Group, kind: AnyKind) -> None:
    """The lobby's commands in ``kind``'s ``/<game>`` group."""

    async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return preset_choices(kind, current)

    @group.command(
        name="new",
        description=pgettext("command description", "Open a new {game} table in this channel", game=kind.title),
    )
    @app_commands.describe(
        preset=pgettext(
            "option description", "The rule set to start from (the host can change any rule before starting)"
        )
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def new(interaction: discord.Interaction, preset: str | None = None) -> None:
        await _open_table(interaction, kind, preset)

    async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return option_choices(kind, current)

    async def value_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return value_choices(kind, getattr(interaction.namespace, "option", None), current)

    @group.command(
        name="set", description=pgettext("command description", "Change one rule before the start (host only)")
    )
    @app_commands.describe(
        option=pgettext("option description", "The rule to change"),
        value=pgettext("option description", "Its new value"),
    )
    @app_commands.autocomplete(option=option_autocomplete, value=value_autocomplete)
    async def set_command(interaction: discord.Interaction, option: str, value: str) -> None:
        await set_option(interaction, kind, live_table(interaction, kind), option, value)

    @group.command(
        name="pings",
        description=pgettext("command description", "Turn pings for your turn on or off, for yourself (every table)"),
    )
    @app_commands.describe(
        setting=pgettext("option description", "on: a table that pings may ping you when it waits on you; off: never")
    )
    @app_commands.choices(  # (what a client shows in its language; the value the bot reads stays)
        setting=[
            app_commands.Choice(name=pgettext("option choice", "on"), value="on"),
            app_commands.Choice(name=pgettext("option choice", "off"), value="off"),
        ]
    )
    async def pings(interaction: discord.Interaction, setting: str) -> None:
        await _set_pings(interaction, kind, setting == "on")

    @group.command(
        name="rules", description=pgettext("command description", "The rules in force at this table (or of a preset)")
    )
    @app_commands.describe(
        preset=pgettext("option description", "A preset whose rules to show (default: this table's, else the usual)")
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(interaction: discord.Interaction, preset: str | None = None) -> None:
        await _show_rules(interaction, kind, preset)

    @group.command(
        name="scores", description=pgettext("command description", "The scores at this table, or of the last game here")
    )
    async def scores(interaction: discord.Interaction) -> None:
        await _show_scores(interaction, kind)

    @group.command(
        name="table", description=pgettext("command description", "Post the table again here (lost it in the chat?)")
    )
    async def table_again(interaction: discord.Interaction) -> None:
        await _post_table_again(interaction, kind)

    @group.command(
        name="leave", description=pgettext("command description", "Leave the lobby, or hand your seat to the computer")
    )
    async def leave(interaction: discord.Interaction) -> None:
        await _leave(interaction, kind)

    @group.command(name="back", description=pgettext("command description", "Take your seat back from the computer"))
    async def back(interaction: discord.Interaction) -> None:
        await _take_back(interaction, kind)

    @group.command(
        name="end",
        description=pgettext("command description", "End the game at this table, after a confirmation (host only)"),
    )
    async def end(interaction: discord.Interaction) -> None:
        await _end(interaction, kind)

    add_handover_command(group, kind)


def live_table(interaction: discord.Interaction, kind: AnyKind) -> LiveTable:
    """The ``kind`` table in the interaction's channel, or a refusal saying how to open one."""
    table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
    if table is None:
        raise Refusal(
            _("There is no {game} table in this channel. Open one with /{key} new.", game=kind.title, key=kind.key)
        )
    return table


def preset_choices(kind: AnyKind, current: str) -> list[app_commands.Choice[str]]:
    """``kind``'s presets matching what is typed, for an autocomplete."""
    wanted = current.lower()
    return [
        app_commands.Choice(name=f"{kind.preset_name(p)} ({p})"[:100], value=p)
        for p in kind.presets
        if wanted in p or wanted in kind.preset_name(p).lower()
    ][:25]


async def _open_table(interaction: discord.Interaction, kind: AnyKind, preset: str | None) -> None:
    """``/<game> new``: a lobby with the preset's rules, its message remembered as the table's."""
    tables = tables_of(interaction)
    chosen = (preset or kind.default_preset).strip().lower()
    if chosen not in kind.presets:
        raise Refusal(
            _(
                "There is no preset called {name}. Presets: {presets}.",
                name=quoted(chosen),
                presets=", ".join(kind.presets),
            )
        )
    table = await tables.seating.open_lobby(
        kind, interaction.guild_id, interaction.channel_id or 0, interaction.user, chosen
    )
    async with table.lock:
        await interaction.response.send_message(**channel_lobby(interaction, table).kwargs())
        message = await interaction.original_response()
        await tables.presenter.remember_message(table, message.id)


async def _set_pings(interaction: discord.Interaction, kind: AnyKind, on: bool) -> None:
    """``/<game> pings``: the player's own choice, for every table."""
    tables = tables_of(interaction)
    await tables.store.set_pings(interaction.user.id, on)
    if on:
        text = _("🔔 Turn pings are on: a table that pings (ping_after) mentions you when it has waited on you.")
    else:
        text = _("🔕 Turn pings are off for you, at every table. `/{key} pings on` turns them back on.", key=kind.key)
    await interaction.response.send_message(text, ephemeral=True)


async def _show_rules(interaction: discord.Interaction, kind: AnyKind, preset: str | None) -> None:
    """``/<game> rules``: a preset's rules (asked for, or the default where no table is), else the
    rules in force at this table with its looks and turn timer."""
    table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
    if preset is not None or table is None:
        name = (preset or kind.default_preset).lower()
        if name not in kind.presets:
            raise Refusal(
                _(
                    "There is no preset called {name}. Presets: {presets}.",
                    name=quoted(name),
                    presets=", ".join(kind.presets),
                )
            )
        rule_set = kind.make_rules(name, {})
        title = _("{game} rules: {preset} (preset {name})", game=kind.title, preset=kind.preset_name(name), name=name)
    else:
        rule_set = (
            table.rules if table.rules is not None else kind.make_rules(table.record.preset, table.record.options)
        )
        title = _("{game}: rules at this table", game=kind.title)
    shown = kind.describe(rule_set)
    if table is not None and preset is None:
        shown += display_lines(table.record.options)
    budget = Budget()
    budget.reserve(100)  # the turn timer below
    embed = budget.embed(title=title)
    budget.describe(embed, [f"• {line}" for line in shown])
    budget.release()
    if table is not None and preset is None:
        budget.field(embed, _("Turn timer"), [timer_label(table.record.turn_seconds)], inline=True)
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def _show_scores(interaction: discord.Interaction, kind: AnyKind) -> None:
    """``/<game> scores``: the game in play here, else the last one played here, as stored."""
    tables = tables_of(interaction)
    table = tables.in_channel(interaction.channel_id or 0, kind.key)
    user, guild = interaction.user.id, interaction.guild_id
    if table is not None and table.engine is not None:
        await secrecy.require(tables.store, Door.SCORES, table.record, user, guild)
        await interaction.response.send_message(**kind.scores(table).send_kwargs(), ephemeral=True)
        return
    await _show_last_result(interaction, kind)


async def _show_last_result(interaction: discord.Interaction, kind: AnyKind) -> None:
    """The result of the last ``kind`` game in this channel, read from the store: the game's own
    score sheet where it draws one, else the places and totals."""
    tables = tables_of(interaction)
    user, guild = interaction.user.id, interaction.guild_id
    last = await tables.store.last_game(interaction.channel_id or 0, kind.key)
    if last is None:
        raise Refusal(_("No {game} game has been played in this channel yet.", game=kind.title))
    await secrecy.require(tables.store, Door.SCORES, last, user, guild)  # a duplicate match's table waits
    rows = await tables.store.results(last.id)
    if not rows:
        raise Refusal(
            _("The last {game} game here (#{number}) was ended before its result.", game=kind.title, number=last.id)
        )
    sheet = kind.stored_scores(last, rows, await tables.store.deal_scores(last.id))
    if sheet is not None:
        await interaction.response.send_message(**sheet.send_kwargs(), ephemeral=True)
        return
    budget = Budget()
    embed = budget.embed(title=_("{game}: result of game #{number}", game=kind.title, number=last.id))
    budget.describe(
        embed,
        [
            f"{row.place}. {row.name}"
            + (f": **{row.total}**" if row.total is not None else "")
            + (f" {kind.loser_mark}" if row.is_loser and kind.loser_mark else "")
            for row in rows
        ],
    )
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def _post_table_again(interaction: discord.Interaction, kind: AnyKind) -> None:
    """``/<game> table``: the table posted again below, and whether it could be."""
    tables = tables_of(interaction)
    table = live_table(interaction, kind)
    if table.engine is None:
        raise Refusal(_("The game has not started yet: the lobby message is the table for now."))
    async with table.lock:
        tables.presenter.repost(table)
    fault = await tables.presenter.settled(table)
    if fault is None:
        await interaction.response.send_message(_("Here is the table again, below."), ephemeral=True)
    elif fault.permission is not None:
        await interaction.response.send_message(
            _(
                "I can't post the table here: I need the **{permission}** permission in this channel. It will"
                " appear by itself once I have it.",
                permission=translate(fault.permission),
            ),
            ephemeral=True,
        )
    else:
        await interaction.response.send_message(
            _("Discord did not let me post the table just now; I keep trying, and it will appear by itself."),
            ephemeral=True,
        )


async def _leave(interaction: discord.Interaction, kind: AnyKind) -> None:
    """``/<game> leave``: out of the lobby, or the seat handed to the computer in a game."""
    tables = tables_of(interaction)
    table = live_table(interaction, kind)
    async with table.lock:
        seat = table.player_seat(interaction.user.id)
        if table.record.status == "lobby":
            if interaction.user.id == table.record.host_id:
                raise Refusal(_("You are the host: press Cancel on the lobby to close the table instead."))
            await tables.seating.remove_seat(table, seat)
            mark_committed(interaction, _("That change"))
            await tables.presenter.refresh_lobby(table)
            await interaction.response.send_message(_("You left the table."), ephemeral=True)
            return
        await tables.seating.leave_game(table, seat)
        await interaction.response.send_message(
            _("The computer plays your seat now. Use /{key} back to take it again.", key=kind.key), ephemeral=True
        )


async def _take_back(interaction: discord.Interaction, kind: AnyKind) -> None:
    """``/<game> back``: the seat the computer played is the player's again."""
    tables = tables_of(interaction)
    table = live_table(interaction, kind)
    async with table.lock:
        seat = table.player_seat(interaction.user.id)  # the one guard of a player's door
        await tables.seating.take_back(table, seat)
        await interaction.response.send_message(_("Your seat is yours again."), ephemeral=True)


async def _end(interaction: discord.Interaction, kind: AnyKind) -> None:
    """``/<game> end``: a lobby is closed at once; a game asks the host to confirm."""
    tables = tables_of(interaction)
    table = live_table(interaction, kind)
    async with table.lock:
        if interaction.user.id != table.record.host_id:
            raise Refusal(_("Only the host can end the game."))
        if table.record.status == "lobby":
            await tables.seating.cancel(table)
            with in_channel(interaction.client, table.record.guild_id, table.record.options):  # said to all
                said = _("The table was closed.")
                closed = closed_lobby(table, _("The table was closed by the host."))
            await interaction.response.send_message(said)
            await tables.presenter.edit_message(table, closed)
            return
        await interaction.response.send_message(question(table.id), view=confirm_view(table.id), ephemeral=True)
