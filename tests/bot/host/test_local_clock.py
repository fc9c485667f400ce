"""The local mode's clock (``bot.host.local.WallClock``) in process: the real bot, SimCord's world and
page, no browser. What a person sees is the page's publication, so that is what is checked."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")  # simcord[preview]

from simcord.env import Env  # noqa: E402

from bot.host.local import WallClock, local_table  # noqa: E402
from bot.host.settings import Settings  # noqa: E402


def shown(preview: Any) -> str:
    """Everything the page's last publication shows (its messages and their text)."""
    return json.dumps(preview._python.snapshot["messages"], ensure_ascii=False)


@asynccontextmanager
async def local_world(tmp_path: Path) -> AsyncIterator[tuple[Any, Any, WallClock]]:
    """The world ``python -m bot.host.local`` serves (its own :func:`bot.host.local.local_table`), entered
    in the test's own task (SimCord's clock scope must be left in the context it was entered in)."""
    settings = Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.3)
    async with local_table(settings, port=0, settle_timeout=0.5) as (env, preview, clock, _shown):
        yield env, preview, clock


async def test_a_tick_whose_settle_fails_still_shows_what_the_bot_did(tmp_path, monkeypatch) -> None:
    """Under load SimCord's settle ran out of time ("bot did not settle while
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


async def test_a_press_the_bot_takes_longer_than_a_settle_limit_over_is_not_called_failed(
    tmp_path, monkeypatch
) -> None:
    """On a loaded machine the bot took longer than SimCord's settle limit to answer a
    press (commit the card, draw the table in a thread), and the page said "The bot action did not
    settle before its deadline." although the card was played. A press is settled again while the
    bot works on it; the clock's ticks keep the short limit (a tick's failure is shown next tick).
    SimCord's settle is replaced by one that is busy for a number of its limits, each moving the
    press's clock by one limit: nothing here waits in real time."""
    async with local_world(tmp_path) as (env, preview, clock):
        now = [0.0]
        clock.real_time = lambda: now[0]
        busy = [0]  # the limits the bot's answer still takes
        tries: list[str | None] = []

        async def loaded_settle(self: Env, **options: Any) -> None:
            tries.append(options.get("dispatch"))
            if busy[0] > 0:
                busy[0] -= 1
                now[0] += self.settle_timeout
                raise TimeoutError("bot did not settle")

        monkeypatch.setattr(Env, "_settle_internal", loaded_settle)

        async def press(context_id: Any, body: Any) -> str:
            """SimCord's page action, reduced to what matters here: the settle after the press."""
            try:
                await env._settle_internal(dispatch="INTERACTION_CREATE")
            except TimeoutError:
                return "did not settle"
            return "settled"

        # Without the guard the press times out, as the page reported it.
        preview._action = press
        busy[0] = 3
        assert await preview._action("page", {}) == "did not settle"

        clock.guard_page_actions()
        busy[0] = 3
        tries.clear()
        assert await preview._action("page", {}) == "settled"
        assert tries == ["INTERACTION_CREATE"] * 4  # three limits busy, then settled
        assert env.settle_timeout == 0.5, "the ticks' limit is SimCord's own again"
        assert "_settle_internal" not in vars(env), "the patient settle is the press's alone"

        # A bot that never finishes is still reported, after the press's own limit.
        busy[0] = 1000
        tries.clear()
        assert await preview._action("page", {}) == "did not settle"
        assert len(tries) == round(clock.press_settle / env.settle_timeout)
