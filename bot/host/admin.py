"""The host's tools: ``python -m bot backup FILE``, ``python -m bot export FILE``, ``python -m bot import FILE``.

- ``backup FILE``: a consistent copy of the SQLite database (``DATABASE_PATH``), made with SQLite's
  online backup while the bot runs, then opened and every game in it replayed.
- ``export FILE``: every game of the configured store (``DATABASE_URL``, else ``DATABASE_PATH``):
  the games, their moves and deals, results, ratings and seasons, as JSON lines.
- ``import FILE``: those rows into the configured store, which must hold no games yet; then every
  game is replayed from the new store and every row compared with the file.

So moving from SQLite to PostgreSQL is ``export`` with the old settings and ``import`` with
``DATABASE_URL`` set (and back the same way). Every command says what it did in one line, or why it
could not in one sentence (exit status 1), and needs no Discord token.

Replaying a game rebuilds it from its rules, seed and moves alone (:mod:`games.replay`); a finished
game must end with its stored result. Lobbies (never dealt) have nothing to replay.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from bot.host.settings import Settings, SettingsError
from db.errors import StoreError
from db.factory import make_store
from db.sqlite import SqliteStore
from db.store import Store
from db.transfer import TABLES, Rows, backup_sqlite, export_rows, import_rows
from games import replay

FORMAT = "cardtable-export"
VERSION = 1


@dataclass
class Replayed:
    """What replaying every game found."""

    games: int = 0
    #: games dealt and replayed (lobbies have nothing to replay)
    replayed: int = 0
    finished: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        verdict = "every one replays" if not self.problems else f"{len(self.problems)} problem(s)"
        return (
            f"{self.games} game(s), {self.replayed} dealt ({self.finished} finished) replayed from their moves:"
            f" {verdict}"
        )


def replay_all(rows: Rows) -> Replayed:
    """Replay every dealt game of ``rows`` (an export): each must replay, a finished one to its result."""
    seats: dict[int, list[dict[str, Any]]] = {}
    for row in rows["seats"]:
        seats.setdefault(row["game_id"], []).append(row)
    actions: dict[int, list[dict[str, Any]]] = {}
    for row in rows["actions"]:
        actions.setdefault(row["game_id"], []).append(row)
    results: dict[int, list[dict[str, Any]]] = {}
    for row in rows["results"]:
        results.setdefault(row["game_id"], []).append(row)
    found = Replayed(games=len(rows["games"]))
    for game in rows["games"]:
        if game["seed"] is None or game["rules"] is None:
            continue  # a lobby: never dealt
        data = {
            "format": replay.FORMAT,
            "version": replay.VERSION,
            "game": game["kind"],
            "id": game["id"],
            "rules": json.loads(game["rules"]),
            "seed": game["seed"],
            "rng_version": game["rng_version"],
            "seats": [
                {"seat": s["seat"], "name": s["name"], "computer": s["ai_level"]}
                for s in sorted(seats.get(game["id"], []), key=lambda s: s["seat"])
            ],
            "actions": [
                {"seat": a["seat"], "action": json.loads(a["action"])}
                for a in sorted(actions.get(game["id"], []), key=lambda a: a["seq"])
            ],
            "results": [
                {
                    "seat": r["seat"],
                    "name": r["name"],
                    "place": r["place"],
                    "total": r["total"],
                    "is_loser": r["is_loser"],
                }
                for r in results.get(game["id"], [])
            ],
        }
        try:
            if game["status"] == "finished":
                _, problems = replay.check(data)
                found.finished += 1
            else:
                replay.rebuild(data)
                problems = []
        except Exception as error:  # any way of not replaying is a problem to name
            problems = [f"{type(error).__name__}: {error}"]
        found.replayed += 1
        found.problems += [f"game #{game['id']}: {problem}" for problem in problems]
    return found


def differences(before: Rows, after: Rows) -> list[str]:
    """The tables whose rows differ between two exports (a move must change none)."""
    found = []
    for table in TABLES:
        if before.get(table, []) != after.get(table, []):
            found.append(
                f"{table}: {len(before.get(table, []))} row(s) exported, {len(after.get(table, []))} found after"
            )
    return found


def write_export(path: str, rows: Rows) -> None:
    with open(path, "x", encoding="utf-8") as out:
        header = {"format": FORMAT, "version": VERSION, "rows": {t: len(rows.get(t, [])) for t in TABLES}}
        out.write(json.dumps(header) + "\n")
        for table in TABLES:
            for row in rows.get(table, []):
                out.write(json.dumps({"table": table, "row": row}, ensure_ascii=False) + "\n")


def read_export(path: str) -> Rows:
    """The rows of an export; :class:`ValueError` naming ``path`` (one sentence) for any file that
    is not one, cut short or not even text."""
    not_export = f"{path} is not a Card Table export (made by python -m bot export)"
    number = 1
    try:
        with open(path, encoding="utf-8") as source:
            header = json.loads(source.readline() or "{}")
            if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
                raise ValueError(not_export)
            rows: Rows = {table: [] for table in TABLES}
            for line in source:
                number += 1  # (the line a refusal names)
                if line.strip():
                    item = json.loads(line)
                    rows.setdefault(item["table"], []).append(item["row"])
    except UnicodeDecodeError as error:
        raise ValueError(f"{not_export}: it is not UTF-8 text ({error.reason} at byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{not_export}: line {number} is not JSON ({error.msg})") from None
    except (KeyError, TypeError):
        raise ValueError(f"{not_export}: line {number} is not a row of a table") from None
    expected = header.get("rows", {})
    short = [t for t in TABLES if len(rows.get(t, [])) != expected.get(t, 0)]
    if short:
        raise ValueError(f"{path} is cut short: table {short[0]} has fewer rows than its header says")
    return rows


async def _opened(store: Store) -> Store:
    await store.open()
    return store


async def backup(settings: Settings, target: str) -> str:
    if settings.database_url:
        raise SettingsError(
            "backup copies a SQLite file, and DATABASE_URL names PostgreSQL: back it up with pg_dump,"
            " or move every game to a file with python -m bot export FILE."
        )
    size = await asyncio.to_thread(backup_sqlite, settings.database_path, target)
    store = await _opened(SqliteStore(target))
    try:
        checked = replay_all(await export_rows(store))
    finally:
        await store.close()
    if checked.problems:
        raise StoreError(f"the copy in {target} was made, but {checked.problems[0]}")
    return f"Backed up {settings.database_path} to {target} ({size // 1024} KiB); {checked.line()}."


def _store(settings: Settings) -> Store:
    return make_store(settings.database_url, settings.database_path, sqlite_synchronous=settings.sqlite_synchronous)


def _where(settings: Settings) -> str:
    return "the PostgreSQL database of DATABASE_URL" if settings.database_url else settings.database_path


async def export(settings: Settings, target: str) -> str:
    store = await _opened(_store(settings))
    try:
        rows = await export_rows(store)
    finally:
        await store.close()
    checked = replay_all(rows)
    await asyncio.to_thread(write_export, target, rows)
    total = sum(len(r) for r in rows.values())
    return f"Exported {_where(settings)} to {target}: {total} row(s); {checked.line()}."


async def import_(settings: Settings, source: str) -> str:
    rows = await asyncio.to_thread(read_export, source)
    store = await _opened(_store(settings))
    try:
        await import_rows(store, rows)
        after = await export_rows(store)
    finally:
        await store.close()
    changed = differences(rows, after)
    if changed:
        raise StoreError(f"the rows in {_where(settings)} differ from {source}: {changed[0]}")
    checked = replay_all(after)
    if checked.problems:
        raise StoreError(f"imported, but {checked.problems[0]}")
    ratings = len(after["ratings"])
    return f"Imported {source} into {_where(settings)}: {checked.line()}; {ratings} rating(s) equal to the file's."


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "backup", help="a consistent copy of the SQLite database, made while the bot runs"
    ).add_argument("file", help="the copy to write (must not exist)")
    commands.add_parser("export", help="every game of the configured database, to a file").add_argument(
        "file", help="the file to write (JSON lines; must not exist)"
    )
    commands.add_parser("import", help="every game of an export, into the configured (empty) database").add_argument(
        "file", help="a file written by python -m bot export"
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env(require_token=False)
        if args.command == "backup":
            print(asyncio.run(backup(settings, args.file)))
        elif args.command == "export":
            print(asyncio.run(export(settings, args.file)))
        else:
            print(asyncio.run(import_(settings, args.file)))
    except (SettingsError, StoreError, ValueError) as error:
        print(error, file=sys.stderr)
        return 1
    except FileExistsError as error:
        print(f"{error.filename or error} exists already: name a new file (nothing is overwritten).", file=sys.stderr)
        return 1
    except FileNotFoundError as error:
        print(f"{error.filename or error} does not exist: check DATABASE_PATH or the file named.", file=sys.stderr)
        return 1
    except OSError as error:  # a file this user may not read or write, a full disk: the file and why
        print(f"{error.filename or 'A file'} could not be used ({error.strerror or error}).", file=sys.stderr)
        return 1
    return 0
