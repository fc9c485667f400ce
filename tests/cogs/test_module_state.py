"""The features keep nothing of a game in their own modules.

Test bots share the feature modules of their process (tests/feature_modules.py), as the real
bot's one process does: a restarted test bot gets the same modules back. That stands for a real
restart only while a module holds no state; what a live game needs must come back from the store.
"""

from __future__ import annotations

import pytest

from tests.feature_modules import module_state
from tests.helpers import OhHellDriver, ShitheadDriver, make_bot, open_table


def _changed(before: dict, after: dict) -> list[str]:
    return [
        f"{module}.{name}"
        for module in sorted(set(before) | set(after))
        for name in sorted(set(before.get(module, {})) | set(after.get(module, {})))
        if before.get(module, {}).get(name) != after.get(module, {}).get(name)
    ]


async def test_games_and_a_restart_change_nothing_a_feature_module_holds(simcord_env, db_path):
    env = simcord_env
    before = module_state()
    assert {"cogs.ohhell", "cogs.ohhell.kind", "cogs.shithead.kind", "cogs.lobby", "cogs.stats"} <= set(before)
    guild = env.create_guild()
    hearts, palace = guild.create_text_channel("hearts"), guild.create_text_channel("palace")
    ann, bob = guild.add_member(env.create_user("ann")), guild.add_member(env.create_user("bob"))
    await open_table(env, hearts, ann, [bob], options={"fixed_hands": "2,1"}, computers=1)
    await open_table(env, palace, bob, [ann], command="shithead", computers=1)
    oh_hell = OhHellDriver(env, hearts, {ann.id: ann, bob.id: bob})
    for _ in range(4):
        assert await oh_hell.step()

    await env.restart_bot(make_bot(db_path))
    await OhHellDriver(env, hearts, {ann.id: ann, bob.id: bob}).play_to_end()
    await ShitheadDriver(env, palace, {ann.id: ann, bob.id: bob}).play_to_end()
    assert "Game over" in hearts.last_message.content

    assert _changed(before, module_state()) == []


def test_a_change_to_what_a_module_holds_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    import cogs.stats.commands as stats_commands

    before = module_state()
    monkeypatch.setitem(stats_commands.SEASON_WORDS, "held", "state")
    assert _changed(before, module_state()) == ["cogs.stats.commands.SEASON_WORDS"]
    monkeypatch.setattr(stats_commands, "held_here", 1, raising=False)
    assert "cogs.stats.commands.held_here" in _changed(before, module_state())
