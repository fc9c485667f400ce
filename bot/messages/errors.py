"""One place that turns a domain exception into the short ephemeral answer a player sees.

Engines raise :class:`games.common.engine.GameError` with a player-readable message; the bot
raises :class:`Refusal` for its own checks (not your game, not the host...). Both reach the
player as an ephemeral reply and change nothing. A :class:`~db.errors.StoreError` means the write
was not saved (the store rolled it back, and the table manager rebuilt its state from the log):
the player is told exactly that. Its kind :class:`~db.errors.OutcomeUnknown` means the connection
was lost while committing and the store could not learn whether it was saved: the player is told
that, never "not saved". Anything else is a bug: it is logged and the
player gets a generic apology instead of Discord's "This interaction failed".

Every error a member's request raises comes to :func:`report`, the one path: a press on a button
or a select through :class:`bot.messages.components.GameItem`'s callback (every control of the bot is
one), a slash command's through :func:`answer_refusals`, which the bot applies once to every
command of its tree at start-up (a refusal), or the tree's ``on_error`` (anything else). A
refusal is raised, never answered where it is found, so that it reads the same from every door
(and is worded, or translated, in one place). A refusal is answered before discord.py's command
tree sees it because the tree hands every error it sees to its error handler as a failure (a test
harness or the local mode counts those as the bot failing); it is an answer, not a failure.

Once something is committed for an interaction (a move, a start, a new lobby), the code that
committed it says so with :func:`mark_committed`; an error after that point (the store failing on a
later write, a bug) is then never answered "nothing changed": the player is told what stands.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord
from discord import app_commands

from bot.host.logs import context, what_was_used, where
from db.errors import OutcomeUnknown, StoreError
from games.common.engine import GameError
from locales import _

log = logging.getLogger(__name__)


class Refusal(Exception):
    """The bot refuses a request; ``str(self)`` is shown to the user as it is."""


USER_ERRORS = (GameError, Refusal)

#: set on a command's callback that answers its refusals (:func:`answer_refusals`)
_ANSWERS = "__answers_refusals__"


def answer_refusals(tree: app_commands.CommandTree[Any]) -> int:
    """Make every slash command in ``tree`` answer a refusal it raises through :func:`report`
    (commands, and the commands of groups, at any depth); returns how many it changed. Called
    once, after every feature has added its commands (:meth:`bot.client.CardBot.setup_hook`)."""
    changed = 0
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command) and not getattr(command._callback, _ANSWERS, False):
            command._callback = cast(Any, _answering(command._callback))  # (its parameters were read already)
            changed += 1
    return changed


def answers_refusals(command: app_commands.Command[Any, Any, Any]) -> bool:
    """Whether ``command`` answers its refusals through :func:`report` (a test asks of every one)."""
    return bool(getattr(command._callback, _ANSWERS, False))


def _answering(callback: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    # discord.py calls a command's callback with the interaction first, or after the group or cog
    # it is bound to; the parameters it reads were read when the command was made
    async def answering(*args: Any, **kwargs: Any) -> Any:
        try:
            return await callback(*args, **kwargs)
        except USER_ERRORS as error:
            interaction = next((a for a in args if isinstance(a, discord.Interaction)), kwargs.get("interaction"))
            if interaction is None:
                raise
            await report(interaction, error)
            return None

    setattr(answering, _ANSWERS, True)
    return answering


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was already answered (cut to Discord's
    2,000 characters: a longer reply would be refused, and the member would see nothing)."""
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 1] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply", exc_info=True)


#: the longest message Discord accepts
MESSAGE_LIMIT = 2000

#: the key in ``interaction.extras`` that says what the interaction has committed
SAVED = "committed"


def mark_committed(interaction: discord.Interaction | None, what: str) -> None:
    """``what`` ("Your move") is saved for good: from here on, no answer may say nothing changed."""
    if interaction is not None:
        interaction.extras[SAVED] = what


async def _store_failed(interaction: discord.Interaction, error: StoreError, what: str, answer: str) -> None:
    """A store failure is logged in one line (the store described it; no traceback) and answered."""
    log.error("%s %s: %s; %s", _game(interaction), what, error, _where(interaction), extra=_extra(interaction))
    await reply_ephemeral(interaction, answer)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """The single error handler for commands and components: a refusal (:data:`USER_ERRORS`) is
    answered as it is, in one sentence, and never logged (it is an answer, not a fault)."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    saved = interaction.extras.get(SAVED)
    if saved is not None and not isinstance(error, USER_ERRORS):
        # Failed after the commit: what was saved stands, and the player is told so.
        if isinstance(error, StoreError):
            log.error(
                "%s saved, but a later write failed: %s; %s",
                _game(interaction),
                error,
                _where(interaction),
                extra=_extra(interaction),
            )
        else:
            log.error(
                "%s saved, then an unexpected error in %s; %s",
                _game(interaction),
                what_was_used(interaction),
                _where(interaction),
                exc_info=error,
                extra=_extra(interaction),
            )
        await reply_ephemeral(
            interaction,
            _(
                "✅ {what} was saved and stands. Something after it failed on my side: what the channel shows catches"
                " up by itself.",
                what=saved,
            ),
        )
    elif isinstance(error, USER_ERRORS):
        await reply_ephemeral(interaction, f"⚠️ {error}")
    elif isinstance(error, OutcomeUnknown):
        # The connection was lost while committing and the database could not be asked since:
        # neither "saved" nor "not saved" would be known to be true.
        await _store_failed(
            interaction,
            error,
            "outcome unknown, the store failed while committing",
            _(
                "⚠️ I lost my database connection while saving that, so I cannot tell yet whether it counted."
                " Press **My hand** in a moment: it shows the table as it stands, and whether it is still your turn."
            ),
        )
    elif isinstance(error, StoreError):
        # The database refused the write (a full disk, a lost server): an operating condition the
        # store already described in one line, not a bug; no traceback.
        await _store_failed(
            interaction,
            error,
            "not saved, the store failed",
            _(
                "⚠️ That was not saved: I could not save it to my database just now, so nothing changed."
                " Please try again in a moment."
            ),
        )
    elif isinstance(error, app_commands.CheckFailure):
        await reply_ephemeral(interaction, f"⚠️ {error}")
    else:
        log.error(
            "%s: unexpected error in %s; %s",
            _game(interaction),
            what_was_used(interaction),
            _where(interaction),
            exc_info=error,
            extra=_extra(interaction),
        )
        await reply_ephemeral(interaction, "⚠️ " + _("Something went wrong on my side; nothing was changed."))


def _game_id(interaction: discord.Interaction) -> int | None:
    """The game a control is about: the number after its custom id's first part (``ohp:12:…``)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id") or "")
    parts = custom_id.split(":")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def _game(interaction: discord.Interaction) -> str:
    game_id = _game_id(interaction)
    return f"game #{game_id}" if game_id is not None else "a command"


def _where(interaction: discord.Interaction) -> str:
    return where(interaction.guild_id, interaction.channel_id)


def _extra(interaction: discord.Interaction) -> dict[str, Any]:
    return context(interaction, _game_id(interaction))
