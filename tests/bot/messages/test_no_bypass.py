"""No word reaches a person without the catalogue: whole games played in the pseudo-language.

Every member's Discord client speaks ``qps`` (the catalogue's pseudo-language, which turns each
catalogued string into ``⟦…⟧`` with its letters accented) and so does the table. Then every text
the bot sends anyone — every message posted or edited, every interaction answer, panel, DM, modal
and autocomplete, as SimCord's HTTP log holds them: content, embeds (title, description, fields,
footer, author), button labels, select placeholders and options, attachments' alt text — must be
made of pseudo segments and material that is not words: names, numbers, card faces, emoji,
mentions, Markdown, punctuation, command names in code. A word left over did not go through the
catalogue: it is listed by the text that holds it.

Played: a whole Oh Hell game (lobby to the final standings, ``/ohhell scores``, a refusal, the
rules) and a whole Shithead game (lobby to the standings); then every stats command on a finished
game (leaderboard, a profile against another player, the history, a replay stepped on, the coach,
the server's seasons and a ratings rebuild, the next lobby's rating notes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import bench.simdriver as simdriver
from locales import catalogue
from tests.helpers import (
    OhHellDriver,
    ShitheadDriver,
    speaks,
    table_message,
    use_seed,
    walk_components,
)

NAMES = ("ann", "bob", "cat")
#: what may stand outside a pseudo segment besides punctuation, digits and symbols: the players'
#: and games' names (names are not translated), the card ranks' letters, the bot's own name
ALLOWED_WORDS = {*NAMES, "Oh", "Hell", "Shithead", "TestBot", "Test", "Guild", "cards"}
#: names of rule sets kept as they are in every language (cogs/shithead/kind.py says why)
ALLOWED_PHRASES = re.compile(r"Ten-Two Slide|Karma")
#: the rule sets' codes (``classic``), which a person types as they are
PRESET_KEYS = {"classic", "pagat", "karma", "standard"}
SEGMENT = re.compile(r"⟦[^⟦⟧]*⟧")
NOT_WORDS = [
    re.compile(r"<a?:\w+:\d+>"),  # a custom emoji
    re.compile(r"<[@#][!&]?\d+>"),  # a mention
    re.compile(r"<t:\d+(?::\w)?>"),  # a timestamp
    re.compile(r"`[^`]*`"),  # code: a command to type, a seed
    re.compile(r"/\w+"),  # a command's name
    re.compile(r"\[#[^\]]*\]\([^)]*\)"),  # a link to a channel, named as it is
    ALLOWED_PHRASES,
    re.compile(r"https?://\S+"),  # a link
    re.compile(r"attachment://\S+"),
    re.compile(r"\b[0-9a-f]{8,}\b"),  # a hash
    re.compile(r"\b(?:10|[2-9AKQJ])(?=[♠♥♦♣])|(?<=[♠♥♦♣] )(?:10|[2-9AKQJ])\b"),  # a card face
]
WORD = re.compile(r"[^\W\d_]{2,}")


def texts(payload: Any) -> Iterator[tuple[str, str]]:
    """(where, text) of every text a person reads in a message payload sent to Discord."""
    if not isinstance(payload, dict):
        return
    if isinstance(payload.get("data"), dict):  # an interaction's answer
        yield from texts(payload["data"])
        for choice in payload["data"].get("choices") or []:  # autocomplete
            yield "choice", str(choice.get("name") or "")
    if payload.get("content"):
        yield "content", payload["content"]
    if payload.get("title"):
        yield "modal title", payload["title"]
    for embed in payload.get("embeds") or []:
        for key in ("title", "description"):
            if embed.get(key):
                yield f"embed {key}", embed[key]
        for key in ("footer", "author"):
            part = embed.get(key) or {}
            if part.get("text") or part.get("name"):
                yield f"embed {key}", part.get("text") or part.get("name")
        for field in embed.get("fields") or []:
            yield "field name", field.get("name") or ""
            yield "field value", field.get("value") or ""
    for component in walk_components(payload.get("components") or []):
        for key in ("label", "placeholder"):
            if component.get(key):
                yield key, component[key]
        for option in component.get("options") or []:
            yield "option", option.get("label") or ""
            if option.get("description"):
                yield "option description", option["description"]
    for attachment in payload.get("attachments") or []:
        if attachment.get("description"):
            yield "alt text", attachment["description"]


def leftover(text: str) -> list[str]:
    """The words of ``text`` that are outside every pseudo segment and no name; and inside one,
    the words left unaccented (English filled into a placeholder: the pseudo-language accents
    every vowel it wrote)."""
    for pattern in NOT_WORDS:
        text = pattern.sub(" ", text)
    inside = [w for w in WORD.findall(" ".join(re.findall(r"⟦([^⟧]*)", text))) if re.search("[aeiou]", w)]
    unaccented = [w for w in inside if w not in ALLOWED_WORDS and w not in PRESET_KEYS]
    while SEGMENT.search(text):  # innermost first: a segment's placeholder may hold another
        text = SEGMENT.sub(" ", text)
    text = re.sub(r"⟦[^⟧]*$", " ", text)  # a segment cut short at Discord's length limit
    for pattern in NOT_WORDS:
        text = pattern.sub(" ", text)
    return unaccented + [w for w in WORD.findall(text) if w not in ALLOWED_WORDS]


def violations(env, start: int, end: int | None = None) -> list[str]:
    """Every text sent from the ``start``-th request (to the ``end``-th) that holds a word outside
    the catalogue."""
    found: dict[str, None] = {}
    for entry in env.backend.http_requests[start:end]:
        for where, text in texts(entry.json):
            words = leftover(text)
            if words:
                found[f"{where}: {text!r} (words {' '.join(words)})"] = None
    return list(found)


def test_the_check_finds_an_english_word_and_passes_pseudo_text() -> None:
    said = catalogue.pseudo("Your bid: {n}").replace("{n}", "3")
    assert leftover(f"**{said}** <@123> ann 10♥ `/ohhell scores`") == []
    assert leftover(f"{said} Trumps") == ["Trumps"]
    assert leftover("⟦préss **My hand**⟧") == ["hand"]  # an English button name filled in
    assert leftover("⟦Ýóúr ⟦bíd⟧⟧ Q♠ · K♦") == []
    assert leftover("⟦Stáçk éqúál fáçé-úp çárds (çút át 100") == []


@pytest.fixture
def pseudo(monkeypatch, simcord_env):
    catalogue.install(pseudo_language=True)
    yield simcord_env
    catalogue.install()


def pointer(message: Any) -> bool:
    """An old copy of a panel, pointing to the live one, in any language (it has no controls)."""
    return bool(message is not None and not message.components and "⬇️" in (message.content or ""))


def hand_button(message: Any) -> str:
    """The table message's My hand / My cards button, whatever its words."""
    for component in walk_components(message.components):
        if re.fullmatch(r"(?:oh:\d+:hand|sh:\d+:cards)", component.get("custom_id") or ""):
            return component["custom_id"]
    raise AssertionError("no hand button on the table message")


