"""A table that heals itself: whatever Discord does to one request, the channel ends up
showing the game's true state with no human action, the game goes on, and nobody is told anything
untrue. Faults are injected with SimCord (a timeout by making its router raise ``TimeoutError``)."""

from __future__ import annotations

import copy
import fnmatch
from typing import Any

import pytest
from simcord import actors as sc
from simcord.backend import serializers
from simcord.backend.errors import BackendError
from simcord.http import router

from bench.discord_api import note_files
from bot.messages.faults import Fault, classify
from bot.messages.presentation import COALESCE
from tests.cogs.shithead.test_games import seat_table, use_seed
from tests.helpers import (
    OhHellDriver,
    ShitheadDriver,
    find_component,
    make_bot,
    message_text,
    open_hand,
    open_table,
    panel_moves,
    table_message,
)

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}
FAULTS: dict[str, dict[str, Any] | None] = {
    "403": {"status": 403, "code": 50013, "message": "Missing Permissions"},
    "404": {"status": 404, "code": 10008, "message": "Unknown Message"},
    "429": {"status": 429, "code": 0, "message": "You are being rate limited."},
    "500": {"status": 500, "code": 0},
    "timeout": None,
}
UNTRUE = ("nothing was changed", "went wrong")


def inject(env, monkeypatch, fault: str, method: str, path: str, times: int = 1, when=None, skip: int = 0) -> list[int]:
    """Make the next ``times`` matching requests fail (``when(json)``: only those it accepts),
    after letting ``skip`` of them through."""
    spec = FAULTS[fault]
    left = [times]
    skipped = [skip]
    real = router.dispatch

    def dispatch(backend, m: str, p: str, **kwargs: Any) -> Any:
        if left[0] and m == method and fnmatch.fnmatch(p, path) and (when is None or when(kwargs.get("json"))):
            if skipped[0]:
                skipped[0] -= 1
                return real(backend, m, p, **kwargs)
            left[0] -= 1
            note_files(backend, len(backend.http_requests), kwargs.get("files"))  # as sent, for the API check
            backend.http_requests.append(router.HttpLogEntry(m, p, {}, kwargs.get("json"), None))
            if spec is None:
                raise TimeoutError("injected: the request timed out")
            raise BackendError(spec["status"], spec["code"], spec.get("message", "injected"))
        return real(backend, m, p, **kwargs)

    monkeypatch.setattr(router, "dispatch", dispatch)
    return left  # set its one item to 0 to stop the fault


def texts(channel) -> list[str]:
    return [m.content or "" for m in channel.history()]


def shown(channel, table):
    return next(m for m in channel.history() if m.id == table.record.message_id)


def assert_shows_truth(channel, table) -> None:
    """The table message in the channel is what the game's state renders to now."""
    message = shown(channel, table)
    truth = table.kind.table(table, [])
    truth.view.stop()
    assert message.content == truth.content
    assert [(e.title, e.description, [f.value for f in e.fields]) for e in message.embeds] == [
        (e.title, e.description, [f.value for f in e.fields]) for e in truth.embeds
    ]
    assert message.components, "the current table has its controls"


