"""The host's view of a running bot: the endpoint, the metrics of a short game, a stop on SIGTERM.

Starts ``python -m bot.host.local`` with the health endpoint on (``--health-port``), waits for
``/healthz`` and ``/readyz``, plays a short Oh Hell game through the local page in headless
Chromium (Alice against two computers, hands of 2 then 1 card: she opens her panel once and
presses every bid and card on it), reads ``/metrics``, then sends SIGTERM and times the exit.

Figures: how long the endpoint took to answer and to say ready; the number of ``cardtable_``
series on the page; the press time (the bot's side: from a press reaching the bot to its answer
going out) at p50 and p99, estimated from the histogram's buckets as Prometheus'
``histogram_quantile`` does; moves committed; and the seconds from SIGTERM to the process's exit.
The last line is ``healthz=200 ready=200 metrics=N press p99 ms=P sigterm s=S``.

    python bench/ops.py [--ai-delay 0.3]

Needs Chromium (Debian's ``chromium``) and the ``local`` and ``test`` extras (playwright); without
them its last line says it skipped. ``--quick`` (the suite runs it): the same with one deal of one
card and the computers moving at once (``--ai-delay 0``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import WallClock, browser_missing, browser_page, free_port, launch_chromium, page_address  # noqa: E402
from bench.quick import skip  # noqa: E402

CARD = re.compile(r"(10|[2-9JQKA])[♣♦♥♠]")


def get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError:
        return 0, ""


def wait_status(port: int, path: str, status: int, timeout: float = 60.0) -> float:
    """Seconds until ``path`` answers ``status``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if get(port, path)[0] == status:
            return time.monotonic() - started
        time.sleep(0.05)
    raise SystemExit(f"{path} never answered {status} within {timeout:.0f} s")


def samples(page: str) -> dict[str, float]:
    """``series{labels}`` -> value for every sample line of a Prometheus text page."""
    found = {}
    for line in page.splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            found[series] = float(value)
    return found


def quantile(q: float, page: dict[str, float], name: str) -> float:
    """``histogram_quantile(q, sum by (le) (name_bucket))``: linear within the bucket it falls in."""
    buckets: dict[float, float] = {}
    for series, value in page.items():
        if series.startswith(f"{name}_bucket{{"):
            bound = re.search(r'le="([^"]+)"', series)
            assert bound is not None
            le = float("inf") if bound.group(1) == "+Inf" else float(bound.group(1))
            buckets[le] = buckets.get(le, 0.0) + value
    bounds = sorted(buckets)
    total = buckets.get(float("inf"), 0.0)
    if total == 0:
        return float("nan")
    rank, lower, below = q * total, 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * (rank - below) / max(count - below, 1e-9)
        lower, below = bound, count
    return lower


def play(url: str, output: list[str], hands: str = "2,1", deadline_s: float = 300.0) -> int:
    """Alice against two computers, to the final standings; returns her presses on the panel."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with launch_chromium() as browser, browser_page(WallClock(url, output), browser) as page:
        page.wait_for("No messages in this channel")
        page.slash("/ohhell new")
        page.wait_for("Oh Hell: a table is open")
        page.set_with("/ohhell set", r"fixed_hands is now", option="fixed_hands", value=hands)
        for count in (2, 3):
            page.press("Add computer")
            page.wait_for(rf"Players \({count}, ")
        page.press("Start")
        page.wait_for(r"deal 1 of \d+ · \d+ cards?")
        page.press("My hand")
        page.wait_for(r"Your hand · Oh Hell · deal 1")
        presses = 0
        deadline = time.monotonic() + deadline_s
        while "Game over" not in page.text():
            if time.monotonic() > deadline:
                raise SystemExit(f"the game did not end in time; the page shows:\n{page.text()[-2500:]}")
            panel = page.page.locator(".channel-message", has_text="Your hand · Oh Hell").last
            text = panel.inner_text() if panel.count() else ""
            enabled = panel.locator("button:not([disabled]):not([aria-disabled='true'])")
            if "Your bid:" in text:
                choice = enabled.filter(has_text=re.compile(r"^\s*\d+\s*$"))
            elif "Your turn:" in text:
                choice = page.card_buttons(panel)  # a card button shows its card as an emoji picture
            else:
                page.page.wait_for_timeout(200)
                continue
            if choice.count() == 0:
                page.page.wait_for_timeout(200)
                continue
            try:
                choice.first.click(timeout=3000)
            except PlaywrightTimeout:  # the panel was redrawn under the pointer (its buttons off a moment)
                continue
            presses += 1
            page.page.wait_for_timeout(600)  # the panel redraws for the next decision
        page.wait_for(r"Game over")
    return presses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ai-delay", type=float, default=0.3)
    parser.add_argument("--quick", action="store_true", help="seconds: one 1-card deal, no computer delay")
    args = parser.parse_args()
    missing = browser_missing()
    if missing is not None:
        skip(f"bench/ops.py drives the page in a browser: {missing}")
    hands = "1" if args.quick else "2,1"
    if args.quick:
        args.ai_delay = 0.0
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "ops.sqlite3")
        command = [sys.executable, "-m", "bot.host.local", "--db", db, "--ai-delay", str(args.ai_delay)]
        started = time.monotonic()
        proc = subprocess.Popen(
            [*command, "--health-port", str(port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        try:
            alive_s = wait_status(port, "/healthz", 200)
            healthz = get(port, "/healthz")[0]
            ready_s = wait_status(port, "/readyz", 200)
            ready, body = get(port, "/readyz")
            print(f"endpoint up {alive_s:.2f} s after the start; ready after {ready_s:.2f} s: {body}")
            url, banner = page_address(proc)
            if url is None:
                raise SystemExit(f"no page address in: {banner}")
            rest: list[str] = []  # drained while the game runs, to the end: its last lines are read below
            drain = threading.Thread(target=lambda: rest.extend(proc.stdout or []), daemon=True)
            drain.start()
            presses = play(url, rest, hands, 90.0 if args.quick else 300.0)
            status, text = get(port, "/metrics")
            page = samples(text)
            series = [s for s in page if s.startswith("cardtable_")]
            p50 = quantile(0.5, page, "cardtable_press_seconds") * 1000
            p99 = quantile(0.99, page, "cardtable_press_seconds") * 1000
            count = sum(v for s, v in page.items() if s.startswith("cardtable_press_seconds_count"))
            moves = sum(v for s, v in page.items() if s.startswith("cardtable_moves_committed_total"))
            commit_p99 = quantile(0.99, page, "cardtable_store_seconds") * 1000
            print(f"/metrics {status}: {len(series)} cardtable_ series; {presses} clicks by Alice on her panel")
            print(f"presses timed {count:.0f}: p50 {p50:.1f} ms, p99 {p99:.1f} ms; moves committed {moves:.0f}")
            print(f"store calls p99 {commit_p99:.1f} ms (all operations)")
            print(json.dumps({s: v for s, v in page.items() if "press_seconds_count" in s}))
            stop = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=120)
            sigterm_s = time.monotonic() - stop
            drain.join(timeout=10)
            out = "".join(rest)
            print(f"SIGTERM: exit status {proc.returncode} after {sigterm_s:.2f} s (ran {stop - started:.0f} s)")
            if "Traceback" in out:
                print(out[-3000:])
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    print(f"healthz={healthz} ready={ready} metrics={len(series)} press p99 ms={p99:.1f} sigterm s={sigterm_s:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
