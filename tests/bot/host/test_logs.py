"""Logs a host can use: a line per lobby, start and end with the game's number, guild and channel
(also as JSON fields with LOG_FORMAT=json); an error's line names its game; and at DEBUG, over a
whole game, no line names a card, a hand, the seed or the salt."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest

from bot.host import logs
from tests.helpers import OhHellDriver, open_table

SUITS = re.compile("[♠♥♦♣]")


@pytest.fixture
def captured():
    """Everything logged through the bot's own configuration, at DEBUG, as JSON lines."""
    root = logging.getLogger()
    level, discord_level = root.level, logging.getLogger("discord").level
    stream = io.StringIO()
    handler = logs.configure("DEBUG", "json", stream)
    yield stream
    root.removeHandler(handler)
    logs._installed = None
    root.setLevel(level)
    logging.getLogger("discord").setLevel(discord_level)


def lines_of(stream: io.StringIO) -> list[dict]:
    found = [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]
    # SimCord (the test's stand-in for Discord) logs its own traffic; it is not part of the bot
    return [line for line in found if not line["logger"].startswith("simcord")]


async def test_a_game_logs_its_events_and_never_a_secret(simcord_env, captured):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="classic", options={"fixed_hands": "3,2"})
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    # a second table, cancelled in its lobby
    lobby = (await people[1].slash(channel, "ohhell new")).response
    await people[1].click(lobby, label="Cancel")

    lines = lines_of(captured)
    games = [line for line in lines if line["logger"] == "cardtable.games"]
    assert [(line["event"], line["game"]) for line in games] == [
        ("lobby opened", 1),
        ("started", 1),
        ("finished", 1),
        ("lobby opened", 2),
        ("cancelled", 2),
    ]
    for line in games:
        assert line["level"] == "INFO" and line["guild"] == guild.id and line["channel"] == channel.id
        assert f"game #{line['game']} " in line["message"] and f"channel {channel.id}" in line["message"]
    assert "3 players (0 computers)" in games[1]["message"]

    record = await env.bot.store.get_game(1)
    secrets = {"seed": str(record.seed), "salt": record.salt}
    decks = await env.bot.store.deals(1)
    codes = {code for deck in decks for code in deck.deck}
    assert codes and all(secrets.values())
    debug = [line for line in lines if line["level"] == "DEBUG"]
    assert debug, "nothing at DEBUG: the test would prove little"
    for line in lines:
        text = json.dumps(line, ensure_ascii=False)
        for name, secret in secrets.items():
            assert secret not in text, f"the {name} in a log line: {text}"
        assert not SUITS.search(text), f"a card in a log line: {text}"
        quoted = {code for code in codes if f'"{code}"' in text or f"'{code}'" in text or f'\\"{code}\\"' in text}
        assert not quoted, f"cards {quoted} in a log line: {text}"


async def test_text_lines_and_an_error_naming_its_game(simcord_env, captured, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("bob"))
    lobby = (await ann.slash(channel, "ohhell new")).response

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(env.bot.tables.seating, "join", broken)
    answer = await bob.click(lobby, label="Join")
    assert "Something went wrong" in answer.response.content
    errors = [line for line in lines_of(captured) if line["level"] == "ERROR"]
    assert len(errors) == 1, errors
    error = errors[0]
    assert error["game"] == 1 and error["guild"] == guild.id and error["channel"] == channel.id
    assert error["message"].startswith("game #1: unexpected error in control lobby;"), error["message"]
    assert "RuntimeError: a bug" in error["error"]

    text = io.StringIO()
    logs.configure("INFO", "text", text)
    logs.event("started", await env.bot.store.get_game(1), "2 players (0 computers)")
    line = text.getvalue().strip()
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S* INFO +cardtable\.games: game #1 started: ohhell", line), line
    assert line.endswith(f"; guild {guild.id} channel {channel.id}")