class Player(OhHellDriver):
    """The Oh Hell driver, with a hook between opening the panel and pressing its button (where
    a fault is armed), and every answer kept to check that none is untrue."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.before_press = None
        self.answers: list[str] = []

    async def step(self) -> bool:
        table = self.table()
        if table is None:
            return False
        engine = table.engine
        people = [s for s in engine.to_act() if table.seats[s].ai_level is None]
        if not people:
            await self.env.settle()
            return self.table() is not None
        actor = self.actors[table.seats[people[0]].user_id]
        panel = await open_hand(actor, self.channel, self.bot_id)
        moves = panel_moves(panel)
        choice = self.rng.choice(list(moves))
        if self.before_press is not None:
            self.before_press()
            self.before_press = None
        pressed = await actor.click(panel, custom_id=moves[choice])
        assert pressed.acknowledged, pressed
        for message in [pressed.response, *pressed.followups]:
            if message is not None and message.ephemeral:
                self.answers.append(message_text(message))
        return True


async def _oh_hell(env, monkeypatch, *, computers: int = 1, options=SHORT, names=("ann", "bob")):
    use_seed(monkeypatch, 7)  # the same deal every run, so the computers play the same game
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)  # past the settle time: the virtual clock waits
    kind = env.bot.tables.kinds["ohhell"]
    decide = kind.ai_action  # the quick level decides at once: no settle waits on a search
    monkeypatch.setattr(kind, "ai_action", lambda view, level, rng: decide(view, "quick", rng))
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in names]
    await open_table(env, channel, people[0], people[1:], preset="classic", options=options, computers=computers)
    table = env.bot.tables.in_channel(channel.id)
    return channel, people, table


def _last_trick(table) -> bool:
    view = table.engine.view(None)
    return view["phase"] == "playing" and sum(view["hand_counts"]) <= len(table.seats)


# -- each fault class on each kind of request a game makes -------------------------------------
KINDS = ("move answer", "table edit", "computer move", "new table", "DM", "standings", "reminder")


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("kind", KINDS)
async def test_a_fault_heals_by_itself(simcord_env, monkeypatch, kind, fault):
    env = simcord_env
    # Pauses longer than the settle time wait on the virtual clock, which the test advances.
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)
    options = {**SHORT, "turn_timer": "5m"} if kind == "reminder" else SHORT
    channel, people, table = await _oh_hell(env, monkeypatch, options=options)
    bob = people[1]
    player = Player(env, channel, {p.id: p for p in people}, seed=5)
    posts = f"/channels/{channel.id}/messages"
    dm_posts_before = len(list(bob.user.dm_channel.history()))

    if kind == "move answer":  # the answer to a person's press, which redraws their panel
        player.before_press = lambda: inject(env, monkeypatch, fault, "POST", "/interactions/*/callback")
        seat = table.engine.to_act()[0]
        await player.step()
        # The bid stands and the player's panel (redrawn by the bot once the answer failed) shows it.
        bid = table.engine.view(seat)["bids"][seat]
        assert bid is not None and any(f"Your bid\n{bid} " in a or "saved" in a for a in player.answers), player.answers
    elif kind == "table edit":  # the table edited after a person's move
        player.before_press = lambda: inject(env, monkeypatch, fault, "PATCH", f"{posts}/*")
        await player.step()
    elif kind == "computer move":  # the table edit after a computer's move
        while not any(table.seats[s].ai_level is None for s in table.engine.to_act()):
            await player.step()
        # The edit that hands the turn back to a person fails (a later edit would hide the fault).
        pinged = [f"<@{p.id}>" for p in people]
        inject(env, monkeypatch, fault, "PATCH", f"{posts}/*", when=lambda body: any(p in str(body) for p in pinged))
        moves = len(table.engine.log)
        while not any(table.seats[s].ai_level for s, _ in table.engine.log[moves:]):
            await player.step()
    elif kind in ("new table", "DM", "standings"):
        deal = 2 if kind == "standings" else 1
        only = (lambda body: "Game over" in str(body)) if kind == "standings" else None
        while not (table.engine.view(None)["deal"] == deal and _last_trick(table)):
            await player.step()
        path = f"/channels/{bob.user.dm_channel.id}/messages" if kind == "DM" else posts
        player.before_press = lambda: inject(env, monkeypatch, fault, "POST", path, when=only)
        if kind == "DM":  # Bob's panel can no longer be edited, so deal 2's hand goes to him by DM
            panels = env.bot.tables.presenter.panels
            bob_seat, live = table.seat_of(bob.id), panels.live
            monkeypatch.setattr(panels, "live", lambda t, s: s != bob_seat and live(t, s))
        while env.bot.tables.in_channel(channel.id) and table.engine.view(None)["deal"] == deal:
            await player.step()
        while kind == "standings" and env.bot.tables.in_channel(channel.id):
            await player.step()
    else:  # the reminder at half time
        inject(env, monkeypatch, fault, "POST", posts)
        await env.advance_time(151)
        assert not any("it's your move" in t for t in texts(channel)), "the reminder failed"
    # Discord has stopped failing: the display catches up by itself (a reminder before the deadline).
    await env.advance_time(100 if kind == "reminder" else 200)
    await env.settle()

    if kind == "reminder":
        assert sum("it's your move" in t for t in texts(channel)) == 1, "sent once, once it could be"
    if kind == "DM":
        if fault in ("403", "404"):  # refused for good: the table says to use the button instead
            assert "can't DM bob" in str([f.value for e in shown(channel, table).embeds for f in e.fields])
        else:
            assert len(list(bob.user.dm_channel.history())) == dm_posts_before + 1, "deal 2's hand reached bob"
    if kind == "standings":
        assert "Game over" in channel.last_message.content
    else:
        assert_shows_truth(channel, table)
        await player.play_to_end()
        assert "Game over" in channel.last_message.content
    if fault == "403" and kind not in ("DM", "move answer"):
        warnings = [t for t in texts(channel) if "permission" in t]
        assert len(warnings) == 1, warnings
        if kind == "standings":  # after the end there is no table to ask for
            assert "/ohhell table" not in warnings[0] and "standings will follow" in warnings[0], warnings
        else:
            assert "/ohhell table" in warnings[0], warnings
        edited = kind in ("computer move", "table edit")
        needed = "Read Message History" if edited else "Send Messages"  # an edit, or a post
        assert f"**{needed}" in warnings[0] or f"{needed}**" in warnings[0], warnings
        if not edited:  # a post carries pictures: the warning names every permission it needs
            assert "Attach Files" in warnings[0], warnings
    assert not any(u in a for a in player.answers for u in UNTRUE), player.answers
    assert not any(u in t for t in texts(channel) for u in UNTRUE)
    assert env.errors == []


# -- what a failing request must not do to the table --------------------------------------------
async def test_start_without_leave_to_post_says_the_game_started(simcord_env, monkeypatch):
    """The game did start; the host is told so, and which permission is missing."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cat = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    lobby = (await ann.slash(channel, "ohhell new", preset="classic")).response
    await bob.click(lobby, label="Join")
    await cat.click(lobby, label="Join")
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, times=None)
    started = await ann.click(lobby, label="Start")
    said = [m.content or "" for m in [started.response, *started.followups] if m is not None]
    assert not any(u in s for s in said for u in UNTRUE), said
    table = env.bot.tables.in_channel(channel.id)
    assert table.record.status == "playing"
    lobby_now = message_text(next(m for m in channel.history() if m.id == lobby.id))
    assert "has started" in lobby_now and "Send Messages" in lobby_now and "/ohhell table" in lobby_now
    assert list(bob.user.dm_channel.history()), "hands went out"
    env.backend.faults.clear()  # the permission is given
    await env.advance_time(130)
    await env.settle()
    assert_shows_truth(channel, table)
    assert env.errors == []


