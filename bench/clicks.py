"""Clicks a move and REST calls a card with the live private panel, over whole 4-player games.

Plays one whole 4-player game of Oh Hell (classic) and one of Shithead (pagat) through the real
bot in SimCord, as people would with the live panel: each player presses My hand / My cards once
at the start (not counted), then only reads the panel the bot keeps current and presses its
buttons. A move that no single button makes is done the long way and its extra clicks counted
(Shithead: the list, then Play); a panel that did not update itself would cost a press of
Refresh, also counted. Figures:

- clicks/move: the players' clicks after the panels were opened, per move they made;
- channel calls/card: REST calls other than interaction callbacks and panel edits and sends
  (everything that goes against the channel's rate limit), per card (Oh Hell: per card played;
  Shithead: per move of the play phase — a play, a pick-up or a flip);
- panel edits/card: edits of a panel through its interaction's webhook that were not the answer to
  its player's own click (the bot's own redraws, and old copies turned into pointers), per card;
- panel sends/card: panels sent again below a newly posted table (followups through the
  interaction's webhook, which like its edits do not count against the channel), per card;
- render p99 ms: the 99th percentile time to draw a panel (embed, buttons and hand picture);
- panel in view=K/N: each time a deal began after the panels were opened, each player's live panel
  (their newest private message with its controls, as they would find it) was below the newest
  table message K times out of N (goal N/N: nobody scrolls up to find their hand);
- buttons in view=K/N and phone in view=K/N: in a real browser (:mod:`bench.panel_view`: the local
  mode's page in Debian's Chromium), at K of a player's N decisions every control the decision
  needs was on screen without scrolling, on a 1366×768 laptop's window and on a 390-pixel phone
  (Alice against computers, 12 decisions of each game on each: at Oh Hell her 10-card first deal
  and the next deal's bid, at Shithead her swaps and first turns). Without Chromium and
  Playwright both read ``-`` and the line before says why.

Players follow their live panel as a player would: when the bot moves it below a new table (the
old copy says so), they press on the new one.

The last line is ``clicks/move=X channel calls/card=Y panel edits/card=Z panel sends/card=S
render p99 ms=R panel in view=K/N buttons in view=K/N phone in view=K/N`` over both games
together.

    python bench/clicks.py [--seed 1] [--phone-shot docs/images/panel-phone.png]

``--phone-shot`` saves the phone's window at Alice's first card (the README's picture).

``--quick`` (the suite runs it): the same, the Oh Hell game of two deals (2 cards, then 1),
the Shithead game between two players; in the browser, one Oh Hell game against two computers:
Alice's bid in the laptop's window, then her first card in a phone's opened on the same game.
SimCord's settle looks for the database's answers every 1 ms, as in the tests (the bot's own
pauses still run in real time).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcord  # noqa: E402

from bench.simdriver import (  # noqa: E402
    _quick_play,
    _sensible,
    live_panel,
    make_bot,
    open_table,
    settle_promptly,
    table_message,
    walk_components,
)
from bot.messages.presentation import COALESCE  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan")


@dataclass
class Tally:
    moves: int = 0
    clicks: int = 0
    cards: int = 0
    channel_calls: int = 0
    panel_edits: int = 0
    panel_sends: int = 0
    in_view: int = 0
    deal_views: int = 0
    renders: list[float] = field(default_factory=list)


def raw(message: Any) -> list[dict]:
    return walk_components([c if isinstance(c, dict) else c.to_dict() for c in message.components])


def find(message: Any, *parts: str) -> dict:
    return next(c for c in raw(message) if all(p in (c.get("custom_id") or "") for p in parts))


def current(channel, person, message) -> Any:
    return next(m for m in channel.history(viewer=person) if m.id == message.id)


def live_buttons(message: Any, digest: str) -> list[dict]:
    """The panel's enabled buttons drawn for the current decision (Refresh left out)."""
    out = []
    for c in raw(message):
        cid = c.get("custom_id") or ""
        if c.get("type") != 2 or c.get("disabled") or ":refresh:" in cid or cid.startswith("ohp:") and ":r:" in cid:
            continue
        if cid.split(":")[2:3] == [digest]:
            out.append(c)
    return out


