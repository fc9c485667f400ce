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
  // A wheel turned up where the list can go up is the reader's own scroll at once: were it left to
  // the scroll it makes, a message that grew in between (a picture that came) kept the end and
  // undid it.
  timeline.addEventListener("wheel", (event) => {
    if (event.deltaY < 0) reader(800);
    if (event.deltaY < 0 && timeline.scrollTop > 0) pinned = false;
  }, { passive: true });
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
