"""Whether a player sees their panel's controls without scrolling, measured in a real browser.

``bench/clicks.py`` counts clicks through SimCord; this measures what SimCord cannot: the page as a
person sees it. The local mode (``python -m bot.host.local``) runs in a child process; Alice plays in
Chromium, in a window of a laptop's or of a phone's size, against computers. At each of her
decisions, once the panel asks for it and again once every picture on the
page has loaded (a picture that arrives late must not push the buttons away), every control the
decision needs is looked for inside the channel's visible part: the panel's enabled buttons and
lists, Refresh left out (the panel redraws itself; the click count shows nobody presses it). A
control counts as in view when it lies wholly within the message list's box and the window's
width, and the page does not scroll sideways.

The sizes are the windows people have, not the screens: a 1366×768 laptop screen leaves Chrome's
page 1366×625 (the taskbar and Chrome's tabs and toolbar take 143 px); a 390-pixel phone
(iPhone 12 to 15) leaves Safari's page 390×664 with its bars shown.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.browser import WallClock, browser_page, drained, free_port, launch_chromium, page_address

ROOT = Path(__file__).resolve().parent.parent
DESKTOP = {"width": 1366, "height": 625}
PHONE = {"width": 390, "height": 664}
#: the local mode with the strong computers searching as in the quick runs (bench/quick.py): the
#: page is measured here, not how well they play
LAUNCH = """
import dataclasses, runpy
from bench.quick import SMALL_OHHELL_SEARCH, SMALL_SHITHEAD_SEARCH
from games.ohhell.ai import players
from games.shithead import search
search.DEFAULT_SEARCH = dataclasses.replace(search.DEFAULT_SEARCH, **SMALL_SHITHEAD_SEARCH)
players.DEFAULT_STRONG = dataclasses.replace(players.DEFAULT_STRONG, **SMALL_OHHELL_SEARCH)
runpy.run_module("bot.host.local", run_name="__main__", alter_sys=True)
"""
#: the decisions measured in each window (quick, or not): Oh Hell's first deal (10 cards, the peak
#: hand: the bid and every card) and the next deal's bid (a first move of a deal twice); Shithead's
#: swap phase and its first turns of play (a whole game at each size took longer than the rest).
#: Quick: one of Alice's decisions in each window, no Shithead (the local mode's and the browser's
#: starts are most of its time)
LIMITS = {"ohhell": {True: 1, False: 12}, "shithead": {True: 0, False: 12}}
TITLES = {"ohhell": "Your hand · Oh Hell", "shithead": "Your cards · Shithead"}
#: the panel asks for a decision (the words it says when it does)
ASKS = {"ohhell": re.compile(r"Your bid:|Your turn:"), "shithead": re.compile(r"Your turn|then Ready|then confirm")}

#: the viewer's newest panel: its text, and each control the decision needs, where it lies
MEASURE = """([title]) => {
  const panels = [...document.querySelectorAll('.channel-message')].filter(m => m.innerText.includes(title));
  const panel = panels[panels.length - 1];
  if (!panel) return null;
  const box = document.getElementById('channel-timeline').getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const sideways = document.documentElement.scrollWidth > width || document.body.scrollWidth > width;
  const controls = [...panel.querySelectorAll('.message-components button')]
    .filter(b => !b.disabled && b.getAttribute('aria-disabled') !== 'true' && !b.innerText.includes('Refresh'))
    .map(b => { const r = b.getBoundingClientRect();
      return {text: b.innerText.trim(), inside: r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
        && r.left >= -0.5 && r.right <= width + 0.5 && r.width > 0}; });
  const wide = [...panel.querySelectorAll('*')].some(e => e.getBoundingClientRect().right > width + 0.5);
  return {text: panel.innerText, sideways, wide, controls};
}"""
LOADED = "() => [...document.images].every(i => i.getAttribute('src') && i.complete && i.naturalWidth > 0)"


@dataclass
class Seen:
    """Decisions measured on one screen, and in how many every control was in view."""

    decisions: int = 0
    in_view: int = 0
    missed: list[str] | None = None

    def add(self, ok: bool, what: str) -> None:
        self.decisions += 1
        self.in_view += ok
        if not ok:
            self.missed = [*(self.missed or []), what]


@contextmanager
def local_mode(ai_delay: float, tries: int = 3) -> Iterator[tuple[str, list[str]]]:
    """``python -m bot.host.local`` in a child process on a database of its own: its page's address
    and what it says (read as it runs: a full pipe would stop it). A start that ends before it
    shows its page (on a loaded machine the bot once did not settle within SimCord's limit while
    starting) is tried again."""
    with tempfile.TemporaryDirectory() as folder:
        for attempt in range(tries):
            command = [sys.executable, "-c", LAUNCH, "--db", os.path.join(folder, f"view{attempt}.sqlite3")]
            command += ["--ai-delay", str(ai_delay), "--port", str(free_port())]
            proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            url, banner = page_address(proc)
            if url is not None:
                break
            proc.wait()
            if attempt == tries - 1:
                raise SystemExit(f"no page address in: {banner}")
        try:
            yield url, drained(proc)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def measure(page: Any, game: str) -> dict | None:
    return page.page.evaluate(MEASURE, [TITLES[game]])


def look(page: Any, game: str) -> tuple[bool, str] | None:
    """At a decision: whether every control it needs is in view, as the panel first shows it and
    once the page's pictures have loaded; None when the panel asks nothing now."""
    first = measure(page, game)
    if first is None or not ASKS[game].search(first["text"]) or not first["controls"]:
        return None
    try:
        page.page.wait_for_function(LOADED, timeout=5_000, polling=100)
    except Exception:  # a picture that never loads is the page's matter; measure what shows
        pass
    page.page.wait_for_timeout(150)  # a frame for the layout after the last picture
    last = measure(page, game) or first
    ok = all(
        not m["sideways"] and not m["wide"] and m["controls"] and all(c["inside"] for c in m["controls"])
        for m in (first, last)
    )
    asked = ASKS[game].search(last["text"])
    return ok, asked.group(0) if asked else "?"


