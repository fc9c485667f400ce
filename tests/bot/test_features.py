"""Features plug in one way (issue 23): each feature's ``setup()`` registers one
:class:`bot.features.Feature`, the runtime applies it to every game at start-up and checks the
whole first, so the order the extensions load in no longer matters.

Here the bot loads its extensions in the reverse of :func:`bot.client.extensions` (the lobby, fair
play and the stats before any game), and a user still meets every feature in every game:
``/<game> new``'s lobby, the take-back and Watch buttons under a table (in that order), the
Rematch under the final standings, ``/<game> history``, the rating on a seat in the next lobby,
and ``/leaderboard``'s game choices. A set of features that claim one slot twice stops start-up
with one sentence.
"""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

import bot.client
from bot import __main__ as entry
from bot.client import extensions
from bot.contract import Rendered
from bot.features import Feature, FeatureError, Features
from tests.cogs.conftest import db_path  # noqa: F401  (the SimCord fixtures)
from tests.helpers import (
    OhHellDriver,
    bot_messages,
    buttons,
    close_made_bots,
    make_bot,
    open_table,
    table_message,
)
from tests.thirdgame.kind import HighCardKind

SHORT = {"fixed_hands": "2,1", "sequence": "fixed", "turn_timer": "1m"}


def backwards(extra_games: tuple[str, ...] = ()) -> list[str]:
    """The extensions the other way round: every feature before any game."""
    return list(reversed(extensions(extra_games)))


@pytest.fixture
async def simcord_bot(db_path, monkeypatch):  # noqa: F811
    monkeypatch.setattr(bot.client, "extensions", backwards)
    yield make_bot(db_path)
    await close_made_bots()


def embed_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_features_loaded_before_the_games_still_serve_every_game(simcord_env):
    env = simcord_env
    loaded = list(env.bot.extensions)
    assert loaded == backwards() and loaded.index("cogs.lobby") < loaded.index("cogs.ohhell"), loaded
    kinds = env.bot.tables.kinds
    assert sorted(kinds) == ["ohhell", "shithead"]
    for key in kinds:
        group = env.bot.tree.get_command(key)
        assert isinstance(group, app_commands.Group), key
        assert {"new", "verify", "spectators", "history", "replay", "analysis"} <= {c.name for c in group.commands}
    leaderboard = env.bot.tree.get_command("leaderboard")
    assert isinstance(leaderboard, app_commands.Command)
    game = next(p for p in leaderboard.parameters if p.name == "game")
    assert [c.value for c in game.choices] == ["ohhell", "shithead"]

    guild = env.create_guild()
    room = guild.create_text_channel("cards")
    ann, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy"))
    bot_id = env.bot.user.id

    # /ohhell new (the lobby feature's command and renderer), Join, Add computer, Start
    await open_table(env, room, ann, [bob], options=SHORT, computers=1)
    table = env.bot.tables.in_channel(room.id, "ohhell")
    assert table is not None and table.engine is not None
    under = buttons(table_message(room, bot_id))
    assert under[0] == "My hand" and under[-1] == "Watch" and "Take my seat back" not in under, under

    # Watch (fair play's button under the table): an ephemeral view for someone not playing
    watched = await cy.click(table_message(room, bot_id), label="Watch")
    assert watched.response is not None and watched.response.ephemeral and watched.response.embeds, watched

    # the player to act runs out of time: the computer plays the seat, and the table carries the
    # lobby's take-back, then Watch
    seat = table.engine.to_act()[0]
    late = ann if table.seats[seat].user_id == ann.id else bob
    await env.advance_time(61)
    await env.settle()
    assert table.seats[seat].ai_level is not None
    under = buttons(table_message(room, bot_id))
    assert under[-2:] == ["Take my seat back", "Watch"], under
    back = await late.click(table_message(room, bot_id), label="Take my seat back")
    assert back.ephemeral and table.seats[seat].ai_level is None

    # played to the end: the final standings carry the lobby's Rematch
    await OhHellDriver(env, room, {ann.id: ann, bob.id: bob}, seed=4).play_to_end()
    assert env.bot.tables.in_channel(room.id, "ohhell") is None
    finale = [m for m in bot_messages(room, bot_id) if "Rematch" in buttons(m)]
    assert finale and "Game over" in finale[-1].content

    # the stats: the game in /ohhell history, /shithead history answers too, and the rating on a
    # seat in the next lobby (the stats' finish hook rated the game)
    history = await ann.slash(room, "ohhell history")
    assert f"#{table.id}" in embed_text(history.response)
    other = await ann.slash(room, "shithead history")
    assert other.response is not None
    lobby = await ann.slash(room, "ohhell new")
    assert "ann · rating" in embed_text(lobby.response), embed_text(lobby.response)
    rematch = await bob.click(finale[-1], label="Rematch")
    assert rematch.ephemeral and "already has" in rematch.response.content


def test_two_features_claiming_one_slot_stop_the_start_with_one_sentence(monkeypatch, tmp_path, capsys) -> None:
    """A second lobby renderer (a feature that claims what the lobby feature fills) is refused at
    start-up, once every extension is loaded, whatever their order: ``python -m bot`` says so in
    one sentence and exits with 2, as for a bad store."""
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DEV_GUILD_ID", "DATABASE_URL", "HEALTH_PORT", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "cards.sqlite3"))
    monkeypatch.setattr(bot.client, "extensions", lambda extra=(): ["tests.bot.second_lobby", *backwards(extra)])

    async def login(self, token):  # Discord is not reachable here; the extensions load in setup_hook
        await self.setup_hook()

    monkeypatch.setattr(discord.Client, "login", login)
    assert entry.main() == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said == "The features lobby and second-lobby both claim the lobby renderer: only one feature may fill it."


def test_the_check_refuses_a_game_without_its_group_or_my_hand_and_games_without_a_lobby() -> None:
    features = Features()
    kind = HighCardKind()
    group = app_commands.Group(name="highcard", description="High Card")
    with pytest.raises(FeatureError, match="The game highcard has no /highcard command group"):
        features.check({"highcard": kind}, {"highcard": None})
    with pytest.raises(FeatureError, match="no feature draws a lobby"):
        features.check({"highcard": kind}, {"highcard": group})
    features.add(Feature(name="lobby", lobby=lambda table: Rendered(content="lobby")))
    features.check({"highcard": kind}, {"highcard": group})

    class NoHand(HighCardKind):
        hand_item = None

    with pytest.raises(FeatureError, match="The game highcard has no My hand button"):
        features.check({"highcard": NoHand()}, {"highcard": group})
    features.add(Feature(name="lobby"))
    with pytest.raises(FeatureError, match="Two features are named lobby"):
        features.check({}, {})


def test_what_a_feature_lends_is_read_from_its_registration_and_one_registered_late_is_refused() -> None:
    features = Features()
    assert features.lent.finale is not None and features.lent.seat_note(None, None) is None  # lends nothing
    note = Feature(name="stats", seat_note=lambda table, seat: "rating 25")
    features.add(note)
    assert features.lent.seat_note(None, None) == "rating 25"
    features.started = True
    with pytest.raises(FeatureError, match="registered after start-up"):
        features.add(Feature(name="late"))