async def play(game: str, seed: int, quick: bool = False) -> Tally:
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        bot = make_bot(os.path.join(tmp, "bench.sqlite3"), coalesce=COALESCE, virtual=False)  # as the bot runs
        try:
            async with simcord.run(bot, settle_timeout=60) as env:
                guild = env.create_guild()
                channel = guild.create_text_channel("cards")
                people = [
                    guild.add_member(env.create_user(n)) for n in NAMES[: 2 if quick and game == "shithead" else 4]
                ]
                if game == "ohhell":
                    options = {"fixed_hands": "2,1"} if quick else None
                    await open_table(env, channel, people[0], people[1:], preset="classic", options=options)
                else:
                    await open_table(env, channel, people[0], people[1:], command="shithead")
                table = bot.tables.in_channel(channel.id, game)
                by_seat = {table.seat_of(p.id): p for p in people}
                panels = {}
                for person in people:
                    shown = await person.click(table_message(channel, bot.user.id), label=table.kind.hand_button)
                    panels[person.id] = shown.response
                bot.tables.presenter.panels.stats.render_ms.clear()
                start = len(env.http_requests)
                rng = random.Random(seed)
                while not table.engine.is_over:
                    engine = table.engine
                    seat = engine.to_act()[0]
                    person = by_seat[seat]
                    digest = table.kind.decision_digest(engine, seat)
                    panels[person.id] = live_panel(env, channel, person) or panels[person.id]
                    panel = current(channel, person, panels[person.id])
                    buttons = live_buttons(panel, digest)
                    if not buttons:  # the panel did not update itself: the player presses Refresh
                        refresh = next(
                            c for c in raw(panel) if ":refresh:" in c["custom_id"] or ":r:" in c["custom_id"]
                        )
                        panel = (await person.click(panel, custom_id=refresh["custom_id"])).response
                        tally.clicks += 1
                        buttons = live_buttons(panel, digest)
                    before = engine.action_count
                    deal = engine.deal_number
                    playing = game == "shithead" and engine.view(None)["phase"] == "play"
                    if game == "ohhell":
                        pressed = rng.choice(buttons)["custom_id"]
                        await person.click(panel, custom_id=pressed)
                        tally.clicks += 1
                        if ":p:" in pressed:
                            tally.cards += 1
                    else:
                        view = engine.view(seat)
                        action = _sensible(view, view["action_count"])
                        await _shithead_move(person, panel, buttons, action, tally)
                        tally.cards += playing
                    assert table.engine.action_count == before + 1, "the move was not made"
                    tally.moves += 1
                    if table.engine.deal_number != deal and not table.engine.is_over:
                        await env.settle()  # a deal began: is each player's live panel below its table?
                        for someone in people:
                            live = live_panel(env, channel, someone)
                            tally.deal_views += 1
                            tally.in_view += live is not None and live.id > table.record.message_id
                await env.settle()
                for r in env.http_requests[start:]:
                    if r.path.startswith("/webhooks/") and r.method == "PATCH":
                        tally.panel_edits += 1
                    elif r.path.startswith("/webhooks/") and r.method == "POST":
                        tally.panel_sends += 1
                    elif not ("/interactions/" in r.path and r.path.endswith("/callback")):
                        tally.channel_calls += 1
                tally.renders = list(bot.tables.presenter.panels.stats.render_ms)
        finally:
            await bot.close()
    return tally


