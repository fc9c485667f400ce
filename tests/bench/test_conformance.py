"""bench/conformance.py --quick runs in the suite: a 7-seat Oh Hell deal with 32-character names,
a Shithead game and every slash command, each request held to Discord's published API; its last
line is the one its docstring names, and it imports nothing from the tests."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "conformance.py"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
LAST_LINE = re.compile(r"requests=(\d+) operations=(\d+) violations=(\d+)")


def test_the_bench_and_its_checker_import_nothing_from_the_tests() -> None:
    for path in (SCRIPT, ROOT / "bench" / "discord_api.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names] + [
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        ]
        assert not [name for name in imported if name.split(".")[0] == "tests"], (path, imported)


def test_the_quick_run_checks_every_request_and_prints_the_documented_last_line() -> None:
    assert "requests=N operations=K violations=V" in (SCRIPT.read_text(encoding="utf-8").split('"""')[1])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    lines = run.stdout.strip().splitlines()
    found = LAST_LINE.fullmatch(lines[-1])
    assert found, lines[-5:]
    requests, operations, violations = map(int, found.groups())
    # a whole deal at seven seats, a whole Shithead game and every command: hundreds of requests of
    # the command sync, messages, edits, callbacks, follow-ups and webhook edits
    assert requests > 500 and operations >= 8, lines[-1]
    checked = next(line for line in lines if line.startswith("operations: ")).split(": ", 1)[1].split(", ")
    assert len(checked) == operations
    for operation in (
        "bulk_set_application_commands",
        "create_message",
        "update_message",
        "create_interaction_response",
    ):
        assert operation in checked, checked
    assert {"update_original_webhook_message", "execute_webhook"} <= set(checked), checked
    printed = [line for line in lines[:-1] if " (" in line and ": " in line and line.split()[0] in METHODS]
    assert violations == 0 and printed == [], "\n".join(printed)
