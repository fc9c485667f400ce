"""The host's endpoint (HEALTH_PORT): alive, then not ready until the store is open, the shards are
leased and the gateway is connected, each part named in the JSON body; ready; /metrics."""

from __future__ import annotations

import aiohttp
import pytest
import simcord

from bot.client import CardBot
from bot.host.settings import Settings, SettingsError
from tests.helpers import close_made_bots, for_tests


def health_bot(db_path: str) -> CardBot:
    """A test bot with the endpoint on, on any free port of 127.0.0.1."""
    return for_tests(CardBot(Settings(token="test-token", database_path=db_path, health_port=0)))


async def get(port: int, path: str) -> tuple[int, dict | str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        if response.content_type == "application/json":
            return response.status, await response.json()
        return response.status, await response.text()


async def test_not_ready_then_ready_then_stopped(tmp_path):
    bot = health_bot(str(tmp_path / "cards.sqlite3"))
    try:
        await bot.health.start()
        port = bot.health.port
        assert port > 0
        assert await get(port, "/healthz") == (200, {"alive": True})
        status, body = await get(port, "/readyz")
        assert status == 503 and body["ready"] is False
        assert body["store"] == {"ready": False, "detail": "not open"}
        assert body["shards"]["ready"] is False and body["gateway"]["ready"] is False

        await bot.prepare()  # the store open, the shard leased; no gateway yet
        status, body = await get(port, "/readyz")
        assert status == 503 and body["store"]["ready"] and body["shards"]["ready"]
        assert body["shards"]["detail"] == "leased: 0 of 1"
        assert body["gateway"] == {"ready": False, "detail": "not connected: shard(s) 0"}

        async with simcord.run(bot):
            status, body = await get(port, "/readyz")
            assert status == 200, body
            assert body["ready"] is True and body["gateway"] == {"ready": True, "detail": "connected"}
            status, page = await get(port, "/metrics")
            assert status == 200 and "cardtable_gateway_connected" in page
            assert 'cardtable_gateway_connected{shard="0"} 1.0' in page
            assert "cardtable_live_tables" in page and "cardtable_press_seconds" in page
            await bot.close()
        # closed: the endpoint is gone with the bot
        with pytest.raises(aiohttp.ClientConnectionError):
            await get(port, "/healthz")
    finally:
        await close_made_bots()


def test_endpoint_is_off_by_default_and_local_unless_told(monkeypatch):
    for name in ("HEALTH_PORT", "HEALTH_HOST", "LOG_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    settings = Settings.from_env()
    assert settings.health_port is None and settings.health_host == "127.0.0.1"
    assert CardBot(settings).health is None
    monkeypatch.setenv("HEALTH_PORT", "9464")
    assert Settings.from_env().health_port == 9464
    monkeypatch.setenv("HEALTH_PORT", "http")
    with pytest.raises(SettingsError, match="HEALTH_PORT must be a port number"):
        Settings.from_env()


def test_a_sharded_process_is_not_ready_before_each_of_its_shards_connects(tmp_path):
    from bot.client import create_bot
    from bot.host.health import readiness

    settings = Settings(token="t", database_path=str(tmp_path / "c.sqlite3"), shard_count=4, shard_ids=(1, 3))
    bot = create_bot(settings)
    body = readiness(bot)
    assert body["ready"] is False
    assert body["gateway"] == {"ready": False, "detail": "not connected: shard(s) 1,3"}
