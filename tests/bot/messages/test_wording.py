"""Counts read as English wherever a message prints one: "1 card", never "1 cards"; an extra deal
is not "deal 2 of 1"; "1 deal", not "deal(s)"."""

from __future__ import annotations

import re

import discord

from cogs.ohhell.render import deal_notes, deal_result_embed, deal_title, scoreboard_embed, table_embed
from cogs.shithead.render import final_embed
from games.common.engine import Event
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from games.shithead.game import Shithead
from games.shithead.rules import make_rules as shithead_rules

BAD = re.compile(r"\b1 (cards|tricks|deals)\b|\(s\)|deal (\d+) of (\d+)")


def text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def no_bad_counts(words: str) -> None:
    for match in BAD.finditer(words):
        if match.group(2):  # "deal X of Y": X may not pass Y
            assert int(match.group(2)) <= int(match.group(3)), words
        else:
            raise AssertionError(f"{match.group(0)!r} in {words!r}")


def one_card_game() -> OhHell:
    return OhHell.new(make_rules("classic", sequence="fixed", fixed_hands="1"), 3, 5)


def test_a_one_card_deal_reads_one_card_and_one_trick():
    game = one_card_game()
    view = game.view(None)
    title, table = deal_title(view), text(table_embed(view, str, []))
    assert "1 card" in title and "for 1 trick" in table
    no_bad_counts(title + table)


def test_an_extra_deal_is_not_deal_two_of_one():
    view = dict(one_card_game().view(None), deal=2, deal_kind="extra")
    title = deal_title(view)  # type: ignore[arg-type]
    assert "deal 2" in title and "of 1" not in title and "extra deal" in title


def test_deal_notes_results_and_scores_after_one_deal():
    game = one_card_game()
    events: list[Event] = []
    while game.deal_no == 1 and not game.is_over:
        seat = game.to_act()[0]
        game, new = game.apply(seat, game.legal_actions(seat)[0])
        events += new
    scored = next(e.data for e in events if e.kind == "deal_scored")
    words = text(deal_result_embed(scored, str, None)) + text(scoreboard_embed(game.view(None), str))
    extra = Event("extra_deal", {"leaders": [0, 1], "total": 10, "hand_size": 1})
    words += "\n".join(deal_notes([extra], str))
    assert "(1 card)" in words and "after 1 deal" in words and "one more deal of 1 card." in words
    no_bad_counts(words)


def test_shithead_cards_left_reads_one_card():
    game = Shithead.new(shithead_rules("winner"), 3, 1)
    view = game.view(None)
    words = text(final_embed(view, str, [0], {0: 0, 1: 1, 2: 2}))
    assert "1 card left" in words and "2 cards left" in words
    no_bad_counts(words)
    view = Shithead.new(shithead_rules("pagat"), 3, 1).view(None)
    words = text(final_embed(dict(view, loser=1), str, [0, 2, 1], {0: 0, 1: 1, 2: 0}))  # type: ignore[arg-type]
    assert "is the shithead (1 card left)" in words


# -- whole games, every word the bot sent ---------------------------------------------------------
# Everything a player can read goes through a REST call (a message, an edit, a DM, an interaction's
# answer, a form, an autocomplete): the scan reads the JSON of every one of them.


from tests.helpers import (  # noqa: E402
    ShitheadDriver,
    bot_messages,
    make_bot,
    message_text,
    open_hand,
    open_table,
    panel_moves,
    press,
    table_message,
    warning_of,
)

#: counts that must agree with their number; a/an before "Oh Hell" and vowels
WRONG = [
    (
        re.compile(r"\b1 (cards|tricks|deals|players|computers|games|seats|moves|points|turns|bids|tries|times)\b"),
        "plural after 1",
    ),
    (re.compile(r"\(s\)"), "(s)"),
    (re.compile(r"(?<![\w*])a (?:Oh\b|(?!one\b)[aeio][a-z]+|[AEIO][a-z]+|(?:8|11|18)\b)"), "a before a vowel"),
]
#: a prompt that tells a computer to act: its name (``Computer 1``, or a person's seat the computer
#: plays, shown in bold) followed by "your bid/turn/move" or sent to press a button
COMPUTER = re.compile(
    r"\*\*[^*\n]+\*\*,? (?:your (?:bid|turn|move)|it's your)|waiting for[^\n]*\*\*[^*\n]+\*\*[^\n]*Press"
)
SKIP = {"custom_id", "url", "proxy_url", "filename", "id", "icon_url", "type", "style", "flags", "color", "timestamp"}


