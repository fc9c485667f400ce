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
from bot.speech import pgettext, table_language
from cogs.fairness.duplicate import add_duplicate_commands
from cogs.fairness.spectators import add_spectator_commands
from draw.budget import Budget
from draw.common import COLOR
from locales import _, set_speaking


def add_fairness_commands(group: app_commands.Group, kind: AnyKind) -> None:
    add_spectator_commands(group, kind)
    add_duplicate_commands(group, kind)

    @group.command(
        name="verify",
        description=pgettext("command description", "Check a finished game's shuffle against its commitment"),
    )
    @app_commands.describe(
        game=pgettext("option description", "The game number (default: the last game in this channel)")
    )
    async def verify(interaction: discord.Interaction, game: int | None = None) -> None:
        store = tables_of(interaction).store
        if game is None:
            record = await store.last_game(interaction.channel_id or 0, kind.key)
        else:
            record = await store.get_game(game)
        if record is None or record.kind != kind.key or record.guild_id != interaction.guild_id:
            if game is not None:
                raise Refusal(_("There is no {game} game #{number} on this server.", game=kind.title, number=game))
            raise Refusal(_("There is no {game} game in this channel on this server.", game=kind.title))
        if record.commitment is None:
            raise Refusal(
                _(
                    "Game #{number} was started before shuffles were committed: there is nothing to check.",
                    number=record.id,
                )
            )
        for door in (Door.VERIFY, Door.EXPORT):  # a duplicate match's seed waits for its last table
            await secrecy.require(
                store,
                door,
                record,
                interaction.user.id,
                interaction.guild_id,
                extra=" " + _("Its commitment is `{commitment}`.", commitment=record.commitment),
            )
        await interaction.response.defer(thinking=True)
        # the answer is posted for the whole channel: in its language, not the presser's
        set_speaking(table_language(interaction.client, record.guild_id, record.options))
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
            title=_(
                "{mark} {game} game #{number}: shuffle check",
                mark="✅" if verdict.ok else "❌",
                game=kind.title,
                number=record.id,
            ),
            color=COLOR,
        )
        budget.describe(
            embed, verdict.lines, tail=lambda left: _("… {left} more lines: the attached file has it all", left=left)
        )
        budget.release()
        embed.add_field(name=_("Commitment"), value=f"`{record.commitment}`", inline=False)
        embed.add_field(name=_("Seed"), value=f"`{record.seed}`", inline=True)
        embed.add_field(name=_("Salt"), value=f"`{record.salt}`", inline=False)
        embed.set_footer(text=_("Check it yourself: python3 tools/verify_shuffle.py {file}", file=name))
        about = _(
            "Game #{number}'s shuffle file (JSON): the seed, salt and every deal's deck, for verify_shuffle.",
            number=record.id,
        )
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(data), filename=name, description=about)
        )
