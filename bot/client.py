"""The bot: opens the store, loads the cogs, syncs slash commands and rebuilds live games."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import pkgutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.host import metrics
from bot.host.health import HealthServer
from bot.host.leases import LeaseKeeper
from bot.host.settings import Settings
from bot.messages.emojis import upload_card_emojis
from bot.messages.errors import answer_refusals, report
from bot.messages.speech import CatalogueTranslator, hear_languages
from bot.tables.manager import TableManager
from db.errors import StoreConfigError, StoreError
from db.factory import make_store
from db.store import Store
from draw.emojis import EMOJIS
from draw.images import warm
from games import compiled
from locales import catalogue

log = logging.getLogger(__name__)

#: the package whose sub-packages are the features the bot loads (one extension each)
FEATURES = "cogs"


def _features() -> list[tuple[str, bool]]:
    """Each feature package under ``cogs/`` and whether it is a game (it has a ``kind`` module:
    its :class:`~bot.seam.contract.GameKind`), found on disk without importing any of them."""
    spec = importlib.util.find_spec(FEATURES)
    assert spec is not None and spec.submodule_search_locations is not None, f"no {FEATURES} package"
    out = []
    for found in pkgutil.iter_modules(spec.submodule_search_locations):
        if found.ispkg:
            path = [str(Path(p) / found.name) for p in spec.submodule_search_locations]
            out.append((found.name, any(m.name == "kind" for m in pkgutil.iter_modules(path))))
    return sorted(out)


def extensions(extra_games: tuple[str, ...] = ()) -> list[str]:
    """The extensions to load: the games first (each registers its :class:`~bot.seam.features.Game`:
    its kind, its command group, its buttons), then every other feature (each registers its
    :class:`~bot.seam.features.Feature`). The order is only tidy, never needed: nothing is added to the
    bot while they load; the games, then the features, are plugged in by key and by name once all
    are loaded (:meth:`bot.seam.features.Features.start`). So a new game is a new package, and the
    runtime names none. ``extra_games`` (:attr:`Settings.extra_games`) are game packages from
    elsewhere, loaded after the games under ``cogs/`` and before the other features."""
    found = sorted(_features(), key=lambda f: (not f[1], f[0]))
    games = [f"{FEATURES}.{name}" for name, game in found if game]
    return games + list(extra_games) + [f"{FEATURES}.{name}" for name, game in found if not game]


def game_commands() -> list[str]:
    """Each game's slash command group, before the games are loaded (a help line, the local
    channel's topic): a game's package is named after its command (``kind.key``)."""
    return [name for name, game in _features() if game]


async def _plain_wait(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


class CardBot(commands.Bot):
    """The bot of one process. Unsharded it is a plain client (shard 0 of 1); with SHARD_COUNT > 1
    :func:`create_bot` makes a :class:`ShardedCardBot` running the shards in SHARD_IDS."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        shards: dict[str, Any] = {}
        if settings.sharded:
            shards = {"shard_count": settings.shard_count, "shard_ids": list(settings.own_shards)}
        # No privileged intents: everything arrives through interactions.
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), help_command=None, **shards
        )
        self.settings = settings
        # SQLite unless DATABASE_URL names a PostgreSQL server; a bad URL is refused here, in one sentence.
        self.store: Store = store or make_store(
            settings.database_url, settings.database_path, sqlite_synchronous=settings.sqlite_synchronous
        )
        metrics.time_store(self.store)
        #: whether the store is open (the readiness check's first part)
        self.store_open = False
        #: the host's health, readiness and metrics endpoint (HEALTH_PORT); None when off
        self.health = (
            HealthServer(self, settings.health_host, settings.health_port) if settings.health_port is not None else None
        )
        metrics.watch(self)
        metrics.watch_rate_limit_log()
        self.tables = TableManager(self, self.store, settings)
        #: the registered features (each feature's ``setup()`` adds its one :class:`~bot.seam.features.Feature`)
        self.features = self.tables.features
        self.leases = LeaseKeeper(self.store, settings.own_shards, settings.shard_count, on_lost=self._lost_shards)
        #: why the gateway is not up yet while logging in is tried again (bot.host.login), else None
        self.login_retry: str | None = None
        #: whether setup_hook began (a login that fails after that is not tried again)
        self.setup_begun = False
        #: the shards another process took over while this one ran (then the bot closes itself)
        self.lost_shards: list[int] = []
        #: set when the bot closed itself for a lost lease: what the local mode waits on besides Ctrl-C
        self.shards_lost = asyncio.Event()
        self._prepared = False
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        catalogue.install()
        hear_languages(self, self.store.set_member_language)
        #: the card emoji upload running in the background (``None`` when the setting is off)
        self.emoji_task: asyncio.Task[int] | None = None
        #: how the bot awaits work done outside its own process (the coach's worker processes):
        #: plainly; the local mode declares it to SimCord, so a page shows "working…" meanwhile
        self.outside_wait: Callable[[Awaitable[Any]], Awaitable[Any]] = _plain_wait

    async def prepare(self) -> None:
        """Open the store and take this process's shard leases, before anything reaches Discord.

        Raises :class:`~db.errors.StoreConfigError` (one sentence) for a store that cannot be used
        and :class:`~bot.host.leases.ShardsTaken` when another live process runs one of these shards.
        """
        if self._prepared:
            return
        if self.health is not None:
            await self.health.start()  # before the store: a slow start reads "not ready"
        await self.store.open()
        self.store_open = True
        try:
            await self.leases.claim()
        except StoreConfigError:
            raise
        except StoreError as error:  # the store opened but refuses to be written: one sentence too
            raise StoreConfigError(
                f"The database could not take this process's shard leases ({error}): check that the bot"
                " may write to it (DATABASE_PATH or DATABASE_URL)."
            ) from error
        self._prepared = True

    async def setup_hook(self) -> None:
        self.setup_begun = True
        metrics.watch_rest(self.http)
        metrics.watch_webhooks()  # answers, follow-ups and panel redraws go through discord.py's webhook adapter
        await self.prepare()
        for name in extensions(self.settings.extra_games):
            await self.load_extension(name)
        # every game and every feature registered, in whatever order: check them, then plug them in
        # (the games' kinds into the table manager, their groups and buttons, then the features')
        self.features.start(self, self.tables.kinds)
        await self.tree.set_translator(CatalogueTranslator())
        answer_refusals(self.tree)  # every command's refusal answered by the one handler
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
        self.tables.watch()
        log.info(
            "ready to play: %d live table(s) of shard(s) %s of %d restored; the engine's inner loops %s",
            restored,
            ",".join(map(str, self.settings.own_shards)),
            self.settings.shard_count,
            compiled.in_use(),  # "source": installed without a C compiler (slower computers)
        )

    async def _lost_shards(self, shards: list[int]) -> None:
        # Another process runs these shards now: driving their games here too would race it.
        self.lost_shards = shards
        self.shards_lost.set()
        await self.close()

    async def close(self) -> None:
        if self.emoji_task is not None:
            self.emoji_task.cancel()
        EMOJIS.clear()
        if self._prepared:  # else nothing ran, and the store may never have opened: nothing to save
            await self.tables.close()
        await self.leases.release()
        await super().close()
        await self.store.close()
        self.store_open = False
        if self.health is not None:
            await self.health.close()

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)


class ShardedCardBot(CardBot, commands.AutoShardedBot):
    """:class:`CardBot` on discord.py's AutoShardedBot: one gateway connection per shard in SHARD_IDS."""


def tables_of(interaction: discord.Interaction) -> TableManager:
    """The runtime of the bot an interaction came to (what cogs reach the tables through)."""
    client = interaction.client
    assert isinstance(client, CardBot)
    return client.tables


def manages_server(interaction: discord.Interaction) -> bool:
    """Whether the member asking may manage the server they ask in (Discord's Manage Server): the
    one reading of it for every command that lets a server's managers do more."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return perms is not None and bool(perms.manage_guild)


def create_bot(settings: Settings | None = None, store: Store | None = None) -> CardBot:
    settings = settings or Settings.from_env()
    if settings.sharded:
        return ShardedCardBot(settings, store)
    return CardBot(settings, store)