def button(message: Any, english: str) -> str:
    """The custom id of the button labelled ``english`` (or its pseudo form)."""
    wanted = {english, catalogue.pseudo(english)}
    for component in walk_components(message.components):
        if component.get("label") in wanted:
            return component["custom_id"]
    raise AssertionError(f"no {english!r} button among {[c.get('label') for c in walk_components(message.components)]}")


def drive_in_any_language(monkeypatch) -> None:
    """The Oh Hell driver opens My hand and knows an old panel by their ids, not their English words."""

    async def open_hand(actor, channel, bot_id: int):
        table = table_message(channel, bot_id)
        shown = await actor.click(table, custom_id=hand_button(table))
        assert shown.response is not None and shown.response.ephemeral, shown
        return shown.response

    monkeypatch.setattr(simdriver, "open_hand", open_hand)
    monkeypatch.setattr(simdriver, "is_pointer", pointer)


async def open_in_qps(
    env, monkeypatch, command: str, options: dict[str, str], *, owner: bool = False, computers: int = 0
):
    """A table of three qps speakers (and ``computers``), started; ``owner``: the host owns the
    server (manages it)."""
    users = [env.create_user(n) for n in NAMES]
    guild = env.create_guild(owner=users[0]) if owner else env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(u) for u in users]
    for person in people:
        speaks(monkeypatch, person, "qps")
    host = people[0]
    lobby = (await host.slash(channel, f"{command} new")).response  # (in the server's language)
    for option, value in {"language": "qps", **options}.items():
        answer = await host.slash(channel, f"{command} set", option=option, value=value)
        assert "✅" in answer.response.content, answer.response.content
    await env.settle()
    start = len(env.backend.http_requests)  # from here on, the table speaks qps too
    refused = await people[1].slash(channel, f"{command} set", option="language", value="de")  # not the host
    assert refused.response.ephemeral
    for person in people[1:]:
        await person.click(lobby, custom_id=button(lobby, "Join"))
    for _ in range(computers):
        await host.click(lobby, custom_id=button(lobby, "Add computer"))
    await host.click(lobby, custom_id=button(lobby, "Start"))
    await env.settle()
    return channel, people, start


async def test_a_whole_oh_hell_game_says_nothing_outside_the_catalogue(pseudo, monkeypatch) -> None:
    env = pseudo
    use_seed(monkeypatch, 2)
    channel, people, start = await open_in_qps(env, monkeypatch, "ohhell", {"fixed_hands": "2,1"})

    drive_in_any_language(monkeypatch)
    await people[0].slash(channel, "ohhell rules")
    await people[1].slash(channel, "ohhell scores")
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=1)
    await driver.play_to_end()
    await env.settle()
    await people[2].slash(channel, "ohhell scores")
    await people[2].slash(channel, "ohhell hand")  # no game any more: a refusal
    found = violations(env, start)
    assert not found, f"{len(found)} texts bypass the catalogue:\n" + "\n".join(found)


