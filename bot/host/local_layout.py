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

from pathlib import Path

#: the layout's browser code, beside the page's own (``page/``)
PAGE = Path(__file__).resolve().with_name("page")
#: appended to the page's own style sheet (bot.host.local_page.PAGE_CSS)
PHONE_CSS = (PAGE / "phone.css").read_text(encoding="utf-8")
#: appended to the page's own script (bot.host.local_page.PAGE_JS)
SCROLL_JS = (PAGE / "scroll.js").read_text(encoding="utf-8")
