"""The interaction kit: the rules around a press on a player's panel and on **My hand**
are the runtime's (:mod:`bot.tables.interaction`), so each test here runs the same steps in both games
and expects the same answers. Played through SimCord as the players would.

- a press from a panel drawn before a change is refused and answered with the panel redrawn;
- the same control pressed again (on another copy drawn from the same state) says "counted (once)",
  while another button of that older copy gets the warning;
- a member who is not playing gets the one guard's answer, at My hand, at ``/<game> hand``, at a
  panel's press and at Take my seat back;
- a press while the computer plays the seat is refused and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from bot.messages.errors import Refusal
from bot.seam.contract import NOT_PLAYING, Press
from bot.tables.interaction import COMPUTER_PLAYS, press
from tests.helpers import (
    OhHellDriver,
    ShitheadDriver,
    message_text,
    move_ids,
    open_table,
    refuse_pointer_edits,
    table_message,
)

GAMES = ["ohhell", "shithead"]


@dataclass
class Seated:
    """Three people at one game's table, each moving with one press on their own panel."""

    env: Any
    game: str
    channel: Any
    people: list[Any]
    table: Any
    driver: Any

    def person(self, seat: int) -> Any:
        return next(p for p in self.people if self.table.seat_of(p.id) == seat)

    async def open(self, seat: int) -> Any:
        """The table's **My hand** / **My cards** for ``seat``: the panel it answers with."""
        button = self.table.kind.hand_button
        shown = await self.person(seat).click(table_message(self.channel, self.env.bot.user.id), label=button)
        assert shown.response is not None and shown.response.ephemeral, shown
        return shown.response

    async def step(self) -> None:
        assert await self.driver.step()

    def playing(self) -> bool:
        """Past the bids (Oh Hell) or the swaps (Shithead): a turn is a card to play."""
        return self.table.engine.view(None)["phase"] in ("playing", "play")


async def seated(env, monkeypatch, game: str, **options: str) -> Seated:
    from tests.cogs.shithead.test_games import use_seed

    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    actors = {p.id: p for p in people}
    if game == "ohhell":
        options = {"fixed_hands": "3", "sequence": "fixed", **options}
        await open_table(env, channel, people[0], people[1:], preset="classic", options=options)
        table = env.bot.tables.in_channel(channel.id, game)
        driver: Any = OhHellDriver(env, channel, actors, seed=3)
    else:
        use_seed(monkeypatch, 4)
        await open_table(env, channel, people[0], people[1:], command="shithead", options=options)
        table = env.bot.tables.in_channel(channel.id, game)
        driver = ShitheadDriver(env, channel, actors, watch=False)
    return Seated(env, game, channel, people, table, driver)


@pytest.mark.parametrize("game", GAMES)
async def test_an_older_panel_counts_the_same_press_once_and_refuses_any_other(simcord_env, monkeypatch, game):
    """One rule in both games: My hand opened four times (the older copies keep their
    buttons, as when the bot's edit into a pointer fails or races the press), a move made on the
    newest. The same control pressed on an older copy did count, once; another button of an older
    copy changes nothing and says the table moved on (never "counted"); and at the player's next
    turn a press on the oldest copy is refused the same way, with the panel redrawn as it is now."""
    env = simcord_env
    at = await seated(env, monkeypatch, game)
    while not at.playing():
        await at.step()
    seat = at.table.engine.to_act()[0]
    player = at.person(seat)
    oldest = await at.open(seat)
    refuse_pointer_edits(env, times=3)
    twin, sibling, newest = [await at.open(seat) for _ in range(3)]
    first, second = move_ids(oldest)[:2]
    assert all(move_ids(copy)[:2] == [first, second] for copy in (twin, sibling, newest)), "drawn from one state"
    moves = len(at.table.engine.log)
    await player.click(newest, custom_id=first)
    assert len(at.table.engine.log) == moves + 1
    again = await player.click(twin, custom_id=first)  # the same press: it did count, once
    assert "counted (once)" in message_text(again.response), message_text(again.response)
    other = await player.click(sibling, custom_id=second)  # another button of an older copy
    text = message_text(other.response)
    assert "counted" not in text and "moved on" in text and "nothing was changed" in text, text
    assert len(at.table.engine.log) == moves + 1
    for _ in range(30):  # the others move until the player's next turn
        if at.table.engine.to_act() == [seat]:
            break
        await at.step()
    assert at.table.engine.to_act() == [seat]
    moves = len(at.table.engine.log)
    late = await player.click(oldest, custom_id=second)
    text = message_text(late.response)
    assert "counted" not in text and "moved on" in text and "nothing was changed" in text, text
    assert late.response.embeds and move_ids(late.response), "answered with the panel, redrawn as it is now"
    assert len(at.table.engine.log) == moves and at.table.engine.to_act() == [seat], "nothing was played"


