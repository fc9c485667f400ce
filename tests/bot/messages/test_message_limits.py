"""Discord's limits on a message, met as players meet them at the edges: seven seats, the longest
display names Discord allows (32 characters), long games, an eight-table duplicate match. Real
Discord refuses a whole message whose embeds pass any limit (a field over 1,024 characters, 6,000
in all...), and the player then sees "Something went wrong" or nothing at all; every message the
bot sends here must hold every limit, and what does not fit must still reach the player (a shorter
form, or the whole text as a file).

Every request the bot made is checked with SimCord's own model of Discord's embed limits
(``simcord.components.validate_embeds``), which SimCord applies only to the routes it checks."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from simcord.components import validate_embeds

from games.ohhell.analysis import AnalysisConfig
from tests.cogs.stats.test_features import embed_text
from tests.helpers import OhHellDriver, open_table, walk_components

#: seven display names of the longest length Discord allows (32), told apart at the end
LONG_NAMES = [f"Wilhelmina Featherstonehaugh-Ng{i}" for i in range(1, 8)]
assert all(len(n) == 32 for n in LONG_NAMES)


def payload_embeds(payload: Any) -> list[tuple[list[dict[str, Any]], Any]]:
    """Every ``embeds`` list in a request's JSON (a message, an edit, an interaction callback's
    ``data``, a follow-up), with the object that holds it."""
    found: list[tuple[list[dict[str, Any]], Any]] = []
    if isinstance(payload, dict):
        if isinstance(payload.get("embeds"), list):
            found.append((payload["embeds"], payload))
        for value in payload.values():
            found += payload_embeds(value)
    elif isinstance(payload, list):
        for value in payload:
            found += payload_embeds(value)
    return found


def assert_every_request_within_limits(env: Any, since: int = 0) -> int:
    """Every request from ``since`` on holds Discord's embed limits and the content's 2,000, and
    every ``attachment://`` an embed points at is a file the same request carries. How many
    requests carried embeds."""
    checked = 0
    for request in env.http_requests[since:]:
        for embeds, holder in payload_embeds(request.json):
            checked += 1
            validate_embeds(embeds)  # raises naming the limit
            assert len(holder.get("content") or "") <= 2000, request.path
            carried = {a.get("filename") for a in holder.get("attachments") or []}
            for embed in embeds:
                for part in ("image", "thumbnail"):
                    url = (embed.get(part) or {}).get("url") or ""
                    if url.startswith("attachment://"):
                        assert url.removeprefix("attachment://") in carried, (request.method, request.path, url)
    return checked


async def long_named_table(env: Any, preset: str = "oh-shit", options: dict[str, str] | None = None) -> Any:
    """Seven people with 32-character names seated at one table (the 63-card pack at seven)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(f"player{i}"), nick=name) for i, name in enumerate(LONG_NAMES)]
    await open_table(env, channel, people[0], people[1:], preset=preset, options=options or {})
    return guild, channel, people


async def test_shithead_scores_during_a_game_carry_the_picture_they_point_at(simcord_env):
    """``/shithead scores`` during a game shows the table: its embed points at the table's
    picture, which the answer must carry (Discord shows a broken image otherwise)."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"), nick=LONG_NAMES[0])
    await open_table(env, channel, ann, [], command="shithead", computers=2)
    since = len(env.http_requests)
    answer = await ann.slash(channel, "shithead scores")
    embed = answer.response.embeds[0]
    assert embed.image.url and embed.image.url.startswith("attachment://"), embed.to_dict()
    assert [a.filename for a in answer.response.attachments] == [embed.image.url.removeprefix("attachment://")]
    assert assert_every_request_within_limits(env, since) >= 1


async def test_ohhell_scores_of_a_long_game_with_seven_long_names_fit(simcord_env):
    """A finished game of seven 32-character names and twenty deals: the score sheet's lines and
    the places above them fit the description (the earliest deals left out, said so; the
    picture shows every deal)."""
    env = simcord_env
    deals = ",".join(["1"] * 20)
    guild, channel, people = await long_named_table(env, options={"fixed_hands": deals, "sequence": "fixed"})
    table = env.bot.tables.in_channel(channel.id)
    await OhHellDriver(env, channel, {p.id: p for p in people}, seed=4).play_to_end()
    since = len(env.http_requests)
    after = await people[3].slash(channel, "ohhell scores")
    assert after.response is not None and after.response.embeds, after
    sheet = after.response.embeds[0]
    assert len(sheet.description or "") <= 4096 and len(sheet) <= 6000
    results = await env.bot.store.results(table.id)
    assert all(f"{r.name} **{r.total}**" in sheet.description for r in results), sheet.description
    assert "deals left out" in sheet.description and "**20**" in sheet.description, sheet.description
    assert [a.filename for a in after.response.attachments] == ["scores.png"]
    assert assert_every_request_within_limits(env, since) >= 1


class RevokingDriver(OhHellDriver):
    """Plays as someone who revokes whenever the panel lets them (a red card: the suit led is in
    hand), so that a deal collects as many revokes as seven players can make."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_panel: Any = None
        self.rng = self  # type: ignore[assignment]  # choose() below picks the move
        self.dice = random.Random(5)

    async def panel_of(self, actor: Any) -> Any:
        self.last_panel = await super().panel_of(actor)
        return self.last_panel

    def choice(self, options: list[str]) -> str:
        red = [
            c["custom_id"].split(":", 4)[4].partition(".")[2]
            for c in walk_components(self.last_panel.components)
            if c.get("style") == 4 and not c.get("disabled") and (c.get("custom_id") or "").startswith("ohp:")
        ]
        revoking = [o for o in options if o in red]
        return self.dice.choice(revoking or options)


