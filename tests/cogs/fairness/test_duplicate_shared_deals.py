"""A duplicate match compares only the cards every table held, through the real bot.

Table A's totals tie for first after its scheduled deals, so it plays extra deals (``ties``:
``extra-hand``) that table B never plays. The comparison posted in both channels ranks every seat
on the deals both tables played, and shows A's extra deals apart (as a table ended early is), also
when it is posted by the bot restarted after a stop. And ``/ohhell history`` (its footer) and the
``game`` autocomplete offer only the replays that ``/ohhell replay`` then gives: a finished table of
a match still playing is not offered until the secrecy policy opens it."""

from __future__ import annotations

import random
import re

from bot.fairness import shuffles as fairness
from tests.cogs.fairness.test_duplicate import (
    _comparisons,
    _lobby,
    _restarted,
    _short_match,
    _start_with_computers,
    _stop_before_the_comparison,
    _two_rooms,
    _two_tables_started,
)
from tests.cogs.stats.test_features import play_ohhell
from tests.helpers import OhHellDriver, message_text

#: the seed of the match's seed and salt (``bot.fairness.shuffles.ENTROPY``, which the suite otherwise seeds
#: by the test's name), under which table A (ann, driver seed 5) ties for first after its two deals
#: and plays an extra deal, while table B (bob, driver seed 6) does not tie (checked below)
TIED = 3
RANKED = re.compile(r"^\d+\. .+ \(#(\d+), seat (\d+)\): ([+-]\d+\.\d)$")


async def _tied_match(env, monkeypatch):
    """ann's table ties and plays extra deals, bob's does not: (channels, [game A, game B])."""
    monkeypatch.setattr(fairness, "ENTROPY", random.Random(TIED))
    first, second, ann, bob, _code = await _two_tables_started(env)
    games = [env.bot.tables.in_channel(c.id).id for c in (first, second)]
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    return (first, second), games, bob


async def _expected(store, games: list[int]) -> dict[tuple[int, int], dict]:
    """Per (game, seat): the score on the deals both tables played, those deals' points, the
    extra deals' points and the stored total, read from the store."""
    scores = {g: await store.deal_scores(g) for g in games}
    shared = set.intersection(*({d.deal for d in scores[g]} for g in games))
    out = {}
    for g in games:
        for row in await store.results(g):
            own = [d for d in scores[g] if d.seat == row.seat]
            kept = [d for d in own if d.deal in shared]
            out[(g, row.seat)] = {
                "score": kept[-1].total,
                "deals": [d.delta for d in kept],
                "extra": [d.delta for d in own if d.deal not in shared],
                "total": row.total,
            }
    return out


async def _assert_ranked_on_the_shared_deals(env, channels, games: list[int]) -> None:
    store = env.bot.store
    game_a, game_b = games
    expected = await _expected(store, games)
    extra_a = [v["extra"] for (g, _), v in expected.items() if g == game_a]
    # the case at hand: A played extra deals that B did not, and they moved A's totals
    assert all(extra_a) and not any(v["extra"] for (g, _), v in expected.items() if g == game_b), expected
    assert any(v["score"] != v["total"] for (g, _), v in expected.items() if g == game_a), expected
    against = {
        (g, seat): v["score"] - expected[(game_b if g == game_a else game_a, seat)]["score"]
        for (g, seat), v in expected.items()
    }
    for channel in channels:
        found = _comparisons(channel)
        assert len(found) == 1, channel.name
        fields = {f.name: f.value for f in found[0].embeds[0].fields}
        ranking = next(v for k, v in fields.items() if k.startswith("Ranking"))
        ranked = []
        for line in ranking.splitlines():
            match = RANKED.match(line)
            assert match, line
            ranked.append(((int(match[1]), int(match[2]) - 1), float(match[3])))
        assert dict(ranked) == {k: round(v, 1) for k, v in against.items()}, (ranking, against)
        assert [v for _, v in ranked] == sorted((v for _, v in ranked), reverse=True), ranking
        # seat by seat: the shared deals' score and points; A's extra deals apart, with its total
        for (g, seat), v in expected.items():
            line = next(x for x in fields[f"Seat {seat + 1}'s cards"].splitlines() if x.startswith(f"#{g} "))
            deals = ", ".join(f"{d:+d}" for d in v["deals"])
            assert f"**{v['score']}**" in line and line.endswith(f"deals {deals}"), line
        apart = next(v for k, v in fields.items() if "extra deals" in k)
        for (g, seat), v in expected.items():
            lines = [x for x in apart.splitlines() if f"(#{g}, seat {seat + 1})" in x]
            if g == game_b:
                assert lines == [], apart
            else:
                extra = ", ".join(f"{d:+d}" for d in v["extra"])
                assert len(lines) == 1 and f"{extra} → total **{v['total']}**" in lines[0], apart


