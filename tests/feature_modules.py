"""The feature packages (``cogs.*``) executed once per test process, not once per test bot.

discord.py loads each feature as an extension: it executes the package and its modules afresh
for every bot, and drops them from ``sys.modules`` when the bot closes. A test process makes a
bot for nearly every test (about 1,300 in the suite), so the same forty modules were executed
1,300 times: a third of a test bot's start, some 40 s of the suite's processor time. A process of
the real bot loads them once. Here, too, the first bot of a test process loads each extension as
discord.py does; every later bot gets the same modules back (``sys.modules`` restored as the
first load left it) and only their ``setup(bot)`` runs, which is what plugs a feature into a bot.

That is sound only while the features keep no state of their own in their modules (a live
game's state belongs to the store and the bot, which a restart must rebuild, not to a module a
restarted test bot would share with its predecessor): :func:`module_state` reads what a feature
module holds, and ``tests/cogs/test_module_state.py`` plays games across a restart and checks
that none of it changed.
"""

from __future__ import annotations

import functools
import sys
from types import ModuleType
from typing import Any

from discord.ext import commands

#: the package an extension named -> every module of it that its first load left in sys.modules
_LOADED: dict[str, dict[str, ModuleType]] = {}
_load_from_module_spec = commands.Bot._load_from_module_spec


def _of_package(key: str) -> dict[str, ModuleType]:
    return {name: module for name, module in sys.modules.items() if name == key or name.startswith(key + ".")}


async def _load_once(self: commands.Bot, spec: Any, key: str) -> None:
    kept = _LOADED.get(key)
    if kept is None:
        await _load_from_module_spec(self, spec, key)
        _LOADED[key] = _of_package(key)
        return
    sys.modules.update(kept)
    lib = kept[key]
    try:
        await lib.setup(self)
    except Exception as error:  # as discord.py reports a failed setup
        raise commands.ExtensionFailed(key, error) from error
    self._BotBase__extensions[key] = lib  # type: ignore[attr-defined]


def loaded() -> bool:
    """Whether a bot of this process loaded the features (they stay loaded until it ends)."""
    return bool(_LOADED)


def load_features_once() -> None:
    """Install :func:`_load_once` for every bot of this process."""
    commands.Bot._load_from_module_spec = _load_once  # type: ignore[method-assign]


#: what a module may hold that changes without being state: caches of pure functions
_CACHES = (functools._lru_cache_wrapper,)
_CONTAINERS = (dict, list, set, bytearray)


def _held(value: Any) -> object:
    """What ``value`` is, as far as state goes: the object itself, and for a mutable container, a
    class or an object of a class its contents (a container's items, the containers among a
    class's or an object's own attributes, as text)."""
    if isinstance(value, _CACHES):
        return ("cache", id(value))
    if isinstance(value, _CONTAINERS):
        return (id(value), repr(value))
    if isinstance(value, type) or (
        hasattr(value, "__dict__") and not callable(value) and not isinstance(value, ModuleType)
    ):
        own = {name: _held(v) for name, v in vars(value).items() if isinstance(v, _CONTAINERS)}
        return (id(value), repr(own))
    return id(value)


def module_state(prefix: str = "cogs.") -> dict[str, dict[str, object]]:
    """Every global of every loaded module under ``prefix``, as :func:`_held` reads it."""
    return {
        name: {key: _held(value) for key, value in vars(module).items() if not key.startswith("__")}
        for name, module in sorted(sys.modules.items())
        if name.startswith(prefix) and module is not None
    }
