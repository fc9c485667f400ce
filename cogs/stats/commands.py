"""``/cardstats``: a member's record across finished games, read from the stored results (a
read of the store; nothing is written)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import CardBot
from bot.render.common import COLOR


class Stats(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="cardstats", description="Games played, won and lost on this server")
    @app_commands.describe(member="Whose record (yours if left empty)")
    @app_commands.guild_only()
    async def cardstats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who = member or interaction.user
        rows = await self.bot.store.member_stats(who.id, interaction.guild_id)
        embed = discord.Embed(title=f"{who.display_name}'s card games", color=COLOR)
        if not rows:
            embed.description = "No finished games here yet."
        for row in rows:
            title = self.bot.tables.title_of(row.kind)
            if row.kind == "shithead":
                text = f"{row.games} played · {row.wins} first out · {row.losses} times the shithead"
            else:
                text = f"{row.games} played · {row.wins} won · best total {row.best_total} · {row.points} points in all"
            embed.add_field(name=title, value=text, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)
