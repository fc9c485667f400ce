"""The limits Discord documents for what a bot sends that its OpenAPI description does not encode
(each checked against the pinned spec, bench/discord_api.py: the spec's ``content`` allows 4,000
characters on channel messages, a Nitro user's; its ``components`` 40, counting the newer layout
components; it counts no embed text across a message, no files, no ``attachment://`` names, no
slash command name pattern): a bot's message of 2,000 characters, five action rows, a select
alone in its row, 6,000 characters of embed text across a message's embeds (titles,
descriptions, field names and values, footers, author names), ten files, an ``attachment://``
image or icon naming a file the message carries, a new message that is not empty; for a slash
command, a name of 1-32 lower-case letters, digits, ``-`` or ``_`` (Discord's pattern, with the
Devanagari and Thai scripts), a description of 1-100 characters, and 4,000 characters of names,
descriptions and choices a command."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import regex

# Discord's documented limits that the spec leaves out (each checked against the pinned spec:
# the spec's content maxLength is 4000 on channel messages, its components maxItems 40).
CONTENT_CHARS = 2000
ACTION_ROWS = 5
EMBED_TOTAL_CHARS = 6000
FILES = 10
COMMAND_NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
COMMAND_DESCRIPTION = (1, 100)
COMMAND_TOTAL_CHARS = 4000
#: the flag that marks a message laid out with the newer components (no five-row limit then)
IS_COMPONENTS_V2 = 1 << 15
SELECT_TYPES = {3, 5, 6, 7, 8}


@dataclass(frozen=True, slots=True)
class Request:
    """One REST request as the bot made it: ``path`` without ``/api/v10`` or the query,
    ``body`` the JSON (a multipart request's ``payload_json``), ``files`` the names of the files
    it uploads, ``kept`` the names of the files the message carries after an edit that leaves its
    attachments as they were (sends no ``attachments``; ``None``: not known)."""

    method: str
    path: str
    body: Any = None
    files: tuple[str, ...] = ()
    kept: tuple[str, ...] | None = None


#: operations whose body is a message (or, for a callback, whose ``data`` is one); True: a new one
_MESSAGE_OPERATIONS = {
    "create_message": True,
    "execute_webhook": True,
    "update_message": False,
    "update_original_webhook_message": False,
    "update_webhook_message": False,
}
_COMMAND_OPERATIONS = {
    "bulk_set_application_commands": True,
    "bulk_set_guild_application_commands": True,
    "create_application_command": False,
    "create_guild_application_command": False,
    "update_application_command": False,
    "update_guild_application_command": False,
}


def documented_limits(operation_id: str, request: Request) -> list[tuple[str, str]]:
    """``(field, why)`` for each documented limit ``request`` breaks that the spec does not encode."""
    body = request.body
    if len(request.files) > FILES:
        return [("files", f"{len(request.files)} files; a message carries at most {FILES}")]
    if operation_id in _MESSAGE_OPERATIONS and isinstance(body, Mapping):
        return list(_message_limits(body, request, "", new=_MESSAGE_OPERATIONS[operation_id]))
    if operation_id == "create_interaction_response" and isinstance(body, Mapping):
        data = body.get("data")
        if body.get("type") in (4, 7) and isinstance(data, Mapping):
            return list(_message_limits(data, request, "data.", new=body.get("type") == 4))
        return []
    if operation_id in _COMMAND_OPERATIONS:
        commands = body if _COMMAND_OPERATIONS[operation_id] else [body]
        if isinstance(commands, list):
            prefix = "[{}]." if _COMMAND_OPERATIONS[operation_id] else ""
            return [
                (prefix.format(i) + f, m)
                for i, command in enumerate(commands)
                if isinstance(command, Mapping)
                for f, m in _command_limits(command)
            ]
    return []


def embed_chars(embeds: Sequence[Any]) -> int:
    """The characters Discord counts against a message's 6,000: every embed's title, description,
    field names and values, footer text and author name."""
    total = 0
    for embed in embeds:
        if not isinstance(embed, Mapping):
            continue
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        for item in embed.get("fields") or []:
            if isinstance(item, Mapping):
                total += len(item.get("name") or "") + len(item.get("value") or "")
        for part, key in (("footer", "text"), ("author", "name")):
            if isinstance(embed.get(part), Mapping):
                total += len(embed[part].get(key) or "")
    return total


def _message_limits(message: Mapping[str, Any], request: Request, at: str, *, new: bool) -> Iterator[tuple[str, str]]:
    content = message.get("content")
    if isinstance(content, str) and len(content) > CONTENT_CHARS:
        yield at + "content", f"{len(content)} characters; a bot's message holds at most {CONTENT_CHARS}"
    embeds = message.get("embeds") or []
    if isinstance(embeds, list) and embed_chars(embeds) > EMBED_TOTAL_CHARS:
        yield at + "embeds", f"{embed_chars(embeds)} characters of embed text; a message holds {EMBED_TOTAL_CHARS}"
    rows = message.get("components") or []
    flags = message.get("flags")
    if isinstance(rows, list) and not (isinstance(flags, int) and flags & IS_COMPONENTS_V2):
        if len(rows) > ACTION_ROWS:
            yield at + "components", f"{len(rows)} action rows; a message holds at most {ACTION_ROWS}"
        for i, row in enumerate(rows):
            children = row.get("components") if isinstance(row, Mapping) else None
            if isinstance(children, list) and len(children) > 1:
                if any(isinstance(c, Mapping) and c.get("type") in SELECT_TYPES for c in children):
                    yield f"{at}components[{i}]", "a select menu must be alone in its action row"
    if new and not (content or embeds or rows or request.files or message.get("sticker_ids") or message.get("poll")):
        yield at.rstrip(".") or "(body)", "an empty message: content, embeds, components, files or poll needed"
    carried = set(request.files) | _kept(message, request, new=new)
    for i, embed in enumerate(embeds if isinstance(embeds, list) else []):
        for part in ("image", "thumbnail", "author", "footer"):
            item = embed.get(part) if isinstance(embed, Mapping) else None
            if not isinstance(item, Mapping):
                continue
            for key in ("url", "icon_url"):
                url = item.get(key)
                if isinstance(url, str) and url.startswith("attachment://") and url[13:] not in carried:
                    yield (
                        f"{at}embeds[{i}].{part}.{key}",
                        f"{url} names no file the message carries ({sorted(carried) or 'none'})",
                    )


def _kept(message: Mapping[str, Any], request: Request, *, new: bool) -> set[str]:
    """The names of the files a message keeps besides those the request uploads: those its
    ``attachments`` lists with an existing (snowflake) id, or, when it sends no ``attachments``
    on an edit, what it carried before (:attr:`Request.kept`); a new message keeps nothing."""
    listed = message.get("attachments")
    if new:
        return set()
    if not isinstance(listed, list):
        return set(request.kept or ())
    uploaded = len(request.files)
    out = set()
    for item in listed:
        if not isinstance(item, Mapping) or not isinstance(item.get("filename"), str):
            continue
        try:
            is_new = int(item.get("id", -1)) < uploaded
        except (TypeError, ValueError):
            is_new = False
        if not is_new:
            out.add(item["filename"])
    return out


def _command_limits(command: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    chat_input = command.get("type") in (None, 1)
    if chat_input:
        yield from _name_and_description(command, "")
    total = _command_chars(command)
    if total > COMMAND_TOTAL_CHARS:
        yield "", f"{total} characters of names, descriptions and values; a command holds {COMMAND_TOTAL_CHARS}"
    if chat_input:
        yield from _option_limits(command.get("options") or [], "options")


def _option_limits(options: Any, at: str) -> Iterator[tuple[str, str]]:
    for i, option in enumerate(options if isinstance(options, list) else []):
        if isinstance(option, Mapping):
            yield from _name_and_description(option, f"{at}[{i}].")
            yield from _option_limits(option.get("options") or [], f"{at}[{i}].options")


def _name_and_description(item: Mapping[str, Any], at: str) -> Iterator[tuple[str, str]]:
    name = item.get("name")
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
        yield at + "name", f"{name!r} is not a slash command name (1-32 lower-case letters, digits, - or _)"
    low, high = COMMAND_DESCRIPTION
    description = item.get("description")
    if not isinstance(description, str) or not low <= len(description) <= high:
        yield at + "description", f"a slash command's description has {low}-{high} characters, not {description!r}"


def _command_chars(command: Mapping[str, Any]) -> int:
    """Discord's 4,000-character budget of a command: its names, descriptions and choice values."""
    total = len(str(command.get("name") or "")) + len(str(command.get("description") or ""))
    for option in command.get("options") or []:
        if isinstance(option, Mapping):
            total += _command_chars(option)
            for choice in option.get("choices") or []:
                if isinstance(choice, Mapping):
                    total += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
    return total
