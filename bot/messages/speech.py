"""Which language the bot speaks to whom: the presser's own for what only they see, the table's
for what the channel sees; and the slash commands' descriptions and choices in every language.

A private answer follows Discord's ``interaction.locale`` (the language of the presser's Discord
client). It is set once, where every interaction enters the bot (the gateway's
``INTERACTION_CREATE``), so that every task discord.py starts for that interaction — a slash
command, a button's callback, a modal, an autocomplete — speaks it without each callback being
told, and a refusal raised anywhere below is worded for the person who will read it. What the
channel sees is rendered inside :func:`locales.speaking` with the table's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord import app_commands

import locales
from locales import catalogue

log = logging.getLogger(__name__)


def hear_languages(client: discord.Client, keep: Keep | None = None) -> None:
    """Make every interaction's handlers speak the presser's language (see the module); ``keep``
    stores a member's language when it is new or changed (the store's ``set_member_language``),
    so that a restarted bot knows it before they press again."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]

    def parse(data: Any) -> None:
        locale = data.get("locale") if isinstance(data, dict) else None
        learnt = remember(data, locale)
        if learnt is not None and keep is not None:
            _keep_later(keep, *learnt)
        with locales.speaking(locale):
            original(data)  # the tasks it starts copy the context, the language with it

    parsers["INTERACTION_CREATE"] = parse


#: stores a member's locale tag (``Store.set_member_language``)
Keep = Callable[[int, str], Awaitable[None]]
#: the writes under way (a task nobody holds may be collected before it ends)
_writing: set[asyncio.Task[None]] = set()


def _keep_later(keep: Keep, user_id: int, locale: str) -> None:
    """Store the member's language beside the interaction, never in its way: the press is answered
    whether or not the write succeeds (a failed one leaves the language known until a restart)."""

    async def write() -> None:
        try:
            await keep(user_id, locale)
        except Exception:  # the store down: the language is still known in this process
            log.warning("could not keep the language of member %s", user_id, exc_info=True)

    task = asyncio.get_running_loop().create_task(write())
    _writing.add(task)
    task.add_done_callback(_writing.discard)


#: the language each member's Discord client spoke in their last interaction (the only way the bot
#: learns it): a hand sent by DM, which no press of theirs started, is written in it
_members: dict[int, str] = {}
#: how many members' languages are kept (the oldest forgotten first): a bound, not a database
REMEMBERED = 50_000


def remember(data: Any, locale: str | None) -> tuple[int, str] | None:
    """Keep the language of the member an interaction's payload comes from; returns (member,
    locale) when it is one the bot did not know for them (new, or changed), else None."""
    if not isinstance(data, dict) or not locale:
        return None
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    try:
        user_id = int(user["id"])
    except (KeyError, TypeError, ValueError):
        return None
    before = _members.pop(user_id, None)
    _members[user_id] = str(locale)
    if len(_members) > REMEMBERED:
        del _members[next(iter(_members))]
    return None if before == str(locale) else (user_id, str(locale))


def recall(kept: Mapping[int, str]) -> None:
    """Know the languages the store kept (a restart: ``Store.member_languages``), except where a
    member has spoken since, which is newer."""
    for user_id, locale in kept.items():
        if user_id not in _members:
            _members[user_id] = locale
    while len(_members) > REMEMBERED:
        del _members[next(iter(_members))]


def forget_all() -> None:
    """Know no member's language (a new process; tests that stand for one)."""
    _members.clear()


def member_language(user_id: int | None, fallback: str) -> str:
    """What a member reads in a message no press of theirs asked for (a hand by DM): their client's
    language as last seen, else ``fallback`` (the table's)."""
    known = _members.get(user_id) if user_id is not None else None
    return locales.language_of(known) if known else fallback


def chosen_language(options: Mapping[str, Any] | object) -> str | None:
    """A table's own language (its ``language`` option, chosen with ``/<game> set language``), or
    None where it chose none: the one place a table's choice is read."""
    value = options.get("language") if isinstance(options, Mapping) else getattr(options, "language", None)
    return value if isinstance(value, str) and value else None


def table_language(client: discord.Client, guild_id: int | None, options: Mapping[str, Any] | object) -> str:
    """What a table's channel reads (see :func:`channel_language`), from its server and options."""
    guild = client.get_guild(guild_id) if guild_id is not None else None
    return channel_language(guild, chosen_language(options))


def in_channel(
    client: discord.Client, guild_id: int | None, options: Mapping[str, Any] | object
) -> contextlib.AbstractContextManager[str]:
    """Speak the table's channel language inside the block (what a press shows to the channel:
    the lobby message it redraws, a line it posts), not the presser's."""
    return locales.speaking(table_language(client, guild_id, options))


def channel_language(guild: discord.Guild | None, chosen: str | None = None) -> str:
    """What a table's channel reads: the table's chosen language, else the server's preferred
    locale (a Community server's setting; others read English)."""
    if chosen:
        return locales.language_of(chosen)
    if guild is not None and guild.preferred_locale is not None:
        return locales.language_of(guild.preferred_locale.value)
    return locales.SOURCE


#: the catalogue's context (``msgctxt``) for each place a command's words are shown.
#:
#: Command, subcommand and option *names* are not among them: they stay English in every client.
#: The bot's own words tell people what to type (``/ohhell end``, ``/ohhell verify game:12``,
#: ``/ohhell set language de``), often in the channel, where members whose clients speak other
#: languages than the table read the same line; so do the README, the docs and the local page,
#: whose typed commands match the English names only. A name shown as ``/ohhell beenden`` in a
#: German client would disagree with all of them. Descriptions and choices are what a client
#: shows beside a name, never typed from a message: those speak the client's language.
CONTEXTS: dict[app_commands.TranslationContextLocation, str] = {
    app_commands.TranslationContextLocation.command_description: "command description",
    app_commands.TranslationContextLocation.group_description: "command description",
    app_commands.TranslationContextLocation.parameter_description: "option description",
    app_commands.TranslationContextLocation.choice_name: "option choice",
}


def pgettext(context: str, msgid: str, /, **params: object) -> app_commands.locale_str:
    """A slash command's words (its description, an option's, a choice's name) for the translator:
    ``msgid`` is looked up in the catalogue under ``context`` (a ``msgctxt`` of :data:`CONTEXTS`),
    and ``params`` (a game's name) fill it in every language. English is ``msgid`` filled."""
    shown = msgid.format(**params) if params else msgid
    return app_commands.locale_str(shown, msgid=msgid, context=context, params=params)


class CatalogueTranslator(app_commands.Translator):
    """discord.py asks it for every ``locale_str`` of the command tree when it syncs: the answers
    become the ``description_localizations`` of each command and option, and the
    ``name_localizations`` of each option choice (names of commands and options stay English:
    see :data:`CONTEXTS`). Discord's ``es-419`` reads the Spanish catalogue, as ``es-ES`` does."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        where = CONTEXTS.get(context.location)
        if where is None:  # a name: English everywhere
            return None
        language = locales.language_of(locale.value)
        if language == locales.SOURCE:
            return None
        msgid = string.extras.get("msgid", string.message)
        text = catalogue.lookup_in_context(language, where, msgid)
        params = string.extras.get("params")
        return text.format(**params) if text is not None and params else text
