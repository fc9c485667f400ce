"""Oh Hell's coach (:mod:`games.ohhell.analysis`) as the runtime runs it
(:class:`bot.seam.coaching.Coaching`): each deal replayed by the computers in worker processes, and
the page that puts luck against skill in words."""

from __future__ import annotations

from typing import Any

import discord

from bot.fairness.beacon.binding import deal_seed_of
from bot.seam.coaching import Coaching, CoachPage
from db.records import GameRecord
from draw.budget import Budget
from draw.cards import label
from draw.common import COLOR
from games.ohhell.analysis import VERSION, AnalysisConfig, DealTask, analyse_deal, deal_tasks, summarise
from locales import N_, _, decimal, ngettext, translate


def _plan(record: GameRecord, config: AnalysisConfig) -> tuple[list[DealTask], None]:
    players, seed = len(record.seats), deal_seed_of(record)
    return deal_tasks(record.rules or {}, players, seed, record.rng_version, record.actions, config), None


def _summarise(
    parts: list[dict[str, Any]], record: GameRecord, context: None, config: AnalysisConfig
) -> dict[str, Any]:
    return summarise(parts, len(record.seats), config)


#: the coach's page, before the ranking (measured with it)
INTRO = N_(
    "Ranked by luck-adjusted score: the points taken, less the luck. **Choices** are the points"
    " your bids and cards won or lost against the quick computer's choice at the same moment, judged from"
    " what you could see; the **luck** is a share of the rest of your lead over the table's average (the"
    " cards, the others' play)."
)
FOOTER = N_("bid/won (the strong computer's bid): points vs the hand's worth in computer replays")
#: said in the footer when the page left something out: the file holds the whole analysis
IN_FILE = N_("the whole analysis is in the attached file")


def in_file(left: int) -> str:
    """The tail of a list the page cut short."""
    return _("… {n} more in the attached file", n=left)


def analysis_page(record: GameRecord, data: dict[str, Any]) -> CoachPage:
    """The coach's page, built within one message's limits (:class:`draw.budget.Budget`): the
    ranking first, then the misbids, the costliest cards and as many deals as fit; a long game
    (seven players, many deals, long names) has the rest said in the page and the whole analysis
    in a text file beside it."""
    names = [s.name for s in record.seats]
    lines = [
        _(
            "{n}. **{name}**: {total} points, choices {choices}, luck {luck} → **{adjusted}** adjusted",
            n=n,
            name=names[p["seat"]],
            total=p["total"],
            choices=decimal(p.get("decisions", 0.0), 1, signed=True),
            luck=decimal(p["luck"], 1, signed=True),
            adjusted=decimal(p["adjusted"], 1),
        )
        for n, p in enumerate(data["players"], start=1)
    ]
    footer, in_whole = translate(FOOTER), " · " + translate(IN_FILE)
    budget = Budget()
    budget.reserve(len(footer) + len(in_whole))
    embed = budget.embed(title=_("🧑‍🏫 The coach on game #{id}", id=record.id), color=COLOR)
    budget.describe(embed, [translate(INTRO), *lines])
    misbids = [
        _(
            "Deal {deal}: {name} bid {bid} and took {tricks} ({score}); the strong computer bid {expected}",
            deal=m["deal"],
            name=names[m["seat"]],
            bid=m["bid"],
            tricks=m["tricks"],
            score=format(m["score"], "+d"),
            expected=m["expected_tricks"],
        )
        for m in data["misbids"]
    ]
    budget.field(
        embed,
        _("Biggest misbids"),
        misbids,
        empty=_("None: no bid missed where the strong computer bid otherwise."),
        tail=in_file,
    )
    costly = [
        _(
            "Deal {deal}: {name} played {card}; {better} scored {loss} more on average",
            deal=c["deal"],
            name=names[c["seat"]],
            card=label(c["card"]),
            better=label(c["better"]),
            loss=decimal(c["loss"], 1),
        )
        for c in data["costly_cards"]
    ]
    budget.field(embed, _("Costliest cards"), costly, empty=_("None found."), tail=in_file)
    deals = []
    for deal in data["deals"]:
        parts = [
            _(
                "{name} {bid}/{tricks} (computer {expected}): {score} vs worth {worth}",
                name=names[r["seat"]],
                bid=r["bid"],
                tricks=r["tricks"],
                expected=r["expected_tricks"],
                score=format(r["score"], "+d"),
                worth=decimal(r["expected_score"], 1, signed=True),
            )
            for r in deal["rows"]
        ]
        deals.append(f"**{deal['deal']}** ({deal['hand_size']}): " + " · ".join(parts))
    budget.fields(
        embed,
        _("Deal by deal"),
        deals,
        tail=lambda left: ngettext(
            "… {n} more deal in the attached file", "… {n} more deals in the attached file", left
        ),
    )
    budget.footer(embed, footer + (in_whole if budget.cut else ""))
    return CoachPage(embed, budget.attachment(f"analysis-game-{record.id}.txt"))


def analysis_embed(record: GameRecord, data: dict[str, Any]) -> discord.Embed:
    """The coach's page alone (its embed)."""
    return analysis_page(record, data).embed


COACHING = Coaching(
    version=VERSION, config=AnalysisConfig(), plan=_plan, work=analyse_deal, summarise=_summarise, page=analysis_page
)
