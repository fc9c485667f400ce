"""A full disk or a read-only file at start: a SQLite file that is read-only, or a disk that is full, while the
store opens (migrating a new file, or checking an existing one) is refused in one sentence that
says what to do, and the store's thread is closed so the process can exit. (The tests run as
root, for whom a chmod'ed file stays writable: SQLite's own errors are raised at the first write.)"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import db.sqlite_connection
from db.errors import StoreConfigError
from db.sqlite import SqliteStore
from tests.db.test_config import one_sentence


@pytest.mark.parametrize("error", ["attempt to write a readonly database", "database or disk is full"])
@pytest.mark.parametrize("existing", [False, True])
async def test_a_read_only_or_full_database_at_start_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: str, existing: bool
) -> None:
    path = str(tmp_path / "cards.sqlite3")
    if existing:
        first = SqliteStore(path)
        await first.open()
        await first.close()
    real = db.sqlite_connection.run

    async def failing(conn: Any, sql: str, params: tuple[Any, ...] = ()) -> None:
        if sql.startswith("BEGIN"):
            raise sqlite3.OperationalError(error)
        await real(conn, sql, params)

    monkeypatch.setattr(db.sqlite_connection, "run", failing)
    store = SqliteStore(path)
    with pytest.raises(StoreConfigError) as raised:
        await store.open()
    message = one_sentence(str(raised.value))
    assert error in message and "DATABASE_PATH" in message and "writable" in message
    # (the event loop's own executor threads exit with it; aiosqlite's would keep the process alive)
    left = [t for t in threading.enumerate() if not t.daemon and not t.name.startswith(("asyncio", "MainThread"))]
    for thread in left:
        thread.join(timeout=2)  # (a closed connection's thread ends a moment after the close)
    assert store._db is None and not any(t.is_alive() for t in left), left


# -- every start-up failure of the real commands, as a host meets them -----------------------------
# Each command runs in its own process with the files a user would have; each failure must end it
# with one sentence and a non-zero exit, within the time limit (a thread left behind would keep the
# process alive: the limit is what catches it).
ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60  # seconds: a start that fails takes a few; one that hangs never ends


def _no_traceback(out: str) -> str:
    """The output's last line, once nothing before it is a traceback or an error."""
    assert "Traceback" not in out and "ERROR" not in out, out
    return one_sentence(out.strip().splitlines()[-1])


