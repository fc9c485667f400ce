"""The compiled copies of ``games.compiled.COMPILED``: which copy runs, and that both give the same
games.

Every test of the playout (``tests/games/ohhell/test_game_playout.py``) runs through both copies
of :mod:`games.ohhell.fast_loops` (its ``loops`` fixture), so the source and the C copy are each
pinned to ``rng.choice`` at every decision. Here: a compiled copy runs only when it was built from
the source as it is now, a stale one gives way to the source with a warning, and ``setup.py``
compiles what the loader expects. Where nothing is compiled (no C compiler at install time) the
tests of the compiled copy skip with the reason; under ``CI`` they fail instead, since CI
installs with ``pip install -e .`` on a machine with a compiler.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import games.compiled
from games.compiled import COMPILED, compiled, is_current, load, source_module

ROOT = Path(__file__).resolve().parents[2]


def require_compiled(name: str) -> None:
    """Skip (fail under CI) unless ``name`` has a current compiled copy."""
    if os.environ.get("CARDTABLE_COMPILED") == "0":
        pytest.skip("CARDTABLE_COMPILED=0: the compiled copies are ruled out")
    if is_current(name):
        return
    reason = f"{name} has no compiled copy built from its source (pip install -e . with a C compiler builds it)"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.mark.parametrize("name", COMPILED)
def test_the_current_compiled_copy_is_the_one_loaded(name: str) -> None:
    require_compiled(name)
    module = load(name)
    assert compiled(module)
    assert not compiled(source_module(name))


def test_a_compiled_copy_of_another_source_gives_way_to_the_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "games.ohhell.fast_loops"
    require_compiled(name)
    real_source, built = games.compiled._paths(name)
    assert built is not None
    edited = tmp_path / "fast_loops.py"
    edited.write_text(real_source.read_text() + "\nEDITED = True\n")
    (tmp_path / "fast_loops.built").write_text((real_source.with_suffix(".built")).read_text())
    monkeypatch.setattr(games.compiled, "_paths", lambda _name: (edited, built))
    monkeypatch.delitem(sys.modules, name)
    assert not is_current(name)
    with pytest.warns(RuntimeWarning, match="was not built from fast_loops.py as it is now"):
        module = load(name)
    assert not compiled(module) and getattr(module, "EDITED", False)


def test_a_missing_stamp_means_not_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "fast_loops.py"
    source.write_text("X = 1\n")
    monkeypatch.setattr(games.compiled, "_paths", lambda _name: (source, tmp_path / "fast_loops.cpython-311.so"))
    assert not is_current("games.ohhell.fast_loops")
    (tmp_path / "fast_loops.built").write_text("0" * 64 + "\n")
    assert not is_current("games.ohhell.fast_loops")


def test_setup_compiles_what_the_loader_loads() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED" for t in node.targets)
    )
    assert [p.removesuffix(".py").replace("/", ".") for p in listed] == list(COMPILED)


def test_the_environment_can_rule_the_compiled_copies_out() -> None:
    require_compiled("games.ohhell.fast_loops")
    probe = (
        "import games.ohhell.fast as f, games.common.rng as r; from games.compiled import compiled, in_use; "
        "print(compiled(f.fast_loops), r._FISHER_YATES is None, in_use())"
    )
    env = {**os.environ, "CARDTABLE_COMPILED": "0"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "source"]
    env.pop("CARDTABLE_COMPILED")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "compiled"]
