"""ruff is part of the suite, so the README's one test command (and CI, which runs exactly that
command) refuses code that is not lint-clean or not formatted: a style check kept outside the
suite was skipped in every earlier round."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    beside = Path(sys.executable).with_name("ruff")
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed (it is in the test extra: pip install -e '.[test]')")
    return subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_code_is_lint_clean():
    done = _ruff("check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted():
    done = _ruff("format", "--check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr
