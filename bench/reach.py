"""Who the table reaches: alt text on every picture, and turn pings, over a whole Oh Hell game.

Plays a whole Oh Hell game of three people through the real bot in SimCord, with the table set
to ``ping_after 2m`` and every player away between their turns: each turn the table waits
15 minutes (virtual time) before the player it waits on opens **My hand** and presses a move, so
their panel has gone stale (not looking) and the ping is due. It records every file Discord
stores for the bot (any route: table, DM, panel, the final chart, ``/ohhell scores``) with its
description, and every ping line with the turn it fell in. Its last line is
``locales=L strings=S missing=M alt text=A/F pings per turn=P``.

``L``: the languages the message catalogue speaks (English, the source, and each translated
language under ``locales/``); ``S``: the user-facing strings of the source (every string marked for
the catalogue, counted once: a plural pair as one); ``M``: the strings some language lacks a usable
translation of (none, fuzzy, or a plural form empty), counted once however many languages lack it.
``A``: files sent with a description within Discord's 1,024 characters, of ``F`` files sent;
``P``: the most ping lines any one turn got (a turn: the table's count of moves when it was
sent), which must be 1 on a table that pings; the bench checks that every turn whose player was
away got exactly one and every turn whose player was looking (their panel still live: they moved
last and move again) none. The game is checked as it goes: a ping only ever names the player
the table waits on.

    python bench/reach.py [--quick] [--seed 1]

``--quick`` plays a one-deal game (one card each), for the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcord  # noqa: E402
from simcord.backend.cdn import CdnStore  # noqa: E402

from bench.simdriver import virtual_timers  # noqa: E402
from bot.client import CardBot  # noqa: E402
from bot.host.settings import Settings  # noqa: E402
from draw.pictures import ALT_LIMIT  # noqa: E402
from locales import catalogue  # noqa: E402

NAMES = ("ann", "bob", "cat")
PING = "🔔"
DUE = 2 * 60 + 1  # just past ping_after
AWAY = 15 * 60  # longer than a panel lives (14.5 min): a player back for their turn is not looking


def components(rows: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for component in rows:
        if not isinstance(component, dict) and hasattr(component, "to_dict"):
            component = component.to_dict()
        if isinstance(component, dict):
            out.append(component)
            out += components(component.get("components") or [])
    return out


def table_message(env: Any, channel: Any) -> Any:
    for message in reversed([m for m in channel.history() if m.author.id == env.bot.user.id]):
        if message.components:
            return message
    raise RuntimeError("no table message")


async def play(quick: bool, seed: int) -> tuple[int, int, int, int, int]:
    uploads: list[str | None] = []
    real = CdnStore.store_attachment

    def store(self: CdnStore, attachment_id: int, channel_id: int, filename: str, data: bytes, description: Any) -> Any:
        uploads.append(description)
        return real(self, attachment_id, channel_id, filename, data, description)

    CdnStore.store_attachment = store  # type: ignore[method-assign]
    rng = random.Random(seed)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = CardBot(Settings(token="bench", database_path=os.path.join(tmp, "reach.sqlite3"), ai_delay=0.0))
            bot.tables.presenter.coalesce = 0.0
            bot.leases.seconds = 3600.0
            virtual_timers(bot)
            try:
                async with simcord.run(bot, settle_timeout=60) as env:
                    guild = env.create_guild()
                    channel = guild.create_text_channel("play-by-post")
                    people = [guild.add_member(env.create_user(n)) for n in NAMES]
                    by_id = {p.id: p for p in people}
                    lobby = (await people[0].slash(channel, "ohhell new")).response
                    for option, value in (("ping_after", "2m"), ("fixed_hands", "1" if quick else "3,2,1")):
                        answer = await people[0].slash(channel, "ohhell set", option=option, value=value)
                        assert "✅" in answer.response.content, answer.response.content
                    for person in people[1:]:
                        await person.click(lobby, label="Join")
                    await people[0].click(lobby, label="Start")
                    table = bot.tables.in_channel(channel.id, "ohhell")
                    pings_by_turn: collections.Counter[int] = collections.Counter()
                    seen = unlooked = 0
                    last: int | None = None
                    while table.engine is not None and not table.engine.is_over:
                        turn = table.engine.action_count
                        [seat] = table.engine.to_act()
                        waiting = table.seats[seat].user_id
                        await env.advance_time(DUE)
                        # (a player who moved last and moves again, a new deal's first bid after
                        # the last card, still has their panel open: they are looking)
                        looking = bot.tables.presenter.panels.live(table, seat)
                        assert not looking or waiting == last, "looking, though away since their last move"
                        await env.advance_time(AWAY - DUE)
                        lines = [
                            m
                            for m in channel.history()
                            if m.author.id == bot.user.id and (m.content or "").startswith(PING)
                        ]
                        for line in lines[seen:]:
                            assert [u.id for u in line.mentions] == [waiting], line.content
                            pings_by_turn[turn] += 1
                        seen = len(lines)
                        assert pings_by_turn[turn] == (0 if looking else 1), (turn, looking, pings_by_turn[turn])
                        unlooked += not looking
                        actor = by_id[waiting]
                        panel = (await actor.click(table_message(env, channel), label="My hand")).response
                        moves = [
                            c["custom_id"]
                            for c in components(panel.components)
                            if (c.get("custom_id") or "").startswith("ohp:")
                            and not c.get("disabled")
                            and c["custom_id"].split(":")[3] in ("b", "p")
                        ]
                        await actor.click(panel, custom_id=rng.choice(moves))
                        last = waiting
                    await env.settle()
                    await people[1].slash(channel, "ohhell scores")
                    turns = table.engine.action_count if table.engine is not None else 0
                    assert len(pings_by_turn) == unlooked  # every turn that waited on someone away
            finally:
                await bot.close()
    finally:
        CdnStore.store_attachment = real  # type: ignore[method-assign]
    described = sum(1 for d in uploads if d and len(d) <= ALT_LIMIT)
    return described, len(uploads), max(pings_by_turn.values(), default=0), turns, unlooked


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a one-deal game, for the suite")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    described, files, most, turns, away = await play(args.quick, args.seed)
    print(f"{turns} turns, each waited {AWAY // 60} min with ping_after 2m; {away} found the player away")
    print(f"{files} files sent")
    keys = catalogue.source_keys()
    languages = [name for name in catalogue.catalogues() if name != "en"]
    gaps = set().union(*(catalogue.missing(language, keys) for language in languages))
    print(f"languages: en (source), {', '.join(languages)}; {len(gaps)} of {len(keys)} strings lack a translation")
    print(
        f"locales={1 + len(languages)} strings={len(keys)} missing={len(gaps)} "
        f"alt text={described}/{files} pings per turn={most}"
    )


if __name__ == "__main__":
    asyncio.run(main())
