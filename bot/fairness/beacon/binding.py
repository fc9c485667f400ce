"""A game bound to a future drand round: which round it names, the wait for it, the deal seed
that comes of it, and the label a game gets when no round came.

The order is the proof. (1) The bot commits to its seed and names round R, the first quicknet
round published at least :data:`LEAD` seconds from now, in one public message; (2) the message's
Discord snowflake time must come before R's publication time, or the game is not bound (a slow
post cannot name a round that may already exist); (3) from R's time on, the relays are asked for
R alone, until :data:`WAIT` seconds after it; (4) each deal's deck comes from
SHA-256(``DEAL_LABEL`` + seed as 32 bytes + R's randomness), the seed of the game's generator.
When (2) or (3) fails the game deals from its seed alone and carries :data:`LABEL` for all its
deals; no other round is ever used.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.fairness.beacon.relay import RELAYS, Clock, Transport, fetch_round
from bot.fairness.beacon.verify import BeaconRefused, verify_round
from db.records import GameRecord
from locales import N_, _, translate

#: the round named is the first published at least this long after the commitment is sent: it
#: covers the post's way to Discord (its snowflake must come first); the wait before the first
#: deal is then between LEAD and LEAD + 3 s (quicknet's period)
LEAD = 0.5
#: how long after the round's publication time the relays are asked before the game goes on
#: without it
WAIT = 5.0
LABEL = N_("commit–reveal only (no beacon)")
DEAL_LABEL = b"cardtable/beacon/v1"


@dataclass(frozen=True)
class Binding:
    """A game's beacon as the store keeps it: the round it named and, once fetched and verified,
    the round's signature (hex); or why it has none (then the game is labelled)."""

    round: int
    signature: str | None = None
    #: one sentence: why the game deals from its seed alone (None while bound or still waiting)
    unbound: str | None = None

    @property
    def bound(self) -> bool:
        return self.signature is not None

    @property
    def waiting(self) -> bool:
        return self.signature is None and self.unbound is None

    @property
    def label(self) -> str | None:
        """:data:`LABEL` for a game that deals without its round, else None."""
        return LABEL if self.unbound is not None else None

    def randomness(self) -> bytes:
        if self.signature is None:
            raise ValueError("an unbound game has no beacon randomness")
        return hashlib.sha256(bytes.fromhex(self.signature)).digest()


def name_round(now: float, chain: Chain = QUICKNET) -> int:
    """The round a game committed at ``now`` (Unix seconds) names."""
    return chain.round_after(now, LEAD)


def deal_seed(seed: int, binding: Binding | None) -> int:
    """The seed the game's generator deals from: the bot's seed mixed with the round's randomness
    when the game is bound, its seed alone otherwise (``DRAND=off``, or labelled)."""
    if binding is None or not binding.bound:
        return seed
    data = DEAL_LABEL + seed.to_bytes(32, "big") + binding.randomness()
    return int.from_bytes(hashlib.sha256(data).digest(), "big")


def deal_seed_of(record: GameRecord) -> int:
    """The seed the game's generator deals from: its seed mixed with its drand round's randomness
    when the game is bound to one (:func:`deal_seed`), its seed alone otherwise.
    Every rebuild, replay and check of a game's decks goes through here."""
    return deal_seed(record.seed or 0, binding_of(record))


def binding_of(record: GameRecord) -> Binding | None:
    """The game's beacon as stored, or None for a game that named no round (``DRAND=off``, or
    stored before beacons)."""
    if record.beacon_round is None:
        return None
    return Binding(record.beacon_round, record.beacon_signature, record.beacon_note)


def too_late(number: int, message_time: float, chain: Chain = QUICKNET) -> str | None:
    """Why a commitment posted at ``message_time`` (its snowflake's time) cannot bind round
    ``number``, or None when it came first."""
    if message_time < chain.round_time(number):
        return None
    return f"The commitment was posted after round {number} was due, so it cannot be bound to it."


#: why a game went unbound, as the store and the shuffle file keep it (English); shown through :func:`said`
NOT_POSTED = N_("The commitment naming the round could not be posted.")
_NO_RELAY = re.compile(r"No drand relay gave round (\d+) in time\.")
_RESTARTED = re.compile(r"The bot was restarted with drand beacons off before round (\d+) came\.")
_POSTED_LATE = re.compile(r"The commitment was posted after round (\d+) was due, so it cannot be bound to it\.")


def said(note: str | None) -> str:
    """A stored reason a game went unbound (kept in English: the store and the shuffle file hold
    it), in the language being spoken."""
    if note is None:
        return ""
    if found := _NO_RELAY.fullmatch(note):
        return _("No drand relay gave round {round} in time.", round=found[1])
    if found := _POSTED_LATE.fullmatch(note):
        return _("The commitment was posted after round {round} was due, so it cannot be bound to it.", round=found[1])
    if found := _RESTARTED.fullmatch(note):
        return _("The bot was restarted with drand beacons off before round {round} came.", round=found[1])
    return translate(note)


async def settle(
    number: int,
    message_time: float | None,
    *,
    transport: Transport,
    clock: Clock,
    relays: Sequence[str] = RELAYS,
    chain: Chain = QUICKNET,
    give_up_at: float | None = None,
) -> Binding:
    """Round ``number`` named in a message posted at ``message_time`` (None: it was not posted):
    fetched, verified and kept, or the reason the game goes unbound. A restarted bot calls it
    again with the stored round and message time (and a fresh ``give_up_at``)."""
    if message_time is None:
        return Binding(number, unbound=NOT_POSTED)
    late = too_late(number, message_time, chain)
    if late is not None:
        return Binding(number, unbound=late)
    limit = chain.round_time(number) + WAIT if give_up_at is None else give_up_at
    fetched = await fetch_round(number, transport=transport, clock=clock, give_up_at=limit, relays=relays, chain=chain)
    if fetched.round is None:
        return Binding(number, unbound=f"No drand relay gave round {number} in time.")
    return Binding(number, signature=fetched.round.signature.hex())


def recheck(binding: Binding, chain: Chain = QUICKNET) -> str | None:
    """A stored bound game's round checked again against the pinned key: None, or why not."""
    if binding.signature is None:
        return None
    try:
        verify_round(binding.round, binding.signature, chain)
    except BeaconRefused as refusal:
        return str(refusal)
    return None


#: posts the commitment naming a round; answers the message's snowflake time (None: not posted)
PostCommitment = Callable[[int], Awaitable[float | None]]


async def bind_game(
    post: PostCommitment,
    *,
    transport: Transport,
    clock: Clock,
    relays: Sequence[str] = RELAYS,
    chain: Chain = QUICKNET,
) -> Binding:
    """A new game's beacon from start to end: name the round, post the commitment naming it,
    wait for the round. The caller deals (with :func:`deal_seed`) only after this returns."""
    number = name_round(clock.now(), chain)
    message_time = await post(number)
    return await settle(number, message_time, transport=transport, clock=clock, relays=relays, chain=chain)
