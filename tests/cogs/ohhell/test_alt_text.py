"""Pictures a screen reader can read, as Discord receives them: every file the bot sends in a
whole Oh Hell game and a whole Shithead game (tables, hands by DM and on panels, the closing
trick, the final chart, the score sheet) carries a description (alt text) within Discord's
1,024 characters, at seven seats with 32-character display names, that says in words what the
picture shows: its cards, whose turn, the leader and totals."""

from __future__ import annotations

import re

import pytest
from simcord.backend.cdn import CdnStore

from draw.pictures import ALT_LIMIT
from tests.helpers import OhHellDriver, ShitheadDriver, open_table

NICKS = [(chr(65 + i) + " display name thirty-two chars").ljust(32, "!")[:32] for i in range(7)]
CARD = re.compile(r"\b(?:[2-9]|1[0-3]|jack|queen|king|ace) (?:of )?(?:clubs|diamonds|hearts|spades)\b|\bjoker\b")


@pytest.fixture
def uploads(monkeypatch) -> list[tuple[str, str | None]]:
    """Every file Discord stores for the bot (any route: a message, an edit, an interaction's
    answer, a followup, a DM), as ``(filename, description)``."""
    seen: list[tuple[str, str | None]] = []
    real = CdnStore.store_attachment

    def store(self, attachment_id, channel_id, filename, data, description):
        seen.append((filename, description))
        return real(self, attachment_id, channel_id, filename, data, description)

    monkeypatch.setattr(CdnStore, "store_attachment", store)
    return seen


def check(uploads: list[tuple[str, str | None]]) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for filename, description in uploads:
        kinds[filename] = kinds.get(filename, 0) + 1
        assert description, f"{filename} went out without alt text"
        assert len(description) <= ALT_LIMIT, (len(description), description)
        if filename == "hand.png":
            assert description.startswith("Your "), description
            assert CARD.search(description) or description.endswith("no cards left."), description
        elif filename == "scores.png":
            assert re.search(r"leads? with -?\d+\. Totals: ", description), description
        elif filename == "table.png":
            # a table with its pile burned and no face-up card left shows no card to name
            bare = description.startswith("Pile: 0 cards") and "face up none" in description
            assert CARD.search(description) or bare, description
    return kinds


async def test_every_file_of_a_whole_ohhell_game_has_alt_text(simcord_env, uploads) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(f"p{i}"), nick=NICKS[i]) for i in range(7)]
    await open_table(env, channel, people[0], people[1:], options={"fixed_hands": "3,1", "four_colour": "on"})
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=3)
    await driver.play_to_end()
    await env.settle()
    sheet = await people[3].slash(channel, "ohhell scores")
    assert sheet.response is not None and sheet.response.attachments
    # the files a finished game gives on request: its shuffle file and its hand history
    await people[1].slash(channel, "ohhell verify", game=1)
    await people[2].slash(channel, "ohhell replay", game=1)
    await env.settle()
    kinds = check(uploads)
    assert kinds.get("hand.png", 0) >= 14 and kinds.get("table.png", 0) >= 10 and kinds.get("scores.png", 0) >= 2, kinds
    assert "shuffle-ohhell-1.json" in kinds and "ohhell-game-1.json" in kinds, kinds
    # the longest a table of seven long names gets, and still within the limit
    assert max(len(d or "") for f, d in uploads if f == "table.png") > 300


async def test_every_file_of_a_whole_shithead_game_has_alt_text(simcord_env, uploads) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(f"p{i}"), nick=NICKS[i]) for i in range(7)]
    await open_table(env, channel, people[0], people[1:], command="shithead", options={"decks": "2"})
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    await env.settle()
    kinds = check(uploads)
    assert kinds.get("hand.png", 0) >= 7 and kinds.get("table.png", 0) >= 20, kinds
    assert max(len(d or "") for f, d in uploads if f == "table.png") > 700  # seven seats, named in full or short
