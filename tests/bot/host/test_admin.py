"""The host's tools, run as a host runs them (``python -m bot backup|export|import FILE`` in a
subprocess, with DATABASE_PATH / DATABASE_URL in the environment): a backup taken while a game is
being played opens and replays every game; SQLite -> PostgreSQL -> SQLite keeps every row, every
game replayable and every rating equal."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

from bot.host.admin import read_export, replay_all
from db.postgres import PostgresStore
from db.records import GuildSettings, OldCopy, SeatHandover, SeatRecord, Timer
from db.sqlite import SqliteStore
from db.store import Store
from db.transfer import LEFT_OUT, schema_tables, table_rows
from tests.cogs.conftest import db_path, simcord_bot  # noqa: F401  (the SimCord fixtures)
from tests.db.conftest import TEST_DATABASE_URL, postgres_admin
from tests.helpers import OhHellDriver, open_table

ROOT = Path(__file__).resolve().parents[3]


def tool(*args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` with only these settings (no token: the tools need none)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH", "DISCORD_TOKEN")}
    env.update(settings)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


async def play_games(env, finished: int = 2, live_moves: int = 3):
    """``finished`` whole games (rated) and one game left in the middle after ``live_moves`` moves."""
    guild = env.create_guild()
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    actors = {p.id: p for p in people}
    for number in range(finished):
        channel = guild.create_text_channel(f"cards-{number}")
        await open_table(env, channel, people[0], people[1:], options={"fixed_hands": "2,1"})
        await OhHellDriver(env, channel, actors, seed=number).play_to_end()
    channel = guild.create_text_channel("live")
    await open_table(env, channel, people[0], people[1:], options={"fixed_hands": "3,2"})
    driver = OhHellDriver(env, channel, actors, seed=9)
    for _ in range(live_moves):
        assert await driver.step()
    return guild, env.bot.tables.in_channel(channel.id)


async def test_a_backup_taken_during_a_game_replays_every_game(simcord_env, db_path, tmp_path):  # noqa: F811
    env = simcord_env
    _, live = await play_games(env, finished=1)
    copy = tmp_path / "backup.sqlite3"

    done = tool("backup", str(copy), DATABASE_PATH=db_path)  # the bot still runs on db_path
    assert done.returncode == 0, done.stderr
    assert "2 game(s), 2 dealt (1 finished) replayed from their moves: every one replays" in done.stdout, done.stdout

    store = SqliteStore(str(copy))
    await store.open()
    try:
        copied = await store.get_game(live.id)
        assert copied is not None and copied.status == "playing"
        assert copied.actions == live.record.actions  # every committed move, none half-written
        assert live.kind.replay(live.rules, copied).action_count == live.engine.action_count
        finished = [g for g in await store.finished_games(copied.guild_id, "ohhell")]
        assert len(finished) == 1
    finally:
        await store.close()
    assert not (tmp_path / "backup.sqlite3-wal").exists()  # one file, standing alone

    again = tool("backup", str(copy), DATABASE_PATH=db_path)
    assert again.returncode == 1 and "exists already" in again.stderr and again.stdout == ""


async def fill_the_other_tables(store: Store, guild_id: int, live_game: int) -> None:
    """A row in each table the games played leave empty: a duplicate match and who watched its
    tables, the server's season settings, a coach's analysis, a turn timer, an old copy, a member
    who turned turn pings off, a seat handed over mid-game, a member's language."""
    match = await store.create_match("ohhell", "WATCHD", guild_id, 7, 2, 5, "00" * 32)
    assert await store.add_match_watcher(match.id, 2**63 - 25)  # watched a table: never sits at another
    await store.set_guild_settings(guild_id, GuildSettings(season="weekly", min_games=2))
    await store.save_analysis(live_game, 1, {"deals": []})
    await store.set_timer(Timer(live_game, 3, 1_900_000_000.5, False), live_game)
    await store.save_old_copy(OldCopy(live_game, 4242, {"content": "old", "embeds": []}))
    await store.set_pings(2**63 - 26, False)
    await store.set_member_language(2**63 - 28, "es-419")
    game = await store.get_game(live_game)
    assert game is not None
    cat = game.seats[2]
    taker = SeatRecord(cat.seat, 2**63 - 27, "eve")
    await store.hand_over_seat(
        SeatHandover(live_game, cat.seat, len(game.actions), cat.user_id, cat.name, taker.user_id, "eve", cat.user_id),
        taker,
    )


async def every_table(store: Store) -> dict[str, list[str]]:
    """Every moved table's rows, by table, each table's rows in one order. The tables are listed
    by the database itself, so a table added later is compared without anyone naming it here."""
    tables = await schema_tables(store)
    found = {}
    for table in tables:
        if table not in LEFT_OUT:
            rows = sorted(json.dumps(row, sort_keys=True, default=str) for row in await table_rows(store, table))
            assert rows, f"table {table} has no row here: the test must put one in, or it proves nothing for it"
            found[table] = rows
    return found


