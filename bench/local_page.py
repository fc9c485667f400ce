"""Two people at one screen: how long a switch of player takes on the local page, and its clicks.

Starts ``python -m bot.host.local`` on the wall clock, as a person runs it, and plays Oh Hell in
headless Chromium as Alice and Bob sharing one browser tab, with a computer (hands of 3 then 2):
each opens their panel once, then every bid and card is made by whoever's turn it is, on one tab.
When the turn passes to the other person the page has to show it as them first: the bench uses
what the page offers, in this order: nothing where the page already shows the player whose turn it
is (it follows the turn), else a one-press **Play as <name>** button, else the **Playing as**
picker (two clicks: open it, choose). Figures:

- switch s: from the switch (the button pressed, the name chosen, or the turn shown) to the new
  player's panel showing their buttons, enabled, p50 and the worst;
- press s: from a press on the panel to the move shown on the table, p50;
- clicks/move: the clicks of the moves after the panels were opened (switches included).

The last line is ``switch p50 s=A switch max s=B press p50 s=C clicks/move=D moves=N``.

    python bench/local_page.py [--ai-delay 0.3]

Needs Chromium (Debian's ``chromium``) and the ``local`` and ``test`` extras (playwright); without
them its last line says it skipped. ``--quick`` (the suite runs it): one deal of one card, the
computer moving at once.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import WallClock, browser_missing, browser_page, drained, free_port, launch_chromium, page_address  # noqa: E402
from bench.quick import skip  # noqa: E402

TURN = re.compile(r"@(Alice|Bob), your (bid|turn to play)")
#: how long a look for the switched-to panel waits before it reads the turn line again
LOOK_MS = 2_000


def current_turn(text: str) -> tuple[str, str] | None:
    """(who, bid or turn to play) of the page's newest turn line, or None. The newest, not the
    first: after a tie the play-off deal's table comes below the first deal's, whose last turn
    line stays on the page, and reading that one sent the bench to wait a minute for a panel
    whose turn had gone (a third of the quick runs took 70 s rather than 10)."""
    every = TURN.findall(text)
    return every[-1] if every else None


PROMPT = {"bid": r"Your bid:", "turn to play": r"Your turn:"}


def play(url: str, output: list[str], hands: str) -> tuple[list[float], list[float], int, int]:
    """Alice and Bob on one tab to the game's end: (switch seconds, press seconds, clicks, moves)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    switches: list[float] = []
    presses: list[float] = []
    clicks = moves = 0
    last_who: str | None = None
    with launch_chromium() as browser, browser_page(WallClock(url, output), browser) as page:
        page.wait_for("No messages in this channel")
        page.view_as("Alice")
        page.slash("/ohhell new")
        page.wait_for("Oh Hell: a table is open")
        page.set_with("/ohhell set", r"fixed_hands is now", option="fixed_hands", value=hands)
        page.view_as("Bob")
        page.press("Join")
        page.wait_for(r"Players \(2, ")
        page.view_as("Alice")
        page.press("Add computer")
        page.wait_for(r"Players \(3, ")
        page.press("Start")
        page.wait_for(r"deal 1 of \d+ · \d+ cards?")
        for name in ("Bob", "Alice"):
            page.view_as(name)
            page.press("My hand")
            page.wait_for(r"Your hand · Oh Hell · deal 1")
        if page.page.locator("#cardtable-follow").count():  # the page follows the turn once asked
            page.page.check("#cardtable-follow")
        deadline = time.monotonic() + 300
        while "final standings" not in page.text():
            assert time.monotonic() < deadline, f"the game did not end; the page shows:\n{page.text()[-2000:]}"
            found = current_turn(page.text())
            if found is None:
                page.page.wait_for_timeout(100)
                continue
            who, what = found
            started = time.perf_counter()
            if page.viewing() != who:
                offer = page.page.get_by_role("button", name=f"Play as {who}", exact=True)
                if offer.count():
                    offer.first.click()
                    clicks += 1
                else:
                    page.page.select_option("#viewer-picker", label=who)
                    clicks += 2
            panel = page.page.locator(".channel-message", has_text="Your hand · Oh Hell").last
            buttons = panel.locator("button:not([disabled]):not([aria-disabled='true'])")
            wanted = buttons.filter(has_text=re.compile(r"^\s*\d+\s*$")) if what == "bid" else page.card_buttons(panel)
            # the panel as the player sees it, waited for up to a minute, in looks of LOOK_MS after
            # each of which the turn line is read again: where the turn has moved on meanwhile the
            # loop looks again at once rather than after the minute (a switch still counts from
            # ``started``, however many looks it took)
            ready = False
            while not ready and time.perf_counter() - started < 60:
                try:
                    page.page.wait_for_function(
                        "name => document.documentElement.dataset.cardtableShownAs === name", arg=who, timeout=LOOK_MS
                    )
                    panel.get_by_text(re.compile(PROMPT[what])).first.wait_for(timeout=LOOK_MS)
                    wanted.first.wait_for(timeout=LOOK_MS)
                    ready = True
                except PlaywrightTimeout:
                    if current_turn(page.text()) != (who, what):
                        break
            if not ready:
                continue  # the turn moved on meanwhile: looked at again
            switched = time.perf_counter()
            if page.viewing() != who:
                continue
            before = page.page.inner_text("body")
            try:
                wanted.first.click(timeout=3000)
            except PlaywrightTimeout:  # redrawn under the pointer
                continue
            clicks += 1
            page.page.wait_for_function(
                "before => document.body.innerText !== before", arg=before, timeout=60_000, polling=50
            )
            done = time.perf_counter()
            if last_who is not None and who != last_who:
                switches.append(switched - started)
            presses.append(done - switched)
            last_who = who
            moves += 1
            # the move is on the table once the turn line names the next move (or the game ended)
            try:
                page.page.wait_for_function(
                    """([who, what]) => {
                      const text = document.body.innerText;
                      return /final standings/.test(text) || !text.includes(`@${who}, your ${what}`);
                    }""",
                    arg=[who, what],
                    timeout=5_000,
                )
            except PlaywrightTimeout:
                pass  # the same player again (a trick won, the next lead): looked at again
    return switches, presses, clicks, moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ai-delay", type=float, default=0.3)
    parser.add_argument("--quick", action="store_true", help="one deal of one card, no computer delay")
    args = parser.parse_args()
    missing = browser_missing()
    if missing is not None:
        skip(f"bench/local_page.py drives the page in a browser: {missing}")
    hands = "1" if args.quick else "3,2"
    if args.quick:
        args.ai_delay = 0.0
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "local.sqlite3")
        port = free_port()
        command = [sys.executable, "-m", "bot.host.local", "--db", db, "--ai-delay", str(args.ai_delay)]
        proc = subprocess.Popen(
            [*command, "--port", str(port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        try:
            url, banner = page_address(proc)
            if url is None:
                raise SystemExit(f"no page address in: {banner}")
            switches, presses, clicks, moves = play(url, drained(proc), hands)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    print(f"switches {len(switches)}: " + " ".join(f"{s:.2f}" for s in switches))
    print(f"presses {len(presses)}: " + " ".join(f"{s:.2f}" for s in presses))
    if not switches or not presses:
        raise SystemExit("no move passed between Alice and Bob: nothing to time")
    print(
        f"switch p50 s={statistics.median(switches):.2f} switch max s={max(switches):.2f} "
        f"press p50 s={statistics.median(presses):.2f} clicks/move={clicks / moves:.2f} moves={moves}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
