"""The README's picture of a German table: the local page in headless Chromium, as a person plays.

Starts ``python -m bot.host.local`` (the bot against an in-memory Discord, with its page), opens the
page, and as Alice opens an Oh Hell table with two computers, starts it, bids, then sets the
table's language with ``/ohhell set language de``: the channel's table message is redrawn in
German (any time, not only in the lobby). That message, as the page shows it, is saved as a PNG.

    python bench/screenshot_table.py [--out docs/images/german-table.png] [--language de]

Needs Chromium (Debian's ``chromium``) and Playwright (the ``test`` extra); without them its last
line says it skipped. ``--quick`` (the suite runs it): the same, saved to a temporary file. The
last line is ``screenshot=PATH bytes=N``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import WallClock, browser_missing, browser_page, drained, free_port, launch_chromium, page_address  # noqa: E402
from bench.quick import skip  # noqa: E402

#: words only the table message says, in each language it can be set to here
TABLE_WORDS = {"de": "Trumpf", "es": "Triunfo", "en": "Trumps"}


def shoot(url: str, output: list[str], language: str, out: Path) -> int:
    with launch_chromium() as browser, browser_page(WallClock(url, output), browser) as page:
        page.wait_for("No messages in this channel")
        page.view_as("Alice")
        page.slash("/ohhell new")
        page.wait_for("Oh Hell")
        page.set_with("/ohhell set", r"fixed_hands", option="fixed_hands", value="5,4")
        for _ in range(2):
            page.press("Add computer")
        page.wait_for(r"\(3, ")
        page.press("Start")
        page.wait_for(r"Trumps: ")
        page.set_with("/ohhell set", TABLE_WORDS[language], option="language", value=language)
        table = page.page.locator(".channel-message", has_text=TABLE_WORDS[language]).last
        table.wait_for(timeout=30_000)
        page.pictures_loaded()
        table.scroll_into_view_if_needed()
        out.parent.mkdir(parents=True, exist_ok=True)
        table.screenshot(path=str(out), type="png")
    return out.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "german-table.png")
    parser.add_argument("--language", default="de", choices=sorted(TABLE_WORDS))
    parser.add_argument("--quick", action="store_true", help="the same, saved to a temporary file")
    args = parser.parse_args()
    missing = browser_missing()
    if missing is not None:
        skip(f"bench/screenshot_table.py drives the page in a browser: {missing}")
    with tempfile.TemporaryDirectory() as folder:
        if args.quick:
            args.out = Path(folder) / "table.png"
        port = free_port()
        command = [sys.executable, "-m", "bot.host.local", "--db", os.path.join(folder, "local.sqlite3")]
        proc = subprocess.Popen(
            [*command, "--ai-delay", "0", "--port", str(port)],
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
            size = shoot(url, drained(proc), args.language, args.out)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        print(f"screenshot={args.out} bytes={size}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
