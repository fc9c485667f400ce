"""A third game plugs in through the seam alone ("One seam per concern").

High Card (:mod:`tests.thirdgame`, a test-only package) touches nothing outside its own package:
the bot is told to load it with one setting, ``extra_games=("tests.thirdgame",)`` (the
registration line), and then the shared features serve it as they serve Oh Hell and Shithead.
Played as users play: ``/highcard new``, a second member joins, Start, every card pressed on the
player's live panel (**My hand**); then the final standings in the channel, the stored game and
its moves, the shuffle's check, the stats (``/cardstats``, ``/leaderboard``, ``/highcard history``)
and the replay (``/highcard replay``), all through the shared features.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.client import CardBot, extensions
from bot.host.admin import replay_all
from bot.host.settings import Settings
from db.transfer import export_rows
from tests.helpers import (
    close_made_bots,
    current_message,
    for_tests,
    message_text,
    open_table,
    table_message,
    walk_components,
)

# (the bot imports the package afresh each time it loads it, so these are compared by value)
from tests.thirdgame.engine import HighCard, Rules

VERIFY_SHUFFLE = Path(__file__).resolve().parents[3] / "tools" / "verify_shuffle.py"
#: the one registration line: the settings name the extra game package
THIRD_GAME = ("tests.thirdgame",)


def third_game_bot(db_path: str) -> CardBot:
    """A test bot (:func:`tests.helpers.for_tests`) told to load the third game as well."""
    return for_tests(CardBot(Settings(token="test-token", database_path=db_path, ai_delay=0.0, extra_games=THIRD_GAME)))


@pytest.fixture
async def simcord_bot(db_path):
    yield third_game_bot(db_path)
    await close_made_bots()


def card_buttons(panel) -> dict[str, str]:
    """The enabled card buttons of a High Card panel, ``card code -> custom id``."""
    return {
        c["custom_id"].rsplit(":", 1)[1]: c["custom_id"]
        for c in walk_components(panel.components)
        if (c.get("custom_id") or "").startswith("hcp:") and not c.get("disabled")
    }


def test_the_extra_game_loads_with_the_games_before_the_other_features() -> None:
    """Games first (each registers its Game), the extra game with them, then the other features:
    a tidy order, no longer a needed one (the games, then the features, are plugged in by key and
    by name once all are loaded; tests/bot/seam/test_features.py loads the third game first, then the
    features, then the games)."""
    names = extensions(THIRD_GAME)
    assert names.index("tests.thirdgame") > max(names.index("cogs.ohhell"), names.index("cogs.shithead"))
    assert names.index("tests.thirdgame") < min(names.index(f"cogs.{f}") for f in ("lobby", "stats", "fairness"))
    assert "tests.thirdgame" not in extensions()


async def test_a_third_game_plays_a_whole_game_through_the_shared_features(simcord_env, db_path, tmp_path):
    env = simcord_env
    ann_user = env.create_user("ann")
    guild = env.create_guild("G", owner=ann_user)  # ann manages the server (/cardadmin)
    ann, bob = guild.add_member(ann_user), guild.add_member(env.create_user("bob"))
    room = guild.create_text_channel("cards")
    bot_id = env.bot.user.id
    assert "highcard" in env.bot.tables.kinds

    # The lobby (the shared feature's /highcard new, Join, Start).
    await open_table(env, room, ann, [bob], command="highcard")
    table = env.bot.tables.in_channel(room.id, "highcard")
    assert table is not None and table.engine.GAME == "highcard"
    game_id, engine = table.id, table.engine
    assert table.record.commitment is not None  # the shuffle is committed like any game's

    # Play: each player opens My hand once; the bot keeps that panel current (a turn arriving
    # gives it its card buttons), so every card is one press on it. After the first trick the bot
    # stops cleanly and starts again: the game comes back from the store, and so do the open panels.
    actors = {ann.id: ann, bob.id: bob}
    panels: dict[int, int] = {}
    rng = random.Random(5)
    opened, restarted = 0, False
    while not engine.is_over:
        if engine.action_count == 2 and not restarted:
            restarted = True
            await env.bot.close()  # a clean stop: the open panels are saved
            await env.restart_bot(third_game_bot(db_path))
            table = env.bot.tables.in_channel(room.id, "highcard")
            assert table is not None and table.engine is not engine and table.engine.log == engine.log
            engine = table.engine
        seat = engine.to_act()[0]
        actor = actors[table.seats[seat].user_id]
        panel = current_message(env, room, panels[actor.id]) if actor.id in panels else None
        if panel is None or not card_buttons(panel):
            shown = await actor.click(table_message(room, bot_id), label="My hand")
            assert shown.response is not None and shown.response.ephemeral, shown
            panel, opened = shown.response, opened + 1
            panels[actor.id] = panel.id
        moves = card_buttons(panel)
        assert sorted(moves) == sorted(a["card"] for a in engine.legal_actions(seat))
        before = engine.action_count
        pressed = await actor.click(panel, custom_id=moves[rng.choice(sorted(moves))])
        assert pressed.acknowledged and "⚠️" not in message_text(pressed.response), message_text(pressed.response)
        assert engine.action_count == before + 1 and engine.log[before][0] == seat
    assert restarted and opened == 2, "each player's panel was kept current after they opened it once"
    assert env.bot.tables.in_channel(room.id, "highcard") is None  # the game is over and dropped

    # The channel: the table's last state, then the final standings.
    texts = [message_text(m) for m in room.history() if m.author.id == bot_id]
    assert any("🏁 Game over: the result is below." in t and "Tricks won" in t for t in texts)
    final = texts[-1]
    assert "final standings" in final and "ann" in final and "bob" in final
    winners = {f"<@{table.seats[s].user_id}>" for s in engine.winners()}
    assert {f"<@{m.id}>" for m in (ann, bob) if f"<@{m.id}>" in final.split(" won.")[0]} == winners

    # Storage: finished, with every move, and the results the engine gives.
    store = env.bot.store
    record = await store.get_game(game_id)
    assert record.status == "finished" and record.kind == "highcard"
    assert [(s, dict(a)) for s, a in record.actions] == [(s, dict(a)) for s, a in engine.log]
    assert len(record.actions) == 2 * Rules().cards
    rebuilt = HighCard.replay(
        Rules.from_json(record.rules), 2, record.seed, record.actions, rng_version=record.rng_version
    )
    results = {r.seat: (r.place, r.total) for r in await store.results(game_id)}
    assert results == {s: (rebuilt.place(s), rebuilt.tricks[s]) for s in range(2)}
    # ...and the host's backup/export check replays it through the game's own engine (no list of
    # games in games/replay.py): the finished game replays to the stored results.
    checked = replay_all(await export_rows(store))
    assert checked.problems == [] and checked.finished == 1, checked.problems

    # Fair play: the stored shuffle checks against the commitment shown at the start. The players'
    # stand-alone script trusts no pack a file names, so it checks only the games whose packs it
    # knows: a game the bot merely loads is refused there in one sentence.
    verified = await ann.slash(room, "highcard verify", game=game_id)
    shown = verified.followups[-1] if verified.followups else verified.response
    assert "✅" in message_text(shown), message_text(shown)
    path = tmp_path / shown.attachments[0].filename
    path.write_bytes(await shown.attachments[0].read())
    checked = subprocess.run(
        [sys.executable, "-I", str(VERIFY_SHUFFLE), str(path)], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert checked.returncode == 1 and checked.stderr == "", checked.stdout + checked.stderr
    assert checked.stdout == f"NOT VERIFIED: {path}: its kind 'highcard' is not a game this script knows" + (
        " (ohhell, shithead).\n"
    ), checked.stdout

    # Stats: the profile, the history and the rating.
    stats = await ann.slash(room, "cardstats", member=ann, game="highcard")
    assert "1 played" in message_text(stats.response), message_text(stats.response)
    history = await bob.slash(room, "highcard history")
    assert f"#{game_id}" in message_text(history.response)
    rated = await store.ratings(guild.id, "highcard")
    assert {r.identity for r in rated} == {f"u:{ann.id}", f"u:{bob.id}"} and all(r.games == 1 for r in rated)
    done = await ann.slash(room, "cardadmin seasons", length="monthly", min_games=1)
    assert "Ratings rebuilt" in done.response.content
    board = await ann.slash(room, "leaderboard", game="highcard", season="all")
    assert "**ann**" in message_text(board.response) and "**bob**" in message_text(board.response)

    # The replay: one step a trick, stepped to the end.
    replay = await bob.slash(room, "highcard replay", game=game_id)
    page = replay.response
    assert page.embeds[0].title.endswith(f"step 1 of {Rules().cards + 1}"), page.embeds[0].title
    for _ in range(Rules().cards):
        page = (await bob.click(page, label="Next ▶")).response or page
    assert "Game over" in page.embeds[0].description
    assert f"step {Rules().cards + 1} of" in page.embeds[0].title


async def test_a_third_game_with_a_computer_a_changed_rule_and_a_rematch(simcord_env):
    """The rest of the lobby and the runtime serve it too: a rule set with ``/highcard set``, a
    computer seat (the clock asks the adapter for its moves), the rules and scores commands, and
    **Rematch** on the final standings."""
    env = simcord_env
    guild = env.create_guild("G")
    ann = guild.add_member(env.create_user("ann"))
    room = guild.create_text_channel("cards")
    bot_id = env.bot.user.id
    await open_table(env, room, ann, [], command="highcard", options={"cards": "2"}, computers=1)
    table = env.bot.tables.in_channel(room.id, "highcard")
    engine = table.engine
    assert engine.rules.to_json() == {"cards": 2} and table.seats[1].ai_level is not None
    rules = await ann.slash(room, "highcard rules")
    assert "dealt 2 spades" in message_text(rules.response), message_text(rules.response)
    scores = await ann.slash(room, "highcard scores")
    assert "Tricks won" in message_text(scores.response), message_text(scores.response)

    panel = None
    for _ in range(20):
        if engine.is_over:
            break
        if engine.to_act() != [0]:  # the computer's turn: it moves on its own (on the virtual clock)
            await env.advance_time(1)
            continue
        if panel is None or not card_buttons(panel := current_message(env, room, panel.id)):
            panel = (await ann.click(table_message(room, bot_id), label="My hand")).response
        before = engine.action_count
        pressed = await ann.click(panel, custom_id=next(iter(card_buttons(panel).values())))
        assert "⚠️" not in message_text(pressed.response), message_text(pressed.response)
        assert engine.log[before][0] == 0  # (the computer may already have answered)
    assert engine.is_over and [seat for seat, _ in engine.log].count(1) == 2, "the computer played both its cards"
    record = await env.bot.store.get_game(table.id)
    assert record.status == "finished" and len(record.actions) == 4

    final = next(m for m in reversed(room.history()) if m.author.id == bot_id and "final standings" in message_text(m))
    again = await ann.click(final, label="Rematch")
    assert again.response is not None and not again.ephemeral, again
    lobby = env.bot.tables.in_channel(room.id, "highcard")
    assert lobby is not None and lobby.id != table.id and lobby.record.status == "lobby"
    assert lobby.record.options == {"cards": "2"} and [s.ai_level is not None for s in lobby.seats] == [False, True]
