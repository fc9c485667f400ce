"""bench/trace_click.py's counting, on synthetic calls: what each figure of the trace counts
(files, bot/ <-> cogs/ handoffs, engine views, table renders, store transactions), so the figures
it prints can be trusted. No timing here: the script itself plays the games."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "trace_click.py"


@pytest.fixture(scope="module")
def trace() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("trace_click", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["trace_click"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_synthetic_press_is_counted_as_documented(trace: types.ModuleType) -> None:
    Call = trace.Call
    calls = [
        # the click reaches the game's panel from the runtime's component (bot -> cogs), which
        # calls the move pipeline (cogs -> bot); a coroutine resuming is no call
        Call("bot/components.py", "Dynamic.callback", None),
        Call("cogs/ohhell/panel.py", "PanelButton.handle", "bot/components.py"),
        Call("bot/tables.py", "TableManager.act", "cogs/ohhell/panel.py"),
        Call("bot/tables.py", "TableManager.act", "cogs/ohhell/panel.py", fresh=False),
        # calls inside one side, into db/ or games/, or from outside the project are no handoffs
        Call("bot/presentation.py", "Presenter.update", "bot/tables.py"),
        Call("cogs/ohhell/kind.py", "OhHellKind.message_key", None),
        Call("db/sqlite.py", "SqliteStore.record_action", "bot/tables.py"),
        Call("games/ohhell/game.py", "OhHell.view", "cogs/ohhell/kind.py"),
        # one store transaction; its context manager resuming at COMMIT is not a second one
        Call("db/sqlite_connection.py", "SqliteConnection._tx", None),
        Call("db/sqlite_connection.py", "SqliteConnection._tx", None, fresh=False),
        # Oh Hell views: a public one, and a seat's (built on a public_view of its own)
        Call("games/ohhell/views.py", "public_view", "games/ohhell/game.py", viewer=None),
        Call("games/ohhell/views.py", "public_view", "games/ohhell/game.py", viewer=1),
        Call("games/ohhell/views.py", "seat_view", "games/ohhell/game.py"),
        # Shithead views: public and a seat's
        Call("games/shithead/views.py", "view", "games/shithead/game.py", viewer=None),
        Call("games/shithead/views.py", "view", "games/shithead/game.py", viewer=0),
        # table renders, one from the runtime (a handoff too); a panel render is not one
        Call("cogs/ohhell/kind.py", "OhHellKind.draw_table", "bot/contract.py"),
        Call("cogs/shithead/kind.py", "ShitheadKind.closing", "cogs/shithead/kind.py"),
        Call("cogs/ohhell/kind.py", "OhHellKind.draw_panel", "bot/contract.py"),
        # the drawing toolkit is on the game's side: from the runtime a handoff, from a game none
        Call("draw/readable.py", "drawn_readable", "bot/contract.py"),
        Call("cogs/ohhell/kind.py", "OhHellKind.draw_panel", "draw/readable.py"),
        Call("draw/cards.py", "card_label", "cogs/ohhell/panel.py"),
    ]
    t = trace.tally(calls)
    assert t.files == {
        "bot/components.py",
        "cogs/ohhell/panel.py",
        "bot/tables.py",
        "bot/presentation.py",
        "cogs/ohhell/kind.py",
        "db/sqlite.py",
        "games/ohhell/game.py",
        "db/sqlite_connection.py",
        "games/ohhell/views.py",
        "games/shithead/views.py",
        "cogs/shithead/kind.py",
        "draw/readable.py",
        "draw/cards.py",
    }
    assert dict(t.handoffs) == {("bot", "cogs"): 4, ("cogs", "bot"): 1}
    assert t.resumed_handoffs == 1
    assert (t.public_views, t.seat_views) == (2, 2)
    assert dict(t.renders) == {
        "cogs/ohhell/kind.py:OhHellKind.draw_table": 1,
        "cogs/shithead/kind.py:ShitheadKind.closing": 1,
    }
    assert t.transactions == 1
    assert t.panels == 2
    # (two messages, the live table and a closed one, each rendered once)
    assert t.line() == "files=13 handoffs=5 views=4 renders=1 transactions=1"


def test_renders_count_the_most_renders_of_one_message(trace: types.ModuleType) -> None:
    """A deal's end renders the closed table and the next deal's table once each (renders=1); a
    closing drawn twice, one thrown away, is renders=2."""
    Call = trace.Call
    closing = Call("cogs/ohhell/kind.py", "OhHellKind.closing", "bot/presentation.py")
    table = Call("cogs/ohhell/kind.py", "OhHellKind.draw_table", "bot/contract.py")
    assert trace.tally([closing, table]).most_renders == 1
    assert trace.tally([closing, table, closing]).most_renders == 2
    assert trace.tally([]).most_renders == 0


def test_the_last_line_is_the_highest_of_each_figure(trace: types.ModuleType) -> None:
    Call = trace.Call
    tx = Call("db/sqlite_connection.py", "SqliteConnection._tx", None)
    view = Call("games/shithead/views.py", "view", "games/shithead/game.py", viewer=None)
    hand = Call("bot/tables.py", "TableManager.act", "cogs/ohhell/panel.py")
    one, two = trace.tally([tx, tx, view]), trace.tally([hand, view, view, tx])
    assert trace.worst([one, two]).line() == "files=3 handoffs=1 views=2 renders=0 transactions=2"


def test_an_empty_trace_counts_nothing(trace: types.ModuleType) -> None:
    assert trace.tally([]).line() == "files=0 handoffs=0 views=0 renders=0 transactions=0"


def test_only_the_project_folders_are_project_files(trace: types.ModuleType) -> None:
    root = Path(trace.ROOT)
    assert trace.project_file(str(root / "bot" / "tables.py")) == "bot/tables.py"
    assert trace.project_file(str(root / "games" / "ohhell" / "views.py")) == "games/ohhell/views.py"
    assert trace.project_file(str(root / "draw" / "cards.py")) == "draw/cards.py"
    assert trace.project_file(str(root / "bench" / "trace_click.py")) is None
    assert trace.project_file(str(root / "tests" / "helpers.py")) is None
    assert trace.project_file(asyncio.__file__) is None


def test_a_coroutine_is_called_once_however_often_it_resumes(trace: types.ModuleType) -> None:
    """The real frames: a plain function is fresh at each call; a coroutine and an async context
    manager only when they start (each ``await`` resumes them with a call event too)."""
    seen: list[tuple[str, bool]] = []

    def plain() -> int:
        return 1

    async def inner(x: int) -> int:
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return x + plain()

    async def outer() -> None:
        await inner(1)
        await inner(2)

    def hook(frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename == __file__:
            seen.append((frame.f_code.co_name, trace.is_fresh(frame.f_code, frame.f_lasti)))

    sys.setprofile(hook)
    try:
        asyncio.run(outer())
    finally:
        sys.setprofile(None)
    fresh = [name for name, started in seen if started]
    assert fresh == ["outer", "inner", "plain", "inner", "plain"], seen
    assert len(seen) > len(fresh)  # the resumes were seen, and not counted as calls


def test_every_function_counted_is_where_the_script_looks(trace: types.ModuleType) -> None:
    """A refactor that moves a view, renderer or the transaction boundary must update the script's
    targets (it refuses to run and count zero)."""
    trace.check_targets()
