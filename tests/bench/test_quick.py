"""Every bench runs here, ``--quick``, so that none rots between the times someone runs it by hand.

A bench is every ``bench/*.py`` that is a script (``if __name__ == "__main__":``); the modules the
benches share (``bench/openspiel_ohhell.py``...) are not run. Each one is run as a person runs it,
``python bench/NAME.py --quick`` from the checkout, in a fresh process, and must:

- take ``--quick`` (seconds; the same code as its full run, with less of it) and say so in its
  docstring;
- name its last line in its docstring (``The last line is ``...````, ``Its last line is``,
  ``Last line:``), where every ``=VALUE`` stands for a figure, and print a last line of that form;
- import nothing from ``tests/`` (a bench runs where the tests' helpers and fixtures are absent).

A bench that needs something this machine lacks (OpenSpiel, Chromium, a PostgreSQL server it
cannot do without) prints ``skipped: REASON`` as its last line and exits 0; the test is then
skipped with that reason.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.quick import PREFIX

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
SKIPPED = PREFIX
#: how a docstring names its last line: the words before it, then ``the line``
LAST_LINE = re.compile(r"(?:[Tt]he\s+last\s+line\s+is|[Ii]ts\s+last\s+line\s+is|Last\s+line:)\s*``(.+?)``", re.S)
#: a figure in the line's text: ``=VALUE`` (any run of non-spaces), or a lone capital (``(T tables)``)
FIGURE = re.compile(r"=\S+|(?<![A-Za-z0-9])[A-Z](?![A-Za-z0-9])")
#: seconds a --quick run may take before it counts as stuck: a guard against a hang, not a speed
#: check (its goal is a few seconds; a browser bench took over 120 s on two cores shared by many
#: processes, which is load, not a hang)
TIMEOUT = 600


def is_script(path: Path) -> bool:
    """A bench to run: the file has an ``if __name__ == "__main__":`` block."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            names = [n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)]
            constants = [n.value for n in ast.walk(node.test) if isinstance(n, ast.Constant)]
            if "__name__" in names and "__main__" in constants:
                return True
    return False


BENCHES = sorted(p.name for p in BENCH.glob("*.py") if is_script(p))
#: benches whose --quick run a test of their own already makes, checking its last line and more
#: (running them twice would cost the suite about 40 s of CPU for nothing): here only their
#: docstring is read, and that test must exist and run ``--quick``
RUN_ELSEWHERE = {
    "conformance.py": "test_conformance.py",
    "reach.py": "test_reach.py",
    "beacon.py": "test_beacon.py",
}


def last_line_pattern(doc: str) -> re.Pattern[str]:
    """The regular expression of the last line a docstring names: its text as written (spaces
    of any width, the docstring wraps lines), each figure (:data:`FIGURE`) any run of non-spaces."""
    found = LAST_LINE.search(doc)
    assert found, "the docstring does not name its last line (The last line is ``...``)"
    words = " ".join(found.group(1).split())
    body, at = "", 0
    for figure in FIGURE.finditer(words):
        body += re.escape(words[at : figure.start()]).replace(r"\ ", r"\s+")
        body += r"=\S+" if figure.group().startswith("=") else r"\S+"
        at = figure.end()
    body += re.escape(words[at:]).replace(r"\ ", r"\s+")
    return re.compile(body)


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_the_benches_are_found() -> None:
    assert {"engine.py", "ops.py", "shithead.py", "views.py"} <= set(BENCHES)
    assert "openspiel_ohhell.py" not in BENCHES  # a module the benches share


def test_the_pattern_matches_only_its_form() -> None:
    pattern = last_line_pattern('"""x. The last line is\n    ``engine hands/s=N openspiel\n    hands/s=M ratio=R``."""')
    assert pattern.fullmatch("engine hands/s=123 openspiel hands/s=4.5 ratio=2.1")
    assert not pattern.fullmatch("engine hands/s=123 ratio=2.1")
    assert not pattern.fullmatch("shithead games/s=1.0 ai loser rate=0.1")
    tables = last_line_pattern("Its last line is ``click p99 ms (T tables)=C ratio=B/A``")
    assert tables.fullmatch("click p99 ms (10 tables)=3.5 ratio=0.5")
    assert not tables.fullmatch("click p99 ms (10 tables)=3.5")


@pytest.mark.parametrize("name", BENCHES)
def test_no_bench_imports_the_tests(name: str) -> None:
    wrong = sorted(m for m in imports_of(BENCH / name) if m == "tests" or m.startswith("tests."))
    assert not wrong, f"bench/{name} imports {wrong}: move what it shares with the tests out of tests/"


@pytest.mark.parametrize("name", BENCHES)
def test_bench_runs_quick_to_its_promised_last_line(name: str) -> None:
    path = BENCH / name
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "--quick" in doc, f"bench/{name}'s docstring does not say what --quick does"
    pattern = last_line_pattern(doc)
    if name in RUN_ELSEWHERE:
        own = (Path(__file__).parent / RUN_ELSEWHERE[name]).read_text(encoding="utf-8")
        assert name in own and '"--quick"' in own, f"tests/bench/{RUN_ELSEWHERE[name]} no longer runs {name} --quick"
        return
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run(
        [sys.executable, str(path), "--quick"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    said = f"exit status {run.returncode}; its output ends:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}"
    assert run.returncode == 0, f"bench/{name} --quick failed: {said}"
    # A bench whose bot logged an error still printed its figures, of a run that went wrong (the
    # scale bench's tables once failed to show at every click, and its clicks measured less)
    assert "Traceback (most recent call last)" not in run.stdout + run.stderr, f"bench/{name} logged an error: {said}"
    assert lines, f"bench/{name} --quick printed nothing: {said}"
    last = lines[-1].strip()
    if last.startswith(SKIPPED):
        pytest.skip(f"bench/{name} --quick: {last}")
    assert pattern.fullmatch(last), f"bench/{name}'s last line {last!r} is not the docstring's {pattern.pattern!r}"
