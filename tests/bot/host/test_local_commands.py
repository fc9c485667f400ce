"""The local page's words and commands, in process (the real bot, SimCord's world and page, no
browser): what a person types in the page's one channel, and what the bot answers there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")  # simcord[preview]

from bot.host.local import local_table  # noqa: E402
from bot.host.local_hints import command_hint  # noqa: E402
from bot.host.settings import Settings  # noqa: E402


def settings(tmp_path: Path) -> Settings:
    return Settings(token="", database_path=str(tmp_path / "local.sqlite3"), ai_delay=0.0)


async def send_from_page(preview: Any, text: str) -> dict:
    """A chat line sent from the page's composer, as the page's script posts it."""
    page = preview._python if preview._pages == {} else next(iter(preview._pages.values()))
    if page is preview._python:
        page = preview._open_page()
    body = {
        "protocol_version": 3,
        "sequence": page.last_sequence + 1,
        "request_id": f"r{page.last_sequence + 1}",
        "generation": page.generation,
        "bot_generation": preview.env._generation,
        "published_revision": page.revision,
        "kind": "send_message",
        "content": text,
    }
    return await preview._action(page.id, body)


def channel_lines(env: Any, channel_id: int) -> list[str]:
    return [m.content for m in env.backend.messages.get(channel_id, {}).values()]


async def test_a_mistyped_command_is_answered_with_the_one_it_was_meant_to_be(tmp_path: Path) -> None:
    """``/ohell new`` matches no command: the page sends it as a chat line, which the bot does
    not read. The local mode answers it in the channel with the nearest command; a real command
    typed out, and an ordinary line, get no answer."""
    async with local_table(settings(tmp_path), port=0, settle_timeout=2) as (env, preview, clock, _shown):
        channel_id = preview.channel.id
        answer = await send_from_page(preview, "/ohell new")
        assert not answer.get("rejected"), answer
        lines = channel_lines(env, channel_id)
        assert lines[-2] == "/ohell new", lines
        alice = preview.viewers[0]
        assert lines[-1] == (
            f"<@{alice.id}> There is no /ohell new command: did you mean /ohhell new? Type / and pick it from the list."
        ), lines
        for quiet in ("hello all", "/ohhell new", "/shithead rules"):
            before = len(channel_lines(env, channel_id))
            await send_from_page(preview, quiet)
            assert channel_lines(env, channel_id)[before:] == [quiet], quiet
        await send_from_page(preview, "/zzqx")
        assert channel_lines(env, channel_id)[-1].endswith(
            "There is no /zzqx command. Type / to see the commands, and pick one from the list."
        )


def test_the_hint_reads_every_command_of_the_tree_and_picks_the_nearest() -> None:
    known = ["ohhell new", "ohhell set", "shithead new", "leaderboard"]
    assert command_hint("/shitehad new", known) == (
        "There is no /shitehad new command: did you mean /shithead new? Type / and pick it from the list."
    )
    assert command_hint("/leaderbord", known) is not None and "/leaderboard?" in command_hint("/leaderbord", known)
    assert command_hint("/ohhell set", known) is None
    assert command_hint("not a command", known) is None
    assert command_hint("// a comment", known) is None


async def test_set_offers_every_option_before_a_letter_is_typed(tmp_path: Path) -> None:
    """The page asks for the option's suggestions as soon as the field has the focus (empty):
    the bot answers with the options, the first 25 of them (Discord's most), before any letter."""
    async with local_table(settings(tmp_path), port=0, settle_timeout=2) as (_env, preview, _clock, _shown):
        alice = preview.viewers[0]
        await alice.slash(preview.channel, "ohhell new")
        offered = [c["value"] for c in await alice.autocomplete(preview.channel, "ohhell set", "option", "")]
        assert len(offered) >= 10 and "turn_timer" in offered and "fixed_hands" in offered, offered


async def test_a_busy_channel_gives_advice_the_one_channel_page_can_follow(tmp_path: Path) -> None:
    """The page has one channel: the refusal of a second table says how this one is freed, not
    "open a table in another channel" (which a bot on Discord still says)."""
    async with local_table(settings(tmp_path), port=0, settle_timeout=2) as (_env, preview, _clock, _shown):
        alice, bob = preview.viewers[:2]
        await alice.slash(preview.channel, "ohhell new")
        refused = await bob.slash(preview.channel, "shithead new")
        text = refused.response.content
        assert "another channel" not in text, text
        assert text == (
            "⚠️ This channel already has a lobby (Oh Hell). Finish it first, or its host ends it with /ohhell end."
        ), text


async def test_a_duplicate_match_is_refused_on_the_one_channel_page(tmp_path: Path) -> None:
    """A duplicate match needs a channel a table: the page says so rather than opening a match
    whose other tables could never open ("in another channel or server")."""
    async with local_table(settings(tmp_path), port=0, settle_timeout=2) as (env, preview, _clock, _shown):
        alice = preview.viewers[0]
        refused = await alice.slash(preview.channel, "ohhell duplicate new")
        text = refused.response.content
        assert refused.ephemeral and "another channel" not in text, text
        assert text == (
            "⚠️ A duplicate match needs a channel for each of its tables, and this page has one:"
            " play duplicate matches on Discord."
        ), text
        assert env.bot.tables.in_channel(preview.channel.id) is None  # no table was opened
