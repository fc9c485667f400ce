"""The coaches' words: a bid that was made is no misbid, the Shithead page lists
the players as they finished, no move is listed twice, and "working…" shows before the answer,
in the local mode too (where a page shows what the bot did once it has settled)."""

from __future__ import annotations

import asyncio
import json
import re

from bench.quick import LIGHT_COACH
from cogs.ohhell.coach import analysis_embed
from cogs.shithead.coach import shithead_embed
from db.records import GameRecord, SeatRecord
from games.ohhell.analysis import AnalysisConfig, summarise
from games.shithead import analysis as sh
from tests.cogs.stats.test_features import embed_text, play_ohhell
from tests.helpers import ShitheadDriver, open_table


def record(kind: str, names: list[str]) -> GameRecord:
    seats = [SeatRecord(i, 10 + i, name) for i, name in enumerate(names)]
    return GameRecord(7, kind, 1, 1, 10, "finished", "classic", {}, {}, 1, None, None, seats=seats)


def row(seat: int, bid: int, tricks: int, score: int, computer: int) -> dict:
    return {
        "seat": seat,
        "bid": bid,
        "tricks": tricks,
        "score": score,
        "expected_tricks": computer,
        "expected_score": 5.0,
    }


def test_a_bid_that_was_made_is_not_called_a_misbid() -> None:
    deals = [
        {
            "deal": 1,
            "hand_size": 3,
            # ann bid 2 (the computer 0) and made it: +12, no misbid; bob bid 3, took 1 (the computer 1)
            "rows": [row(0, 2, 2, 12, 0), row(1, 3, 1, 0, 1), row(2, 0, 0, 10, 0)],
            "costly_cards": [],
        },
        {
            "deal": 2,
            "hand_size": 2,
            # cat bid 1 as the computer did and missed: bad luck, not a misbid
            "rows": [row(0, 0, 0, 10, 0), row(1, 1, 1, 11, 2), row(2, 1, 0, 0, 1)],
            "costly_cards": [],
        },
    ]
    data = summarise(deals, 3, AnalysisConfig())
    assert [(m["deal"], m["seat"]) for m in data["misbids"]] == [(1, 1)]
    embed = analysis_embed(record("ohhell", ["ann", "bob", "cat"]), data)
    misbids = next(f.value for f in embed.fields if "misbid" in (f.name or "").lower())
    assert misbids.splitlines() == ["Deal 1: bob bid 3 and took 1 (+0); the strong computer bid 1"], misbids


def embed_text_of(embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def decision(index: int, seat: int, kind: str, loss: float, pickup_loss: float | None = None) -> dict:
    d = {
        "index": index,
        "seat": seat,
        "kind": kind,
        "action": {"type": "pickup"} if kind == "pickup" else {"type": "play", "cards": ["5H"]},
        "pile": 3,
        "top": "9S",
        "chance": 0.5,
        "better": {"type": "play", "cards": ["7C"]} if kind == "pickup" else {"type": "pickup"},
        "better_chance": 0.5 + loss,
        "loss": loss,
        # a pick-up's better play is the computer's; a play's better pick-up is not
        "computer_chance": 0.5 + loss if kind == "pickup" else 0.5,
    }
    if pickup_loss is not None:
        d["pickup_loss"] = pickup_loss
    return d


def test_the_shithead_page_lists_players_as_they_finished_and_no_move_twice() -> None:
    # ann went out first, bob second, cat was the shithead; bob's cards were the worse, so his
    # luck-adjusted result is above ann's: the page still lists ann first, as she finished
    parts = [
        {"kind": "luck", "worth": [0.8, 0.5, 0.7]},
        {
            "kind": "decisions",
            "seat": 0,
            "rows": [decision(4, 0, "pickup", 0.3), decision(9, 0, "pickup", 0.2), decision(12, 0, "play", 0.25, 0.25)],
        },
        {"kind": "decisions", "seat": 1, "rows": [decision(5, 1, "play", 0.1, 0.1), decision(8, 1, "play", 0.15)]},
    ]
    data = sh.summarise(parts, 3, [0, 1, 2], "loser", sh.AnalysisConfig())
    assert [p["seat"] for p in data["players"]] == [0, 1, 2]
    text = embed_text_of(shithead_embed(record("shithead", ["ann", "bob", "cat"]), data))
    standings = [line for line in text.splitlines() if re.match(r"\d+\. \*\*", line)]
    assert [line.split("**")[1] for line in standings] == ["ann", "bob", "cat"], standings
    assert "1st out" in standings[0]
    moves = re.findall(r"^Move (\d+):", text, flags=re.M)
    assert sorted(moves) == sorted(set(moves)) and set(moves) == {"4", "5", "8", "9", "12"}, text


async def _answer(env, coach, channel, viewer, message_id: int) -> str:
    """The answer once the coach's work is done (in its worker processes) and its edit made: the
    command waits in a declared outside wait, which a settle does not join, so the edit may take
    a few more turns of the loop."""
    await asyncio.gather(*coach.running.values())
    for _ in range(100):
        await env.settle()
        text = embed_text(next(m for m in channel.history(viewer=viewer) if m.id == message_id))
        if "Working on the analysis" not in text:
            return text
        await asyncio.sleep(0)
    return text


async def test_the_coach_says_working_before_its_answer_in_the_local_mode(simcord_env):
    """The local mode shows a page once the bot has settled: the coach's work in its worker
    processes is a wait on the outside world there, so "working…" shows before the answer."""
    from bot.host.local import declare_outside_waits

    env = simcord_env
    declare_outside_waits(env.bot, env)
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    game_id = await play_ohhell(env, room, ann, [bob], computers=1, seed=5)
    coach = env.bot.get_cog("Stats").coach
    coach.configs["ohhell"] = AnalysisConfig(**LIGHT_COACH["ohhell"])
    first = await ann.slash(room, "ohhell analysis", game=game_id)
    shown = next(m for m in room.history(viewer=ann) if m.id == first.response.id)
    assert "Working on the analysis" in embed_text(shown), embed_text(shown)
    page = await _answer(env, coach, room, ann, first.response.id)
    assert "The coach on game" in page
    # each player's choices against the quick computer's, and the luck that is left
    assert "**Choices** are the points" in page and ", choices " in page, page

    shithead_room = guild.create_text_channel("shithead")
    await open_table(env, shithead_room, ann, [], command="shithead", computers=2)
    sh_id = env.bot.tables.in_channel(shithead_room.id, "shithead").id
    await ShitheadDriver(env, shithead_room, {ann.id: ann}).play_to_end()
    coach.configs["shithead"] = sh.AnalysisConfig(**LIGHT_COACH["shithead"])
    seen = len(env.http_requests)
    first = await ann.slash(shithead_room, "shithead analysis", game=sh_id)
    assert "Working on the analysis" in json.dumps(env.http_requests[seen].json)
    shown = next(m for m in shithead_room.history(viewer=ann) if m.id == first.response.id)
    assert "Working on the analysis" in embed_text(shown), embed_text(shown)
    page = await _answer(env, coach, shithead_room, ann, first.response.id)
    assert "The coach on game" in page
    # the bot's two computers are not coached: their choices count as the computer's own
    assert page.count("choices not weighed (the computer's)") == 2, page
    assert "choices " in page.replace("choices not weighed", ""), page
