"""The local page shared: two people at one screen, tabs that keep what they showed across a
restart, and pictures that load or say what they show. Driven in headless Chromium against
``python -m bot.host.local`` (:class:`tests.bot.host.test_local.LocalMode`), as a person uses it; how fast a
switch is, is measured by ``bench/local_page.py``, not asserted here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bench.browser import Page, browser_page
from tests.bot.host.test_local import TURN, LocalMode, needs_browser, open_game

SHOWN_AS = "document.documentElement.dataset.cardtableShownAs"


def shown_as(page: Page, name: str, timeout_ms: int = 20_000) -> None:
    """Wait until the page shows itself as ``name`` (nobody touching the picker)."""
    page.caught_up(
        lambda: page.page.wait_for_function(f"name => {SHOWN_AS} === name", arg=name, timeout=timeout_ms, polling=100)
    )


@needs_browser
def test_one_screen_follows_the_turn_or_offers_it_in_one_press(tmp_path: Path, chromium: Any) -> None:
    """Alice and Bob share one tab. With "Follow the turn" ticked the page shows itself as the
    player whose move it is, by itself; unticked (a choice in the picker unticks it), a
    "Play as <name>" button switches in one press. A move is then one press on the panel."""
    local = LocalMode(tmp_path / "local.sqlite3", ai_delay=0.3)
    try:
        with browser_page(local, chromium) as page:
            open_game(page)
            assert not page.page.is_checked("#cardtable-follow"), "the picker's choice left the turn followed"
            who = page.wait_for(TURN, timeout=30, step=0.5).group(1)
            other = "Bob" if who == "Alice" else "Alice"
            page.view_as(other)
            offer = page.page.locator("#cardtable-play-as")
            offer.wait_for(state="visible", timeout=10_000)
            assert offer.inner_text() == f"Play as {who}"
            offer.click()
            shown_as(page, who)
            page.page.locator("#cardtable-play-as").wait_for(state="hidden", timeout=10_000)

            # Following: each of the next moves is made without touching the picker or the offer.
            page.page.check("#cardtable-follow")
            followed: set[str] = set()
            for _ in range(3):
                who, what = page.wait_for(TURN, timeout=30, step=0.5).groups()
                shown_as(page, who)
                followed.add(who)
                if page.panels() == 0:
                    page.press("My hand")
                panel = page.panel_showing(r"Your bid:" if what == "bid" else r"Your turn:")
                if what == "bid":
                    bid = page.press_on_panel(panel, re.compile(r"^\s*\d+\s*$")).strip()
                    page.wait_for(rf"{who}(?: 🎴)?: bid {bid}\b")
                else:
                    card = page.press_card(panel)
                    page.wait_for(rf"{who} {re.escape(card)}")
            assert followed == {"Alice", "Bob"}, followed
            assert page.page.is_checked("#cardtable-follow")
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()


@needs_browser
def test_each_tab_keeps_its_member_panel_and_watch_view_across_a_restart(tmp_path: Path, chromium: Any) -> None:
    """Two tabs: one plays as Bob with his panel open, the other as Carol watching the game.
    After a restart each comes back as its own member (its address names it), Bob's panel and
    Carol's Watch view open again; before, every tab came back as Alice with nothing open.
    Bob presses My hand before his tab has heard from the table which buttons open a view (as
    under load, when that first answer is slow): the press must still be kept."""
    local = LocalMode(tmp_path / "local.sqlite3", ai_delay=0.3)
    try:
        # Alice's tab opens the game, and is then Carol's; Bob's opens at his own address.
        with browser_page(local, chromium) as carol, browser_page(local, chromium, opened=False) as bob:
            open_game(carol)
            held = {"table": True}

            def slow_table(route: Any) -> None:
                if held["table"]:
                    route.abort()
                else:
                    route.continue_()

            bob.page.route(re.compile(r"/cardtable-table\.json"), slow_table)
            bob.page.goto(local.url.replace("/#", "/?as=Bob#"))
            shown_as(bob, "Bob")
            bob.press("My hand")
            bob.page.locator(".channel-message", has_text="Your hand · Oh Hell").first.wait_for(timeout=30_000)
            held["table"] = False
            carol.view_as("Carol")
            assert "as=Carol" in carol.page.url, carol.page.url
            carol.press("Watch")
            carol.wait_for(r"You are watching game #\d+")

            code, out = local.stop()
            assert code == 0, out
            bob.wait_for("The table is not running", timeout=10)
            local.start_again()
            bob.local.advance(0)
            for tab, name in ((bob, "Bob"), (carol, "Carol")):
                tab.page.locator("#cardtable-offline").wait_for(state="detached", timeout=30_000)  # reloaded
                shown_as(tab, name, 30_000)
                assert f"as={name}" in tab.page.url, tab.page.url
            bob.page.locator(".channel-message", has_text="Your hand · Oh Hell").first.wait_for(timeout=30_000)
            carol.wait_for(r"You are watching game #\d+", timeout=30)
            assert carol.panels() == 0
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()


@needs_browser
def test_a_picture_the_program_is_slow_to_answer_loads_and_one_that_never_comes_says_its_words(
    tmp_path: Path, chromium: Any
) -> None:
    """Under load the program sometimes did not answer a picture at the first ask, and the page
    showed "Embed 1 image unavailable" (and once "Custom emoji unavailable" for the only card).
    Here every picture's first ask fails: the page asks again and shows them all. Then one
    picture never comes: the page says so in words (a card by its name), not "unavailable"."""
    local = LocalMode(tmp_path / "local.sqlite3", ai_delay=0.3)
    try:
        with browser_page(local, chromium) as page:
            asked: dict[str, int] = {}
            never: set[str] = set()

            def flaky(route: Any) -> None:
                url = route.request.url
                asked[url] = asked.get(url, 0) + 1
                if asked[url] == 1 or url in never:
                    route.fulfill(status=404, body="{}")
                else:
                    route.continue_()

            page.page.route(re.compile(r"/api/assets/"), flaky)
            open_game(page)
            page.view_as("Alice")
            page.press("My hand")
            page.panel_showing(r"Your hand · Oh Hell · deal 1")
            page.pictures_loaded()
            assert page.page.locator("img.custom-emoji[data-cardtable-emoji]").count() >= 2
            plain = page.page.inner_text("body")
            assert "unavailable" not in plain, plain
            assert any(count > 1 for count in asked.values()), asked

            # From now on the pictures of the table never come: the page says them in words.
            never.update(asked)
            page.page.unroute(re.compile(r"/api/assets/"))
            page.page.route(re.compile(r"/api/assets/"), lambda route: route.fulfill(status=404, body="{}"))
            page.page.reload()
            shown_as(page, "Alice")
            said = page.page.locator(".media-unavailable.cardtable-said").first
            said.wait_for(timeout=30_000)
            text = said.inner_text()
            assert text.startswith("🖼️ ") and "unavailable" not in text, text
            page.page.locator(".emoji-unavailable").first.wait_for(timeout=30_000)
            cards = page.page.locator(".emoji-unavailable").all_inner_texts()
            assert cards and not any("unavailable" in card for card in cards), cards
            named = re.compile(
                r"^(10|[2-9]|ace|king|queen|jack|A|K|Q|J)( of (spades|clubs)|[♥♦])$|^(joker|spades|clubs|[♥♦])$"
            )
            assert any(named.match(card) for card in cards), cards
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()


@needs_browser
def test_set_lists_its_options_at_once_and_a_mistyped_command_gets_a_hint(tmp_path: Path, chromium: Any) -> None:
    """``/ohhell set``: the option field's suggestions show as soon as it has the focus, before
    a letter is typed (the page asked the bot only on input). ``/ohell new`` sent as a chat line
    is answered with the command it was meant to be. A second table is refused with how to free
    the channel, not "open a table in another channel" (the page has one channel)."""
    local = LocalMode(tmp_path / "local.sqlite3", ai_delay=0.3)
    try:
        with browser_page(local, chromium) as page:
            page.wait_for("No messages in this channel")
            page.slash("/ohhell new")
            page.wait_for("Oh Hell: a table is open")
            box = page.page.get_by_placeholder("Message #cards")
            box.click()
            box.type("/ohell new")
            page.page.keyboard.press("Escape")
            page.page.click("#send-message")
            page.wait_for(r"There is no /ohell new command: did you mean /ohhell new\?")
            # a second table in the page's one channel: advice the page can follow
            page.slash("/shithead new")
            refusal = page.wait_for(r"This channel already has a lobby \(Oh Hell\)\. [^\n]*").group(0)
            assert refusal.endswith("Finish it first, or its host ends it with /ohhell end."), refusal
            assert "another channel" not in page.text(), page.text()
            # last, as the command it leaves in the composer would be cleared only by a reload
            box.click()
            box.type("/ohhell set")
            page.page.get_by_role("option", name="/ohhell set").first.wait_for()
            page.page.keyboard.press("Enter")
            page.page.locator('.command-option-input[data-option="option"]:focus').wait_for(timeout=10_000)
            offered = page.page.get_by_role("option", name="turn_timer", exact=True).first
            page.caught_up(lambda: offered.wait_for(timeout=10_000))
            assert page.page.evaluate("document.activeElement.value") == "", "a letter was typed"
        code, out = local.stop()
        assert code == 0, out
    finally:
        local.kill()
