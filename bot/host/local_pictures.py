"""The local page's pictures: checked once, and an emoji without its picture said in words.

Two things of SimCord's preview page that the local page (:mod:`bot.host.local_page`) changes:

- its ``text.js``, where every emoji the page shows is made (in text, embeds, buttons, menus,
  reactions), writes "Custom emoji unavailable" where an emoji has no picture: the local page
  serves it with the emoji said in words instead (:func:`said_emojis`);
- its server checks each picture in a new process before a page may show it, once per page:
  the local page keeps what a check found (:func:`keep_picture_checks`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import struct
from collections import OrderedDict
from pathlib import Path
from typing import Any

from draw.images import drawn_here

log = logging.getLogger("cardtable.local")

#: where SimCord's page makes the placeholder of a custom emoji without a picture (an id its server
#: does not know, a picture it could not keep, one the page could not load): "Custom emoji unavailable"
TEXT_JS_PLACEHOLDER = 'node("span", "emoji-unavailable", `${label} unavailable`)'
#: what the local page makes there instead (``page/emoji-said.js``): the emoji in words (the early
#: script's cardtableEmojiWords)
TEXT_JS_SAID = Path(__file__).resolve().with_name("page").joinpath("emoji-said.js").read_text(encoding="utf-8")


def said_emojis(text_js: str) -> str:
    """SimCord's ``text.js`` (every emoji the page shows goes through its ``appendEmojiValue``: in
    text, embeds, buttons, a menu's options, reactions) with an emoji that has no picture said
    in words. Unchanged, with a warning, where a SimCord release writes the placeholder otherwise."""
    if TEXT_JS_PLACEHOLDER not in text_js:
        log.warning("SimCord's page changed: an emoji without its picture says 'unavailable', not its name")
        return text_js
    return text_js.replace(TEXT_JS_PLACEHOLDER, "cardtableEmojiSaid(emoji, label)") + "\n" + TEXT_JS_SAID


#: pictures other than the card emojis whose check is kept, the newest: a table's picture that a
#: second tab, or the same tab after a reload, shows again
KEPT_CHECKS = 32
#: the first bytes of every PNG file
PNG = b"\x89PNG\r\n\x1a\n"


def keep_picture_checks(preview: Any) -> None:
    """Check a picture once per run, not once per page, and the card emojis once in all. SimCord
    checks a picture before its page may show it, in a new Python process each time, one at a
    time, and again for every page (each tab, each reload, each member the tab plays as): a tab
    opened on a long deal waited 36-43 s for its 27 card emojis on a loaded machine, and with more
    than 8 waiting the rest were refused ("queue is full"), so the page showed placeholders.

    A check depends on the picture's bytes alone, so its result is kept: for the newest
    :data:`KEPT_CHECKS` pictures (a table's, shown again by a second tab). The bot's own pictures
    are drawn alike: the card emojis (one size, one format), and the tables', hands' and tricks'
    pictures this process has just drawn (:func:`draw.images.drawn_here`; palette PNGs of one
    palette). Of each kind the first one shown is checked, and the others are served as drawn,
    with that check's findings and their own size: a new table picture every move had cost a new
    process (84 of them in a run of the test suite, each starting Python and Pillow)."""
    from simcord.preview._media import MediaWorker

    # (the pictures the page was given: the card emojis, PNG files of one size)
    emojis = {
        hashlib.sha256(picture).hexdigest()
        for _name, picture in preview._explicit_assets.values()
        if picture.startswith(PNG)
    }

    class KeptChecks(MediaWorker):
        def __init__(self) -> None:
            super().__init__()
            self.kept: OrderedDict[str, Any] = OrderedDict()
            #: the first check of each kind of the bot's own pictures ("emoji", "drawn")
            self.first: dict[str, asyncio.Future[Any]] = {}

        async def validate(self, key: str, blob: bytes, *, media_time: float | None = None) -> Any:
            if media_time is not None:  # a moment of a video: not kept
                return await super().validate(key, blob, media_time=media_time)
            own = "emoji" if key in emojis else "drawn" if drawn_here(key) and blob.startswith(PNG) else None
            if own is not None:
                checked = await self._first_checked(own, key, blob)
                width, height = struct.unpack(">II", blob[16:24])  # the PNG's IHDR
                return dataclasses.replace(
                    checked, normalized=blob, width=width, height=height, decoded_bytes=width * height * 4
                )
            if key in self.kept:
                self.kept.move_to_end(key)
                return self.kept[key]
            info = await super().validate(key, blob)
            self.kept[key] = info
            while len(self.kept) > KEPT_CHECKS:
                self.kept.popitem(last=False)
            return info

        async def _first_checked(self, own: str, key: str, blob: bytes) -> Any:
            """The check of the first picture of its kind (``own``), made once and shared. One
            that failed is made again with the next picture shown; one cancelled because its
            picture was released (the page republished meanwhile) is made again with this picture
            at once. (A cancelled check was kept: every card emoji of the rest of the run waited
            in words for a picture that never came.)"""
            while True:
                first = self.first.get(own)
                if first is None or (first.done() and (first.cancelled() or first.exception() is not None)):
                    first = self.first[own] = asyncio.ensure_future(super().validate(key, blob))
                try:
                    return await asyncio.shield(first)
                except asyncio.CancelledError:
                    if not first.cancelled():
                        raise  # this ask itself was cancelled
                # (the shared check was cancelled, not this ask: checked again)

    preview._media_worker = KeptChecks()
