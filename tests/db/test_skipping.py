"""Where no PostgreSQL server answers, its store tests skip with the reason printed, and under CI
(``CI`` set, as ``.ci/run`` runs) they fail instead, so a green CI has run them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ONE_TEST = "tests/db/test_store.py::test_one_live_game_per_channel"


def run_without_server(ci: bool) -> subprocess.CompletedProcess[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["TEST_DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:{port}/test"
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", ONE_TEST, "-o", "addopts=", "-rs", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_a_server_the_postgres_cases_skip_and_say_why() -> None:
    run = run_without_server(ci=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 1 skipped" in run.stdout
    assert "SKIPPED" in run.stdout and "PostgreSQL not reachable at postgresql://postgres@127.0.0.1:" in run.stdout


def test_under_ci_they_fail_instead() -> None:
    run = run_without_server(ci=True)
    assert run.returncode != 0
    assert "1 passed, 1 error" in run.stdout
    assert "CI must run the PostgreSQL store tests" in run.stdout