async def test_a_failed_edit_after_a_computer_move_is_retried(simcord_env, monkeypatch):
    """A 500 on the edit after a computer's move must not leave the table naming the
    computer while the game waits for a person."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=2, names=("ann",))
    player = Player(env, channel, {people[0].id: people[0]}, seed=1)
    while not any(table.seats[s].ai_level is None for s in table.engine.to_act()):
        await player.step()
    # The edit that hands the turn back to ann fails: the table must not stay on a computer's turn.
    ann = f"<@{people[0].id}>"
    inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/*", when=lambda b: ann in str(b))
    await player.step()
    await env.settle()
    assert table.seats[table.engine.to_act()[0]].user_id == people[0].id, "a person's turn again"
    await env.advance_time(6)
    await env.settle()
    assert_shows_truth(channel, table)
    assert env.errors == []


async def test_a_long_outage_is_told_once_and_heals(simcord_env, monkeypatch):
    """Edits fail for minutes: the channel is told once, in one line; the game goes on; once
    Discord recovers the table shows the truth with no human action."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=2, names=("ann",))
    player = Player(env, channel, {people[0].id: people[0]}, seed=1)
    while not any(table.seats[s].ai_level is None for s in table.engine.to_act()):
        await player.step()
    fault = inject(env, monkeypatch, "500", "PATCH", f"/channels/{channel.id}/messages/*", 1000)
    await player.step()  # ann's answer edits the table; the computers' edits after it fail
    for _ in range(12):
        await env.advance_time(20)
    told = [t for t in texts(channel) if "keeps failing" in t]
    assert len(told) == 1 and "\n" not in told[0] and "/ohhell table" in told[0], told
    fault[0] = 0
    await env.advance_time(120)
    await env.settle()
    assert_shows_truth(channel, table)
    await player.play_to_end()
    assert sum("keeps failing" in t for t in texts(channel)) == 1
    assert env.errors == []


