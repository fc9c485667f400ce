"""Test-wide settings: hypothesis profiles (CI runs derandomized, without deadlines)."""

import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from simcord.env import Env

from bot import fairness

settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Every timer of a test bot (turn clock, retries, the display's pauses, watchers, leases) runs on
# SimCord's virtual clock (tests.helpers.virtual_timers): it ends only when a test moves the clock.
# SimCord's settle limit then bounds only real work (the database's thread, a computer thinking in
# a worker process), so it is long: a loaded machine makes a test slower, never makes it fail.
Env.__init__.__kwdefaults__["settle_timeout"] = 30.0


@pytest.fixture(autouse=True)
def _seeded_deals(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every game a test starts deals from a generator seeded by the test's name (its seeds and
    salts, see ``bot.fairness.ENTROPY``): a test deals the same cards on every run and machine, so
    a rare deal (a tie settled by a play-off) fails every time or never, not now and then."""
    saved = fairness.ENTROPY
    fairness.ENTROPY = random.Random(request.node.nodeid)
    yield
    fairness.ENTROPY = saved