async def test_a_deal_full_of_revokes_by_long_names_keeps_the_table_updating(simcord_env):
    """Seven 32-character names revoking whenever they can in one deal of nine cards: the
    table's "Revokes this deal" grew past a field's 1,024 characters and Discord refused every
    later edit, so the table stopped for the rest of the deal. The list now says how many more
    it leaves out, and every edit goes through."""
    env = simcord_env
    options = {"revokes": "penalize", "fixed_hands": "9", "sequence": "fixed"}
    guild, channel, people = await long_named_table(env, options=options)
    table = env.bot.tables.in_channel(channel.id)
    driver = RevokingDriver(env, channel, {p.id: p for p in people}, seed=6)
    since = len(env.http_requests)
    most = 0
    while table.engine is not None and not table.engine.is_over:
        view = table.engine.view(None)
        if view["phase"] == "playing" and view["trick_no"] == view["hand_size"] and view["trick"]:
            break  # the last trick is under way: the table shows every revoke of the deal
        await driver.step()
        await env.settle()
        most = max(most, len(table.engine.view(None)["revokes"]))
    view = table.engine.view(None)
    names = [table.name(r["seat"]) for r in view["revokes"]]
    assert len(", ".join(f"{n} in ♠ (trick 9)" for n in names)) > 1024, f"only {most} revokes: too few to test"
    shown_table = [m for m in channel.history() if m.embeds and m.embeds[0].title and "deal 1" in m.embeds[0].title]
    assert shown_table, "no table message"
    latest = shown_table[-1].embeds[0]
    shown = [f.value for f in latest.fields if f.name == "Revokes this deal"]
    assert shown and len(shown[0]) <= 1024, [f.name for f in latest.fields]
    assert all(n in shown[0] for n in names), shown[0]  # every player who revoked, a line each
    # the table shows the trick being played now: it kept updating to the end of the deal
    trick = next(f.value for f in latest.fields if (f.name or "").startswith(f"Trick {view['trick_no']}"))
    assert table.name(view["trick"][-1][0]) in trick, trick
    assert assert_every_request_within_limits(env, since) > 10


async def coach_answer(env: Any, channel: Any, actor: Any, game_id: int) -> Any:
    """``/ohhell analysis`` of ``game_id`` as ``actor`` asks for it, the coach's work run in
    threads with a light configuration, and the answer once it is in (the message itself)."""
    coach = env.bot.get_cog("Stats").coach
    coach.configs["ohhell"] = AnalysisConfig(rollouts=1, luck_rollouts=1, bid_budget=60, card_budget=30)
    coach.executor = ThreadPoolExecutor(2)
    first = await actor.slash(channel, "ohhell analysis", game=game_id)
    assert first.response is not None, first
    await asyncio.gather(*coach.running.values())
    for _ in range(200):
        await env.settle()
        shown = next(m for m in channel.history(viewer=actor) if m.id == first.response.id)
        if "Working on the analysis" not in embed_text(shown):
            return shown
        await asyncio.sleep(0)
    raise AssertionError("the analysis never came")


async def check_analysis_page(env: Any, channel: Any, actor: Any, game_id: int, deals: int, since: int) -> None:
    page = await coach_answer(env, channel, actor, game_id)
    text = embed_text(page)
    assert "went wrong" not in text and "failed" not in text, text
    assert page.embeds and "The coach on game" in (page.embeds[0].title or ""), text
    assert sum(len(e) for e in page.embeds) <= 6000
    assert "in the attached file" in text, text  # the page says where the rest is
    assert [a.filename for a in page.attachments] == [f"analysis-game-{game_id}.txt"]
    whole = (await page.attachments[0].read()).decode()
    table = await env.bot.store.get_game(game_id)
    assert all(s.name in whole for s in table.seats)
    assert all(f"\n{d} (" in whole for d in range(1, deals + 1)), whole[:2000]  # every deal, in the file
    assert assert_every_request_within_limits(env, since) >= 1
    # asked again, the stored analysis is shown the same way (the first answer's other door)
    again = await actor.slash(channel, "ohhell analysis", game=game_id)
    assert again.response.embeds and [a.filename for a in again.response.attachments] == [
        f"analysis-game-{game_id}.txt"
    ]
    assert assert_every_request_within_limits(env, since) >= 2


