"""bot.fairness.beacon.relay against a fake relay on 127.0.0.1 (tests/bot/fairness/beacon/fake_relay.py) through
the real aiohttp transport, on a stepped clock: 404 until the round exists, 500, a hang, another
round, a bad signature, not JSON. The client takes the round from the first relay that gives it
verified, never earlier than the round's time, never another round, and gives up at its limit."""

from __future__ import annotations

import asyncio

from bot.fairness.beacon.chain import QUICKNET
from bot.fairness.beacon.relay import PAUSE, PER_TRY, Transport, aiohttp_transport, fetch_round
from bot.fairness.beacon.timing import SteppedClock
from tests.bot.fairness.beacon.fake_relay import ROUNDS, FakeRelay

NUMBER = 1000
PUBLISHED = QUICKNET.round_time(NUMBER)


def counting(transport: Transport) -> tuple[Transport, list[int]]:
    """The transport, and a one-item list counting its requests under way (for SteppedClock.run)."""
    busy = [0]

    async def get(address: str) -> tuple[int, bytes]:
        busy[0] += 1
        try:
            return await transport(address)
        finally:
            busy[0] -= 1

    return get, busy


async def test_every_bad_relay_is_passed_over_and_the_good_one_gives_the_round() -> None:
    clock = SteppedClock(PUBLISHED)
    async with FakeRelay(clock.now, published_at=PUBLISHED + 100) as relay:
        relays = [relay.base(b) for b in ("notyet", "error", "other", "badsig", "garbage", "good")]
        fetched = await fetch_round(
            NUMBER, transport=aiohttp_transport(), clock=clock, give_up_at=PUBLISHED + 10, relays=relays
        )
    assert fetched.round is not None and fetched.round.randomness.hex() == ROUNDS[NUMBER]["randomness"]
    lines = [line.split(": ", 1)[1] for line in fetched.tries]
    assert lines[:3] == [
        "The relay does not have round 1000 yet.",
        "The relay answered HTTP 500.",
        "The relay sent round 657413 when asked for round 1000.",
    ]
    # a flipped bit of the signature: off the curve, off the subgroup or another point, as it falls
    assert lines[3].startswith("The round's signature") or lines[3].startswith("The signature is not")
    assert lines[4:] == ["The relay's answer is not JSON."]
    assert fetched.other_rounds == 1
    assert clock.now() == PUBLISHED  # none of it took (virtual) time


async def test_a_hanging_relay_costs_one_try_and_the_next_is_asked() -> None:
    clock = SteppedClock(PUBLISHED)
    async with FakeRelay(clock.now) as relay:
        task = asyncio.create_task(
            fetch_round(
                NUMBER,
                transport=aiohttp_transport(),
                clock=clock,
                give_up_at=PUBLISHED + 10,
                relays=[relay.base("hang"), relay.base("good")],
            )
        )
        await relay.hanging.wait()
        assert not task.done()
        await clock.advance(PER_TRY)
        fetched = await task
    assert fetched.round is not None and fetched.round.number == NUMBER
    assert fetched.tries == [f"{relay.base('hang')}: no answer in 1.0 s."]
    assert [(b, t) for b, _, t in relay.asked] == [("hang", PUBLISHED), ("good", PUBLISHED + PER_TRY)]


async def test_nothing_is_asked_before_the_round_is_published_and_a_late_relay_is_waited_for() -> None:
    clock = SteppedClock(PUBLISHED - 2.5)
    async with FakeRelay(clock.now, published_at=PUBLISHED + 1.2) as relay:
        transport, busy = counting(aiohttp_transport())
        fetched = await clock.run(
            fetch_round(
                NUMBER, transport=transport, clock=clock, give_up_at=PUBLISHED + 10, relays=[relay.base("notyet")]
            ),
            idle=lambda: busy[0] == 0,
        )
    assert fetched.round is not None
    times = [t for _, _, t in relay.asked]
    assert times[0] == PUBLISHED and all(t >= PUBLISHED for t in times)
    # asked again after each pause until the relay has it, and no more
    assert times[-1] >= PUBLISHED + 1.2 > times[-2]
    assert all(abs(b - a - PAUSE) < 1e-6 for a, b in zip(times, times[1:], strict=False))


async def test_no_relay_in_time_gives_nothing_and_never_another_round() -> None:
    clock = SteppedClock(PUBLISHED)
    async with FakeRelay(clock.now, published_at=PUBLISHED + 100) as relay:
        transport, busy = counting(aiohttp_transport())
        relays = [relay.base(b) for b in ("notyet", "error", "other", "badsig")]
        fetched = await clock.run(
            fetch_round(NUMBER, transport=transport, clock=clock, give_up_at=PUBLISHED + 5, relays=relays),
            idle=lambda: busy[0] == 0,
        )
    assert fetched.round is None
    assert fetched.other_rounds >= 2 and clock.now() == PUBLISHED + 5
    assert {n for _, n, _ in relay.asked} == {NUMBER}  # only ever round 1000 was asked for


async def test_a_relay_that_hangs_to_the_end_is_cut_at_the_limit() -> None:
    clock = SteppedClock(PUBLISHED)
    async with FakeRelay(clock.now) as relay:
        task = asyncio.create_task(
            fetch_round(
                NUMBER,
                transport=aiohttp_transport(),
                clock=clock,
                give_up_at=PUBLISHED + 0.4,
                relays=[relay.base("hang")],
            )
        )
        await relay.hanging.wait()
        await clock.advance(0.4)
        fetched = await task
    assert fetched.round is None and fetched.tries == [f"{relay.base('hang')}: no answer in 0.4 s."]
