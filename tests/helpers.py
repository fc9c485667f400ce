"""What SimCord tests share: building the bot on a temporary database, and playing as users do.

The drivers here only click what a user sees: they find the bot's newest table message in the
channel, open a player's private panel with its button, and press the panel's buttons. What the
SimCord benches use too (building the bot, the Oh Hell driver, reading panels) lives in
``bench/simdriver.py``, outside the tests, and is taken from there.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import discord
import pytest

from bench.quick import SMALL_OHHELL_SEARCH, SMALL_SHITHEAD_SEARCH
from bench.simdriver import (  # noqa: F401  (the tests import these from here)
    MADE,
    PANEL_CONTROLS,
    STUCK_SECONDS,
    OhHellDriver,
    _quick_play,
    _sensible,
    bot_messages,
    current_message,
    for_tests,
    is_pointer,
    live_panel,
    make_bot,
    message_text,
    open_hand,
    open_table,
    panel_moves,
    table_message,
    virtual_sleep,
    virtual_timers,
    walk_components,
    warning_of,
)

#: the commitment's salt a fixed-seed test deals with (the computers' dice come from it)
FIXED_SALT = bytes(range(32))


def use_seed(monkeypatch, seed: int, salt: bytes = FIXED_SALT) -> None:
    """Every game the test starts deals from ``seed`` with ``salt`` (see ``bot.fairness.shuffles.ENTROPY``):
    for a test that needs a deal with a given property, found with the pure engine first."""
    monkeypatch.setattr("bot.fairness.shuffles.new_seed", lambda: seed)
    monkeypatch.setattr("bot.fairness.shuffles.new_salt", lambda: salt)


#: per test process: the numbered migrations (their numbers and SQL) -> a file the store migrated from nothing
_MIGRATED: dict[tuple[tuple[int, str], ...], Path] = {}


async def start_migrated(db_path: str, folders: pytest.TempPathFactory) -> None:
    """Put at ``db_path`` (where no file is yet) a copy of a store file that the SQLite store
    itself migrated from nothing, once per test process and set of migrations; a test bot then
    opens it as a restarted bot opens its file. Why: migrating a new file runs every statement of
    every numbered migration, some 90, each a trip to the database's thread and back: 12 ms of
    processor time against 2.6 ms to copy and open a migrated file (it was 20 ms, two fifths of
    the start of a bot that plays nothing, before each statement became one trip), for each of
    the 1,300 SimCord tests. What is not checked again in each of them is checked where it
    belongs: every store test (tests/db) migrates a new file, on SQLite and on PostgreSQL, and
    tests/db/test_sqlite_durability.py new files opened at once; bots started on a file they
    create are tested too (the SimCord bots of tests/bot/seam/test_features.py and
    tests/bot/host/test_shards.py, the local mode's starts in tests/bot/host/). A file a test put
    at ``db_path`` before (its own) is left as it is."""
    from db import sqlite_connection
    from db.sqlite import SqliteStore

    if os.path.exists(db_path):
        return
    known = tuple(sqlite_connection.migrations())  # as a test may have changed them (tests/db)
    template = _MIGRATED.get(known)
    if template is None:
        template = folders.mktemp("migrated") / "cards.sqlite3"
        store = SqliteStore(str(template), synchronous="NORMAL")
        await store.open()
        await store.close()
        # closed, the store left its whole state in the one file (no write-ahead log beside it)
        assert not Path(f"{template}-wal").exists(), template
        _MIGRATED[known] = template
    shutil.copyfile(template, db_path)


async def close_made_bots() -> None:
    while MADE:
        bot = MADE.pop()
        if not bot.is_closed():
            await bot.close()


def buttons(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in getattr(row, "children", []) if getattr(c, "label", None)]


def refuse_pointer_edits(env, times: int = 1) -> None:
    """Discord refuses the next ``times`` edits through an interaction's token: opening another
    copy of a panel then leaves the older copy with its buttons (the bot's edit into a pointer
    failed), which is also what a press that races that edit meets."""
    env.inject_error("PATCH", "/webhooks/*", status=500, code=0, message="injected", times=times)


async def open_stale_copy(actor, channel, env) -> Any:
    """A copy of ``actor``'s panel that keeps its buttons while a newer copy is the live one."""
    first = await open_hand(actor, channel, env.bot.user.id)
    refuse_pointer_edits(env)
    await open_hand(actor, channel, env.bot.user.id)
    return first


def move_ids(panel: Any) -> list[str]:
    """The custom ids of a panel's enabled move buttons (either game; not Refresh)."""
    out = []
    for c in walk_components(panel.components):
        cid = c.get("custom_id") or ""
        if c.get("type") == 2 and not c.get("disabled") and cid.split(":")[0] in ("ohp", "shq", "shb"):
            if not cid.endswith(":r:") and ":refresh:" not in cid:
                out.append(cid)
    return out


def panel_disabled(panel: Any) -> list[str]:
    """Labels of the panel's disabled move buttons (a bid the hook forbids, a card not legal now)."""
    return [
        c.get("label") or ""
        for c in walk_components(panel.components)
        if (c.get("custom_id") or "").startswith("ohp:") and c.get("disabled")
    ]


async def press(actor, panel: Any, value: str):
    """Press the panel's button for ``value`` (see :func:`panel_moves`): one click, one move."""
    moves = panel_moves(panel)
    assert value in moves, f"no enabled button for {value!r}; the panel offers {list(moves)}"
    return await actor.click(panel, custom_id=moves[value])


# -- Shithead -------------------------------------------------------------------------------------
CARD_LABEL = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")


def card_faces(text: str) -> set[str]:
    """Card labels (``10♥``) named in a text, as ``(rank, suit)`` strings like ``10♥``."""
    return {m.group(0) for m in CARD_LABEL.finditer(text)}


def find_component(message: Any, custom_id_part: str, *more: str) -> dict:
    """The one component whose custom id contains ``custom_id_part`` (``":play"``, ``":sel"``)
    and each of ``more``."""
    parts = (custom_id_part, *more)
    found = [c for c in walk_components(message.components) if all(p in (c.get("custom_id") or "") for p in parts)]
    assert len(found) == 1, (custom_id_part, [c.get("custom_id") for c in walk_components(message.components)])
    return found[0]


def has_component(message: Any, custom_id_part: str) -> bool:
    return any(custom_id_part in (c.get("custom_id") or "") for c in walk_components(message.components))


class SecretWatch:
    """Follows a Shithead game from its log and says which cards anyone may have seen publicly.

    A card becomes public when it is dealt face up, swapped, stacked, chosen face up, played, flipped or
    taken with the pile. Checks: every card named in a channel message is public; a player's
    panel names only public cards and their own hand.
    """

    def __init__(self, table) -> None:
        from games.shithead.game import Shithead

        self.table = table
        engine = table.engine
        self.shadow = Shithead.replay(engine.rules, engine.seats, engine.seed, [], engine.dealer)
        self.public: set[str] = set()
        self.events: list = []  # every event of the game so far, as the engine told it
        self.hand_ever: list[set[str]] = [set() for _ in range(engine.seats)]  # what each seat ever held
        self._add(self.shadow.deal_events())
        self._note_hands()
        self.seen = 0

    def _note_hands(self) -> None:
        from games.common.cards import card_label, is_joker

        for seat, hand in enumerate(self.shadow.hand):
            self.hand_ever[seat] |= {card_label(c) for c in hand if not is_joker(c)}

    def _add(self, events) -> None:
        from draw.cards import label

        self.events += events
        for event in events:
            if event.seat is not None:
                continue
            data = event.data
            codes: list[str] = []
            if event.kind == "dealt":
                codes = [c for cards in data.get("face_up", {}).values() for c in cards]
            elif event.kind == "swap":
                codes = [data["to_up"], data["to_hand"]]
            elif event.kind in ("chose_up", "played", "picked_up"):
                codes = list(data["cards"])
            elif event.kind in ("flipped", "stacked"):
                codes = [data["card"]]
            self.public |= {label(c) for c in codes if not c.startswith("X")}

    def update(self) -> None:
        log = self.table.engine.log
        for seat, action in log[self.seen :]:
            _, events = self.shadow.apply(seat, action)
            self._add(events)
            self._note_hands()
        self.seen = len(log)

    def hand_faces(self, seat: int) -> set[str]:
        from draw.cards import label

        return {label(c) for c in self.table.engine.view(seat)["hand"] if not c.startswith("X")}

    def check_channel(self, channel) -> None:
        self.update()
        for message in channel.history():
            leaked = card_faces(message_text(message)) - self.public
            assert not leaked, f"hidden cards {leaked} in a channel message:\n{message_text(message)}"

    def check_viewers(self, channel, members: dict[int, Any]) -> None:
        """Everything each person can read in the channel (their own ephemeral panels included)
        names only cards that were public or that they held themselves."""
        self.update()
        for seat, member in members.items():
            for message in channel.history(viewer=member):
                leaked = card_faces(message_text(message)) - self.public - self.hand_ever[seat]
                assert not leaked, f"seat {seat} could read cards {leaked}:\n{message_text(message)}"

    def check_private(self, message, seat: int) -> None:
        self.update()
        leaked = card_faces(message_text(message)) - self.public - self.hand_faces(seat)
        assert not leaked, f"seat {seat} was shown cards {leaked} it may not see:\n{message_text(message)}"


class ShitheadDriver:
    """Plays Shithead through the table's **My cards** button and the private panel.

    Human seats decide with ``policy(view, seq)`` (by default the engine's sensible player, seeded
    with the action count so a game replays exactly), then carry the decision out only with the
    panel's own selects and buttons. Computer seats are left to the bot.
    """

    def __init__(self, env, channel, actors: dict[int, Any], policy=None, watch: bool = True) -> None:
        self.env = env
        self.channel = channel
        self.actors = actors  # user id -> member actor
        self.bot_id = env.bot.user.id
        self.policy = policy or _sensible
        self.live = env.bot.tables.in_channel(channel.id, "shithead")
        assert self.live is not None and self.live.engine is not None
        self.watch = SecretWatch(self.live) if watch else None
        self.panels: dict[int, Any] = {}  # seat -> its newest panel message
        self.keep: set[int] = set()  # seats whose newest copy keeps its buttons (see open_panel)
        self.human_actions = 0

    @property
    def engine(self):
        return self.live.engine

    def table_message(self):
        return table_message(self.channel, self.bot_id)

    async def open_panel(self, seat: int, keep: bool = False):
        """My cards for ``seat``; ``keep``: this copy keeps its buttons when a newer one is opened
        (the bot's edit turning it into a pointer is refused), to be pressed later as an old copy."""
        actor = self.actors[self.live.seats[seat].user_id]
        if seat in self.keep:
            self.keep.discard(seat)
            refuse_pointer_edits(self.env)
        shown = await actor.click(self.table_message(), label="My cards")
        assert shown.response is not None and shown.response.ephemeral, shown
        self.panels[seat] = shown.response
        if keep:
            self.keep.add(seat)
        return shown.response

    def _check(self, result, seat: int):
        assert result.acknowledged, result
        message = result.response
        assert message is not None and message.ephemeral, result
        text = message_text(message)
        assert "⚠️" not in text, f"the bot refused a move the engine allows:\n{text}"
        self.panels[seat] = message
        if self.watch is not None:
            self.watch.check_private(message, seat)
            self.watch.check_channel(self.channel)
        return message

    async def act(self, seat: int, action: dict, panel=None):
        """Carry out ``action`` for ``seat`` through the panel (opened fresh unless given)."""
        actor = self.actors[self.live.seats[seat].user_id]
        panel = panel or await self.open_panel(seat)
        kind = action["type"]
        before = len(self.engine.log)
        if kind == "swap" and has_component(panel, f":swap:{action['hand']}>{action['up']}"):
            button = find_component(panel, f"shq:{self.live.id}:", f":swap:{action['hand']}>{action['up']}")
            result = await actor.click(panel, custom_id=button["custom_id"])
        elif kind == "swap":  # more swaps than buttons: the list
            select = find_component(panel, "shs:", ":swap")
            result = await actor.select(panel, [f"{action['hand']}>{action['up']}"], custom_id=select["custom_id"])
        elif kind == "stack":  # Karma's stacking: one press
            result = await actor.click(panel, custom_id=find_component(panel, f":stack:{action['card']}")["custom_id"])
        elif kind == "ready":
            result = await actor.click(panel, custom_id=find_component(panel, ":ready")["custom_id"])
        elif kind == "choose_up":
            in_hand = self.engine.view(seat)["hand"]
            for card in action["cards"]:  # one tap a card, then confirm
                mask = _tapped_mask(panel)
                index = next(i for i, c in enumerate(in_hand) if c == card and not mask >> i & 1)
                tapped = await actor.click(
                    panel, custom_id=find_component(panel, f":tap:{mask | 1 << index:x}")["custom_id"]
                )
                panel = self._check(tapped, seat)
            result = await actor.click(panel, custom_id=find_component(panel, ":confirm")["custom_id"])
        elif kind == "play":
            quick = _quick_play(panel, action["cards"])
            if quick is not None:  # one press
                result = await actor.click(panel, custom_id=quick)
            else:  # a play no button offers: the list, then Play
                select = find_component(panel, ":sel")
                wanted = set(action["cards"])
                values = [o["value"] for o in select["options"] if set(o["value"].split(".")) & wanted]
                chosen = await actor.select(panel, values, custom_id=select["custom_id"])
                panel = self._check(chosen, seat)
                result = await actor.click(panel, custom_id=find_component(panel, ":play:")["custom_id"])
        elif kind == "pickup" and "add" in action:
            result = await actor.click(panel, custom_id=find_component(panel, f":add:{action['add']}")["custom_id"])
        elif kind == "pickup":
            result = await actor.click(panel, custom_id=find_component(panel, ":pick")["custom_id"])
        elif kind == "flip":
            button = find_component(panel, f":flip:{action['index']:x}")
            result = await actor.click(panel, custom_id=button["custom_id"])
        else:
            raise AssertionError(f"unknown action {action}")
        self._check(result, seat)
        log = self.engine.log
        assert len(log) > before and log[before][0] == seat, f"{action} was not played"
        self.human_actions += 1
        return result

    async def step(self) -> bool:
        """One action by the first person to act; False once the game is over."""
        engine = self.engine
        if engine.is_over:
            return False
        people = [s for s in engine.to_act() if self.live.seats[s].ai_level is None]
        assert people, "only computers are to act, yet the bot is not moving"
        seat = people[0]
        view = engine.view(seat)
        action = self.policy(view, view["action_count"])
        await self.act(seat, action)
        return True

    def flips(self, playable: bool) -> list[int]:
        """Seats of people whose face-down flips fitted (or, ``playable=False``, did not)."""
        assert self.watch is not None
        self.watch.update()
        return [
            e.data["seat"]
            for e in self.watch.events
            if e.kind == "flipped"
            and e.data["playable"] is playable
            and self.live.seats[e.data["seat"]].ai_level is None
        ]

    async def play_to_end(self, limit: int = 3000) -> None:
        for _ in range(limit):
            if not await self.step():
                self.check_viewers()
                return
        raise AssertionError("the game did not end")

    def check_viewers(self) -> None:
        if self.watch is not None:
            seats = {s.seat: self.actors[s.user_id] for s in self.live.seats if s.user_id in self.actors}
            self.watch.check_viewers(self.channel, seats)


def _tapped_mask(panel) -> int:
    """The choice a choosing-deal panel shows: a tapped card's button is green (style 3); the
    tap buttons come in hand order."""
    taps = [c for c in walk_components(panel.components) if ":tap:" in (c.get("custom_id") or "")]
    return sum(1 << i for i, c in enumerate(taps) if c.get("style") == 3)


async def end_game(host, channel, command: str = "ohhell"):
    """``/<game> end`` as the host, then **Confirm** on the question it asks; returns the press."""
    asked = await host.slash(channel, f"{command} end")
    assert asked.ephemeral and "No result is recorded" in asked.response.content, asked
    confirmed = await host.click(asked.response, label="Confirm")
    assert confirmed.acknowledged, confirmed
    return confirmed


def small_searches(monkeypatch) -> None:
    """The strong computers search a few worlds a decision instead of the bot's hundreds, for a
    test of the bot's tables (what a game shows, stores, verifies), not of how well the computer
    plays: their searches were a third of the SimCord tests' time. They still play as the strong
    level does (the same code, the same name, decisions repeatable from the seed), only from
    fewer worlds; the searches themselves are tested under tests/games, at their real size where
    it matters (tests/cogs/shithead/test_levels.py keeps the bot's own)."""
    import dataclasses

    from games.ohhell.ai import players
    from games.shithead import search

    monkeypatch.setattr(search, "DEFAULT_SEARCH", dataclasses.replace(search.DEFAULT_SEARCH, **SMALL_SHITHEAD_SEARCH))
    monkeypatch.setattr(players, "DEFAULT_STRONG", dataclasses.replace(players.DEFAULT_STRONG, **SMALL_OHHELL_SEARCH))


def speaks(monkeypatch, actor, locale: str) -> None:
    """Make ``actor``'s Discord client speak ``locale`` (``de``, ``es-ES``...): every interaction
    they start carries it as ``interaction.locale``, as Discord sends the client's language.
    SimCord always sends ``en-US``; this wraps its payload builder for the rest of the test."""
    import simcord.interactions as built

    spoken: dict[int, str] | None = getattr(built.base_payload, "spoken", None)
    if spoken is None:
        original = built.base_payload
        spoken = {}

        def base_payload(*args: Any, **kwargs: Any) -> Any:
            record, payload = original(*args, **kwargs)
            if kwargs["user_id"] in spoken:
                payload["locale"] = spoken[kwargs["user_id"]]
            return record, payload

        base_payload.spoken = spoken  # type: ignore[attr-defined]
        monkeypatch.setattr(built, "base_payload", base_payload)
    spoken[actor.id] = locale
