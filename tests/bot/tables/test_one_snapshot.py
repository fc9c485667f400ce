"""One snapshot a move. With every player's panel open, one card press (everything it
sets off: its answer, the redraw of the open panels, the display's edit of the table) builds at
most one public view and one view per seat, and renders the table message once; and the notices
a move's events leave on the table are shown once."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.ohhell.game import OhHell
from games.shithead.game import Shithead
from tests.helpers import (
    ShitheadDriver,
    _quick_play,
    _sensible,
    live_panel,
    open_hand,
    open_table,
    panel_moves,
    press,
    table_message,
    use_seed,
)


class Count:
    """Counts, while :attr:`on`, the engine views built (by viewer) and the table renders."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, engine: type, kind: type) -> None:
        self.on = False
        self.views: Counter[int | None] = Counter()
        self.renders = 0
        view, table = engine.view, kind.table

        def counted_view(game: Any, seat: Any) -> Any:
            if self.on:
                self.views[seat] += 1
            return view(game, seat)

        def counted_table(this: Any, live: Any, events: Any) -> Any:
            if self.on:
                self.renders += 1
            return table(this, live, events)

        monkeypatch.setattr(engine, "view", counted_view)
        monkeypatch.setattr(kind, "table", counted_table)


@pytest.mark.parametrize("watched", [False, True], ids=["players", "and a spectator"])
async def test_an_oh_hell_card_press_builds_each_view_once_and_renders_the_table_once(
    simcord_env, monkeypatch, watched
):
    """(Watched: the spectator's view, which shows bob's hand, is redrawn from the same views
    and the same rendering of the table.)"""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="classic")
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    watchers = env.bot.tables.presenter.watchers
    if watched:
        await people[1].slash(channel, "ohhell spectators", hand="show")
        spectator = guild.add_member(env.create_user("dee"))
        shown = await spectator.click(table_message(channel, env.bot.user.id), label="Watch")
        assert shown.ephemeral and "You are watching" in shown.response.content
    count = Count(monkeypatch, OhHell, type(table.kind))
    by_seat = {table.seat_of(p.id): p for p in people}
    for person in people:  # every panel open
        await open_hand(person, channel, env.bot.user.id)
    while table.engine.view(None)["phase"] == "bidding":
        person = by_seat[table.engine.to_act()[0]]
        await press(person, live_panel(env, channel, person), next(iter(panel_moves(live_panel(env, channel, person)))))
    person = by_seat[table.engine.to_act()[0]]
    panel = live_panel(env, channel, person)
    card = next(iter(panel_moves(panel)))
    shown_before = table_message(channel, env.bot.user.id).embeds[0].to_dict()
    edits = watchers.edits
    count.on = True
    await press(person, panel, card)
    await env.settle()
    count.on = False
    assert table.engine.view(None)["trick"], "the card was played"
    assert watchers.edits == edits + watched  # the spectator's view was redrawn
    assert count.views == {None: 1, 0: 1, 1: 1, 2: 1}, count.views
    assert count.renders == 1
    assert table_message(channel, env.bot.user.id).embeds[0].to_dict() != shown_before  # the table shows it


async def test_a_shithead_play_builds_each_view_once_and_renders_the_table_once(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], command="shithead")
    driver = ShitheadDriver(env, channel, {p.id: p for p in people}, watch=False)
    table = driver.live
    count = Count(monkeypatch, Shithead, type(table.kind))
    for seat in range(3):  # every panel open
        await driver.open_panel(seat)
    for _ in range(200):
        engine = driver.engine
        seat = engine.to_act()[0]
        view = engine.view(seat)
        action = _sensible(view, view["action_count"])
        panel = driver.panels[seat]
        quick = _quick_play(panel, action["cards"]) if action["type"] == "play" else None
        if view["phase"] == "play" and quick is not None:
            break
        await driver.act(seat, action, panel=panel)
    else:
        raise AssertionError("no play with one press came up")
    actor = driver.actors[table.seats[seat].user_id]
    before = engine.action_count
    count.on = True
    await actor.click(panel, custom_id=quick)
    await env.settle()
    count.on = False
    assert driver.engine.action_count == before + 1
    assert sum(count.views.values()) <= 1 + 3 and max(count.views.values()) == 1, count.views
    assert count.renders == 1


async def test_an_extra_deal_is_noted_once_on_the_table(simcord_env, monkeypatch):
    """The note a move's events leave (a tie sends the game to an extra deal) is on the new
    table once, however often the table is drawn."""

    use_seed(monkeypatch, 9)  # (tests/cogs/ohhell/test_standings.py: this deal ties bob and cat after deal 2)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    options = {"fixed_hands": "3,2", "ties": "extra-hand"}
    await open_table(env, channel, people[0], people[1:], preset="classic", options=options)
    table = env.bot.tables.in_channel(channel.id)
    actors = {p.id: p for p in people}
    while table.engine.view(None)["deal_kind"] == "normal":
        seat = table.engine.to_act()[0]
        actor = actors[table.seats[seat].user_id]
        first = table.engine.view(seat)["legal"][0]
        value = str(first["bid"]) if first["type"] == "bid" else first["card"]
        await press(actor, await open_hand(actor, channel, env.bot.user.id), value)
    await env.settle()
    shown = table_message(channel, env.bot.user.id)
    notes = [f.value for f in shown.embeds[0].fields if f.name == "Notes"]
    assert len(notes) == 1 and notes[0].count("tie on 0: one more deal") == 1, notes
    assert table.notices == [notes[0]]
