"""A table's beacon at run time: the round named when the host presses Start (a duplicate match's
tables share the round its first table named), the public message that commits to the seed and
names the round, the bounded wait for it, and the lines the channel reads before the first card.

Everything is stored as it happens (:meth:`db.store.Store.reserve_start`, ``set_beacon``), so a
bot restarted during the wait waits for the same round with the same seed, and a game abandoned
after its round was published stays in the store with it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import discord

from bot.fairness.beacon.binding import LABEL, WAIT, Binding, name_round, said, settle
from bot.fairness.beacon.chain import QUICKNET, Chain
from bot.fairness.beacon.relay import RELAYS, Transport, aiohttp_transport
from bot.messages.speech import in_channel
from bot.seam.contract import LiveTable
from db.records import MatchBeacon
from db.store import Store
from locales import _, translate

log = logging.getLogger(__name__)


@dataclass
class DiscordClock:
    """Unix time as Discord and the bot see it (SimCord's virtual clock in tests) and the table
    clock's sleep (virtual in tests)."""

    sleep_with: Callable[[float], Awaitable[object]]

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    async def sleep(self, seconds: float) -> None:
        await self.sleep_with(seconds)


@dataclass
class Beacons:
    """The bot's beacon settings (``DRAND=on``): where rounds come from and which chain they are
    checked against. Tests replace ``transport`` and ``relays`` (a fake relay on 127.0.0.1) and
    may move ``chain``'s genesis (the key stays the pinned one)."""

    store: Store
    client: discord.Client
    clock: DiscordClock
    transport: Transport = field(default_factory=aiohttp_transport)
    relays: Sequence[str] = RELAYS
    chain: Chain = QUICKNET

    async def name(self, table: LiveTable) -> int:
        """The round this table's decks will come from: a new one, or its match's."""
        match = await self._match_beacon(table)
        return match.round if match is not None else name_round(self.clock.now(), self.chain)

    async def bind(self, table: LiveTable) -> Binding:
        """Post the commitment naming the table's round (unless a restarted bot had posted it),
        wait for the round, store what came of it. Never raises for Discord or a relay: a game
        that cannot be bound is labelled. A duplicate match's tables all take the outcome the
        first of them to settle wrote on the match (its round, message and signature, or label)."""
        record = table.record
        assert record.beacon_round is not None and record.commitment is not None
        if record.beacon_signature is not None or record.beacon_note is not None:
            # settled before a restart: kept as it was (trying again could turn a labelled game into
            # a bound one, a second deck to choose from)
            return Binding(record.beacon_round, record.beacon_signature, record.beacon_note)
        shared = await self._match_beacon(table)
        if shared is None:
            number, message_id = record.beacon_round, record.beacon_message_id
            if message_id is None:
                message_id = await self._post(table, number)
            posted = None if message_id is None else discord.utils.snowflake_time(message_id).timestamp()
            give_up_at = max(self.chain.round_time(number), self.clock.now()) + WAIT
            binding = await settle(
                number,
                posted,
                transport=self.transport,
                clock=self.clock,
                relays=self.relays,
                chain=self.chain,
                give_up_at=give_up_at,
            )
            if record.match_id is not None:
                mine = MatchBeacon(number, message_id, binding.signature, binding.unbound)
                shared = await self.store.share_match_beacon(record.match_id, mine)
        if shared is not None:
            number, message_id = shared.round, shared.message_id
            binding = Binding(shared.round, shared.signature, shared.note)
        await self.store.set_beacon(
            record.id, signature=binding.signature, note=binding.unbound, message_id=message_id, beacon_round=number
        )
        record.beacon_round, record.beacon_signature = number, binding.signature
        record.beacon_note, record.beacon_message_id = binding.unbound, message_id
        return binding

    async def _match_beacon(self, table: LiveTable) -> MatchBeacon | None:
        if table.record.match_id is None:
            return None
        match = await self.store.get_match(table.record.match_id)
        return match.beacon if match is not None else None

    async def _post(self, table: LiveTable, number: int) -> int | None:
        channel = self.client.get_partial_messageable(table.record.channel_id, guild_id=table.record.guild_id)
        try:
            with in_channel(self.client, table.record.guild_id, table.record.options):  # the channel's words
                said = commitment_text(table, number, self.chain)
            message = await channel.send(said)
        except discord.HTTPException as error:
            log.warning("game %s: the commitment naming round %s was not posted: %s", table.id, number, error)
            return None
        await self.store.set_beacon(table.id, signature=None, note=None, message_id=message.id)
        return message.id


def commitment_text(table: LiveTable, number: int, chain: Chain = QUICKNET) -> str:
    return _(
        "🔒 Shuffle commitment: `{digest}`. Every deck of this game comes from the committed seed **and** drand"
        " {chain} round **{round}** (due <t:{due}:T>), which does not exist yet: nobody, the bot included, can"
        " know the cards before it is published.",
        digest=table.record.commitment,
        chain=chain.name,
        round=number,
        due=chain.round_time(number),
    )


def outcome_line(binding: Binding, chain: Chain = QUICKNET) -> str:
    """What the channel reads before the first card."""
    if binding.bound:
        assert binding.signature is not None
        return _(
            "🎲 drand {chain} round **{round}** is in and checks against the chain's pinned key (randomness"
            " `{randomness}…`): the decks come from the seed and this round.",
            chain=chain.name,
            round=binding.round,
            randomness=binding.randomness().hex()[:16],
        )
    return _(
        "⚠️ {why} This game is played and labelled **{label}**: the committed seed alone deals.",
        why=said(binding.unbound),
        label=translate(LABEL),
    )
