"""bot.fairness.beacon.binding: a game names a round after its commitment, waits for that round alone,
and deals from it or carries the label; over 1,000 scripted games (bench/beacon.py's scripted
relays: down, hanging, another round, a bad signature, late posts) and a property test that the
deal never gets the beacon's randomness before the commitment's message exists."""

from __future__ import annotations

import asyncio
import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.beacon import REAL_ROUNDS, run
from bot.fairness.beacon.binding import LABEL, LEAD, Binding, bind_game, deal_seed, name_round, settle, too_late
from bot.fairness.beacon.chain import QUICKNET
from bot.fairness.beacon.timing import SteppedClock


def test_a_thousand_scripted_games_deal_from_their_round_or_carry_the_label() -> None:
    traces = asyncio.run(run(1000, seed=7))
    bound = labelled = 0
    for trace in traces:
        binding, named = trace.binding, trace.named
        assert binding is not None and trace.posted is not None and trace.dealt_seed is not None
        assert binding.round == named
        # the round named did not exist when the commitment was sent, and only it was ever asked for
        assert QUICKNET.round_time(named) > trace.started_at + LEAD - 1e-9
        assert {number for _, number, _ in trace.asked} <= {named}
        assert all(when >= QUICKNET.round_time(named) for _, _, when in trace.asked)
        seed = trace.dealt_seed
        if binding.bound:
            bound += 1
            assert binding.signature == REAL_ROUNDS[named] and binding.label is None
            assert trace.posted < QUICKNET.round_time(named)
        else:
            labelled += 1
            assert binding.label == LABEL and binding.unbound is not None
        # the first deal's seed: from the round's randomness when bound, from the seed alone when labelled
        assert (seed >= 2**62) == binding.bound
    assert bound + labelled == 1000 and bound > 900 and labelled > 10


def test_the_deal_seed_mixes_the_seed_with_the_rounds_randomness() -> None:
    number, signature = next(iter(REAL_ROUNDS.items()))
    bound = Binding(number, signature=signature)
    randomness = hashlib.sha256(bytes.fromhex(signature)).digest()
    expected = hashlib.sha256(b"cardtable/beacon/v1" + (12345).to_bytes(32, "big") + randomness).digest()
    assert deal_seed(12345, bound) == int.from_bytes(expected, "big")
    assert deal_seed(12345, Binding(number, unbound="No drand relay gave round 1000 in time.")) == 12345
    assert deal_seed(12345, None) == 12345


def test_a_commitment_posted_after_its_round_was_due_is_not_bound() -> None:
    number = 1000
    due = QUICKNET.round_time(number)
    assert too_late(number, due - 0.001) is None
    assert "after round 1000 was due" in str(too_late(number, due))

    async def never(address: str) -> tuple[int, bytes]:
        raise AssertionError("a late commitment must not ask for its round")

    binding = asyncio.run(settle(number, due + 0.2, transport=never, clock=SteppedClock(due + 0.3)))
    assert binding.label == LABEL and not binding.bound


def test_a_restarted_bot_asks_for_the_stored_round_even_long_after_it() -> None:
    """A bot down for an hour after naming round 1000 comes back and fetches round 1000, the only
    round the game may use (it would name round 2200 if it named one now)."""
    number = 1000
    now = QUICKNET.round_time(number) + 3600
    asked: list[int] = []

    async def relay(address: str) -> tuple[int, bytes]:
        asked.append(int(address.rsplit("/", 1)[1]))
        return 200, json.dumps({"round": 1000, "signature": REAL_ROUNDS[1000]}).encode()

    clock = SteppedClock(now)
    binding = asyncio.run(
        settle(
            number,
            QUICKNET.round_time(number) - 2,
            transport=relay,
            clock=clock,
            relays=["https://r.test"],
            give_up_at=now + 5,
        )
    )
    assert binding.bound and asked == [1000] and name_round(now) == 2201


@settings(max_examples=150, deadline=None)
@given(
    offset=st.floats(0.0, 2.999),
    post_latency=st.floats(0.0, 5.0),
    lag=st.floats(0.0, 6.0),
    answer=st.floats(0.0, 1.5),
    number=st.sampled_from(sorted(REAL_ROUNDS)),
    seed=st.integers(0, 2**62),
)
def test_the_deal_never_has_the_beacons_randomness_before_the_commitment_exists(
    offset: float, post_latency: float, lag: float, answer: float, number: int, seed: int
) -> None:
    """Whatever the post's delay, the round's lag at the relay and the relay's answer time: the
    round named is published after the commitment's message; no relay is asked before the message
    exists; the randomness reaches the deal only from an answer sent after the message, and a
    message that came too late binds nothing."""
    start = QUICKNET.round_time(number) - LEAD - offset - 0.0005
    clock = SteppedClock(start)
    events: list[tuple[str, float]] = []

    async def post(named: int) -> float | None:
        events.append(("named", clock.now()))
        await clock.sleep(post_latency)
        events.append(("posted", clock.now()))
        return clock.now()

    async def relay(address: str) -> tuple[int, bytes]:
        asked = int(address.rsplit("/", 1)[1])
        events.append(("asked", clock.now()))
        await clock.sleep(answer)
        if clock.now() < QUICKNET.round_time(asked) + lag:
            return 404, b"{}"
        events.append(("randomness sent", clock.now()))
        return 200, json.dumps({"round": asked, "signature": REAL_ROUNDS[asked]}).encode()

    binding = asyncio.run(clock.run(bind_game(post, transport=relay, clock=clock, relays=["https://a", "https://b"])))
    events.append(("dealt", clock.now()))
    first_deal_seed = deal_seed(seed, binding)
    assert binding.round == number
    posted = next(t for e, t in events if e == "posted")
    order = [e for e, _ in events]
    assert order.index("posted") < order.index("dealt")
    assert all(t >= posted for e, t in events if e in ("asked", "randomness sent"))
    if binding.bound:
        assert posted < QUICKNET.round_time(number)
        assert "randomness sent" in order and order.index("posted") < order.index("randomness sent")
        assert first_deal_seed != seed
    else:
        assert first_deal_seed == seed
    if posted >= QUICKNET.round_time(number):
        assert not binding.bound and "asked" not in order


def test_scripted_games_are_the_same_every_run() -> None:
    first = asyncio.run(run(30, seed=3))
    again = asyncio.run(run(30, seed=3))
    assert [(t.named, t.binding, t.done_at) for t in first] == [(t.named, t.binding, t.done_at) for t in again]
