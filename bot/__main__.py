"""``python -m bot``: start the bot with the settings in ``.env``; ``python -m bot backup|export|import FILE``: the
host's tools (:mod:`bot.host.admin`).

SIGTERM (how systemd, Docker and Kubernetes stop a process) and SIGINT (Ctrl-C) stop it the same
clean way, within a bounded time (:mod:`bot.host.stopping`): exit code 0. A wrong setting is exit code 2
(not worth restarting), a failure a new start may mend 1 (a lost shard lease, Discord lost once
the start-up began); Discord out of reach at start is tried again in the process (:mod:`bot.host.login`).
Each failure is one sentence (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import aiohttp
import discord

from bot.client import CardBot, create_bot
from bot.host.health import EndpointError
from bot.host.leases import lost_sentence
from bot.host.login import log_in
from bot.host.logs import configure as configure_logging
from bot.host.settings import Settings, SettingsError
from bot.host.stopping import on_stop_signals
from bot.seam.features import FeatureError
from db.errors import StoreConfigError

log = logging.getLogger("bot.main")


def main() -> int:
    if sys.argv[1:2] and sys.argv[1] in ("backup", "export", "import"):
        from bot.host.admin import main as admin  # the host's tools: no token, no Discord

        return admin(sys.argv[1:])
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)  # LOG_LEVEL, LOG_FORMAT (text or json lines)
    bot: CardBot | None = None
    try:
        bot = create_bot(settings)
        asyncio.run(_run(bot, settings.token))
    except (StoreConfigError, FeatureError, EndpointError) as error:
        # a bad store, features that cannot start together, a HEALTH_PORT another program holds
        print(error, file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the Developer Portal "
            "(your application -> Bot -> Reset Token) into .env.",
            file=sys.stderr,
        )
        return 2
    except (OSError, aiohttp.ClientError) as error:
        print(
            f"Could not reach Discord ({error.__class__.__name__}): check this machine's network and try again.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        pass
    if bot is not None and bot.lost_shards:  # it closed itself: not a clean stop, and a supervisor must start it again
        print(lost_sentence(bot.lost_shards, bot.leases.seconds), file=sys.stderr)
        return 1
    return 0


async def _run(bot: CardBot, token: str) -> None:
    main_task = asyncio.current_task()
    assert main_task is not None
    stopping: list[signal.Signals] = []

    def begin(sig: signal.Signals) -> None:
        stopping.append(sig)
        main_task.cancel()  # out of the gateway's loop; ``async with bot`` then closes the bot

    on_stop_signals(begin)
    try:
        async with bot:
            await bot.prepare()  # a bad store or a shard run elsewhere: one sentence, before any network
            await log_in(bot, token)  # again and again while Discord cannot be reached (bot.host.login)
            await bot.connect()
    except asyncio.CancelledError:
        if not stopping:
            raise
    if stopping:
        log.info("stopped cleanly")


if __name__ == "__main__":
    raise SystemExit(main())
