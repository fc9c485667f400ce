"""Which language the bot speaks to whom: the presser's own for what only they see, the table's
for what the channel sees; and the slash commands' names and descriptions in every language.

A private answer follows Discord's ``interaction.locale`` (the language of the presser's Discord
client). It is set once, where every interaction enters the bot (the gateway's
``INTERACTION_CREATE``), so that every task discord.py starts for that interaction — a slash
command, a button's callback, a modal, an autocomplete — speaks it without each callback being
told, and a refusal raised anywhere below is worded for the person who will read it. What the
channel sees is rendered inside :func:`locales.speaking` with the table's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord import app_commands

import locales
from draw.looks import LANGUAGE
from locales import catalogue

#: each member's language, as their last interaction's ``locale`` said: what a DM to them (their
#: hand at a new deal) speaks, since a DM is sent outside any interaction of theirs. Kept in memory
#: only: after a restart a member's DMs speak the table's language until they press something.
_members: dict[int, str] = {}


def hear_languages(client: discord.Client) -> None:
    """Make every interaction's handlers speak the presser's language (see the module)."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]

    def parse(data: Any) -> None:
        locale = data.get("locale") if isinstance(data, dict) else None
        if locale:
            user = (data.get("member") or {}).get("user") or data.get("user") or {}
            if user.get("id"):
                _members[int(user["id"])] = locales.language_of(locale)
        with locales.speaking(locale):
            original(data)  # the tasks it starts copy the context, the language with it

    parsers["INTERACTION_CREATE"] = parse


def channel_language(guild: discord.Guild | None, chosen: str | None = None) -> str:
    """What a table's channel reads: the table's chosen language, else the server's preferred
    locale (a Community server's setting; others read English)."""
    if chosen:
        return locales.language_of(chosen)
    if guild is not None and guild.preferred_locale is not None:
        return locales.language_of(guild.preferred_locale.value)
    return locales.SOURCE


def table_language(client: discord.Client, guild_id: int | None, options: Mapping[str, str]) -> str:
    """What a table's channel reads (:func:`channel_language` of its server and its ``language`` option)."""
    guild = client.get_guild(guild_id) if guild_id is not None else None
    return channel_language(guild, options.get(LANGUAGE))


def member_language(user_id: int | None, fallback: str) -> str:
    """The language a member last pressed something in (see ``_members``), else ``fallback``."""
    return _members.get(user_id, fallback) if user_id is not None else fallback


def choices() -> list[tuple[str, str]]:
    """The table languages to choose from, each named in itself: (code, name)."""
    return [(code, catalogue.display_name(code)) for code in locales.languages()]


#: the catalogue's context (``msgctxt``) for each place a command's words are shown
CONTEXTS: dict[app_commands.TranslationContextLocation, str] = {
    app_commands.TranslationContextLocation.command_name: "command name",
    app_commands.TranslationContextLocation.group_name: "command name",
    app_commands.TranslationContextLocation.parameter_name: "option name",
    app_commands.TranslationContextLocation.command_description: "command description",
    app_commands.TranslationContextLocation.group_description: "command description",
    app_commands.TranslationContextLocation.parameter_description: "option description",
    app_commands.TranslationContextLocation.choice_name: "option choice",
}


class CatalogueTranslator(app_commands.Translator):
    """discord.py asks it for every ``locale_str`` of the command tree when it syncs: the answers
    become each command's ``name_localizations`` and ``description_localizations``."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = locales.language_of(locale.value)
        if language == locales.SOURCE or locales.language_of(locale.value) not in locales.languages():
            return None
        where = CONTEXTS.get(context.location)
        if where is None:
            return None
        return catalogue.lookup_in_context(language, where, string.message)