async def test_shithead_table_names_the_real_next_player_after_a_failed_edit(simcord_env, monkeypatch):
    """Shithead: a 500 on the table edit after a played card is retried, so the table
    pings the player whose turn it is, not the one who just played."""
    use_seed(monkeypatch, 4)
    monkeypatch.setattr("bot.messages.faults.BACKOFF_START", 5.0)  # past the settle time: the virtual clock waits
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], 0)
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    while driver.engine.view(None)["phase"] == "swap":
        assert await driver.step()
    table = driver.live
    for method, path in [("PATCH", f"/channels/{channel.id}/messages/*"), ("POST", "/interactions/*/callback")] * 2:
        # The table edit after the card fails, or the answer to it (the player's own panel; the
        # callback before it opens the panel: a move is one press on it).
        inject(env, monkeypatch, "500", method, path, skip=0 if method == "PATCH" else 1)
        await driver.step()
        await env.advance_time(6)
        await env.settle()
        assert_shows_truth(channel, table)
        turn = table.engine.to_act()[0]
        assert f"<@{table.seats[turn].user_id}>" in shown(channel, table).content
    assert env.errors == []


async def test_shithead_double_click_that_counted_is_not_told_nothing_changed(simcord_env, monkeypatch):
    """Shithead: of two clicks on Play, the one that counted is not contradicted."""
    use_seed(monkeypatch, 4)
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], 0)
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    while driver.engine.view(None)["phase"] == "swap":
        assert await driver.step()
    for _ in range(20):
        seat = driver.engine.to_act()[0]
        view = driver.engine.view(seat)
        action = next((a for a in view["legal"] if a["type"] == "play"), None)
        if action is not None:
            break
        await driver.step()
    panel = await driver.open_panel(seat)
    actor = driver.actors[driver.live.seats[seat].user_id]
    select = find_component(panel, ":sel")
    values = [o["value"] for o in select["options"] if set(o["value"].split(".")) & set(action["cards"])]
    chosen = await actor.select(panel, values, custom_id=select["custom_id"])
    play = find_component(chosen.response, ":play:")["custom_id"]
    moves = len(driver.engine.log)
    # The second click of a double click: the same button, sent before the panel was redrawn.
    stored = sc._visible_message(actor, chosen.response)
    as_clicked = copy.deepcopy(dict(serializers.message_payload(env.backend, stored)))
    first = await actor.click(chosen.response, custom_id=play)
    channel_handle = sc.ChannelHandle(env, guild, env.backend.get_channel(stored.channel_id))
    second = await sc._dispatch_actor_interaction(
        actor,
        3,
        channel_handle,
        {"custom_id": play, "component_type": 2},
        extra={"message": as_clicked},
        source_message_id=stored.id,
    )
    last_word = message_text(second.response)  # the panel the player sees now
    assert "nothing was changed" not in last_word and "counted" in last_word, last_word
    assert first.acknowledged and len(driver.engine.log) == moves + 1
    assert env.errors == []


