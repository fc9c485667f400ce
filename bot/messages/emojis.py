"""Uploading the card emoji set as the application's own emojis at start-up.

Only the missing ones are uploaded (a restart finds the earlier uploads and sends nothing), and
a refusal (no permission, the application's emoji limit, a bad gateway) stops the upload with a
warning: the cards then read as text wherever an emoji is missing. Runs as a background task, so a
slow first upload (some 64 requests, rate-limited) never delays the bot's start.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from draw.emojis import EMOJIS, all_emojis, emoji_png

log = logging.getLogger(__name__)


async def upload_card_emojis(client: discord.Client) -> int:
    """Make sure every card has its application emoji; returns how many were uploaded now."""
    try:
        existing = {e.name: e.id for e in await client.fetch_application_emojis()}
    except discord.HTTPException:
        log.warning("could not list the application's emojis: cards stay as text", exc_info=True)
        return 0
    uploaded = 0
    for name, (code, four) in all_emojis().items():
        if name in existing:
            continue
        image = await asyncio.to_thread(emoji_png, code, four)
        try:
            emoji = await client.create_application_emoji(name=name, image=image)
        except discord.HTTPException:
            log.warning("Discord refused the card emoji %s: the rest stay as text", name, exc_info=True)
            break
        existing[name] = emoji.id
        uploaded += 1
    EMOJIS.set(existing)
    log.info("card emojis: %d ready, %d uploaded now", len(EMOJIS), uploaded)
    return uploaded
