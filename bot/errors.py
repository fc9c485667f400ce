"""One place that turns a domain exception into the short ephemeral answer a player sees.

Engines raise :class:`games.common.engine.GameError` with a player-readable message; the bot
raises :class:`Refusal` for its own checks (not your game, not the host...). Both reach the
player as an ephemeral reply and change nothing. A :class:`~db.store.StoreError` means the write
was not saved (the store rolled it back, and the table manager rebuilt its state from the log):
the player is told exactly that. Its kind :class:`~db.store.OutcomeUnknown` means the connection
was lost while committing and the store could not learn whether it was saved: the player is told
that, never "not saved". Anything else is a bug: it is logged and the
player gets a generic apology instead of Discord's "This interaction failed".

Once something is committed for an interaction (a move, a start, a new lobby), the code that
committed it says so with :func:`mark_committed`; an error after that point (the store failing on a
later write, a bug) is then never answered "nothing changed": the player is told what stands.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.logs import context, what_was_used, where
from db.store import OutcomeUnknown, StoreError
from games.common.engine import GameError
from locales import _

log = logging.getLogger(__name__)


class Refusal(Exception):
    """The bot refuses a request; ``str(self)`` is shown to the user as it is."""


USER_ERRORS = (GameError, Refusal)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def guarded(func: F) -> F:
    """For slash commands: a refusal is an answer, not an error, so it never reaches the tree's
    error handler (which is kept for bugs). Components use :func:`report` directly.

    Works for plain functions (``interaction`` first) and for a cog's or group's methods
    (``self`` first, then ``interaction``): the refusal is answered on the interaction, wherever
    it sits among the arguments."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await func(*args, **kwargs)
        except USER_ERRORS as error:
            interaction = next((a for a in args if isinstance(a, discord.Interaction)), kwargs.get("interaction"))
            if interaction is None:
                raise
            await report(interaction, error)

    # discord.py reads parameter types from the signature; give it real types, not strings
    # that would be resolved in this module's namespace.
    wrapper.__signature__ = inspect.signature(func, eval_str=True)  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


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
    """The single error handler for commands and components."""
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
