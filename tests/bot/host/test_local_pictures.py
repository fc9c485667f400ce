"""The local page's picture checks (:mod:`bot.host.local_pictures`), without a browser: SimCord's
media worker is given a decoder the test controls, so that a check can be held and released."""

from __future__ import annotations

import asyncio
import hashlib
import io
from types import SimpleNamespace

from PIL import Image
from simcord.preview._media import MediaInfo

from bot.host.local_pictures import keep_picture_checks


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height), (0, 128, 0, 255)).save(out, format="PNG")
    return out.getvalue()


async def test_a_card_emojis_check_cancelled_by_its_pictures_release_is_made_again() -> None:
    """The first card emoji's check is shared by every card emoji. When the page republishes while
    it runs, SimCord releases that picture and cancels its check: the emoji asked for must still
    get its picture (the check made again), and so must the next one, from that check. (A
    cancelled check was kept, and every card emoji for the rest of the run stayed in words.)"""
    nine, queen = _png(20, 28), _png(22, 30)
    preview = SimpleNamespace(_explicit_assets={"ct_9S": ("ct_9S.png", nine), "ct_QH": ("ct_QH.png", queen)})
    keep_picture_checks(preview)
    worker = preview._media_worker
    decoded: list[str] = []
    first_held = asyncio.Event()

    async def decode(key: str, blob: bytes, media_time: float | None) -> MediaInfo:
        decoded.append(key)
        if len(decoded) == 1:
            first_held.set()
            await asyncio.Event().wait()  # held until released (cancelled)
        return MediaInfo(
            format="png", width=1, height=1, frames=1, decoded_bytes=4, normalized=blob, content_type="image/png"
        )

    worker._decode = decode
    nine_key, queen_key = hashlib.sha256(nine).hexdigest(), hashlib.sha256(queen).hexdigest()
    asked = asyncio.create_task(worker.validate(nine_key, nine))
    await first_held.wait()
    worker.release(nine_key)  # the page republished: SimCord cancels the picture's check

    info = await asked
    assert (info.width, info.height, info.normalized) == (20, 28, nine)
    assert decoded == [nine_key, nine_key]
    served = await worker.validate(queen_key, queen)
    assert (served.width, served.height, served.normalized) == (22, 30, queen)
    assert decoded == [nine_key, nine_key], "the other card emojis are served from the one check"


async def test_the_bots_own_pictures_are_checked_once_and_anyone_elses_each_time() -> None:
    """A table's picture is new at every move: the first the bot drew is checked, the next ones
    it drew are served as drawn with that check's findings and their own size; a picture it did
    not draw (a file from elsewhere) is checked itself, every new one."""
    from draw.images import encode

    table, next_table = encode(Image.new("RGB", (40, 30), (1, 2, 3))), encode(Image.new("RGB", (50, 20), (3, 2, 1)))
    foreign, other_foreign = _png(10, 12), _png(11, 13)
    preview = SimpleNamespace(_explicit_assets={})
    keep_picture_checks(preview)
    worker = preview._media_worker
    decoded: list[bytes] = []

    async def decode(key: str, blob: bytes, media_time: float | None) -> MediaInfo:
        decoded.append(blob)
        return MediaInfo(
            format="png",
            width=1,
            height=1,
            frames=1,
            decoded_bytes=4,
            normalized=b"normalized",
            content_type="image/png",
        )

    worker._decode = decode
    shown = [
        await worker.validate(hashlib.sha256(b).hexdigest(), b) for b in (table, next_table, foreign, other_foreign)
    ]
    assert decoded == [table, foreign, other_foreign]
    assert (shown[1].width, shown[1].height, shown[1].normalized, shown[1].format) == (50, 20, next_table, "png")
    assert shown[3].normalized == b"normalized"