def press(page: Any, game: str) -> bool:
    """Make the decision on the panel: a bid or card at random (Oh Hell), Ready, a green button, a
    face-down card, or pick up (Shithead). False when no control was there to press."""
    panel = page.page.locator(".channel-message", has_text=TITLES[game]).last
    enabled = panel.locator(".message-components button.component-button:not([disabled])").filter(
        has_not_text=re.compile("Refresh|Take back|Withdraw")
    )
    if game == "shithead":
        for choice in (
            enabled.filter(has_text=re.compile(r"^\s*Ready\s*$")),
            panel.locator(".message-components button.button-style-3:not([disabled])"),
            enabled.filter(has_text=re.compile("Pick up|pick up")),
        ):
            if choice.count():
                return _click(choice.first)
        return False
    count = enabled.count()
    if not count:
        return False
    return _click(enabled.nth(int(time.monotonic() * 1000) % count))


def _click(button: Any) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        button.click(timeout=3000)
    except PlaywrightTimeout:  # redrawn under the pointer: looked at again
        return False
    return True


def play(
    game: str, quick: bool, viewports: Sequence[dict[str, int]], deadline_s: float = 600.0, shot: str | None = None
) -> list[Seen]:
    """A game in the local mode, Alice against computers (three at Oh Hell, two in the quick run,
    one at Shithead), in a window of each of ``viewports`` in turn (:data:`LIMITS` her decisions
    measured in each, the next window opened on the same game where the last left it); returns
    what each window showed at her decisions. The full run plays a game for each window; the
    quick run one game for both (a second local mode and browser would double its time).
    ``shot``: a PNG of the last window at her first card goes there (README's picture of a
    phone's panel; Oh Hell)."""
    seen: list[Seen] = []
    with local_mode(0.0 if quick else 0.2) as (url, output), launch_chromium() as browser:
        for index, viewport in enumerate(viewports):
            with browser_page(WallClock(url, output), browser, viewport) as page:
                if index == 0:
                    page.wait_for("No messages in this channel")
                    page.slash(f"/{game} new")
                    page.wait_for("a table is open")
                    for count in ((2, 3) if quick else (2, 3, 4)) if game == "ohhell" else (2,):
                        page.press_until("Add computer", rf"Players \({count}, ")
                    mine = "My hand" if game == "ohhell" else "My cards"
                    page.press_until("Start", mine)
                    page.press_until(mine, TITLES[game])
                else:  # the window opens on the game as it stands, her panel on the page
                    page.wait_for(TITLES[game])
                last = index == len(viewports) - 1
                seen.append(decide(page, game, LIMITS[game][quick], deadline_s, shot if last else None))
    return seen


def decide(page: Any, game: str, limit: int, deadline_s: float, shot: str | None) -> Seen:
    """Alice's next ``limit`` decisions on ``page`` (fewer where the game ends), each looked at
    (:func:`look`) and made (:func:`press`), within ``deadline_s`` seconds."""
    seen = Seen()
    deadline = time.monotonic() + deadline_s
    while not _over(page) and seen.decisions < limit:
        if time.monotonic() > deadline:
            raise SystemExit(f"the game did not end in time; the page shows:\n{page.text()[-2500:]}")
        looked = look(page, game)
        if looked is not None and shot and looked[1] == "Your turn:":  # her first card, before the press
            save_shot(page, shot)
            shot = None
        before = measure(page, game)
        if looked is None or not press(page, game):
            page.page.wait_for_timeout(150)
            continue
        seen.add(*looked)
        if os.environ.get("PANEL_VIEW_DEBUG"):
            print(game, page.page.viewport_size, looked, before and before["controls"], file=sys.stderr, flush=True)
        _redrawn(page, game, before)
    return seen


def save_shot(page: Any, path: str) -> None:
    """The window as it shows now, as a PNG of at most 256 colours (small enough for a README)."""
    import io

    from PIL import Image

    page.page.mouse.move(0, 0)  # the pointer off the buttons: the page paints a hovered one blue
    page.page.wait_for_timeout(500)
    picture = Image.open(io.BytesIO(page.page.screenshot())).convert("RGB")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    picture.quantize(colors=256).save(path, optimize=True)


def _over(page: Any) -> bool:
    return bool(re.search(r"Game over|is the shithead|Final standings", page.text()))


def _redrawn(page: Any, game: str, before: dict | None, timeout_s: float = 10.0) -> None:
    """Wait until the panel has answered the press (its text or its controls changed)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        now = measure(page, game)
        if now is None or before is None or now["text"] != before["text"] or now["controls"] != before["controls"]:
            return
        page.page.wait_for_timeout(100)
