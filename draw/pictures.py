"""Putting a picture on a message: the embed shows the attached file, the rendering carries it.

:class:`ImageFile` lives here, with the drawing, rather than in the runtime's contract: a picture
is bytes and a file name, which any renderer can make without knowing the bot; the runtime's
:class:`bot.contract.Rendered` carries these and re-exports the name."""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord


@dataclass(frozen=True, slots=True)
class ImageFile:
    """A picture a message carries: PNG bytes and the file name an embed points at
    (``attachment://<filename>``). Kept as bytes because a :class:`discord.File` is used up by
    the request that sends it, and a rendering may be sent again (a retry, a repost)."""

    filename: str
    data: bytes

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename)


def show_picture(embed: discord.Embed, filename: str, data: bytes) -> ImageFile:
    """Point ``embed``'s image at the file and return that file, for :attr:`Rendered.files`."""
    embed.set_image(url=f"attachment://{filename}")
    return ImageFile(filename, data)
