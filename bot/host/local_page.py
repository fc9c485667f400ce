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
  plays as across reloads, and keeps the newest message in view until you scroll up, with a
  phone's toolbar on one row (:mod:`bot.host.local_layout`);
- the page's address stays the same across restarts: a fixed default port, and a key kept in a
  file beside the database (SimCord draws a new one each run, so a reload was refused);
- "End preview session" is refused by the server, not only hidden: only Ctrl-C stops the program;
- the cards and suits show as the bot's card emojis, as on Discord (♠ and ♣ as text are dark grey
  on a dark page): the bot uploads its emoji set to SimCord, which keeps names and ids but not the
  pictures, so the page is given each emoji's picture (:func:`card_emoji_assets`), and one script
  more names each card emoji in words for a hover and a screen reader (``9 of spades``);
- an emoji the page has no picture of (one the server could not keep, one that did not load, an
  id the server does not know) is said in words, where SimCord's page writes "Custom emoji
  unavailable" or the emoji's markup: its ``text.js`` is served with the placeholder replaced
  (:func:`bot.host.local_pictures.said_emojis`), as every emoji it shows is made there.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.host.local_layout import PHONE_CSS, SCROLL_JS
from bot.host.local_pictures import keep_picture_checks, said_emojis
from draw.emojis import EMOJIS, all_emojis, emoji_png

log = logging.getLogger("cardtable.local")

#: the page's port when --port is not given: the same address on every run
DEFAULT_PORT = 8765
#: a key SimCord would accept in the address (URL-safe, long enough to be unguessable)
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{32,128}")

PAGE_CSS = """
/* Card Table: the local page as a player's page (bot/host/local_page.py). The developer's controls
   stay in the page SimCord builds, hidden; the server refuses the one that would stop the program. */
.preview-brand, #messages-toggle, #refresh, #capture-open, #inspector-toggle, .session-menu,
#back-activity, #view-action-output, #action-status, #messages-sidebar, #drawer-scrim,
#inspector-panel, #focused-content, #preview-empty { display: none !important; }
.preview-toolbar::before {
  content: "🃏 Card Table"; font-weight: 700; margin-right: auto; padding-left: 4px;
}
#cardtable-turn { display: inline-flex; align-items: center; gap: 10px; margin-left: 10px; }
#cardtable-play-as { background: #248046; color: #fff; font-weight: 600; }
#cardtable-play-as[hidden] { display: none; }
/* a tall picture (the score sheet) at its own size: SimCord fits an embed's picture into 280 px,
   a small picture to click open (cardtable.js marks the ones it would shrink) */
.embed-card.cardtable-full { width: min(840px, calc(100% - 72px)); }
img.embed-image.cardtable-full { width: auto; max-width: 100%; max-height: none; }
/* a picture or a card said in words when it could not load, a card while its picture comes (cardtable.js) */
.cardtable-said, .cardtable-waiting { color: inherit; font-size: inherit; }
img.custom-emoji[data-cardtable-waiting] { display: none !important; }
div.media-unavailable.cardtable-said { padding: 8px 10px; border-radius: 4px; background: #2b2d31; }
#cardtable-offline {
  position: fixed; left: 50%; top: 8px; transform: translateX(-50%); z-index: 1000;
  background: #5c4614; color: #fff; padding: 6px 14px; border-radius: 6px; font-size: 14px;
}
"""

EARLY_JS = r"""
// Card Table: runs before SimCord's page starts (bot/host/local_page.py). The page opens as the member
// its address names (?as=Bob), asking the program for that member's page at once rather than
// Alice's first; and a picture the program did not answer at the first ask (a busy program, a
// page republished meanwhile) is asked again a few times before the page gives up on it.
(() => {
  const members = window.cardtableMembers ?? {};
  const wanted = new URLSearchParams(location.search).get("as")
    ?? sessionStorage.getItem("cardtable-playing-as") ?? localStorage.getItem("cardtable-playing-as");
  const original = window.fetch.bind(window);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  window.fetch = async (input, init) => {
    const path = new URL(typeof input === "string" ? input : input.url, location.href).pathname;
    if (path === "/api/pages" && init?.method === "POST" && wanted && members[wanted]) {
      try {
        const body = JSON.parse(init.body ?? "{}");
        if (body.viewer_id == null) init = { ...init, body: JSON.stringify({ ...body, viewer_id: members[wanted] }) };
      } catch (_) { /* sent as it was */ }
    }
    if (!path.startsWith("/api/assets/")) return original(input, init);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const answer = await original(input, init);
        if (answer.ok || attempt >= 6 || (answer.status !== 404 && answer.status < 500)) return answer;
      } catch (error) {
        if (attempt >= 6) throw error;
      }
      await pause(250 * attempt);
    }
  };
})();

// A card emoji's name in words (ct_9S: "9 of spades", ct_QH: "Q♥"; ♠ and ♣ as text are dark on the
// dark page): the page's hover and screen-reader text, and what it shows of an emoji whose picture
// it has not got (SimCord's own page said "Custom emoji unavailable"); another emoji as :its_name:.
(() => {
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
  window.cardtableCardName = cardName;
  window.cardtableEmojiWords = (name) => (name ? cardName(String(name)) ?? `:${name}:` : null);
})();
"""

