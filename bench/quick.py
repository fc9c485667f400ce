"""What the benches' ``--quick`` runs share (tests/bench/test_quick.py runs every bench so).

A bench that needs something this machine may lack (OpenSpiel, Chromium) says so in one line,
its last, ``skipped: REASON``, with exit status 0, rather than failing with a traceback; the suite
reports the skip with that reason. The computers' searches at the sizes the SimCord tests use
(:data:`SMALL_OHHELL_SEARCH`, :data:`SMALL_SHITHEAD_SEARCH`): a quick run checks that the bench
runs, not how well the computers play.
"""

from __future__ import annotations

import importlib

PREFIX = "skipped: "

#: the strong computers' searches in the SimCord tests and the benches' quick runs: the sizes the
#: search's own tests use (tests/games/shithead/test_search.py's SMALL, and for Oh Hell
#: tests/games/ohhell/ai/helpers.py's FAST with a bid budget of the same scale)
SMALL_SHITHEAD_SEARCH = {"screen_worlds": 2, "duel_worlds": 6}
SMALL_OHHELL_SEARCH = {"budget": 1500, "bid_budget": 3000, "min_worlds": 4, "max_worlds": 12, "exact_worlds": 6}
#: the coach (each game's ``AnalysisConfig``) of the coach's SimCord tests and the benches' quick
#: runs: a few playouts a decision, enough to write every part of the analysis page
LIGHT_COACH = {
    "ohhell": {"rollouts": 2, "luck_rollouts": 2, "bid_budget": 500, "card_budget": 200},
    "shithead": {"rollouts": 2, "luck_rollouts": 4},
}


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


def small_ohhell_search() -> None:
    """The Oh Hell strong level searches :data:`SMALL_OHHELL_SEARCH` from here on, in this process."""
    import dataclasses

    from games.ohhell.ai import players

    players.DEFAULT_STRONG = dataclasses.replace(players.DEFAULT_STRONG, **SMALL_OHHELL_SEARCH)
