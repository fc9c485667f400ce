"""Start-up: a missing or refused token ends with one clear sentence, not a traceback."""

from __future__ import annotations

import discord
import pytest

from bot import __main__ as entry
from bot.host.settings import Settings, SettingsError
from draw.common import parse_timer


@pytest.fixture
def no_dotenv(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "LOG_LEVEL", "DATABASE_PATH", "AI_DELAY_SECONDS", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_missing_token_says_what_to_do(no_dotenv, capsys):
    assert entry.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "DISCORD_TOKEN" in err and ".env" in err
    assert "python -m bot.host.local" in err  # the way to play without a token


def test_refused_token_says_what_to_do(no_dotenv, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DATABASE_PATH", ":memory:")

    async def refuse(self, token):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", refuse)
    assert entry.main() == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "refused the token" in err and "Developer Portal" in err


def test_bad_settings_are_named(no_dotenv, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DEV_GUILD_ID", "my-server")
    with pytest.raises(SettingsError, match="DEV_GUILD_ID"):
        Settings.from_env()
    monkeypatch.setenv("DEV_GUILD_ID", "123")
    monkeypatch.setenv("LOG_LEVEL", "loud")
    with pytest.raises(SettingsError, match="LOG_LEVEL"):
        Settings.from_env()
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = Settings.from_env()
    assert settings.dev_guild_id == 123 and settings.log_level == "DEBUG"


def test_env_example_names_every_setting():
    import pathlib

    text = (pathlib.Path(__file__).parents[2] / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "AI_DELAY_SECONDS"):
        assert f"\n{name}=" in text
        before = text.split(f"\n{name}=")[0].rstrip().splitlines()[-1]
        assert before.startswith("#"), f"{name} has no comment"


@pytest.mark.parametrize(
    ("text", "seconds"), [("off", None), ("30s", 30), ("2m", 120), ("1h", 3600), ("1d", 86400), ("45", 45)]
)
def test_turn_timer_values(text, seconds):
    assert parse_timer(text) == seconds


@pytest.mark.parametrize("text", ["5s", "2d", "soon"])
def test_turn_timer_refusals(text):
    with pytest.raises(ValueError):
        parse_timer(text)


def test_a_bad_database_url_is_one_sentence(no_dotenv, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_URL", "mysql://root@localhost/cards")
    assert entry.main() == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "DATABASE_URL" in err and "postgresql://" in err


def test_a_postgres_server_that_is_down_is_one_sentence(no_dotenv, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    # port 1 on this machine: nothing listens there
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres:secret@127.0.0.1:1/test")

    async def login(self, token):  # Discord is not reachable here; the store opens in setup_hook
        await self.setup_hook()

    monkeypatch.setattr(discord.Client, "login", login)
    assert entry.main() == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "127.0.0.1" in err and "secret" not in err


def test_the_database_url_picks_the_store(no_dotenv, monkeypatch):
    from bot.client import create_bot
    from db.postgres import PostgresStore
    from db.sqlite import SqliteStore

    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert isinstance(create_bot(Settings.from_env()).store, SqliteStore)
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres:secret@127.0.0.1:5432/test")
    settings = Settings.from_env()
    assert "secret" not in repr(settings)
    assert isinstance(create_bot(settings).store, PostgresStore)


def test_a_file_that_is_not_a_database_is_one_sentence_and_a_clean_exit(no_dotenv, monkeypatch, capsys, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", str(notes))

    async def login(self, token):  # Discord is not reachable here; the store opens in setup_hook
        await self.setup_hook()

    monkeypatch.setattr(discord.Client, "login", login)
    assert entry.main() == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "not a database" in err and "DATABASE_PATH" in err
