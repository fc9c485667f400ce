"""The local mode's page (``python -m bot.host.local``) in headless Chromium, driven as a person does.

What the browser tests (tests/bot/host/test_local.py) and ``bench/ops.py`` share: a bench runs where the
tests are not importable. A :class:`Page` is driven against a :class:`Program`: the running local
mode, which publishes the page and can be asked to catch up (``advance``: the tests' program runs
on a clock they move; a program on the wall clock catches up by itself, see :class:`WallClock`).
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Program(Protocol):
    """The running local mode a page belongs to."""

    url: str
    output: list[str]

    def advance(self, seconds: float) -> None: ...


class WallClock:
    """A local mode on the wall clock at ``url`` (``bench/ops.py`` starts it itself): a catch-up
    is a moment's wait, since the program moves on by itself."""

    def __init__(self, url: str, output: list[str]) -> None:
        self.url = url
        self.output = output

    def advance(self, seconds: float) -> None:
        time.sleep(max(seconds, 0.5))


def browser_missing() -> str | None:
    """Why the browser cannot be driven here (None when it can)."""
    if CHROMIUM is None:
        return "no Chromium on this machine (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception as error:  # ImportError, or SimCord's SetupError for a missing extra
        return f"the browser test needs playwright and simcord[preview] ({error})"
    return None


CARD = re.compile(r"(10|[2-9JQKA])[♣♦♥♠]")
SUIT = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
#: how long one look at the page waits for what it looks for before the clock is moved on (ms)
LOOK_MS = 300

#: the page's text as a person reads it: each card emoji (a picture) as its card (``9♠``), each suit
#: emoji as its suit, so that the text says what the pictures show. Read only when the page has
#: changed since the last read (a MutationObserver notes it; the text is kept in between): each
#: read adds a word after every card picture, reads ``innerText`` (which lays the page out) and
#: takes the words away, and the waits read the page ten times a second, so reading an unchanged
#: page again was most of the browser's work in the browser tests and benches.
SHOWN_TEXT = """() => {
  // A change that leaves the page as it was is no change: at each of its looks at the program (twice
  // a second) SimCord's page sets its composer's attributes again to the same values and puts the
  // same status words back, and at each of its own the local page marks its "Play as" offer hidden
  // again; taken for changes, they had the text read again at nearly every look. A record is a
  // no-op where the page now is as it was before it: an attribute or a text at its old value, or
  // an element's only child replaced by an equal one; any other record counts as a change.
  const changes = (record) => {
    const target = record.target;
    if (record.type === "attributes") return record.oldValue !== target.getAttribute(record.attributeName);
    if (record.type === "characterData") return record.oldValue !== target.data;
    const [added] = record.addedNodes, [removed] = record.removedNodes;
    return !(record.addedNodes.length === 1 && record.removedNodes.length === 1 && !record.previousSibling
      && !record.nextSibling && target.childNodes.length === 1 && target.firstChild === added
      && added.isEqualNode(removed));
  };
  const kept = window.__cardtableShown ??= { text: null, seen: null };
  if (!kept.seen) {
    kept.seen = new MutationObserver((records) => { if (records.some(changes)) kept.text = null; });
    kept.seen.observe(document, {
      subtree: true, childList: true, attributes: true, characterData: true,
      attributeOldValue: true, characterDataOldValue: true,
    });
  }
  if (kept.seen.takeRecords().some(changes)) kept.text = null;
  if (kept.text !== null && kept.width === innerWidth && kept.height === innerHeight) return kept.text;
  const SUIT = { S: "♠", C: "♣", H: "♥", D: "♦" };
  const added = [];
  for (const image of document.querySelectorAll("img.custom-emoji")) {
    const code = /^ct4?_(.+)$/.exec(image.dataset.cardtableEmoji ?? image.alt)?.[1];
    if (!code) continue;
    const suit = /^suit([SCHD])$/.exec(code);
    const card = /^(10|11|12|13|[2-9AKQJ])([SCHD])$/.exec(code);
    const span = document.createElement("span");
    span.textContent = suit ? SUIT[suit[1]] : card ? card[1] + SUIT[card[2]] : code === "joker" ? "Joker" : "🂠";
    image.after(span);
    added.push(span);
  }
  try {
    kept.text = document.body.innerText;
    kept.width = innerWidth;
    kept.height = innerHeight;
    return kept.text;
  } finally {
    for (const span of added) span.remove();
    kept.seen.takeRecords();  // (this read's own words, added and taken away: no change to the page)
  }
}"""
#: the first match of a pattern in the page's text (as SHOWN_TEXT reads it), or null
SHOWN_MATCH = f"""([source, flags]) => {{
  const found = new RegExp(source, flags).exec(({SHOWN_TEXT})());
  return found ? found[0] : null;
}}"""


