"""The slash commands around a game, and the dealer's hook as a player meets it in the bid form."""

from __future__ import annotations

from tests.helpers import (
    OhHellDriver,
    message_text,
    open_hand,
    open_table,
    panel_disabled,
    panel_moves,
    press,
    walk_components,
    warning_of,
)


async def _table(env, options, names=("ann", "bob", "cat"), preset="classic"):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in names]
    await open_table(env, channel, people[0], people[1:], preset=preset, options=options)
    return channel, people, env.bot.tables.in_channel(channel.id)


async def test_the_hooked_bid_is_shown_unavailable_with_its_reason(simcord_env):
    env = simcord_env
    # Seed 004's example: three players, five cards; bids 2 and 1, so the dealer may not bid 2.
    channel, people, table = await _table(env, {"fixed_hands": "5", "sequence": "fixed"})
    by_id = {p.id: p for p in people}
    for bid in ("2", "1"):
        seat = table.engine.to_act()[0]
        actor = by_id[table.seats[seat].user_id]
        panel = await open_hand(actor, channel, env.bot.user.id)
        assert "⛔" not in message_text(panel) and not panel_disabled(panel)
        assert warning_of(await press(actor, panel, bid)) is None
    dealer = table.engine.to_act()[0]
    assert dealer == table.engine.view(None)["dealer"]
    panel = await open_hand(by_id[table.seats[dealer].user_id], channel, env.bot.user.id)
    assert list(panel_moves(panel)) == ["0", "1", "3", "4", "5"]
    assert panel_disabled(panel) == ["2"], "the forbidden bid is shown, greyed out"
    assert "⛔ The dealer may not bid 2: the bids would total the 5 tricks." in message_text(panel)


async def test_scores_rules_and_hand_commands(simcord_env):
    env = simcord_env
    channel, people, table = await _table(env, {"fixed_hands": "2,1", "sequence": "fixed", "scoring": "square"})
    rules = await people[1].slash(channel, "ohhell rules")
    assert rules.ephemeral and "10 + bid²" in rules.response.embeds[0].description
    hand = await people[2].slash(channel, "ohhell hand")  # the live panel, as My hand opens it
    assert hand.ephemeral and hand.response.embeds[0].title.startswith("Your hand")
    assert any((c.get("custom_id") or "").startswith("ohp:") for c in walk_components(hand.response.components))
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=9)
    while table.engine.view(None)["deal"] == 1:
        await driver.step()
    scores = await people[0].slash(channel, "ohhell scores")
    assert scores.ephemeral
    board = scores.response.embeds[0]
    sheet = board.description.splitlines()
    assert any(line.startswith("**1** (2 cards):") for line in sheet), sheet  # deal 1, of 2 cards
    totals = table.engine.view(None)["totals"]
    names = [table.name(s) for s in range(len(totals))]
    assert sheet[-1] == "**Total**: " + " · ".join(f"{n} **{t}**" for n, t in zip(names, totals, strict=True)), sheet
    await driver.play_to_end()
    after = await people[0].slash(channel, "ohhell scores")
    results = await env.bot.store.results(table.id)
    assert all(f"**{r.total}**" in after.response.embeds[0].description for r in results)
    preset_rules = await people[0].slash(channel, "ohhell rules", preset="spades")
    assert "spades" in preset_rules.response.embeds[0].description.lower()


async def test_lobby_controls(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    lobby = (await ann.slash(channel, "ohhell new", preset="bowers")).response
    assert (await bob.click(lobby, label="Start")).response.content.endswith("Only the host can do that.")
    too_few = await ann.click(lobby, label="Start")
    assert too_few.ephemeral and "2 to 5 players" in too_few.response.content
    refused = await ann.slash(channel, "ohhell set", option="bidding", value="simultaneous")
    assert refused.ephemeral and "hook" in refused.response.content
    wrong = await ann.slash(channel, "ohhell set", option="colour", value="blue")
    assert wrong.ephemeral and "no rule called" in wrong.response.content
    await bob.click(lobby, label="Join")
    assert (await bob.click(lobby, label="Join")).response.content.endswith("You are already at this table.")
    await cat.click(lobby, label="Join")
    await cat.click(lobby, label="Leave")
    for _ in range(3):
        await ann.click(lobby, label="Add computer")
    full = await ann.click(lobby, label="Add computer")
    assert full.ephemeral and "full" in full.response.content
    await ann.click(lobby, label="Remove computer")
    table = env.bot.tables.in_channel(channel.id)
    assert [s.name for s in table.seats][:2] == ["ann", "bob"] and len(table.seats) == 4
    stored = await env.bot.store.get_game(table.id)
    assert [s.name for s in stored.seats] == [s.name for s in table.seats]
    cancelled = await ann.click(lobby, label="Cancel")
    assert not cancelled.ephemeral
    assert env.bot.tables.in_channel(channel.id) is None
    assert (await env.bot.store.get_game(table.id)).status == "cancelled"


async def test_cardstats_counts_finished_games_per_member(simcord_env):
    env = simcord_env
    channel, people, table = await _table(env, {"fixed_hands": "1", "sequence": "fixed"})
    empty = await people[0].slash(channel, "cardstats")
    assert "No finished games" in empty.response.embeds[0].description
    await OhHellDriver(env, channel, {p.id: p for p in people}, seed=4).play_to_end()
    results = {r.user_id: r for r in await env.bot.store.results(table.id)}
    for person in people:
        shown = await people[0].slash(channel, "cardstats", member=person)
        field = shown.response.embeds[0].fields[0]
        won = 1 if results[person.id].place == 1 else 0
        assert field.name == "Oh Hell" and field.value.startswith(f"1 played · {won} won")
        assert f"best total {results[person.id].total}" in field.value
