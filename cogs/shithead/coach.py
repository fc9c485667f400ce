"""Shithead's coach (:mod:`games.shithead.analysis`) as the runtime runs it
(:class:`bot.seam.coaching.Coaching`), and its page (the figures in words).

Every figure is a chance of a good result (of not being the shithead, or of winning when the
table plays for a winner), so the page says chances in percent and their differences in points.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.fairness.beacon.binding import deal_seed_of
from bot.seam.coaching import Coaching, CoachPage
from db.records import GameRecord
from draw.budget import Budget
from draw.cards import label, labels
from draw.common import COLOR, ordinal
from games.shithead import analysis as sh
from locales import N_, _, decimal, ngettext, translate

#: said in the footer when the page left something out: the file holds the whole analysis
IN_FILE = N_("the whole analysis is in the attached file")


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _pts(x: float) -> str:
    return _("{points} pts", points=f"{round(100 * x) + 0:+d}")  # + 0: no "-0" for a hair below nothing


def action_text(action: dict[str, Any], pile: int, top: str | None) -> str:
    """What a decision was, as the table saw it."""
    if action.get("type") == "pickup":
        if top:
            text = ngettext(
                "picked up the pile ({n} card, {top} on top)",
                "picked up the pile ({n} cards, {top} on top)",
                pile,
                top=label(top),
            )
        else:
            text = ngettext("picked up the pile ({n} card)", "picked up the pile ({n} cards)", pile)
        if action.get("add"):
            text += " " + _("adding {card}", card=label(action["add"]))
        return text
    cards = labels(action.get("cards", []))
    if top:
        return _("played {cards} on {top}", cards=cards, top=label(top))
    return _("played {cards} on an empty pile", cards=cards)


def _short(action: dict[str, Any]) -> str:
    if action.get("type") == "pickup":
        return _("picking up")
    return _("playing {cards}", cards=labels(action.get("cards", [])))


def _verdict(loss: float) -> str:
    if round(100 * loss) == 0:
        return _("no difference")
    if loss > 0:
        return _("cost {points} pts", points=f"{100 * loss:.0f}")
    return _("gained {points} pts", points=f"{-100 * loss:.0f}")


def decision_line(names: list[str], d: dict[str, Any]) -> str:
    """``Move N: who did what: their chance against the best alternative's — the verdict``."""
    return _(
        "Move {move}: {name} {action}: {chance} against {better_chance} for {better} — {verdict}",
        move=d["index"],
        name=names[d["seat"]],
        action=action_text(d["action"], d["pile"], d["top"]),
        chance=_pct(d["chance"]),
        better_chance=_pct(d["better_chance"]),
        better=_short(d["better"]),
        verdict=_verdict(d["loss"]),
    )


def in_file(left: int) -> str:
    """The tail of a list the page cut short."""
    return _("… {left} more in the attached file", left=left)


def shithead_page(record: GameRecord, data: dict[str, Any]) -> CoachPage:
    """The coach's page within one message's limits (:class:`draw.budget.Budget`): the standings
    first, then each list as far as it fits; what does not is in a text file beside it."""
    names = [s.name for s in record.seats]
    winner = data.get("goal") == "winner"
    good = _("winning") if winner else _("not being the shithead")
    lines = []
    for n, p in enumerate(data["players"], start=1):
        if winner:
            outcome = _("won") if p["result"] else _("did not win")
        else:
            outcome = _("{place} out", place=ordinal(p["place"])) if p["result"] else _("💩 the shithead")
        dealt = _("dealt cards worth {worth}, ", worth=_pct(p["worth"])) if p.get("worth") is not None else ""
        if p["swap_worth"] is None and not p["decisions"]:  # not coached: a computer
            choices = _("choices not weighed (the computer's)")
        else:
            choices = _("choices {points} against the computer's", points=_pts(p["skill"]))
        lines.append(
            _(
                "{n}. **{name}**: {outcome}; {dealt}{choices}, luck {luck} → **{adjusted}** adjusted",
                n=n,
                name=names[p["seat"]],
                outcome=outcome,
                dealt=dealt,
                choices=choices,
                luck=_pts(p["luck"]),
                adjusted=decimal(round(p["adjusted"], 2) + 0.0, 2),
            )
        )
    weight = data["config"].get("luck_weight", 1.0)
    share = "" if weight == 1 else _("{percent}% of ", percent=f"{100 * weight:.0f}")
    config = data["config"]
    footer = _(
        "Chances of {good} in {rollouts} computer playouts from each position ({luck_rollouts} from the deal,"
        " for its worth), the unseen cards dealt again each time; {decisions} decisions weighed.",
        good=good,
        rollouts=config["rollouts"],
        luck_rollouts=config["luck_rollouts"],
        decisions=data["decisions"],
    )
    in_file_note = " · " + translate(IN_FILE)
    budget = Budget()
    budget.reserve(len(footer) + len(in_file_note))
    embed = budget.embed(title=_("🧑‍🏫 The coach on game #{game}", game=record.id), color=COLOR)
    intro = _(
        "In finishing order, each with the luck-adjusted result: 1 for {good}, less the luck: {share}whatever was"
        " not the player's own choices (the result above the table's average, less what the swap and the choices"
        " in play gained against the computer's, above the table's average; a computer's own choices gain"
        " nothing).",
        good=good,
        share=share,
    )
    budget.describe(embed, [intro, *lines])
    swaps = []
    for s in data["swaps"]:
        who = names[s["seat"]]
        if not s["chosen"]:
            continue
        dealt = " " + _("(dealt {cards})", cards=labels(s["dealt"])) if s["dealt"] else ""
        if s["chance"] is None:
            swaps.append(
                _(
                    "{who} put {cards} face up{dealt}, as the computer would.",
                    who=who,
                    cards=labels(s["chosen"]),
                    dealt=dealt,
                )
            )
        else:
            swaps.append(
                _(
                    "{who} put {cards} face up{dealt}: {chance} against {computer_chance} for the computer's"
                    " {computer} — {verdict}",
                    who=who,
                    cards=labels(s["chosen"]),
                    dealt=dealt,
                    chance=_pct(s["chance"]),
                    computer_chance=_pct(s["computer_chance"]),
                    computer=labels(s["computer"]),
                    verdict=_verdict(-s["worth"]),
                )
            )
    budget.field(embed, _("The swap"), swaps, empty=_("No swap to weigh."), tail=in_file)
    pickups = [decision_line(names, d) for d in data["pickups"]]
    budget.field(
        embed,
        _("Pick-ups with a play in hand"),
        pickups,
        empty=_("None: nobody picked up while they could play."),
        tail=in_file,
    )
    plays = [decision_line(names, d) for d in data["plays_to_pick_up"]]
    budget.field(embed, _("Plays where picking up did better"), plays, empty=_("None found."), tail=in_file)
    costly = [decision_line(names, d) for d in data["costly"]]
    budget.field(embed, _("Other costly decisions"), costly, empty=_("None found."), tail=in_file)
    budget.footer(embed, footer + (in_file_note if budget.cut else ""))
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