async def test_a_whole_shithead_game_says_nothing_outside_the_catalogue(pseudo, monkeypatch) -> None:
    env = pseudo
    use_seed(monkeypatch, 5)
    channel, people, start = await open_in_qps(env, monkeypatch, "shithead", {})

    class Driver(ShitheadDriver):
        async def open_panel(self, seat: int, keep: bool = False):
            actor = self.actors[self.live.seats[seat].user_id]
            table = self.table_message()
            shown = await actor.click(table, custom_id=hand_button(table))
            assert shown.response is not None and shown.response.ephemeral, shown
            self.panels[seat] = shown.response
            return shown.response

    driver = Driver(env, channel, {p.id: p for p in people}, watch=False)
    await driver.play_to_end()
    await env.settle()
    await people[1].slash(channel, "shithead scores")
    found = violations(env, start)
    assert not found, f"{len(found)} texts bypass the catalogue:\n" + "\n".join(found)


async def test_every_stats_command_says_nothing_outside_the_catalogue(pseudo, monkeypatch) -> None:
    import asyncio

    from cogs.stats.ratings import season_of
    from games.ohhell.analysis import AnalysisConfig

    env = pseudo
    use_seed(monkeypatch, 2)
    channel, people, start = await open_in_qps(
        env, monkeypatch, "ohhell", {"fixed_hands": "1"}, owner=True, computers=1
    )
    ann, bob, cat = people
    drive_in_any_language(monkeypatch)
    await OhHellDriver(env, channel, {p.id: p for p in people}, seed=1).play_to_end()
    await env.settle()
    [finished] = await env.bot.store.finished_games(channel.guild.id, "ohhell")
    game, quarter_typed = finished.id, season_of(finished.finished_at, "quarterly").lower()  # "2026-q4"
    assert any(r.identity.startswith("ai:") for r in await env.bot.store.ratings(channel.guild.id, "ohhell", "all"))
    coach = env.bot.get_cog("Stats").coach
    coach.configs["ohhell"] = AnalysisConfig(rollouts=2, luck_rollouts=2, bid_budget=300, card_budget=100)
    asked = len(env.backend.http_requests)

    answers = []
    for actor, command, options in (
        (ann, "leaderboard", {}),
        (bob, "leaderboard", {"game": "ohhell", "season": "all"}),
        (ann, "cardstats", {}),
        (bob, "cardstats", {"member": ann, "versus": cat, "game": "ohhell"}),
        (cat, "ohhell history", {}),
        (ann, "cardadmin seasons", {"length": "none", "min_games": 1}),
        (ann, "cardadmin seasons", {"length": "quarterly", "min_games": 0}),  # refused: out of range
        (ann, "cardadmin seasons", {"length": "quarterly", "min_games": 1}),
        (ann, "cardadmin rebuild-ratings", {}),
        (ann, "leaderboard", {"game": "ohhell"}),  # (this quarter's, on the virtual clock)
        (ann, "leaderboard", {"game": "ohhell", "season": quarter_typed}),  # everyone ranked after 1 game
        (ann, "leaderboard", {"game": "ohhell", "season": "all"}),
    ):
        answer = await actor.slash(channel, command, **options)
        assert answer.response is not None or answer.acknowledged, (command, answer)
        answers.append(answer)
    quarter, all_time = (a.response.embeds[0].description for a in answers[-2:])
    computer = catalogue.pseudo("Computer ({level})").split(" ")[0].removeprefix("⟦")  # its name, ranked
    assert computer in quarter and computer in all_time, (quarter, all_time)
    for choices in (
        await ann.autocomplete(channel, "leaderboard", "season", ""),
        await ann.autocomplete(channel, "ohhell replay", "game", ""),
    ):
        assert choices, "the autocomplete offers something"
    replay = (await ann.slash(channel, "ohhell replay", game=game)).response
    stepped = await ann.click(replay, custom_id=button(replay, "Next ▶"))
    assert stepped.response is not None or stepped.acknowledged
    await ann.slash(channel, "ohhell analysis", game=game)
    if coach.running:
        await asyncio.gather(*coach.running.values())
    await env.settle()
    before_lobby = len(env.backend.http_requests)
    assert before_lobby > asked
    lobby = (await ann.slash(channel, "ohhell new")).response  # (in the server's language)
    await ann.slash(channel, "ohhell set", option="language", value="qps")
    await env.settle()
    lobby_start = len(env.backend.http_requests)  # its seats carry their rating notes from here on
    await bob.click(lobby, custom_id=button(lobby, "Join"))
    await env.settle()
    assert "· ⟦" in str(env.backend.http_requests[-1].json), "a seat's rating note, in the pseudo-language"
    found = violations(env, start, before_lobby) + violations(env, lobby_start)
    assert not found, f"{len(found)} texts bypass the catalogue:\n" + "\n".join(found)
