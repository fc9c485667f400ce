"""bench/reach.py runs in the suite (``--quick``): its last line is the one its docstring names,
every file it saw sent carried alt text, no turn got more than one ping, and the catalogue speaks
three languages with nothing missing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "reach.py"
LAST = re.compile(r"locales=(\d+) strings=(\d+) missing=(\d+) alt text=(\d+)/(\d+) pings per turn=(\d+)")


def test_reach_quick_prints_its_last_line() -> None:
    env = {**os.environ, "PYTHONPATH": str(SCRIPT.parents[1])}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"], capture_output=True, text=True, timeout=600, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    last = done.stdout.strip().splitlines()[-1]
    match = LAST.fullmatch(last)
    assert match is not None, last
    locales, strings, missing, described, files, per_turn = (int(g) for g in match.groups())
    assert "locales=L strings=S missing=M alt text=A/F pings per turn=P" in SCRIPT.read_text()
    assert locales == 3 and missing == 0  # English and two translations, complete
    assert strings > 300  # every marked string of the bot, not a handful
    assert files > 10 and described == files
    assert per_turn == 1
    assert "from tests" not in SCRIPT.read_text() and "import tests" not in SCRIPT.read_text()
