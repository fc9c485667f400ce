"""High Card, a test-only third game (an extension like ``cogs/<game>``): it shows that a game
plugs into the bot through the seam alone. A bot loads it when its settings name it
(``Settings(extra_games=("tests.thirdgame",))``); nothing else in the project names it. Like every
game it plugs in with one :class:`~bot.seam.features.Game`: its kind, ``/highcard`` and its buttons.

- :mod:`tests.thirdgame.engine`: the rules engine (pure, deterministic, dealt by the game's RNG)
- :mod:`tests.thirdgame.kind`: its :class:`~bot.seam.contract.GameKind` adapter and replay pages
- :mod:`tests.thirdgame.controls`: **My hand** and the panel's card buttons
"""

from __future__ import annotations

from bot.client import CardBot
from bot.seam.features import Game
from bot.seam.groups import game_group
from tests.thirdgame.controls import CardButton, HandButton
from tests.thirdgame.kind import HighCardKind


async def setup(bot: CardBot) -> None:
    kind = HighCardKind()
    bot.features.add(Game(kind, game_group(kind), items=(HandButton, CardButton)))
