"""Driving the real bot in SimCord as people do: what the SimCord benches and the tests share.

It lives outside ``tests/`` because the benches (``bench/clicks.py``, ``bench/rest_calls.py``,
``bench/trace_click.py``) run where the tests are not importable; ``tests/helpers.py`` takes these
from here and adds what only tests need (fixed seeds, Shithead's driver, the secrecy watch...).

The drivers only click what a user sees: they find the bot's newest table message in the channel,
open a player's private panel with its button, and press the panel's buttons.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import discord
from simcord.backend.errors import SetupError
from simcord.env import _LIVE_LOOPS

from bot.client import CardBot
from bot.host.settings import Settings
from bot.messages.panels import POINTER_END

#: every bot a test made, so that the fixture closes the ones a restart left behind (an open
#: store keeps aiosqlite's thread alive, and pytest would never exit)
MADE: list[CardBot] = []


#: how long (virtual seconds) a driver lets the clock run for computers to move before it gives up
STUCK_SECONDS = 30


async def virtual_sleep(seconds: float) -> None:
    """The bot's timers in a SimCord test: declared to SimCord as waits for the virtual clock, so
    they end only when a test moves the clock (``env.advance_time``), never by real time passing,
    however long the settle limit and however loaded the machine."""
    env = _LIVE_LOOPS.get(asyncio.get_running_loop())
    if env is not None:
        try:
            await env.external_wait(asyncio.sleep(seconds), reason="a bot timer, on the virtual clock")
            return
        except SetupError:  # not the bot's own work, or inside another declared wait
            pass
    await asyncio.sleep(seconds)


def virtual_timers(bot: CardBot) -> CardBot:
    """Every timer of ``bot`` (turn clock, retries, the display's pauses, watchers, leases) on
    SimCord's virtual clock: see :func:`virtual_sleep`."""
    bot.tables.sleep = virtual_sleep
    bot.tables.clock.sleep = virtual_sleep
    bot.leases.sleep = virtual_sleep
    return bot


def for_tests(bot: CardBot, *, coalesce: float = 0.0, virtual: bool = True) -> CardBot:
    """``bot`` set up as every SimCord test bot: its displays edit the table at once
    (``coalesce=0``; coalescing has its own test, and the benchmarks pass
    ``presentation.COALESCE``), its lease held for an hour (the heartbeat and takeover are tested
    in tests/db/test_leases.py and tests/bot/host/test_shard_settings.py), every timer on SimCord's
    virtual clock (:func:`virtual_timers`; ``virtual=False`` for the benchmarks, which measure the
    bot's pauses as it runs, in real time), and closed after the test (:data:`MADE`)."""
    bot.tables.presenter.coalesce = coalesce
    bot.leases.seconds = 3600.0
    if virtual:
        virtual_timers(bot)
    MADE.append(bot)
    return bot


def settle_promptly() -> None:
    """SimCord's settle looks for the database thread's answers every 1 ms rather than its
    default 50 ms, for every environment of this process: each press otherwise waited that long
    for answers already there (a submitted form cost 50 ms of wall time; at 5 ms, three of the
    display tests' files waited 2.5 s of their 18 s). It changes nothing but the wait."""
    from simcord.env import Env

    Env._settle_internal.__kwdefaults__["idle"] = 0.001


def make_bot(
    db_path: str, *, ai_delay: float = 0.0, coalesce: float = 0.0, virtual: bool = True, **settings: Any
) -> CardBot:
    """A test bot (:func:`for_tests`) on ``db_path``, its SQLite file with ``synchronous=NORMAL``:
    FULL syncs the disk at every commit (about 5 ms each on the test machine, most of a whole
    game's waiting), which guards a move only against a power cut or an OS crash, something no
    SimCord test makes; a killed or restarted bot loses nothing either way (WAL). FULL, the
    default, is tested in tests/db/test_sqlite_durability.py. ``settings``: other
    :class:`~bot.host.settings.Settings` fields."""
    bot = CardBot(
        Settings(token="test-token", database_path=db_path, ai_delay=ai_delay, sqlite_synchronous="NORMAL", **settings)
    )
    return for_tests(bot, coalesce=coalesce, virtual=virtual)


def bot_messages(channel, bot_id: int) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.id == bot_id]


