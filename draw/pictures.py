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
    #: the picture in words (Discord's alt text, read out by screen readers): made by the picture's
    #: own maker from the same view the picture is drawn from, so it tells no more than the picture
    description: str

    def __post_init__(self) -> None:
        # fitted once, when the picture is made: whoever uploads it sends the description as it is
        object.__setattr__(self, "description", fit_alt(self.description))

    def file(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename, description=self.description)


#: Discord's limit on an attachment's description (``attachments[i].description``)
ALT_LIMIT = 1024


def fit_alt(*tries: str) -> str:
    """The first of ``tries`` (fullest first) within :data:`ALT_LIMIT`; else the last one cut at
    the limit, ending in an ellipsis: a description Discord refuses would lose the whole message."""
    for text in tries:
        if len(text) <= ALT_LIMIT:
            return text
    return tries[-1][: ALT_LIMIT - 1].rstrip() + "…"


def show_picture(embed: discord.Embed, filename: str, data: bytes, description: str) -> ImageFile:
    """Point ``embed``'s image at the file and return that file (with its alt text,
    ``description``), for :attr:`Rendered.files`."""
    embed.set_image(url=f"attachment://{filename}")
    return ImageFile(filename, data, description)
