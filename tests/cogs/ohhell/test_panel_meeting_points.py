"""Where the live private panel meets the rest of the game, as a player meets it: the Devil's
Bridge, a second copy of itself, the other players' moves, the end of the game and a new deal's
table. Every check plays through SimCord as the players would."""

from __future__ import annotations

import pytest

from tests.helpers import (
    current_message,
    live_panel,
    make_bot,
    message_text,
    move_ids,
    open_hand,
    open_table,
    panel_moves,
    press,
    table_message,
    walk_components,
)


async def three_at_a_table(env, **options: str):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="classic", options=options)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    return channel, people, table, by_seat


async def test_a_devils_bridge_deal_is_played_through_the_panel(simcord_env):
    """The one legal play of a Devil's Bridge deal (the hidden card, blind) has its
    button on the panel; pressing it plays the card, and the game ends (no turn timer)."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="1", sequence="fixed", devils_bridge="on")
    assert table.engine.view(None)["devils_bridge"]
    bot_id = env.bot.user.id
    for person in people:
        await open_hand(person, channel, bot_id)
    played = 0
    for _ in range(40):
        if table.engine.is_over:
            break
        seat = table.engine.to_act()[0]
        person = by_seat[seat]
        panel = live_panel(env, channel, person)
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
    assert table.engine.is_over and played >= 3


# (an older copy of the panel: the same press counts once, any other says the table
# moved on) is one rule of the runtime for every game: tests/bot/tables/test_interaction.py.


@pytest.mark.parametrize("game", ["ohhell", "shithead"])
async def test_after_the_last_card_a_refused_standings_post_promises_the_standings_only(simcord_env, monkeypatch, game):
    """The game is over and the standings may not be posted (a missing permission).
    The one line in the channel names the permission and says the standings will follow: no
    "The game goes on", no "/<game> table" (there is no table any more). Then they do follow."""
    from tests.bot.messages.test_display import _oh_hell, inject, texts
    from tests.cogs.shithead.test_games import seat_table, use_seed
    from tests.helpers import OhHellDriver, ShitheadDriver

    env = simcord_env
    if game == "ohhell":
        channel, people, table = await _oh_hell(
            env, monkeypatch, computers=2, names=("ann",), options={"fixed_hands": "1", "sequence": "fixed"}
        )
        driver = OhHellDriver(env, channel, {people[0].id: people[0]}, seed=1)
    else:
        use_seed(monkeypatch, 4)
        monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)
        _, channel, people = await seat_table(env, ["ann"], computers=2)
        table = env.bot.tables.in_channel(channel.id, "shithead")
        driver = ShitheadDriver(env, channel, {people[0].id: people[0]}, watch=False)
    refused = inject(
        env,
        monkeypatch,
        "403",
        "POST",
        f"/channels/{channel.id}/messages",
        times=1000,
        when=lambda b: "Game over" in str(b),
    )
    for _ in range(3000):
        if table.engine.is_over:
            break
        await driver.step()
    await env.advance_time(5)
    assert table.engine.is_over
    over = sum("Game over" in t for t in texts(channel))  # (Shithead's closed table says it too)
    told = [t for t in texts(channel) if "permission" in t]
    assert len(told) == 1, told
    assert "**Send Messages" in told[0] and "standings" in told[0] and "follow" in told[0], told[0]
    assert "goes on" not in told[0] and f"/{game}" not in told[0] and "catches up" not in told[0], told[0]
    refused[0] = 0  # the permission is given: the standings follow by themselves
    await env.advance_time(400)
    await env.settle()
    assert sum("Game over" in t for t in texts(channel)) == over + 1, "the standings, once"


def present_tense_lies(text: str, table) -> list[str]:
    """The lines of a panel that describe the table *now* (whom it waits for, the trick, the pile)
    and do not match it any more."""
    from cogs.ohhell.render import _trick_text
    from cogs.shithead.render import pile_text

    view = table.engine.view(None)
    waited = {table.name(s) for s in table.engine.to_act()}
    lies = []
    for line in text.splitlines():
        if "Waiting for " in line:
            named = line.split("Waiting for ", 1)[1].rstrip(".").split(", ")
            if set(named) != waited:
                lies.append(f"{line!r} (the table waits for {sorted(waited)})")
        elif line.startswith("Trick so far: ") and line != f"Trick so far: {_trick_text(view['trick'], table.name)}":
            lies.append(f"{line!r} (the trick is {view['trick']})")
        elif line.startswith("Pile: ") and line != pile_text(view).split("\n")[0]:
            lies.append(f"{line!r} (the pile is {pile_text(view)})")
    return lies


async def test_a_waiting_oh_hell_panel_never_names_someone_who_already_played(simcord_env):
    """After every move, each open panel says nothing about the table now (whom it
    waits for, the trick so far) that is no longer so."""
    from tests.helpers import OhHellDriver, current_message

    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="3,2", sequence="fixed")
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=3)
    for person in people:
        await driver.panel_of(person)
    while await driver.step():
        if table.engine.is_over:
            break
        for person in people:
            panel = current_message(env, channel, driver.panels[person.id])
            lies = present_tense_lies(message_text(panel), table)
            assert not lies, f"{person.name}'s panel: {lies}"


async def test_a_waiting_shithead_panel_never_names_someone_who_already_played(simcord_env, monkeypatch):
    """Shithead: the same, over a whole game (the swap phase's "ready" line too)."""
    from tests.cogs.shithead.test_games import use_seed
    from tests.helpers import ShitheadDriver, current_message

    use_seed(monkeypatch, 4)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("palace")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], command="shithead")
    table = env.bot.tables.in_channel(channel.id, "shithead")
    driver = ShitheadDriver(env, channel, {p.id: p for p in people}, watch=False)
    for seat in range(3):
        await driver.open_panel(seat)
    for _ in range(3000):
        if not await driver.step() or table.engine.is_over:
            break
        for seat, message in driver.panels.items():
            panel = current_message(env, channel, message.id)
            lies = present_tense_lies(message_text(panel), table)
            assert not lies, f"{table.name(seat)}'s panel: {lies}"


