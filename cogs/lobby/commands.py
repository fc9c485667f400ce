"""The lobby's commands in each game's group (:mod:`bot.seam.groups`): ``/<game> new``, ``set``,
``rules``, ``scores``, ``table``, ``leave``, ``back``, ``end`` and ``handover``
(:mod:`cogs.lobby.handover`), added by
:func:`add_lobby_commands` at the lobby's setup.

Commands change tables only through the runtime (``bot.tables``: its seating and presenter);
``/<game> scores`` of a finished game reads the stored result from the store (a read, no write).
"""

from __future__ import annotations

import discord
from discord import app_commands

import locales
from bot.client import tables_of
from bot.messages.errors import Refusal, mark_committed
from bot.messages.speech import in_channel, pgettext
from bot.seam.contract import AnyKind, LiveTable
from bot.tables import secrecy
from bot.tables.pings import PING_AFTER, parse_ping_after
from bot.tables.secrecy import Door
from cogs.lobby.controls import channel_lobby
from cogs.lobby.ending import confirm_view, question
from cogs.lobby.handover import add_handover_command
from cogs.lobby.render import closed_lobby
from draw.budget import Budget
from draw.common import TIMER_CHOICES, parse_timer, timer_label
from draw.looks import DISPLAY_OPTIONS, LANGUAGE, display_lines
from games.common.text import quoted, shorten
from locales import _, catalogue, translate

TIMER_OPTION = "turn_timer"


def language_choices() -> list[tuple[str, str]]:
    """The table languages to choose from, each named in itself: (code, name)."""
    return [(code, catalogue.display_name(code)) for code in locales.languages()]


def chosen_language(value: str) -> str:
    """A table language as the host typed it (``de``, ``de-DE``, ``Deutsch``): its code, or a
    refusal listing those there are."""
    wanted = value.strip().lower()
    for code, name in language_choices():
        if wanted in (code.lower(), name.lower()) or wanted.split("-")[0] == code:
            return code
    listed = ", ".join(f"{code} ({name})" for code, name in language_choices())
    raise Refusal(
        _("There is no table language {language}. Languages: {languages}.", language=quoted(value), languages=listed)
    )


def set_answer(option: str, value: str, turn_seconds: int | None) -> str:
    """What ``/<game> set`` answers once the change is saved."""
    if option == LANGUAGE:
        return _(
            "✅ The table now speaks **{language}**: the lobby, the table and its announcements.",
            language=catalogue.display_name(value),
        )
    shown = timer_label(turn_seconds) if option == TIMER_OPTION else shorten(value, 200)
    return _("✅ {option} is now **{value}**.", option=option, value=shown)


