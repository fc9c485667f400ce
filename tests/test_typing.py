"""The type checker is part of the suite, so the README's one test command (and CI) runs it:
strict on the engines (``games/``), where the contracts between parts are defined, and the
project's configuration (``pyproject.toml``) on the Discord side and the store."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def _mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *args])
    return out + err, status


def test_games_are_strictly_typed():
    report, status = _mypy("--strict", str(ROOT / "games"))
    assert status == 0, report


def test_bot_cogs_and_db_type_check():
    report, status = _mypy(*(str(ROOT / p) for p in ("bot", "cogs", "db")))
    assert status == 0, report