def strings(data, key: str = "") -> list[str]:
    """Every text in a request's JSON that a reader may see."""
    if isinstance(data, str):
        return [] if key in SKIP else [data]
    if isinstance(data, dict):
        # (a command's German and Spanish words are not English: tests/locales checks them)
        return [s for k, v in data.items() if not k.endswith("_localizations") for s in strings(v, k)]
    if isinstance(data, list):
        return [s for v in data for s in strings(v, key)]
    return []


class Scan:
    """Collects the problems in every request the bot made, with where they were."""

    def __init__(self, env) -> None:
        self.env = env
        self.problems: list[str] = []

    def run(self, dm_channels: set[int], members: dict[int, str]) -> list[str]:
        for request in self.env.http_requests:
            if request.json is None:
                continue
            texts = strings(request.json)
            is_dm = any(f"/channels/{c}/" in request.path for c in dm_channels)
            for text in texts:
                for pattern, what in WRONG:
                    if pattern.search(text):
                        self.problems.append(f"{what}: {text!r}")
                if COMPUTER.search(text):
                    self.problems.append(f"a computer told to act: {text!r}")
                if is_dm and re.search(r"<#\d+>", text):
                    self.problems.append(f"a raw channel id in a DM: {text!r}")
            self._hand_ids(request.json)
            self._presets(request.json)
        return sorted(set(self.problems))

    def _hand_ids(self, data) -> None:
        """A hand (an embed showing hand.png) names its channel by name, never as ``<#id>``: the
        same embed goes by DM, where a channel mention of another server shows as raw digits."""
        for embed in data.get("embeds") or [] if isinstance(data, dict) else []:
            if (embed.get("image") or {}).get("url", "").endswith("hand.png"):
                if any(re.search(r"<#\d+>", s) for s in strings(embed)):
                    self.problems.append(f"a raw channel id in a hand: {strings(embed)!r}")
        if isinstance(data, dict) and isinstance(data.get("data"), dict):
            self._hand_ids(data["data"])

    def _presets(self, data) -> None:
        """The preset picker shows a readable name and a line of what each preset is."""
        for component in _walk(data):
            if str(component.get("custom_id", "")).startswith("lobbypreset:"):
                for option in component.get("options", []):
                    if option["label"] in (option["value"], f"Preset: {option['value']}") or not option.get(
                        "description"
                    ):
                        self.problems.append(f"a preset shown by its key: {option!r}")


def _walk(data) -> list[dict]:
    out = []
    if isinstance(data, dict):
        out.append(data)
        for value in data.values():
            out += _walk(value)
    elif isinstance(data, list):
        for value in data:
            out += _walk(value)
    return out


async def _computers_move(env, table) -> None:
    """Let the computers' thinking time pass (the bot waits ``ai_delay`` before each move)."""
    for _ in range(50):
        engine = table.engine
        if engine is None or engine.is_over or any(table.seats[s].ai_level is None for s in engine.to_act()):
            return
        await env.advance_time(1.5)
    raise AssertionError("the computers did not move")


async def _play_ohhell(env, channel, people, preset: str, options: dict[str, str]) -> None:
    await open_table(env, channel, people[0], people[1:], preset=preset, options=options, computers=1)
    table = env.bot.tables.in_channel(channel.id)
    by_id = {p.id: p for p in people}
    await people[1].click(table_message(channel, env.bot.user.id), label="My hand")
    while env.bot.tables.is_live(table):
        await _computers_move(env, table)
        if not env.bot.tables.is_live(table) or table.engine.is_over:
            break
        seat = next(s for s in table.engine.to_act() if table.seats[s].ai_level is None)
        actor = by_id[table.seats[seat].user_id]
        panel = await open_hand(actor, channel, env.bot.user.id)
        done = await press(actor, panel, list(panel_moves(panel))[-1])
        assert done.acknowledged and warning_of(done) is None, done
    await env.advance_time(5)


