"""``/<game> verify``: after a game, check its shuffle and hand out the file anyone can check again
with ``tools/verify_shuffle.py``. Before the end it refuses (the seed stays secret) and shows only
the commitment."""

from __future__ import annotations

import asyncio
import io
import json

import discord
from discord import app_commands

from bot import fairness, secrecy
from bot.beacon.chain import QUICKNET
from bot.client import tables_of
from bot.contract import AnyKind
from bot.errors import Refusal
from bot.secrecy import Door
from cogs.fairness.duplicate import add_duplicate_commands
from cogs.fairness.spectators import add_spectator_commands
from draw.budget import Budget
from draw.common import COLOR


def add_fairness_commands(group: app_commands.Group, kind: AnyKind) -> None:
    add_spectator_commands(group, kind)
    add_duplicate_commands(group, kind)

    @group.command(name="verify", description="Check a finished game's shuffle against its commitment")
    @app_commands.describe(game="The game number (default: the last game in this channel)")
    async def verify(interaction: discord.Interaction, game: int | None = None) -> None:
        store = tables_of(interaction).store
        if game is None:
            record = await store.last_game(interaction.channel_id or 0, kind.key)
        else:
            record = await store.get_game(game)
        if record is None or record.kind != kind.key or record.guild_id != interaction.guild_id:
            which = f"#{game}" if game is not None else "in this channel"
            raise Refusal(f"There is no {kind.title} game {which} on this server.")
        if record.commitment is None:
            raise Refusal(f"Game #{record.id} was started before shuffles were committed: there is nothing to check.")
        for door in (Door.VERIFY, Door.EXPORT):  # a duplicate match's seed waits for its last table
            await secrecy.require(
                store,
                door,
                record,
                interaction.user.id,
                interaction.guild_id,
                extra=f" Its commitment is `{record.commitment}`.",
            )
        await interaction.response.defer(thinking=True)
        stored = await store.deals(record.id)
        beacons = tables_of(interaction).seating.beacons
        chain = beacons.chain if beacons is not None else QUICKNET
        verdict = await asyncio.to_thread(fairness.verify, kind, record, stored, chain)
        exported = await asyncio.to_thread(fairness.export, kind, record, stored)
        data = json.dumps(exported, indent=1).encode()
        name = f"shuffle-{kind.key}-{record.id}.json"
        budget = Budget()
        budget.reserve(400)  # the commitment, seed, salt and footer below
        embed = budget.embed(
            title=f"{'✅' if verdict.ok else '❌'} {kind.title} game #{record.id}: shuffle check", color=COLOR
        )
        budget.describe(embed, verdict.lines, tail=lambda left: f"… {left} more lines: the attached file has it all")
        budget.release()
        embed.add_field(name="Commitment", value=f"`{record.commitment}`", inline=False)
        embed.add_field(name="Seed", value=f"`{record.seed}`", inline=True)
        embed.add_field(name="Salt", value=f"`{record.salt}`", inline=False)
        embed.set_footer(text=f"Check it yourself: python3 tools/verify_shuffle.py {name}")
        about = f"Game #{record.id}'s shuffle file (JSON): the seed, salt and every deal's deck, for verify_shuffle."
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(data), filename=name, description=about)
        )