def add_lobby_commands(group: app_commands.Group, kind: AnyKind) -> None:
    """The lobby's commands in ``kind``'s ``/<game>`` group."""

    def live_table(interaction: discord.Interaction) -> LiveTable:
        table = tables_of(interaction).in_channel(interaction.channel_id or 0, kind.key)
        if table is None:
            raise Refusal(
                _("There is no {game} table in this channel. Open one with /{key} new.", game=kind.title, key=kind.key)
            )
        return table

    async def preset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        wanted = current.lower()
        return [
            app_commands.Choice(name=f"{kind.preset_name(p)} ({p})"[:100], value=p)
            for p in kind.presets
            if wanted in p or wanted in kind.preset_name(p).lower()
        ][:25]

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

    async def option_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        names = [TIMER_OPTION, *(o.name for o in kind.options()), *DISPLAY_OPTIONS, PING_AFTER, LANGUAGE]
        return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]

    async def value_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        option = getattr(interaction.namespace, "option", None)
        if option == LANGUAGE:  # each language named in itself, the code its value
            return [
                app_commands.Choice(name=f"{name} ({code})", value=code)
                for code, name in language_choices()
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

    @group.command(
        name="set", description=pgettext("command description", "Change one rule before the start (host only)")
    )
    @app_commands.describe(
        option=pgettext("option description", "The rule to change"),
        value=pgettext("option description", "Its new value"),
    )
    @app_commands.autocomplete(option=option_autocomplete, value=value_autocomplete)
    async def set_option(interaction: discord.Interaction, option: str, value: str) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        async with table.lock:
            if table.record.status != "lobby" and option not in (PING_AFTER, LANGUAGE):  # (no rules: any time)
                raise Refusal(_("The game has already started: rules can only change in the lobby."))
            if tables.seating.starting(table):
                raise Refusal(
                    _(
                        "The game is starting: its decks wait for drand round {round}.",
                        round=table.record.beacon_round,
                    )
                )
            if interaction.user.id != table.record.host_id:
                raise Refusal(_("Only the host can change the rules."))
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
                    raise Refusal(
                        _(
                            "{option} is {values}.",
                            option=option,
                            values=_(" or ").join(DISPLAY_OPTIONS[option]),
                        )
                    )
                options.pop(option, None)
                options[option] = value
            else:
                if option not in {o.name for o in kind.options()}:
                    names = ", ".join(o.name for o in kind.options())
                    extra = ", ".join([*DISPLAY_OPTIONS, PING_AFTER, LANGUAGE])
                    raise Refusal(
                        _(
                            "There is no rule called {name}. Rules: {rules}.",
                            name=quoted(option),
                            rules=f"{TIMER_OPTION}, {names}, {extra}",
                        )
                    )
                # set again, it moves last: the later of two related changes (sequence, then
                # fixed_hands) is the one that counts, and a new preset carries them in this order
                options.pop(option, None)
                options[option] = value
            await tables.seating.change_options(table, table.record.preset, options, turn_seconds)
            mark_committed(interaction, _("That change"))
            if table.record.status == "lobby":
                await tables.presenter.refresh_lobby(table)  # (through the lobby's display: never fails here)
            else:
                tables.clock.kick(table)  # a turn that has no timer yet gets its ping from now
                tables.presenter.redraw(table)  # (a new language: the table message in its new words)
            await interaction.response.send_message(set_answer(option, value, turn_seconds), ephemeral=True)

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
        tables = tables_of(interaction)
        await tables.store.set_pings(interaction.user.id, setting == "on")
        if setting == "on":
            text = _("🔔 Turn pings are on: a table that pings (ping_after) mentions you when it has waited on you.")
        else:
            text = _(
                "🔕 Turn pings are off for you, at every table. `/{key} pings on` turns them back on.", key=kind.key
            )
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(
        name="rules", description=pgettext("command description", "The rules in force at this table (or of a preset)")
    )
    @app_commands.describe(
        preset=pgettext("option description", "A preset whose rules to show (default: this table's, else the usual)")
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def rules(interaction: discord.Interaction, preset: str | None = None) -> None:
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
            title = _(
                "{game} rules: {preset} (preset {name})", game=kind.title, preset=kind.preset_name(name), name=name
            )
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

    @group.command(
        name="scores", description=pgettext("command description", "The scores at this table, or of the last game here")
    )
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

    @group.command(
        name="table", description=pgettext("command description", "Post the table again here (lost it in the chat?)")
    )
    async def table_again(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
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

    @group.command(
        name="leave", description=pgettext("command description", "Leave the lobby, or hand your seat to the computer")
    )
    async def leave(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
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

    @group.command(name="back", description=pgettext("command description", "Take your seat back from the computer"))
    async def back(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
        async with table.lock:
            seat = table.player_seat(interaction.user.id)  # the one guard of a player's door
            await tables.seating.take_back(table, seat)
            await interaction.response.send_message(_("Your seat is yours again."), ephemeral=True)

    @group.command(
        name="end",
        description=pgettext("command description", "End the game at this table, after a confirmation (host only)"),
    )
    async def end(interaction: discord.Interaction) -> None:
        tables = tables_of(interaction)
        table = live_table(interaction)
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

    add_handover_command(group, kind)
