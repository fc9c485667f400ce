"""The type checker is part of the suite, so the README's one test command (and CI) runs it:
``mypy --strict`` on the engines (``games/``), the runtime (``bot/``), the features (``cogs/``),
the store (``db/``) and the drawing toolkit (``draw/``), with the project's configuration
(``pyproject.toml``). The seam between the runtime and a game is typed: each game's
:class:`~bot.contract.GameKind` names its own engine, view and action types, so neither side
narrows ``Any`` with an assert."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db", "draw", "games")
#: mypy's cache, kept between runs and between clones of the project on this machine in a folder of
#: the temporary directory, as the tests keep bytecode and card pictures (tests/conftest.py): each
#: fresh clone checked everything from nothing (8 s alone, up to 20 s in the suite), and now the
#: first one does. mypy still reads every module: one whose content differs (its hash, whatever
#: its path or date) is checked again with every module that depends on what changed, and the
#: errors of unchanged modules are reported from the cache, so the verdict is a cold run's (tried:
#: a changed return type in one clone's games/common/cards.py, 35 errors in 15 files, reported
#: again unchanged, and none once reverted, the other clone still clean).
CACHE = Path(tempfile.gettempdir()) / f"cardtable-test-mypy-{os.getuid()}"


def _mypy(*args: str) -> tuple[str, int]:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(CACHE), *args])
    return out + err, status


@pytest.mark.long(8)  # with no cache: 8 s alone, up to 20 s in the suite
def test_the_project_is_strictly_typed():
    report, status = _mypy("--strict", *(str(ROOT / p) for p in PACKAGES))
    assert status == 0, report
