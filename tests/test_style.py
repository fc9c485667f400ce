"""ruff is part of the suite, so the README's one test command (and CI, which runs exactly that
command) refuses code that is not lint-clean or not formatted: a style check kept outside the
suite was skipped in every earlier round. The same holds for how tangled one function may grow:
mccabe's complexity, with the functions still over it named."""

from __future__ import annotations

import json
import re
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


#: the most decisions (mccabe's complexity) one function may hold: past it a function has more
#: paths than a reader follows at once, and it wants splitting along its real seams
MAX_COMPLEXITY = 15

#: the functions still over it, named one by one (file name, function): none may join them, and
#: each leaves the list when it is split (``test_the_complexity_exceptions_are_still_needed``).
#: Every function is within the limit now: a new one past it is split, not named here.
COMPLEXITY_EXCEPTIONS: frozenset[tuple[str, str]] = frozenset()


def _too_complex(*paths: str) -> list[tuple[str, str, str]]:
    """(file, function, ruff's message) for each function in the code (or ``paths``) over MAX_COMPLEXITY."""
    done = _ruff(
        "check",
        "--no-cache",
        "--select",
        "C901",
        "--config",
        f"lint.mccabe.max-complexity={MAX_COMPLEXITY}",
        "--output-format",
        "json",
        *(paths or ("bot", "cogs", "games", "db", "draw")),
    )
    found = []
    for item in json.loads(done.stdout):
        name = re.match(r"`([^`]+)`", item["message"])
        assert name, item["message"]
        path = Path(item["filename"]).resolve()
        path = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        found.append((path.as_posix(), name.group(1), item["message"]))
    return found


def test_no_function_is_too_complex():
    over = [
        f"{path}: {message}"
        for path, name, message in _too_complex()
        if (Path(path).name, name) not in COMPLEXITY_EXCEPTIONS
    ]
    assert not over, "split these along their seams:\n" + "\n".join(over)


def test_the_complexity_exceptions_are_still_needed():
    found = {(Path(path).name, name) for path, name, _ in _too_complex()}
    gone = sorted(COMPLEXITY_EXCEPTIONS - found)
    assert not gone, f"split now, take them off COMPLEXITY_EXCEPTIONS: {gone}"


def test_a_function_past_the_limit_is_found(tmp_path: Path) -> None:
    """The measure itself: one decision past the limit is caught, one at it is not (so the empty
    exceptions list is a limit that holds, not a check that cannot fail)."""

    def function(name: str, decisions: int) -> str:
        branches = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(decisions))
        return f"def {name}(x):\n{branches}    return x\n"

    source = tmp_path / "tangled.py"
    source.write_text(function("tangled", MAX_COMPLEXITY) + "\n\n" + function("tidy", MAX_COMPLEXITY - 1))
    assert {name for _path, name, _message in _too_complex(str(source))} == {"tangled"}
