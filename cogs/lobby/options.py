"""``/<game> set``: the options a host may change (the game's rules, the turn timer, how the table
looks, when to ping, the table's language), how a typed value is read for each, and the change
itself, committed and shown. :mod:`cogs.lobby.commands` registers the command."""

from __future__ import annotations

import discord
from discord import app_commands

import locales
from bot.client import tables_of
from bot.messages.errors import Refusal, mark_committed
from bot.seam.contract import AnyKind, LiveTable
from bot.tables.manager import TableManager
from bot.tables.pings import PING_AFTER, parse_ping_after
from draw.common import TIMER_CHOICES, parse_timer, timer_label
from draw.looks import DISPLAY_OPTIONS, LANGUAGE
from games.common.text import quoted, shorten
from locales import _, catalogue

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


def option_choices(kind: AnyKind, current: str) -> list[app_commands.Choice[str]]:
    """The options ``/<game> set`` knows, for its autocomplete."""
    names = [TIMER_OPTION, *(o.name for o in kind.options()), *DISPLAY_OPTIONS, PING_AFTER, LANGUAGE]
    return [app_commands.Choice(name=n, value=n) for n in names if current.lower() in n][:25]


def value_choices(kind: AnyKind, option: str | None, current: str) -> list[app_commands.Choice[str]]:
    """The values ``option`` may take, for ``/<game> set``'s autocomplete."""
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


async def set_option(
    interaction: discord.Interaction, kind: AnyKind, table: LiveTable, option: str, value: str
) -> None:
    """``/<game> set``: who may change what when, the value read, the change committed, then shown
    (the lobby, or the table in play) and answered."""
    tables = tables_of(interaction)
    async with table.lock:
        _may_change(tables, table, interaction.user.id, option)
        options, value, turn_seconds = _changed(kind, table, option, value)
        await tables.seating.change_options(table, table.record.preset, options, turn_seconds)
        mark_committed(interaction, _("That change"))
        if table.record.status == "lobby":
            await tables.presenter.refresh_lobby(table)  # (through the lobby's display: never fails here)
        else:
            tables.clock.kick(table)  # a turn that has no timer yet gets its ping from now
            tables.presenter.redraw(table)  # (a new language: the table message in its new words)
        await interaction.response.send_message(set_answer(option, value, turn_seconds), ephemeral=True)


def _may_change(tables: TableManager, table: LiveTable, user_id: int, option: str) -> None:
    """Refuses a change out of its time (a rule once the game is on, anything while the decks wait
    for their round) or by anyone but the host."""
    if table.record.status != "lobby" and option not in (PING_AFTER, LANGUAGE):  # (no rules: any time)
        raise Refusal(_("The game has already started: rules can only change in the lobby."))
    if tables.seating.starting(table):
        raise Refusal(
            _(
                "The game is starting: its decks wait for drand round {round}.",
                round=table.record.beacon_round,
            )
        )
    if user_id != table.record.host_id:
        raise Refusal(_("Only the host can change the rules."))


def _changed(kind: AnyKind, table: LiveTable, option: str, value: str) -> tuple[dict[str, str], str, int | None]:
    """The table's options and turn timer with ``option`` set, and the value as read."""
    options = dict(table.record.options)
    if option == TIMER_OPTION:
        try:
            return options, value, parse_timer(value)
        except ValueError as error:
            raise Refusal(str(error)) from None
    value = _read_value(kind, option, value)
    # set again, it moves last: the later of two related changes (sequence, then fixed_hands) is
    # the one that counts, and a new preset carries them in this order
    options.pop(option, None)
    if option != PING_AFTER or value != "off":  # (pings "off": the option is simply not set)
        options[option] = value
    return options, value, table.record.turn_seconds


def _read_value(kind: AnyKind, option: str, value: str) -> str:
    """``value`` as ``option`` reads it, or a refusal saying what it may be."""
    if option == PING_AFTER:  # when to ping a player not looking: not a rule either
        try:
            return parse_ping_after(value)
        except ValueError as error:
            raise Refusal(str(error)) from None
    if option == LANGUAGE:  # what the channel reads: not a rule either
        return chosen_language(value)
    if option in DISPLAY_OPTIONS:  # how the table looks: never part of the game's rules
        value = value.strip().lower()
        if value not in DISPLAY_OPTIONS[option]:
            raise Refusal(
                _(
                    "{option} is {values}.",
                    option=option,
                    values=_(" or ").join(DISPLAY_OPTIONS[option]),
                )
            )
        return value
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
    return value
