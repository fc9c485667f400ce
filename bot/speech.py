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

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

import locales
from locales import catalogue


def hear_languages(client: discord.Client) -> None:
    """Make every interaction's handlers speak the presser's language (see the module)."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]

    def parse(data: Any) -> None:
        with locales.speaking(data.get("locale") if isinstance(data, dict) else None):
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