def card_of(emoji: str | None, label: str = "") -> str | None:
    """``ct_9S`` or ``ct4_10C`` (a card emoji's name) → ``9♠`` / ``10♣``; a suit's emoji
    (``ct_suitS``) beside its rank (``label``, as a card button shows it) → ``10♠``; None for
    anything else."""
    found = re.fullmatch(r"ct4?_(10|11|12|13|[2-9AKQJ])([SCHD])", emoji or "")
    if found:
        return found[1] + SUIT[found[2]]
    suit = re.fullmatch(r"ct4?_suit([SCHD])", emoji or "")
    rank = re.fullmatch(r"\s*(10|11|12|13|[2-9AKQJ])\s*", label)
    return rank[1] + SUIT[suit[1]] if suit and rank else None


class Page:
    """What a person does on the preview page: type a command, switch member, press, choose."""

    def __init__(self, page: Any, local: Program) -> None:
        self.page = page
        self.local = local

    def text(self) -> str:
        """The page's text, cards read off their pictures (see SHOWN_TEXT)."""
        return self.page.evaluate(SHOWN_TEXT)

    def wait_for(self, pattern: str | re.Pattern, timeout: float = 20.0, step: float = 0.0) -> re.Match:
        """Wait until the page shows ``pattern``. Where the computers or a timer must act (``step``),
        each look waits a moment for it and then moves the game clock ``step`` seconds on; a
        person's own press is answered without the clock: a wait of ``timeout`` seconds, and where
        the page has not shown it by then, the program is asked to catch up (``advance 0``: it
        answers once it has settled and published the page, however long a loaded machine makes
        that) and the page looked at again, up to :data:`CATCH_UPS` times. A press the program
        took late passes; one it never answers still fails. ``timeout`` counts looks of 0.15 s
        where it steps (as it always did)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        pattern = re.compile(pattern)
        looks = max(1, int(timeout / 0.15)) if step else 1 + CATCH_UPS
        for _ in range(looks):
            try:
                found = self.page.wait_for_function(
                    SHOWN_MATCH, arg=[pattern.pattern, ""], timeout=LOOK_MS if step else timeout * 1000, polling=100
                )
            except PlaywrightTimeout:
                self.local.advance(step)  # step 0: the program catches up, the game clock as it was
                continue
            match = pattern.search(found.json_value())
            assert match is not None, f"{pattern.pattern!r} matched in the page, not in Python"
            return match
        said = "".join([line for line in self.local.output if not line.startswith("clock advanced")][-40:])
        raise AssertionError(f"the page never showed {pattern!r}; it shows:\n{self.text()}\nThe program said:\n{said}")

    def caught_up(self, wait: Callable[[], object]) -> None:
        """``wait`` (a Playwright wait for what the program answers), where it times out asked
        again after the program has caught up (``advance 0``), :data:`CATCH_UPS` times at most:
        as :meth:`wait_for` does for a person's own press."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for _ in range(CATCH_UPS):
            try:
                wait()
                return
            except PlaywrightTimeout:
                self.local.advance(0)
        wait()

    def press_until(self, label: str, pattern: str, tries: int = 3) -> None:
        """Press ``label`` until the page shows ``pattern``, as a person presses again when nothing
        happened: the page redraws a message the bot edits, and a click landing on a button being
        replaced is lost (here the computers edit the table every second)."""
        for attempt in range(tries):
            self.press(label)
            try:
                self.wait_for(pattern, timeout=8.0)
                return
            except AssertionError:
                if attempt == tries - 1:
                    raise

    def viewing(self) -> str:
        """Whom the page shows it as: the member of the last page the program published (the page
        script notes it; the picker itself shows a switch still under way)."""
        return self.page.evaluate("document.documentElement.dataset.cardtableShownAs ?? ''")

    def view_as(self, name: str, tries: int = 3) -> None:
        """Switch the page to ``name``, and wait until the program shows the page as ``name``: until
        then a click would be made as the previous person (with the computers moving, the page is
        republished several times a second; a switch the program did not take is chosen again, once
        the program has caught up: see :meth:`wait_for`)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for _ in range(tries):
            if self.viewing() != name:
                self.page.select_option("#viewer-picker", label=name)
            try:
                self.page.wait_for_function(
                    "name => document.documentElement.dataset.cardtableShownAs === name"
                    " && document.getElementById('viewer-picker')?.selectedOptions[0]?.text === name",
                    arg=name,
                    timeout=10_000,
                    polling=100,
                )
                return
            except PlaywrightTimeout:
                self.local.advance(0)  # the program catches up before the switch is chosen again
        raise AssertionError(f"the page would not switch to {name}; it shows it as {self.viewing()}")

    def slash(self, command: str) -> None:
        box = self.page.get_by_placeholder("Message #cards")
        box.click()
        box.type(command)
        self.page.get_by_role("option", name=command).first.wait_for()
        self.page.keyboard.press("Enter")  # picks the suggested command
        self.page.click("#send-message")

    def slash_with(self, command: str, **options: str) -> None:
        """A command with options, entered as a person does: each option's value typed in its own
        field, found by the option's name once it has the focus (a suggestion taken with Enter
        moves it on), then Send. On a loaded machine a value was once typed into the first field
        rather than the second ("OPTIONS MATCHING 10S: No options match"): the old check, "the
        focused field is empty", took the first field, its choice lost, for the second. A field
        that never gets the focus is a Playwright timeout; :meth:`set_with` enters the command
        again."""
        box = self.page.get_by_placeholder("Message #cards")
        box.click()
        box.type(command)
        self.page.get_by_role("option", name=command).first.wait_for()
        self.page.keyboard.press("Enter")
        names = list(options)
        for name, value in options.items():
            focused = self.page.locator(f'.command-option-input[data-option="{name}"]:focus')
            self.caught_up(lambda focused=focused: focused.wait_for(timeout=10_000))
            self.page.keyboard.type(value)
            typed = f"value => {OPTION_FIELD}?.value === value"
            self.page.wait_for_function(typed, arg=value, timeout=20_000, polling=100)
            if name != names[-1]:  # Enter takes the bot's suggestion once it has come
                suggested = self.page.get_by_role("option", name=value, exact=True).first
                self.caught_up(lambda suggested=suggested: suggested.wait_for(timeout=20_000))
                self.page.keyboard.press("Enter")
        self.page.click("#send-message")

    def set_with(self, command: str, shows: str, **options: str) -> None:
        """:meth:`slash_with`, until the page shows ``shows``, the command's answer; where it does
        not (or a field never got the focus), the page is loaded again (its composer empty, the
        same player) and the command entered again, three times at most. Why: two suites at once
        on two cores twice ended with the fields typed right and the page's composer saying "2
        required options missing" after Send (the preview's draft lost while the program was too
        busy to settle, and republished the page as it stood); a person then types it again."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for attempt in range(3):
            try:
                self.slash_with(command, **options)
                self.wait_for(shows, timeout=10.0)
                return
            except (AssertionError, PlaywrightTimeout):
                if attempt == 2:
                    raise
            who = self.viewing()
            self.page.reload()
            self.wait_for("Playing as")
            self.view_as(who)

    def press(self, label: str) -> None:
        """The newest message's button of that label (an older table's buttons stay on the page)."""
        self.page.get_by_role("button", name=label, exact=True).last.click()

    def panel_showing(self, prompt: str):
        """The viewer's newest Oh Hell panel (the answer to My hand, which only they see), once
        it shows ``prompt``."""
        panel = self.page.locator(".channel-message", has_text="Your hand · Oh Hell").last
        shown = panel.get_by_text(re.compile(prompt)).first
        self.caught_up(lambda: shown.wait_for(timeout=30_000))
        return panel

    def panels(self) -> int:
        """How many Oh Hell panels the page shows the viewer."""
        return self.page.locator(".channel-message", has_text="Your hand · Oh Hell").count()

    def press_on_panel(self, panel, value: re.Pattern) -> str:
        """Press the panel's first enabled button whose text is ``value``; returns that text."""
        button = panel.locator(ENABLED).filter(has_text=value).first
        pressed = re.search(value, button.inner_text()).group(0)
        button.click()
        return pressed

    def card_buttons(self, scope):
        """The enabled buttons of ``scope`` that show a card (its emoji, as on Discord)."""
        return scope.locator(ENABLED).filter(has=self.page.locator("img[data-cardtable-emoji]"))

    def press_card(self, scope, which: str = "first") -> str:
        """Press a card button of ``scope`` (its first or last); returns the card (``9♠``)."""
        buttons = self.card_buttons(scope)
        button = buttons.first if which == "first" else buttons.last
        emoji = button.locator("img[data-cardtable-emoji]").first.get_attribute("data-cardtable-emoji")
        label = button.locator(".button-label")
        card = card_of(emoji, label.first.inner_text() if label.count() else "")
        assert card is not None, button.inner_html()
        button.click()
        return card

    def pictures_loaded(self) -> None:
        """Wait until every picture the page shows has loaded (the table's, the panel's, the card
        emojis): a screenshot then shows them."""
        self.page.wait_for_function(
            "() => [...document.images].every(i => i.getAttribute('src') && i.complete && i.naturalWidth > 0)",
            timeout=30_000,
            polling=100,
        )


