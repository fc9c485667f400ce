"""An installed copy (``pip install .``, not editable) carries every file the code reads beside itself.

setuptools puts a package's Python modules into a wheel by itself, but any other file only where
``[tool.setuptools.package-data]`` names it: the store's migrations, the page's scripts and the
computers' fitted model were once left out, so a server installed that way could not create its
database. setuptools' own build step for a wheel's pure part (``build_py``) runs here into a
temporary folder, as ``pip install .`` runs it, and every file git tracks inside a package that
build ships must come out of it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.test_repository import ROOT, tracked_files


def _built(into: Path) -> set[str]:
    """The files setuptools' build_py puts into a wheel, relative to its root (nothing written in
    the checkout: its metadata goes to ``into`` too)."""
    (into / "meta").mkdir()
    command = [sys.executable, "-c", "from setuptools import setup; setup()", "-q"]
    command += ["egg_info", "--egg-base", str(into / "meta"), "build_py", "--build-lib", str(into / "lib")]
    run = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"}
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return {str(p.relative_to(into / "lib")) for p in (into / "lib").rglob("*") if p.is_file()}


def test_every_file_beside_the_code_is_installed(tmp_path: Path) -> None:
    built = _built(tmp_path)
    packages = {name.split("/")[0] for name in built if name.count("/") == 1 and name.endswith("/__init__.py")}
    assert {"bot", "cogs", "db", "games", "draw", "locales"} <= packages, sorted(packages)
    names = [str(p.relative_to(ROOT)) for p in tracked_files()]
    beside = {name for name in names if name.split("/")[0] in packages and not name.endswith(".py")}
    assert {"db/migrations/0001_initial.sql", "games/ohhell/ai/random_play.json"} <= beside
    assert sorted(beside - built) == [], "name them in pyproject.toml's [tool.setuptools.package-data]"
