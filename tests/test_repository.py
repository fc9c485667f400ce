"""The tree a newcomer clones: small, its benchmark figures traceable to the runs behind them.

Why: raw benchmark logs (one JSON line a play, half a megabyte a run) once made up most of a
fresh clone. The figures stand on their summaries (each says its command, seed and date, and the
commit that holds the raw log), so the tree keeps those and git history keeps the logs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "bench" / "logs"
#: assets, the files that may be large: images (the README's screenshots)
ASSET_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"}
MAX_FILE_BYTES = 1_000_000
#: what the tracked files other than assets may weigh together; about 3.4 MB today, 17 MB when
#: the raw logs were tracked
MAX_TEXT_TREE_BYTES = 6_000_000


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (git ls-files is what a clone holds)")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name and (ROOT / name).is_file()]


def test_no_tracked_file_over_a_megabyte_is_anything_but_an_asset() -> None:
    big = [
        f"{p.relative_to(ROOT)} ({p.stat().st_size:,} bytes)"
        for p in tracked_files()
        if p.stat().st_size > MAX_FILE_BYTES and p.suffix.lower() not in ASSET_SUFFIXES
    ]
    assert big == []


def test_a_fresh_clone_is_small_its_text_under_six_megabytes() -> None:
    total = sum(p.stat().st_size for p in tracked_files() if p.suffix.lower() not in ASSET_SUFFIXES)
    assert total <= MAX_TEXT_TREE_BYTES, f"{total:,} bytes of tracked text"


def test_no_raw_benchmark_log_is_tracked() -> None:
    raw = [str(p.relative_to(ROOT)) for p in tracked_files() if p.parent == LOGS and p.suffix == ".jsonl"]
    assert raw == [], "commit the log's summary (bench/logs/README.md), not the log"


def _named_logs(text: str) -> set[str]:
    """The raw logs a text names as ``bench/logs/NAME.jsonl``, brace forms (``NAME{,-a,-b}.jsonl``)
    expanded as a shell would."""
    names: set[str] = set()
    for stem, braces in re.findall(r"bench/logs/([\w.-]+?)(?:\{([^}]*)\})?\.jsonl", text):
        for tail in braces.split(",") if braces else [""]:
            names.add(stem + tail)
    return names


def _documents() -> list[Path]:
    here = Path(__file__).resolve()
    return [p for p in tracked_files() if p.suffix in {".md", ".py", ".txt"} and p.parent != LOGS and p != here]


def test_every_log_the_docs_and_code_name_has_its_summary_in_the_tree() -> None:
    named = set().union(*(_named_logs(p.read_text(encoding="utf-8")) for p in _documents()))
    assert len(named) > 20  # docs/measurements.md alone names most of the runs
    missing = sorted(n for n in named if not n.isupper() and not (LOGS / f"{n}.md").is_file())  # NAME: a placeholder
    assert missing == []


def test_the_brace_forms_of_a_named_log_are_read_as_the_shell_reads_them() -> None:
    text = "`python bench/bid_model.py bench/logs/duplicate-seed7{,-budget18,-oppw05}.jsonl` and bench/logs/x-1.jsonl"
    assert _named_logs(text) == {"duplicate-seed7", "duplicate-seed7-budget18", "duplicate-seed7-oppw05", "x-1"}


def test_every_summary_says_its_command_seed_and_date() -> None:
    summaries = [p for p in LOGS.iterdir() if p.suffix in {".md", ".txt"} and p.name != "README.md"]
    assert summaries
    for summary in summaries:
        text = summary.read_text(encoding="utf-8")
        for field in ("command:", "seed:", "date:"):
            assert re.search(rf"^(# )?{field} \S", text, re.M), f"{summary.name} lacks {field}"
    for summary in LOGS.glob("*.md"):
        if summary.name == "README.md":
            continue
        text = summary.read_text(encoding="utf-8")
        assert f"--log bench/logs/{summary.stem}.jsonl" in text
        assert re.search(rf"^restore: git show [0-9a-f]{{7,}}:bench/logs/{re.escape(summary.stem)}\.jsonl ", text, re.M)
        assert re.search(r"^diff=[+-]\d", text, re.M), f"{summary.name} lacks the figures' last line"


#: a comment or docstring that names the ticket or the working session it came from ("issue" or
#: "stop" and a number) tells a reader where it came from, not why it is so
WHICH_TICKET = re.compile(r"\b(?:issue|stop) \d+", re.IGNORECASE)


def test_comments_and_docstrings_say_why_not_which_ticket() -> None:
    found = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for p in tracked_files()
        if p.suffix == ".py"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if WHICH_TICKET.search(line)
    ]
    assert found == []
