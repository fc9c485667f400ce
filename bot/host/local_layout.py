"""The local page's layout: the newest message kept in view, and a phone's toolbar on one row.

Two things of SimCord's preview page that the local page (:mod:`bot.host.local_page`) changes so that
a player finds the controls of their move on screen without scrolling, on a laptop's window and on
a 390-pixel phone:

- SimCord's page keeps the end of the channel in view only while its last look at the scroll
  position found it there, and it looks again at every scroll event, its own and the browser's
  included. The browser moves the list itself when something above the reader's place changes
  height (scroll anchoring: the table's picture, an old panel turned into a pointer), and when that
  happened in the frame that also added or grew something below (the panel turning from a bid to a
  card), the page took the reader to have scrolled up and left the panel's buttons below the fold,
  under load at about one move in twenty-four on a phone. The local page keeps the newest message
  in view, as Discord does, until the reader scrolls up themselves (wheel, touch, keys, the scroll
  bar), and again once they are back at the end (:data:`SCROLL_JS`);
- on a narrow window SimCord's toolbar is 112 pixels high, for its developer's buttons in two rows.
  The local page hides those, and its own (the game's name, Playing as, Follow the turn) fit one
  row: the channel gets some 55 pixels more (:data:`PHONE_CSS`).
"""

from __future__ import annotations

#: appended to the page's own style sheet (bot.host.local_page.PAGE_CSS)
PHONE_CSS = """
/* a narrow window: the toolbar on one row (bot/host/local_layout.py); it wraps only where the page
   offers "Play as <name>" besides, and the game's name is its card alone below 480 px */
@media (max-width: 760px) {
  .preview-shell { --toolbar-height: 48px; }
  .preview-toolbar { height: auto; min-height: var(--toolbar-height); padding: 4px 8px; row-gap: 2px; }
  #cardtable-turn { margin-left: 6px; gap: 6px; font-size: 13px; }
}
@media (max-width: 480px) {
  .preview-toolbar::before { content: "🃏"; font-size: 20px; padding-left: 0; }
}
"""

#: appended to the page's own script (bot.host.local_page.PAGE_JS)
SCROLL_JS = r"""
// The newest message stays in view, as on Discord, until the reader scrolls up themselves; and
// again once they are back at the end, or press a button or send a command (bot/host/local_layout.py).
const timeline = document.getElementById("channel-timeline");
const messageList = document.getElementById("channel-message-list");
let pinned = true;  // the reader is at the newest message: it stays in view as the channel changes
let readerUntil = 0;  // a scroll up before then is the reader's own (a wheel, a touch, a key, the bar)
let lastTop = 0;
function atEnd() { return timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight <= 2; }
function keepEnd() { if (pinned && !atEnd()) timeline.scrollTop = timeline.scrollHeight; }
function follow() { pinned = true; keepEnd(); }
function reader(ms) { readerUntil = Math.max(readerUntil, Date.now() + ms); }
const UP_KEYS = ["ArrowUp", "PageUp", "Home", " "];
if (timeline) {
  timeline.addEventListener("wheel", (event) => { if (event.deltaY < 0) reader(800); }, { passive: true });
  // a finger that moves scrolls (a tap on a button does not); the list glides on a moment after
  let dragged = false;
  timeline.addEventListener("touchstart", () => { dragged = false; }, { passive: true });
  timeline.addEventListener("touchmove", () => { dragged = true; reader(60_000); }, { passive: true });
  timeline.addEventListener("touchend", () => { if (dragged) { readerUntil = 0; reader(1500); } }, { passive: true });
  timeline.addEventListener("pointerdown", (event) => { if (event.target === timeline) reader(60_000); });
  document.addEventListener("pointerup", () => {  // the scroll bar let go
    if (readerUntil > Date.now() + 2000) { readerUntil = 0; reader(800); }
  });
  document.addEventListener("keydown", (event) => {
    const control = "input, textarea, select, button, [contenteditable]";  // Space presses a button
    const field = event.target instanceof Element && event.target.closest(control);
    if (!field && UP_KEYS.includes(event.key)) reader(800);
  }, true);
  // Only a scroll up that the reader made leaves the end: the browser moves the list down itself
  // to keep the reader's place when something above it grows, and SimCord's page scrolls too.
  timeline.addEventListener("scroll", () => {
    const up = timeline.scrollTop < lastTop - 1;
    lastTop = timeline.scrollTop;
    if (atEnd()) pinned = true;
    else if (up && Date.now() < readerUntil) pinned = false;
    else keepEnd();
  }, { passive: true });
  // a message added, or one grown or shrunk (an edit, a picture that came): after the layout,
  // before the frame is painted
  const resized = new ResizeObserver(keepEnd);
  resized.observe(timeline);
  if (messageList) resized.observe(messageList);
  new MutationObserver(keepEnd).observe(timeline, { childList: true, subtree: true });
}
// Your own command or press: its answer comes at the end of the channel, followed there.
document.getElementById("channel-composer")?.addEventListener("submit", follow, true);
document.getElementById("send-message")?.addEventListener("click", follow, true);
document.getElementById("channel-composer-input")?.addEventListener("keydown", (event) => {
  if (event.key === "Enter") follow();
}, true);
messageList?.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("button")) follow();
}, true);
"""
