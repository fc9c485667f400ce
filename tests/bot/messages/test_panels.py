"""Whole games of both games played only through the live private panel, one click a move.

Each player presses the table's My hand / My cards once; from then on the test only reads the
panel the bot keeps current by itself (never Refresh, never the table's other buttons) and
presses one button a move. After every move it checks that each open panel that is to act was
redrawn with the current decision digest (the panel updated itself), that no panel keeps a
selection from before a redraw, and that nobody can read another player's cards anywhere:
message texts, button labels, emoji names and attachment file names.
"""

from __future__ import annotations

import re
from typing import Any

from draw.cards import label
from draw.emojis import emoji_name
from tests.helpers import (
    card_faces,
    end_game,
    is_pointer,
    live_panel,
    make_bot,
    message_text,
    open_stale_copy,
    open_table,
    table_message,
    walk_components,
)

PICTURE_FILES = {"hand.png", "table.png", "scores.png"}
MOVE = re.compile(r"^(ohp|shq|shb):")


def raw(message: Any) -> list[dict]:
    """A message's components as Discord's JSON (a reply's are dicts, a fetched message's objects)."""
    return [c if isinstance(c, dict) else c.to_dict() for c in message.components]


def move_buttons(message: Any) -> list[dict]:
    """The enabled one-click move buttons of a panel (not Refresh)."""
    out = []
    for c in walk_components(raw(message)):
        cid = c.get("custom_id") or ""
        if c.get("type") == 2 and MOVE.match(cid) and not c.get("disabled") and not cid.endswith(":r:"):
            if ":refresh:" in cid or ":sort:" in cid:
                continue
            out.append(c)
    return out


def digest_of(cid: str) -> str:
    return cid.split(":")[2]


def everything_readable(message: Any) -> tuple[str, set[str], set[str]]:
    """A message's text (with button labels), its emoji names and attachment file names."""
    text = message_text(message)
    emojis: set[str] = set()
    for c in walk_components(raw(message)):
        text += "\n" + (c.get("label") or "")
        for option in c.get("options") or []:
            text += "\n" + option.get("label", "")
            if option.get("emoji"):
                emojis.add(option["emoji"].get("name") or "")
        if c.get("emoji"):
            emojis.add(c["emoji"].get("name") or "")
    files = {a.filename for a in message.attachments}
    return text, emojis, files


def assert_private(
    channel, people, hands: dict[int, list[str]], seat_of: dict[int, int], since: int | None = None
) -> None:
    """Cards still held are readable only by their holder (and emoji / file names say no more).
    Public messages older than ``since`` (the deal's table) belong to earlier deals: skipped."""
    for person in people:
        mine = seat_of[person.id]
        others = [c for s, h in hands.items() if s != mine for c in h if c not in ("?",)]
        other_faces = {label(c) for c in others if not c.startswith("X")}
        other_emojis = {emoji_name(c) for c in others if not c.startswith("X")}
        for message in channel.history(viewer=person):
            if since is not None and message.id < since and not message.flags.ephemeral:
                continue
            text, emojis, files = everything_readable(message)
            leaked = card_faces(text) & other_faces
            assert not leaked, f"{person.name} could read {leaked}:\n{text}"
            assert not emojis & other_emojis, (person.name, emojis & other_emojis)
            assert files <= PICTURE_FILES, files  # fixed names: a file name never tells a card


async def open_panels(env, channel, people, button: str) -> dict[int, Any]:
    bot_id = env.bot.user.id
    panels = {}
    for person in people:
        shown = await person.click(table_message(channel, bot_id), label=button)
        assert shown.response is not None and shown.response.ephemeral, shown
        panels[person.id] = shown.response
    return panels