async def test_a_table_that_broke_its_tie_with_extra_deals_is_ranked_on_the_shared_deals(simcord_env, monkeypatch):
    env = simcord_env
    channels, games, bob = await _tied_match(env, monkeypatch)
    await OhHellDriver(env, channels[1], {bob.id: bob}, seed=6).play_to_end()
    await _assert_ranked_on_the_shared_deals(env, channels, games)


async def test_the_comparison_posted_after_a_restart_ranks_on_the_shared_deals(simcord_env, db_path, monkeypatch):
    """The bot stops as the match's last table ends; the restarted bot's comparison, built from
    the store, ranks the same way."""
    env = simcord_env
    channels, games, bob = await _tied_match(env, monkeypatch)
    resume = _stop_before_the_comparison(monkeypatch)
    await OhHellDriver(env, channels[1], {bob.id: bob}, seed=6).play_to_end()
    assert [len(_comparisons(c)) for c in channels] == [0, 0]
    resume()
    await _restarted(env, db_path)
    await _assert_ranked_on_the_shared_deals(env, channels, games)


def _footer_games(result) -> list[int]:
    embed = result.response.embeds[0]
    return [int(n) for n in re.findall(r"replay game:(\d+)", embed.footer.text or "")]


async def _given(member, channel, game: int) -> bool:
    """Whether ``/ohhell replay game`` gives ``member`` the replay (its page and its file)."""
    result = await member.slash(channel, "ohhell replay", game=game)
    assert result.response is not None, result
    return bool(result.response.embeds) and bool(result.response.attachments)


async def test_history_and_the_game_option_offer_only_the_replays_that_replay_gives(simcord_env):
    """ann played an ordinary game, then her table of a two-table match; bob's table still plays.
    The history's footer offered her match table (the newest) and /ohhell replay refused it; the
    replay and analysis options offered it too. Every offer is now given, what is refused is not
    offered, and once bob's table ends the match table is offered and given."""
    env = simcord_env
    guild, first, second, ann, bob = _two_rooms(env)
    cy = guild.add_member(env.create_user("cy"))
    plain = await play_ohhell(env, guild.create_text_channel("plain"), ann, computers=2, seed=1)
    opened, code = await _short_match(env, ann, first, tables=2)
    held = (await _start_with_computers(env, ann, opened.response, first)).id
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    other = (await _start_with_computers(env, bob, joined.response, second)).id
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()

    for member in (ann, bob, cy):
        listed = await member.slash(first, "ohhell history")
        assert f"#{held}" in message_text(listed.response) and f"#{plain}" in message_text(listed.response)
        assert _footer_games(listed) == [plain], (member.name, listed.response.embeds[0].footer.text)
        assert await _given(member, first, plain)
        refused = await member.slash(first, "ohhell replay", game=held)
        assert refused.ephemeral and "still playing" in refused.response.content, refused.response.content
        for command in ("ohhell replay", "ohhell analysis"):
            offered = {c["value"] for c in await member.autocomplete(first, command, "game", "")}
            assert offered == {plain}, (member.name, command, offered)

    # bob's table ends: the match is over, and its tables are offered and given
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    for member in (ann, bob, cy):
        listed = await member.slash(first, "ohhell history")
        assert _footer_games(listed) == [other], listed.response.embeds[0].footer.text  # the newest
        choices = {c["value"] for c in await member.autocomplete(first, "ohhell replay", "game", "")}
        assert choices == {plain, held, other}, choices
        for value in choices:
            assert await _given(member, first, value), value
