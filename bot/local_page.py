"""The local mode's page as a player sees it, made from SimCord's preview page.

SimCord's preview is a developer's tool: a toolbar (Refresh preview, Capture, Inspector, More →
End preview session, which quits the program for every tab in one click), status strings such as
"Callback completed", and a sidebar listing each message's "embeds, components, attachments".
Its page is served by a small web server whose files and key this module may choose, so the local
mode keeps SimCord's rendering of the channel (messages, embeds, pictures, buttons, menus, forms
and slash commands, exactly as the bot sends them) and dresses it as a player's page:

- one style sheet more hides the developer's controls and the sidebar, and leaves the channel,
  the table, your panel, the command box, and "Playing as" (one person may sit at every seat);
- one script more reconnects an open tab by itself: it asks the program every two seconds which
  run it is, and reloads the page once the program is back after a stop (SimCord's own page
  gives up on a restart, its page id being unknown to the new run). It remembers whom the page
  plays as across reloads, and scrolls to the answer of your own command;
- the page's address stays the same across restarts: a fixed default port, and a key kept in a
  file beside the database (SimCord draws a new one each run, so a reload was refused);
- "End preview session" is refused by the server, not only hidden: only Ctrl-C stops the program;
- the cards and suits show as the bot's card emojis, as on Discord (♠ and ♣ as text are dark grey
  on a dark page): the bot uploads its emoji set to SimCord, which keeps names and ids but not the
  pictures, so the page is given each emoji's picture (:func:`card_emoji_assets`), and one script
  more names each card emoji in words for a hover and a screen reader (``9 of spades``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any

from draw.emojis import EMOJIS, all_emojis, emoji_png

log = logging.getLogger("cardtable.local")

#: the page's port when --port is not given: the same address on every run
DEFAULT_PORT = 8765
#: a key SimCord would accept in the address (URL-safe, long enough to be unguessable)
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{32,128}")

PAGE_CSS = """
/* Card Table: the local page as a player's page (bot/local_page.py). The developer's controls
   stay in the page SimCord builds, hidden; the server refuses the one that would stop the program. */
.preview-brand, #messages-toggle, #refresh, #capture-open, #inspector-toggle, .session-menu,
#back-activity, #view-action-output, #action-status, #messages-sidebar, #drawer-scrim,
#inspector-panel, #focused-content, #preview-empty { display: none !important; }
.preview-toolbar::before {
  content: "🃏 Card Table"; font-weight: 700; margin-right: auto; padding-left: 4px;
}
#cardtable-offline {
  position: fixed; left: 50%; top: 8px; transform: translateX(-50%); z-index: 1000;
  background: #5c4614; color: #fff; padding: 6px 14px; border-radius: 6px; font-size: 14px;
}
"""

PAGE_JS = r"""
// Card Table: an open tab reconnects by itself, remembers whom it plays as, and follows the
// answer to your own command (bot/local_page.py).
const RUN = "/cardtable-run.json";
let run = null;
let away = false;
async function look() {
  try {
    const answer = await fetch(RUN, { cache: "no-store" });
    if (!answer.ok) throw new Error(String(answer.status));
    const now = (await answer.json()).run;
    if (run === null) run = now;
    else if (now !== run || away) { location.reload(); return; }
  } catch (_) {
    if (!away) {
      away = true;
      const note = document.createElement("div");
      note.id = "cardtable-offline";
      note.setAttribute("role", "status");
      note.textContent = "The table is not running. This page reconnects by itself when it is back.";
      document.body.append(note);
    }
  }
  setTimeout(look, 2000);
}
look();

const picker = document.getElementById("viewer-picker");
const label = picker?.closest("label");
if (label?.firstChild?.nodeType === Node.TEXT_NODE) label.firstChild.textContent = "Playing as ";
const KEEP = "cardtable-playing-as";
let restored = false;
function restore() {
  const wanted = localStorage.getItem(KEEP);
  if (restored || !picker || !picker.options.length) return;
  restored = true;
  const option = [...picker.options].find((item) => item.text === wanted);
  if (option && picker.value !== option.value) {
    picker.value = option.value;
    picker.dispatchEvent(new Event("change"));
  }
}
// Whom the page shows now: the picker is rebuilt from each page the program publishes, so this is
// the member the program took the page to be (a switch still under way is not), on the page root.
function noteShownAs() {
  const shown = picker?.options[picker.selectedIndex]?.text;
  if (shown) document.documentElement.dataset.cardtableShownAs = shown;
}
if (picker) {
  new MutationObserver(() => { noteShownAs(); restore(); }).observe(picker, { childList: true });
  noteShownAs();
  picker.addEventListener("change", () => {
    if (restored) localStorage.setItem(KEEP, picker.options[picker.selectedIndex]?.text ?? "");
  });
  restore();
}

// "End preview session" would quit the program for everyone: the click never reaches the page
// (the button is hidden too, and the program refuses the request anyway).
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("#close")) {
    event.stopPropagation();
    event.preventDefault();
  }
}, true);

