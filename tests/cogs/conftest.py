"""SimCord fixtures: the real bot on a fresh SQLite file (a copy of one the store migrated once per
process: tests.helpers.start_migrated), closed after each test."""

from __future__ import annotations

import pytest

from tests.helpers import close_made_bots, make_bot, small_searches, start_migrated


@pytest.fixture(autouse=True)
def _small_searches(monkeypatch) -> None:
    """The tables' strong computers search a few worlds a decision (tests.helpers.small_searches);
    a test of the search at the bot's own size overrides this fixture with one that does nothing."""
    small_searches(monkeypatch)


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "cards.sqlite3")


@pytest.fixture
async def simcord_bot(db_path, tmp_path_factory):
    await start_migrated(db_path, tmp_path_factory)
    bot = make_bot(db_path)
    yield bot
    # SimCord never closes a bot; this closes it and any a restart put in its place.
    await close_made_bots()
