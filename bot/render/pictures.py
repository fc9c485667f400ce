"""Putting a picture on a message: the embed shows the attached file, the rendering carries it."""

from __future__ import annotations

import discord

from bot.contract import ImageFile


def show_picture(embed: discord.Embed, filename: str, data: bytes) -> ImageFile:
    """Point ``embed``'s image at the file and return that file, for :attr:`Rendered.files`."""
    embed.set_image(url=f"attachment://{filename}")
    return ImageFile(filename, data)
