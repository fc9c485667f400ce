"""The card emojis on the local page when their picture is missing: said in words, in a real browser.

SimCord's page writes "Custom emoji unavailable" where an emoji has no picture (an id its server
does not know, a picture it could not keep, a picture the page could not load), and once that was
all a player saw of the only card in their hand and of the turn-up. The page runs in process here
(:func:`bot.host.local.local_table`), so the test can send a message with every kind of emoji
place (text, an embed, a button, a select menu's options) the way a game sends them, and headless
Chromium reads what a person reads.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tests.bot.host.test_local import needs_browser

pytest.importorskip("aiohttp")  # simcord[preview]

import discord  # noqa: E402
from simcord.backend.cdn import CDN_BASE  # noqa: E402

from bench.browser import launch_chromium  # noqa: E402
from bot.host.local import local_table  # noqa: E402
from bot.host.settings import Settings  # noqa: E402
from draw.emojis import EMOJIS  # noqa: E402

#: an emoji id nobody uploaded (text written before the emojis were uploaded again, say): Discord
#: shows such markup as the emoji, SimCord's page as the markup itself
UNKNOWN_ID = 123_456_789_012_345_678
#: what SimCord's page writes in place of an emoji without a picture
PLACEHOLDER = re.compile(r"unavailable", re.IGNORECASE)


async def post_every_kind_of_emoji(env: Any, preview: Any) -> None:
    """One message with the queen of spades (the bot's emoji, whose picture the page's server has
    not got: one it could not keep), the nine of spades (the bot's, with its picture) and the king
    of hearts (markup with an id the server does not know) in its text, an embed, two buttons and
    a select menu's options (Discord refuses a component's emoji it does not know: no king there)."""
    queen, nine = EMOJIS.partial("QS"), EMOJIS.partial("9S")
    assert queen is not None and nine is not None, "the local bot did not upload its card emojis"
    del preview._explicit_assets[f"{CDN_BASE}/emojis/{queen.id}.png"]
    king = f"<:ct_KH:{UNKNOWN_ID}>"
    view = discord.ui.View()
    view.add_item(discord.ui.Button(emoji=queen, custom_id="queen"))
    view.add_item(discord.ui.Button(emoji=nine, custom_id="nine"))
    view.add_item(
        discord.ui.Select(
            custom_id="pick",
            placeholder="Pick a card",
            options=[
                discord.SelectOption(label="Queen", value="queen", emoji=queen),
                discord.SelectOption(label="Nine", value="nine", emoji=nine),
            ],
        )
    )
    embed = discord.Embed(title="Trick 1", description=f"Bob led {queen}")
    embed.add_field(name="Tricks this deal", value=f"Alice: {queen} {nine} · Bob: {king}")
    channel = env.bot.get_channel(preview.channel.id)
    await channel.send(content=f"Turn-up {queen}, your card {nine}, led {king}", embeds=[embed], view=view)
    await env.settle()
    await preview.refresh()


def read_the_page(url: str) -> dict[str, dict[str, list[str]]]:
    """What Chromium shows of the message, its menu open: first with each picture answered at the
    second ask (the program busy at the first), then with every picture refused for good. For
    each, the emojis shown as pictures and those said in words, place by place, and the
    message's text."""
    seen: dict[str, dict[str, list[str]]] = {}
    asked: dict[str, int] = {}

    def busy_at_first(route: Any) -> None:
        asked[route.request.url] = asked.get(route.request.url, 0) + 1
        if asked[route.request.url] == 1:
            route.fulfill(status=404, body="{}")
        else:
            route.continue_()

    with launch_chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            for case, answer in (("busy", busy_at_first), ("refused", lambda route: route.fulfill(status=404))):
                page.unroute(ASSETS)
                page.route(ASSETS, answer)
                page.goto(url)
                message = page.locator(".channel-message", has_text="Turn-up").first
                message.wait_for(timeout=30_000)
                message.locator(".select-trigger").click()
                message.locator(".select-option").last.wait_for(timeout=10_000)
                # every emoji settled: a picture loaded, or no picture left to wait for
                page.wait_for_function(
                    "() => [...document.querySelectorAll('.channel-message img.custom-emoji')].every("
                    "i => i.getAttribute('src') && i.complete && i.naturalWidth > 0)"
                    + (" && !document.querySelector('.channel-message img.custom-emoji')" if case == "refused" else ""),
                    timeout=30_000,
                    polling=100,
                )
                seen[case] = {"text": [message.inner_text()]}
                for place, scope in PLACES.items():
                    where = message.locator(scope)
                    seen[case][f"{place} pictures"] = where.locator("img.custom-emoji").evaluate_all(
                        "images => images.map(i => i.dataset.cardtableEmoji)"
                    )
                    seen[case][f"{place} words"] = where.locator(".cardtable-said").all_inner_texts()
                page.keyboard.press("Escape")
            assert any(count > 1 for count in asked.values()), asked
        finally:
            context.close()
    return seen


#: the places an emoji shows in the message
PLACES = {
    "text": ".message-content",
    "embed": ".embed-card",
    "buttons": ".component-button",
    "options": ".select-option",
}
ASSETS = re.compile(r"/api/assets/")


@needs_browser
async def test_an_emoji_without_its_picture_is_said_in_words_wherever_the_page_shows_it(tmp_path: Path) -> None:
    """The queen of spades, whose picture the server has not got, is said in words in the text,
    the embed, its button and its menu option, where SimCord's page wrote "Custom emoji
    unavailable"; the king of hearts, whose id it does not know, in words where the page showed
    its markup (``<:ct_KH:1234…>``). The nine of spades shows as its picture once the busy
    program answers; when its picture is refused for good, it is said in words too. Nowhere
    "unavailable", nowhere an emoji's markup."""
    settings = Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.0)
    async with local_table(settings, port=0, settle_timeout=0.5) as (env, preview, _clock, _shown):
        await post_every_kind_of_emoji(env, preview)
        seen = await asyncio.to_thread(read_the_page, preview.url)

    queen, nine, king = "queen of spades", "9 of spades", "king♥"
    busy, refused = seen["busy"], seen["refused"]
    assert busy["text words"] == [queen, king] and busy["text pictures"] == ["ct_9S"], busy
    assert busy["embed words"] == [queen, queen, king] and busy["embed pictures"] == ["ct_9S"], busy
    assert busy["buttons words"] == [queen] and busy["buttons pictures"] == ["ct_9S"], busy
    assert busy["options words"] == [queen] and busy["options pictures"] == ["ct_9S"], busy
    assert refused["text words"] == [queen, nine, king], refused
    assert refused["embed words"] == [queen, queen, nine, king], refused
    assert refused["buttons words"] == [queen, nine] and refused["options words"] == [queen, nine], refused
    assert not any(refused[f"{place} pictures"] for place in PLACES), refused
    for case in (busy, refused):
        text = case["text"][0]
        assert not PLACEHOLDER.search(text) and "<:" not in text, text
        assert f"Turn-up {queen}, your card" in text and f"Bob led {queen}" in text, text
