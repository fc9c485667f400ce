"""The provable shuffle through the real bot, as players see it: the commitment is shown before any
card is dealt; the seed (and the salt) reach nobody, in no message, DM, ephemeral reply or log line,
until the game is over; then ``/<game> verify`` checks every stored deck, hands out the file that
the stand-alone script verifies, and both reject a game whose stored deck was altered."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from games.common.commitment import matches
from games.common.rng import GENERATOR_VERSION
from tests.helpers import OhHellDriver, ShitheadDriver, end_game, message_text, open_table

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tools" / "verify_shuffle.py"
SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def secrets_of(seed: int, salt: str) -> list[str]:
    """Every form in which the seed or the salt could leak."""
    return [str(seed), f"{seed:x}", seed.to_bytes(32, "big").hex(), salt]


def payload(entry) -> str:
    return json.dumps([entry.params, entry.json], ensure_ascii=False, default=str)


def check_secrecy(env, record, caplog, members, *, game_over_marker: str) -> None:
    """Over every REST call the bot made (messages, edits, DMs, ephemeral answers): the commitment
    went out before the first hand; the seed and salt only after the game ended."""
    requests = env.http_requests
    secret = secrets_of(record.seed, record.salt)
    dms = {f"/channels/{m.user.dm_channel.id}/messages" for m in members}
    committed = next(i for i, r in enumerate(requests) if record.commitment in payload(r))
    first_hand = next(i for i, r in enumerate(requests) if r.method == "POST" and r.path in dms)
    assert committed < first_hand, "the first hand went out before the commitment was shown"
    over = next(i for i, r in enumerate(requests) if game_over_marker in payload(r))
    leaks = [i for i, r in enumerate(requests) if any(s in payload(r) for s in secret)]
    assert leaks, "the seed was never revealed"
    assert min(leaks) >= over, f"the seed or salt went out before the game was over: {payload(requests[min(leaks)])}"
    for log_record in caplog.records:
        text = log_record.getMessage()
        if any(s in text for s in secret):
            # discord.py's own debug line of the reveal message itself is the only allowed mention
            assert "revealed" in text, f"a log line shows the seed: {text}"


def run_script(path: Path) -> subprocess.CompletedProcess[str]:
    """The script as a player runs it: isolated mode, from another folder, so it cannot import the project."""
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path)], capture_output=True, text=True, cwd=path.parent, timeout=60
    )


async def verified(member, channel, game_id: int, tmp_path: Path, name: str):
    result = await member.slash(channel, f"{name} verify", game=game_id)
    assert result.acknowledged
    reply = result.followups[-1] if result.followups else result.response
    text = message_text(reply)
    attachment = reply.attachments[0]
    data = await attachment.read()
    path = tmp_path / attachment.filename
    path.write_bytes(data)
    return text, json.loads(data), path


def alter_first_deck(db_path: str, game_id: int, deal: int) -> None:
    with sqlite3.connect(db_path) as db:
        (deck,) = db.execute("SELECT deck FROM deals WHERE game_id=? AND deal=?", (game_id, deal)).fetchone()
        cards = json.loads(deck)
        cards[0], cards[1] = cards[1], cards[0]
        db.execute("UPDATE deals SET deck=? WHERE game_id=? AND deal=?", (json.dumps(cards), game_id, deal))


async def test_oh_hell_commits_reveals_after_the_end_and_verifies(simcord_env, db_path, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    await open_table(env, channel, ann, [bob], options=SHORT, computers=2)
    table = env.bot.tables.in_channel(channel.id)
    record = table.record
    assert record.commitment and matches(record.commitment, record.seed, bytes.fromhex(record.salt), GENERATOR_VERSION)

    # The table (the started lobby) shows the commitment; nothing shows the seed.
    shown = [m for m in channel.history() if record.commitment in message_text(m)]
    assert shown and "verify" in message_text(shown[0])

    # Before the end, verify refuses: it shows the commitment, never the seed.
    early = await bob.slash(channel, "ohhell verify", game=table.id)
    assert early.ephemeral and "not over" in early.response.content
    assert record.commitment in early.response.content and str(record.seed) not in early.response.content

    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=3)
    await driver.play_to_end()
    assert env.bot.tables.in_channel(channel.id) is None
    stored = await env.bot.store.deals(table.id)
    assert [d.deal for d in stored] == list(range(1, len(stored) + 1)) and len(stored) >= 2  # extra deals for ties

    # Every message anyone could read (channel, each person's ephemeral replies, DMs) keeps the
    # secret: the final standings, the game's last message, say the shuffle can be checked now
    # (the hex is in /ohhell verify's answer and its file, not the channel)
    secret = secrets_of(record.seed, record.salt)
    messages = list(channel.history())
    for member in (ann, bob):
        messages += list(channel.history(viewer=member))
        messages += list(member.user.dm_channel.history())
    assert not messages_with(messages, secret)
    last = channel.last_message
    assert "Game over" in last.content and f"/ohhell verify game:{table.id}" in last.content, last.content

    # After the end: the bot's check and the stand-alone script both pass.
    text, exported, path = await verified(ann, channel, table.id, tmp_path, "ohhell")
    assert "✅" in text and f"All {len(stored)} stored decks" in text, text
    check_secrecy(env, record, caplog, [ann, bob], game_over_marker="Game over")
    assert exported["seed"] == record.seed and exported["commitment"] == record.commitment
    assert [d["deck"] for d in exported["deals"]] == [d.deck for d in stored]
    assert exported["deal_count"] == len(stored) and exported["generator"] == GENERATOR_VERSION
    run = run_script(path)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "VERIFIED", run.stdout + run.stderr
    assert f"game #{table.id}:" in run.stdout and f"all {len(stored)} of the game's {len(stored)} deals" in run.stdout

    # A stored deck altered after the commitment fails both checks.
    alter_first_deck(db_path, table.id, 2)
    text, exported, path = await verified(bob, channel, table.id, tmp_path, "ohhell")
    assert "❌" in text and "Deal 2" in text, text
    run = run_script(path)
    assert run.returncode == 1 and "FAIL: deal 2" in run.stdout and "NOT VERIFIED" in run.stdout, run.stdout


def messages_with(messages, secret: list[str]):
    seen, out = set(), []
    for message in messages:
        if message.id not in seen and any(s in message_text(message) for s in secret):
            seen.add(message.id)
            out.append(message)
    return out


@pytest.mark.parametrize("players", [6, 7])
async def test_an_honest_oh_shit_game_of_six_or_seven_verifies_with_the_script(simcord_env, tmp_path, players):
    """oh-shit deals six or seven players the 63-card pack (``pack63_for_6_7``): the bot's check
    and the script must agree, the script knowing no rules (the file names each deal's pack)."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], preset="oh-shit", options=SHORT, computers=players - 1)
    table = env.bot.tables.in_channel(channel.id)
    await OhHellDriver(env, channel, {ann.id: ann}, seed=2).play_to_end()
    stored = await env.bot.store.deals(table.id)
    text, exported, path = await verified(ann, channel, table.id, tmp_path, "ohhell")
    assert "✅" in text, text
    assert all(len(d["pack"]) == len(d["deck"]) == 63 for d in exported["deals"])
    run = run_script(path)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "VERIFIED", run.stdout + run.stderr
    assert f"{len(stored)} deals" in run.stdout and "63 cards" in run.stdout


async def test_shithead_commits_reveals_after_the_end_and_verifies(simcord_env, db_path, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], command="shithead", computers=2)
    driver = ShitheadDriver(env, channel, {ann.id: ann})
    record = driver.live.record
    early = await ann.slash(channel, "shithead verify")
    assert early.ephemeral and record.commitment in early.response.content
    await driver.play_to_end()

    text, exported, path = await verified(ann, channel, record.id, tmp_path, "shithead")
    assert "✅" in text and "The 1 stored deck is" in text, text
    check_secrecy(env, record, caplog, [ann], game_over_marker="Game over")
    assert run_script(path).returncode == 0

    alter_first_deck(db_path, record.id, 1)
    text, exported, path = await verified(ann, channel, record.id, tmp_path, "shithead")
    assert "❌" in text and "Deal 1" in text, text
    run = run_script(path)
    assert run.returncode == 1 and "NOT VERIFIED" in run.stdout, run.stdout


