"""Small contracts of the bot's base pieces: settings keep the token out of their repr, and a
persistent component reads its custom id by its declared field types, never by guessing."""

from __future__ import annotations

from typing import Any

import discord

from bot.host.settings import Settings
from bot.messages.components import GameItem
from cogs.lobby.controls import LobbyButton
from cogs.shithead.panel import PanelButton, PanelSelect


def test_the_token_is_not_in_the_settings_repr() -> None:
    settings = Settings(token="MTAxMjM0.secret-token-value", database_path="x.sqlite3")
    assert "secret-token-value" not in repr(settings)
    assert "secret-token-value" not in str(settings)
    assert "x.sqlite3" in repr(settings)
    assert settings.token == "MTAxMjM0.secret-token-value"


class Sample(GameItem[discord.ui.Button[Any]], template=r"t:(?P<number>\d+):(?P<code>[0-9a-f]+)"):
    fields = {"number": int}

    def __init__(self, number: int, code: str) -> None:
        super().__init__(discord.ui.Button(label="x", custom_id=f"t:{number}:{code}"))
        self.number, self.code = number, code


def _parse(cls: type[GameItem[Any]], custom_id: str) -> dict[str, Any]:
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    return cls.parse(match)


def test_fields_are_converted_as_declared_and_the_rest_stays_text() -> None:
    assert _parse(Sample, "t:10:10") == {"number": 10, "code": "10"}
    assert _parse(Sample, "t:7:ff") == {"number": 7, "code": "ff"}


async def test_a_hex_argument_made_of_digits_stays_text() -> None:
    parsed = _parse(PanelButton, "shb:12:0a1b2c3d4e5f:play:10")
    assert parsed == {"game_id": 12, "key": "0a1b2c3d4e5f", "act": "play", "arg": "10"}
    button = await PanelButton.from_custom_id(
        None, None, PanelButton.__discord_ui_compiled_template__.fullmatch("shb:12:0a1b2c3d4e5f:play:10")
    )  # type: ignore[arg-type]
    assert (button.game_id, button.key, button.arg) == (12, "0a1b2c3d4e5f", "10")
    assert _parse(PanelSelect, "shs:12:0a1b2c3d4e5f:sel") == {"game_id": 12, "key": "0a1b2c3d4e5f", "act": "sel"}
    # A panel drawn before decision keys carried the action count: it still parses (and is stale).
    assert _parse(PanelButton, "shb:12:3:pick:0")["key"] == "3"
    assert _parse(LobbyButton, "lobby:5:join") == {"game_id": 5, "act": "join"}


def test_decision_digests_fit_in_a_custom_id() -> None:
    from bot.seam.contract import DIGEST_LENGTH, digest

    assert digest({"b": [1, 2], "a": None}) == digest({"a": None, "b": [1, 2]}), "canonical, whatever the order"
    assert len(digest({"x": 1})) == DIGEST_LENGTH
    longest = f"shb:{2**63}:{digest(1)}:confirm:{2**25 - 1:x}"
    assert len(longest) <= 100 and PanelButton.__discord_ui_compiled_template__.fullmatch(longest)
