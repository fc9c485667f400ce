"""``python -m bot.host.cluster`` under a supervisor: a process that dies by a signal it did not pass on
(the kernel's OOM killer sends SIGKILL; a crash in C is SIGSEGV) is a failure. The cluster names
that process and how it died, stops the others and exits non-zero, so systemd's
``Restart=on-failure`` restarts the set; a SIGTERM the cluster passed on itself is still a clean
stop (exit 0, tests/bot/host/test_stop_signals.py)."""

from __future__ import annotations

import asyncio
import re
import signal

import pytest

from tests.bot.host.test_stop_signals import _start, _stop


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV])
async def test_a_process_killed_by_a_signal_fails_the_cluster_and_is_named(tmp_path, sig) -> None:
    db_path = str(tmp_path / "cards.sqlite3")
    args = ["-m", "bot.host.cluster", "--processes", "2", "--shards", "2"]
    proc, lines = await asyncio.to_thread(_start, args, db_path, 2)
    try:
        started = dict(re.findall(r"started process (\d+) for shard\(s\) (\d+) of 2", "".join(lines)))
        victim = next(pid for pid, shard in started.items() if shard == "1")
        out = await asyncio.to_thread(_stop, proc, lines, sig, int(victim))
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, out
    assert f"process {victim} (shard(s) 1 of 2) was killed by {sig.name}" in out, out
    assert "Traceback" not in out, out
