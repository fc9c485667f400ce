"""Traces presses through the bot: which files each runs, how often it crosses bot/ <-> cogs/, how
many engine views and table renders it makes, and how many store transactions.

Plays a 3-player game of each game to its end through the real bot in SimCord (seeded: the same
deals every run); each player presses My hand / My cards once at the start so that **every
player's panel is open**, and everyone moves with one press on their own live panel. Three presses
of each game are traced (the first of each kind), each from the click until the bot has settled
(SimCord's ``env.settle()``, then the virtual clock run on by 2 s so that the display's coalescing
pause ends: the answer, the redraw of every open panel, the display's edit or post of the table
message, the panels sent again below a new table, everything else it set off):

- Oh Hell (default preset ``classic``; ``--quick``: two deals, of 2 cards then 1, instead of 19):
  **mid-deal**, the first card of the game (the lead of deal 1's first trick; the moves before it
  are each player's first enabled button); **deal-ending**, the last card of deal 1 (which scores
  it and deals deal 2); **game-ending**, the last card of the game.
- Shithead (default preset) has no deals: **mid-deal** here is its mid-game press, the first play
  of the play phase made with one press of a quick-play button (the moves before are the engine's
  sensible player's, seeded, pressed on the panels); **game-ending**, the press that ends the game.
  It has no deal-ending press.

Which kind of press a move is, is found before it on a copy of the engine (``copy.deepcopy``, then
``apply``); the live engine is the bot's. A computer's move that follows a press would be traced
with it (it is set off by the press and runs before the bot settles), counted as its own move: the
seats here are all people, so none does.

Tracing is ``sys.setprofile`` in the event loop's thread for the press only, plus
``threading.setprofile`` installed before the bot starts (so every thread the bot starts, aiosqlite's
included, reports too; it counts only while the press is traced). Only Python ``call`` events are
used. A **fresh call** is a call event that starts a function: every call of a plain function, and
the first start of a coroutine or generator (its frame is at its first ``RESUME`` instruction); the
later resumes of a coroutine (after each ``await``) are not calls. Each figure, with where it is
counted (:class:`Tally` does the counting; :func:`frame_call` turns a frame into a :class:`Call`):

- ``files``: distinct source files under ``bot/ cogs/ db/ draw/ games/`` with at least one call
  event (fresh or a resume) whose frame runs code of that file.
- ``handoffs``: fresh calls whose callee's file is on one side and whose caller frame
  (``frame.f_back``, the frame directly below, whatever it is) is on the other: the runtime's side
  is ``bot/``, the game's side ``cogs/`` and ``draw/`` (the drawing toolkit, which draws for the
  games, counts with the game's side). A call that goes through discord.py or asyncio in between
  (a task, a button callback) is not a handoff: the frame directly below is not project code. The
  detail line splits it by direction.
- ``views``: engine views built. Oh Hell: fresh calls of ``games/ohhell/views.py:public_view`` with
  ``viewer=None`` (a public view) plus fresh calls of ``games/ohhell/views.py:seat_view`` (a seat's
  view; it is built on a ``public_view(viewer=seat)`` of its own, which is not counted again).
  Shithead: fresh calls of ``games/shithead/views.py:view`` (public when ``viewer`` is None, else a
  seat's). The detail line splits public / seat. Beside each line: how many seats' own views
  (``engine.view(seat)``, built outside the trace) differ after the press; ``views`` should be at
  most one more (the public view).
- ``renders``: renders of **one** table message: the most fresh calls of one of the game adapters'
  table-message renderers, ``GameKind.draw_table`` (the live table: what the runtime's
  ``GameKind.table`` hands the public view) or ``GameKind.closing`` (the last look of the table
  message a deal's or the game's end closes), ``cogs/ohhell/kind.py:OhHellKind.draw_table`` /
  ``.closing``, ``cogs/shithead/kind.py:ShitheadKind.draw_table`` / ``.closing``. Each call renders
  a whole table message (embed, picture, buttons), whether or not it is sent. A deal-ending press
  renders two messages, the closed deal's table and the next deal's: each once is ``renders=1``;
  the detail line lists every renderer's count.
- ``transactions``: fresh calls of the store's one transaction boundary, the async context manager
  ``db/sqlite_connection.py:SqliteConnection._tx`` (``BEGIN IMMEDIATE … COMMIT``; PostgreSQL's is
  ``db/postgres_pool.py:PostgresPool._tx``, counted too). The bench runs on SQLite. ``--list``
  names the store method that opened each, and who called it.

The detail line also counts the panels drawn (fresh calls of the adapters' ``draw_panel``) and the
panels open when the press was made.

Every function named above is looked up before the run (:func:`check_targets`): if a refactor
renames or moves one, the script stops and says which, rather than counting zero.

One line is printed for each press traced, ``GAME KIND (C seats' views changed): files=F
handoffs=H views=V renders=R transactions=T``. The last line is ``files=F handoffs=H views=V
renders=R transactions=T``, the highest of each figure over every press traced. ``--list`` also prints
the files, the handoffs (caller -> callee function) and the transactions of each press.
``--quick`` plays the shorter Oh Hell game (the same presses, the same code); the suite runs it.

    python bench/trace_click.py [--seed 1] [--list] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import dis
import importlib
import os
import sys
import tempfile
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

#: the project's source folders (``files`` counts files under these)
PROJECT = ("bot", "cogs", "db", "draw", "games")
#: ``handoffs`` counts calls between the two sides, the runtime (``bot``) and the game's (``cogs``);
#: the drawing toolkit ``draw/`` draws for the games, and counts with the game's side
SIDES = {"bot": "bot", "cogs": "cogs", "draw": "cogs"}
#: Oh Hell: a public view (counted when ``viewer`` is None) and a seat's view
OHHELL_PUBLIC = "games/ohhell/views.py:public_view"
OHHELL_SEAT = "games/ohhell/views.py:seat_view"
#: Shithead: every view (public when ``viewer`` is None)
SHITHEAD_VIEW = "games/shithead/views.py:view"
VIEWS = (OHHELL_PUBLIC, OHHELL_SEAT, SHITHEAD_VIEW)
RENDERS = (
    "cogs/ohhell/kind.py:OhHellKind.draw_table",
    "cogs/ohhell/kind.py:OhHellKind.closing",
    "cogs/shithead/kind.py:ShitheadKind.draw_table",
    "cogs/shithead/kind.py:ShitheadKind.closing",
)
#: the game adapters' panel renderers (``GameKind.draw_panel``, handed a seat's view by the runtime's ``panel``)
PANELS = ("cogs/ohhell/kind.py:OhHellKind.draw_panel", "cogs/shithead/kind.py:ShitheadKind.draw_panel")
TRANSACTIONS = ("db/sqlite_connection.py:SqliteConnection._tx", "db/postgres_pool.py:PostgresPool._tx")

#: code flags of a function whose frame can be suspended and resumed
_RESUMABLE = 0x20 | 0x80 | 0x100 | 0x200  # generator, coroutine, iterable coroutine, async generator


@dataclass(frozen=True)
class Call:
    """One call event in project code: ``file`` (``bot/tables/manager.py``) and ``function`` (its
    qualified name, ``TableManager.act``) of the frame that runs; ``caller``: the file of the frame
    directly below it, or None when that is not project code; ``fresh``: the function starts (not
    a coroutine resuming); ``viewer``: a view function's ``viewer`` argument."""

    file: str
    function: str
    caller: str | None = None
    fresh: bool = True
    viewer: Any = None

    @property
    def key(self) -> str:
        return f"{self.file}:{self.function}"