def _run(args: list[str], database: str, prefix: list[str] = (), **settings: str) -> subprocess.CompletedProcess[str]:
    """``prefix``: a command that runs it (as another user); ``settings``: more environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "HEALTH_PORT")}
    env.update(DISCORD_TOKEN="offline-test-token", DATABASE_PATH=database, PYTHONPATH=str(ROOT), **settings)
    return subprocess.run(
        [*prefix, sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=LIMIT,
    )


BOT = ["-m", "bot"]


def _local(database: str) -> list[str]:
    """The local mode on a port the system picks: the default one may be held by another run of
    the suite on this machine (its own local mode), which then refused this one for its port."""
    return ["-m", "bot.host.local", "--db", database, "--port", "0"]


def _needs_local() -> None:
    try:
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception as error:
        pytest.skip(f"the local mode needs simcord[preview] ({error})")


@pytest.mark.parametrize("command", ["bot", "bot.host.local"])
def test_a_file_that_is_not_a_database_is_one_sentence(tmp_path: Path, command: str) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    if command == "bot.host.local":
        _needs_local()
    done = _run(BOT if command == "bot" else _local(str(notes)), str(notes))
    assert done.returncode == 2, done.stderr
    last = _no_traceback(done.stdout + done.stderr)
    assert "not a database" in last and str(notes) in last


@pytest.mark.parametrize("command", ["bot", "bot.host.local"])
def test_a_taken_health_port_is_named_and_a_wrong_setting(tmp_path: Path, command: str) -> None:
    """Another program holds the endpoint's port: not "Could not reach Discord (OSError)" (exit 1,
    retried for ever by systemd) nor a traceback, but the port named and exit 2 (a wrong setting)."""
    if command == "bot.host.local":
        _needs_local()
    path = str(tmp_path / "cards.sqlite3")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        if command == "bot":
            done = _run(BOT, path, HEALTH_PORT=str(port))
        else:
            done = _run([*_local(path), "--health-port", str(port)], path)
    assert done.returncode == 2, done.stdout + done.stderr
    last = _no_traceback(done.stdout + done.stderr)
    assert f"{port}" in last and "in use" in last, last
    assert ("HEALTH_PORT" if command == "bot" else "--health-port") in last, last
    assert "Discord" not in last, last


NOBODY = 65534


def another_user(uid: int = NOBODY, interpreter: str = sys.executable) -> list[str]:
    """The command prefix that runs a command as ``uid`` (``setpriv``, from util-linux), or the
    test skips with the reason where that user cannot run this suite's interpreter and import the
    bot: a virtualenv under a private home (``/root``, ``/home/me`` at 0700) is out of its reach, and
    the test would fail on that rather than on what it checks."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("as root, the test needs setpriv (util-linux) to run the bot as another user")
    prefix = [setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    tried = subprocess.run(
        [*prefix, interpreter, "-c", "import bot.host.settings, db.sqlite"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=LIMIT,
    )
    if tried.returncode != 0:
        said = (tried.stderr.strip().splitlines() or [f"exit status {tried.returncode}"])[-1]
        pytest.skip(f"user {uid} cannot run {interpreter} or import the bot from {ROOT} ({said})")
    return prefix


@pytest.mark.skipif(os.geteuid() != 0, reason="only root runs a command as another user")
def test_a_user_who_cannot_reach_the_interpreter_skips_with_the_reason(tmp_path: Path) -> None:
    """An interpreter in a private folder (a virtualenv under a home at 0700): a skip naming it."""
    private = tmp_path / "home"
    private.mkdir(mode=0o700)
    interpreter = private / "python"
    interpreter.symlink_to(sys.executable)
    with pytest.raises(pytest.skip.Exception, match=f"user {NOBODY} cannot run {interpreter}"):
        another_user(interpreter=str(interpreter))


@pytest.fixture
def read_only_database() -> Iterator[tuple[str, list[str]]]:
    """A Card Table database file the bot's user may read but not write, in a folder it may write
    to. Root writes any file whatever its mode, so as root the command runs as ``nobody``."""
    import asyncio

    folder = Path(tempfile.mkdtemp(prefix="cardtable-ro-"))
    try:
        folder.chmod(0o777)
        path = folder / "cards.sqlite3"

        async def make() -> None:
            store = SqliteStore(str(path))
            await store.open()
            await store.close()

        asyncio.run(make())
        path.chmod(0o444)
        as_user: list[str] = []
        if os.geteuid() == 0:
            as_user = another_user()
        yield str(path), as_user
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("command", ["bot", "bot.host.local"])
def test_a_read_only_database_file_is_one_sentence(read_only_database, command: str) -> None:
    path, as_user = read_only_database
    if command == "bot.host.local":
        _needs_local()
    done = _run(BOT if command == "bot" else _local(path), path, prefix=as_user)
    assert done.returncode == 2, done.stdout + done.stderr
    last = _no_traceback(done.stdout + done.stderr)
    assert "readonly" in last and "writable" in last and path in last


def test_a_second_local_mode_on_the_same_file_is_refused_and_ends(tmp_path: Path) -> None:
    _needs_local()
    path = str(tmp_path / "local.sqlite3")
    first = subprocess.Popen(
        [sys.executable, *_local(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert first.stdout is not None
        said = []
        for line in first.stdout:
            said.append(line)
            if "Ctrl-C" in line:
                break
        assert said and "Ctrl-C" in said[-1], "the first local mode did not start: " + "".join(said)
        done = _run(_local(path), path)
        assert done.returncode == 2, done.stdout + done.stderr
        last = _no_traceback(done.stdout + done.stderr)
        assert last.startswith("Another Card Table bot") and f":{first.pid}:" in last
    finally:
        first.send_signal(signal.SIGINT)
        try:
            first.communicate(timeout=LIMIT)
        except subprocess.TimeoutExpired:
            first.kill()
            first.communicate()
    assert first.returncode == 0


def test_a_store_that_opens_but_refuses_the_lease_is_one_sentence(tmp_path: Path, monkeypatch, capsys) -> None:
    """Any store (PostgreSQL with a read-only user, say) that opens but fails the first write, the
    shard lease, with a plain store error: one sentence, exit 2, the store closed."""
    import discord

    from bot import __main__ as entry
    from db.errors import StoreError

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "cards.sqlite3"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    opened: list[SqliteStore] = []

    async def refuse(self: SqliteStore, *args: Any) -> list[Any]:
        opened.append(self)
        raise StoreError("permission denied for table leases")

    async def never(self: Any, token: str) -> None:
        raise AssertionError("a refused bot must not reach Discord")

    monkeypatch.setattr(SqliteStore, "claim_leases", refuse)
    monkeypatch.setattr(discord.Client, "login", never)
    assert entry.main() == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = one_sentence(err.strip().splitlines()[-1])
    assert "permission denied for table leases" in last and "DATABASE_PATH" in last
    assert opened and opened[0]._db is None, "the store was closed"