// Card emojis (ct_9S, ct4_10D, ct_suitC …) are named as the card, in words where the symbol is
// dark: a hover shows it, a screen reader reads it (SimCord's alt is the emoji's name).
const SUIT_WORD = { S: "spades", C: "clubs", H: "♥", D: "♦" };
const RANK_WORD = { A: "ace", K: "king", Q: "queen", J: "jack" };
function cardName(emoji) {
  const code = /^ct4?_(.+)$/.exec(emoji)?.[1];
  if (!code) return null;
  if (code === "joker") return "joker";
  if (code === "back") return "a face-down card";
  const suit = /^suit([SCHD])$/.exec(code);
  if (suit) return SUIT_WORD[suit[1]];
  const card = /^(10|11|12|13|[2-9AKQJ])([SCHD])$/.exec(code);
  if (!card) return null;
  const rank = RANK_WORD[card[1]] ?? card[1];
  return card[2] === "S" || card[2] === "C" ? `${rank} of ${SUIT_WORD[card[2]]}` : `${rank}${SUIT_WORD[card[2]]}`;
}
function nameCards(root) {
  const found = root instanceof HTMLImageElement ? [root] : root.querySelectorAll?.("img.custom-emoji") ?? [];
  for (const image of found) {
    const name = image.dataset.cardtableCard ?? cardName(image.alt);
    if (!name) continue;
    image.dataset.cardtableCard = name;
    image.dataset.cardtableEmoji ??= image.alt;
    if (image.alt !== name) image.alt = name;
    if (image.title !== name) image.title = name;
  }
}
nameCards(document.body);
new MutationObserver((changes) => {
  for (const change of changes) for (const added of change.addedNodes) nameCards(added);
}).observe(document.body, { childList: true, subtree: true });

// Your own command or press: follow its answer to the end of the channel for a few seconds.
let followUntil = 0;
const timeline = document.getElementById("channel-timeline");
function follow() { followUntil = Date.now() + 6000; }
document.getElementById("channel-composer")?.addEventListener("submit", follow, true);
document.getElementById("send-message")?.addEventListener("click", follow, true);
document.getElementById("channel-composer-input")?.addEventListener("keydown", (event) => {
  if (event.key === "Enter") follow();
}, true);
document.getElementById("channel-message-list")?.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("button")) follow();
}, true);
if (timeline) {
  new MutationObserver(() => {
    if (Date.now() < followUntil) timeline.scrollTop = timeline.scrollHeight;
  }).observe(timeline, { childList: true, subtree: true });
}
"""


def page_key(database_path: str) -> str:
    """The page's key, kept in a file beside the database so that the address stays the same
    across restarts (an open tab and a bookmark keep working); made on the first run."""
    path = Path(f"{database_path}.page-key")
    try:
        kept = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        kept = ""
    if KEY_PATTERN.fullmatch(kept):
        return kept
    key = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(key + "\n")
    except OSError as error:  # a read-only folder: the page works, with a new address each run
        log.warning("could not keep the page's key in %s (%s); its address changes each run", path, error)
    return key


def dress(preview: Any, key: str) -> None:
    """Make SimCord's preview (not yet entered) serve a player's page under ``key``."""
    from aiohttp import web

    preview.capability = key
    server = preview._server
    run = secrets.token_hex(8)
    extra = {"/cardtable.css": "cardtable.css", "/cardtable.js": "cardtable.js", "/cardtable-run.json": "run"}
    server._STATIC_FILES = {**server._STATIC_FILES, **extra}
    original_static = server._static

    async def static(request: Any) -> Any:
        if server.port is None or request.headers.get("Host", "") not in server._allowed_hosts():
            raise web.HTTPForbidden()
        headers = server._SECURITY_HEADERS
        if request.path == "/cardtable-run.json":
            return web.Response(text=json.dumps({"run": run}), content_type="application/json", headers=headers)
        if request.path == "/cardtable.css":
            return web.Response(text=PAGE_CSS, content_type="text/css", headers=headers)
        if request.path == "/cardtable.js":
            return web.Response(text=PAGE_JS, content_type="application/javascript", headers=headers)
        answer = await original_static(request)
        if request.path == "/":
            html = answer.text.replace("<title>SimCord Preview</title>", "<title>Card Table</title>")
            html = html.replace("</head>", '<link rel="stylesheet" href="/cardtable.css">\n  </head>')
            html = html.replace("</body>", '<script type="module" src="/cardtable.js"></script>\n  </body>')
            return web.Response(text=html, content_type="text/html", headers=headers)
        return answer

    server._static = static


def card_emoji_assets() -> dict[str, tuple[str, bytes]]:
    """The picture of every card emoji the bot has uploaded, at the address SimCord's page asks
    its CDN for (SimCord keeps an uploaded emoji's name and id, not its image): the page then shows
    ``<:ct_9S:…>`` and a button's card emoji as the picture, as Discord does."""
    from simcord.backend.cdn import CDN_BASE

    assets: dict[str, tuple[str, bytes]] = {}
    for name, (code, four) in all_emojis().items():
        emoji_id = EMOJIS.by_name(name)
        if emoji_id is not None:
            assets[f"{CDN_BASE}/emojis/{emoji_id}.png"] = (f"{name}.png", emoji_png(code, four))
    return assets


def refuse_ending(body: Any) -> Any:
    """A page's "End preview session" becomes a mere refresh: only Ctrl-C stops the program
    (it would otherwise quit for everyone at the table, in one click, with no question)."""
    if isinstance(body, dict) and body.get("kind") == "close":
        return {**body, "kind": "refresh"}
    return body
