"""The statistics commands' words for Discord's command list, in every language."""

from __future__ import annotations

from discord import app_commands


def pgettext(context: str, msgid: str, /, **params: object) -> app_commands.locale_str:
    """A slash command's words (a description, an option's) for the translator: ``msgid`` is looked
    up in the catalogue under ``context`` (its ``msgctxt``), ``params`` (a game's name) fill it in
    every language; English is ``msgid`` filled."""
    shown = msgid.format(**params) if params else msgid
    return app_commands.locale_str(shown, msgid=msgid, context=context, params=params)