@pytest.mark.parametrize("game", GAMES)
async def test_a_member_who_is_not_playing_gets_the_one_guards_answer(simcord_env, monkeypatch, game):
    """At the table's My hand, at ``/<game> hand`` and at a panel's press: the same words. (A panel
    is private, so a stranger cannot click one in SimCord; the press is handed to the runtime's
    pipeline directly, as the panel's dynamic item would.)"""
    env = simcord_env
    at = await seated(env, monkeypatch, game)
    stranger = at.channel.guild.add_member(env.create_user("eve"))
    button = at.table.kind.hand_button
    refused = await stranger.click(table_message(at.channel, env.bot.user.id), label=button)
    assert refused.ephemeral and NOT_PLAYING in refused.response.content, refused.response.content
    typed = await stranger.slash(at.channel, f"{game} hand")
    assert typed.ephemeral and NOT_PLAYING in typed.response.content, typed.response.content
    seat = at.table.engine.to_act()[0]
    panel = await at.open(seat)
    custom_id = move_ids(panel)[0]
    key = custom_id.split(":")[2]
    knock = SimpleNamespace(client=env.bot, user=SimpleNamespace(id=stranger.id))
    moves = len(at.table.engine.log)
    with pytest.raises(Refusal, match=NOT_PLAYING):
        await press(knock, at.table.id, Press(key, custom_id.split(":")[3]))  # type: ignore[arg-type]
    assert len(at.table.engine.log) == moves


@pytest.mark.parametrize("game", GAMES)
async def test_a_press_while_the_computer_plays_the_seat_is_refused(simcord_env, monkeypatch, game):
    """The player's time ran out and the computer plays their seat: a move pressed on a copy of
    their panel drawn before that (its pointer edit failed, so it kept its buttons) is refused with
    the panel redrawn, saying to take the seat back, and moves nothing."""
    env = simcord_env
    at = await seated(env, monkeypatch, game, turn_timer="1m")
    while not at.playing():
        await at.step()
    seat = at.table.engine.to_act()[0]
    player = at.person(seat)
    kept = await at.open(seat)
    refuse_pointer_edits(env)
    await at.open(seat)  # the live copy: the bot redraws this one when the computer takes over
    await env.advance_time(61)
    assert at.table.seats[seat].ai_level is not None, "the computer plays the seat"
    await env.settle()
    moves = list(at.table.engine.log)
    late = await player.click(kept, custom_id=move_ids(kept)[0])
    text = message_text(late.response)
    assert COMPUTER_PLAYS in text and "Take my seat back" in text, text
    assert late.response.embeds and not move_ids(late.response), "the panel redrawn, without moves"
    assert list(at.table.engine.log) == moves, "nothing was played"
    # and Take my seat back, which the table now carries, is the player's door too
    stranger = at.channel.guild.add_member(env.create_user("eve"))
    refused = await stranger.click(table_message(at.channel, env.bot.user.id), label="Take my seat back")
    assert refused.ephemeral and NOT_PLAYING in refused.response.content, refused.response.content
    typed = await stranger.slash(at.channel, f"{game} back")
    assert typed.ephemeral and NOT_PLAYING in typed.response.content, typed.response.content
    assert at.table.seats[seat].ai_level is not None
