"""The Shithead computer levels the bot offers: "strong" (the lobby's Add computer) searches,
"quick" keeps the sensible rules of thumb, "random" stays random."""

from __future__ import annotations

import random

import pytest

from cogs.shithead.kind import ShitheadKind
from tests.games.shithead.test_search import last_card_duel


@pytest.fixture
def _small_searches() -> None:
    """The search at the bot's own size (tests/cogs/conftest.py shrinks it for the tables' tests)."""


def test_the_strong_computer_looks_ahead_and_the_quick_one_does_not() -> None:
    decide = ShitheadKind(bot=None).ai_decider()  # type: ignore[arg-type]
    view = last_card_duel().view(0)
    assert decide(view, "strong", random.Random(1)) == {"type": "play", "cards": ["AS"]}
    assert decide(view, "quick", random.Random(1)) == {"type": "play", "cards": ["4C"]}
    assert decide(view, "random", random.Random(1)) in view["legal"]