async def test_oh_hell_whole_game_through_the_live_panel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3,2", "sequence": "fixed"}
    )
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    seat_of = {p.id: table.seat_of(p.id) for p in people}
    by_seat = {seat_of[p.id]: p for p in people}
    panels = await open_panels(env, channel, people, "My hand")

    def now(person):
        """The player's live panel where they find it (sent again below each new deal's table)."""
        found = live_panel(env, channel, person)
        if found is not None:
            panels[person.id] = found
        return current(channel, person, panels[person.id])

    moves = clicks = 0
    while not table.engine.is_over:
        engine = table.engine
        seat = engine.to_act()[0]
        person = by_seat[seat]
        panel = now(person)
        digest = table.kind.decision_digest(engine, seat)
        buttons = move_buttons(panel)
        assert buttons, f"the panel of {person.name} did not update itself:\n{message_text(panel)}"
        # every live button carries the current digest: the panel was redrawn for this decision
        assert {digest_of(b["custom_id"]) for b in buttons} == {digest}
        # the other players' panels hold no live move buttons (nothing selected or armed); the
        # player of the trick's latest card may ask for it back (↩️ Take back, act "u")
        for other in people:
            if other is not person:
                seen = now(other)
                assert all(b["custom_id"].split(":")[3] == "u" for b in move_buttons(seen)), message_text(seen)
        hands = {s: list(engine.view(s)["hand"]) for s in range(3)}
        assert_private(channel, people, hands, seat_of, since=table.record.message_id)
        before = len(engine.log)
        result = await person.click(panel, custom_id=buttons[0]["custom_id"])
        clicks += 1
        assert result.acknowledged and (not result.response.content or is_pointer(result.response)), result
        assert "⚠️" not in message_text(result.response), message_text(result.response)
        assert len(table.engine.log) == before + 1, "one click made one move"
        moves += 1
    assert clicks == moves >= 3 * (1 + 3) + 3 * (1 + 2)  # (a tie adds a deal)
    assert "Game over" in channel.last_message.content
    for person in people:
        seen = now(person)
        assert "game is over" in message_text(seen), message_text(seen)
        assert not move_buttons(seen)


async def test_oh_hell_panel_shows_the_hooked_bid_and_tricks(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3", "sequence": "fixed"}
    )
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    panels = await open_panels(env, channel, people, "My hand")
    while table.engine.view(None)["phase"] == "bidding":
        seat = table.engine.to_act()[0]
        panel = panels[by_seat[seat].id]
        view = table.engine.view(seat)
        bids = [c for c in walk_components(raw(panel)) if ":b:" in (c.get("custom_id") or "")]
        assert [c["label"] for c in bids] == [str(b) for b, _, _ in view["bid_options"]]
        forbidden = [b for b, allowed, _ in view["bid_options"] if not allowed]
        assert [c["label"] for c in bids if c.get("disabled")] == [str(b) for b in forbidden]
        if forbidden:
            assert "⛔" in message_text(panel)
        result = await by_seat[seat].click(panel, custom_id=move_buttons(panel)[0]["custom_id"])
        panels[by_seat[seat].id] = result.response
    # the first trick: then a panel asking for a card says it in a line, its winner named
    for _ in range(3):
        seat = table.engine.to_act()[0]
        panel = panels[by_seat[seat].id]
        cards = [c for c in walk_components(raw(panel)) if ":p:" in (c.get("custom_id") or "")]
        hand = table.engine.view(seat)["hand"]
        assert [c["custom_id"].split(":")[4].split(".")[1].split("@")[0] for c in cards][: len(hand)] == hand[
            : len(cards)
        ] or len(cards) >= len(hand)
        result = await by_seat[seat].click(panel, custom_id=move_buttons(panel)[0]["custom_id"])
        panels[by_seat[seat].id] = result.response
    seat = table.engine.to_act()[0]
    person = by_seat[seat]
    now = [m for m in channel.history(viewer=person) if m.id == panels[person.id].id][0]
    text = message_text(now)
    assert "Last trick:" in text and "→ **" in text, text
    assert "**Your turn:**" in text


def current(channel, person, message) -> Any:
    """The panel as ``person`` sees it now (the bot edits it in place)."""
    return next(m for m in channel.history(viewer=person) if m.id == message.id)


def emoji_faces(names: set[str]) -> set[str]:
    """Card labels behind card emoji names (``ct_7S`` → ``7♠``)."""
    out = set()
    for name in names:
        code = name.removeprefix("ct_")
        if name.startswith("ct_") and code not in ("back", "joker"):
            out.add(label(code))
    return out


