"""Every request the bot makes in a SimCord test held to Discord's published API
(:mod:`bench.discord_api`): a request Discord would refuse fails the test that made it, naming
the method, the path, the operation and the field.

Every SimCord environment a test starts is followed (``Env.start``), whether the
``simcord_env`` fixture made it or the test itself; its requests are checked when the test's
body ends (a failure of that test) and once more after its teardown (any request made then)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord.env import Env

from bench.discord_api import check_all, discord_api, record_simcord_files, simcord_requests

record_simcord_files()

#: the environments started during the current test -> how many of their requests were checked
_STARTED: dict[int, list[Any]] = {}
_start = Env.start


async def _followed_start(self: Env, *args: Any, **kwargs: Any) -> Any:
    _STARTED[id(self)] = [self, 0]
    return await _start(self, *args, **kwargs)


Env.start = _followed_start  # type: ignore[method-assign]


def _violations() -> list[str]:
    found: list[str] = []
    for followed in _STARTED.values():
        env, checked = followed
        requests = simcord_requests(env, checked)
        followed[1] = checked + len(requests)
        violations, _ = check_all(discord_api(), requests)
        found += [str(v) for v in violations]
    return found


def _fail(found: list[str]) -> None:
    shown = "\n".join(dict.fromkeys(found))  # each distinct violation once
    pytest.fail(f"{len(found)} request(s) Discord would refuse:\n{shown}", pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    _STARTED.clear()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    result = yield
    found = _violations()
    if found:
        _fail(found)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    result = yield
    found = _violations()
    _STARTED.clear()
    if found:
        _fail(found)
    return result
