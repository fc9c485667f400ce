"""A finished game replayed step by step for ``/<game> replay``, and its hand history file
(:mod:`games.replay` reads it back).

The steps are recomputed from the stored game on every page turn (rules, seed, actions: a few
milliseconds), so a page needs nothing but the game id and the step number, which the Prev/Next
buttons carry in their custom ids: they keep working after a restart. What a step is and how it
reads is the game's (:class:`bot.seam.replaying.Replayer`, from its adapter).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.fairness.beacon.binding import deal_seed_of
from bot.seam.contract import AnyKind
from bot.seam.replaying import Replayer
from db.records import GameRecord, ResultRow
from draw.budget import Budget, fit
from draw.common import COLOR
from games.replay import FORMAT, VERSION
from locales import _


@dataclass(slots=True)
class Step:
    #: how many of the game's actions have been applied at this step
    actions: int
    lines: list[str]


def hand_history(record: GameRecord, results: list[ResultRow], finished_at: str | None = None) -> dict[str, Any]:
    """The whole finished game as the JSON object :mod:`games.replay` checks."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record.kind,
        "id": record.id,
        "preset": record.preset,
        "rules": record.rules,
        "seed": deal_seed_of(record),  # (a game bound to a drand round deals from both)
        "rng_version": record.rng_version,
        "seats": [{"seat": s.seat, "name": s.name, "computer": s.ai_level} for s in record.seats],
        "actions": [{"seat": seat, "action": action} for seat, action in record.actions],
        "results": [
            {"seat": r.seat, "name": r.name, "place": r.place, "total": r.total, "is_loser": r.is_loser}
            for r in sorted(results, key=lambda r: r.seat)
        ],
        "finished_at": finished_at,
    }


def replayer_of(kind: AnyKind) -> Replayer[Any]:
    """``kind``'s replay pages; a game without them has no replay command."""
    if kind.replayer is None:
        raise ValueError(f"{kind.title} has no replay")
    return kind.replayer


def _start(kind: AnyKind, record: GameRecord) -> Any:
    """The game as dealt, rebuilt by its own adapter (:meth:`~bot.seam.contract.GameKind.replay`, as a
    restart rebuilds it): :mod:`games.replay`'s checker knows only the games it names."""
    return kind.replay(kind.rules_from_json(record.rules or {}), replace(record, actions=[]))


def steps(kind: AnyKind, record: GameRecord) -> list[Step]:
    """Every step of a finished game, the start first (engines change in place as they apply
    actions, so a step keeps its action count, and :func:`page` replays to it)."""
    replayer = replayer_of(kind)
    engine = _start(kind, record)
    names = [s.name for s in record.seats]
    found = [Step(0, replayer.start_lines(engine, names))]
    pending: list[str] = []
    for index, (seat, action) in enumerate(record.actions, start=1):
        engine, events = engine.apply(seat, action)
        pending.extend(replayer.event_lines(engine, events, names))
        if replayer.ends_step(engine, events):
            found.append(Step(index, pending))
            pending = []
    return found


def _at(kind: AnyKind, record: GameRecord, actions: int) -> Any:
    engine = _start(kind, record)
    for seat, action in record.actions[:actions]:
        engine, _events = engine.apply(seat, action)
    return engine


#: what a replay page keeps for the hands the game adds after the step's lines
HANDS_ROOM = 2000


def page(kind: AnyKind, record: GameRecord, found: list[Step], index: int) -> discord.Embed:
    """Step ``index`` of the replay: what happened, then every hand as it stands."""
    step = found[index]
    names = [s.name for s in record.seats]
    budget = Budget()
    embed = budget.embed(
        title=_("Replay of game #{game} · step {step} of {steps}", game=record.id, step=index + 1, steps=len(found)),
        color=COLOR,
    )
    budget.reserve(HANDS_ROOM)  # the hands, which the game adds after the step's lines
    budget.describe(
        embed, step.lines[-15:] or ["—"], last=True, tail=lambda left: _("({left} earlier lines)", left=left)
    )
    replayer_of(kind).add_hands(embed, _at(kind, record, step.actions), names)
    fit(embed)
    return embed
