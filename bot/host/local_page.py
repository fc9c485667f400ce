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

The style sheet and the scripts are the browser's code, in files of their own beside this module
(``page/``, shipped as the package's data), read once at import; this module serves them.
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

#: the page's browser code, beside this module: its style sheet and scripts (``page/``), read once
PAGE = Path(__file__).resolve().with_name("page")
#: the page's own style sheet: hides the developer's controls, shows the bot's pictures at their size
PAGE_CSS = (PAGE / "cardtable.css").read_text(encoding="utf-8")
#: run before SimCord's page starts: whom the page plays as, pictures asked again, card names in words
EARLY_JS = (PAGE / "cardtable-early.js").read_text(encoding="utf-8")
#: run once SimCord's page is up: reconnecting, the turn, the views reopened, card emojis in words
PAGE_JS = (PAGE / "cardtable.js").read_text(encoding="utf-8")


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
            early = f"window.cardtableMembers = {known};\n\n{EARLY_JS}"
            return web.Response(text=early, content_type="application/javascript", headers=headers)
        # (a served file's parts each start on a line of their own, after a blank one)
        if request.path == "/cardtable.css":
            return web.Response(text=f"\n{PAGE_CSS}\n{PHONE_CSS}", content_type="text/css", headers=headers)
        if request.path == "/cardtable.js":
            script = f"\n{PAGE_JS}\n{SCROLL_JS}"
            return web.Response(text=script, content_type="application/javascript", headers=headers)
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
