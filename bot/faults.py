"""What a failed request to Discord means for showing a table: wait and try again (how long), or
the bot lacks a permission (which one, so the players can be told), or the thing is gone.

Kept apart from the display loop so the classification can be read (and tested) on its own.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import aiohttp
import discord

from locales import N_

#: pauses between tries after a failure that is probably brief (5xx, a timeout), doubling, capped
BACKOFF_START, BACKOFF_CAP = 1.0, 60.0
#: a refused permission is fixed by a person, not by time: try now and then, not often
PERMISSION_START, PERMISSION_CAP = 60.0, 300.0
#: the errors a request to Discord may end in that say nothing about the bot's own code
TRANSIENT = (discord.HTTPException, discord.RateLimited, asyncio.TimeoutError, aiohttp.ClientError, OSError)

#: Discord's JSON error codes the display acts on
UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, MISSING_ACCESS, CANNOT_DM, MISSING_PERMISSIONS = 10003, 10008, 50001, 50007, 50013
#: "Maximum number of edits to messages older than 1 hour reached" (sent with a 429 or a 400)
OLD_MESSAGE_EDITS = 30046


@dataclass(frozen=True, slots=True)
class Fault:
    """One failed request, as the display sees it."""

    what: str  # what was being done ("editing the table")
    status: int  # the HTTP status, or 0 for a timeout / connection error
    code: int  # Discord's JSON error code, 0 if none
    retry_after: float | None = None
    #: the permission the bot lacks, as Discord's settings name it (None: not a permission problem)
    permission: str | None = None

    @property
    def gone(self) -> bool:
        """The message is gone (deleted): post it again rather than retry the edit."""
        return self.status == 404 and self.code in (UNKNOWN_MESSAGE, 0)

    @property
    def too_old(self) -> bool:
        """Discord will not let this (over an hour old) message be edited for now: post the table
        again rather than wait; waiting could last the rest of the deal."""
        return self.code == OLD_MESSAGE_EDITS

    @property
    def bad_request(self) -> bool:
        """Discord refused the request itself (400): retrying the same request cannot help."""
        return self.status == 400

    def delay(self, failures: int) -> float:
        """How long to wait before trying again after ``failures`` failures in a row."""
        if self.retry_after is not None:
            return max(0.05, self.retry_after)
        if self.permission is not None:
            return min(PERMISSION_CAP, PERMISSION_START * 2.0 ** max(0, failures - 1))
        return min(BACKOFF_CAP, BACKOFF_START * 2.0 ** max(0, failures - 1))


def classify(error: BaseException, what: str, *, posting: bool) -> Fault:
    """``posting``: the request posts a new message in the channel (needs Send Messages)."""
    if isinstance(error, discord.RateLimited):
        return Fault(what, 429, 0, retry_after=error.retry_after)
    if isinstance(error, discord.HTTPException):
        status, code = error.status, error.code
        retry_after = _retry_after(error) if status == 429 else None
        permission = None
        if status == 403 and code != CANNOT_DM:
            if code == MISSING_ACCESS:
                permission = N_("View Channel")
            elif posting:
                # a table or a panel carries pictures: the post needs files as well as embeds
                permission = N_("Send Messages, Embed Links and Attach Files")
            else:
                permission = N_("View Channel and Read Message History")
        return Fault(what, status, code, retry_after=retry_after, permission=permission)
    return Fault(what, 0, 0)


def _retry_after(error: discord.HTTPException) -> float | None:
    """Discord says how long to wait in the ``Retry-After`` header (and in the JSON body, which
    discord.py does not keep); without either, back off as for any other failure."""
    headers = getattr(error.response, "headers", None) or {}
    for name in ("Retry-After", "retry-after", "X-RateLimit-Reset-After"):
        value = headers.get(name)
        if value is not None:
            try:
                return float(value)
            except ValueError:
                pass
    return None
