"""Loaded first (``-p tests.keep_bytecode`` in the pytest options), before the plugins that come
with packages (SimCord, Hypothesis, xdist, pytest-asyncio): the test process keeps its bytecode,
and pytest's rewritten modules, under a folder of the temporary directory where
``PYTHONDONTWRITEBYTECODE`` says to write none (as on the shared test machine).

Why: every test process (the run itself, each xdist worker, each pytest a test starts) imported
those plugins' 160 modules and every test module through pytest's assertion rewriting (parse,
rewrite, compile) from their sources again, writing nothing: 13 s of CPU a worker for the
collection alone, 4 s once kept. Nothing is written beside the sources, as with Python's own
cache prefix; pytest checks each kept module against its source's hash, so a changed test is
rewritten again. The programs the tests start (``python -m bot``...) get the same folder
through the environment (tests/conftest.py)."""

from __future__ import annotations

import os
import sys
import tempfile

#: the folder, one a user, shared by the runs and by the programs the tests start
BYTECODE = os.path.join(tempfile.gettempdir(), f"cardtable-test-bytecode-{os.getuid()}")


def keep_bytecode() -> None:
    """Write bytecode under :data:`BYTECODE` where nothing would be written (idempotent)."""
    if sys.dont_write_bytecode and not sys.pycache_prefix:
        sys.pycache_prefix = BYTECODE
        sys.dont_write_bytecode = False


keep_bytecode()