def _side(path: str | None) -> str | None:
    return SIDES.get(path.split("/", 1)[0]) if path else None


@dataclass
class Tally:
    """The counting: :meth:`add` each :class:`Call` of the traced press, then read the figures."""

    files: set[str] = field(default_factory=set)
    handoffs: Counter[tuple[str, str]] = field(default_factory=Counter)  # (caller side, callee side)
    handoff_calls: Counter[str] = field(default_factory=Counter)  # "caller file -> callee key"
    #: for comparison only (not a figure): coroutine resumes that cross bot/ <-> cogs/
    resumed_handoffs: int = 0
    public_views: int = 0
    seat_views: int = 0
    renders: Counter[str] = field(default_factory=Counter)
    panels: int = 0
    transactions: int = 0
    #: for ``--list``: the project function outside ``db/`` that opened each transaction
    committers: list[str] = field(default_factory=list)

    def add(self, call: Call) -> None:
        self.files.add(call.file)
        here, below = _side(call.file), _side(call.caller)
        crosses = here is not None and below is not None and here != below
        if not call.fresh:
            self.resumed_handoffs += crosses
            return
        if crosses:
            assert here is not None and below is not None
            self.handoffs[(below, here)] += 1
            self.handoff_calls[f"{call.caller} -> {call.key}"] += 1
        key = call.key
        if key in VIEWS:
            if key == OHHELL_SEAT or (key == SHITHEAD_VIEW and call.viewer is not None):
                self.seat_views += 1
            elif call.viewer is None:
                self.public_views += 1
        elif key in RENDERS:
            self.renders[key] += 1
        elif key in PANELS:
            self.panels += 1
        elif key in TRANSACTIONS:
            self.transactions += 1

    @property
    def views(self) -> int:
        return self.public_views + self.seat_views

    @property
    def most_renders(self) -> int:
        """The most renders of one table message: each renderer draws one message (``draw_table``
        the live table, ``closing`` the table message a deal's or the game's end closes)."""
        per_message = Counter(key.rsplit(".", 1)[-1] for key in self.renders.elements())
        return max(per_message.values(), default=0)

    def line(self) -> str:
        return (
            f"files={len(self.files)} handoffs={sum(self.handoffs.values())} views={self.views} "
            f"renders={self.most_renders} transactions={self.transactions}"
        )

    def details(self) -> str:
        directions = ", ".join(f"{a}->{b} {n}" for (a, b), n in sorted(self.handoffs.items())) or "none"
        renders = ", ".join(f"{k.split(':')[1]} {n}" for k, n in sorted(self.renders.items())) or "none"
        folders = {f.rsplit("/", 1)[0] for f in self.files}
        return (
            f"handoffs {directions} ({len(self.handoff_calls)} distinct caller file -> function; "
            f"{self.resumed_handoffs} more resumes of a coroutine cross); "
            f"views: {self.public_views} public, {self.seat_views} per seat; "
            f"renders: {renders}; {self.panels} panels drawn; {len(folders)} folders"
        )