#: how many times a wait for a person's own press asks the program to catch up (``advance 0``)
#: before it fails: on a loaded machine (two suites and their browsers on two cores) the answer to
#: ``/shithead set`` once took more than the 20 s of one look
CATCH_UPS = 2
ENABLED = "button:not([disabled]):not([aria-disabled='true'])"
#: the command box's option field that has the focus, or null
OPTION_FIELD = "(document.activeElement?.classList.contains('command-option-input') ? document.activeElement : null)"


#: Chromium's own work that no page asks for, turned off. Headless Chromium (the whole browser,
#: its window hidden) loads the address bar's suggestion list, two pages of its own
#: (chrome://omnibox-popup.top-chrome/, and its AI-mode variant), in a renderer of their own for
#: every window: every browser context a test opens. That renderer was 0.6 s of CPU a context
#: and the browser's part of it another 0.3 s, a third of Chromium's CPU in the browser tests
#: (1.5 s -> 1.0 s of Chromium's CPU to open the local page; measured from /proc of its
#: processes). Nothing on a page changes with it: the address bar is never shown headless.
#: (Playwright adds these to its own --disable-features list rather than replacing it.)
QUIET = ["--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """Headless Debian Chromium (a Playwright browser), closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu", *QUIET]
        )
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def browser_page(
    local: Program, browser: Any, viewport: dict[str, int] | None = None, *, opened: bool = True
) -> Iterator[Page]:
    """A new browser context of ``browser`` (a private window) on the local page, its window
    ``viewport`` (1280×900 unless given). ``opened=False``: the window is still empty, for the
    caller to route its requests first and open the address it wants (a page load is a second
    of the browser's CPU: one opened and then left for another address is wasted)."""
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    try:
        page = Page(context.new_page(), local)
        if opened:
            page.page.goto(local.url)
        yield page
    finally:
        context.close()


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on now, for a local mode of a bench's own."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def page_address(proc: subprocess.Popen[str]) -> tuple[str | None, str]:
    """The local mode's page address from what ``proc`` (``python -m bot.host.local``, its output
    piped) prints before "Ctrl-C", and that banner; None where it ended without one."""
    banner = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        banner += line
        if "Ctrl-C" in line:
            break
    found = re.search(r"http://127\.0\.0\.1:\d+/#\S+", banner)
    return (found.group(0) if found else None), banner


def drained(proc: subprocess.Popen[str]) -> list[str]:
    """What ``proc`` prints from now on, read in a thread: a full pipe would stop the bot."""
    rest: list[str] = []
    threading.Thread(target=lambda: rest.extend(proc.stdout or []), daemon=True).start()
    return rest
