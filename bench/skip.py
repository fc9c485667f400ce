"""How a bench says it cannot run here: its last line ``skipped: REASON``, exit status 0.

A bench that needs something this machine may lack (OpenSpiel, Chromium) says so in one line
rather than failing with a traceback, and the suite's run of every bench (``--quick``,
tests/bench/test_quick.py) reports the skip with that reason.
"""

from __future__ import annotations

import importlib

PREFIX = "skipped: "


def skip(reason: str) -> None:
    """Print the skip line and end the bench (exit status 0)."""
    print(f"{PREFIX}{reason}", flush=True)
    raise SystemExit(0)


def require(module: str, install: str) -> None:
    """Skip unless ``module`` imports; ``install`` says how to get it."""
    try:
        importlib.import_module(module)
    except ImportError as error:
        skip(f"{module} is not installed ({install}): {error}")


def require_openspiel() -> None:
    require("pyspiel", "pip install open_spiel, in the test and bench extras")
