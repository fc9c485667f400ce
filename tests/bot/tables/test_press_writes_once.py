"""The presses that end a deal or the game, not only a mid-deal card: the move and everything it
decides (the deal's scores, the next deal's deck, the results and their ratings, the table
message it closes) are one transaction, the closing table is drawn once, and a panel is drawn once
for each seat whose view changed. What must wait for Discord's answer (the new table's message,
the standings shown, the closed copies forgotten) rides on the next move's transaction (a sharded
bot writes it at once). Counted through a spy on the store's
transaction boundary (``_tx``), on SQLite and on PostgreSQL alike; and a stop on either side of
the deal-ending move's commit leaves the whole deal end or none of it."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.client import CardBot, create_bot
from bot.host.settings import Settings
from db.postgres import PostgresStore
from tests.db.conftest import TEST_DATABASE_URL, pg_schema  # noqa: F401 - the fixture
from tests.faults import DiskFull
from tests.helpers import (
    close_made_bots,
    for_tests,
    live_panel,
    make_bot,
    open_hand,
    open_table,
    panel_moves,
    press,
    table_message,
    warning_of,
)

#: two deals (2 cards, then 1; a tie adds one): a deal-ending press and a game-ending one come soon
SHORT = {"fixed_hands": "2,1", "sequence": "fixed"}


@pytest.fixture(params=["sqlite", "postgres"])
def new_bot(request: pytest.FixtureRequest, db_path: str) -> Iterator[Callable[[], CardBot]]:
    """Makes the test bot (again, for a restart) on one database of the backend."""
    if request.param == "sqlite":
        yield lambda: make_bot(db_path)
        return
    schema = request.getfixturevalue("pg_schema")
    settings = Settings(token="test-token", ai_delay=0.0)
    yield lambda: for_tests(create_bot(settings, PostgresStore(TEST_DATABASE_URL, schema=schema)))


@pytest.fixture
async def simcord_bot(new_bot: Callable[[], CardBot]) -> Any:
    bot = new_bot()
    yield bot
    await close_made_bots()


class Spy:
    """While :attr:`on`: each transaction the store opens (named by the store method that opens
    it), the moves' writes (``record_action``'s keywords), and the table, closing and panel
    drawings of the game's kind."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, bot: CardBot, kind: type) -> None:
        self.on = False
        self.transactions: list[str] = []
        self.moves: list[dict[str, Any]] = []
        self.drawn: Counter[str] = Counter()
        store = bot.store
        real_tx, real_record = store._tx, store.record_action  # type: ignore[attr-defined]

        def tx(*args: Any, **kwargs: Any) -> Any:
            if self.on:  # the store's method that opens it (PostgreSQL's record_action has a helper)
                self.transactions.append(sys._getframe(1).f_code.co_name.lstrip("_"))
            return real_tx(*args, **kwargs)

        async def record_action(*args: Any, **kwargs: Any) -> Any:
            if self.on:
                self.moves.append(kwargs)
            return await real_record(*args, **kwargs)

        monkeypatch.setattr(store, "_tx", tx)
        monkeypatch.setattr(store, "record_action", record_action)
        for name in ("draw_table", "closing", "draw_panel"):
            monkeypatch.setattr(kind, name, self._counted(name, getattr(kind, name)))

    def _counted(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            if self.on:
                self.drawn[name] += 1
            return method(*args, **kwargs)

        return counted

    def start(self) -> None:
        self.transactions.clear()
        self.moves.clear()
        self.drawn.clear()
        self.on = True


async def _table(env: Any, people: int = 3) -> tuple[Any, Any, dict[int, Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")[:people]]
    await open_table(env, channel, members[0], members[1:], preset="classic", options=SHORT)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    for member in members:  # every panel open
        await open_hand(member, channel, env.bot.user.id)
    return channel, table, {table.seat_of(m.id): m for m in members}


async def _press(env: Any, channel: Any, table: Any, by_seat: dict[int, Any]) -> Any:
    """The first seat to act presses its first enabled button on its live panel."""
    person = by_seat[table.engine.to_act()[0]]
    panel = live_panel(env, channel, person)
    pressed = await press(person, panel, next(iter(panel_moves(panel))))
    assert warning_of(pressed) is None, warning_of(pressed)
    await env.settle()
    return pressed


def _ends_deal_next(table: Any) -> bool:
    """The next press plays the last card of the deal (every other hand is empty)."""
    engine = table.engine
    left = [len(engine.view(seat)["hand"]) for seat in range(len(table.seats))]
    return engine.view(None)["phase"] == "playing" and sum(left) == 1


async def _to_deal_end(env: Any, channel: Any, table: Any, by_seat: dict[int, Any]) -> None:
    while not _ends_deal_next(table):
        await _press(env, channel, table, by_seat)


async def _deal_ending_press(env: Any, monkeypatch: Any) -> tuple[Any, Any, dict[int, Any], Spy, Any]:
    """A table played to the last card of its first deal, that card pressed with the spy on:
    the channel, the table, its players by seat, the spy (off again) and the table message the
    press closed."""
    channel, table, by_seat = await _table(env)
    spy = Spy(monkeypatch, env.bot, type(table.kind))
    await _to_deal_end(env, channel, table, by_seat)
    closed = table_message(channel, env.bot.user.id)
    spy.start()
    await _press(env, channel, table, by_seat)
    spy.on = False
    assert table.engine.deal_number == 2, "the press ended deal 1"
    return channel, table, by_seat, spy, closed


async def test_a_deal_ending_press_is_one_transaction_and_draws_each_message_once(simcord_env, monkeypatch):
    env = simcord_env
    channel, table, by_seat, spy, closed = await _deal_ending_press(env, monkeypatch)
    # One transaction for the move and all it decided; the new table's message (which Discord
    # numbered only after the move was committed) and the closed copy forgotten ride on the next.
    assert spy.transactions == ["record_action"], spy.transactions
    (move,) = spy.moves
    assert move["deal_scores"] and move["deal"] is not None and move["deal"].deal == 2
    assert move["old_copy"] is not None and move["old_copy"].message_id == closed.id
    # The closed table and the new deal's table drawn once each; each seat's panel (a new hand) once.
    assert spy.drawn == {"closing": 1, "draw_table": 1, "draw_panel": 3}, spy.drawn
    old = next(m for m in channel.history() if m.id == closed.id)
    assert not old.components and old.embeds, "the old table shows the deal's result, without controls"
    posted = table_message(channel, env.bot.user.id)
    assert posted.id != closed.id
    for seat, person in by_seat.items():  # each live panel shows the new hand, below the new table
        assert len(panel_moves(live_panel(env, channel, person))) or seat not in table.engine.to_act()
    spy.start()  # the next press: one transaction, which carries the new message and the closed copy
    await _press(env, channel, table, by_seat)
    spy.on = False
    assert spy.transactions == ["record_action"], spy.transactions
    (carried,) = spy.moves
    assert carried["notes"].messages[table.id][0] == posted.id and carried["notes"].closed == {table.id: {closed.id}}
    assert await env.bot.store.old_copies() == [] and (await env.bot.store.get_game(table.id)).message_id == posted.id
    assert env.errors == []


async def test_a_sharded_bot_writes_the_new_tables_message_at_once(simcord_env, monkeypatch):
    """In a sharded bot another process may read a table's message, so nothing waits in memory for
    the next move: the new deal's table message is written as soon as Discord numbers it, with the
    closed copy forgotten in the same write, a transaction after the move's."""
    env = simcord_env
    env.bot.tables.presenter.notes = None  # as the table manager sets it where the settings shard
    channel, table, by_seat, spy, closed = await _deal_ending_press(env, monkeypatch)
    assert spy.transactions == ["record_action", "set_message"], spy.transactions
    (move,) = spy.moves
    assert move["notes"] is None and move["old_copy"] is not None and move["old_copy"].message_id == closed.id
    posted = table_message(channel, env.bot.user.id)
    assert posted.id != closed.id
    assert (await env.bot.store.get_game(table.id)).message_id == posted.id
    assert await env.bot.store.old_copies() == []
    assert env.errors == []


async def test_a_game_ending_press_is_one_transaction_and_draws_the_closing_table_once(simcord_env, monkeypatch):
    env = simcord_env
    channel, table, by_seat = await _table(env)
    spy = Spy(monkeypatch, env.bot, type(table.kind))
    while not table.engine.is_over:  # the last deal's last card (after a tie's extra deal, if any)
        await _to_deal_end(env, channel, table, by_seat)
        closed = table_message(channel, env.bot.user.id)
        spy.start()
        await _press(env, channel, table, by_seat)
        spy.on = False
    # The move with the results, the ratings and the closed table: one transaction. The standings
    # shown (and the closed copy forgotten) are noted for the next write, or found after a crash.
    assert spy.transactions == ["record_action"], spy.transactions
    (move,) = spy.moves
    assert move["results"] and move["deal_scores"]
    # the ratings it moved are written with it (the stats rate it before the commit)
    assert move["ratings"] is not None and {c.game_id for c in move["ratings"].changes} == {table.id}
    assert await env.bot.store.finished_games(channel.guild.id, "ohhell", unrated_only=True) == []
    assert move["old_copy"] is not None and move["old_copy"].message_id == closed.id
    assert spy.drawn == {"closing": 1, "draw_panel": 3}, spy.drawn
    assert any("Game over" in (m.content or "") for m in channel.history())
    notes = env.bot.tables.presenter.notes
    assert table.id in notes.finales and notes.closed == {table.id: {closed.id}}
    await env.bot.tables.presenter.close()  # a stop writes them (one transaction)
    assert await env.bot.store.old_copies() == [] and await env.bot.store.unshown_finales() == []
    assert env.errors == []


async def test_a_stop_right_after_the_deal_ending_move_leaves_the_whole_deal_end(simcord_env, monkeypatch, new_bot):
    """Stopped after the commit, before anything was shown: the restarted bot finds the move, the
    deal's scores, the next deal's deck and the table still to close, closes it and posts the
    new deal's table, and the game goes on."""
    env = simcord_env
    channel, table, by_seat = await _table(env)
    await _to_deal_end(env, channel, table, by_seat)
    closed = table_message(channel, env.bot.user.id)
    presenter = env.bot.tables.presenter

    async def stopped(*args: Any, **kwargs: Any) -> bool:  # the process ends before it shows anything
        return False

    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(presenter, "show_move", stopped)
    monkeypatch.setattr(presenter.panels, "redraw", nothing)
    person = by_seat[table.engine.to_act()[0]]
    panel = live_panel(env, channel, person)
    await person.click(panel, custom_id=next(iter(panel_moves(panel).values())))
    store = env.bot.store
    stored = await store.get_game(table.id)
    assert len(stored.actions) == table.engine.action_count
    assert {d.deal for d in await store.deal_scores(table.id)} == {1}
    assert [d.deal for d in await store.deals(table.id)][-1] == 2
    assert [c.message_id for c in await store.old_copies()] == [closed.id]
    assert next(m for m in channel.history() if m.id == closed.id).components, "nothing was shown"
    old = env.bot
    await env.restart_bot(new_bot())
    await old.close()
    await env.settle()
    assert not next(m for m in channel.history() if m.id == closed.id).components, "closed after the restart"
    assert table_message(channel, env.bot.user.id).id != closed.id, "the new deal's table is posted"
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert table.engine.deal_number == 2
    for person in by_seat.values():
        await open_hand(person, channel, env.bot.user.id)
    await _press(env, channel, table, by_seat)
    # (the copy closed, and the new table's message, are written with the next move)
    assert await env.bot.store.old_copies() == []
    stored = await env.bot.store.get_game(table.id)
    assert stored.message_id == table_message(channel, env.bot.user.id).id
    while not table.engine.is_over:
        await _press(env, channel, table, by_seat)
    assert env.errors == []


async def test_a_stop_before_the_deal_ending_move_is_committed_leaves_none_of_it(simcord_env, monkeypatch, new_bot):
    """The commit fails (the disk is full, then the bot stops): nothing of the deal's end is
    stored (no move, scores, deck or table to close), and after the restart the same card ends
    the deal."""
    env = simcord_env
    channel, table, by_seat = await _table(env)
    await _to_deal_end(env, channel, table, by_seat)
    store = env.bot.store
    count = len((await store.get_game(table.id)).actions)
    decks = len(await store.deals(table.id))
    fault = DiskFull(store, "COMMIT", monkeypatch)
    person = by_seat[table.engine.to_act()[0]]
    panel = live_panel(env, channel, person)
    failed = await press(person, panel, next(iter(panel_moves(panel))))
    assert fault.hits == 1 and "not saved" in (warning_of(failed) or "")
    assert len((await store.get_game(table.id)).actions) == count
    assert await store.deal_scores(table.id) == [] and len(await store.deals(table.id)) == decks
    assert await store.old_copies() == []
    monkeypatch.undo()  # (the spy-free store again, for the restarted bot's own)
    old = env.bot
    await env.restart_bot(new_bot())
    await old.close()
    await env.settle()
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert table.engine.deal_number == 1 and _ends_deal_next(table)
    for person in by_seat.values():
        await open_hand(person, channel, env.bot.user.id)
    await _press(env, channel, table, by_seat)
    assert table.engine.deal_number == 2
    assert {d.deal for d in await env.bot.store.deal_scores(table.id)} == {1}
    assert env.errors == []


async def test_every_press_beside_a_computer_and_a_spectator(simcord_env, monkeypatch):
    """Where the features meet, through a whole game: the computer's moves that a person's press
    sets off are moves of their own, each one transaction of its own (a deal-ending person's move
    carries the closed table; then the new table's message is one more); every deal's closing
    table is drawn once; the spectator's live view follows the game."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    options = {"fixed_hands": "2,1,1", "sequence": "fixed"}
    await open_table(env, channel, members[0], members[1:], preset="classic", options=options, computers=1)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(m.id): m for m in members}
    for member in members:
        await open_hand(member, channel, env.bot.user.id)
    spectator = guild.add_member(env.create_user("dee"))
    watching = await spectator.click(table_message(channel, env.bot.user.id), label="Watch")
    assert watching.ephemeral
    watchers = env.bot.tables.presenter.watchers
    spy = Spy(monkeypatch, env.bot, type(table.kind))
    followed = deal_ends = 0
    while not table.engine.is_over:
        if table.engine.to_act()[0] not in by_seat:
            await env.advance_time(1)  # the computer thinks (on the virtual clock) and moves
            continue
        deal, before, edits = table.engine.deal_number, table.engine.action_count, watchers.edits
        closed = table_message(channel, env.bot.user.id)
        spy.start()
        await _press(env, channel, table, by_seat)
        await env.advance_time(1)  # (the computers it sets off move)
        spy.on = False
        moves = table.engine.action_count - before
        followed += moves > 1
        assert watchers.edits > edits, "the spectator's view follows every press"
        assert [m.get("by_ai", False) for m in spy.moves] == [False] + [True] * (moves - 1), spy.moves
        if table.engine.is_over:
            break  # (the game's end: the other test)
        writes = Counter(spy.transactions)
        if table.engine.deal_number == deal:
            assert writes == {"record_action": moves}, spy.transactions
            assert all(m["old_copy"] is None for m in spy.moves)
            continue
        deal_ends += 1
        assert writes == {"record_action": moves}, spy.transactions
        ended = [m for m in spy.moves if m["old_copy"] is not None]
        assert len(ended) == 1 and ended[0]["old_copy"].message_id == closed.id
        assert spy.drawn["closing"] == 1, spy.drawn
    assert followed and deal_ends, (followed, deal_ends)
    await env.bot.tables.presenter.close()  # (the last closed copy's forgetting is written at the stop)
    assert await env.bot.store.old_copies() == []
    assert env.errors == []
