"""A finished game replayed step by step for ``/ohhell replay`` and ``/shithead replay``, and its
hand history file (:mod:`games.replay` reads it back).

The steps are recomputed from the stored game on every page turn (rules, seed, actions: a few
milliseconds), so a page needs nothing but the game id and the step number, which the Prev/Next
buttons carry in their custom ids: they keep working after a restart.

Oh Hell: a step is a deal dealt, its bids, each trick, and its scores; every hand is shown as it
stands at that step. Shithead: a step is one action (a swap, a play, a pick-up…), with every
hand, face-up and face-down card shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.render.cards import label, labels, suit_symbol
from bot.render.common import COLOR
from db.store import GameRecord, ResultRow
from games.common.engine import Engine, Event
from games.ohhell.game import OhHell
from games.replay import FORMAT, VERSION, rebuild
from games.shithead.game import Shithead
from games.shithead.hands import codes

#: Oh Hell events that close a step
_STEP_ENDS = {"bids_revealed", "trick_won", "deal_scored"}


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
        "seed": record.seed,
        "rng_version": record.rng_version,
        "seats": [{"seat": s.seat, "name": s.name, "computer": s.ai_level} for s in record.seats],
        "actions": [{"seat": seat, "action": action} for seat, action in record.actions],
        "results": [
            {"seat": r.seat, "name": r.name, "place": r.place, "total": r.total, "is_loser": r.is_loser}
            for r in sorted(results, key=lambda r: r.seat)
        ],
        "finished_at": finished_at,
    }


def _start(record: GameRecord) -> Engine:
    return rebuild({**hand_history(record, []), "actions": []})


def steps(record: GameRecord) -> list[Step]:
    """Every step of a finished game, the start first (engines change in place as they apply
    actions, so a step keeps its action count, and :func:`page` replays to it)."""
    engine = _start(record)
    names = [s.name for s in record.seats]
    found = [Step(0, _start_lines(engine, names))]
    pending: list[str] = []
    for index, (seat, action) in enumerate(record.actions, start=1):
        engine, events = engine.apply(seat, action)
        pending.extend(_event_lines(engine, events, names))
        if isinstance(engine, Shithead) or any(e.kind in _STEP_ENDS for e in events) or engine.is_over:
            found.append(Step(index, pending))
            pending = []
    return found


def _at(record: GameRecord, actions: int) -> Engine:
    engine = _start(record)
    for seat, action in record.actions[:actions]:
        engine, _ = engine.apply(seat, action)
    return engine


def _deal_line(deal: int, cards: int, dealer: str, trump: str | None) -> str:
    return f"Deal {deal}: {cards} card{'s' if cards != 1 else ''}, {dealer} deals, trumps {suit_symbol(trump)}"


def _start_lines(engine: Engine, names: list[str]) -> list[str]:
    if isinstance(engine, OhHell):
        view = engine.view(None)
        return [_deal_line(view["deal"], view["hand_size"], names[view["dealer"]], view["trump"])]
    return ["The deal: every player swaps, then play starts."]


def _event_lines(engine: Engine, events: list[Event], names: list[str]) -> list[str]:
    lines = []
    for event in events:
        if event.seat is not None:
            continue  # a private event; the hands are shown below anyway
        d = event.data
        if event.kind == "deal_started":
            lines.append(_deal_line(d["deal"], d["hand_size"], names[d["dealer"]], d["trump"]))
        elif event.kind == "bid":
            lines.append(f"{names[d['seat']]} bids {d['bid']}")
        elif event.kind == "bids_revealed":
            lines.append("Bids: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(d["bids"]) if b is not None))
        elif event.kind == "card_played":
            lines.append(f"{names[d['seat']]} plays {label(d['card'])}")
        elif event.kind == "trick_won":
            lines.append(f"**{names[d['seat']]} wins the trick**")
        elif event.kind == "deal_scored":
            lines.append(
                "Scores: "
                + ", ".join(
                    f"{names[s]} {score:+d} ({total})"
                    for s, (score, total) in enumerate(zip(d["scores"], d["totals"], strict=True))
                    if score is not None
                )
            )
        elif event.kind == "game_over":
            lines.append("🏁 Game over")
    if isinstance(engine, Shithead) and not lines:
        recent = engine.view(None)["recent"]
        if recent:
            lines.append(f"{names[recent[-1]['seat']]} {recent[-1]['text']}")
    return lines


def page(record: GameRecord, found: list[Step], index: int) -> discord.Embed:
    """Step ``index`` of the replay: what happened, then every hand as it stands."""
    step = found[index]
    names = [s.name for s in record.seats]
    embed = discord.Embed(
        title=f"Replay of game #{record.id} · step {index + 1} of {len(found)}",
        description="\n".join(step.lines[-15:])[:4000] or "—",
        color=COLOR,
    )
    engine = _at(record, step.actions)
    if isinstance(engine, OhHell):
        view = engine.view(None)
        for seat, name in enumerate(names):
            bid = view["bids"][seat]
            head = f"{name} · total {view['totals'][seat]}"
            if bid is not None:
                head += f" · bid {bid}, won {view['tricks'][seat]}"
            embed.add_field(name=head, value=labels(engine.hand(seat)) or "*(no cards)*", inline=False)
    elif isinstance(engine, Shithead):
        for seat, name in enumerate(names):
            down = [c for c in engine.down[seat] if c is not None]
            value = (
                f"hand: {labels(codes(engine.hand[seat])) or '—'}\n"
                f"face up: {labels(codes(engine.up[seat])) or '—'} · face down: {labels(codes(down)) or '—'}"
            )
            embed.add_field(name=name, value=value[:1024], inline=False)
        pile = engine.view(None)["pile"]
        embed.add_field(name="Pile", value=labels(pile[-8:]) or "empty", inline=False)
    return embed
