"""Test-wide settings: hypothesis profiles (CI runs derandomized, without deadlines), the settle
limit, and compiled modules kept in memory."""

import copy
import enum
import gc
import importlib.machinery
import logging
import marshal
import os
import random
import tempfile
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from simcord.env import Env

from bench.simdriver import settle_promptly
from bot.fairness import shuffles as fairness
from tests import feature_modules
from tests.command_payload import translate_commands_once
from tests.feature_modules import load_features_once
from tests.keep_bytecode import BYTECODE, keep_bytecode

# Every request the bot makes in a SimCord test is held to Discord's published API.
pytest_plugins = ["tests.discord_conformance"]

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Every timer of a test bot (turn clock, retries, the display's pauses, watchers, leases) runs on
# SimCord's virtual clock (tests.helpers.virtual_timers): it ends only when a test moves the clock.
# SimCord's settle limit then bounds only real work (the database's thread, a computer thinking in
# a worker process), so it is long: a loaded machine makes a test slower, never makes it fail.
Env.__init__.__kwdefaults__["settle_timeout"] = 30.0
settle_promptly()


def _marshal_deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """``copy.deepcopy`` for SimCord's payloads, by ``marshal``. SimCord copies every REST body,
    gateway event and message it hands out, and ``deepcopy`` walking those dicts in Python was a
    tenth of a whole game's time through SimCord. ``marshal`` copies the built-in types JSON
    payloads are made of (dict, list, tuple, str, int, float, bool, None, bytes) in C, each to the
    exact same type, and refuses anything else, a subclass included. An interaction's payload
    holds SimCord's own enums (its ``type``, a channel's): its dicts, lists and tuples are copied
    here, each part again by ``marshal``, and an enum member is kept as itself (as ``deepcopy``
    keeps it); anything else goes to ``deepcopy`` as before (that fallback had deep-copied every
    interaction whole: 5 % of a SimCord test's time). Only SimCord's names are replaced, never the
    ``copy`` module the bot itself reads."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        pass
    kind = type(value)
    if kind is dict:
        return {key: _marshal_deepcopy(item, memo) for key, item in value.items()}
    if kind is list:
        return [_marshal_deepcopy(item, memo) for item in value]
    if kind is tuple:
        return tuple(_marshal_deepcopy(item, memo) for item in value)
    if isinstance(value, enum.Enum):
        return value
    return copy.deepcopy(value, memo)


def _simcord_copies_by_marshal() -> None:
    import simcord.backend.serializers
    import simcord.components
    import simcord.gateway
    import simcord.http.router
    import simcord.results

    by_marshal = SimpleNamespace(deepcopy=_marshal_deepcopy)
    for module in (simcord.http.router, simcord.gateway):  # these call ``copy.deepcopy``
        assert module.copy is copy, module
        module.copy = by_marshal  # type: ignore[attr-defined]
    for module in (simcord.results, simcord.components, simcord.backend.serializers):  # ``from copy import deepcopy``
        assert module.deepcopy is copy.deepcopy, module
        module.deepcopy = _marshal_deepcopy  # type: ignore[attr-defined]


_simcord_copies_by_marshal()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` starts one worker more than the cores this process may use. Why: the browser
    tests and the tests that start the program as a process of its own wait on that process for
    part of their time (a browser test file used 81 % of a core), so a third worker on two cores
    fills those waits. The whole suite on a 2-core machine, in runs alternating two and three
    workers: 284 and 272 s with two, 260 and 227 s with three (one earlier pair: 253 s and 234 s)."""
    return len(os.sched_getaffinity(0)) + 1


# Each test bot loads the game extensions afresh (discord.py executes an extension's modules again
# for every bot, and drops them from sys.modules when the bot closes), about forty modules a bot.
# Where no bytecode is written (PYTHONDONTWRITEBYTECODE, as on the shared test machine) every one
# of them was compiled from its source again, a third of each test's setup. The compiled code is
# kept here by path and source instead, as a .pyc file would keep it. (They are executed once a
# process, as the real bot executes them: tests/feature_modules.py.)
_compiled: dict[tuple[str, bytes], Any] = {}
_source_to_code = importlib.machinery.SourceFileLoader.source_to_code


def _cached_source_to_code(self: Any, data: Any, path: Any, *, _optimize: int = -1) -> Any:
    key = (str(path), bytes(data))
    if _optimize != -1:
        return _source_to_code(self, data, path, _optimize=_optimize)
    code = _compiled.get(key)
    if code is None:
        code = _compiled[key] = _source_to_code(self, data, path)
    return code


importlib.machinery.SourceFileLoader.source_to_code = _cached_source_to_code  # type: ignore[method-assign]
load_features_once()
# The slash commands' translated payload, made once a process for each set of commands and
# catalogue rather than at every test bot's sync (tests/command_payload.py says why and how).
translate_commands_once()

# The programs the tests start as users do (``python -m bot.host.local``, ``python -m bot`` for the
# tools and the signals, pytest itself) compiled the project again on each start where no bytecode
# is written: 0.3 s of each start's 0.8 s of imports. They (and the test workers) keep it under a
# folder of the temporary directory instead, never beside the sources, as Python does with a
# cache prefix; a changed source is compiled again, as always.
# The test process itself does the same (tests/keep_bytecode.py, loaded before any plugin; here
# again for a run without the project's options).
keep_bytecode()
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = BYTECODE

# The card pictures that are the same on every start (draw.stored: the emojis the local mode gives
# its page, the card faces) are kept between the tests' starts of the program, and between runs,
# in a folder of the temporary directory: never in the user's own ~/.cache.
os.environ.setdefault("CARDTABLE_CACHE", os.path.join(tempfile.gettempdir(), f"cardtable-test-pictures-{os.getuid()}"))


def _freeze_what_lives() -> None:
    """Move every object alive now out of the garbage collector's sight (:func:`gc.freeze`), after
    collecting what is garbage already. Why: a full collection walks every tracked object of the
    process, and a test process holds some 125,000 that live until it ends (the modules of the
    project, of discord.py and SimCord, the tests and their parameters, kept bytecode); with every
    test allocating thousands more, one full collection ran every twenty SimCord tests and cost
    about 80 ms, 4 ms a test. Frozen objects are still freed when nothing refers to them; only a
    cycle among them is never collected, and these live to the end anyway."""
    gc.collect()
    gc.freeze()


def pytest_collection_finish(session: pytest.Session) -> None:
    """The test modules and everything they import, frozen once collected (:func:`_freeze_what_lives`)."""
    _freeze_what_lives()


_features_frozen = False


@pytest.hookimpl(trylast=True)
def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    """The feature modules, frozen after the first test that loaded them (``tests/feature_modules.py``:
    they stay loaded to the end), once that test's bot is closed and collected."""
    global _features_frozen
    if not _features_frozen and feature_modules.loaded():
        _features_frozen = True
        _freeze_what_lives()


@pytest.fixture(autouse=True)
def _seeded_deals(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every game a test starts deals from a generator seeded by the test's name (its seeds and
    salts, see ``bot.fairness.shuffles.ENTROPY``): a test deals the same cards on every run and machine, so
    a rare deal (a tie settled by a play-off) fails every time or never, not now and then."""
    saved = fairness.ENTROPY
    fairness.ENTROPY = random.Random(request.node.nodeid)
    yield
    fairness.ENTROPY = saved


@pytest.fixture(autouse=True)
def _logging_left_as_found() -> Iterator[None]:
    """A test that starts the bot's entry point configures the process's logging: a handler on
    ``sys.stderr`` as pytest was capturing it, a stream closed once the test ends. Left on the root
    logger, every later test of that worker that logs printed "Logging error ... I/O operation on
    closed file" with a traceback (a test that reads stderr for tracebacks then failed, in some
    orders only). Each test leaves the root logger's handlers and levels as it found them
    (pytest's own capture handlers are pytest's to remove)."""
    from bot.host import logs

    root, chatty = logging.getLogger(), logging.getLogger("discord")
    found, levels, installed = list(root.handlers), (root.level, chatty.level), logs._installed
    yield
    for handler in list(root.handlers):
        if handler not in found and type(handler).__module__ != "_pytest.logging":
            root.removeHandler(handler)
    root.setLevel(levels[0])
    chatty.setLevel(levels[1])
    logs._installed = installed
