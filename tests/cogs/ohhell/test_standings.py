"""The final Oh Hell standings people read: the chart of the running totals as an image
and, when totals alone did not decide first place, how the tie was decided (the extra deals, or
the figure that separated equal totals, each tied player's figure shown)."""

from __future__ import annotations

from tests.helpers import OhHellDriver, bot_messages, open_hand, open_table, panel_moves, press, use_seed, warning_of


class FirstChoice(OhHellDriver):
    """Always makes the engine's first legal move (the lowest bid, the first legal card in the
    engine's order), pressing its button on the panel, so that a fixed deal plays out the same way
    every time."""

    async def step(self) -> bool:
        table = self.table()
        if table is None:
            return False
        engine = table.engine
        seat = engine.to_act()[0]
        actor = self.actors[table.seats[seat].user_id]
        panel = await open_hand(actor, self.channel, self.bot_id)
        first = engine.view(seat)["legal"][0]
        if first["type"] == "bid":
            value = str(first["bid"])
        else:
            value = f"{first['card']}@{first['suit']}" if first.get("suit") else first["card"]
        assert value in panel_moves(panel)
        pressed = await press(actor, panel, value)
        assert pressed.acknowledged and warning_of(pressed) is None, pressed
        return True


async def _play(env, monkeypatch, seed: int, ties: str):
    use_seed(monkeypatch, seed)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    options = {"fixed_hands": "3,2", "ties": ties}
    await open_table(env, channel, people[0], people[1:], preset="classic", options=options)
    table = env.bot.tables.in_channel(channel.id)
    await FirstChoice(env, channel, {p.id: p for p in people}).play_to_end()
    final = [m for m in bot_messages(channel, env.bot.user.id) if "Game over" in (m.content or "")][-1]
    embed = final.embeds[0]
    assert embed.image.url == "attachment://scores.png"
    assert [a.filename for a in final.attachments] == ["scores.png"]  # the chart of the running totals
    return table, embed


async def test_standings_say_which_extra_deals_settled_a_tie(simcord_env, monkeypatch):
    table, embed = await _play(simcord_env, monkeypatch, 9, "extra-hand")
    kinds = [h["kind"] for h in table.engine.view(None)["history"]]
    assert kinds == ["normal", "normal", "extra", "extra", "extra"]
    tie = next(f for f in embed.fields if f.name == "Tie-breaker")
    assert tie.value == "bob and cat were tied for first on 0 after deal 2: 3 extra deals decided it."


async def test_standings_say_what_separated_equal_totals(simcord_env, monkeypatch):
    table, embed = await _play(simcord_env, monkeypatch, 0, "misere-tiebreak")
    standings = table.engine.standings()
    first, second = standings[0], standings[1]
    assert first["total"] == second["total"] and first["decided_by"] == "play-off 1"
    tie = next(f for f in embed.fields if f.name == "Tie-breaker")
    names = {0: "ann", 1: "bob", 2: "cat"}
    assert tie.value == (
        f"{names[first['seat']]} and {names[second['seat']]} tied on {first['total']}; their scores in play-off "
        f"deal 1 decided first place ({names[first['seat']]} {first['playoff'][0]:+d}, "
        f"{names[second['seat']]} {second['playoff'][0]:+d})."
    )