async def test_the_analysis_of_a_seven_player_game_with_long_names_fits_with_a_file(simcord_env):
    """The coach on seven 32-character names over twelve deals: the page passed 6,000
    characters and the player got "Something went wrong"; now it holds the ranking, what fits
    and says the rest is in the attached file, which holds all of it."""
    env = simcord_env
    options = {"fixed_hands": ",".join(["1"] * 12), "sequence": "fixed"}
    guild, channel, people = await long_named_table(env, options=options)
    game_id = env.bot.tables.in_channel(channel.id).id
    await OhHellDriver(env, channel, {p.id: p for p in people}, seed=8).play_to_end()
    await check_analysis_page(env, channel, people[2], game_id, 12, len(env.http_requests))


async def test_the_analysis_of_sixty_one_card_deals_fits_with_a_file(simcord_env):
    """Sixty one-card deals at seven seats (one person, six computers): 9,257 characters."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann = guild.add_member(env.create_user("ann"), nick=LONG_NAMES[0])
    options = {"fixed_hands": ",".join(["1"] * 60), "sequence": "fixed"}
    await open_table(env, channel, ann, [], preset="oh-shit", options=options, computers=6)
    game_id = env.bot.tables.in_channel(channel.id).id
    await OhHellDriver(env, channel, {ann.id: ann}, seed=9).play_to_end()
    await check_analysis_page(env, channel, ann, game_id, 60, len(env.http_requests))


async def test_an_eight_table_duplicate_match_of_seven_seats_shows_its_comparison_everywhere(simcord_env):
    """Eight tables of seven seats (a 32-character name and six computers each): the comparison
    passed 6,000 characters and Discord refused it in all eight channels, so no table saw it. Now
    every channel gets it, within the limits, with the whole comparison as a text file when the
    message cannot hold it all. Its length comes from the tables and seats, hardly from the deals
    (its whole text: 9,778 characters over ten one-card deals, 9,702 over two or four), so the
    match plays two deals: still more than one deal to compare, the message still past 6,000 (the
    test requires the file), a quarter of the ten deals' cost."""
    env = simcord_env
    guild = env.create_guild()
    channels = [guild.create_text_channel(f"table-{i}") for i in range(1, 9)]
    people = [guild.add_member(env.create_user(f"host{i}"), nick=LONG_NAMES[i % 7]) for i in range(8)]
    opened = await people[0].slash(channels[0], "ohhell duplicate new", tables=8)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content)[1]
    for option, value in {"fixed_hands": "1,1", "sequence": "fixed"}.items():
        assert "✅" in (await people[0].slash(channels[0], "ohhell set", option=option, value=value)).response.content
    lobbies = [opened.response]
    for person, channel in zip(people[1:], channels[1:], strict=True):
        joined = await person.slash(channel, "ohhell duplicate join", code=code)
        assert joined.response is not None and not joined.ephemeral, joined
        lobbies.append(joined.response)
    since = len(env.http_requests)
    games = []
    for person, channel, lobby in zip(people, channels, lobbies, strict=True):
        for _ in range(6):
            await person.click(lobby, label="Add computer")
        assert not (await person.click(lobby, label="Start")).ephemeral
        games.append(env.bot.tables.in_channel(channel.id).id)
        await OhHellDriver(env, channel, {person.id: person}, seed=len(games)).play_to_end()
    assert assert_every_request_within_limits(env, since) > 8
    names = {s.name for g in games for s in (await env.bot.store.get_game(g)).seats}
    assert len(names) == 7 + 6  # the seven long names and the six computers' at every table
    for channel in channels:
        shown = [m for m in channel.history() if m.embeds and "Duplicate match" in (m.embeds[0].title or "")]
        assert len(shown) == 1, f"no comparison in {channel.name}"
        comparison = shown[0]
        assert sum(len(e) for e in comparison.embeds) <= 6000
        seats = [f.name for f in comparison.embeds[0].fields if (f.name or "").startswith("Seat ")]
        assert seats[:3] == ["Seat 1's cards", "Seat 2's cards", "Seat 3's cards"], seats
        files = [a.filename for a in comparison.attachments]
        assert len(files) == 1 and files[0].endswith(".txt"), files
        assert "attached file" in embed_text(comparison)
        whole = (await comparison.attachments[0].read()).decode()
        assert all(n in whole for n in names) and all(f"#{g} " in whole for g in games)
        assert all(f"Seat {s}'s cards" in whole for s in range(1, 8))