async def test_a_failed_post_of_the_next_deal_comes_back_by_itself(simcord_env, monkeypatch):
    """A 500 on the post of deal 2's table, then on the standings: both appear later."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    player = Player(env, channel, {p.id: p for p in people}, seed=3)
    posts = f"/channels/{channel.id}/messages"
    while not (table.engine.view(None)["deal"] == 1 and _last_trick(table)):
        await player.step()
    player.before_press = lambda: env.inject_error("POST", posts, status=500, times=1)
    while table.engine.view(None)["deal"] == 1:
        await player.step()
    await env.advance_time(6)
    await env.settle()
    assert "deal 2" in table_message(channel, env.bot.user.id).embeds[0].title
    inject(env, monkeypatch, "500", "POST", posts, when=lambda body: "Game over" in str(body))
    while env.bot.tables.in_channel(channel.id) is not None:
        await player.step()
    await env.advance_time(6)
    await env.settle()
    assert "Game over" in channel.last_message.content
    assert env.errors == []


async def test_standings_never_posted_before_a_restart_are_posted_after_it(simcord_env, monkeypatch, db_path):
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    fault = inject(
        env, monkeypatch, "500", "POST", f"/channels/{channel.id}/messages", 1000, lambda b: "Game over" in str(b)
    )
    await Player(env, channel, {p.id: p for p in people}, seed=3).play_to_end()
    assert not any("Game over" in t for t in texts(channel))
    await env.bot.tables.presenter.close()  # the bot stops before Discord lets it post them
    fault[0] = 0
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    await env.settle()
    assert sum("Game over" in t for t in texts(channel)) == 1
    await env.bot.tables.presenter.close()  # (noted as shown: written at the stop, or with a move)
    assert await env.bot.store.unshown_finales() == []
    assert env.errors == []


async def test_table_command_retires_the_old_copy(simcord_env, monkeypatch):
    """After /ohhell table the old copy has no controls and points below."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    old = table_message(channel, env.bot.user.id)
    again = await people[1].slash(channel, "ohhell table")
    assert again.ephemeral and "again" in again.response.content
    old_now = next(m for m in channel.history() if m.id == old.id)
    assert not old_now.components and "moved below" in old_now.content
    assert table_message(channel, env.bot.user.id).id != old.id
    await Player(env, channel, {p.id: p for p in people}, seed=4).play_to_end()

    def labels(message):
        return {child.label for row in message.components for child in row.children}

    # Only the final standings keep a button, and it is Rematch: no copy of the table keeps any.
    controls = [labels(m) for m in channel.history() if m.components]
    assert controls == [{"Rematch"}], "no copy of a finished game keeps game buttons"
    assert not any("your bid" in t for t in texts(channel) if t is not channel.last_message.content)
    assert env.errors == []


async def test_table_command_where_the_bot_may_not_post_says_so(simcord_env, monkeypatch):
    """/ohhell table in a channel that refuses posts: the answer names the permission, and the
    copy in the channel keeps its controls (it is still the only one)."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch)
    old = table_message(channel, env.bot.user.id)
    fault = inject(env, monkeypatch, "403", "POST", f"/channels/{channel.id}/messages", 1000)
    again = await people[1].slash(channel, "ohhell table")
    assert again.ephemeral and "Send Messages" in again.response.content, again.response.content
    assert table_message(channel, env.bot.user.id).id == old.id, "the old copy is still usable"
    fault[0] = 0
    await env.advance_time(400)
    await env.settle()
    assert_shows_truth(channel, table)
    assert not next(m for m in channel.history() if m.id == old.id).components
    assert env.errors == []


async def test_five_quick_moves_cost_fewer_table_edits(simcord_env, monkeypatch):
    """A person's bid and four computers' bids at once: fewer table edits than moves."""
    env = simcord_env
    channel, people, table = await _oh_hell(env, monkeypatch, computers=4, names=("ann",))
    env.bot.tables.presenter.display(table).coalesce = COALESCE  # as the bot runs (tests turn it off)
    player = Player(env, channel, {people[0].id: people[0]}, seed=2)
    moves = len(table.engine.log)
    start = len(env.http_requests)
    while not _last_trick(table):
        await player.step()
    await env.advance_time(1)  # the display's coalescing pause, on the virtual clock
    await env.settle()
    made = len(table.engine.log) - moves
    requests = env.http_requests[start:]
    edits = [r for r in requests if r.method == "PATCH" and f"/channels/{channel.id}/messages/" in r.path]
    print(f"moves {made}, table edits {len(edits)}")
    assert made >= 5, made
    # (the person's press is answered on their panel: every table edit here is a REST call)
    assert len(edits) < made, (made, len(edits))
    assert_shows_truth(channel, table)
    assert env.errors == []


def test_a_rate_limit_waits_as_long_as_discord_says():
    import discord

    class Response:
        status = 429
        reason = "Too Many Requests"
        headers = {"Retry-After": "7.5"}

    error = discord.HTTPException(Response(), {"code": 0, "message": "rate limited"})  # type: ignore[arg-type]
    fault = classify(error, "editing the table", posting=False)
    assert fault.delay(1) == 7.5 and fault.delay(5) == 7.5
    assert classify(discord.RateLimited(3.0), "x", posting=True).delay(1) == 3.0
    assert Fault("x", 500, 0).delay(1) == 1.0 and Fault("x", 500, 0).delay(20) == 60.0
    refused = classify(TimeoutError(), "x", posting=True)
    assert refused.permission is None and refused.delay(1) == 1.0