# -- the panel where the player looks -----------------------------------------------------------
def panels_seen(channel, person, bot_id: int) -> list:
    """The bot's private messages to ``person`` in the channel (panels and their old copies), oldest first."""
    return [m for m in channel.history(viewer=person) if m.flags.ephemeral and m.author.id == bot_id]


def is_live_panel(message) -> bool:
    return any((c.get("custom_id") or "").startswith("ohp:") for c in walk_components(message.components))


def check_one_live_panel_below_the_table(channel, people, table, bot_id: int) -> None:
    """Each player's live panel is their newest private message, below the newest table; every
    older copy holds no move button and says where the live one is."""
    for person in people:
        seen = [m for m in panels_seen(channel, person, bot_id) if m.embeds or "Your hand" in (m.content or "")]
        live = [m for m in seen if is_live_panel(m)]
        assert len(live) == 1, f"{person.name} has {len(live)} live panels"
        assert live[0].id > table.record.message_id, f"{person.name}'s panel is above the newest table"
        for old in seen:
            if old is not live[0]:
                assert not move_ids(old) and "below" in (old.content or ""), old.content


async def test_after_every_new_deal_each_open_panel_is_below_the_newest_table(simcord_env):
    """Each player opens My hand once (one of them twice, by mistake); after every
    new deal their one live panel is below the newest table, the copies above say it moved."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="3,2,1", sequence="fixed")
    bot_id = env.bot.user.id
    for person in people:
        await open_hand(person, channel, bot_id)
    again = await open_hand(people[0], channel, bot_id)  # pressed twice: the first copy points below
    check_one_live_panel_below_the_table(channel, people, table, bot_id)
    deals = 1
    while not table.engine.is_over:
        seat = table.engine.to_act()[0]
        person = by_seat[seat]
        panel = next(m for m in reversed(panels_seen(channel, person, bot_id)) if is_live_panel(m))
        deal = table.engine.deal_number
        result = await press(person, panel, next(iter(panel_moves(panel))))
        assert "⚠️" not in message_text(result.response), message_text(result.response)
        if table.engine.deal_number != deal and not table.engine.is_over:
            deals += 1
            await env.settle()
            check_one_live_panel_below_the_table(channel, people, table, bot_id)
    assert deals >= 3
    assert again.id in [m.id for m in panels_seen(channel, people[0], bot_id)]


async def play_until(env, channel, table, by_seat, done) -> None:
    """Each player to act presses the first move of their live panel until ``done()``."""
    while not done():
        person = by_seat[table.engine.to_act()[0]]
        panel = live_panel(env, channel, person)
        result = await press(person, panel, next(iter(panel_moves(panel))))
        assert "⚠️" not in message_text(result.response), message_text(result.response)


async def test_a_panel_in_a_dm_stays_there_and_the_others_follow_the_new_table(simcord_env):
    """Where the panel meets the DM: the panel opened from the DM is redrawn there (nothing is
    posted in a DM, so it is in view); the channel gets no copy of it."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="2,1", sequence="fixed")
    bot_id = env.bot.user.id
    ann, bob, cat = people
    dm = bob.user.dm_channel
    in_dm = (await bob.user.click(dm.last_message, label="My hand")).response
    for person in (ann, cat):
        await open_hand(person, channel, bot_id)

    async def move() -> None:
        person = by_seat[table.engine.to_act()[0]]
        where = dm if person is bob else channel
        panel = live_panel(env, where, person.user if person is bob else person)
        clicker = person.user if person is bob else person
        await clicker.click(panel, custom_id=next(iter(panel_moves(panel).values())))

    while table.engine.deal_number == 1:
        await move()
    await env.settle()
    check_one_live_panel_below_the_table(channel, [ann, cat], table, bot_id)
    assert panels_seen(channel, bob, bot_id) == [], "no copy of bob's DM panel in the channel"
    now = live_panel(env, dm, bob.user)
    assert now is not None and now.id == in_dm.id and "deal 2" in now.embeds[0].title, "redrawn in place, in the DM"
    # bob opens My hand in the channel too: the DM copy says where his live panel is now
    await open_hand(bob, channel, bot_id)
    old = current_message(env, dm, in_dm.id)
    assert f"open in <#{channel.id}>" in old.content and not old.components and not old.embeds, old.content
    check_one_live_panel_below_the_table(channel, people, table, bot_id)


