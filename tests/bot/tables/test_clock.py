"""The clock's supervisor: a background task that raises (here, a computer's decision) is logged
and run again after a pause; one that keeps failing is given up and the channel told in one line,
instead of the table freezing in silence."""

from __future__ import annotations

import random
from typing import Any

from bot.tables.clock import RETRY_DELAYS
from tests.helpers import OhHellDriver, open_table

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def _texts(channel) -> list[str]:
    return [message.content or "" for message in channel.history()]


async def _table_with_computers(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], preset="bowers", options=SHORT, computers=3)
    return channel, ann, env.bot.tables.in_channel(channel.id)


async def test_a_computer_decision_that_fails_once_is_retried_and_the_game_goes_on(simcord_env):
    env = simcord_env
    kind = env.bot.tables.kinds["ohhell"]
    real = kind.ai_action
    failures: list[int] = []

    def flaky(view: Any, level: str, rng: random.Random) -> dict:
        if not failures:
            failures.append(1)
            raise RuntimeError("the computer tripped over its own feet")
        return real(view, level, rng)

    kind.ai_action = flaky  # type: ignore[method-assign]
    channel, ann, table = await _table_with_computers(env)
    driver = OhHellDriver(env, channel, {ann.id: ann}, seed=2)
    await driver.play_to_end()
    assert failures == [1]
    assert "Game over" in channel.last_message.content
    assert not any("went wrong" in text for text in _texts(channel))


async def test_a_computer_that_keeps_failing_is_given_up_and_the_channel_told(simcord_env):
    env = simcord_env
    kind = env.bot.tables.kinds["ohhell"]
    calls: list[int] = []

    def broken(view: Any, level: str, rng: random.Random) -> dict:
        calls.append(1)
        raise RuntimeError("the computer cannot decide")

    kind.ai_action = broken  # type: ignore[method-assign]
    channel, ann, table = await _table_with_computers(env)
    driver = OhHellDriver(env, channel, {ann.id: ann}, seed=2)
    for _ in range(10):  # ann plays until a computer is to move
        if any(table.seats[s].ai_level is not None for s in table.engine.to_act()):
            break
        await driver.step()
    before = list(table.engine.log)
    await env.advance_time(sum(RETRY_DELAYS) + 5)
    await env.settle()
    assert len(calls) == len(RETRY_DELAYS) + 1, "tried once, then once after each pause"
    assert table.engine.log == before, "no move was made"
    told = [text for text in _texts(channel) if "went wrong" in text]
    assert len(told) == 1, told
    assert "/ohhell end" in told[0] and "\n" not in told[0]
    await env.advance_time(60)
    assert len(calls) == len(RETRY_DELAYS) + 1, "given up: no more tries until the table changes"
    assert env.bot.tables.is_live(table)
