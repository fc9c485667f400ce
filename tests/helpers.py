"""What SimCord tests share: building the bot on a temporary database, and reading messages."""

from __future__ import annotations

from bot.client import CardBot
from bot.settings import Settings


def make_bot(db_path: str, *, ai_delay: float = 0.0) -> CardBot:
    return CardBot(Settings(token="test-token", database_path=db_path, ai_delay=ai_delay))
