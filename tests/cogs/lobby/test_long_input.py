"""Long input still gets an answer: a refusal quotes a cut-down form of what
was typed, so every reply fits Discord's limits (2,000 characters a message, 256 an embed title),
and a turn timer of 1e309 seconds is refused like any other bad time, not a crash."""

from __future__ import annotations

import logging

import pytest

from tests.helpers import message_text

LONG = "x" * 3000


def answered(result, *needles: str) -> str:
    """The ephemeral answer: it fits Discord's limits, names no crash and says what it should."""
    assert result.acknowledged and result.ephemeral, result
    text = message_text(result.response)
    assert "Something went wrong" not in text, text
    assert len(result.response.content or "") <= 2000
    for embed in result.response.embeds:
        assert len(embed.title or "") <= 256
    for needle in needles:
        assert needle in text, text
    return text


@pytest.mark.parametrize("game", ["ohhell", "shithead"])
async def test_refusals_quote_long_input_cut_down(simcord_env, caplog, game):
    caplog.set_level(logging.ERROR)
    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))

    text = answered(await ann.slash(room, f"{game} new", preset=LONG), "There is no preset called 'xxx")
    assert "x" * 50 not in text and "…" in text
    answered(await ann.slash(room, f"{game} rules", preset=LONG), "There is no preset called 'xxx")
    answered(await ann.slash(room, f"{game} duplicate join", code=LONG), "duplicate match with the code 'XXX")

    lobby = await ann.slash(room, f"{game} new")
    assert not lobby.ephemeral
    answered(await ann.slash(room, f"{game} set", option=LONG, value="on"), "There is no rule called 'xxx")
    option = "deck" if game == "ohhell" else "decks"
    text = answered(await ann.slash(room, f"{game} set", option=option, value=LONG), "xxx")
    assert "x" * 50 not in text
    for timer in ("1e309s", "1e309", "-1e309m", "nan"):
        answered(await ann.slash(room, f"{game} set", option="turn_timer", value=timer), "turn timer")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]


async def test_a_long_leaderboard_season_is_answered(simcord_env, caplog):
    caplog.set_level(logging.ERROR)
    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    for season in ("s" * 240, "s" * 3000):
        text = answered(await ann.slash(room, "leaderboard", game="ohhell", season=season), "Nobody is ranked yet")
        assert "s" * 50 not in text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