def worst(tallies: list[Tally]) -> Tally:
    """The highest of each figure over ``tallies`` (every press traced stays at or under it)."""
    out = Tally()
    for t in tallies:
        out.files = max(out.files, t.files, key=len)
        if sum(t.handoffs.values()) > sum(out.handoffs.values()):
            out.handoffs = t.handoffs
        if t.views > out.views:
            out.public_views, out.seat_views = t.public_views, t.seat_views
        if t.most_renders > out.most_renders:
            out.renders = t.renders
        out.transactions = max(out.transactions, t.transactions)
    return out


def tally(calls: Iterable[Call]) -> Tally:
    """The figures of a sequence of calls (the tests feed it a synthetic one)."""
    out = Tally()
    for call in calls:
        out.add(call)
    return out


# -- from frames to calls ------------------------------------------------------------------------
_where: dict[str, str | None] = {}
_first_resume: dict[types.CodeType, int] = {}


def project_file(filename: str) -> str | None:
    """``bot/tables/manager.py`` for a file of the project's source folders, else None (cached)."""
    found = _where.get(filename, "?")
    if found == "?":
        path = os.path.realpath(filename)
        rel = os.path.relpath(path, os.path.realpath(ROOT)).replace(os.sep, "/")
        found = rel if rel.split("/", 1)[0] in PROJECT and not rel.startswith("..") else None
        _where[filename] = found
    return found


