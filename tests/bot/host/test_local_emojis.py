"""The card emojis on the local page when their picture is missing: said in words, in a real browser.

SimCord's page writes "Custom emoji unavailable" where an emoji has no picture (an id its server
does not know, a picture it could not keep, a picture the page could not load), and once that was
all a player saw of the only card in their hand and of the turn-up. The page runs in process here
(:func:`bot.host.local.local_table`), so the test can send a message with every kind of emoji
place (text, an embed, a button, a select menu's options) the way a game sends them, and headless
Chromium reads what a person reads. A game played here by SimCord's members shows the page a
long deal's tricks and a spectator's view of the last deal's hands: card pictures, no code.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.bot.host.test_local import needs_browser

pytest.importorskip("aiohttp")  # simcord[preview]

import discord  # noqa: E402
from simcord.backend.cdn import CDN_BASE  # noqa: E402

from bench.browser import launch_chromium  # noqa: E402
from bench.simdriver import OhHellDriver, open_table, table_message, virtual_timers  # noqa: E402
from bot.host.local import MEMBERS, local_table  # noqa: E402
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


@pytest.fixture(scope="module")
def chromium_thread() -> Iterator[tuple[ThreadPoolExecutor, Any]]:
    """Headless Chromium for this file's page reads, and the one thread that drives it: the page
    runs in the test's own event loop, so the browser is driven beside it, and Playwright's sync
    API answers only on the thread that started it. One for the file's three reads (each read
    started one of its own: 1.3 s of CPU a start and stop); each read opens a context of its own."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="chromium") as thread, ExitStack() as stack:
        browser = thread.submit(stack.enter_context, launch_chromium()).result()
        try:
            yield thread, browser
        finally:
            thread.submit(stack.close).result()


async def in_chromium(chromium_thread: tuple[ThreadPoolExecutor, Any], read: Any, *args: Any) -> Any:
    """``read(browser, *args)`` on the browser's own thread, the test's event loop going on meanwhile."""
    thread, browser = chromium_thread
    return await asyncio.get_running_loop().run_in_executor(thread, read, browser, *args)


def read_the_page(browser: Any, url: str) -> dict[str, dict[str, list[str]]]:
    """What Chromium shows of the message, its menu open: while every picture is on its way (the
    program answers none yet) and once they come; with each picture answered at the second ask
    (the program busy at the first); with every picture refused for good. For each, the emojis
    shown as pictures and those said in words, place by place, and the message's text."""
    seen: dict[str, dict[str, list[str]]] = {}
    asked: dict[str, int] = {}
    held: list[Any] = []

    def busy_at_first(route: Any) -> None:
        asked[route.request.url] = asked.get(route.request.url, 0) + 1
        if asked[route.request.url] == 1:
            route.fulfill(status=404, body="{}")
        else:
            route.continue_()

    def look(page: Any, case: str) -> None:
        message = page.locator(".channel-message", has_text="Turn-up").first
        seen[case] = {"text": [message.inner_text()]}
        for place, scope in PLACES.items():
            where = message.locator(scope)
            seen[case][f"{place} pictures"] = where.locator("img.custom-emoji:visible").evaluate_all(
                "images => images.map(i => i.dataset.cardtableEmoji)"
            )
            seen[case][f"{place} words"] = where.locator(".cardtable-said").all_inner_texts()
            seen[case][f"{place} waiting"] = where.locator(".cardtable-waiting").all_inner_texts()

    # every emoji settled: a picture loaded, or (refused) no picture left to wait for
    settled = (
        "() => !document.querySelector('.cardtable-waiting') && [...document.querySelectorAll("
        "'.channel-message img.custom-emoji')].every(i => i.getAttribute('src') && i.complete && i.naturalWidth > 0)"
    )
    cases = (
        ("held", lambda route: held.append(route)),
        ("busy", busy_at_first),
        ("refused", lambda route: route.fulfill(status=404)),
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        for case, answer in cases:
            page.unroute(ASSETS)
            page.route(ASSETS, answer)
            page.goto(url)
            message = page.locator(".channel-message", has_text="Turn-up").first
            message.wait_for(timeout=30_000)
            message.locator(".select-trigger").click()
            message.locator(".select-option").last.wait_for(timeout=10_000)
            if case == "held":
                page.wait_for_function(
                    "() => document.querySelectorAll('.cardtable-waiting').length >= 4", timeout=30_000
                )
                look(page, "waiting")
                while held:
                    held.pop().continue_()
            page.wait_for_function(
                settled
                + (" && !document.querySelector('.channel-message img.custom-emoji')" if case == "refused" else ""),
                timeout=30_000,
                polling=100,
            )
            look(page, case)
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
async def test_an_emoji_without_its_picture_is_said_in_words_wherever_the_page_shows_it(
    tmp_path: Path, chromium_thread: Any
) -> None:
    """The queen of spades, whose picture the server has not got, is said in words in the text,
    the embed, its button and its menu option, where SimCord's page wrote "Custom emoji
    unavailable"; the king of hearts, whose id it does not know, in words where the page showed
    its markup (``<:ct_KH:1234…>``). The nine of spades is said in words while its picture is on
    its way, and shows as its picture once it comes (once the busy program answers); when its
    picture is refused for good, it is said in words too. Nowhere "unavailable", nowhere an
    emoji's markup."""
    settings = Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.0)
    async with local_table(settings, port=0, settle_timeout=0.5) as (env, preview, _clock, _shown):
        await post_every_kind_of_emoji(env, preview)
        seen = await in_chromium(chromium_thread, read_the_page, preview.url)

    queen, nine, king = "queen of spades", "9 of spades", "king♥"
    waiting = seen["waiting"]
    assert waiting["text waiting"] == [nine] and waiting["embed waiting"] == [nine], waiting
    assert waiting["buttons waiting"] == [nine] and waiting["options waiting"] == [nine], waiting
    assert not any(waiting[f"{place} pictures"] for place in PLACES), waiting
    for case in ("held", "busy"):
        shown = seen[case]
        assert shown["text words"] == [queen, king] and shown["text pictures"] == ["ct_9S"], shown
        assert shown["embed words"] == [queen, queen, king] and shown["embed pictures"] == ["ct_9S"], shown
        assert shown["buttons words"] == [queen] and shown["buttons pictures"] == ["ct_9S"], shown
        assert shown["options words"] == [queen] and shown["options pictures"] == ["ct_9S"], shown
        assert not any(shown[f"{place} waiting"] for place in PLACES), shown
    refused = seen["refused"]
    assert refused["text words"] == [queen, nine, king], refused
    assert refused["embed words"] == [queen, queen, nine, king], refused
    assert refused["buttons words"] == [queen, nine] and refused["options words"] == [queen, nine], refused
    assert not any(refused[f"{place} pictures"] or refused[f"{place} waiting"] for place in PLACES), refused
    for case in seen.values():
        text = case["text"][0]
        assert not PLACEHOLDER.search(text) and "<:" not in text, text
        assert f"Turn-up {queen}, your card" in text and f"Bob led {queen}" in text, text


