"""DRAND: on by default for the bot run from the environment, off in code (the tests and the
local mode), off or on as set, anything else refused in one sentence; on, the table manager has
beacons (the pinned quicknet chain and the public relays), off it has none."""

from __future__ import annotations

import pytest

from bot.client import CardBot
from bot.fairness.beacon.chain import QUICKNET
from bot.fairness.beacon.relay import RELAYS
from bot.host.settings import Settings, SettingsError
from tests.helpers import close_made_bots


async def test_drand_is_on_from_the_environment_and_off_in_code(monkeypatch, tmp_path):
    monkeypatch.delenv("DRAND", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "c.sqlite3"))
    settings = Settings.from_env()
    assert settings.drand and not Settings(token="t").drand
    try:
        beacons = CardBot(settings).tables.seating.beacons
        assert beacons is not None and beacons.chain == QUICKNET and tuple(beacons.relays) == RELAYS
        monkeypatch.setenv("DRAND", "OFF")
        assert CardBot(Settings.from_env()).tables.seating.beacons is None
        monkeypatch.setenv("DRAND", "maybe")
        with pytest.raises(SettingsError, match="DRAND must be on or off, not 'maybe'."):
            Settings.from_env()
    finally:
        await close_made_bots()


def test_the_example_settings_name_drand():
    from pathlib import Path

    text = (Path(__file__).parents[3] / ".env.example").read_text(encoding="utf-8")
    assert "\n# DRAND=on\n" in text
