"""Every request the bot makes over whole games and every slash command, held to Discord's
published API (bench/discord_api.py: the OpenAPI description pinned in tests/fixtures/ and the
limits Discord documents beside it).

Through SimCord, as people play: one whole game of each preset of each game, at the most seats
the preset deals to (at most 7; Oh Hell's ``oh-shit`` at 7 deals the 63-card pack), every seat a
member with a 32-character display name moving through the private panel their table's button
opens (Oh Hell: a random enabled move; Shithead: the engine's sensible player's choice, carried
out with the panel's own buttons and lists); during a game and after it, every slash command of
the bot (and its autocompletes), a duplicate match opened, joined and closed, a seat handed to
the computer and taken back, a lobby ended. Each request SimCord records is checked; each
violation is printed (the method, the path, the operation, the field) after the operations the
requests were; the last line is ``requests=N operations=K violations=V``.

``--quick`` plays one Oh Hell deal at 7 seats (``oh-shit``, peak 1) and one Shithead game of 2
seats, then the same commands, ``/analysis`` by a light coach in one worker process (the sizes
the coach's own tests use: what is checked is the requests, not the analysis): seconds, the
same code path. The bot runs as the tests run it:
its displays edit at once, its timers on SimCord's virtual clock.

    python bench/conformance.py [--quick] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import simcord  # noqa: E402
from simcord.env import _LIVE_LOOPS  # noqa: E402
from simcord.results import to_discord_message  # noqa: E402

from bench.discord_api import check_all, discord_api, record_simcord_files, simcord_requests  # noqa: E402
from bench.quick import LIGHT_COACH  # noqa: E402
from bot.client import CardBot  # noqa: E402
from bot.host.settings import Settings  # noqa: E402
from games.ohhell.presets import PRESETS as OHHELL_PRESETS  # noqa: E402
from games.shithead.ai import choose_action  # noqa: E402
from games.shithead.rules import PRESETS as SHITHEAD_PRESETS  # noqa: E402

#: 32 characters each, the longest display name Discord allows
FIRST = "Annabelle Bartholomew Cassandra Dominique Evangeline Florentina Gwendolyn".split()
NAMES = [f"{first} Wolfeschlegelsteinhausenberger"[:31] + str(i) for i, first in enumerate(FIRST)]
STUCK_SECONDS = 60


async def _virtual_sleep(seconds: float) -> None:
    """A bot timer on SimCord's virtual clock, as the tests run them: it ends when the bench
    moves the clock, never by real time passing."""
    env = _LIVE_LOOPS.get(asyncio.get_running_loop())
    if env is not None:
        try:
            await env.external_wait(asyncio.sleep(seconds), reason="a bot timer, on the virtual clock")
            return
        except Exception:  # noqa: BLE001 - not the bot's own work: a real sleep
            pass
    await asyncio.sleep(seconds)


def make_bot(path: str) -> CardBot:
    bot = CardBot(Settings(token="bench", database_path=path, ai_delay=0.0, sqlite_synchronous="NORMAL"))
    bot.tables.presenter.coalesce = 0.0
    bot.leases.seconds = 3600.0
    bot.tables.sleep = bot.tables.clock.sleep = bot.leases.sleep = _virtual_sleep
    return bot


def light_coach(bot: CardBot) -> None:
    """The coach of :data:`bench.quick.LIGHT_COACH` from here on (before its first analysis), in
    one worker process (each spawned worker imports the bot: a second CPU-second for nothing)."""
    from games.ohhell.analysis import AnalysisConfig as OhHellConfig
    from games.shithead.analysis import AnalysisConfig as ShitheadConfig

    coach = bot.get_cog("Stats").coach
    coach.workers = 1
    coach.configs["ohhell"] = OhHellConfig(**LIGHT_COACH["ohhell"])
    coach.configs["shithead"] = ShitheadConfig(**LIGHT_COACH["shithead"])


def walk(rows: list[Any]) -> Iterator[dict[str, Any]]:
    for component in rows:
        if not isinstance(component, dict) and hasattr(component, "to_dict"):
            component = component.to_dict()
        if isinstance(component, dict):
            yield component
            yield from walk(component.get("components") or [])


def ids(message: Any, *parts: str, enabled: bool = True) -> list[str]:
    """The custom ids of ``message``'s controls containing each of ``parts``."""
    return [
        c["custom_id"]
        for c in walk(message.components)
        if c.get("custom_id") and all(p in c["custom_id"] for p in parts) and not (enabled and c.get("disabled"))
    ]


