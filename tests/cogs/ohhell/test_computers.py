"""Computer seats, the turn timer, taking a seat back, and a deadline that survives a restart."""

from __future__ import annotations

from tests.helpers import OhHellDriver, make_bot, open_hand, open_table, panel_moves, press, table_message, warning_of

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def _texts(channel) -> list[str]:
    out = []
    for message in channel.history():
        out.append(message.content or "")
        for embed in message.embeds:
            out += [embed.description or ""] + [f.value for f in embed.fields]
    return out


async def test_a_game_with_computer_seats_to_the_end(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await open_table(env, channel, ann, [], preset="bowers", options=SHORT, computers=3)
    table = env.bot.tables.in_channel(channel.id)
    assert [s.ai_level for s in table.seats] == [None, "strong", "strong", "strong"]
    driver = OhHellDriver(env, channel, {ann.id: ann}, seed=2)
    await driver.play_to_end()
    assert "Game over" in channel.last_message.content
    results = await env.bot.store.results(table.id)
    assert sorted(r.user_id is None for r in results) == [False, True, True, True]
    game = await env.bot.store.get_game(table.id)
    assert sum(1 for seat, _ in game.actions if seat != 0) > sum(1 for seat, _ in game.actions if seat == 0)


async def _timed_table(env, seconds: str = "1m"):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], options={**SHORT, "turn_timer": seconds})
    table = env.bot.tables.in_channel(channel.id)
    return channel, people, table


async def test_the_timer_reminds_then_hands_the_turn_to_the_computer_and_the_seat_comes_back(simcord_env):
    env = simcord_env
    channel, people, table = await _timed_table(env)
    seat = table.engine.to_act()[0]
    late = next(p for p in people if p.id == table.seats[seat].user_id)
    await env.advance_time(31)
    assert any(late.mention in t and "your move" in t for t in _texts(channel)), "a reminder mentions the player"
    assert table.engine.log == []
    await env.advance_time(30)
    assert len(table.engine.log) >= 1 and table.engine.log[0][0] == seat
    assert table.seats[seat].ai_level is not None
    stored = await env.bot.store.get_game(table.id)
    assert stored.seats[seat].ai_level is not None
    assert any("ran out of time" in t for t in _texts(channel))
    # The player takes the seat back; from then on the seat waits for them again.
    board = table_message(channel, env.bot.user.id)
    back = await late.click(board, label="Take my seat back")
    assert back.ephemeral and "yours again" in back.response.content
    assert table.seats[seat].ai_level is None
    # The table says so at once, without waiting for the next move.
    assert "is back and plays their own seat again" in str(table_message(channel, env.bot.user.id).embeds[0].to_dict())
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=1)
    while seat not in table.engine.to_act():
        await driver.step()
    before = len(table.engine.log)
    panel = await open_hand(late, channel, env.bot.user.id)
    done = await press(late, panel, next(iter(panel_moves(panel))))
    assert warning_of(done) is None and len(table.engine.log) == before + 1
    game = await env.bot.store.get_game(table.id)
    assert game.actions[-1][0] == seat


async def test_a_restart_keeps_the_deadline(simcord_env, db_path):
    env = simcord_env
    channel, people, table = await _timed_table(env, "2m")
    seat = table.engine.to_act()[0]
    (timer,) = await env.bot.store.timers()
    await env.advance_time(70)  # past the reminder, 50 s before the deadline
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    (kept,) = await env.bot.store.timers()
    assert kept.deadline == timer.deadline and kept.reminded
    restored = env.bot.tables.in_channel(channel.id)
    await env.advance_time(40)
    assert restored.engine.log == [], "the clock did not restart from zero, nor run out early"
    await env.advance_time(15)
    assert restored.engine.log and restored.engine.log[0][0] == seat
    assert restored.seats[seat].ai_level is not None
