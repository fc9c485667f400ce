"""The bot: opens the store, loads the cogs, syncs slash commands and rebuilds live games."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from bot.emojis import upload_card_emojis
from bot.errors import report
from bot.render.emojis import EMOJIS
from bot.render.images import warm
from bot.settings import Settings
from bot.tables import TableManager
from db.factory import make_store
from db.store import Store

log = logging.getLogger(__name__)

COGS = ("cogs.lobby", "cogs.ohhell", "cogs.shithead", "cogs.stats", "cogs.fairness")


class CardBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        # No privileged intents: everything arrives through interactions.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), help_command=None)
        self.settings = settings
        # SQLite unless DATABASE_URL names a PostgreSQL server; a bad URL is refused here, in one sentence.
        self.store: Store = store or make_store(
            settings.database_url, settings.database_path, sqlite_synchronous=settings.sqlite_synchronous
        )
        self.tables = TableManager(self, self.store, settings)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        #: the card emoji upload running in the background (``None`` when the setting is off)
        self.emoji_task: asyncio.Task[int] | None = None

    async def setup_hook(self) -> None:
        await self.store.open()
        for name in COGS:
            await self.load_extension(name)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await asyncio.to_thread(warm)  # every card face drawn once, off the event loop
        if self.settings.card_emojis:
            self.emoji_task = asyncio.create_task(upload_card_emojis(self), name="card emojis")
        restored = await self.tables.restore()
        log.info("ready to play: %d live table(s) restored", restored)

    async def close(self) -> None:
        if self.emoji_task is not None:
            self.emoji_task.cancel()
        EMOJIS.clear()
        await self.tables.close()
        await super().close()
        await self.store.close()

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)


def tables_of(interaction: discord.Interaction) -> TableManager:
    """The runtime of the bot an interaction came to (what cogs reach the tables through)."""
    client = interaction.client
    assert isinstance(client, CardBot)
    return client.tables


def create_bot(settings: Settings | None = None, store: Store | None = None) -> CardBot:
    return CardBot(settings or Settings.from_env(), store)
