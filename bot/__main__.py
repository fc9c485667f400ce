"""``python -m bot``: start the bot with the settings in ``.env``.

SIGTERM (how systemd, Docker and Kubernetes stop a process) and SIGINT (Ctrl-C) stop it the same
clean way: the tables' tasks are cancelled and awaited, the open panels saved, the shard leases
released, the store closed; exit code 0. A stop that takes longer than :data:`STOP_SECONDS` (a
store that hangs) ends the process anyway, with exit code 1, so a host's stop never waits for ever.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord

from bot.client import CardBot, create_bot
from bot.settings import Settings, SettingsError
from db.store import StoreConfigError

log = logging.getLogger("bot.main")

#: the most a clean stop may take; a host's own stop timeout (systemd's TimeoutStopSec, Docker's
#: --stop-timeout) should be longer, or it kills the process before the panels are saved
STOP_SECONDS = 20.0
#: the signals that stop the bot cleanly
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def main() -> int:
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        bot = create_bot(settings)
        asyncio.run(_run(bot, settings.token))
    except StoreConfigError as error:
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
    return 0


async def _run(bot: CardBot, token: str) -> None:
    loop = asyncio.get_running_loop()
    main_task = asyncio.current_task()
    assert main_task is not None
    stopping: list[signal.Signals] = []

    def stop(sig: signal.Signals) -> None:
        if stopping:
            log.info("%s: already stopping (within %.0f s)", sig.name, STOP_SECONDS)
            return
        stopping.append(sig)
        log.info("%s: stopping cleanly (saving the open panels, releasing the shard leases)", sig.name)
        loop.call_later(STOP_SECONDS, _stop_took_too_long)
        main_task.cancel()  # out of the gateway's loop; ``async with bot`` then closes the bot

    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, stop, sig)
        except (NotImplementedError, RuntimeError):  # no signal handlers on this platform: Ctrl-C as before
            pass
    try:
        async with bot:
            await bot.prepare()  # a bad store or a shard run elsewhere: one sentence, before any network
            await bot.start(token)
    except asyncio.CancelledError:
        if not stopping:
            raise
    if stopping:
        log.info("stopped cleanly")


def _stop_took_too_long() -> None:
    log.error("the stop took longer than %.0f s: exiting without waiting any longer", STOP_SECONDS)
    logging.shutdown()
    os._exit(1)  # a hung store's thread would keep the process alive


if __name__ == "__main__":
    raise SystemExit(main())
