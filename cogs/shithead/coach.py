"""Shithead's coach (:mod:`games.shithead.analysis`) as the runtime runs it
(:class:`bot.coaching.Coaching`), and its page (the figures in words).

Every figure is a chance of a good result (of not being the shithead, or of winning when the
table plays for a winner), so the page says chances in percent and their differences in points.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.beacon.binding import deal_seed_of
from bot.coaching import Coaching, CoachPage
from db.store import GameRecord
from draw.budget import Budget
from draw.cards import label, labels
from draw.common import COLOR
from games.shithead import analysis as sh

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
#: said in the footer when the page left something out: the file holds the whole analysis
IN_FILE = " · the whole analysis is in the attached file"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _pts(x: float) -> str:
    return f"{round(100 * x) + 0:+d} pts"  # + 0: no "-0" for a hair below nothing


def action_text(action: dict[str, Any], pile: int, top: str | None) -> str:
    """What a decision was, as the table saw it."""
    if action.get("type") == "pickup":
        text = f"picked up the pile ({pile} card{'s' if pile != 1 else ''}"
        text += f", {label(top)} on top)" if top else ")"
        if action.get("add"):
            text += f" adding {label(action['add'])}"
        return text
    return f"played {labels(action.get('cards', []))}" + (f" on {label(top)}" if top else " on an empty pile")


def _short(action: dict[str, Any]) -> str:
    if action.get("type") == "pickup":
        return "picking up"
    return f"playing {labels(action.get('cards', []))}"


def _verdict(loss: float) -> str:
    if round(100 * loss) == 0:
        return "no difference"
    return f"cost {100 * loss:.0f} pts" if loss > 0 else f"gained {-100 * loss:.0f} pts"


def decision_line(names: list[str], d: dict[str, Any]) -> str:
    """``Move N: who did what: their chance against the best alternative's — the verdict``."""
    return (
        f"Move {d['index']}: {names[d['seat']]} {action_text(d['action'], d['pile'], d['top'])}:"
        f" {_pct(d['chance'])} against {_pct(d['better_chance'])} for {_short(d['better'])}"
        f" — {_verdict(d['loss'])}"
    )


def in_file(left: int) -> str:
    """The tail of a list the page cut short."""
    return f"… {left} more in the attached file"


def shithead_page(record: GameRecord, data: dict[str, Any]) -> CoachPage:
    """The coach's page within one message's limits (:class:`draw.budget.Budget`): the standings
    first, then each list as far as it fits; what does not is in a text file beside it."""
    names = [s.name for s in record.seats]
    winner = data.get("goal") == "winner"
    good = "winning" if winner else "not being the shithead"
    lines = []
    for n, p in enumerate(data["players"], start=1):
        if winner:
            outcome = "won" if p["result"] else "did not win"
        else:
            place = ORDINALS.get(p["place"], f"{p['place']}th")
            outcome = f"{place} out" if p["result"] else "💩 the shithead"
        dealt = f"dealt cards worth {_pct(p['worth'])}, " if p.get("worth") is not None else ""
        if p["swap_worth"] is None and not p["decisions"]:  # not coached: a computer
            choices = "choices not weighed (the computer's)"
        else:
            choices = f"choices {_pts(p['skill'])} against the computer's"
        lines.append(
            f"{n}. **{names[p['seat']]}**: {outcome}; {dealt}{choices},"
            f" luck {_pts(p['luck'])} → **{round(p['adjusted'], 2) + 0.0:.2f}** adjusted"
        )
    weight = data["config"].get("luck_weight", 1.0)
    share = "" if weight == 1 else f"{100 * weight:.0f}% of "
    config = data["config"]
    footer = (
        f"Chances of {good} in {config['rollouts']} computer playouts from each position"
        f" ({config['luck_rollouts']} from the deal, for its worth), the unseen cards dealt again each time;"
        f" {data['decisions']} decisions weighed."
    )
    budget = Budget()
    budget.reserve(len(footer) + len(IN_FILE))
    embed = budget.embed(title=f"🧑‍🏫 The coach on game #{record.id}", color=COLOR)
    intro = (
        f"In finishing order, each with the luck-adjusted result: 1 for {good}, less the luck:"
        f" {share}whatever was not the player's own choices (the result above the table's average, less what"
        " the swap and the choices in play gained against the computer's, above the table's average;"
        " a computer's own choices gain nothing)."
    )
    budget.describe(embed, [intro, *lines])
    swaps = []
    for s in data["swaps"]:
        who = names[s["seat"]]
        if not s["chosen"]:
            continue
        dealt = f" (dealt {labels(s['dealt'])})" if s["dealt"] else ""
        if s["chance"] is None:
            swaps.append(f"{who} put {labels(s['chosen'])} face up{dealt}, as the computer would.")
        else:
            swaps.append(
                f"{who} put {labels(s['chosen'])} face up{dealt}: {_pct(s['chance'])} against"
                f" {_pct(s['computer_chance'])} for the computer's {labels(s['computer'])}"
                f" — {_verdict(-s['worth'])}"
            )
    budget.field(embed, "The swap", swaps, empty="No swap to weigh.", tail=in_file)
    pickups = [decision_line(names, d) for d in data["pickups"]]
    budget.field(
        embed,
        "Pick-ups with a play in hand",
        pickups,
        empty="None: nobody picked up while they could play.",
        tail=in_file,
    )
    plays = [decision_line(names, d) for d in data["plays_to_pick_up"]]
    budget.field(embed, "Plays where picking up did better", plays, empty="None found.", tail=in_file)
    costly = [decision_line(names, d) for d in data["costly"]]
    budget.field(embed, "Other costly decisions", costly, empty="None found.", tail=in_file)
    budget.footer(embed, footer + (IN_FILE if budget.cut else ""))
    return CoachPage(embed, budget.attachment(f"analysis-game-{record.id}.txt"))


def shithead_embed(record: GameRecord, data: dict[str, Any]) -> discord.Embed:
    """The coach's page alone (its embed)."""
    return shithead_page(record, data).embed


def _plan(record: GameRecord, config: sh.AnalysisConfig) -> tuple[list[Any], tuple[Any, Any]]:
    """The luck, each person's swap and decisions (computers are not coached, but ranked)."""
    people = [s.seat for s in record.seats if s.ai_level is None]
    players, seed = len(record.seats), deal_seed_of(record)
    tasks, order, goal = sh.plan(
        record.rules or {}, players, seed, record.rng_version, record.actions, config, people or None
    )
    return tasks, (order, goal)


def _summarise(
    parts: list[dict[str, Any]], record: GameRecord, context: tuple[Any, Any], config: sh.AnalysisConfig
) -> dict[str, Any]:
    order, goal = context
    return sh.summarise(parts, len(record.seats), order, goal, config)


COACHING = Coaching(
    version=sh.VERSION,
    config=sh.AnalysisConfig(),
    plan=_plan,
    work=sh.run_task,
    summarise=_summarise,
    page=shithead_page,
)