def is_fresh(code: types.CodeType, lasti: int) -> bool:
    """Whether a call event starts the function: always for a plain function; for a coroutine or
    generator only when its frame stands at its first ``RESUME`` (Python 3.11; a resume after an
    ``await`` or ``yield`` stands at a later one)."""
    if not code.co_flags & _RESUMABLE:
        return True
    first = _first_resume.get(code)
    if first is None:
        first = next((i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
        _first_resume[code] = first
    return lasti <= first


def frame_call(frame: types.FrameType) -> Call | None:
    code = frame.f_code
    file = project_file(code.co_filename)
    if file is None:
        return None
    back = frame.f_back
    caller = project_file(back.f_code.co_filename) if back is not None else None
    fresh = is_fresh(code, frame.f_lasti)
    viewer = None
    if fresh and f"{file}:{code.co_qualname}" in VIEWS:
        viewer = frame.f_locals.get("viewer")
    return Call(file, code.co_qualname, caller, fresh, viewer)


def _committer(frame: types.FrameType | None) -> str:
    """Who opened a transaction: the store's method, and the nearest project function below it
    outside ``db/`` and the store's timing wrapper (``bot/host/metrics.py``)."""
    chain = []
    while frame is not None:
        file = project_file(frame.f_code.co_filename)
        if file is not None:
            chain.append((file, frame.f_code.co_qualname))
        frame = frame.f_back
    store = next((f"{q}" for f, q in chain[1:] if f.startswith("db/")), "?")
    outside = next((f"{f}:{q}" for f, q in chain if not f.startswith("db/") and f != "bot/host/metrics.py"), "?")
    return f"{store} <- {outside}"


class Tracer:
    """Counts into :attr:`tally` while :meth:`start`-ed. :meth:`install` (before the bot starts)
    hooks every thread started afterwards; the event loop's thread is hooked by :meth:`start`."""

    def __init__(self) -> None:
        self.tally = Tally()
        self.active = False
        self.lock = threading.Lock()

    def hook(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event != "call" or not self.active:
            return
        call = frame_call(frame)
        if call is not None:
            with self.lock:
                self.tally.add(call)
                if call.fresh and call.key in TRANSACTIONS:
                    self.tally.committers.append(_committer(frame))

    def install(self) -> None:
        threading.setprofile(self.hook)

    def start(self) -> None:
        self.tally = Tally()
        self.active = True
        sys.setprofile(self.hook)

    def stop(self) -> Tally:
        sys.setprofile(None)
        self.active = False
        return self.tally


def check_targets() -> None:
    """Every function the figures count exists where this script looks for it."""
    for key in (*VIEWS, *RENDERS, *PANELS, *TRANSACTIONS):
        path, qualname = key.split(":")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        target: Any = module
        for part in qualname.split("."):
            target = getattr(target, part, None)
            if target is None:
                raise SystemExit(f"bench/trace_click.py: {key} is gone; update the targets at the top")
        code = getattr(getattr(target, "__wrapped__", target), "__code__", None)
        if code is None or project_file(code.co_filename) != path or code.co_qualname != qualname:
            raise SystemExit(f"bench/trace_click.py: {key} is not where the script looks for it")


# -- the games -----------------------------------------------------------------------------------
def _seeded(seed: int) -> None:
    """Every game deals the same cards: the seat's seed and the commitment's salt are fixed."""
    import bot.fairness.shuffles

    bot.fairness.shuffles.new_seed = lambda: seed
    bot.fairness.shuffles.new_salt = lambda: bytes(range(32))


#: virtual seconds the clock runs after each press: the display's coalescing pause and any retry end
PAUSES = 2.0
#: the presses traced in each game, in the order they come
MID, DEAL_END, GAME_END = "mid-deal", "deal-ending", "game-ending"  # (Shithead's "mid-deal": mid-game)


@dataclass
class Press:
    game: str
    kind: str = ""
    what: str = ""
    rest: Counter[str] = field(default_factory=Counter)
    tally: Tally = field(default_factory=Tally)
    #: seats whose own view of the game differs after the press
    changed: int = 0
    #: seats whose panel was open when the press was made
    open_panels: int = 0


def _raw(message: Any) -> list[dict[str, Any]]:
    from bench.simdriver import walk_components

    return walk_components([c if isinstance(c, dict) else c.to_dict() for c in message.components])


def _move_buttons(message: Any, prefixes: tuple[str, ...]) -> list[dict[str, Any]]:
    out = []
    for c in _raw(message):
        cid = c.get("custom_id") or ""
        if c.get("type") != 2 or c.get("disabled") or not cid.startswith(prefixes):
            continue
        if ":refresh:" in cid or ":sort:" in cid or cid.endswith(":r:"):
            continue
        out.append(c)
    return out


def _ohhell_action(custom_id: str) -> dict[str, Any]:
    """The engine's action of an Oh Hell panel button (``ohp:…:b:2`` a bid, ``ohp:…:p:N.QH`` a card)."""
    act, arg = custom_id.split(":", 4)[3:5]
    if act == "b":
        return {"type": "bid", "bid": int(arg)}
    return {"type": "play", "card": arg.partition(".")[2]}


def _kind_of(engine: Any, seat: int, action: dict[str, Any], game: str) -> str | None:
    """Which traced press ``action`` would be (:data:`MID`, :data:`DEAL_END`, :data:`GAME_END`),
    found on a copy of the engine (the live one is the bot's), or None for a press not traced."""
    after, _ = copy.deepcopy(engine).apply(seat, action)
    if after.is_over:
        return GAME_END
    if game == "ohhell":
        if after.deal_number != engine.deal_number:
            return DEAL_END
        return MID if action["type"] == "play" else None
    return MID if action["type"] == "play" and engine.view(seat)["phase"] == "play" else None


def _views(engine: Any, seats: int) -> list[Any]:
    return [engine.view(seat) for seat in range(seats)]


async def play(game: str, seed: int, tracer: Tracer, options: dict[str, str] | None = None) -> list[Press]:
    """Play ``game`` to its end, tracing the first press of each kind (:data:`MID`,
    :data:`DEAL_END`, :data:`GAME_END`)."""
    import simcord

    from bench.simdriver import (
        _quick_play,
        _sensible,
        live_panel,
        make_bot,
        open_table,
        settle_promptly,
        table_message,
    )
    from bot.messages.presentation import COALESCE

    _seeded(seed)
    settle_promptly()
    traced: dict[str, Press] = {}
    with tempfile.TemporaryDirectory() as tmp:
        # (the lobby without the display's coalescing pause: on the virtual clock an edit of the
        # lobby waiting on it never lets SimCord settle; the game's presses run with it)
        bot = make_bot(os.path.join(tmp, "trace.sqlite3"))
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                guild = env.create_guild()
                channel = guild.create_text_channel("cards")
                people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
                if game == "ohhell":
                    await open_table(env, channel, people[0], people[1:], options=options)
                else:
                    await open_table(env, channel, people[0], people[1:], command="shithead")
                table = bot.tables.in_channel(channel.id, game)
                assert table is not None
                bot.tables.presenter.coalesce = COALESCE  # as the bot runs
                for display in bot.tables.presenter.displays.values():
                    display.coalesce = COALESCE
                by_seat = {table.seat_of(p.id): p for p in people}
                for person in people:
                    await person.click(table_message(channel, bot.user.id), label=table.kind.hand_button)
                prefixes = ("ohp:",) if game == "ohhell" else ("shq:", "shb:")
                for _ in range(5000):
                    engine = table.engine
                    seat = engine.to_act()[0]
                    person = by_seat[seat]
                    panel = live_panel(env, channel, person)
                    assert panel is not None, f"seat {seat} has no live panel"
                    buttons = _move_buttons(panel, prefixes)
                    assert buttons, f"the panel of seat {seat} offers no move"
                    if game == "ohhell":
                        cid = buttons[0]["custom_id"]
                        action = _ohhell_action(cid)
                        what = f"seat {seat} {'leads' if action['type'] == 'play' else 'bids'} {cid.rsplit('.', 1)[-1]}"
                    else:
                        view = engine.view(seat)
                        action = _sensible(view, view["action_count"])
                        wanted = _quick_play(panel, action["cards"]) if action["type"] == "play" else None
                        found = wanted or _shithead_button(buttons, action)
                        cid = found or buttons[0]["custom_id"]
                        what = f"seat {seat} {action['type']}s {'.'.join(action.get('cards', []))} (one press)"
                        # (traced only where the press is exactly the action, so the copy foresees it)
                        exact = (
                            sorted(wanted.rsplit(":", 1)[1].split(".")) == sorted(action["cards"])
                            if wanted is not None
                            else found is not None
                        )
                    kind = _kind_of(engine, seat, action, game) if game == "ohhell" or exact else None
                    before = engine.action_count
                    if kind is not None and kind not in traced:
                        if game == "ohhell":
                            what = f"seat {seat} plays {action['card']} (deal {engine.deal_number})"
                        label = "mid-game" if kind == MID and game != "ohhell" else kind  # (no deals)
                        press = traced[kind] = Press(game, label, what)
                        press.open_panels = sum(bot.tables.presenter.panels.live(table, s) for s in by_seat)
                        seen = _views(engine, len(by_seat))
                        await env.advance_time(PAUSES)  # what the presses before left to show is shown
                        start = len(env.http_requests)
                        tracer.start()
                        try:
                            await person.click(panel, custom_id=cid)
                            await env.settle()
                            await env.advance_time(PAUSES)
                        finally:
                            press.tally = tracer.stop()
                        after = table.engine
                        press.changed = sum(a != b for a, b in zip(seen, _views(after, len(by_seat)), strict=True))
                        for r in env.http_requests[start:]:
                            press.rest[_rest_kind(r, table.record.message_id)] += 1
                        assert press.rest["table edit"] or kind != MID, "the display did not edit the table"
                    else:
                        await person.click(panel, custom_id=cid)
                        await env.advance_time(PAUSES)
                    assert table.engine.action_count == before + 1, f"{cid} made no move"
                    if table.engine.is_over:
                        await env.settle()
                        missing = {MID, DEAL_END, GAME_END} - set(traced) - ({DEAL_END} if game != "ohhell" else set())
                        assert not missing, f"no {missing} press in the game"
                        return [traced[k] for k in (MID, DEAL_END, GAME_END) if k in traced]
                raise AssertionError("the game did not end")
        finally:
            await bot.close()


def _shithead_button(buttons: list[dict[str, Any]], action: dict[str, Any]) -> str | None:
    """The panel button that makes exactly ``action`` (None: no single button does)."""
    part = {
        "swap": f":swap:{action.get('hand')}>{action.get('up')}",
        "stack": f":stack:{action.get('card')}",
        "ready": ":ready:",
        "flip": f":flip:{action.get('index', 0):x}",
        "pickup": f":add:{action['add']}" if "add" in action else ":pick:",
    }.get(action["type"])
    return next((b["custom_id"] for b in buttons if part and part in b["custom_id"]), None)


def _rest_kind(request: Any, table_message_id: int | None) -> str:
    path = request.path
    if "/interactions/" in path and path.endswith("/callback"):
        return "answer"
    if path.startswith("/webhooks/") and request.method == "PATCH":
        return "panel edit"
    if request.method == "PATCH" and path.endswith(f"/messages/{table_message_id}"):
        return "table edit"
    return f"{request.method} other"


async def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="print the files and handoffs of each press")
    parser.add_argument(
        "--quick", action="store_true", help="a shorter Oh Hell game (the same presses); the suite runs it"
    )
    args = parser.parse_args(argv)
    check_targets()
    tracer = Tracer()
    tracer.install()  # before the bot starts its threads
    short = {"fixed_hands": "2,1"} if args.quick else None  # Oh Hell: a deal of 2 cards, then one of 1
    presses = [p for game in ("shithead", "ohhell") for p in await play(game, args.seed, tracer, short)]
    threading.setprofile(None)  # type: ignore[arg-type]
    for press in presses:
        t = press.tally
        rest = ", ".join(f"{k} {n}" for k, n in sorted(press.rest.items()))
        out(f"{press.game} {press.kind}: {press.what}; REST calls: {rest}")
        out(f"    {t.details()}; {press.open_panels} panels open")
        if args.list:
            for name in sorted(t.files):
                out(f"    file {name}")
            for name, n in sorted(t.handoff_calls.items()):
                out(f"    handoff {n} x {name}")
            for name in t.committers:
                out(f"    transaction opened by {name}")
    for press in presses:
        out(f"{press.game} {press.kind} ({press.changed} seats' views changed): {press.tally.line()}")
    out(worst([p.tally for p in presses]).line())


if __name__ == "__main__":
    asyncio.run(main())
