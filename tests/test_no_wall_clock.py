"""No test waits on the wall clock: the suite must run in its time on two busy cores, and a test
that sleeps to let something happen is both slow and, on a loaded machine, flaky.

A wait is for an event (a task ending, an ``asyncio.Event``, a ``threading.Event`` in a thread,
a queue drained), on SimCord's virtual clock (``env.advance_time``), or on an injected sleep.
This test reads every test module's syntax tree and fails on ``time.sleep`` in any form and on an
``asyncio.sleep`` of anything but 0 (a yield to the loop), outside the few places listed here with
the reason they do not wait on the wall clock.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: (file relative to tests/, function) -> why its sleep is not a wait on the wall clock. None today:
#: the bot's timers in SimCord tests sleep through ``bench/simdriver.virtual_sleep`` (outside
#: tests/, shared with the benches), which SimCord counts as a wait on its virtual clock.
ALLOWED: dict[tuple[str, str], str] = {}


def _function_at(tree: ast.AST, node: ast.AST) -> str:
    """The name of the innermost function holding ``node`` ('' at module level)."""
    found = ""
    for candidate in ast.walk(tree):
        if isinstance(candidate, ast.FunctionDef | ast.AsyncFunctionDef):
            end = candidate.end_lineno or candidate.lineno
            if candidate.lineno <= node.lineno <= end:  # type: ignore[attr-defined]
                found = candidate.name  # ast.walk is breadth-first: the last hit is the innermost
    return found


def wall_clock_waits(source: str) -> list[tuple[int, str]]:
    """(line, function) of each wall-clock wait in a module's source."""
    tree = ast.parse(source)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in {"time", "asyncio"}:
            if any(alias.name == "sleep" for alias in node.names):
                hits.append(node)
        elif isinstance(node, ast.Attribute) and node.attr == "sleep" and isinstance(node.value, ast.Name):
            if node.value.id == "time":
                hits.append(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "sleep":
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "asyncio":
                first = node.args[0] if node.args else None
                if not (isinstance(first, ast.Constant) and first.value == 0):
                    hits.append(node)
    return sorted((node.lineno, _function_at(tree, node)) for node in hits)


def test_no_test_sleeps_on_the_wall_clock() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        for line, function in wall_clock_waits(path.read_text(encoding="utf-8")):
            if (name, function) not in ALLOWED:
                found.append(f"tests/{name}:{line} in {function or 'the module'}")
    assert found == [], "wait for an event or the virtual clock instead"


def test_the_allowed_sleeps_are_still_there() -> None:
    """An allowance that no longer matches anything is removed, so the list stays the truth."""
    for name, function in ALLOWED:
        waits = wall_clock_waits((TESTS / name).read_text(encoding="utf-8"))
        assert any(f == function for _, f in waits), (name, function)


def test_each_form_of_a_wall_clock_wait_is_seen() -> None:
    source = """
import asyncio, time
from time import sleep

def a():
    time.sleep(0.5)

async def b():
    await asyncio.to_thread(time.sleep, 0.05)
    await asyncio.sleep(0.3)
    await asyncio.sleep(0)

async def c(env):
    await env.advance_time(60)
"""
    assert wall_clock_waits(source) == [(3, ""), (6, "a"), (9, "b"), (10, "b")]