async def test_shithead_whole_game_through_the_live_panel(simcord_env, monkeypatch):
    from tests.cogs.shithead.test_games import use_seed
    from tests.helpers import SecretWatch, _quick_play, _sensible

    use_seed(monkeypatch, 4)
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], command="shithead")
    table = env.bot.tables.in_channel(channel.id, "shithead")
    watch = SecretWatch(table)
    by_seat = {table.seat_of(p.id): p for p in people}
    panels = await open_panels(env, channel, people, "My cards")
    moves = clicks = 0
    while not table.engine.is_over:
        engine = table.engine
        seat = engine.to_act()[0]
        person = by_seat[seat]
        panel = current(channel, person, panels[person.id])
        digest = table.kind.decision_digest(engine, seat)
        buttons = move_buttons(panel)
        assert buttons, f"the panel of {person.name} did not update itself:\n{message_text(panel)}"
        assert {digest_of(b["custom_id"]) for b in buttons} == {digest}, message_text(panel)
        for other in people:
            seen = current(channel, other, panels[other.id])
            chosen = [o for c in walk_components(raw(seen)) for o in c.get("options") or [] if o.get("default")]
            assert not chosen, "a selection survived a redraw"
            if seen is not panel and other is not person and table.seat_of(other.id) not in engine.to_act():
                assert not move_buttons(seen), message_text(seen)
        # nobody reads a card they may not know: texts, emoji names, file names
        watch.update()
        for other in people:
            mine = table.seat_of(other.id)
            for message in channel.history(viewer=other):
                text, emojis, files = everything_readable(message)
                allowed = watch.public | watch.hand_ever[mine]
                assert not (card_faces(text) - allowed), (other.name, card_faces(text) - allowed)
                assert not (emoji_faces(emojis) - allowed), (other.name, emoji_faces(emojis) - allowed)
                assert files <= PICTURE_FILES, files  # fixed names: a file name never tells a card
        view = engine.view(seat)
        action = _sensible(view, view["action_count"])
        wanted = None
        if action["type"] == "play":
            wanted = _quick_play(panel, action["cards"])
        else:
            part = {
                "swap": f":swap:{action.get('hand')}>{action.get('up')}",
                "stack": f":stack:{action.get('card')}",
                "ready": ":ready:",
                "flip": f":flip:{action.get('index', 0):x}",
                "pickup": f":add:{action['add']}" if "add" in action else ":pick:",
            }.get(action["type"])
            wanted = next((b["custom_id"] for b in buttons if part and part in b["custom_id"]), None)
        wanted = wanted or buttons[0]["custom_id"]
        before = len(engine.log)
        result = await person.click(panel, custom_id=wanted)
        clicks += 1
        assert result.acknowledged, result
        assert "⚠️" not in message_text(result.response), message_text(result.response)
        assert len(table.engine.log) == before + 1 and table.engine.log[before][0] == seat, "one click, one move"
        moves += 1
    assert clicks == moves > 20
    assert "Game over" in channel.last_message.content or "🏁" in message_text(channel.last_message)
    for person in people:
        seen = current(channel, person, panels[person.id])
        assert not move_buttons(seen), message_text(seen)


async def test_the_reminder_says_to_open_the_panel_only_when_the_bot_cannot_redraw_it(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env,
        channel,
        people[0],
        people[1:],
        preset="spades",
        options={"fixed_hands": "3", "sequence": "fixed", "turn_timer": "20m"},
    )
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    first = next(p for p in people if table.seat_of(p.id) == table.engine.to_act()[0])
    # never opened: the reminder says where the cards are
    await env.advance_time(10 * 60 + 5)
    assert "it's your move" in channel.last_message.content
    assert "Press **My hand**" in channel.last_message.content
    # opened: the bot keeps the panel current, so the reminder needs no instructions ...
    panel = (await first.click(table_message(channel, env.bot.user.id), label="My hand")).response
    await first.click(panel, custom_id=move_buttons(panel)[0]["custom_id"])
    second = next(p for p in people if table.seat_of(p.id) == table.engine.to_act()[0])
    await second.click(table_message(channel, env.bot.user.id), label="My hand")
    await env.advance_time(10 * 60 + 5)
    assert "it's your move" in channel.last_message.content and second.mention in channel.last_message.content
    assert "My hand" not in channel.last_message.content


async def test_an_expired_panel_is_not_edited_and_the_reminder_says_to_reopen_it(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env,
        channel,
        people[0],
        people[1:],
        preset="spades",
        options={"fixed_hands": "3", "sequence": "fixed", "turn_timer": "40m"},
    )
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    first = next(p for p in people if table.seat_of(p.id) == table.engine.to_act()[0])
    await first.click(table_message(channel, env.bot.user.id), label="My hand")
    await env.advance_time(20 * 60 + 5)  # the panel's interaction is older than 15 minutes now
    assert first.mention in channel.last_message.content
    assert "Press **My hand**" in channel.last_message.content
    assert not env.bot.tables.presenter.panels.live(table, table.seat_of(first.id))