async def test_every_word_of_whole_games_reads_right(simcord_env, db_path):
    env = simcord_env
    await env.restart_bot(make_bot(db_path, ai_delay=1.0))  # computers take their time, as live
    guild = env.create_guild(name="Card Club")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    # the lobby, its preset picker, the rules and an unknown preset
    room = guild.create_text_channel("lobby")
    lobby = (await people[0].slash(room, "ohhell new")).response
    await people[0].slash(room, "ohhell rules", preset="oh-shit")
    await people[0].slash(room, "ohhell new", preset="nonsense")
    await people[0].slash(room, "shithead rules", preset="karma")
    opened = message_text(lobby)
    await people[0].click(lobby, label="Cancel")

    # Oh Hell: secret bids (oh-shit) with an extra deal or play-off possible, then bids in turn
    first = guild.create_text_channel("oh-hell")
    await _play_ohhell(env, first, people, "oh-shit", {"fixed_hands": "1,2"})
    second = guild.create_text_channel("oh-hell-2")
    await _play_ohhell(env, second, people, "classic", {"fixed_hands": "1,2"})
    await people[1].slash(second, "ohhell end")  # refusals read right too
    await people[0].slash(second, "ohhell set", option="hook", value="off")
    await people[0].slash(second, "ohhell verify")
    await people[0].slash(second, "ohhell scores")
    history = message_text((await people[0].slash(second, "ohhell history")).response)
    assert "· Classic" in history and "· Oh Shit (secret bids)" in history, history  # names, not keys
    await people[0].slash(second, "leaderboard")
    await people[0].slash(second, "cardstats")

    # Shithead with a computer, played through the panel
    third = guild.create_text_channel("shithead")
    await open_table(env, third, people[0], people[1:], command="shithead", computers=1)
    live = env.bot.tables.in_channel(third.id)
    driver = ShitheadDriver(env, third, {p.id: p for p in people}, watch=False)
    while not live.engine.is_over:
        await _computers_move(env, live)
        if live.engine.is_over:
            break
        await driver.step()
    await env.advance_time(5)
    await people[1].slash(third, "shithead scores")
    results = await env.bot.tables.store.results(live.id)
    for person in people:  # after one game each: "1 time the shithead", not "1 times"
        stats = message_text((await person.slash(third, "cardstats")).response)
        lost = sum(1 for r in results if r.user_id == person.id and r.is_loser)
        assert f"{lost} time{'' if lost == 1 else 's'} the shithead" in stats, stats
        assert "favourite preset: Standard" in stats, stats  # its name, not the key "pagat"

    assert bot_messages(first, env.bot.user.id) and bot_messages(third, env.bot.user.id)
    # a DM names the game's channel (a link) and server by name; the lobby names its preset
    dm = people[0].user.dm_channel.last_message
    link = f"[#shithead](https://discord.com/channels/{guild.id}/{third.id}) on **Card Club**"
    assert link in message_text(dm), message_text(dm)
    assert "preset **Classic**" in opened and "turned-up trumps" in opened
    dms = {p.user.dm_channel.id for p in people}
    problems = Scan(env).run(dms, {p.id: p.user.name for p in people})
    assert not problems, "\n".join(p[:300] for p in problems)


def test_a_play_off_of_eight_or_eleven_cards_reads_an():
    for size, article in ((8, "an"), (11, "an"), (5, "a")):
        event = Event("playoff_started", {"seats": [0, 1], "total": 20, "hand_size": size})
        note = deal_notes([event], lambda s: "ab"[s])[0]
        assert f": {article} {size}-card play-off." in note, note
        assert not any(p.search(note) for p, _ in WRONG), note
