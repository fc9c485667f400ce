"""The local mode's clock (``bot.local.WallClock``) in process: the real bot, SimCord's world and
page, no browser. What a person sees is the page's publication, so that is what is checked."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")  # simcord[preview]

from simcord.env import Env  # noqa: E402

from bot.local import WallClock, local_table  # noqa: E402
from bot.settings import Settings  # noqa: E402


def shown(preview: Any) -> str:
    """Everything the page's last publication shows (its messages and their text)."""
    return json.dumps(preview._python.snapshot["messages"], ensure_ascii=False)


@asynccontextmanager
async def local_world(tmp_path: Path) -> AsyncIterator[tuple[Any, Any, WallClock]]:
    """The world ``python -m bot.local`` serves (its own :func:`bot.local.local_table`), entered
    in the test's own task (SimCord's clock scope must be left in the context it was entered in)."""
    settings = Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.3)
    async with local_table(settings, port=0, settle_timeout=0.5) as (env, preview, clock, _shown):
        yield env, preview, clock


async def test_a_tick_whose_settle_fails_still_shows_what_the_bot_did(tmp_path, monkeypatch) -> None:
    """Issue 22, item 15: under load SimCord's settle ran out of time ("bot did not settle while
    advancing time"); the tick failed after noting the bot's calls as seen, so the page kept
    "Computer 1 is playing…" until something else changed. The page must show what the bot has
    done even when a settle fails, and the next tick must look again."""
    async with local_world(tmp_path) as (env, preview, clock):
        channel = env.bot.get_channel(preview.channel.id)
        await channel.send("Computer 1 played 7♠")  # what a computer's move posts between two ticks
        real_settle = Env._settle_internal
        failures = 0

        async def loaded_settle(self: Env, **kwargs: Any) -> None:  # too busy to settle in time
            nonlocal failures
            failures += 1
            raise TimeoutError("bot did not settle while advancing time")

        monkeypatch.setattr(Env, "_settle_internal", loaded_settle)
        await clock.tick()  # must not raise: the clock goes on
        assert failures >= 1
        assert "Computer 1 played 7♠" in shown(preview), "the page did not show the bot's move"

        # Load gone: the next tick settles and publishes what came after, as usual.
        monkeypatch.setattr(Env, "_settle_internal", real_settle)
        await channel.send("Your turn, Alice")
        await clock.tick()
        assert "Your turn, Alice" in shown(preview)


async def test_a_tick_that_fails_is_tried_again_on_the_next(tmp_path) -> None:
    """Even where nothing could be published (the publication itself failed), the bot's calls
    are not counted as shown: the next tick publishes them."""
    async with local_world(tmp_path) as (env, preview, clock):
        channel = env.bot.get_channel(preview.channel.id)
        await channel.send("Computer 2 bid 3")
        real_publish = preview._publish

        def broken_publish(page: Any, **kwargs: Any) -> None:
            raise TimeoutError("bot did not settle while advancing time")

        preview._publish = broken_publish
        with pytest.raises(TimeoutError):
            await clock.tick()
        preview._publish = real_publish
        await clock.tick()
        assert "Computer 2 bid 3" in shown(preview)


async def test_a_press_the_bot_takes_longer_than_a_settle_limit_over_is_not_called_failed(tmp_path) -> None:
    """Stop 32: on a loaded machine the bot took longer than SimCord's settle limit to answer a
    press (commit the card, draw the table in a thread), and the page said "The bot action did not
    settle before its deadline." although the card was played. A press is settled again while the
    bot works on it; the clock's ticks keep the short limit (a tick's failure is shown next tick)."""
    async with local_world(tmp_path) as (env, preview, clock):
        channel = env.bot.get_channel(preview.channel.id)
        env.settle_timeout = 0.1  # SimCord's limit, in real time: the bot's work below takes longer

        def press_taking(seconds: float) -> Callable[[Any, Any], Awaitable[str]]:
            """SimCord's page action, reduced to what matters here: the bot's answer, which takes
            ``seconds`` in a worker thread (as the table's picture is drawn), then a settle."""

            async def answer() -> None:
                await asyncio.to_thread(time.sleep, seconds)
                await channel.send("Alice played 5♠")

            async def press(context_id: Any, body: Any) -> str:
                with env._bot_scope():
                    asyncio.get_running_loop().create_task(answer())
                try:
                    await env._settle_internal(dispatch="INTERACTION_CREATE")
                except TimeoutError:
                    return "did not settle"
                return "settled"

            return press

        # Without the guard the press times out, as the page reported it.
        preview._action = press_taking(0.3)
        assert await preview._action("page", {}) == "did not settle"
        await env.settle(timeout=5)  # let that first answer finish before the guarded press

        clock.guard_page_actions()
        assert await preview._action("page", {}) == "settled"
        assert env.settle_timeout == 0.1, "the ticks' limit is SimCord's own again"
        assert "_settle_internal" not in vars(env), "the patient settle is the press's alone"

        # A bot that never finishes is still reported, after the press's own limit.
        clock.press_settle = 0.25
        preview._action = press_taking(0.6)
        clock.guard_page_actions()
        assert await preview._action("page", {}) == "did not settle"
        await env.settle(timeout=5)