async def test_a_double_press_counts_once_and_an_old_panel_changes_nothing(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3", "sequence": "fixed"}
    )
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    first = by_seat[table.engine.to_act()[0]]
    old = await open_stale_copy(first, channel, env)  # opened twice; the older kept its buttons
    old_button = move_buttons(old)[0]["custom_id"]
    panel = live_panel(env, channel, first)
    button = move_buttons(panel)[0]["custom_id"]
    await first.click(panel, custom_id=button)
    assert len(table.engine.log) == 1
    # a press on the older copy of the panel, drawn for the same decision (a double press):
    # it counts once, and its answer shows the hand as it is now
    late = await first.click(old, custom_id=old_button)
    assert len(table.engine.log) == 1
    assert "counted (once)" in message_text(late.response), message_text(late.response)
    assert not move_buttons(late.response)
    # and the game goes on from the next player's panel
    second = by_seat[table.engine.to_act()[0]]
    stale = (await second.click(table_message(channel, env.bot.user.id), label="My hand")).response
    stale_button = move_buttons(stale)[0]["custom_id"]
    await second.click(current(channel, second, stale), custom_id=stale_button)
    third = by_seat[table.engine.to_act()[0]]
    assert len(table.engine.log) == 2 and third is not second


async def test_the_panels_say_so_when_the_host_ends_the_game(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3", "sequence": "fixed"}
    )
    panels = await open_panels(env, channel, people, "My hand")
    await end_game(people[0], channel)  # /ohhell end, then Confirm
    for person in people:
        seen = current(channel, person, panels[person.id])
        assert "ended" in seen.content and not move_buttons(seen) and not seen.attachments, seen.content