def table_message(channel, bot_id: int) -> discord.Message:
    """The newest message of the bot's that carries game controls."""
    for message in reversed(bot_messages(channel, bot_id)):
        if message.components:
            return message
    raise AssertionError("no table message with controls in the channel")


async def open_table(
    env, channel, host, members, command: str = "ohhell", preset: str | None = None, options=None, computers: int = 0
):
    """``/<game> new``, everyone joins, the host adds computers and sets options, presses Start."""
    kwargs = {"preset": preset} if preset else {}
    result = await host.slash(channel, f"{command} new", **kwargs)
    assert result.response is not None and not result.ephemeral, result
    lobby = result.response
    for option, value in (options or {}).items():
        answer = await host.slash(channel, f"{command} set", option=option, value=value)
        assert "✅" in answer.response.content, answer.response.content
    for member in members:
        joined = await member.click(lobby, label="Join")
        assert joined.acknowledged and not joined.ephemeral, joined.response and joined.response.content
    for _ in range(computers):
        added = await host.click(lobby, label="Add computer")
        assert added.acknowledged and not added.ephemeral, added.response and added.response.content
    started = await host.click(lobby, label="Start")
    assert started.acknowledged and not started.ephemeral, started
    return lobby


async def open_hand(actor, channel, bot_id: int):
    """**My hand** on the newest table message: the ephemeral live panel it answers with."""
    shown = await actor.click(table_message(channel, bot_id), label="My hand")
    assert shown.response is not None and shown.response.ephemeral, shown
    return shown.response


def panel_moves(panel: Any) -> dict[str, str]:
    """The moves an Oh Hell panel offers, enabled only and in button order, as ``value -> custom
    id``: a bid as its number (``"2"``), a card as its code (``"AS"``; a joker named as a suit
    ``"X@H"``; the hidden card of Devil's Bridge ``"?"``)."""
    out: dict[str, str] = {}
    for component in walk_components(panel.components):
        custom_id = component.get("custom_id") or ""
        if not custom_id.startswith("ohp:") or component.get("disabled"):
            continue
        _, _, _, act, arg = custom_id.split(":", 4)
        if act == "b":
            out[arg] = custom_id
        elif act == "p":
            out[arg.partition(".")[2]] = custom_id
    return out


def warning_of(result: Any) -> str | None:
    """What a press was refused with: the panel's ⚠️ line, or a plain ephemeral refusal."""
    message = result.response
    if message is None:
        return None
    text = message_text(message)
    for line in text.splitlines():
        if line.startswith("⚠️"):
            return line
    if is_pointer(message):  # the answer showed the move, then the panel moved below a new table
        return None
    if message.ephemeral and not message.embeds:
        return message.content
    return None


def current_message(env, channel, message_id: int) -> Any:
    """One message of ``channel`` as it is now (the bot edits panels in place), read straight from
    SimCord's world: ``channel.history()`` converts every message, which grows with the game."""
    from simcord.results import to_discord_message

    stored = env.backend.messages.get(channel.id, {}).get(message_id)
    return None if stored is None else to_discord_message(env, stored)


PANEL_CONTROLS = ("ohp:", "shb:", "shq:", "shs:")


def live_panel(env, channel, actor) -> Any:
    """``actor``'s live panel in ``channel`` (or their DM with the bot), as a player finds it: their
    newest private message from the bot with panel controls (the bot sends the panel again below
    each new table and turns the older copy into a pointer without controls). None if none."""
    from simcord.results import to_discord_message

    for stored in reversed(list(env.backend.messages.get(channel.id, {}).values())):
        if not stored.is_ephemeral or stored.author_id != env.bot.user.id or not stored.visible_to(actor.id):
            continue
        if any((c.get("custom_id") or "").startswith(PANEL_CONTROLS) for c in walk_components(stored.components)):
            return to_discord_message(env, stored)
    return None


def is_pointer(message: Any) -> bool:
    """An older copy of a panel, turned into a pointer to the live one (no controls)."""
    return bool(message is not None and (message.content or "").endswith(POINTER_END) and not message.components)


