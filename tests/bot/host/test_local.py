"""The local mode (``python -m bot.host.local``) driven in headless Chromium, as a person would use it.

The command runs in its own process, as the README starts it (its strong computers searching
less: :data:`LAUNCH`); its clock runs, and the test also
moves it on (``advance SECONDS`` on the program's standard input): by a turn timer's length where
it waits for the timer, and by a step each time it looks for a computer's move and finds nothing
new. So nobody waits for a 30 s timer or a whole game in real time. (With the clock stopped,
``--clock-rate 0``, the bot never settled once a turn timer had run out: each step then cost two
of SimCord's 5 s settle limits.) The browser plays a few moves on the page the program prints;
Ctrl-C stops it; a second run continues the game.
Without Chromium (Debian's ``chromium``) the test is skipped with the reason printed; in CI
(``CI`` set) a missing Chromium is a failure, since ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from bench.browser import ENABLED, Page, browser_missing, browser_page

#: copies of the screenshots go here too when set: how the README's docs/local-mode.png,
#: live-panel.png, local-mode-pictures.png, local-mode-standings.png and local-mode-scores.png are made
#: (LOCAL_MODE_SCREENSHOT=docs/local-mode.png LIVE_PANEL_SCREENSHOT=docs/live-panel.png … pytest this file)
SCREENSHOT_COPY = os.environ.get("LOCAL_MODE_SCREENSHOT")
PANEL_COPY = os.environ.get("LIVE_PANEL_SCREENSHOT")
PICTURES_COPY = os.environ.get("LOCAL_MODE_PICTURES_SCREENSHOT")
STANDINGS_COPY = os.environ.get("LOCAL_MODE_STANDINGS_SCREENSHOT")
SCORES_COPY = os.environ.get("LOCAL_MODE_SCORES_SCREENSHOT")


MISSING = browser_missing()
if MISSING and os.environ.get("CI"):
    pytest.fail(f"CI must run the browser test, but {MISSING}", pytrace=False)
needs_browser = pytest.mark.skipif(MISSING is not None, reason=f"browser test skipped: {MISSING}")

TURN = re.compile(r"@(Alice|Bob), your (bid|turn to play)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


#: ``python -m bot.host.local`` as the README starts it (``runpy`` runs the module as ``-m`` does), its
#: strong computers searching a few worlds a decision (tests.helpers.small_searches): these tests
#: check the page, not how well the computers play, and their searches were most of a whole game.
#: SimCord's settle looks for the database's answers every 1 ms, as in the test workers
#: (tests/conftest.py), not every 50 ms: a computer's move waited a few such looks for answers
#: already there, and an ``advance`` of a whole game's moves (tests of a game to its end) waited
#: seconds of them (the two tests of a game to its end 11-14 s -> 7.5-9 s alone; the same work)
LAUNCH = """
import dataclasses, runpy
from simcord.env import Env
from games.ohhell.ai import players
from games.shithead import search
from tests.helpers import SMALL_OHHELL_SEARCH, SMALL_SHITHEAD_SEARCH
search.DEFAULT_SEARCH = dataclasses.replace(search.DEFAULT_SEARCH, **SMALL_SHITHEAD_SEARCH)
players.DEFAULT_STRONG = dataclasses.replace(players.DEFAULT_STRONG, **SMALL_OHHELL_SEARCH)
Env._settle_internal.__kwdefaults__["idle"] = 0.001
runpy.run_module("bot.host.local", run_name="__main__", alter_sys=True)
"""


class LocalMode:
    """``python -m bot.host.local`` (:data:`LAUNCH`) in a child process with its clock stopped, the
    page address it prints, and the means to move its clock."""

    def __init__(self, db: Path, ai_delay: float = 0.3, port: int | None = None, rate: float = 1.0) -> None:
        # a free port of its own (other runs of this test may hold the default one)
        self.port = port or free_port()
        self.command = [sys.executable, "-c", LAUNCH, "--db", str(db), "--ai-delay", str(ai_delay)] + [
            "--port", str(self.port), "--clock-rate", str(rate), "--clock-from-stdin",
        ]  # fmt: skip
        self._start()

    def _start(self) -> None:
        self.proc = subprocess.Popen(
            self.command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.output: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.banner: list[str] = []
        while not self.banner or "Ctrl-C" not in self.banner[-1]:
            line = self._next_line(60)
            assert line is not None, f"the program ended: {''.join(self.output)}"
            self.banner.append(line)
        found = re.search(r"http://127\.0\.0\.1:\d+/#\S+", "".join(self.banner))
        assert found, f"no page address in: {''.join(self.banner)}"
        self.url = found.group(0)

    def start_again(self) -> None:
        """The same command again once :meth:`stop` has ended it (its port, its database), as a
        person runs it again: in place, so that a :class:`Page` holding this program asks the
        running one to catch up (a new ``LocalMode`` left the page writing to the stopped one)."""
        assert self.proc.poll() is not None, "stop() it first"
        self._start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self._lines.put(line)
        self._lines.put(None)

    def _next_line(self, timeout: float) -> str | None:
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the program said nothing for {timeout} s: {''.join(self.output)}") from None

    def advance(self, seconds: float) -> None:
        """Move the program's game clock ``seconds`` on, and wait until its page shows the result."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"advance {seconds}\n")
        self.proc.stdin.flush()
        while True:
            line = self._next_line(120)
            assert line is not None, f"the program ended: {''.join(self.output)}"
            if line.startswith("clock advanced"):
                return

    def stop(self) -> tuple[int, str]:
        """Ctrl-C, as a person stops it."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=60)
        self._reader.join(timeout=10)
        return self.proc.returncode, "".join(self.output)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def open_timed_shithead(page: Page, seconds: int = 10) -> None:
    """Alice opens a Shithead table with a turn timer of ``seconds`` (a minute is offered as 1m)."""
    page.wait_for("No messages in this channel")
    page.slash("/shithead new")
    page.wait_for("Shithead: a table is open")
    value, said = ("1m", "1 ?m") if seconds == 60 else (f"{seconds}s", f"{seconds} ?s")
    page.set_with("/shithead set", rf"turn_timer is now {said} a turn", option="turn_timer", value=value)


def open_game(page: Any) -> None:
    """Alice opens an Oh Hell table, Bob joins, a computer makes three, Alice starts."""
    page.wait_for("No messages in this channel")
    page.slash("/ohhell new")
    page.wait_for("Oh Hell: a table is open")
    page.view_as("Bob")
    page.press("Join")
    page.wait_for(r"Players \(2, [\s\S]*Alice.*\s+Bob")
    page.view_as("Alice")
    page.press("Add computer")
    page.wait_for(r"Players \(3, [\s\S]*🤖 Computer 1")
    page.press("Start")
    page.wait_for(r"deal 1 of \d+ · \d+ cards")


@needs_browser
def test_local_mode_in_a_browser(tmp_path: Path, chromium: Any) -> None:
    db = tmp_path / "local.sqlite3"
    shot = tmp_path / "local-mode.png"
    panel_shot = False
    local = LocalMode(db)
    try:
        with browser_page(local, chromium) as page:
            open_game(page)

            # Bids are in turn from the dealer's left; the computer bids on its own after its pause.
            # A player presses My hand once, before their turn (Bob) or when first called (Alice);
            # from then on their panel follows the game by itself (no Refresh, no other button
            # first), and each bid or card is one press on it.
            buttons = [b.strip() for b in page.page.get_by_role("button").all_inner_texts()]
            assert "Bid" not in buttons and "Play a card" not in buttons, buttons
            page.view_as("Bob")
            assert page.panels() == 0, "Bob sees a panel before pressing My hand"
            page.press("My hand")
            page.wait_for(r"Your hand · Oh Hell · deal 1")
            assert page.panels() == 1
            page.view_as("Alice")
            assert page.panels() == 0, "Alice's page shows Bob's panel"
            bids: dict[str, str] = {}
            played: tuple[str, str] | None = None
            while played is None:
                who, what = page.wait_for(TURN, timeout=30, step=0.5).groups()
                page.view_as(who)
                if page.panels() == 0:
                    assert who == "Alice", f"{who}'s panel is gone"
                    page.press("My hand")
                panel = page.panel_showing(r"Your bid:" if what == "bid" else r"Your turn:")
                assert page.panels() == 1
                if PANEL_COPY and who == "Alice" and not panel_shot:  # her panel, at her first move
                    page.page.set_viewport_size({"width": 1280, "height": 1180})
                    page.page.get_by_role("button", name="🔄 Refresh").last.scroll_into_view_if_needed()
                    page.pictures_loaded()
                    page.page.screenshot(path=PANEL_COPY)
                    page.page.set_viewport_size({"width": 1280, "height": 900})
                    panel_shot = True
                if what == "bid":
                    assert who not in bids, f"{who} was asked to bid twice"
                    bids[who] = page.press_on_panel(panel, re.compile(r"^\s*\d+\s*$")).strip()
                    page.wait_for(rf"{who}(?: 🎴)?: bid {bids[who]}\b")
                else:
                    assert set(bids) == {"Alice", "Bob"}, f"play began before both bid: {bids}"
                    played = (who, page.press_card(panel))
            who, card = played
            page.wait_for(rf"{who} {re.escape(card)}")
            page.wait_for(r"Computer 1 \(strong\)(?: 🎴)?: bid \d+", step=0.5)

            # The hand is reached in the channel, privately: Alice sees her panel, Bob only his.
            page.view_as("Alice")
            page.panel_showing(r"Your hand · Oh Hell · deal 1")
            assert page.panels() == 1
            # (a card emoji is said in words until its picture comes: slow under load)
            page.page.locator("img.custom-emoji[data-cardtable-emoji]").nth(2).wait_for(timeout=30_000)
            page.pictures_loaded()
            # Cards and suits are the bot's card emojis, as on Discord, each with its
            # picture; no ♠ or ♣ is left as text (dark grey on the dark page).
            plain = page.page.inner_text("body")
            assert "♠" not in plain and "♣" not in plain, plain
            assert "unavailable" not in plain, plain
            assert page.page.locator("img.custom-emoji[data-cardtable-emoji]").count() >= 3
            kind, head = page.page.evaluate(
                """async () => {
                  const image = document.querySelector("img.custom-emoji[data-cardtable-emoji]");
                  const blob = await (await fetch(image.src)).blob();
                  return [blob.type, [...new Uint8Array(await blob.slice(0, 8).arrayBuffer())]];
                }"""
            )
            assert kind == "image/png" and bytes(head) == b"\x89PNG\r\n\x1a\n", (kind, head)
            page.page.screenshot(path=str(shot))
            if PICTURES_COPY:  # the table's trick picture and the panel's hand picture together
                page.page.set_viewport_size({"width": 1280, "height": 1400})
                page.page.locator(".channel-message", has_text="Players (from the dealer's left)").last.evaluate(
                    "element => element.scrollIntoView({block: 'start'})"
                )
                page.pictures_loaded()
                page.page.screenshot(path=PICTURES_COPY)
            page.view_as("Bob")
            page.wait_for(r"Trick \d|Last trick")
            assert page.panels() == 1, "Bob's page shows Alice's panel"
        assert shot.stat().st_size > 10_000
        if SCREENSHOT_COPY:
            shutil.copyfile(shot, SCREENSHOT_COPY)

        code, out = local.stop()
        assert code == 0, out
        assert "Stopped. Your games are saved" in out and "Traceback" not in out, out

        # A second run finds the game in the database and puts its table back in the channel.
        again = LocalMode(db)
        local = again
        assert "1 unfinished game(s)" in "".join(again.banner)
        with browser_page(again, chromium) as page:
            page.wait_for(r"deal 1 of \d+ · \d+ cards")
            for name, bid in bids.items():
                page.wait_for(rf"{name}(?: 🎴)?: bid {bid}\b")
            page.wait_for(rf"{who} {re.escape(card)}")
        code, out = again.stop()
        assert code == 0, out
    finally:
        local.kill()


#: what only a developer's page shows: SimCord's toolbar, inspector, sidebar and status strings
DEVELOPER_WORDS = (
    "SimCord",
    "Refresh preview",
    "Capture",
    "Inspector",
    "End preview session",
    "Callback completed",
    "Action completed",
    "embeds, components",
    "Search messages",
    "Jump to message ID",
)


def developer_words(text: str) -> list[str]:
    return [word for word in DEVELOPER_WORDS if word in text]


@needs_browser
def test_a_players_page_at_one_address_that_an_open_tab_finds_again(tmp_path: Path, chromium: Any) -> None:
    """The page is a player's (the channel, the table, the panel, the commands,
    no simulator control); the program keeps its address across restarts (its port, and a key
    kept beside the database), and a tab left open reconnects by itself, as the same player."""
    db = tmp_path / "local.sqlite3"
    local = LocalMode(db)
    try:
        with browser_page(local, chromium) as page:
            page.wait_for("No messages in this channel")
            assert "Playing as" in page.text()
            assert developer_words(page.text()) == [], page.text()
            page.slash("/ohhell new")
            page.wait_for("Oh Hell: a table is open")
            assert developer_words(page.text()) == [], page.text()
            # The session's end is refused by the program too, not only hidden from the page.
            page.page.evaluate("document.getElementById('close').click()")
            page.slash("/ohhell rules")
            page.wait_for(r"Oh Hell")
            assert local.proc.poll() is None, "a click on the page stopped the program"
            page.view_as("Bob")
            first = local.url

            code, out = local.stop()
            assert code == 0, out
            page.wait_for("The table is not running", timeout=10)
            # The same command again: the same address, and the open tab comes back by itself.
            local.start_again()
            assert local.url == first
            # the page's catch-up (advance 0, when a wait times out on a loaded machine) asks the
            # running program, not the stopped one
            page.local.advance(0)
            page.page.locator("#cardtable-offline").wait_for(state="detached", timeout=30_000)  # reloaded
            page.wait_for(r"Players \(1, ", timeout=30)
            # The reloaded tab asks for Bob's page again by itself; on a loaded machine the lobby
            # showed (as anyone sees it) before that switch had come back from the program, and
            # once (two suites at once) not within 10 s: the program catches up, and it is read again.
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            try:
                page.caught_up(
                    lambda: page.page.wait_for_function(
                        "() => document.documentElement.dataset.cardtableShownAs === 'Bob'", timeout=10_000, polling=100
                    )
                )
            except PlaywrightTimeout:
                pass  # the assertion says what it shows instead
            assert page.viewing() == "Bob", "the page forgot whom it plays as"
            assert developer_words(page.text()) == [], page.text()
            page.press("Join")
            page.wait_for(r"Players \(2, ")
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()


@needs_browser
def test_shithead_turn_timer_runs_by_itself(tmp_path: Path, chromium: Any) -> None:
    """Nobody touches the page: the clock alone reminds, runs out, and lets the computer take the
    seats; Alice takes hers back and plays from her private panel. Then she walks away: her timer
    hands her seat to the computer again, and the page shows the game through to its final
    standings."""
    # The computers pause 1 s, so that the game is still on when Alice comes back. Between the
    # test's advances the clock runs at a quarter of real time: on a loaded machine her turn ran
    # out in real time while her panel was still being read.
    local = LocalMode(tmp_path / "local.sqlite3", ai_delay=1.0, rate=0.25)
    try:
        with browser_page(local, chromium) as page:
            # 60 s a turn: the test moves the clock over the waits; once back, Alice has time to press
            # (with 30 s, the test's own steps of the clock while the computers moved once used up
            # her turn again before she had pressed)
            open_timed_shithead(page, 60)
            page.view_as("Bob")
            page.press("Join")
            page.wait_for(r"Players \(2, ")
            page.view_as("Alice")
            page.press("Add computer")
            page.wait_for(r"Players \(3, [\s\S]*🤖 Computer 1")
            page.press("Start")
            page.local.advance(30)
            page.wait_for(r"it's your move\. 30 ?s left before the computer plays it", step=1)
            page.local.advance(30)
            page.wait_for(r"Alice ran out of time", step=0.5)
            page.press_until("Take my seat back", r"Alice is back and plays their own seat again")
            # The game is hers again. She opens her private panel once (again if the click landed on
            # a button being redrawn); from then on the bot keeps it current, and it says what is
            # hers to do: Ready while the swap is still on, her play once her turn comes. (Guessing
            # the phase from the table's older lines made her miss Ready now and then, and the swap
            # then waited for her until her time ran out again.)
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            page.press_until("My cards", r"Your cards · Shithead")
            panel = page.page.locator(".channel-message", has_text="Your cards · Shithead").last
            looks = 0
            while not re.search(r"green button plays|you must pick it up", shown := panel.inner_text()):
                assert "The computer is playing your seat" not in shown, shown
                looks += 1
                assert looks < 200, f"her turn never came; her panel shows:\n{shown}"
                if "then press Ready" in shown:  # pressed again if the press landed on a redraw
                    try:
                        panel.get_by_role("button", name="Ready", exact=True).click(timeout=5_000)
                    except PlaywrightTimeout:
                        pass  # redrawn meanwhile (she is ready): the panel is read again
                # the next look once the panel has changed; unchanged a page poll's time (0.5 s)
                # later, the clock is moved on by a computer's pause (a look of 2 s and a step of
                # 0.5 s once made this wait most of the test's time)
                try:
                    panel.evaluate(
                        """(element, before) => new Promise((resolve, reject) => {
                          if (element.innerText !== before) return resolve(true);
                          const observer = new MutationObserver(() => {
                            if (element.innerText !== before) { observer.disconnect(); resolve(true); }
                          });
                          observer.observe(element, { childList: true, subtree: true, characterData: true });
                          setTimeout(() => { observer.disconnect(); reject(new Error("unchanged")); }, 600);
                        })""",
                        shown,
                    )
                except Exception:
                    page.local.advance(1.0)
            # One press: her first play offered, else she picks the pile up.
            plays = (
                panel.locator(
                    ENABLED,
                    has_text=re.compile(r"^\s*(one |both |all (two |three |four |\d+ )?|\d+ × )?(10|[2-9JQKA]|Joker)"),
                )
                .or_(page.card_buttons(panel))
                .filter(has_not_text="pick up")
            )
            if "green button plays" in panel.inner_text() and plays.count():
                plays.first.click()
                page.wait_for(r"Alice played")
            else:
                pick = panel.get_by_role("button", name=re.compile(r"^Pick up the pile"))
                if pick.count():
                    pick.click()
                else:  # face-up cards refused: one of them goes on the pile first
                    panel.get_by_role("button", name=re.compile(r"^Add .*, pick up")).first.click()
                page.wait_for(r"Alice picked up")
            assert "The computer is playing your seat" not in page.text()
            page.page.screenshot(path=str(tmp_path / "shithead.png"))
            # She walks away: her minute runs out again, the computers play every seat, and the
            # page shows the game through to its final standings (60 s of the clock a look: 60 of
            # the computers' moves at most; the game is over in two or three looks)
            page.wait_for(r"🏁 Game over! 💩 (Alice|Bob|Computer 1 \(strong\)) is the shithead", timeout=240, step=60)
            page.wait_for(r"Shithead: the finishing order")
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()


@needs_browser
def test_an_oh_hell_game_ends_with_its_standings_and_score_sheet_on_the_page(tmp_path: Path, chromium: Any) -> None:
    """Two short deals, Alice's seat played by the computer once her timer runs out: the page
    shows the final standings, and /ohhell scores shows the sheet (the README's pictures)."""
    local = LocalMode(tmp_path / "local.sqlite3", ai_delay=0.2)
    try:
        with browser_page(local, chromium) as page:
            page.wait_for("No messages in this channel")
            page.slash("/ohhell new")
            page.wait_for("Oh Hell: a table is open")
            page.set_with("/ohhell set", r"fixed_hands is now 3, ?2", option="fixed_hands", value="3,2")
            page.set_with("/ohhell set", r"turn_timer is now 10 ?s a turn", option="turn_timer", value="10s")
            page.press("Add computer")
            page.wait_for(r"Players \(2, [\s\S]*🤖 Computer 1")
            page.press("Add computer")
            page.wait_for(r"Players \(3, [\s\S]*🤖 Computer 2")
            page.press("Start")
            local.advance(10)
            page.wait_for(r"Alice ran out of time", step=1)
            page.wait_for(r"Oh Hell: final standings", timeout=120, step=2)
            page.pictures_loaded()  # the chart
            if STANDINGS_COPY:
                page.page.screenshot(path=STANDINGS_COPY)
            page.slash("/ohhell scores")
            page.wait_for(r"Oh Hell scores after|deal by deal")
            page.pictures_loaded()
            # the sheet at its own size, not fitted into SimCord's 280 px to be clicked open
            shown, natural = page.page.locator("img.embed-image").last.evaluate(
                "image => [image.getBoundingClientRect().height, image.naturalHeight]"
            )
            assert shown > 280 and shown >= 0.95 * natural, (shown, natural)
            if SCORES_COPY:
                page.page.screenshot(path=SCORES_COPY)
            assert developer_words(page.text()) == [], page.text()
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()


def test_a_taken_port_is_said_in_one_sentence(tmp_path: Path) -> None:
    pytest.importorskip("aiohttp")  # part of simcord[preview]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot.host.local", "--db", str(tmp_path / "l.sqlite3"), "--port", str(port)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
    assert done.returncode == 1
    assert (
        done.stderr.strip() == f"Port {port} is taken (is the local table already running?): pick another with --port."
    )