async def test_a_panel_that_can_no_longer_be_edited_is_dropped_and_the_move_stands(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(
        env,
        channel,
        people[0],
        people[1:],
        preset="spades",
        options={"fixed_hands": "3", "sequence": "fixed", "turn_timer": "20m"},
    )
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    panels = await open_panels(env, channel, people, "My hand")
    first = by_seat[table.engine.to_act()[0]]
    # Discord refuses the edit of the next player's panel (its token is no longer valid)
    env.inject_error("PATCH", "/webhooks/*", status=404, code=10015, message="Unknown Webhook", times=None)
    await first.click(
        panels[first.id], custom_id=move_buttons(current(channel, first, panels[first.id]))[0]["custom_id"]
    )
    second = table.engine.to_act()[0]
    assert len(table.engine.log) == 1
    assert not env.bot.tables.presenter.panels.live(table, second)
    await env.advance_time(10 * 60 + 5)
    assert "Press **My hand**" in channel.last_message.content
    assert by_seat[second].mention in channel.last_message.content


async def timed_table_with_panels(env, timer: str):
    """Three people at a 3-card Spades table with a turn timer, each with their panel open."""
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    options = {"fixed_hands": "3", "sequence": "fixed", "turn_timer": timer}
    await open_table(env, channel, people[0], people[1:], preset="spades", options=options)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    return channel, people, table, await open_panels(env, channel, people, "My hand")


async def test_panels_open_at_a_restart_are_kept_current_after_it(simcord_env, db_path):
    """A clean stop saves the open panels' tokens; the restarted bot redraws them when the turn
    comes, and the reminder needs no "press My hand" for them."""
    env = simcord_env
    channel, people, table, panels = await timed_table_with_panels(env, "20m")
    by_seat = {table.seat_of(p.id): p for p in people}
    first = by_seat[table.engine.to_act()[0]]
    second = by_seat[(table.engine.to_act()[0] + 1) % 3]
    assert not move_buttons(current(channel, second, panels[second.id])), "not second's turn yet"
    old = env.bot
    await old.close()  # a clean stop: the open panels are saved
    await env.restart_bot(make_bot(db_path))
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert env.bot.tables.presenter.panels.live(table, table.seat_of(second.id))
    # The first player bids through their old panel; the restarted bot redraws the second's.
    pressed = await first.click(
        panels[first.id], custom_id=move_buttons(current(channel, first, panels[first.id]))[0]["custom_id"]
    )
    assert "⚠️" not in message_text(pressed.response)
    assert table.engine.to_act() == [table.seat_of(second.id)]
    now = current(channel, second, panels[second.id])
    digest = env.bot.tables.kinds["ohhell"].decision_digest(table.engine, table.seat_of(second.id))
    buttons = move_buttons(now)
    assert buttons and {digest_of(b["custom_id"]) for b in buttons} == {digest}, "redrawn by the new bot"
    await env.advance_time(10 * 60 + 5)
    assert "it's your move" in channel.last_message.content and second.mention in channel.last_message.content
    assert "My hand" not in channel.last_message.content
    assert await env.bot.store.take_panels([table.id]) == [], "handed over once, not kept in the store"


async def test_the_hand_sent_by_dm_opens_the_live_panel_both_games(simcord_env, monkeypatch):
    """The DM of a hand carries My hand / My cards: pressed there, it opens the same live panel
    (in the DM), whose one press makes the move; the bot then keeps that panel current."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3"})
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    seat = table.engine.to_act()[0]
    person = next(p for p in people if table.seat_of(p.id) == seat)
    dm = person.user.dm_channel.last_message
    assert [c.label for row in dm.components for c in row.children] == ["My hand"]
    opened = await person.user.click(dm, label="My hand")
    panel = opened.response
    assert panel is not None and panel.embeds[0].title.startswith("Your hand")
    assert_private_to(panel, dm, table, seat)
    before = len(table.engine.log)
    pressed = await person.user.click(panel, custom_id=move_buttons(panel)[0]["custom_id"])
    assert "⚠️" not in message_text(pressed.response) and len(table.engine.log) == before + 1
    assert table.engine.log[before][0] == seat
    # Shithead's DM carries My cards, which opens its panel the same way.
    shithead = guild.create_text_channel("palace")
    await open_table(env, shithead, people[0], people[1:], command="shithead")
    sh_table = env.bot.tables.in_channel(shithead.id, "shithead")
    dm = people[1].user.dm_channel.last_message
    assert [c.label for row in dm.components for c in row.children] == ["My cards"]
    sh_panel = (await people[1].user.click(dm, label="My cards")).response
    assert sh_panel is not None and move_buttons(sh_panel), message_text(sh_panel)
    before = len(sh_table.engine.log)
    pressed = await people[1].user.click(sh_panel, custom_id=move_buttons(sh_panel)[0]["custom_id"])
    assert "⚠️" not in message_text(pressed.response)
    assert len(sh_table.engine.log) == before + 1 and sh_table.engine.log[before][0] == sh_table.seat_of(people[1].id)


def assert_private_to(panel, dm, table, seat: int) -> None:
    """The panel shows ``seat``'s own cards (as their DM does) and none of anyone else's."""

    def cards(message):
        return next(f.value for f in message.embeds[0].fields if f.name == "Cards")

    assert cards(panel) == cards(dm)
    text, emojis, files = everything_readable(panel)
    others = [c for s in range(len(table.seats)) if s != seat for c in table.engine.view(s)["hand"]]
    assert not card_faces(text) & {label(c) for c in others}, text
    assert not emojis & {emoji_name(c) for c in others} and files <= PICTURE_FILES, (emojis, files)


async def test_the_panel_follows_the_seat_to_the_computer_and_back(simcord_env):
    """Time runs out: the open panel says the computer plays the seat (no buttons); Take my seat
    back: the panel gets its buttons back, without a press of My hand."""
    env = simcord_env
    channel, people, table, panels = await timed_table_with_panels(env, "1m")
    seat = table.engine.to_act()[0]
    late = next(p for p in people if table.seat_of(p.id) == seat)
    await env.advance_time(61)
    assert table.seats[seat].ai_level is not None
    shown = current(channel, late, panels[late.id])
    assert "The computer is playing your seat" in message_text(shown) and not move_buttons(shown)
    await late.click(table_message(channel, env.bot.user.id), label="Take my seat back")
    # the computer moved for the seat meanwhile; the panel shows the seat's own again
    shown = current(channel, late, panels[late.id])
    assert "The computer is playing your seat" not in message_text(shown)
    assert bool(move_buttons(shown)) == (seat in table.engine.to_act()), "buttons exactly when it is their turn"
