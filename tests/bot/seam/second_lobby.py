"""A test-only feature (an extension) that draws lobbies too: loaded beside the lobby feature, it
claims a slot the lobby fills, and the bot refuses to start (tests/bot/seam/test_features.py)."""

from __future__ import annotations

from bot.client import CardBot
from bot.seam.features import Feature


async def setup(card_bot: CardBot) -> None:
    card_bot.features.add(Feature(name="second-lobby", lobby=card_bot.tables.presenter.live_face))
