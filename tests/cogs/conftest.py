"""SimCord fixtures: the real bot on a fresh SQLite file, closed after each test."""

from __future__ import annotations

import pytest
from simcord.env import Env

from tests.helpers import close_made_bots, make_bot

# SimCord polls every 50 ms while a callback from aiosqlite's thread is outstanding, which made
# each submitted form cost 50 ms of wall time; polling every 5 ms changes nothing but the wait.
Env._settle_internal.__kwdefaults__["idle"] = 0.005


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "cards.sqlite3")


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path)
    yield bot
    # SimCord never closes a bot; this closes it and any a restart put in its place.
    await close_made_bots()