def test_only_runtime_state_is_left_out_of_a_move():
    """A move leaves behind only what belongs to the running processes, never a game's history."""
    assert set(LEFT_OUT) == {"shard_leases", "panels", "schema_migrations"}


async def test_sqlite_to_postgres_and_back_keeps_every_game_and_rating(simcord_env, db_path, tmp_path):  # noqa: F811
    env = simcord_env
    guild, live = await play_games(env, finished=2)
    ratings_before = await env.bot.store.ratings(guild.id, "ohhell")
    assert len(ratings_before) >= 2
    await fill_the_other_tables(env.bot.store, guild.id, live.id)
    source_tables = await every_table(env.bot.store)

    admin = await postgres_admin()
    schema = f"cardtable_test_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{TEST_DATABASE_URL}?search_path={schema}"
    try:
        first, second, third = (str(tmp_path / f"{n}.jsonl") for n in ("sqlite", "postgres", "back"))
        back = str(tmp_path / "back.sqlite3")

        out = tool("export", first, DATABASE_PATH=db_path)
        assert out.returncode == 0, out.stderr
        assert "3 game(s), 3 dealt (2 finished) replayed from their moves: every one replays" in out.stdout

        into = tool("import", first, DATABASE_URL=url)
        assert into.returncode == 0, into.stderr
        assert "every one replays" in into.stdout and f"{len(ratings_before)} rating(s) equal" in into.stdout
        refused = tool("import", first, DATABASE_URL=url)
        assert refused.returncode == 1 and "already has 3 game(s)" in refused.stderr

        assert tool("export", second, DATABASE_URL=url).returncode == 0
        home = tool("import", second, DATABASE_PATH=back)
        assert home.returncode == 0, home.stderr
        assert tool("export", third, DATABASE_PATH=back).returncode == 0

        rows = [read_export(path) for path in (first, second, third)]
        assert rows[0] == rows[1] == rows[2]
        assert rows[0]["actions"] and rows[0]["ratings"] and rows[0]["deals"]
        checked = replay_all(rows[2])
        assert checked.replayed == 3 and checked.finished == 2 and not checked.problems

        store = SqliteStore(back)
        await store.open()
        try:
            assert await every_table(store) == source_tables, (
                "a table's rows differ after SQLite -> PostgreSQL -> SQLite"
            )
            assert await store.ratings(guild.id, "ohhell") == ratings_before
            moved = await store.get_game(live.id)
            assert moved is not None and moved.actions == live.record.actions and moved.seed == live.record.seed
        finally:
            await store.close()

        postgres = PostgresStore(TEST_DATABASE_URL, schema=schema)
        await postgres.open()
        try:
            assert await every_table(postgres) == source_tables, "a table's rows differ after SQLite -> PostgreSQL"
            assert await postgres.ratings(guild.id, "ohhell") == ratings_before
            # new games are numbered after the imported ones
            assert await postgres.create_game("ohhell", guild.id, 42, 1, "classic", {}) == 4
        finally:
            await postgres.close()
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


def _one_sentence_and_nothing_left(done: subprocess.CompletedProcess[str], folder: Path, before: set[str]) -> str:
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == "", done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert {p.name for p in folder.rglob("*")} == before, "the failed command left a file behind"
    return lines[0]


def test_a_backup_of_a_file_that_is_not_a_database_is_one_sentence_and_leaves_nothing(tmp_path):
    garbage = tmp_path / "cards.sqlite3"
    garbage.write_text("these are notes, not a database\n" * 200)
    copy = tmp_path / "copy.sqlite3"
    done = tool("backup", str(copy), DATABASE_PATH=str(garbage))
    said = _one_sentence_and_nothing_left(done, tmp_path, {"cards.sqlite3"})
    assert str(garbage) in said and "not a database" in said and "DATABASE_PATH" in said, said


def test_a_backup_into_a_folder_that_does_not_exist_is_one_sentence(tmp_path):
    source = tmp_path / "cards.sqlite3"
    sqlite3.connect(source).close()  # an empty SQLite file: the copy fails before reading it
    missing = tmp_path / "backups"
    done = tool("backup", str(missing / "copy.sqlite3"), DATABASE_PATH=str(source))
    said = _one_sentence_and_nothing_left(done, tmp_path, {"cards.sqlite3"})
    assert str(missing) in said and "does not exist" in said, said


def test_an_import_of_a_file_that_is_not_utf8_names_the_file(tmp_path):
    source = tmp_path / "export.jsonl"
    header = '{"format": "cardtable-export", "version": 1, "rows": {"games": 1}}\n'
    source.write_bytes(header.encode() + b'{"table": "games", "row": {"name": "Jos\xe9"}}\n')  # Latin-1
    done = tool("import", str(source), DATABASE_PATH=str(tmp_path / "new.sqlite3"))
    said = _one_sentence_and_nothing_left(done, tmp_path, {"export.jsonl"})
    assert str(source) in said and "UTF-8" in said, said
