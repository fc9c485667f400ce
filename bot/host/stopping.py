"""A clean stop on SIGTERM or SIGINT, bounded in time: what ``python -m bot`` and
``python -m bot.host.local`` share.

SIGTERM is how systemd, Docker and Kubernetes stop a process, SIGINT is Ctrl-C: both get the same
clean stop (the tables' tasks awaited, the open panels saved, the shard leases released, the store
closed). A stop that takes longer than :data:`STOP_SECONDS` (a store that hangs, a task that does
not end) ends the process anyway with exit code 1, so a host's stop never waits for ever.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable

log = logging.getLogger("bot.host.stopping")

#: the most a clean stop may take; a host's own stop timeout (systemd's TimeoutStopSec, Docker's
#: --stop-timeout) should be longer, or it kills the process before the panels are saved
STOP_SECONDS = 20.0
#: the signals that stop the bot cleanly
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def on_stop_signals(
    begin: Callable[[signal.Signals], None], call_later: Callable[[float, Callable[[], None]], object] | None = None
) -> None:
    """Call ``begin(signal)`` on the first SIGTERM or SIGINT, and arm the deadline; a later signal
    only says the stop is under way. Where the platform has no signal handlers (Windows), Ctrl-C
    stays Python's KeyboardInterrupt. ``call_later(seconds, callback)`` arms the deadline (the
    loop's own unless given: a test runs it without waiting)."""
    loop = asyncio.get_running_loop()
    arm = call_later or loop.call_later
    stopping: list[signal.Signals] = []

    def handle(sig: signal.Signals) -> None:
        if stopping:
            log.info("%s: already stopping (within %.0f s)", sig.name, STOP_SECONDS)
            return
        stopping.append(sig)
        log.info("%s: stopping cleanly (saving the open panels, releasing the shard leases)", sig.name)
        arm(STOP_SECONDS, _took_too_long)
        begin(sig)

    for sig in STOP_SIGNALS:
        try:
            loop.add_signal_handler(sig, handle, sig)
        except (NotImplementedError, RuntimeError):
            pass


def _took_too_long() -> None:
    log.error("the stop took longer than %.0f s: exiting without waiting any longer", STOP_SECONDS)
    for handler in logging.getLogger().handlers:
        try:
            handler.flush()
        except Exception:  # a closed stream must not keep the process from exiting
            pass
    os._exit(1)  # a hung store's thread would keep the process alive
