"""Which copy of a compiled module runs: the C one, when it was built from the source beside it,
else the source itself.

Why: a few inner loops (``COMPILED``) are compiled by mypyc when the project is installed on a
machine with a C compiler (``setup.py``), and Python's import prefers such an extension to the
``.py`` beside it. A compiled copy left over from an older source (the source edited, or another
commit checked out, without ``pip install -e .`` again) would then run in place of the code you
read. The build writes the SHA-256 of the source it compiled beside it (``<module>.built``);
:func:`load` takes the compiled copy only when that stamp matches the source as it is now, and
otherwise runs the source (with a warning when a stale copy is there). Both copies give the same
results (``tests/games/test_compiled.py``); the compiled one is faster. ``CARDTABLE_COMPILED=0``
in the environment runs the sources whatever is built (to compare the two, or to rule the
compiled copies out when looking for a fault).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import warnings
from importlib.machinery import PathFinder, SourceFileLoader
from pathlib import Path
from types import ModuleType

#: the modules compiled where a C compiler is at hand (setup.py's COMPILED names their files)
COMPILED = ("games.common.shuffle_loops", "games.ohhell.fast_loops", "games.ohhell.ai.sim")


def _paths(name: str) -> tuple[Path, Path | None]:
    """(the module's source, its compiled copy or None), as found on disk (whatever copy
    ``sys.modules`` holds)."""
    package, _, _ = name.rpartition(".")
    spec = PathFinder.find_spec(name, importlib.import_module(package).__path__)
    if spec is None or spec.origin is None:
        raise ImportError(f"no module {name}")
    origin = Path(spec.origin)
    if origin.suffix == ".py":
        return origin, None
    return origin.with_name(name.rpartition(".")[2] + ".py"), origin


def is_current(name: str) -> bool:
    """Whether ``name`` has a compiled copy built from its source as it is now."""
    source, built = _paths(name)
    if built is None:
        return False
    stamp = source.with_suffix(".built")
    try:
        recorded = stamp.read_text().strip()
    except OSError:
        return False
    return recorded == hashlib.sha256(source.read_bytes()).hexdigest()


def source_module(name: str) -> ModuleType:
    """``name`` run from its ``.py`` source under its own name, whatever is compiled beside it."""
    source, _ = _paths(name)
    loader = SourceFileLoader(name, str(source))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def load(name: str) -> ModuleType:
    """The module ``name``: its compiled copy when current (see the module's text), else its source."""
    if name in sys.modules:
        return sys.modules[name]
    source, built = _paths(name)  # imports the package, whose own start may have loaded it
    if name in sys.modules:
        return sys.modules[name]
    if built is None:
        return importlib.import_module(name)
    if os.environ.get("CARDTABLE_COMPILED") == "0":
        return _from_source(name)
    if is_current(name):
        try:
            return importlib.import_module(name)
        except ImportError as error:  # e.g. its shared part failed to build
            why = f"{built.name} does not load ({error})"
    else:
        why = f"{built.name} was not built from {source.name} as it is now"
    warnings.warn(f"{why}: running the source (pip install -e . compiles it again)", RuntimeWarning, stacklevel=2)
    return _from_source(name)


def _from_source(name: str) -> ModuleType:
    module = source_module(name)
    sys.modules[name] = module
    return module


def compiled(module: ModuleType) -> bool:
    """Whether ``module`` is a compiled copy (its file is not a ``.py``)."""
    return not str(getattr(module, "__file__", "")).endswith(".py")


def in_use() -> str:
    """Which copies run, in words (the benchmarks print it): "compiled", "source" or a mix."""
    kinds = {name: "compiled" if compiled(load(name)) else "source" for name in COMPILED}
    if len(set(kinds.values())) == 1:
        return next(iter(kinds.values()))
    return ", ".join(f"{name} {kind}" for name, kind in kinds.items())