PAGE_JS = r"""
// Card Table: an open tab reconnects by itself, remembers whom it plays as, and follows the
// answer to your own command (bot/host/local_page.py).
const RUN = "/cardtable-run.json";
let run = null;
let away = false;
async function look() {
  try {
    const answer = await fetch(RUN, { cache: "no-store", signal: AbortSignal.timeout(5000) });
    if (!answer.ok) throw new Error(String(answer.status));
    const now = (await answer.json()).run;
    if (run === null) run = now;
    else if (now !== run || away) {
      sessionStorage.setItem("cardtable-reopen", "yes");  // the views this tab had open come back
      location.reload();
      return;
    }
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
// Whom this tab plays as is in its address (?as=Bob), so that each tab keeps its own member
// across a reload and a restart; a new tab without one takes the last member chosen anywhere.
const KEEP = "cardtable-playing-as";
const named = new URLSearchParams(location.search).get("as");
let restored = false;
function wantedMember() {
  return named ?? sessionStorage.getItem(KEEP) ?? localStorage.getItem(KEEP);
}
function keepMember(name) {
  if (!name) return;
  sessionStorage.setItem(KEEP, name);
  localStorage.setItem(KEEP, name);
  const address = new URL(location.href);
  if (address.searchParams.get("as") !== name) {
    address.searchParams.set("as", name);
    history.replaceState(history.state, "", address);
  }
}
let pageSwitch = false;
function switchTo(name) {
  const option = [...(picker?.options ?? [])].find((item) => item.text === name);
  if (!option || picker.value === option.value) return false;
  picker.value = option.value;
  pageSwitch = true;
  try { picker.dispatchEvent(new Event("change")); } finally { pageSwitch = false; }
  return true;
}
function restore() {
  if (restored || !picker || !picker.options.length) return;
  restored = true;
  const wanted = wantedMember();
  if (wanted) switchTo(wanted);
  keepMember(wanted || picker.options[picker.selectedIndex]?.text);
}
// Whom the page shows now: the picker is rebuilt from each page the program publishes, so this is
// the member the program took the page to be (a switch still under way is not), on the page root.
function noteShownAs() {
  const shown = picker?.options[picker.selectedIndex]?.text;
  if (shown) document.documentElement.dataset.cardtableShownAs = shown;
  if (shown && restored) keepMember(shown);  // the address names whom the page shows
}
if (picker) {
  new MutationObserver(() => { noteShownAs(); restore(); offerTurn(); reopen(); }).observe(picker, { childList: true });
  noteShownAs();
  picker.addEventListener("change", () => {
    if (restored) keepMember(picker.options[picker.selectedIndex]?.text ?? "");
    // a person who chooses whom to play as is not switched away by the turn (ticked again to follow)
    if (!pageSwitch && typeof followTurn !== "undefined" && followTurn.checked) {
      followTurn.checked = false;
      sessionStorage.setItem("cardtable-follow", "off");
    }
  });
  restore();
}

// Two people at one screen: whose move it is comes from the program (/cardtable-table.json).
// The page offers "Play as <name>" in one press, or, with "Follow the turn" on, switches by itself
// the moment the turn passes, so the panel is ready before the player reaches for it. A tab whose
// address names its member (a person playing in their own tab) does not follow unless asked.
const FOLLOW = "cardtable-follow";
const bar = document.createElement("span");
bar.id = "cardtable-turn";
const offer = document.createElement("button");
offer.type = "button";
offer.className = "toolbar-button";
offer.id = "cardtable-play-as";
offer.hidden = true;
const followLabel = document.createElement("label");
const followTurn = document.createElement("input");
followTurn.type = "checkbox";
followTurn.id = "cardtable-follow";
followTurn.checked = (sessionStorage.getItem(FOLLOW) ?? (named ? "off" : "on")) === "on";
followLabel.append(followTurn, " Follow the turn");
bar.append(offer, followLabel);
label?.after(bar);
let turn = [];
let reopenLabels = null;  // not known until the table first answers
offer.addEventListener("click", () => { if (offer.dataset.member) switchTo(offer.dataset.member); });
followTurn.addEventListener("change", () => {
  sessionStorage.setItem(FOLLOW, followTurn.checked ? "on" : "off");
  offerTurn();
});
function offerTurn() {
  const shown = document.documentElement.dataset.cardtableShownAs;
  const choosing = picker && picker.options[picker.selectedIndex]?.text !== shown;
  const other = turn.includes(shown) ? null : turn[0] ?? null;
  offer.hidden = !other;
  if (other) {
    offer.dataset.member = other;
    offer.textContent = `Play as ${other}`;
  }
  if (followTurn.checked && other && turn.length === 1 && restored && !choosing) switchTo(other);
}
async function lookAtTable() {
  try {
    // A look that is not answered in 5 s is given up (a hung request once stopped the looking,
    // and with it the turn and the views a restarted tab reopens); the next look asks again.
    const answer = await fetch("/cardtable-table.json", { cache: "no-store", signal: AbortSignal.timeout(5000) });
    if (answer.ok) {
      const state = await answer.json();
      turn = state.turn ?? [];
      reopenLabels = state.reopen ?? [];
      offerTurn();
      reopen();
    }
  } catch (_) { /* the program is away: look() says so */ }
  setTimeout(lookAtTable, 400);
}
lookAtTable();

// A tab keeps the private views its member opened (their panel, the spectators' Watch view):
// after a restart the channel starts empty of them, so the reloaded tab presses their buttons again.
const OPENED = "cardtable-opened";
const REOPEN = "cardtable-reopen";
function opened() {
  try { return JSON.parse(sessionStorage.getItem(OPENED) ?? "{}"); } catch (_) { return {}; }
}
document.getElementById("channel-message-list")?.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("button") : null;
  const text = button?.innerText.trim();
  const shown = document.documentElement.dataset.cardtableShownAs;
  // A press made before the table first answered (a slow first answer, under load) is kept too:
  // what is kept is filtered by the table's labels when the tab reopens its views.
  if (!text || !shown || (reopenLabels !== null && !reopenLabels.includes(text))) return;
  const all = opened();
  all[shown] = [...new Set([...(all[shown] ?? []), text])];
  sessionStorage.setItem(OPENED, JSON.stringify(all));
}, true);
// Pressed one at a time, each again until a new private message shows, waiting longer each time
// (2.5 s, 5 s, 7.5 s...: a slow answer under load is not pressed for again at once): a press made
// while the reloaded page is still settling is sometimes not taken. The tab's note that its views
// are to come back is kept until they have: a tab reloaded again meanwhile (the page reloads
// itself as it reconnects) starts over rather than forgetting them.
let reopening = null;
function privateMessages() {
  const messages = [...document.querySelectorAll(".channel-message")];
  return messages.filter((item) => item.innerText.includes("Only you can see this")).length;
}
function reopened() {
  reopening.labels = [];
  sessionStorage.removeItem(REOPEN);
}
function reopen() {
  const shown = document.documentElement.dataset.cardtableShownAs;
  if (!restored || !shown || shown !== wantedMember() || reopenLabels === null) return;
  if (reopening === null) {
    if (sessionStorage.getItem(REOPEN) !== "yes") return;
    const labels = (opened()[shown] ?? []).filter((text) => reopenLabels.includes(text));
    reopening = { labels, at: 0, tries: 0, seen: 0 };
  }
  if (!reopening.labels.length) return reopened();
  const now = Date.now();
  if (now - reopening.at < 2500 * Math.max(reopening.tries, 1)) return;
  if (reopening.at && privateMessages() > reopening.seen || reopening.tries >= 8) {  // answered, or given up
    reopening.labels.shift();
    reopening.tries = 0;
    reopening.at = 0;
    if (!reopening.labels.length) return reopened();
  }
  const text = reopening.labels[0];
  const button = [...document.querySelectorAll("#channel-message-list button:not([disabled])")]
    .filter((item) => item.innerText.trim() === text).pop();
  if (!button) return;  // the table is not back on the page yet
  reopening.seen = privateMessages();
  reopening.at = now;
  reopening.tries += 1;
  button.click();
}

// An option's suggestions as soon as its field has the focus, before a letter is typed (SimCord's
// page asks the bot only on input: a game's "set" showed an empty list until a letter was typed).
document.addEventListener("focusin", (event) => {
  const field = event.target;
  if (field instanceof HTMLInputElement && field.classList.contains("command-option-input")
      && field.getAttribute("aria-autocomplete") === "list" && field.value === "") {
    setTimeout(() => {
      if (document.activeElement !== field || field.value !== "") return;
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }, 0);
  }
});

// A picture the page could not load (the early script already asked again) is said in words rather
// than "Embed 1 image unavailable": its alt text (what the bot wrote for a screen reader). (An emoji
// without its picture is said in words where SimCord's page makes it: see bot/host/local_pictures.py.)
new MutationObserver((changes) => {
  for (const change of changes) {
    const gone = [...change.removedNodes].find((item) => item instanceof Element);
    for (const added of change.addedNodes) {
      if (!(added instanceof HTMLElement) || !added.classList.contains("media-unavailable")) continue;
      const image = gone?.matches?.("img") ? gone : gone?.querySelector?.("img");
      const words = image?.alt && !/^(Embed \d+ |Media|Preview media)/.test(image.alt) ? image.alt : "";
      added.textContent = words ? `🖼️ ${words}` : "🖼️ This picture could not be loaded.";
      added.classList.add("cardtable-said");
    }
  }
}).observe(document.body, { childList: true, subtree: true });

// "End preview session" would quit the program for everyone: the click never reaches the page
// (the button is hidden too, and the program refuses the request anyway).
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("#close")) {
    event.stopPropagation();
    event.preventDefault();
  }
}, true);

// Card emojis (ct_9S, ct4_10D, ct_suitC …) are named as the card (the early script's
// cardtableCardName), in words where the symbol is dark: a hover shows it, a screen reader reads it
// (SimCord's alt is the emoji's name).
const cardName = window.cardtableCardName;
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
// An emoji's markup that SimCord's server did not know (an id it never had: its page leaves the
// text as written, "<:ct_QS:1234…>", where Discord shows the emoji) is said in words as well.
const MARKUP = /<a?:(\w{2,32}):(\d{15,21})>/g;
function sayMarkup(root) {
  const texts = [];
  if (root instanceof Text) texts.push(root);
  else if (root instanceof Element) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) texts.push(walker.currentNode);
  }
  for (const text of texts) {
    const parent = text.parentElement;
    if (!text.data.includes("<:") && !text.data.includes("<a:")) continue;
    if (!parent?.closest("#channel-message-list") || parent.closest("code, pre, textarea, [contenteditable]")) continue;
    const parts = [];
    let at = 0;
    for (const match of text.data.matchAll(MARKUP)) {
      const words = window.cardtableEmojiWords(match[1]);
      const said = document.createElement("span");
      said.className = "emoji-unavailable cardtable-said";
      said.textContent = words;
      said.title = words;
      said.dataset.cardtableEmoji = match[1];
      parts.push(text.data.slice(at, match.index), said);
      at = match.index + match[0].length;
    }
    if (parts.length) text.replaceWith(...parts, text.data.slice(at));
  }
}
// A card emoji whose picture is on its way (a busy program answers late) is said in words
// meanwhile, and shown as its picture once the picture comes; if it never comes, SimCord's page
// puts the words said for good in its place (bot/host/local_pictures.py), and these go.
function waitInWords(root) {
  const found = root instanceof HTMLImageElement ? [root] : root.querySelectorAll?.("img.custom-emoji") ?? [];
  for (const image of found) {
    if (image.getAttribute("src") || image.dataset.cardtableWaiting || !image.isConnected) continue;
    const words = window.cardtableEmojiWords(image.dataset.cardtableEmoji ?? image.alt);
    if (!words) continue;
    const waiting = document.createElement("span");
    waiting.className = "cardtable-waiting";
    waiting.textContent = words;
    image.dataset.cardtableWaiting = "yes";
    image.after(waiting);
  }
}
function pictureCame(image) {
  if (!image.dataset.cardtableWaiting) return;
  delete image.dataset.cardtableWaiting;
  const next = image.nextSibling;
  if (next instanceof Element && next.matches(".cardtable-waiting")) next.remove();
}
nameCards(document.body);
sayMarkup(document.body);
waitInWords(document.body);
new MutationObserver((changes) => {
  for (const change of changes) {
    if (change.type === "attributes") {
      if (change.target instanceof HTMLImageElement && change.target.getAttribute("src")) pictureCame(change.target);
      continue;
    }
    for (const added of change.addedNodes) {
      nameCards(added);
      sayMarkup(added);
      waitInWords(added);
      // a picture that never came: its words said for good take the place of the picture
      const next = added instanceof Element && added.matches(".emoji-unavailable") ? added.nextSibling : null;
      if (next instanceof Element && next.matches(".cardtable-waiting")) next.remove();
    }
  }
}).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["src"] });

// A picture SimCord would shrink into its 280 px box is shown at its own size (the score sheet).
document.addEventListener("load", (event) => {
  const image = event.target;
  if (image instanceof HTMLImageElement && image.classList.contains("embed-image") && image.naturalHeight > 280) {
    image.classList.add("cardtable-full");
    image.closest(".embed-card")?.classList.add("cardtable-full");
  }
}, true);
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


def dress(
    preview: Any,
    key: str,
    members: Mapping[str, int] | None = None,
    table: Callable[[], Mapping[str, list[str]]] | None = None,
) -> None:
    """Make SimCord's preview (not yet entered) serve a player's page under ``key``. ``members``:
    the page's members by name (a tab's address names the one it plays as, ``?as=Bob``);
    ``table``: what the page asks of the channel's table (:func:`table_state`)."""
    from aiohttp import web

    preview.capability = key
    keep_picture_checks(preview)
    server = preview._server
    run = secrets.token_hex(8)
    extra = {
        "/cardtable.css": "cardtable.css",
        "/cardtable.js": "cardtable.js",
        "/cardtable-early.js": "cardtable-early.js",
        "/cardtable-run.json": "run",
        "/cardtable-table.json": "table",
    }
    server._STATIC_FILES = {**server._STATIC_FILES, **extra}
    original_static = server._static

    async def static(request: Any) -> Any:
        if server.port is None or request.headers.get("Host", "") not in server._allowed_hosts():
            raise web.HTTPForbidden()
        headers = server._SECURITY_HEADERS
        if request.path == "/cardtable-run.json":
            return web.Response(text=json.dumps({"run": run}), content_type="application/json", headers=headers)
        if request.path == "/cardtable-table.json":
            state = dict(table()) if table is not None else {"turn": [], "reopen": []}
            return web.Response(text=json.dumps(state), content_type="application/json", headers=headers)
        if request.path == "/cardtable-early.js":
            known = json.dumps({name: str(member) for name, member in (members or {}).items()})
            early = f"window.cardtableMembers = {known};\n{EARLY_JS}"
            return web.Response(text=early, content_type="application/javascript", headers=headers)
        if request.path == "/cardtable.css":
            return web.Response(text=PAGE_CSS + PHONE_CSS, content_type="text/css", headers=headers)
        if request.path == "/cardtable.js":
            return web.Response(text=PAGE_JS + SCROLL_JS, content_type="application/javascript", headers=headers)
        answer = await original_static(request)
        if request.path == "/text.js":
            return web.Response(text=said_emojis(answer.text), content_type="application/javascript", headers=headers)
        if request.path == "/":
            html = answer.text.replace("<title>SimCord Preview</title>", "<title>Card Table</title>")
            html = html.replace("<head>", '<head>\n  <script src="/cardtable-early.js"></script>', 1)
            html = html.replace("</head>", '<link rel="stylesheet" href="/cardtable.css">\n  </head>')
            html = html.replace("</body>", '<script type="module" src="/cardtable.js"></script>\n  </body>')
            return web.Response(text=html, content_type="text/html", headers=headers)
        return answer

    server._static = static


def table_state(bot: Any, channel_id: int, members: Mapping[int, str]) -> dict[str, list[str]]:
    """What the page asks of the channel's table: ``turn``, the page's members whose move it is
    (the page offers **Play as** them, or follows the turn), and ``reopen``, the labels of the
    buttons that open a private view of a table here (each game's **My hand** and the
    spectators' **Watch**): a tab that had one open presses it again after a restart."""
    turn: list[str] = []
    reopen: list[str] = []
    for live in list(bot.tables.tables.values()):
        if live.record.channel_id != channel_id:
            continue
        reopen.append(live.kind.hand_button)
        watch = live.lent.watch(live)
        label = getattr(getattr(watch, "item", watch), "label", None)
        if isinstance(label, str):
            reopen.append(label)
        engine = live.engine
        if engine is None or engine.is_over:
            continue
        for seat in engine.to_act():
            record = live.seats[seat]
            if record.ai_level is None and record.user_id in members:
                turn.append(members[record.user_id])
    return {"turn": list(dict.fromkeys(turn)), "reopen": list(dict.fromkeys(reopen))}


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
