"""Ratings, leaderboards, profiles, history and replays, as users meet them: games played to the
end in two servers, then every reading of them."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
from concurrent.futures import Future, ProcessPoolExecutor

import discord
import pytest
from simcord.backend.errors import SetupError

from bench.quick import LIGHT_COACH
from cogs.stats.coach import Coach
from cogs.stats.ratings import display
from db.records import ResultRow, SeatRecord
from draw.cards import labels
from games.ohhell.analysis import AnalysisConfig, analyse_deal
from games.ohhell.game import OhHell
from games.ohhell.rules import Rules as OhHellRules
from tests.helpers import OhHellDriver, ShitheadDriver, make_bot, open_table, speaks

SHORT = {"fixed_hands": "2,1", "sequence": "fixed"}


def embed_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        if embed.footer and embed.footer.text:
            parts.append(embed.footer.text)
    return "\n".join(parts)


async def play_ohhell(env, channel, host, members=(), computers=1, seed=0) -> int:
    await open_table(env, channel, host, list(members), options=SHORT, computers=computers)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    game_id = table.id
    await OhHellDriver(env, channel, {m.id: m for m in [host, *members]}, seed=seed).play_to_end()
    assert env.bot.tables.in_channel(channel.id, "ohhell") is None
    return game_id


async def play_shithead(env, channel, host, computers=2) -> int:
    await open_table(env, channel, host, [], command="shithead", computers=computers)
    game_id = env.bot.tables.in_channel(channel.id, "shithead").id
    await ShitheadDriver(env, channel, {host.id: host}).play_to_end()
    return game_id


async def two_servers(env):
    """Server A: ann (its owner) and bob play two Oh Hell games and one Shithead game with a
    computer; server B: cat plays one Oh Hell game with a computer."""
    ann_user = env.create_user("ann")
    a = env.create_guild("A", owner=ann_user)
    ann = a.add_member(ann_user)
    bob = a.add_member(env.create_user("bob"))
    room = a.create_text_channel("cards")
    b = env.create_guild("B")
    cat = b.add_member(env.create_user("cat"))
    other = b.create_text_channel("cards")
    games = [
        await play_ohhell(env, room, ann, [bob], seed=1),
        await play_ohhell(env, room, bob, [ann], seed=2),
        await play_shithead(env, a.create_text_channel("shithead"), ann),
    ]
    b_game = await play_ohhell(env, other, cat, computers=2, seed=3)
    return a, b, ann, bob, cat, room, other, games, b_game


async def test_ratings_leaderboards_profiles_history_and_isolation(simcord_env):
    env = simcord_env
    a, b, ann, bob, cat, room, other, games, b_game = await two_servers(env)
    store = env.bot.store

    # The final standings show each seat's rating change, matching the stored change.
    finale = [m for m in room.history() if "Game over" in (m.content or "")]
    assert len(finale) == 2
    changes = await store.rating_changes(a.id, "ohhell")
    first = [c for c in changes if c.game_id == games[0]]
    assert len(first) == 3 and {c.identity for c in first} == {f"u:{ann.id}", f"u:{bob.id}", "ai:strong"}
    ann_change = next(c for c in first if c.identity == f"u:{ann.id}")
    before, after = (
        display(ann_change.mu_before, ann_change.sigma_before),
        display(ann_change.mu_after, ann_change.sigma_after),
    )
    oldest_finale = embed_text(finale[-1] if finale[-1].id < finale[0].id else finale[0])
    assert "Ratings" in oldest_finale and f"ann: {before} → **{after}**" in oldest_finale

    # The computer is one identity per level, rated in every game it played.
    ratings = {r.identity: r for r in await store.ratings(a.id, "ohhell", "all")}
    assert ratings["ai:strong"].games == 2 and ratings[f"u:{ann.id}"].games == 2
    last_ann = [c for c in changes if c.identity == f"u:{ann.id}"][-1]
    assert (ratings[f"u:{ann.id}"].mu, ratings[f"u:{ann.id}"].sigma) == (last_ann.mu_after, last_ann.sigma_after)

    # Nobody is ranked before 3 games (the default); an admin lowers it to 1.
    board = await ann.slash(room, "leaderboard", game="ohhell", season="all")
    assert board.ephemeral and "Nobody is ranked yet" in embed_text(board.response)
    assert "3 more players not ranked yet" in embed_text(board.response)
    with pytest.raises(SetupError, match="default-member-permissions"):  # only managers see /cardadmin
        await bob.slash(room, "cardadmin seasons", length="monthly", min_games=1)
    done = await ann.slash(room, "cardadmin seasons", length="monthly", min_games=1)
    assert "ranked after 1 game." in done.response.content
    assert "Ratings rebuilt from 3 stored games" in done.response.content
    board = await ann.slash(room, "leaderboard", game="ohhell", season="all")
    text = embed_text(board.response)
    assert "ann" in text and "bob" in text and "Computer (strong)" in text and "cat" not in text
    shown = display(ratings[f"u:{ann.id}"].mu, ratings[f"u:{ann.id}"].sigma)
    assert f"**ann** — {shown} · 2 games" in text
    # Seasons are monthly: a game counts in the month it finished (by the database's clock).
    finished = (await store.finished_games(a.id, "ohhell"))[0].finished_at
    month = finished[:7]
    season = await ann.slash(room, "leaderboard", game="ohhell", season=month)
    assert f"season {month}" in embed_text(season.response) and "**ann**" in embed_text(season.response)
    current = await ann.slash(room, "leaderboard", game="ohhell")  # the current season by default
    now = discord.utils.utcnow().strftime("%Y-%m")
    assert f"season {now}" in embed_text(current.response)

    # The profile: games, wins, average place, rating and trend, bids made, shithead, streak...
    profile = await bob.slash(room, "cardstats", member=ann, versus=bob)
    text = embed_text(profile.response)
    assert "2 played" in text and "average place" in text and f"Rating **{shown}**" in text
    assert "Bids made:" in text and "the shithead" in text and "best total" in text and "Current streak:" in text
    assert "favourite preset: " in text and "Against bob: 2 games together" in text

    # History lists this server's finished games only, newest first.
    history = await ann.slash(room, "ohhell history")
    text = embed_text(history.response)
    assert f"#{games[1]}" in text and f"#{games[0]}" in text and f"#{b_game}" not in text
    assert text.index(f"#{games[1]}") < text.index(f"#{games[0]}")
    sh_history = await ann.slash(room, "shithead history")  # any channel of the server
    assert f"#{games[2]}" in embed_text(sh_history.response) and "💩" in embed_text(sh_history.response)

    # Server isolation: B's member sees none of A's games, and cannot replay them.
    theirs = await cat.slash(other, "ohhell history")
    assert f"#{b_game}" in embed_text(theirs.response) and f"#{games[0]}" not in embed_text(theirs.response)
    board_b = await cat.slash(other, "leaderboard", game="ohhell", season="all")
    assert "ann" not in embed_text(board_b.response)
    stolen = await cat.slash(other, "ohhell replay", game=games[0])
    assert stolen.ephemeral and f"no game #{games[0]} on this server" in stolen.response.content
    cat_profile = await cat.slash(other, "cardstats", member=cat)
    assert "1 played" in embed_text(cat_profile.response)

    # Autocomplete: the game options offer this server's finished games of that game only...
    offered = await ann.autocomplete(room, "ohhell replay", "game", "")
    assert {c["value"] for c in offered} == {games[0], games[1]}, offered
    assert all("ann" in c["name"] and "bob" in c["name"] for c in offered)
    assert {c["value"] for c in await ann.autocomplete(room, "ohhell analysis", "game", f"#{games[1]}")} == {games[1]}
    assert {c["value"] for c in await ann.autocomplete(room, "shithead analysis", "game", "")} == {games[2]}
    assert {c["value"] for c in await cat.autocomplete(other, "ohhell replay", "game", "")} == {b_game}
    assert await cat.autocomplete(other, "shithead replay", "game", "") == []
    # ...and the leaderboard's season all time, the seasons of this server's games and the
    # current one (SimCord's clock, which names the current season, is not the database's)
    seasons = await ann.autocomplete(room, "leaderboard", "season", "", game="ohhell")
    assert [c["value"] for c in seasons] == ["all", *sorted({month, now}, reverse=True)]
    await ann.slash(room, "cardadmin seasons", length="quarterly")

    def quarter(m: str) -> str:
        return f"{m[:4]}-Q{(int(m[5:]) - 1) // 3 + 1}"

    seasons = await ann.autocomplete(room, "leaderboard", "season", "q", game="shithead")
    assert [c["value"] for c in seasons] == sorted({quarter(month), quarter(now)}, reverse=True)
    await ann.slash(room, "cardadmin seasons", length="none")
    assert [c["value"] for c in await ann.autocomplete(room, "leaderboard", "season", "")] == ["all"]


async def test_replay_stepped_to_the_end_exported_file_checks_and_rebuild_equals_live(simcord_env, tmp_path, db_path):
    env = simcord_env
    a, b, ann, bob, cat, room, other, games, b_game = await two_servers(env)
    store = env.bot.store

    result = await ann.slash(room, "ohhell replay", game=games[0])
    assert result.ephemeral
    message = result.response
    assert "step 1 of" in message.embeds[0].title
    total = int(message.embeds[0].title.rsplit(" of ", 1)[1])
    # All hands are shown: at the start every seat holds its 2 cards, and the totals are 0.
    fields = message.embeds[0].fields
    assert len(fields) == 3 and all(f.name.endswith("total 0") and len(f.value.split()) == 2 for f in fields)
    record = await store.get_game(games[0])
    dealt = OhHell.new(OhHellRules.from_json(record.rules), 3, record.seed, rng_version=record.rng_version)
    assert [f.value for f in fields] == [labels(dealt.hand(seat)) for seat in range(3)]
    # The buttons survive a restart: step half-way, restart the bot, step on to the end.
    for _ in range(total // 2):
        turned = await ann.click(message, label="Next ▶")
        message = turned.response or message
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    step = int(message.embeds[0].title.split("step ")[1].split(" of")[0])
    seen = [step]
    while step < total:
        turned = await ann.click(message, label="Next ▶")
        message = turned.response or message
        step = int(message.embeds[0].title.split("step ")[1].split(" of")[0])
        seen.append(step)
    assert seen[-1] == total and seen == sorted(seen)
    assert "Game over" in message.embeds[0].description
    stored_totals = {r.seat: r.total for r in await env.bot.store.results(games[0])}
    assert [f.name.split("total ")[1].split(" ·")[0] for f in message.embeds[0].fields] == [
        str(stored_totals[seat]) for seat in range(3)
    ]  # the last step shows the final totals
    back = await ann.click(message, label="◀ Prev")
    assert f"step {total - 1} of" in (back.response or message).embeds[0].title

    # The exported hand history replays to the stored result with python -m games.replay.
    attachment = result.response.attachments[0]
    data = json.loads(env.backend.cdn.get(attachment.url))
    stored = await env.bot.store.results(games[0])
    assert {r["seat"]: r["total"] for r in data["results"]} == {r.seat: r.total for r in stored}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    run = subprocess.run([sys.executable, "-m", "games.replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 0 and "OK" in run.stdout, run.stdout + run.stderr
    data["results"][0]["total"] += 1  # a tampered result is caught
    path.write_text(json.dumps(data))
    run = subprocess.run([sys.executable, "-m", "games.replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 1 and "MISMATCH" in run.stdout

    # Shithead too.
    sh = await ann.slash(room, "shithead replay", game=games[2])
    sh_data = json.loads(env.backend.cdn.get(sh.response.attachments[0].url))
    path.write_text(json.dumps(sh_data))
    run = subprocess.run([sys.executable, "-m", "games.replay", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr

    # Ratings rebuilt from scratch equal the live ones, to the last bit.
    store = env.bot.store
    live = {k: (await store.ratings(a.id, k), await store.rating_changes(a.id, k)) for k in ("ohhell", "shithead")}
    rebuilt = await ann.slash(room, "cardadmin rebuild-ratings")
    assert "rebuilt from 3 stored games" in rebuilt.response.content
    again = {k: (await store.ratings(a.id, k), await store.rating_changes(a.id, k)) for k in ("ohhell", "shithead")}
    assert again == live and live["ohhell"][0]


async def test_a_live_game_is_neither_replayed_nor_exported_and_the_lobby_shows_ratings(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    await play_ohhell(env, room, ann, computers=2, seed=4)
    lobby = await ann.slash(room, "ohhell new")
    text = embed_text(lobby.response)
    rating = next(r for r in await env.bot.store.ratings(guild.id, "ohhell", "all") if r.identity == f"u:{ann.id}")
    assert f"ann · rating {display(rating.mu, rating.sigma)} · 1 game" in text
    await ann.click(lobby.response, label="Add computer")
    await ann.click(lobby.response, label="Start")
    live = env.bot.tables.in_channel(room.id, "ohhell")
    refused = await ann.slash(room, "ohhell replay", game=live.id)
    assert refused.ephemeral and "has not finished" in refused.response.content
    assert not refused.response.attachments


async def test_the_coach_answers_at_once_works_off_the_loop_and_the_second_request_reads_the_store(
    simcord_env, monkeypatch
):
    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    game_id = await play_ohhell(env, room, ann, [bob], computers=1, seed=5)
    coach = env.bot.get_cog("Stats").coach
    # a light coach for a test
    coach.configs["ohhell"] = AnalysisConfig(**LIGHT_COACH["ohhell"])
    seen = len(env.http_requests)
    first = await ann.slash(room, "ohhell analysis", game=game_id)
    if coach.running:
        await asyncio.gather(*coach.running.values())
    await env.settle()
    calls = env.http_requests[seen:]
    # the interaction is answered at once with "working…", then that answer is edited
    assert "/callback" in calls[0].path and "Working on the analysis" in json.dumps(calls[0].json)
    assert calls[-1].method == "PATCH" and "@original" in calls[-1].path
    assert first.ephemeral
    shown = next(m for m in room.history(viewer=ann) if m.id == first.response.id)
    text = embed_text(shown)
    assert "The coach on game" in text and "luck" in text and "Biggest misbids" in text and "Deal by deal" in text
    assert coach.computed == 1 and isinstance(coach.executor, ProcessPoolExecutor)  # worker processes
    stored = await env.bot.store.analysis(game_id)
    assert stored is not None and {p["seat"] for p in stored[1]["players"]} == {0, 1, 2}
    again = await bob.slash(room, "ohhell analysis", game=game_id)
    assert "The coach on game" in embed_text(again.response) and coach.computed == 1  # from the store
    # a German reader's page writes its figures (choices, luck, worth...) with the decimal comma
    cat = guild.add_member(env.create_user("cat"))
    speaks(monkeypatch, cat, "de")
    german = embed_text((await cat.slash(room, "ohhell analysis", game=game_id)).response)
    figures = re.findall(r"[+-]?\d+[.,]\d\b", german)
    assert "Glück" in german and figures and all("," in f for f in figures), figures
    # The work runs off the event loop: every deal's analysis is handed to the worker processes,
    # and the loop keeps turning while they work (counted in loop turns, not in seconds, so a
    # loaded machine cannot make this fail or pass).
    light = AnalysisConfig(rollouts=4, luck_rollouts=4, bid_budget=2000, card_budget=500)
    fresh = Coach(env.bot, workers=1, configs={"ohhell": light})
    submitted: list[tuple[object, Future]] = []
    pool = fresh._pool()
    real_submit = pool.submit

    def spy(fn, *args, **kwargs):
        future = real_submit(fn, *args, **kwargs)
        submitted.append((fn, future))
        return future

    pool.submit = spy  # type: ignore[method-assign]
    try:
        work = asyncio.ensure_future(fresh._compute(await env.bot.store.get_game(game_id)))
        turns_while_working = 0
        while not work.done():
            await asyncio.sleep(0)
            if submitted and not all(f.done() for _, f in submitted):
                turns_while_working += 1
        assert (await work)["players"]
        assert submitted and {fn for fn, _ in submitted} == {analyse_deal}
        assert turns_while_working > 0
    finally:
        fresh.close()
    # the adjusted scores add up to the totals (luck is relative to the table's mean)
    players = stored[1]["players"]
    assert sum(p["adjusted"] for p in players) == pytest.approx(sum(p["total"] for p in players), abs=0.05)


def _picks_up_now_and_then(view: dict, seq: int) -> dict:
    """The sensible player, except that every third turn with a play and a pile it picks up."""
    from games.shithead.ai import choose_action

    legal = view["legal"]
    plays = [a for a in legal if a["type"] == "play"]
    pickups = [a for a in legal if a["type"] == "pickup"]
    if view["phase"] == "play" and plays and pickups and seq % 3 == 0:
        return pickups[0]
    return choose_action(view, random.Random(seq))


async def test_the_shithead_coach_weighs_the_swap_and_the_pickups_and_the_second_request_reads_the_store(simcord_env):
    from games.shithead.analysis import AnalysisConfig as ShitheadConfig
    from games.shithead.game import Shithead
    from games.shithead.rules import Rules as ShitheadRules

    env = simcord_env
    guild = env.create_guild()
    room = guild.create_text_channel("shithead")
    ann = guild.add_member(env.create_user("ann"))
    bob = guild.add_member(env.create_user("bob"))
    await open_table(env, room, ann, [], command="shithead", computers=2)
    game_id = env.bot.tables.in_channel(room.id, "shithead").id
    await ShitheadDriver(env, room, {ann.id: ann}, policy=_picks_up_now_and_then).play_to_end()
    coach = env.bot.get_cog("Stats").coach
    coach.configs["shithead"] = ShitheadConfig(**LIGHT_COACH["shithead"])  # a light coach for a test
    seen = len(env.http_requests)
    first = await ann.slash(room, "shithead analysis", game=game_id)
    if coach.running:
        await asyncio.gather(*coach.running.values())
    await env.settle()
    calls = env.http_requests[seen:]
    assert "/callback" in calls[0].path and "Working on the analysis" in json.dumps(calls[0].json)
    assert calls[-1].method == "PATCH" and "@original" in calls[-1].path
    shown = next(m for m in room.history(viewer=ann) if m.id == first.response.id)
    text = embed_text(shown)
    assert "The coach on game" in text and "luck" in text and "The swap" in text, text
    assert coach.computed == 1 and isinstance(coach.executor, ProcessPoolExecutor)
    # what the page names happened in this game: ann's face-up cards once play began, her pick-ups
    record = await env.bot.store.get_game(game_id)
    ann_seat = next(s.seat for s in record.seats if s.user_id == ann.id)
    game = Shithead.new(ShitheadRules.from_json(record.rules), len(record.seats), record.seed)
    pickups = []
    for index, (seat, action) in enumerate(record.actions, start=1):
        if game.phase == "play" and seat == ann_seat and action["type"] == "pickup":
            if any(a["type"] == "play" for a in game.legal_actions(seat)):
                pickups.append((index, len(game.pile)))
        before = game.phase
        game.apply(seat, action)
        if before == "swap" and game.phase == "play":
            face_up = list(game.view(None)["seats"][ann_seat]["face_up"])
    swap_line = next(line for line in text.splitlines() if line.startswith("ann put "))
    shown_up = swap_line.split(" face up")[0]
    assert sorted(shown_up.removeprefix("ann put ").split()) == sorted(labels(face_up).split()), swap_line
    assert pickups, "the policy picks up while it could play"
    listed = [line for line in text.splitlines() if "ann picked up the pile" in line]
    assert listed, text
    for line in listed:  # each names a real pick-up of ann's, with the pile's size then
        index = int(line.split(":")[0].removeprefix("Move "))
        assert (index, int(line.split("(")[1].split(" card")[0])) in pickups, (line, pickups)
    stored = await env.bot.store.analysis(game_id)
    assert stored is not None and stored[1]["game"] == "shithead"
    assert sum(p["luck"] for p in stored[1]["players"]) == pytest.approx(0, abs=0.01)
    again = await bob.slash(room, "shithead analysis", game=game_id)
    assert "The coach on game" in embed_text(again.response) and coach.computed == 1  # from the store
    # an analysis an older coach stored (its playouts knew every hand) is done again when asked for
    from games.shithead.analysis import VERSION

    await env.bot.store.save_analysis(game_id, VERSION - 1, stored[1])
    third = await bob.slash(room, "shithead analysis", game=game_id)
    if coach.running:
        await asyncio.gather(*coach.running.values())
    await env.settle()
    assert coach.computed == 2
    assert (await env.bot.store.analysis(game_id))[0] == VERSION
    shown = next(m for m in room.history(viewer=bob) if m.id == third.response.id)
    assert "The coach on game" in embed_text(shown)
    # an Oh Hell number is not a Shithead game
    refused = await ann.slash(room, "ohhell analysis", game=game_id)
    assert "no game" in embed_text(refused.response).lower()


async def test_the_leaderboard_ranks_two_who_shared_first_above_the_third(simcord_env):
    """Shared places as a member reads them: five newcomers, two of whom shared first place, then
    third, fourth, fifth. openskill's own handling of the tie put the third above the two winners
    on the leaderboard (+1.56 against +1.00 each); now the winners lead, level with each other."""
    env = simcord_env
    owner = env.create_user("ann")
    guild = env.create_guild("A", owner=owner)
    room = guild.create_text_channel("cards")
    names = ["ann", "bob", "cat", "dan", "eve"]
    members = [guild.add_member(owner)] + [guild.add_member(env.create_user(n)) for n in names[1:]]
    store = env.bot.store
    game = await store.create_game("ohhell", guild.id, room.id, members[0].id, "classic", {})
    seats = [SeatRecord(i, m.id, n) for i, (m, n) in enumerate(zip(members, names, strict=True))]
    await store.start_game(game, {}, 1, seats, 2)
    places = [1, 1, 3, 4, 5]
    rows = [ResultRow(s.seat, s.user_id, s.name, places[s.seat], 10 - s.seat, False, {}) for s in seats]
    await store.record_action(game, 0, 0, {"type": "bid", "bid": 0}, results=rows)

    done = await members[0].slash(room, "cardadmin seasons", length="monthly", min_games=1)
    assert "ranked after 1 game." in done.response.content
    board = embed_text((await members[2].slash(room, "leaderboard", game="ohhell", season="all")).response)
    ranked = re.findall(r"\d+\. \*\*(\w+)\*\* — (\d+)", board)
    assert [n for n, _ in ranked][2:] == ["cat", "dan", "eve"], board
    assert {n for n, _ in ranked[:2]} == {"ann", "bob"} and ranked[0][1] == ranked[1][1], board
    assert int(ranked[1][1]) > int(ranked[2][1]), board