class OhHellDriver:
    """Plays an Oh Hell game as people do: a player presses **My hand** once, then makes every
    move with one press on the panel the bot keeps current (opened again only when the bot can
    no longer redraw it). Moves are chosen with a seeded RNG among the enabled buttons."""

    def __init__(self, env, channel, actors: dict[int, Any], seed: int = 0) -> None:
        self.env = env
        self.channel = channel
        self.actors = actors  # user id -> member actor
        self.rng = random.Random(seed)
        self.bot_id = env.bot.user.id
        self.cards_played = 0
        self.panels: dict[int, int] = {}  # user id -> their panel's message id
        self.opened = 0  # presses of My hand

    async def panel_of(self, actor) -> Any:
        """``actor``'s panel as the bot keeps it; opened with My hand if they have none live."""
        known = self.panels.get(actor.id)
        panel = current_message(self.env, self.channel, known) if known is not None else None
        if is_pointer(panel):  # the bot sent the panel again below a new table: it is there
            panel = live_panel(self.env, self.channel, actor)
            if panel is not None:
                self.panels[actor.id] = panel.id
        if panel is None or not panel_moves(panel):
            panel = await open_hand(actor, self.channel, self.bot_id)
            self.panels[actor.id] = panel.id
            self.opened += 1
        return panel

    def table(self):
        tables = self.env.bot.tables
        found = tables.in_channel(self.channel.id, "ohhell")
        return found

    async def step(self) -> bool:
        """One bid or one card by the first seat to act; False once the game is over."""
        table = self.table()
        if table is None:
            return False
        engine = table.engine
        people = [s for s in engine.to_act() if table.seats[s].ai_level is None]
        if not people:  # computer seats move on their own; let them
            await self.env.settle()

            def waiting() -> bool:
                return not engine.is_over and all(table.seats[s].ai_level is not None for s in engine.to_act())

            # a computer whose decision failed tries again after a pause: run the clock through it
            for _ in range(STUCK_SECONDS):
                if not waiting():
                    break
                await self.env.advance_time(1)
            assert not waiting(), "computers stuck"
            return self.table() is not None
        seat = people[0]
        actor = self.actors[table.seats[seat].user_id]
        panel = await self.panel_of(actor)
        moves = panel_moves(panel)
        assert moves, f"the panel offers no move:\n{message_text(panel)}"
        choice = self.rng.choice(list(moves))
        before = engine.action_count
        pressed = await actor.click(panel, custom_id=moves[choice])
        assert pressed.acknowledged, pressed
        assert warning_of(pressed) is None, f"refused: {warning_of(pressed)}"
        # (the stored actions: the engine's log is rebuilt whole on each read)
        assert table.engine.action_count > before and table.record.actions[before][0] == seat, "the move was not made"
        if ":p:" in moves[choice]:
            self.cards_played += 1
        return True

    async def play_to_end(self, limit: int = 5000) -> None:
        for _ in range(limit):
            if not await self.step():
                return
        raise AssertionError("the game did not end")


def message_text(message: Any) -> str:
    """Everything a reader sees of a message: content and every part of its embeds."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for embed_field in embed.fields:
            parts += [embed_field.name or "", embed_field.value or ""]
    return "\n".join(parts)


def walk_components(rows: list) -> list[dict]:
    """Raw components of a message (``ResponseMessage.components`` holds dicts)."""
    out: list[dict] = []
    for component in rows:
        if not isinstance(component, dict) and hasattr(component, "to_dict"):
            component = component.to_dict()  # a fetched message's components are objects
        if isinstance(component, dict):
            out.append(component)
            out += walk_components(component.get("components") or [])
            if isinstance(component.get("component"), dict):
                out += walk_components([component["component"]])
    return out


def _quick_play(panel, cards: list[str]) -> str | None:
    """The one-press button that plays exactly ``cards`` (or the same ranks), if the panel has one."""
    from games.common.cards import parse_card, rank_of

    def ranks(codes) -> list[int]:
        return sorted(rank_of(parse_card(c)) for c in codes)

    exact = same = None
    for component in walk_components(panel.components):
        custom_id = component.get("custom_id") or ""
        if not custom_id.startswith("shq:") or ":put:" not in custom_id:
            continue
        offered = custom_id.rsplit(":", 1)[1].split(".")
        if sorted(offered) == sorted(cards):
            exact = custom_id
        elif ranks(offered) == ranks(cards) and same is None:
            same = custom_id
    return exact or same


def _sensible(view: dict, seq: int) -> dict:
    from games.shithead.ai import choose_action

    return choose_action(view, random.Random(seq))