async def test_a_game_the_host_ends_reveals_its_seed_and_verifies(simcord_env, tmp_path):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    await open_table(env, channel, ann, [bob], computers=1)
    record = env.bot.tables.in_channel(channel.id).record
    driver = OhHellDriver(env, channel, {ann.id: ann, bob.id: bob}, seed=1)
    for _ in range(4):
        await driver.step()
    secret = secrets_of(record.seed, record.salt)
    assert not messages_with(list(channel.history()), secret)
    await end_game(ann, channel)
    assert not messages_with(list(channel.history()), secret)
    ended = next(m for m in channel.history() if "Game ended by" in (m.content or ""))
    assert f"/ohhell verify game:{record.id}" in ended.content, ended.content

    text, exported, _ = await verified(bob, channel, record.id, tmp_path, "ohhell")
    assert "✅" in text and exported["deals"] and exported["seed"] == record.seed, text


async def test_verify_answers_only_for_this_servers_games(simcord_env):
    env = simcord_env
    guild, other = env.create_guild(), env.create_guild()
    channel, elsewhere = guild.create_text_channel("cards"), other.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    cy = other.add_member(env.create_user("cy"))
    await open_table(env, channel, ann, [], computers=2, options=SHORT)
    game_id = env.bot.tables.in_channel(channel.id).id
    refused = await cy.slash(elsewhere, "ohhell verify", game=game_id)
    assert refused.ephemeral and "no Oh Hell game #" in refused.response.content
    refused = await ann.slash(channel, "shithead verify", game=game_id)
    assert refused.ephemeral and "no Shithead game" in refused.response.content
    refused = await ann.slash(channel, "ohhell verify", game=game_id + 5)
    assert refused.ephemeral and "no Oh Hell game" in refused.response.content


def test_the_computers_dice_depend_on_the_salt_not_the_seed():
    from bot.fairness.shuffles import computer_rng
    from db.records import GameRecord

    def record(seed: int, salt: str | None) -> GameRecord:
        return GameRecord(1, "ohhell", 1, 2, 3, "playing", "classic", {}, {}, seed, None, None, salt=salt)

    salt = "ab" * 32
    draws = [computer_rng(record(seed, salt), 5).random() for seed in (1, 2, 2**62 - 1)]
    assert len(set(draws)) == 1  # the seed changes nothing
    assert computer_rng(record(1, "cd" * 32), 5).random() != draws[0]
    assert computer_rng(record(1, salt), 6).random() != draws[0]
    # a game started before salts existed gets fresh dice, not dice derived from its seed
    assert computer_rng(record(1, None), 5).random() != computer_rng(record(1, None), 5).random()