class Table:
    """One table being played in a channel: its members, the game, the driver of human moves."""

    def __init__(self, env: Any, channel: Any, game: str, members: dict[int, Any], rng: random.Random) -> None:
        self.env, self.channel, self.game, self.members, self.rng = env, channel, game, members, rng
        self.bot_id = env.bot.user.id
        self.button = "My hand" if game == "ohhell" else "My cards"

    @property
    def live(self) -> Any:
        return self.env.bot.tables.in_channel(self.channel.id, self.game)

    def stored(self) -> list[Any]:
        return list(self.env.backend.messages.get(self.channel.id, {}).values())

    def table_message(self) -> Any:
        for stored in reversed(self.stored()):
            if stored.author_id == self.bot_id and not stored.is_ephemeral and stored.components:
                return to_discord_message(self.env, stored)
        raise AssertionError("no table message")

    def panel(self, actor: Any) -> Any:
        prefixes = ("ohp:",) if self.game == "ohhell" else ("shq:", "shb:", "shs:")
        for stored in reversed(self.stored()):
            if stored.is_ephemeral and stored.author_id == self.bot_id and stored.visible_to(actor.id):
                if any((c.get("custom_id") or "").startswith(prefixes) for c in walk(stored.components)):
                    return to_discord_message(self.env, stored)
        return None

    async def open_panel(self, actor: Any) -> Any:
        shown = await actor.click(self.table_message(), label=self.button)
        assert shown.response is not None, shown
        return shown.response

    async def play_to_end(self, limit: int = 20000, during: Any = None) -> None:
        for step in range(limit):
            live = self.live
            if live is None or live.engine is None or live.engine.is_over:
                return
            if during is not None and step == 5:
                await during(self)
                continue
            people = [s for s in live.engine.to_act() if live.seats[s].ai_level is None]
            if not people:
                for _ in range(STUCK_SECONDS):
                    await self.env.settle()
                    live = self.live
                    if (
                        live is None
                        or live.engine.is_over
                        or any(live.seats[s].ai_level is None for s in live.engine.to_act())
                    ):
                        break
                    await self.env.advance_time(1)
                continue
            seat = people[0]
            actor = self.members[live.seats[seat].user_id]
            before = live.engine.action_count if self.game == "ohhell" else len(live.engine.log)
            await (self.ohhell_move(actor) if self.game == "ohhell" else self.shithead_move(actor, seat))
            after = live.engine.action_count if self.game == "ohhell" else len(live.engine.log)
            assert after > before, f"seat {seat}'s move was not made"
        raise AssertionError("the game did not end")

    async def ohhell_move(self, actor: Any) -> None:
        panel = self.panel(actor)
        moves = [] if panel is None else [i for i in ids(panel, "ohp:") if i.split(":")[3] in ("b", "p")]
        if not moves:
            panel = await self.open_panel(actor)
            moves = [i for i in ids(panel, "ohp:") if i.split(":")[3] in ("b", "p")]
        await actor.click(panel, custom_id=self.rng.choice(moves))

    async def shithead_move(self, actor: Any, seat: int) -> None:
        """The sensible player's choice for ``seat``, carried out with the panel's controls."""
        engine = self.live.engine
        view = engine.view(seat)
        action = choose_action(view, random.Random(view["action_count"]))
        panel = await self.open_panel(actor)
        kind = action["type"]

        async def press(*parts: str) -> Any:
            found = ids(panel, *parts)
            assert found, (parts, ids(panel))
            return (await actor.click(panel, custom_id=found[0])).response

        if kind == "swap" and ids(panel, f":swap:{action['hand']}>{action['up']}"):
            await press(f":swap:{action['hand']}>{action['up']}")
        elif kind == "swap":
            await actor.select(panel, [f"{action['hand']}>{action['up']}"], custom_id=ids(panel, "shs:", ":swap")[0])
        elif kind in ("stack", "flip"):
            await press(f":stack:{action['card']}" if kind == "stack" else f":flip:{action['index']:x}")
        elif kind == "ready":
            await press(":ready")
        elif kind == "choose_up":
            hand = list(view["hand"])
            mask = 0
            for card in action["cards"]:
                index = next(i for i, c in enumerate(hand) if c == card and not mask >> i & 1)
                mask |= 1 << index
                panel = await press(f":tap:{mask:x}")
            await press(":confirm")
        elif kind == "play":
            wanted = sorted(action["cards"])
            quick = [i for i in ids(panel, "shq:", ":put:") if sorted(i.rsplit(":", 1)[1].split(".")) == wanted]
            if quick:
                await actor.click(panel, custom_id=quick[0])
            else:
                select = next(c for c in walk(panel.components) if ":sel" in (c.get("custom_id") or ""))
                values = [o["value"] for o in select["options"] if set(o["value"].split(".")) & set(wanted)]
                panel = (await actor.select(panel, values, custom_id=select["custom_id"])).response
                await press(":play:")
        elif kind == "pickup":
            await press(f":add:{action['add']}" if "add" in action else ":pick")
        else:
            raise AssertionError(f"unknown action {action}")


