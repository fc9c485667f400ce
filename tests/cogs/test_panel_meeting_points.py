"""Issue 22 (items 1-4) and issue 24 (item 1): where the live private panel meets the Devil's
Bridge, a second copy of itself, the other players' moves, the end of the game and a new deal's
table. Every check plays through SimCord as the players would."""

from __future__ import annotations

import pytest

from tests.helpers import message_text, open_hand, open_table, panel_moves, press, walk_components


async def three_at_a_table(env, **options: str):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="classic", options=options)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    return channel, people, table, by_seat


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_devils_bridge_deal_is_played_through_the_panel(simcord_env):
    """Issue 22.1: the one legal play of a Devil's Bridge deal (the hidden card, blind) has its
    button on the panel; pressing it plays the card, and the game ends (no turn timer)."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="1", sequence="fixed", devils_bridge="on")
    assert table.engine.view(None)["devils_bridge"]
    bot_id = env.bot.user.id
    panels = {p.id: await open_hand(p, channel, bot_id) for p in people}
    played = 0
    for _ in range(40):
        if table.engine.is_over:
            break
        seat = table.engine.to_act()[0]
        person = by_seat[seat]
        panel = panels[person.id]
        moves = panel_moves(panel)
        view = table.engine.view(seat)
        if view["phase"] == "playing" and view["devils_bridge"]:
            assert list(moves) == ["?"], f"the blind play has no button:\n{message_text(panel)}"
            button = next(c for c in walk_components(panel.components) if c.get("custom_id") == moves["?"])
            assert button["label"] == "Your hidden card" and not button.get("emoji"), button  # names no card
            result = await press(person, panel, "?")
            played += 1
        else:
            result = await press(person, panel, next(iter(moves)))
        assert "⚠️" not in message_text(result.response), message_text(result.response)
        panels[person.id] = result.response
    assert table.engine.is_over and played >= 3