async def test_panels_kept_across_a_restart_follow_the_next_deals_table(simcord_env, db_path):
    """Where the panel meets restarts: panels saved at a clean stop are sent below the next
    deal's table through their saved tokens, and their old copies point below."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="2,1", sequence="fixed")
    bot_id = env.bot.user.id
    for person in people:
        await open_hand(person, channel, bot_id)
    await play_until(env, channel, table, by_seat, lambda: sum(table.engine.view(None)["hand_counts"]) == 1)
    await env.bot.close()  # a clean stop: the open panels are saved
    await env.restart_bot(make_bot(db_path))
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert all(env.bot.tables.presenter.panels.live(table, s) for s in range(3)), "kept across the stop"
    await play_until(env, channel, table, by_seat, lambda: table.engine.deal_number == 2)
    await env.settle()
    check_one_live_panel_below_the_table(channel, people, table, bot_id)


async def test_the_table_posted_again_takes_the_open_panels_below_it(simcord_env):
    """Where the panel meets /ohhell table: the table posted again below the chat is followed
    by the open panels, as after a new deal."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="2,1", sequence="fixed")
    bot_id = env.bot.user.id
    for person in people:
        await open_hand(person, channel, bot_id)
    first = table.record.message_id
    answer = await people[1].slash(channel, "ohhell table")
    assert "below" in answer.response.content, answer.response.content
    await env.settle()
    assert table.record.message_id != first
    check_one_live_panel_below_the_table(channel, people, table, bot_id)


async def test_a_panel_whose_seat_the_computer_plays_follows_the_new_table_and_comes_back(simcord_env):
    """Where the panel meets the turn timer: a player's time ran out and the computer plays
    their seat; their panel (saying so) still follows each new table, and once they take the seat
    back that copy, below the table, is the one with their buttons."""
    env = simcord_env
    channel, people, table, by_seat = await three_at_a_table(env, fixed_hands="2,1", sequence="fixed", turn_timer="1m")
    bot_id = env.bot.user.id
    for person in people:
        await open_hand(person, channel, bot_id)
    late = by_seat[table.engine.to_act()[0]]
    await env.advance_time(61)
    assert table.seats[table.seat_of(late.id)].ai_level is not None
    while table.engine.deal_number == 1:
        seat = table.engine.to_act()[0]
        if table.seats[seat].ai_level is not None:
            await env.advance_time(1)
            continue
        person = by_seat[seat]
        panel = live_panel(env, channel, person)
        await press(person, panel, next(iter(panel_moves(panel))))
    await env.settle()
    check_one_live_panel_below_the_table(channel, people, table, bot_id)
    shown = live_panel(env, channel, late)
    assert "The computer is playing your seat" in message_text(shown) and not panel_moves(shown)
    await late.click(table_message(channel, bot_id), label="Take my seat back")
    shown = live_panel(env, channel, late)
    seat = table.seat_of(late.id)
    assert "The computer is playing your seat" not in message_text(shown)
    assert bool(panel_moves(shown)) == (seat in table.engine.to_act()), "buttons exactly when it is their turn"
    assert shown.id > table.record.message_id
