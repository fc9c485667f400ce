"""A finished game's hand history (JSON), replayed and checked: ``python -m games.replay FILE``.

The bot exports a finished game (``/ohhell replay``, ``/shithead replay``) as one JSON object:
``format`` (``"cardtable-hand-history"``), ``version`` (1), ``game`` (``"ohhell"`` or
``"shithead"``), ``id``, ``preset``, ``rules`` (the engine's rules, frozen at the start),
``seed`` and ``rng_version`` (the deal generator, games/common/rng.py), ``seats`` (``seat``,
``name``, ``computer``: the level or null), ``actions`` (``[{"seat": s, "action": {...}}]`` in
the order the engine took them), ``results`` (as stored: ``seat``, ``name``, ``place``,
``total``, ``is_loser``) and ``finished_at``.

Replaying rebuilds the game from the rules, the seed and the actions alone, with the stored
generator version, prints each deal's scores (Oh Hell) or the going-out order (Shithead), and
checks that the final standings are the stored ones; the exit status is 0 when they are.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.common.engine import ENGINES, Engine, GameError

FORMAT = "cardtable-hand-history"
VERSION = 1
#: a history larger than this is refused unread (the longest games are a few hundred kB)
MAX_BYTES = 16_000_000
#: and one with more actions (a long Shithead game has a few thousand)
MAX_ACTIONS = 100_000


def rebuild(data: dict[str, Any]) -> Engine:
    """The game the history describes, replayed action by action; raises ValueError if it is not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"not a Card Table hand history (format {FORMAT!r}, version {VERSION})")
    if not isinstance(data.get("actions"), list) or len(data["actions"]) > MAX_ACTIONS:
        raise ValueError(f"its actions are not a list of at most {MAX_ACTIONS}")
    seats = len(data["seats"])
    seed = int(data["seed"])
    rng_version = int(data["rng_version"])
    log = [(int(a["seat"]), dict(a["action"])) for a in data["actions"]]
    game = engine_class(str(data["game"]))
    engine: Engine = game.new(game.rules_from_json(data["rules"]), seats, seed, rng_version=rng_version)
    for seat, action in log:
        engine.check(seat, action)  # an action the rules refuse means the history was altered
        engine, _ = engine.apply(seat, action)
    return engine


def engine_class(game: str) -> type[Engine]:
    """The engine of the game named ``game`` (the games under games/ are imported the first time;
    a game from elsewhere is known once its module was imported); ValueError if there is none."""
    if game not in ENGINES:
        for package in pkgutil.iter_modules([str(Path(__file__).parent)]):
            if package.ispkg and package.name != "common":
                with contextlib.suppress(ImportError):
                    importlib.import_module(f"games.{package.name}.game")
    if game not in ENGINES:
        raise ValueError(f"unknown game {game!r}")
    return ENGINES[game]


def final_standings(engine: Engine) -> list[dict[str, Any]]:
    """Per seat: ``place``, ``total`` and ``is_loser``, as the bot stores them (the game's own)."""
    return engine.final_standings()


def check(data: dict[str, Any]) -> tuple[Engine, list[str]]:
    """The replayed game, and every difference between its final standings and the stored ones."""
    engine = rebuild(data)
    problems: list[str] = []
    if not engine.is_over:
        problems.append(f"the actions stop before the game ends ({len(data['actions'])} actions)")
        return engine, problems
    stored = {int(r["seat"]): r for r in data["results"]}
    for row in final_standings(engine):
        saved = stored.get(row["seat"])
        if saved is None:
            problems.append(f"seat {row['seat']} has no stored result")
            continue
        for key in ("place", "total", "is_loser"):
            if saved.get(key) != row[key]:
                problems.append(
                    f"seat {row['seat']} ({saved.get('name')}): {key} replays as {row[key]}, stored {saved.get(key)}"
                )
    return engine, problems


def summary(data: dict[str, Any], engine: Engine) -> list[str]:
    names = [s["name"] for s in sorted(data["seats"], key=lambda s: s["seat"])]
    lines = [f"{data['game']} game #{data.get('id')} ({data.get('preset')}), {len(data['actions'])} actions"]
    lines += engine.result_lines(names)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m games.replay FILE", file=sys.stderr)
        return 2
    try:
        with open(args[0], "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ValueError(f"the file is larger than {MAX_BYTES} bytes")
        data = json.loads(raw)
        engine, problems = check(data)
        lines = summary(data, engine)
    except OSError as error:
        print(f"cannot replay {args[0]}: {error.strerror or error}.", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"cannot replay {args[0]}: its JSON is nested too deep.", file=sys.stderr)
        return 1
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, OverflowError, GameError) as error:
        # ValueError covers bad JSON, bad UTF-8 and the rules' own refusals (RulesError)
        what = f"{type(error).__name__} {error}" if isinstance(error, (KeyError, IndexError)) else str(error)
        print(f"cannot replay {args[0]}: {what[:200]}.", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    if problems:
        for problem in problems:
            print(f"MISMATCH: {problem}")
        return 1
    print("OK: the replayed game ends with the stored standings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
