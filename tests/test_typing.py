"""The type checker is part of the suite, so the README's one test command (and CI) runs it:
``mypy --strict`` on the engines (``games/``), the runtime (``bot/``), the features (``cogs/``),
the store (``db/``) and the drawing toolkit (``draw/``), with the project's configuration
(``pyproject.toml``). The seam between the runtime and a game is typed: each game's
:class:`~bot.seam.contract.GameKind` names its own engine, rules, view and action types, so neither
side narrows ``Any`` with an assert or a cast (tests/bot/seam/test_game_seam.py counts both)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db", "draw", "games", "locales")


def _mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *args])
    return out + err, status


def test_the_project_is_strictly_typed():
    report, status = _mypy("--strict", *(str(ROOT / p) for p in PACKAGES))
    assert status == 0, report


def test_a_shared_history_entry_cannot_be_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game builds each deal's history entry once and every view shares it
    (``GameRecord.history_entries``): the type checker refuses code that would change one for
    everybody, while a view's own list of them stays its own."""
    code = tmp_path / "changes_history.py"
    code.write_text(
        "from games.ohhell.game import OhHell\n"
        "from games.ohhell.rules import make_rules\n"
        "game = OhHell.new(make_rules('classic'), 4, 1)\n"
        "history = game.view(None)['history']\n"
        "history.append(history[0])\n"  # the view's own list: allowed
        "history[0]['deal'] = 3\n"
        "history[0]['bids'].append(2)\n"
        "history[0]['scores'][0] = 1\n"
    )
    monkeypatch.setenv("MYPYPATH", str(ROOT))  # the project's packages, from any directory
    report, status = _mypy("--strict", str(code))
    assert status == 1, report
    refused = sorted(int(line.split(":")[1]) for line in report.splitlines() if "error:" in line)
    assert refused == [6, 7, 8], report
