"""How long checking a shuffle takes: the bot's ``/<game> verify`` (replaying a whole
game from the revealed seed, deal by deal) and the players' stand-alone ``tools/verify_shuffle.py``
(a fresh Python process, isolated mode) on one long Oh Hell game (classic, 4 players, every deal)
and one Shithead game, plus the size of the exported file.

Run: ``.venv/bin/python bench/verify_shuffle.py`` (``--quick`` plays the same games: they already take
seconds; the suite runs it). The last line is ``verify ms=A/B script ms=C/D export bytes=E/F`` (Oh
Hell / Shithead).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# this checkout's code, not whichever the environment has installed
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.fairness.shuffles import dealt, export, verify  # noqa: E402
from cogs.ohhell.kind import OhHellKind  # noqa: E402
from cogs.shithead.kind import ShitheadKind  # noqa: E402
from db.records import DealtDeck, GameRecord, SeatRecord  # noqa: E402
from games.common.commitment import commitment  # noqa: E402
from games.common.engine import Engine  # noqa: E402
from games.ohhell.rules import make_rules as ohhell_rules  # noqa: E402
from games.shithead.ai import choose_action  # noqa: E402
from games.shithead.rules import make_rules as shithead_rules  # noqa: E402

SALT = bytes(32)
SEED = 123456789


def play(engine: Engine, pick: Callable[[Any, int], Any]) -> tuple[list[tuple[int, dict[str, Any]]], list[DealtDeck]]:
    decks = {1: dealt(engine)}
    log = []
    while not engine.is_over:
        seat = engine.to_act()[0]
        action = pick(engine, seat)
        engine, _ = engine.apply(seat, action)
        log.append((seat, dict(action)))
        deck = dealt(engine)
        assert deck is not None
        decks.setdefault(deck.deal, deck)
    return log, [d for d in decks.values() if d is not None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the same run (it takes seconds); the suite runs it")
    parser.parse_args()
    figures: list[tuple[float, float, int]] = []
    cases = [
        ("Oh Hell classic, 4 players", OhHellKind(None), ohhell_rules("classic"), lambda e, s: e.legal_actions(s)[0]),
        (
            "Shithead pagat, 4 players",
            ShitheadKind(None),
            shithead_rules("pagat"),
            lambda e, s: choose_action(e.view(s), random.Random(len(e.log))),
        ),
    ]
    for name, kind, rules, pick in cases:
        log, decks = play(kind.engine.new(rules, 4, SEED), pick)
        record = GameRecord(
            1, kind.key, 1, 2, 3, "finished", "p", {}, rules.to_json(), SEED, None, None, rng_version=3,
            commitment=commitment(SEED, SALT, 3), salt=SALT.hex(), actions=log,
            seats=[SeatRecord(i, None, f"computer {i}", "quick") for i in range(4)],
        )  # fmt: skip
        start = time.perf_counter()
        verdict = verify(kind, record, decks)
        bot_ms = (time.perf_counter() - start) * 1000
        assert verdict.ok, verdict.lines
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "shuffle.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump(export(kind, record, decks), file)
            start = time.perf_counter()
            run = subprocess.run([sys.executable, "-I", "tools/verify_shuffle.py", path], capture_output=True)
            script_ms = (time.perf_counter() - start) * 1000
            size = os.path.getsize(path)
        print(
            f"{name}: {len(log)} actions, {len(decks)} deal{'' if len(decks) == 1 else 's'}; /verify {bot_ms:.1f} ms; "
            f"tools/verify_shuffle.py {script_ms:.0f} ms (exit {run.returncode}); export {size} bytes"
        )
        if run.returncode != 0:
            raise SystemExit(f"tools/verify_shuffle.py refused an honest file: {run.stdout!r} {run.stderr!r}")
        figures.append((bot_ms, script_ms, size))
    (a, c, e), (b, d, f) = figures
    print(f"verify ms={a:.1f}/{b:.1f} script ms={c:.0f}/{d:.0f} export bytes={e}/{f}")


if __name__ == "__main__":
    main()
