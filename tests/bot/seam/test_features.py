"""Features plug in one way: each extension's ``setup()`` registers one thing, a game
its :class:`bot.seam.features.Game`, any other feature its :class:`bot.seam.features.Feature`; the runtime
checks the whole at start-up, then plugs in the games (their kinds, groups and buttons) by key and
gives every game every feature, so the order the extensions load in no longer matters.

Here the bot loads its extensions in the reverse of :func:`bot.client.extensions` (the lobby, fair
play and the stats before any game), and a user still meets every feature in every game:
``/<game> new``'s lobby, the take-back and Watch buttons under a table (in that order), the
Rematch under the final standings, ``/<game> history``, the rating on a seat in the next lobby,
and ``/leaderboard``'s game choices. A third game loaded before everything else plays as well, and
the bot comes out the same (its commands, its games, its buttons' dispatch order) whatever the
order. A set of features that claim one slot twice stops start-up with one sentence; so does a
game registered twice, around its registration, or under a group not named after it, and two
top-level commands named alike.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
from discord import app_commands

import bot.client
from bot import __main__ as entry
from bot.client import CardBot, extensions
from bot.host.settings import Settings
from bot.seam.contract import Rendered
from bot.seam.features import Feature, FeatureError, Features, Game
from bot.seam.groups import game_group
from tests.cogs.conftest import db_path  # noqa: F401  (the SimCord fixtures)
from tests.helpers import (
    OhHellDriver,
    bot_messages,
    buttons,
    close_made_bots,
    for_tests,
    open_table,
    table_message,
    walk_components,
)
from tests.thirdgame.kind import HighCardKind

SHORT = {"fixed_hands": "2,1", "sequence": "fixed", "turn_timer": "1m"}
#: the test-only third game (:mod:`tests.thirdgame`), as the settings name it
THIRD_GAME = ("tests.thirdgame",)


def backwards(extra_games: tuple[str, ...] = ()) -> list[str]:
    """The extensions the other way round: every feature before any game under ``cogs/``, and
    the extra games (the third game) before everything."""
    return [*extra_games, *reversed(extensions())]


@pytest.fixture
async def simcord_bot(db_path, monkeypatch, request):  # noqa: F811
    """A test bot loading its extensions :func:`backwards`; a test parametrized indirectly
    names its extra games (the third game)."""
    monkeypatch.setattr(bot.client, "extensions", backwards)
    extra: tuple[str, ...] = getattr(request, "param", ())
    settings = Settings(token="test-token", database_path=db_path, ai_delay=0.0, extra_games=extra)
    yield for_tests(CardBot(settings))
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


@pytest.mark.parametrize("simcord_bot", [THIRD_GAME], indirect=True)
async def test_a_third_game_loaded_first_and_the_games_loaded_last_still_play(simcord_env):
    """The third game (``Settings.extra_games``) loads before everything, the lobby, fair play and
    the stats before the games under ``cogs/``: every game still has its kind, its ``/<game>``
    group with its own commands and every feature's, and its buttons answer (a High Card card
    pressed on its panel, Shithead's **My cards**, Oh Hell's **My hand**)."""
    env = simcord_env
    loaded = list(env.bot.extensions)
    assert loaded == backwards(THIRD_GAME) and loaded[0] == "tests.thirdgame", loaded
    assert loaded.index("cogs.lobby") < min(loaded.index("cogs.ohhell"), loaded.index("cogs.shithead"))
    assert list(env.bot.tables.kinds) == ["highcard", "ohhell", "shithead"]  # by key, whatever the order
    for key in env.bot.tables.kinds:
        group = env.bot.tree.get_command(key)
        assert isinstance(group, app_commands.Group), key
        assert {"new", "verify", "spectators", "history", "replay"} <= {c.name for c in group.commands}, key
    assert "hand" in {c.name for c in env.bot.tree.get_command("ohhell").commands}  # the game's own

    guild = env.create_guild()
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    bot_id = env.bot.user.id
    for key, label, computers in (("highcard", "My hand", 0), ("shithead", "My cards", 0), ("ohhell", "My hand", 1)):
        room = guild.create_text_channel(f"{key}-room")
        await open_table(env, room, ann, [bob], command=key, computers=computers)
        table = env.bot.tables.in_channel(room.id, key)
        assert table is not None and table.engine is not None, key
        seat = table.engine.to_act()[0]  # (High Card's first to act is a player: no computer sits)
        actor = bob if key == "highcard" and table.seats[seat].user_id == bob.id else ann
        shown = await actor.click(table_message(room, bot_id), label=label)
        assert shown.response is not None and shown.response.ephemeral, (key, shown)
        if key == "highcard":  # one card pressed on the panel: the game's own button plays it
            cards = [
                c["custom_id"]
                for c in walk_components(shown.response.components)
                if (c.get("custom_id") or "").startswith("hcp:") and not c.get("disabled")
            ]
            before = table.engine.action_count
            await actor.click(shown.response, custom_id=random.Random(1).choice(cards))
            await env.settle()
            assert table.engine.action_count == before + 1


def shape(command: Any) -> tuple[Any, ...]:
    """A command as a user meets it: its name, and its sub-commands' shapes (a group's) or its
    parameters with their choices, in order."""
    if isinstance(command, app_commands.Group):
        return (command.name, [shape(c) for c in command.commands])
    return (command.name, [(p.name, [c.value for c in p.choices]) for p in command.parameters])


async def plugged_in(order: list[str]) -> tuple[list[Any], list[str], list[str]]:
    """A bot (with the third game) that loaded ``order`` and started its features: its command
    tree, its games and its dynamic items in the order a custom id is matched against them."""
    made = CardBot(Settings(token="test-token", database_path=":memory:", extra_games=THIRD_GAME))
    for name in order:
        await made.load_extension(name)
    made.features.start(made, made.tables.kinds)
    items = [item.__qualname__ for item in made._connection._view_store._dynamic_items.values()]
    out = [shape(c) for c in made.tree.get_commands()], list(made.tables.kinds), items
    await made.close()
    return out


async def test_the_bot_comes_out_the_same_whatever_order_its_extensions_load_in() -> None:
    """Loaded in :func:`~bot.client.extensions`' order, the other way round, or shuffled, the
    bot has the same commands (each game's group, its sub-commands and their order, the stats'
    game choices), the same games in the same order and the same dynamic items, in the same
    order (a custom id goes to the first that matches)."""
    tidy = extensions(THIRD_GAME)
    shuffled = list(tidy)
    random.Random(3).shuffle(shuffled)
    wanted = await plugged_in(tidy)
    tree, kinds, items = wanted
    assert kinds == ["highcard", "ohhell", "shithead"]
    assert [c[0] for c in tree][:3] == kinds  # the games' groups first, by key, then the features' own
    assert items.index("HandButton") < items.index("LobbyButton")  # the games' items first, by key
    for order in (list(reversed(tidy)), backwards(THIRD_GAME), shuffled):
        assert await plugged_in(order) == wanted, order


def test_two_features_claiming_one_slot_stop_the_start_with_one_sentence(monkeypatch, tmp_path, capsys) -> None:
    """A second lobby renderer (a feature that claims what the lobby feature fills) is refused at
    start-up, once every extension is loaded, whatever their order: ``python -m bot`` says so in
    one sentence and exits with 2, as for a bad store."""
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DEV_GUILD_ID", "DATABASE_URL", "HEALTH_PORT", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "cards.sqlite3"))
    monkeypatch.setattr(bot.client, "extensions", lambda extra=(): ["tests.bot.seam.second_lobby", *backwards(extra)])

    async def login(self, token):  # Discord is not reachable here; the extensions load in setup_hook
        await self.setup_hook()

    monkeypatch.setattr(discord.Client, "login", login)
    assert entry.main() == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said == "The features lobby and second-lobby both claim the lobby renderer: only one feature may fill it."


def test_the_check_refuses_a_game_twice_around_its_registration_misnamed_or_without_my_hand_or_a_lobby() -> None:
    def with_games(*games: Game) -> Features:
        features = Features()
        features.add(Feature(name="lobby", lobby=lambda table: Rendered(content="lobby")))
        for game in games:
            features.add(game)
        return features

    kind = HighCardKind()
    game = Game(kind, game_group(kind))
    with_games(game).check({})
    no_lobby = Features()
    no_lobby.add(game)
    with pytest.raises(FeatureError, match="no feature draws a lobby"):
        no_lobby.check({})
    with pytest.raises(FeatureError, match="^The game highcard registers twice: each game registers once"):
        with_games(game, Game(HighCardKind(), game_group(kind))).check({})
    with pytest.raises(FeatureError, match="^The game highcard was registered around bot.features.add"):
        with_games().check({"highcard": kind})
    misnamed = app_commands.Group(name="cards", description="High Card")
    with pytest.raises(FeatureError, match="^The game highcard has its commands under /cards: a game's group is"):
        with_games(Game(kind, misnamed)).check({})

    class NoHand(HighCardKind):
        hand_item = None

    with pytest.raises(FeatureError, match="The game highcard has no My hand button"):
        with_games(Game(NoHand(), game_group(kind))).check({})
    twice = with_games()
    twice.add(Feature(name="lobby"))
    with pytest.raises(FeatureError, match="Two features are named lobby"):
        twice.check({})


async def test_start_plugs_in_the_games_by_key_then_the_features() -> None:
    """:meth:`Features.start` puts each game's kind in the table manager's kinds, its group in the
    tree and its items in the bot, games by key, however they registered."""
    made = CardBot(Settings(token="test-token", database_path=":memory:"))
    late, early = HighCardKind(), HighCardKind()
    early.key = "alpha"
    made.features.add(Game(late, game_group(late)))
    made.features.add(Game(early, game_group(early)))
    made.features.add(Feature(name="lobby", lobby=lambda table: Rendered(content="lobby")))
    assert made.tables.kinds == {} and made.tree.get_commands() == []  # nothing added while they load
    made.features.start(made, made.tables.kinds)
    assert made.tables.kinds == {"alpha": early, "highcard": late}
    assert [c.name for c in made.tree.get_commands()] == ["alpha", "highcard"]
    with pytest.raises(FeatureError, match="The game highcard registered after start-up"):
        made.features.add(Game(late, game_group(late)))
    await made.close()


async def test_a_feature_command_named_like_a_game_or_another_feature_s_stops_the_start() -> None:
    """Two top-level commands named alike are refused in one sentence before anything is added
    (discord.py would refuse the second one halfway through start-up)."""
    kind = HighCardKind()

    def own(name: str):
        return lambda kinds: [app_commands.Group(name=name, description="x")]

    for features, said in (
        ([Feature(name="stats", commands=own("highcard"))], "The feature stats and the game highcard both add"),
        (
            [Feature(name="stats", commands=own("board")), Feature(name="tops", commands=own("board"))],
            "The feature tops and the feature stats both add /board",
        ),
    ):
        made = CardBot(Settings(token="test-token", database_path=":memory:"))
        made.features.add(Game(kind, game_group(kind)))
        made.features.add(Feature(name="lobby", lobby=lambda table: Rendered(content="lobby")))
        for feature in features:
            made.features.add(feature)
        with pytest.raises(FeatureError, match=f"^{said}"):
            made.features.start(made, made.tables.kinds)
        assert made.tree.get_commands() == [] and made.tables.kinds == {}  # nothing added
        await made.close()


def test_what_a_feature_lends_is_read_from_its_registration_and_one_registered_late_is_refused() -> None:
    features = Features()
    assert features.lent.finale is not None and features.lent.seat_note(None, None) is None  # lends nothing
    note = Feature(name="stats", seat_note=lambda table, seat: "rating 25")
    features.add(note)
    assert features.lent.seat_note(None, None) == "rating 25"
    features.started = True
    with pytest.raises(FeatureError, match="registered after start-up"):
        features.add(Feature(name="late"))
