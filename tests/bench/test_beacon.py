"""bench/beacon.py --quick, run as a user runs it (its own process, from the repository root):
its last line is the one its docstring names, the bound and labelled games add up, no game was
dealt from another round. (Its speed figures are read from the full run, not asserted here.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAST = re.compile(r"games=(\d+) bound=(\d+) labelled=(\d+) substituted=(\d+) wait p95 s=(\d+\.\d+) check ms=(\d+\.\d+)")


def test_the_quick_run_prints_its_documented_last_line() -> None:
    done = subprocess.run(
        [sys.executable, "bench/beacon.py", "--quick"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    match = LAST.fullmatch(last)
    assert match is not None, last
    games, bound, labelled, substituted = (int(match.group(i)) for i in range(1, 5))
    assert games == 200 and bound + labelled == games and substituted == 0 and labelled > 0
    doc = (ROOT / "bench" / "beacon.py").read_text(encoding="utf-8")
    assert "``games=N bound=B labelled=L substituted=0 wait p95 s=W check ms=C``" in doc
