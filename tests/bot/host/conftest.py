"""The SimCord fixtures of the feature tests (tests/cogs/conftest.py) for these runtime tests too, and
the headless Chromium the browser tests of the local mode share."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from tests.cogs.conftest import _small_searches, db_path, simcord_bot  # noqa: F401


class SharedChromium:
    """One headless Chromium for every browser test of a test process (a worker): started by the
    first test that asks, stopped when the process ends, started again if it went away. A start
    and stop cost 1.3 s of CPU, and with one per test file each of the suite's workers started
    one for every file it took a test of. Each test opens its pages in fresh contexts of their own
    (:func:`bench.browser.browser_page`), so no test sees another's storage or cookies.

    Between the browser tests, async tests (pytest-asyncio) run in the same process. Playwright's
    sync API leaves its own event loop marked as this thread's running loop between its calls (its
    dispatcher waits inside that loop), and an async test then fails with "Cannot run the event
    loop while another loop is running". So the mark is taken off when a browser test ends, and
    put back before the next one uses the browser again."""

    def __init__(self) -> None:
        self._stack = ExitStack()
        self._browser: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def lend(self) -> Any:
        if self._browser is not None:
            asyncio._set_running_loop(self._loop)
            if self._browser.is_connected():
                return self._browser
            self.close()
        from bench.browser import launch_chromium

        self._browser = self._stack.enter_context(launch_chromium())
        self._loop = asyncio._get_running_loop()
        return self._browser

    def put_back(self) -> None:
        asyncio._set_running_loop(None)

    def close(self) -> None:
        if self._browser is None:
            return
        self._browser = None
        asyncio._set_running_loop(self._loop)
        try:
            self._stack.close()
        finally:
            asyncio._set_running_loop(None)


@pytest.fixture(scope="session")
def _shared_chromium() -> Iterator[SharedChromium]:
    shared = SharedChromium()
    yield shared
    shared.close()


@pytest.fixture
def chromium(_shared_chromium: SharedChromium) -> Iterator[Any]:
    """Headless Debian Chromium for this test (the process's :class:`SharedChromium`)."""
    browser = _shared_chromium.lend()
    try:
        yield browser
    finally:
        _shared_chromium.put_back()
