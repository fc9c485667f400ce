"""One drand round from public relays: each relay in turn, each try bounded, the whole wait
bounded, and never a round other than the one asked for.

A relay answers ``GET /<chain hash>/public/<round>`` with ``{"round", "randomness", "signature"}``
(404 or 425 while the round does not exist yet). Whatever a relay sends is checked against the
pinned key (:mod:`bot.fairness.beacon.verify`): a relay can delay a game's round, never choose it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.fairness.beacon.verify import BeaconRefused, Round, verify_round

log = logging.getLogger(__name__)

#: the League of Entropy's public HTTP relays, asked in this order
RELAYS = ("https://api.drand.sh", "https://api2.drand.sh", "https://api3.drand.sh", "https://drand.cloudflare.com")
#: how long one relay may take to answer one request (seconds)
PER_TRY = 1.0
#: the pause after every relay was asked once without the round
PAUSE = 0.1
#: the most a relay's answer may weigh (a round is about 300 bytes)
MAX_BODY = 4096

#: GET a URL: the status and (up to MAX_BODY of) the body
Transport = Callable[[str], Awaitable[tuple[int, bytes]]]


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


@dataclass
class Fetched:
    """What a fetch came to: the verified round, or None when no relay gave it in time, with one
    line for each failed try (for the log)."""

    round: Round | None
    tries: list[str] = field(default_factory=list)
    #: a relay sent another round's number: refused (never used), counted to show it
    other_rounds: int = 0


class OtherRound(BeaconRefused):
    """A relay sent another round than the one asked for: refused, never used in its place."""


def url(relay: str, number: int, chain: Chain = QUICKNET) -> str:
    return f"{relay.rstrip('/')}/{chain.hash}/public/{number}"


def read_answer(number: int, status: int, body: bytes, chain: Chain) -> Round:
    """The round in a relay's answer, verified; raises :class:`BeaconRefused` (one sentence)."""
    if status in (404, 425):
        raise BeaconRefused(f"The relay does not have round {number} yet.")
    if status != 200:
        raise BeaconRefused(f"The relay answered HTTP {status}.")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise BeaconRefused("The relay's answer is not JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("signature"), str):
        raise BeaconRefused("The relay's answer has no signature.")
    sent = data.get("round")
    if sent != number:
        raise OtherRound(f"The relay sent round {sent!r} when asked for round {number}.")
    randomness = data.get("randomness")
    return verify_round(number, data["signature"], chain, randomness if isinstance(randomness, str) else None)


async def fetch_round(
    number: int,
    *,
    transport: Transport,
    clock: Clock,
    give_up_at: float,
    relays: Sequence[str] = RELAYS,
    chain: Chain = QUICKNET,
    per_try: float = PER_TRY,
) -> Fetched:
    """Round ``number``, verified, from the first relay that gives it, asking each in turn (from
    the round's publication time on) until ``give_up_at`` (Unix time on ``clock``)."""
    fetched = Fetched(None)
    wait = chain.round_time(number) - clock.now()
    if wait > 0:
        await clock.sleep(min(wait, max(0.0, give_up_at - clock.now())))
    while clock.now() < give_up_at:
        for relay in relays:
            left = give_up_at - clock.now()
            if left <= 0:
                break
            try:
                status, body = await _bounded(transport(url(relay, number, chain)), min(per_try, left), clock)
                fetched.round = read_answer(number, status, body, chain)
                return fetched
            except BeaconRefused as refusal:
                fetched.other_rounds += isinstance(refusal, OtherRound)
                fetched.tries.append(f"{relay}: {refusal}")
            except TimeoutError:
                fetched.tries.append(f"{relay}: no answer in {min(per_try, left):.1f} s.")
            except (OSError, ValueError) as error:  # aiohttp's errors are OSError or ValueError
                fetched.tries.append(f"{relay}: {type(error).__name__}.")
        pause = min(PAUSE, give_up_at - clock.now())
        if pause > 0:
            await clock.sleep(pause)
    log.info("drand round %s: no relay gave it in time (%s)", number, "; ".join(fetched.tries[-4:]))
    return fetched


async def _bounded(request: Awaitable[tuple[int, bytes]], seconds: float, clock: Clock) -> tuple[int, bytes]:
    """``request``, or TimeoutError after ``seconds`` on ``clock`` (so that a stepped clock bounds it)."""
    answer = asyncio.ensure_future(request)
    timer = asyncio.ensure_future(clock.sleep(seconds))
    try:
        await asyncio.wait((answer, timer), return_when=asyncio.FIRST_COMPLETED)
    finally:
        timer.cancel()
    if not answer.done():
        answer.cancel()
        raise TimeoutError
    return answer.result()


def aiohttp_transport(per_try: float = PER_TRY) -> Transport:
    """The real transport: one aiohttp session per request (a game asks a few times at most)."""
    import aiohttp  # discord.py's own HTTP client

    async def get(address: str) -> tuple[int, bytes]:
        timeout = aiohttp.ClientTimeout(total=per_try + 1.0)
        async with aiohttp.ClientSession(timeout=timeout) as session, session.get(address) as response:
            return response.status, await response.content.read(MAX_BODY)

    return get