async def _shithead_move(person, panel, buttons: list[dict], action: dict, tally: Tally) -> None:
    kind = action["type"]
    wanted = None
    if kind == "play":
        wanted = _quick_play(panel, action["cards"])
    else:
        part = {
            "swap": f":swap:{action.get('hand')}>{action.get('up')}",
            "stack": f":stack:{action.get('card')}",
            "ready": ":ready:",
            "flip": f":flip:{action.get('index', 0):x}",
            "pickup": f":add:{action['add']}" if "add" in action else ":pick:",
        }.get(kind)
        wanted = next((b["custom_id"] for b in buttons if part and part in b["custom_id"]), None)
    if wanted is not None:
        await person.click(panel, custom_id=wanted)
        tally.clicks += 1
        return
    if kind == "choose_up" or kind == "play":  # the long way: choose in the list, then confirm
        select = find(panel, "shs:", ":sel" if kind == "play" else ":choose")
        cards = set(action["cards"])
        values = [o["value"] for o in select["options"] if set(o["value"].split(".")) & cards]
        chosen = (await person.select(panel, values, custom_id=select["custom_id"])).response
        confirm = find(chosen, ":play:" if kind == "play" else ":confirm")
        await person.click(chosen, custom_id=confirm["custom_id"])
        tally.clicks += 2
        return
    raise AssertionError(f"no control for {action}")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def line(t: Tally) -> str:
    return (
        f"clicks/move={t.clicks / t.moves:.2f} channel calls/card={t.channel_calls / t.cards:.2f} "
        f"panel edits/card={t.panel_edits / t.cards:.2f} panel sends/card={t.panel_sends / t.cards:.2f} "
        f"render p99 ms={p99(t.renders):.1f} panel in view={t.in_view}/{t.deal_views}"
    )


def in_the_browser(quick: bool, shot: str | None = None) -> str:
    """``buttons in view=K/N phone in view=K/N`` over a game of each kind in Chromium, or ``-``
    for both where it cannot run (the reason printed)."""
    from bench.browser import browser_missing

    missing = browser_missing()
    if missing is not None:
        print(f"browser: not measured: {missing}")
        return "buttons in view=- phone in view=-"
    from bench.panel_view import DESKTOP, PHONE, Seen, play

    desk, phone = Seen(), Seen()
    for game in ("ohhell",) if quick else ("ohhell", "shithead"):
        if quick:  # one game, the phone's window opened where the laptop's left it
            alice, bob = play(game, quick, (DESKTOP, PHONE), shot=shot)
        else:
            [alice], [bob] = (
                play(game, quick, (DESKTOP,)),
                play(game, quick, (PHONE,), shot=shot if game == "ohhell" else None),
            )
        print(
            f"{game} in the browser: laptop {alice.in_view}/{alice.decisions}, phone {bob.in_view}/{bob.decisions}"
            + "".join(
                f"; missed {who} at {', '.join(s.missed)}" for who, s in (("laptop", alice), ("phone", bob)) if s.missed
            )
        )
        for total, seen in ((desk, alice), (phone, bob)):
            total.decisions += seen.decisions
            total.in_view += seen.in_view
    return f"buttons in view={desk.in_view}/{desk.decisions} phone in view={phone.in_view}/{phone.decisions}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="seconds: short games; the suite runs it")
    parser.add_argument("--phone-shot", metavar="PNG", help="save the phone's window at Alice's first card there")
    args = parser.parse_args()
    settle_promptly()  # (the bot's own pauses still run in real time: they are what is measured)
    total = Tally()
    for game in ("ohhell", "shithead"):
        t = await play(game, args.seed, args.quick)
        print(
            f"{game}: {t.moves} moves, {t.clicks} clicks, {t.cards} cards, {t.channel_calls} channel calls, "
            f"{t.panel_edits} panel edits, {t.panel_sends} panel sends"
        )
        print(f"    {line(t)}")
        for name in (
            "moves",
            "clicks",
            "cards",
            "channel_calls",
            "panel_edits",
            "panel_sends",
            "in_view",
            "deal_views",
        ):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.renders += t.renders
    # (Playwright's sync API refuses to run inside an event loop: a thread of its own)
    shown = await asyncio.to_thread(in_the_browser, args.quick, args.phone_shot)
    print(f"{line(total)} {shown}")


if __name__ == "__main__":
    asyncio.run(main())
