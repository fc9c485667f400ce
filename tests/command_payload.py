"""The slash commands' translated payload made once per test process for each set of commands.

At every start the bot syncs its slash commands (``CommandTree.sync``), and discord.py then asks
the bot's translator (:class:`bot.messages.speech.CatalogueTranslator`) for every description,
option and choice in each of Discord's 32 locales: 5,760 questions a bot, about 3 ms of processor
time, for an answer that is the same for every test bot of a process unless its commands or the
catalogue differ. The real bot asks once a start. Here the payload of a command (a top-level one,
as ``sync`` asks; a group with everything under it) is kept under everything it is made of: its
untranslated payload (names, English words, types, choices, permissions), every translatable
string with what the translator reads of it (its ``msgid``, context and parameters, by place),
the translator's class and the catalogue it speaks. A command that differs in any of them is
translated afresh. The first time a payload would be reused it is made afresh once more and
compared, so a process whose commands the key failed to tell apart fails there, loudly, instead
of syncing stale words.
"""

from __future__ import annotations

import marshal
from typing import Any

from discord import app_commands

import locales
from bot.messages import speech
from locales import catalogue

#: the key (see the module) -> the payload, marshalled, and whether a reuse was checked yet
_MADE: dict[bytes, list[Any]] = {}
_ORIGINAL = {kind: kind.get_translated_payload for kind in (app_commands.Command, app_commands.Group)}


def _said(text: Any) -> Any:
    """What the translator reads of a name or a description: a ``locale_str``'s text and extras."""
    if isinstance(text, app_commands.locale_str):
        return ("locale_str", text.message, text.extras)
    return text


def _words(command: Any) -> Any:
    """Every string discord.py has translated in ``command``'s payload, in the order it asks
    (``Command``/``Group.get_translated_payload``, ``CommandParameter`` and ``Choice``'s)."""
    own = (_said(command._locale_name), _said(command._locale_description))
    if isinstance(command, app_commands.Group):
        return (own, [_words(child) for child in command._children.values()])
    return (
        own,
        [
            (
                _said(param._rename),
                _said(param.description),
                [_said(choice._locale_name) for choice in param.choices or ()],
            )
            for param in command._params.values()
        ],
    )


def _key(command: Any, tree: app_commands.CommandTree, translator: app_commands.Translator) -> bytes | None:
    if type(translator) is not speech.CatalogueTranslator:
        return None  # another translator: its answers may depend on anything
    speaks = (
        locales.languages(),
        sorted(locales._installed.aliases.items()),
        [(location.value, where) for location, where in speech.CONTEXTS.items()],
        # the catalogue read and the lookups by identity: a test that replaces one is not served
        id(catalogue.catalogues()),
        id(catalogue.lookup_in_context),
        id(locales.language_of),
    )
    try:
        # version 2: no back-references, so equal contents give equal bytes whatever is shared
        return marshal.dumps((type(command).__qualname__, command.to_dict(tree), _words(command), speaks), 2)
    except ValueError:  # something marshal cannot write: no key, translated afresh
        return None


async def _once(command: Any, tree: app_commands.CommandTree, translator: app_commands.Translator) -> dict[str, Any]:
    original = _ORIGINAL[app_commands.Group if isinstance(command, app_commands.Group) else app_commands.Command]
    key = _key(command, tree, translator)
    if key is None:
        return await original(command, tree, translator)
    made = _MADE.get(key)
    if made is None:
        payload = await original(command, tree, translator)
        _MADE[key] = [marshal.dumps(payload), False]
        return payload
    if not made[1]:
        fresh = await original(command, tree, translator)
        assert fresh == marshal.loads(made[0]), (
            f"/{command.name}: two command trees this process told apart as equal translate differently;"
            " tests/command_payload.py's key misses what differs"
        )
        made[1] = True
        return fresh
    payload: dict[str, Any] = marshal.loads(made[0])
    return payload


def translate_commands_once() -> None:
    """Install :func:`_once` for every command tree of this process."""
    app_commands.Command.get_translated_payload = _once  # type: ignore[method-assign,assignment]
    app_commands.Group.get_translated_payload = _once  # type: ignore[method-assign,assignment]
