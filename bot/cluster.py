"""``python -m bot.cluster --processes N``: run the bot as N processes on this machine, sharing the shards.

Each process is an ordinary ``python -m bot`` with ``SHARD_COUNT`` and its own ``SHARD_IDS`` (the
shards split into N contiguous runs), all on the one database of ``DATABASE_URL`` (PostgreSQL; a
SQLite file also works on one machine). SIGTERM or Ctrl+C is passed on to every process, each
stops cleanly (panels saved, leases released) and the cluster waits for them all (at most
:data:`STOP_WAIT` s); when one stops on its own, the others are stopped too and its exit code is
the cluster's, so a supervisor (systemd, a container runtime) sees the failure and restarts the
whole set. Spreading processes over several
machines is the deployer's part: start ``python -m bot`` on each with the same ``SHARD_COUNT`` and
different ``SHARD_IDS``; the shard leases in the database refuse any overlap.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from types import FrameType

from bot.settings import SettingsError, parse_shard_ids

#: how long the cluster waits for its processes to stop before killing them (longer than each
#: process's own bound, ``bot.__main__.STOP_SECONDS``)
STOP_WAIT = 30.0


def split(shards: list[int], processes: int) -> list[list[int]]:
    """``shards`` in ``processes`` contiguous runs, as even as they go (the first ones one longer)."""
    size, extra = divmod(len(shards), processes)
    runs, start = [], 0
    for index in range(processes):
        end = start + size + (1 if index < extra else 0)
        runs.append(shards[start:end])
        start = end
    return runs


def shard_text(shards: list[int]) -> str:
    return ",".join(str(s) for s in shards)


def plan(processes: int, shard_count: int | None, shard_ids: str | None) -> tuple[int, list[list[int]]]:
    """The shard count and each process's shards; :class:`SettingsError` in one sentence if impossible."""
    if processes < 1:
        raise SettingsError("--processes must be 1 or more.")
    count = shard_count if shard_count is not None else processes
    if count < 1:
        raise SettingsError("--shards (SHARD_COUNT) must be 1 or more.")
    if shard_ids:
        try:
            shards = list(parse_shard_ids(shard_ids))
        except ValueError:
            raise SettingsError(f"SHARD_IDS must list shard numbers like 0-3 or 0,2, not {shard_ids!r}.") from None
        if any(s >= count for s in shards):
            raise SettingsError(f"SHARD_IDS {shard_ids!r} names a shard outside 0 to {count - 1}.")
    else:
        shards = list(range(count))
    if processes > len(shards):
        raise SettingsError(
            f"{processes} processes cannot share {len(shards)} shard(s): use --shards {processes} or more."
        )
    return count, split(shards, processes)


def health_port(environ: Mapping[str, str], index: int) -> dict[str, str]:
    """The ``index``-th process's endpoint (each needs its own port): HEALTH_PORT, HEALTH_PORT+1, …"""
    port = environ.get("HEALTH_PORT", "").strip()
    return {"HEALTH_PORT": str(int(port) + index)} if port.isdigit() else {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.cluster", description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1, help="bot processes (default: cores)")
    parser.add_argument(
        "--shards", type=int, default=None, help="SHARD_COUNT for all (default: SHARD_COUNT, else --processes)"
    )
    args = parser.parse_args(argv)
    try:
        count, runs = plan(args.processes, _shard_count(args.shards), os.environ.get("SHARD_IDS", "").strip() or None)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    children = _start(count, runs)

    sent: set[int] = set()  # the signals this cluster passed on: a child they stopped stopped cleanly

    def stop(signum: int, frame: FrameType | None) -> None:
        # The same signal to each process: each stops cleanly (panels saved, leases released).
        sent.add(signum)
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    code = _first_end(children, runs, count, sent)
    passed_on = bool(sent)
    stop(signal.SIGTERM, None)
    _reap(children)
    if code < 0:
        # Stopped by a signal this cluster passed on: a clean stop. Any other signal (the kernel's
        # OOM killer's SIGKILL, a SIGSEGV) is a failure the supervisor must see and restart.
        return 0 if passed_on and -code in sent else 1
    return code


def _shard_count(given: int | None) -> int | None:
    """``--shards``, else ``SHARD_COUNT`` from the environment, else None (one a process)."""
    env_count = os.environ.get("SHARD_COUNT", "").strip()
    if given is not None or not env_count:
        return given
    if not env_count.isdigit():
        raise SettingsError(f"SHARD_COUNT must be a whole number of shards, not {env_count!r}.")
    return int(env_count)


def _start(count: int, runs: list[list[int]]) -> list[subprocess.Popen[bytes]]:
    """One bot process for each run of shards, each told its shards and its share of the cores."""
    children: list[subprocess.Popen[bytes]] = []
    for index, shards in enumerate(runs):
        env = {**os.environ, "SHARD_COUNT": str(count), "SHARD_IDS": shard_text(shards)}
        env.update(health_port(os.environ, index))
        if "COMPUTER_WORKERS" not in os.environ:
            # The machine's cores are shared: each process gets its part of them for computer players.
            env["COMPUTER_WORKERS"] = str(max(1, (os.cpu_count() or 1) // len(runs)))
        children.append(subprocess.Popen([sys.executable, "-m", "bot"], env=env))
        print(f"started process {children[-1].pid} for shard(s) {shard_text(shards)} of {count}", file=sys.stderr)
    return children


def _first_end(children: list[subprocess.Popen[bytes]], runs: list[list[int]], count: int, sent: set[int]) -> int:
    """Wait for the first process to end and return its status; say so unless it is the clean end
    of a stop this cluster passed on."""
    while True:
        for index, child in enumerate(children):
            if child.poll() is not None:
                code = child.returncode
                if not (sent and (code == 0 or -code in sent)):  # not the clean end of a stop passed on
                    print(ended(child.pid, runs[index], count, code), file=sys.stderr)
                return code
        time.sleep(0.2)


def _reap(children: list[subprocess.Popen[bytes]]) -> None:
    """Wait for every process to stop, up to ``STOP_WAIT`` in all; kill those that do not."""
    deadline = time.monotonic() + STOP_WAIT
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def ended(pid: int, shards: list[int], count: int, code: int) -> str:
    """The one line naming which process ended and how (its exit status or the signal that killed it)."""
    who = f"process {pid} (shard(s) {shard_text(shards)} of {count})"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        cause = " (the kernel's OOM killer sends SIGKILL)" if -code == signal.SIGKILL else ""
        return f"{who} was killed by {name}{cause}: stopping the others; the cluster exits with status 1."
    return f"{who} exited with status {code}: stopping the others; the cluster exits with status {code}."


if __name__ == "__main__":
    raise SystemExit(main())
