"""The type checker is part of the suite, so the README's one test command (and CI) runs it:
``mypy --strict`` on the engines (``games/``), the runtime (``bot/``), the features (``cogs/``),
the store (``db/``) and the drawing toolkit (``draw/``), with the project's configuration
(``pyproject.toml``). The seam between the runtime and a game is typed: each game's
:class:`~bot.contract.GameKind` names its own engine, view and action types, so neither side
narrows ``Any`` with an assert."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db", "draw", "games")


def _mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *args])
    return out + err, status


def test_the_project_is_strictly_typed():
    report, status = _mypy("--strict", *(str(ROOT / p) for p in PACKAGES))
    assert status == 0, report