async def open_table(env: Any, channel: Any, game: str, preset: str, people: list[Any], **options: str) -> Any:
    host = people[0]
    lobby = (await host.slash(channel, f"{game} new", preset=preset)).response
    for option, value in options.items():
        await host.slash(channel, f"{game} set", option=option, value=value)
    for member in people[1:]:
        await member.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return Table(env, channel, game, {p.id: p for p in people}, random.Random(len(people)))


async def during_a_game(table: Table) -> None:
    """The commands a player uses at a table being played: each seat's hand, the scores, the
    table again, the rules, letting spectators see a hand, a seat left to the computer and
    taken back, the autocompletes."""
    game, channel = table.game, table.channel
    people = list(table.members.values())
    host, other = people[0], people[-1]
    for command in ("hand", "scores", "table", "rules"):
        await host.slash(channel, f"{game} {command}")
    await host.slash(channel, f"{game} spectators", hand="show")
    await host.slash(channel, f"{game} spectators", hand="hide")
    await other.slash(channel, f"{game} leave")
    await table.env.settle()
    await other.slash(channel, f"{game} back")
    for command, option in ((f"{game} new", "preset"), (f"{game} rules", "preset"), (f"{game} set", "option")):
        await host.autocomplete(channel, command, option, "")


async def finished_work(env: Any, channel: Any, message_id: int, seconds: float = 600.0) -> None:
    """Until the coach's answer replaces its "Working on the analysis" (its worker processes run
    in real time, outside what a settle waits for)."""
    for _ in range(int(seconds * 10)):
        await env.settle()
        stored = env.backend.messages.get(channel.id, {}).get(message_id)
        if stored is None or "Working on the analysis" not in (stored.content or ""):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the analysis never came")


