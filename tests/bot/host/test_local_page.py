"""The local mode's page (``bot.host.local_page``) in process: the real bot, SimCord's world and page,
no browser (tests/bot/host/test_local.py drives it in one). What a person sees is the page's
publication, and the pictures the page's server answers with, so those are what is checked."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")  # simcord[preview]

import aiohttp  # noqa: E402
import discord  # noqa: E402
from PIL import Image  # noqa: E402

from bot.host.local import local_table  # noqa: E402
from bot.host.local_pictures import TEXT_JS_PLACEHOLDER, said_emojis  # noqa: E402
from bot.host.settings import Settings  # noqa: E402
from bot.seam.contract import Rendered  # noqa: E402
from draw.emojis import EMOJIS, all_emojis, emoji_png  # noqa: E402
from draw.readable import readable  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def custom_emojis(value: Any) -> list[dict]:
    """Every custom emoji the page's publication shows (in text, embeds, buttons and options)."""
    if isinstance(value, dict):
        own = [value] if value.get("custom") is True and "asset_id" in value else []
        return own + [e for v in value.values() for e in custom_emojis(v)]
    if isinstance(value, list):
        return [e for v in value for e in custom_emojis(v)]
    return []


async def test_the_page_shows_cards_as_the_bots_emojis_with_their_pictures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """♠ and ♣ as text are dark grey on a dark page. The local page shows the cards as
    Discord does, as the bot's card emojis, and its server answers each emoji with its picture
    (SimCord keeps an uploaded emoji's name and id, not its image: before, the local mode showed
    the symbols, and with the emojis alone the page said "Custom emoji unavailable").

    The message is made as a game's are (every text through :func:`draw.readable.readable`,
    a card button with the card's emoji); the browser test plays a real game on the page.
    SimCord checks a picture in a new process before serving it: of the card emojis, the bot's
    own pictures drawn alike, only the first is checked (a tab waited 36 s for 27 of them)."""
    from simcord.preview._media import MediaWorker

    checked: list[int] = []
    decode = MediaWorker._decode

    async def counted(self: Any, key: str, blob: bytes, media_time: float | None) -> Any:
        checked.append(len(blob))
        return await decode(self, key, blob, media_time)

    monkeypatch.setattr(MediaWorker, "_decode", counted)
    settings = Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.0)
    async with local_table(settings, port=0, settle_timeout=0.5) as (env, preview, _clock, _shown):
        assert len(EMOJIS) == len(all_emojis()), "the local bot did not upload its card emojis"
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="9♠", emoji=EMOJIS.partial("9S"), custom_id="card"))
        view.add_item(discord.ui.Button(label="Lead ♣", custom_id="lead"))
        message = Rendered(
            content="Alice played 9♠ on 10♣; trumps ♠",
            embeds=[discord.Embed(title="Trick 1 · trumps ♠", description="Bob: K♣ Q♥")],
            view=view,
        )
        readable(message, four=False)
        channel = env.bot.get_channel(preview.channel.id)
        await channel.send(content=message.content, embeds=message.embeds, view=message.view)
        await env.settle()
        await preview.refresh()
        page = preview._python
        messages = page.snapshot["messages"]
        shown = json.dumps(messages, ensure_ascii=False)
        assert "Alice played" in shown and "Trick 1" in shown and "Lead clubs" in shown, shown
        assert "♠" not in shown and "♣" not in shown, shown

        emojis = custom_emojis(messages)
        names = {e["name"] for e in emojis}
        assert {"ct_9S", "ct_10C", "ct_suitS", "ct_KC", "ct_QH"} <= names, names
        assert all(name.startswith(("ct_", "ct4_")) for name in names), names
        assert all(e["available"] and e["asset_id"] for e in emojis), emojis
        codes = all_emojis()
        async with aiohttp.ClientSession() as http:
            for emoji in {e["asset_id"]: e for e in emojis}.values():
                async with http.get(
                    f"http://127.0.0.1:{preview._server.port}/api/assets/{emoji['asset_id']}",
                    headers={"X-Simcord-Capability": preview.capability, "X-Simcord-Context": page.id},
                ) as answer:
                    assert answer.status == 200, await answer.text()
                    assert answer.content_type == "image/png"
                    picture = await answer.read()
                # the bot's own picture (SimCord re-encodes it: the same pixels, other bytes)
                assert picture.startswith(PNG)
                with (
                    Image.open(io.BytesIO(picture)) as served,
                    Image.open(io.BytesIO(emoji_png(*codes[emoji["name"]]))) as own,
                ):
                    assert served.size == own.size and served.convert("RGBA").tobytes() == own.convert("RGBA").tobytes()
        assert len({e["asset_id"] for e in emojis}) >= 5 and len(checked) == 1, checked


async def test_the_local_channel_names_every_game_the_bot_runs_an_extra_one_too(tmp_path: Path) -> None:
    """The channel's topic says how to open a table, one command a game: written before the games
    load, it is rewritten from the bot's registry, so a game of ``Settings.extra_games`` (the
    test-only High Card) is named beside the games under ``cogs/``."""
    settings = Settings(
        token="",
        database_path=str(tmp_path / "local.sqlite3"),
        ai_delay=0.0,
        extra_games=("tests.thirdgame",),
    )
    async with local_table(settings, port=0, settle_timeout=0.5) as (env, preview, _clock, _shown):
        keys = list(env.bot.tables.kinds)
        assert len(keys) == 3, keys
        topic = env.backend.channels[preview.channel.id].topic
        assert topic == "Type " + " or ".join(f"/{key} new" for key in keys) + " to open a table.", topic


def test_every_emoji_placeholder_of_simcords_page_is_said_in_words() -> None:
    """SimCord's page writes "Custom emoji unavailable" in two places of its ``text.js`` (an emoji
    it has no picture of, a picture that did not load); the local page serves that file with both
    saying the emoji in words (tests/bot/host/test_local_emojis.py shows them in a browser). A
    SimCord release that writes them otherwise fails here, not only where a browser runs."""
    import simcord.preview

    original = (Path(simcord.preview.__file__).with_name("static") / "text.js").read_text(encoding="utf-8")
    assert original.count(TEXT_JS_PLACEHOLDER) == 2
    served = said_emojis(original)
    assert TEXT_JS_PLACEHOLDER not in served
    assert served.count("(cardtableEmojiSaid(emoji, label))") == 2  # the append and the replaceWith
    assert said_emojis("export function other() {}") == "export function other() {}"
