"""Less to read: each line says what a player needs, in words that are true.
The game-over line points to ``/<game> verify`` (the hex stays for the file that command hands
out), the rules name no seed files, the lobby's summary follows the options set, the Shithead
panel gives one instruction, names render, commands are the real ones, counts are English."""

from __future__ import annotations

import re

from cogs.ohhell.kind import OhHellKind
from cogs.shithead.kind import ShitheadKind
from cogs.stats.history import history_embed
from db.records import FinishedGame, ResultRow
from games.ohhell.rules import make_rules
from games.ohhell.rules_text import describe
from tests.helpers import OhHellDriver, ShitheadDriver, end_game, message_text, open_table

HEX = re.compile(r"[0-9a-f]{32,}")


def test_the_rules_name_no_seed_files():
    for preset in ("classic", "oh-shit", "bowers", "spades"):
        words = "\n".join(describe(make_rules(preset)))
        assert "seed 0" not in words and "seed" not in words.lower(), words


def test_history_names_the_real_replay_command():
    game = FinishedGame(12, "shithead", 1, "pagat", "2026-11-26T10:00:00", [])
    footer = history_embed("Shithead", [game], command="shithead").footer.text or ""
    assert "<game>" not in footer and "<number>" not in footer, footer
    assert "/shithead replay game:12" in footer, footer
    assert history_embed("Shithead", [], command="shithead").footer.text is None  # nothing to replay


def test_the_loser_is_marked_as_the_game_marks_its_loser():
    """Whether a loser carries a mark is the game's (its adapter's ``loser_mark``), not the history's."""
    rows = [ResultRow(0, 1, "ann", 1, None, False, {}), ResultRow(1, 2, "bob", 2, None, True, {})]
    game = FinishedGame(12, "x", 1, "p", "2026-11-26T10:00:00", rows)
    for kind, mark in ((ShitheadKind(None), "💩"), (OhHellKind(None), "")):
        assert kind.loser_mark == mark
        text = history_embed("T", [game], command=kind.key, loser_mark=kind.loser_mark).fields[0].value or ""
        assert text == ("1. ann, 2. bob" + (f" {mark}" if mark else "")), text


async def test_game_over_line_points_to_verify_and_one_deck_reads_singular(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], command="shithead", computers=1)
    driver = ShitheadDriver(env, channel, {ann.id: ann}, watch=False)
    record = driver.live.record
    await driver.play_to_end()
    await env.settle()
    over = message_text(channel.last_message)
    assert "Game over" in over and "/shithead verify" in over, over
    assert not HEX.search(over) and str(record.seed) not in over, over
    checked = await ann.slash(channel, "shithead verify")
    reply = checked.followups[-1] if checked.followups else checked.response
    text = message_text(reply)
    assert "All 1 stored decks" not in text and "The 1 stored deck" in text, text
    assert record.salt in text  # the hex is kept where it is checked


async def test_ended_by_the_host_points_to_verify_without_hex(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    await open_table(env, channel, ann, [bob], computers=1)
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=1)
    for _ in range(2):
        await driver.step()
    await end_game(ann, channel)
    ended = next(m for m in channel.history() if "Game ended by" in (m.content or ""))
    assert "/ohhell verify" in ended.content and not HEX.search(ended.content), ended.content


async def test_lobby_summary_follows_fixed_hands_and_closing_names_the_host(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    lobby = (await ann.slash(channel, "ohhell new")).response
    assert "down to 1 and back up" in message_text(lobby)  # the classic preset as it is
    await ann.slash(channel, "ohhell set", option="fixed_hands", value="3,2,1")
    shown = next(m for m in channel.history() if m.id == lobby.id)
    words = message_text(shown)
    assert "down to 1 and back up" not in words and "3, 2, 1" in words, words
    await ann.click(shown, label="Cancel")
    closed = message_text(next(m for m in channel.history() if m.id == lobby.id))
    assert "closed by" in closed and "<@" not in closed and "ann" in closed, closed


async def test_shithead_panel_gives_one_instruction(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], command="shithead", computers=1)
    driver = ShitheadDriver(env, channel, {ann.id: ann}, watch=False)
    seen = 0
    for _ in range(60):
        engine = driver.engine
        if engine.is_over:
            break
        view = engine.view(None)
        seat = driver.live.seat_of(ann.id)
        if view["phase"] == "play" and view["turn"] == seat and engine.view(seat)["zone"] == "hand":
            panel = await driver.open_panel(seat)
            words = message_text(panel)
            if "one press" in words or "then **Play**" in words:
                seen += 1
            assert not ("one press plays" in words and "then **Play**" in words), words
            assert words.count("Your turn") == 1, words
        await driver.step()
    assert seen, "the panel was seen on a turn to play from the hand"
