"""Another process commits a game's next move first, as a player sees it: their press is refused
as stale, and the bot never holds the move the store refused. The engine applies a move in place,
so the state before it is rebuilt from the committed log; even when reading the other process's
state then fails (the store is unreachable for a moment), the table holds exactly the state
before the press, never a move that was not saved."""

from __future__ import annotations

from db.errors import StoreError
from tests.helpers import open_hand, open_table, panel_moves, press, warning_of

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


async def test_a_press_refused_for_another_process_s_move_leaves_the_engine_as_it_was(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], options=SHORT)
    table = env.bot.tables.in_channel(channel.id)
    store = env.bot.store
    seat = table.engine.to_act()[0]
    actor = next(p for p in people if p.id == table.seats[seat].user_id)
    panel = await open_hand(actor, channel, env.bot.user.id)
    bids = list(panel_moves(panel))
    mine, theirs = bids[0], bids[1]
    before = table.engine.to_json()
    # Another process (a second shard on the same store) commits this seat's other bid first...
    await store.record_action(table.id, 0, seat, {"type": "bid", "bid": int(theirs)})
    # ...and reading its state back fails once, as on a lost connection.
    real_get_game, failures = store.get_game, []

    async def get_game(game_id: int):
        if not failures:
            failures.append(game_id)
            raise StoreError("the connection to the database was lost")
        return await real_get_game(game_id)

    monkeypatch.setattr(store, "get_game", get_game)
    answer = await press(actor, panel, mine)
    assert failures == [table.id], "the conflict was followed by a re-read"
    assert warning_of(answer) is not None, "the press was answered as if it counted"
    # The bot holds exactly the state before the press: not the bid the store refused.
    assert table.engine.to_json() == before
    assert table.engine.log == [] and table.record.actions == []
    assert (await real_get_game(table.id)).actions == [(seat, {"type": "bid", "bid": int(theirs)})]
