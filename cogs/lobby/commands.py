"""The lobby's commands in each game's group (:mod:`bot.groups`): ``/<game> new``, ``set``,
``rules``, ``scores``, ``table``, ``leave``, ``back``, ``end`` and ``handover``
(:mod:`cogs.lobby.handover`), added by
:func:`add_lobby_commands` at the lobby's setup.

Commands change tables only through the runtime (``bot.tables``: its seating and presenter);
``/<game> scores`` of a finished game reads the stored result from the store (a read, no write).
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

import locales
from bot import secrecy, speech
from bot.client import tables_of
from bot.contract import AnyKind, LiveTable
from bot.errors import Refusal, mark_committed
from bot.pings import PING_AFTER, parse_ping_after
from bot.secrecy import Door
from cogs.lobby.controls import render_lobby
from cogs.lobby.ending import confirm_view, question
from cogs.lobby.handover import add_handover_command
from cogs.lobby.render import closed_lobby
from draw.budget import Budget
from draw.common import TIMER_CHOICES, parse_timer, timer_label
from draw.looks import DISPLAY_OPTIONS, LANGUAGE, display_lines
from games.common.text import quoted, shorten
from locales import _, catalogue

TIMER_OPTION = "turn_timer"


def chosen_language(value: str) -> str:
    """A table language as the host typed it (``de``, ``de-DE``, ``Deutsch``): its code, or a
    refusal listing those there are."""
    wanted = value.strip().lower()
    for code, name in speech.choices():
        if wanted in (code.lower(), name.lower()) or wanted.split("-")[0] == code:
            return code
    listed = ", ".join(f"{code} ({name})" for code, name in speech.choices())
    raise Refusal(
        _("There is no table language {language}. Languages: {languages}.", language=quoted(value), languages=listed)
    )


def add_lobby_commands(group: app_commands.Group, kind: AnyKind) -> None:
    """The lobby's commands in ``kind``'s ``/<game>`` group."""

    def live_table(interaction: discord.Interaction) -> LiveTable:
        table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
        if table is None:
            raise Refusal(f"There is no {kind.title} table in this channel. Open one with /{kind.key} new.")
        return table

    async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        wanted = current.lower()
        return [
            app_commands.Choice(name=f"{kind.preset_name(p)} ({p})"[:100], value=p)
            for p in kind.presets
            if wanted in p or wanted in kind.preset_name(p).lower()
        ][:25]

    @group.command(name="new", description=f"Open a new {kind.title} table in this channel")
    @app_commands.describe(preset="The rule set to start from (the host can change any rule before starting)")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def new(interaction: discord.Interaction, preset: str | None = None) -> None:
        tables = tables_of(interaction)
        chosen = (preset or kind.default_preset).strip().lower()
        if chosen not in kind.presets:
            raise Refusal(f"There is no preset called {quoted(chosen)}. Presets: {', '.join(kind.presets)}.")
        table = await tables.seating.open_lobby(
            kind, interaction.guild_id, interaction.channel_id or 0, interaction.user, chosen
        )
        async with table.lock:
            with locales.speaking(tables.presenter.language(table)):  # the lobby is the channel's
                lobby = render_lobby(table)
            await interaction.response.send_message(**lobby.kwargs())
            message = await interaction.original_response()
            await tables.presenter.remember_message(table, message.id)

    async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        names = [TIMER_OPTION, *(o.name for o in kind.options()), *DISPLAY_OPTIONS, PING_AFTER, LANGUAGE]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    async def value_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        option = getattr(interaction.namespace, "option", None)
        if option == LANGUAGE:  # each language named in itself, the code its value
            return [
                app_commands.Choice(name=f"{name} ({code})", value=code)
                for code, name in speech.choices()
                if current.lower() in code or current.lower() in name.lower()
            ][:25]
        if option in (TIMER_OPTION, PING_AFTER):
            values: tuple[str, ...] = tuple(TIMER_CHOICES)
        elif option in DISPLAY_OPTIONS:
            values = DISPLAY_OPTIONS[option]
        else:
            spec = next((o for o in kind.options() if o.name == option), None)
            values = spec.values if spec else ()
        return [app_commands.Choice(name=v, value=v) for v in values if current.lower() in v.lower()][:25]

    @group.command(name="set", description="Change one rule before the start (host only)")
    @app_commands.describe(option="The rule to change", value="Its new value")
    @app_commands.autocomplete(option=option_autocomplete, value=value_autocomplete)
    async def set_option(interaction: discord.Interaction, option: str, value: str) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        async with table.lock:
            if table.record.status != "lobby" and option not in (PING_AFTER, LANGUAGE):  # (no rules: any time)
                raise Refusal("The game has already started: rules can only change in the lobby.")
            if tables.seating.starting(table):
                raise Refusal(f"The game is starting: its decks wait for drand round {table.record.beacon_round}.")
            if interaction.user.id != table.record.host_id:
                raise Refusal("Only the host can change the rules.")
            options = dict(table.record.options)
            turn_seconds = table.record.turn_seconds
            if option == TIMER_OPTION:
                try:
                    turn_seconds = parse_timer(value)
                except ValueError as error:
                    raise Refusal(str(error)) from None
            elif option == PING_AFTER:  # when to ping a player not looking: not a rule either
                try:
                    value = parse_ping_after(value)
                except ValueError as error:
                    raise Refusal(str(error)) from None
                options.pop(option, None)
                if value != "off":
                    options[option] = value
            elif option == LANGUAGE:  # what the channel reads: not a rule either
                value = chosen_language(value)
                options.pop(option, None)
                options[option] = value
            elif option in DISPLAY_OPTIONS:  # how the table looks: never part of the game's rules
                value = value.strip().lower()
                if value not in DISPLAY_OPTIONS[option]:
                    raise Refusal(f"{option} is {' or '.join(DISPLAY_OPTIONS[option])}.")
                options.pop(option, None)
                options[option] = value
            else:
                if option not in {o.name for o in kind.options()}:
                    names = ", ".join(o.name for o in kind.options())
                    extra = ", ".join([*DISPLAY_OPTIONS, PING_AFTER])
                    raise Refusal(f"There is no rule called {quoted(option)}. Rules: {TIMER_OPTION}, {names}, {extra}.")
                # set again, it moves last: the later of two related changes (sequence, then
                # fixed_hands) is the one that counts, and a new preset carries them in this order
                options.pop(option, None)
                options[option] = value
            await tables.seating.change_options(table, table.record.preset, options, turn_seconds)
            mark_committed(interaction, "That change")
            if table.record.status == "lobby":
                await tables.presenter.refresh_lobby(table)  # (through the lobby's display: never fails here)
            else:
                tables.clock.kick(table)  # a turn that has no timer yet gets its ping from now
                if option == LANGUAGE:
                    tables.presenter.redraw(table)  # the table message, in its new words
            shown = timer_label(turn_seconds) if option == TIMER_OPTION else shorten(value, 200)
            if option == LANGUAGE:
                name = catalogue.display_name(value)
                text = _(
                    "✅ The table now speaks **{language}**: the lobby, the table and its announcements.", language=name
                )
                await interaction.response.send_message(text, ephemeral=True)
                return
            await interaction.response.send_message(f"✅ {option} is now **{shown}**.", ephemeral=True)

    @group.command(name="pings", description="Turn pings for your turn on or off, for yourself (every table)")
    @app_commands.describe(setting="on: a table that pings may ping you when it waits on you; off: never")
    async def pings(interaction: discord.Interaction, setting: Literal["on", "off"]) -> None:
        tables = tables_of(interaction)
        await tables.store.set_pings(interaction.user.id, setting == "on")
        if setting == "on":
            text = "🔔 Turn pings are on: a table that pings (ping_after) mentions you when it has waited on you."
        else:
            text = "🔕 Turn pings are off for you, at every table. `/" + kind.key + " pings on` turns them back on."
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(name="rules", description="The rules in force at this table (or of a preset)")
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(interaction: discord.Interaction, preset: str | None = None) -> None:
        table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
        if preset is not None or table is None:
            name = (preset or kind.default_preset).lower()
            if name not in kind.presets:
                raise Refusal(f"There is no preset called {quoted(name)}. Presets: {', '.join(kind.presets)}.")
            rule_set, title = kind.make_rules(name, {}), f"{kind.title} rules: {kind.preset_name(name)} (preset {name})"
        else:
            rule_set = (
                table.rules if table.rules is not None else kind.make_rules(table.record.preset, table.record.options)
            )
            title = f"{kind.title}: rules at this table"
        shown = kind.describe(rule_set)
        if table is not None and preset is None:
            shown += display_lines(table.record.options)
        budget = Budget()
        budget.reserve(100)  # the turn timer below
        embed = budget.embed(title=title)
        budget.describe(embed, [f"• {line}" for line in shown])
        budget.release()
        if table is not None and preset is None:
            budget.field(embed, "Turn timer", [timer_label(table.record.turn_seconds)], inline=True)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="scores", description="The scores at this table, or of the last game here")
    async def scores(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = tables.in_channel(interaction.channel_id or 0, kind.key)
        user, guild = interaction.user.id, interaction.guild_id
        if table is not None and table.engine is not None:
            await secrecy.require(tables.store, Door.SCORES, table.record, user, guild)
            await interaction.response.send_message(**kind.scores(table).send_kwargs(), ephemeral=True)
            return
        last = await tables.store.last_game(interaction.channel_id or 0, kind.key)
        if last is None:
            raise Refusal(f"No {kind.title} game has been played in this channel yet.")
        await secrecy.require(tables.store, Door.SCORES, last, user, guild)  # a duplicate match's table waits
        rows = await tables.store.results(last.id)
        if not rows:
            raise Refusal(f"The last {kind.title} game here (#{last.id}) was ended before its result.")
        sheet = kind.stored_scores(last, rows, await tables.store.deal_scores(last.id))
        if sheet is not None:
            await interaction.response.send_message(**sheet.send_kwargs(), ephemeral=True)
            return
        budget = Budget()
        embed = budget.embed(title=f"{kind.title}: result of game #{last.id}")
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

    @group.command(name="table", description="Post the table again here (lost it in the chat?)")
    async def table_again(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        if table.engine is None:
            raise Refusal("The game has not started yet: the lobby message is the table for now.")
        async with table.lock:
            tables.presenter.repost(table)
        fault = await tables.presenter.settled(table)
        if fault is None:
            await interaction.response.send_message("Here is the table again, below.", ephemeral=True)
        elif fault.permission is not None:
            await interaction.response.send_message(
                f"I can't post the table here: I need the **{fault.permission}** permission in this channel. "
                "It will appear by itself once I have it.",
                ephemeral=True,
            )
        else:
            await interaction.response.send_message(
                "Discord did not let me post the table just now; I keep trying, and it will appear by itself.",
                ephemeral=True,
            )

    @group.command(name="leave", description="Leave the lobby, or hand your seat to the computer")
    async def leave(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        async with table.lock:
            seat = table.player_seat(interaction.user.id)
            if table.record.status == "lobby":
                if interaction.user.id == table.record.host_id:
                    raise Refusal("You are the host: press Cancel on the lobby to close the table instead.")
                await tables.seating.remove_seat(table, seat)
                mark_committed(interaction, "That change")
                await tables.presenter.refresh_lobby(table)
                await interaction.response.send_message("You left the table.", ephemeral=True)
                return
            await tables.seating.leave_game(table, seat)
            await interaction.response.send_message(
                f"The computer plays your seat now. Use /{kind.key} back to take it again.", ephemeral=True
            )

    @group.command(name="back", description="Take your seat back from the computer")
    async def back(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        async with table.lock:
            seat = table.player_seat(interaction.user.id)  # the one guard of a player's door
            await tables.seating.take_back(table, seat)
            await interaction.response.send_message("Your seat is yours again.", ephemeral=True)

    @group.command(name="end", description="End the game at this table, after a confirmation (host only)")
    async def end(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        async with table.lock:
            if interaction.user.id != table.record.host_id:
                raise Refusal("Only the host can end the game.")
            if table.record.status == "lobby":
                await tables.seating.cancel(table)
                locales.set_speaking(tables.presenter.language(table))  # (what follows, the channel reads)
                await interaction.response.send_message("The table was closed.")
                await tables.presenter.edit_message(table, closed_lobby(table, "The table was closed by the host."))
                return
            await interaction.response.send_message(question(table.id), view=confirm_view(table.id), ephemeral=True)

    add_handover_command(group, kind)
