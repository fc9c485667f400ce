"""What a game's coach is to the runtime (:attr:`bot.seam.contract.GameKind.coaching`): the stats
feature runs any game's coach the same way (plan in a thread, the work in worker processes,
a summary stored under the coach's version) and asks the game how the result reads, so it
names no game. A game without a coach has no ``/<game> analysis``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from db.records import GameRecord
from draw.pictures import ImageFile

#: one piece of work for a worker process, and what it gives back (JSON-able)
Task = Any
Part = dict[str, Any]


@dataclass(frozen=True)
class CoachPage:
    """The coach's answer: one embed within Discord's limits and, when a long game's analysis
    did not fit (seven players, sixty deals), the whole of it as a text file beside it."""

    embed: discord.Embed
    file: ImageFile | None = None


@dataclass(frozen=True)
class Coaching:
    """A game's coach: its functions are module-level, so the work can be sent to a worker."""

    #: the layout of the stored analysis; a stored one of another version is computed again
    version: int
    #: the settings a coach runs with (rollouts, budgets) unless the stats feature is given others
    config: Any
    #: ``(record, config) -> (tasks, context)``: the work to do (CPU-bound: run in a thread) and
    #: what the summary needs besides its parts
    plan: Callable[[GameRecord, Any], tuple[list[Task], Any]]
    #: ``task -> part``: one piece of work, in a worker process
    work: Callable[[Task], Part]
    #: ``(parts, record, context, config) -> data``: the analysis as stored
    summarise: Callable[[list[Part], GameRecord, Any, Any], dict[str, Any]]
    #: ``(record, data) -> page``: the coach's page (and the whole text, when it is long)
    page: Callable[[GameRecord, dict[str, Any]], CoachPage]
