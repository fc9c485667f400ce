"""What SimCord tests share: building the bot on a temporary database, and playing as users do.

The drivers here only click what a user sees: they find the bot's newest table message in the
channel, press its buttons, and pick from the options the bot's own forms offer.
"""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.client import CardBot
from bot.settings import Settings


def make_bot(db_path: str, *, ai_delay: float = 0.0) -> CardBot:
    return CardBot(Settings(token="test-token", database_path=db_path, ai_delay=ai_delay))


def buttons(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in getattr(row, "children", []) if getattr(c, "label", None)]


def bot_messages(channel, bot_id: int) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.id == bot_id]


def table_message(channel, bot_id: int) -> discord.Message:
    """The newest message of the bot's that carries game controls."""
    for message in reversed(bot_messages(channel, bot_id)):
        if message.components:
            return message
    raise AssertionError("no table message with controls in the channel")


def modal_options(result: Any) -> list[str]:
    """Values of the ``choice`` select in the form the bot opened."""
    modal = result.modal
    assert modal is not None, f"expected a form, got {result!r}"

    def walk(components: list[dict]) -> list[str] | None:
        for component in components:
            if component.get("custom_id") == "choice":
                return [o["value"] for o in component["options"]]
            child = component.get("component")
            if isinstance(child, dict):
                found = walk([child])
                if found is not None:
                    return found
            if component.get("components"):
                found = walk(component["components"])
                if found is not None:
                    return found
        return None

    found = walk(modal["components"])
    assert found is not None, modal
    return found


def modal_text(result: Any) -> str:
    texts = []

    def walk(components: list[dict]) -> None:
        for component in components:
            if component.get("type") == 10:
                texts.append(component.get("content", ""))
            if component.get("components"):
                walk(component["components"])

    walk(result.modal["components"])
    return "\n".join(texts)


async def open_table(
    env, channel, host, members, command: str = "ohhell", preset: str | None = None, options=None, computers: int = 0
):
    """``/<game> new``, everyone joins, the host adds computers and sets options, presses Start."""
    kwargs = {"preset": preset} if preset else {}
    result = await host.slash(channel, f"{command} new", **kwargs)
    assert result.response is not None and not result.ephemeral, result
    lobby = result.response
    for option, value in (options or {}).items():
        answer = await host.slash(channel, f"{command} set", option=option, value=value)
        assert "✅" in answer.response.content, answer.response.content
    for member in members:
        joined = await member.click(lobby, label="Join")
        assert joined.acknowledged and not joined.ephemeral, joined.response and joined.response.content
    for _ in range(computers):
        added = await host.click(lobby, label="Add computer")
        assert added.acknowledged and not added.ephemeral, added.response and added.response.content
    started = await host.click(lobby, label="Start")
    assert started.acknowledged and not started.ephemeral, started
    return lobby


class OhHellDriver:
    """Plays an Oh Hell game through the table's buttons and forms, choosing with a seeded RNG."""

    def __init__(self, env, channel, actors: dict[int, Any], seed: int = 0) -> None:
        self.env = env
        self.channel = channel
        self.actors = actors  # user id -> member actor
        self.rng = random.Random(seed)
        self.bot_id = env.bot.user.id
        self.cards_played = 0

    def table(self):
        tables = self.env.bot.tables
        found = tables.in_channel(self.channel.id, "ohhell")
        return found

    async def step(self) -> bool:
        """One bid or one card by the first seat to act; False once the game is over."""
        table = self.table()
        if table is None:
            return False
        engine = table.engine
        people = [s for s in engine.to_act() if table.seats[s].ai_level is None]
        if not people:  # computer seats move on their own; let them
            await self.env.settle()
            assert engine.is_over or any(table.seats[s].ai_level is None for s in engine.to_act()), "computers stuck"
            return self.table() is not None
        seat = people[0]
        user_id = table.seats[seat].user_id
        actor = self.actors[user_id]
        message = table_message(self.channel, self.bot_id)
        phase = engine.view(None)["phase"]
        label = "Bid" if phase == "bidding" else "Play a card"
        shown = await actor.click(message, label=label)
        options = modal_options(shown)
        choice = self.rng.choice(options)
        submitted = await actor.submit_modal(shown, {"choice": [choice]})
        assert submitted.acknowledged, submitted
        assert not submitted.ephemeral, f"refused: {submitted.response and submitted.response.content}"
        if phase == "playing":
            self.cards_played += 1
        return True

    async def play_to_end(self, limit: int = 5000) -> None:
        for _ in range(limit):
            if not await self.step():
                return
        raise AssertionError("the game did not end")