async def after_games(env: Any, guild: Any, people: list[Any], game: str, number: int) -> None:
    """The commands about finished games, a lobby ended, a duplicate match opened, joined and
    closed, and the server-wide ones."""
    host, other = people[0], people[1]
    room = guild.create_text_channel(f"after-{game}")
    for args in ({}, {"game": number}):
        await host.slash(room, f"{game} verify", **args)
    await host.slash(room, f"{game} history")
    await host.slash(room, f"{game} scores")
    for command in ("replay", "analysis"):
        await host.autocomplete(room, f"{game} {command}", "game", "")
        shown = await host.slash(room, f"{game} {command}", game=number)
        if command == "analysis" and shown.response is not None:
            await finished_work(env, room, shown.response.id)
        if command == "replay" and shown.response is not None:
            for custom_id in ids(shown.response, "")[:4]:
                await host.click(shown.response, custom_id=custom_id)
    await host.slash(room, f"{game} new")
    await host.autocomplete(room, f"{game} set", "value", "", option="min_players")
    asked = await host.slash(room, f"{game} end")
    if asked.response is not None and ids(asked.response, ""):
        await host.click(asked.response, label="Confirm")
    opened = await host.slash(room, f"{game} duplicate new", tables=2)
    said = " ".join(m.content or "" for m in [opened.response, *opened.followups] if m is not None)
    found = re.search(r"\*\*([A-Z0-9]{6})\*\*", said)
    assert found, said
    code = found.group(1)
    joined_room = guild.create_text_channel(f"second-{game}")
    await other.slash(joined_room, f"{game} duplicate join", code=code)
    await host.slash(room, f"{game} duplicate close", code=code)
    await host.slash(room, "leaderboard")
    await host.slash(room, "leaderboard", game=game)
    await host.autocomplete(room, "leaderboard", "season", "")
    await host.slash(room, "cardstats")
    await other.slash(room, "cardstats", member=host, versus=other)


async def run(quick: bool, seed: int) -> tuple[list[Any], int, set[str]]:
    record_simcord_files()
    api = discord_api()
    violations: list[Any] = []
    requests = 0
    operations: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        bot = make_bot(os.path.join(tmp, "bench.sqlite3"))
        try:
            async with simcord.run(bot, settle_timeout=120) as env:
                users = [env.create_user(f"user{i}", global_name=n) for i, n in enumerate(NAMES)]
                guild = env.create_guild("Conformance", owner=users[0])  # the owner manages the server
                people = [guild.add_member(u) for u in users]
                if quick:
                    light_coach(bot)
                plan: list[tuple[str, str, int, dict[str, str]]] = []
                if quick:
                    plan = [("ohhell", "oh-shit", 7, {"peak": "1"}), ("shithead", "pagat", 2, {})]
                else:
                    plan += [("ohhell", p, min(7, OHHELL_PRESETS[p]["max_players"]), {}) for p in OHHELL_PRESETS]
                    plan += [("shithead", p, min(7, r.player_range()[1]), {}) for p, r in SHITHEAD_PRESETS.items()]
                last: dict[str, int] = {}
                for index, (game, preset, seats, options) in enumerate(plan):
                    channel = guild.create_text_channel(f"{preset}-{index}")
                    table = await open_table(env, channel, game, preset, people[:seats], **options)
                    table.rng.seed(seed + index)
                    first_of_its_game = index == 0 or plan[index - 1][0] != game
                    await table.play_to_end(during=during_a_game if first_of_its_game else None)
                    await env.settle()
                    record = await bot.store.last_game(channel.id, game)
                    assert record is not None and record.status != "active", (game, preset, record)
                    last[game] = record.id
                    print(f"{game} {preset} at {seats}: requests so far {len(env.http_requests)}", flush=True)
                for game, number in last.items():
                    await after_games(env, guild, people, game, number)
                room = guild.create_text_channel("admin")
                await people[0].slash(room, "cardadmin seasons", length="monthly", min_games=1)
                await people[0].slash(room, "cardadmin rebuild-ratings")
                await env.settle()
                found, operations = check_all(api, simcord_requests(env))
                violations += found
                requests = len(env.http_requests)
        finally:
            await bot.close()
    return violations, requests, operations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short game of each kind, then every command")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    violations, requests, operations = asyncio.run(run(args.quick, args.seed))
    print("operations: " + ", ".join(sorted(operations)))
    for violation in dict.fromkeys(str(v) for v in violations):
        print(violation)
    print(f"requests={requests} operations={len(operations)} violations={len(violations)}")


if __name__ == "__main__":
    main()
