"""Shard leases: a process runs a shard only while it holds that shard's lease in the database.

At start the process claims the leases of all its shards (all or none); a live lease of another
process refuses the start in one sentence, so two processes never drive the same guild's games,
and a second bot on the same database (unsharded: shard 0 of 1) is refused rather than racing the
first for every move. While running, a heartbeat renews the leases every third of their length;
at a clean stop they are released at once. A process that dies simply stops renewing: its leases
expire after :data:`LEASE_SECONDS` and a new process may take them over.

The leases live in the one database every process shares (no coordination service), and their
times are the database's own clock, so processes on machines whose clocks differ still agree.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from bot.host import metrics
from db.errors import StoreConfigError, StoreError
from db.records import Lease
from db.store import Store

log = logging.getLogger(__name__)

#: how long a lease lasts without renewal: how soon a dead process's shards may be taken over (renewed
#: every third of it; a dead process of the same machine is noticed at once, see holder_is_gone)
LEASE_SECONDS = 60.0


class ShardsTaken(StoreConfigError):
    """Another live process holds a lease this process needs; the message is one sentence."""


class ShardsLost(StoreError):
    """Another process took this one's shards over while it ran; the message is one sentence."""


def lost_sentence(shards: list[int], seconds: float) -> str:
    """The one sentence a process that lost its shards' leases ends with (exit status 1, so a
    supervisor starts it again: the new process waits for the shards or is refused in one sentence)."""
    named = ", ".join(map(str, shards))
    return (
        f"Another Card Table process took over shard(s) {named} while this one did not renew their lease"
        f" for {seconds:.0f} s (a stalled process, or a database out of reach): this process stopped, so"
        " that no two drive the same games; start it again once that one is stopped (systemd does)."
    )


def holder_name() -> str:
    """Who holds a lease, as shown in the refusal: host, process id and a random tail."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def holder_is_gone(holder: str) -> bool:
    """Whether a lease's holder certainly runs no more: a process of this machine that has exited,
    or an earlier bot of this very process (a bot object replaced by a restart, as tests do).
    Holders on other machines are never judged: their leases are taken over only once expired."""
    host, _, rest = holder.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (another user's process): alive
    return False


class LeaseKeeper:
    def __init__(
        self,
        store: Store,
        shards: tuple[int, ...],
        shard_count: int,
        *,
        seconds: float = LEASE_SECONDS,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        on_lost: Callable[[list[int]], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.shards = shards
        self.shard_count = shard_count
        self.seconds = seconds
        self.sleep = sleep
        self.on_lost = on_lost
        self.holder = holder_name()
        self.held = False
        self._task: asyncio.Task[None] | None = None

    async def claim(self) -> None:
        """Take every lease or raise :class:`ShardsTaken` saying who holds what."""
        blocking = await self.store.claim_leases(self.holder, list(self.shards), self.shard_count, self.seconds)
        gone = {lease.holder for lease in blocking if holder_is_gone(lease.holder)}
        if blocking and gone == {lease.holder for lease in blocking}:
            # Their holders cannot be running: no need to wait for the leases to expire.
            for holder in gone:
                log.warning("taking over the shard leases of %s, which is no longer running", holder)
                metrics.TAKEOVERS.inc()
                await self.store.release_leases(holder)
            blocking = await self.store.claim_leases(self.holder, list(self.shards), self.shard_count, self.seconds)
        if blocking:
            raise ShardsTaken(refusal(blocking, self.shard_count, self.seconds))
        self.held = True
        self._task = asyncio.get_running_loop().create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        """Renew every third of the lease's length. Supervised: whatever a renewal raises (a lost
        database, but also a bug or a driver's own exception) is logged and the next renewal still
        comes, since a heartbeat that died would let the leases lapse silently and another process
        take the shards over while this one still drives their games. Only a cancel stops it."""
        while self.held:
            await self.sleep(self.seconds / 3)
            try:
                kept = await self.store.renew_leases(self.holder, self.seconds)
            except StoreError as error:  # an operating condition the store describes in one line
                log.error(
                    "renewing the shard leases failed (%s); the heartbeat goes on, trying again in %.0f s",
                    error,
                    self.seconds / 3,
                )
                continue
            except Exception as error:  # a bug: its traceback, and the heartbeat goes on all the same
                log.exception(
                    "renewing the shard leases failed (%s: %s); the heartbeat goes on, trying again in %.0f s",
                    type(error).__name__,
                    error,
                    self.seconds / 3,
                )
                continue
            lost = sorted(set(self.shards) - set(kept))
            if lost and self.held:
                # This process stalled longer than a lease and another took its shards over.
                log.error("shard lease(s) %s were taken over by another process; this process stops", lost)
                self.held = False
                if self.on_lost is not None:
                    await self.on_lost(lost)
                return

    async def release(self) -> None:
        """At a clean stop: the shards are free for another process at once."""
        if self._task is not None:
            if self._task is not asyncio.current_task():  # on_lost stops the bot from the heartbeat itself
                self._task.cancel()
            self._task = None
        if self.held:
            self.held = False
            try:
                await self.store.release_leases(self.holder)
            except StoreError:
                log.warning("could not release the shard leases; they expire in %.0f s", self.seconds)


def refusal(blocking: list[Lease], shard_count: int, seconds: float) -> str:
    """The one sentence for a start refused by other processes' leases."""
    first = blocking[0]
    left = max(1, round(first.seconds_left))
    if first.shard_count != shard_count:
        return (
            f"Another Card Table process ({first.holder}) runs this database with SHARD_COUNT={first.shard_count},"
            f" not {shard_count}: give every process the same SHARD_COUNT, or stop that one first."
        )
    if shard_count == 1:
        return (
            f"Another Card Table bot ({first.holder}) is already running on this database: stop it first"
            f" (a bot that died frees the database within {left} s)."
        )
    shards = ", ".join(str(lease.shard) for lease in blocking)
    named = f"Shard {shards} is" if len(blocking) == 1 else f"Shards {shards} are"
    return (
        f"{named} already run by another Card Table process"
        f" ({first.holder}): stop it first, or give this process other SHARD_IDS (a process that died frees"
        f" its shards within {left} s)."
    )