def read_the_table(browser: Any, url: str, reader: str, title: str) -> dict[str, Any]:
    """What ``reader``'s page shows of the newest field or embed named ``title`` (its text as read,
    with each card picture's emoji name), once its pictures have loaded."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(url.replace("/#", f"/?as={reader}#"))
        page.wait_for_function(
            "name => document.documentElement.dataset.cardtableShownAs === name", arg=reader, timeout=30_000
        )
        part = page.locator(".embed-field, .embed-card", has_text=title).last
        part.wait_for(timeout=30_000)
        page.wait_for_function(
            "part => [...part.querySelectorAll('img')].every("
            "i => i.getAttribute('src') && i.complete && i.naturalWidth > 0)",
            arg=part.element_handle(),
            timeout=30_000,
            polling=100,
        )
        return {
            "text": part.inner_text(),
            "pictures": part.locator("img.custom-emoji").evaluate_all(
                "images => images.map(i => i.dataset.cardtableEmoji)"
            ),
            "said": part.locator(".cardtable-said").all_inner_texts(),
        }
    finally:
        context.close()


@needs_browser
async def test_a_long_deals_tricks_and_the_last_deals_hands_show_their_cards_on_the_page(
    tmp_path: Path, chromium_thread: Any
) -> None:
    """Alice, Bob and Carol play a deal of 13 cards, Dave watches. A waiting player's panel lists
    the deal's tricks: on a long deal the oldest are left out whole, said in a line, and no
    emoji's code shows ("…470808113>" did, at the top of "Tricks this deal"). In the next deal
    the spectator's view shows the last deal's hands as card pictures, no ♠ or ♣ as text (dark
    grey on the dark page)."""
    settings = Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.0)
    async with local_table(settings, port=0, settle_timeout=2) as (env, preview, _clock, _shown):
        # its timers on the virtual clock, its table edited at once, as every SimCord test's bot
        # (here the page's clock does not run: the test moves the game, the page only shows it)
        virtual_timers(env.bot).tables.presenter.coalesce = 0.0
        alice, bob, carol, dave = preview.viewers
        channel = preview.channel
        players = {member.id: member for member in (alice, bob, carol)}
        await open_table(env, channel, alice, [bob, carol], preset="spades", options={"fixed_hands": "13,2"})
        driver = OhHellDriver(env, channel, players)
        table = driver.table()
        while len(table.engine.view(None)["deal_tricks"]) < 12:
            assert await driver.step()
        seat = next(s for s in range(3) if s not in table.engine.to_act())
        waiting = next(
            name
            for name, member in zip(MEMBERS, preview.viewers, strict=True)
            if member.id == table.seats[seat].user_id
        )
        await driver.panel_of(players[table.seats[seat].user_id])
        await preview.refresh()
        tricks = await in_chromium(chromium_thread, read_the_table, preview.url, waiting, "Tricks this deal")

        while table.engine.deal_number < 2:
            assert await driver.step()
        await bob.slash(channel, "ohhell spectators", hand="show")
        watched = await dave.click(table_message(channel, env.bot.user.id), label="Watch")
        assert watched.response is not None and watched.response.ephemeral, watched
        await preview.refresh()
        last = await in_chromium(chromium_thread, read_the_table, preview.url, "Dave", "🂠")

    _name, first, *rest = [line for line in tricks["text"].split("\n") if line.strip()]
    assert re.fullmatch(r"… \d+ earlier tricks?", first), tricks
    assert rest and rest[-1].startswith("12. "), tricks
    assert not re.search(r"\d{6,}|<:|:\d+>|>", tricks["text"]), tricks
    assert len(tricks["pictures"]) >= 3 * len(rest) and not tricks["said"], tricks
    assert all(name.startswith("ct_") for name in tricks["pictures"]), tricks
    assert not any(suit in last["text"] for suit in "♠♣") and "<:" not in last["text"], last
    assert len(last["pictures"]) >= 3 and not last["said"], last
