"""SimCord fixtures: the real bot on a fresh SQLite file, closed after each test."""

from __future__ import annotations

import pytest

from tests.helpers import close_made_bots, make_bot


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "cards.sqlite3")


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path)
    yield bot
    # SimCord never closes a bot; this closes it and any a restart put in its place.
    await close_made_bots()
