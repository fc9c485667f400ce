"""Oh Hell's coach (:mod:`games.ohhell.analysis`) as the runtime runs it
(:class:`bot.coaching.Coaching`): each deal replayed by the computers in worker processes, and
the page that puts luck against skill in words."""

from __future__ import annotations

from typing import Any

import discord

from bot.beacon.binding import deal_seed_of
from bot.coaching import Coaching
from db.store import GameRecord
from draw.cards import label
from draw.common import COLOR
from games.ohhell.analysis import VERSION, AnalysisConfig, DealTask, analyse_deal, deal_tasks, summarise


def _plan(record: GameRecord, config: AnalysisConfig) -> tuple[list[DealTask], None]:
    players, seed = len(record.seats), deal_seed_of(record)
    return deal_tasks(record.rules or {}, players, seed, record.rng_version, record.actions, config), None


def _summarise(
    parts: list[dict[str, Any]], record: GameRecord, context: None, config: AnalysisConfig
) -> dict[str, Any]:
    return summarise(parts, len(record.seats), config)


def analysis_embed(record: GameRecord, data: dict[str, Any]) -> discord.Embed:
    names = [s.name for s in record.seats]
    lines = [
        f"{n}. **{names[p['seat']]}**: {p['total']} points, choices {p.get('decisions', 0.0):+.1f},"
        f" luck {p['luck']:+.1f} → **{p['adjusted']:.1f}** adjusted"
        for n, p in enumerate(data["players"], start=1)
    ]
    embed = discord.Embed(
        title=f"🧑‍🏫 The coach on game #{record.id}",
        description="Ranked by luck-adjusted score: the points taken, less the luck. **Choices** are the points"
        " your bids and cards won or lost against the quick computer's choice at the same moment, judged from"
        " what you could see; the **luck** is a share of the rest of your lead over the table's average (the"
        " cards, the others' play).\n" + "\n".join(lines),
        color=COLOR,
    )
    misbids = [
        f"Deal {m['deal']}: {names[m['seat']]} bid {m['bid']} and took {m['tricks']} ({m['score']:+d});"
        f" the strong computer bid {m['expected_tricks']}"
        for m in data["misbids"]
    ]
    embed.add_field(
        name="Biggest misbids",
        value="\n".join(misbids) or "None: no bid missed where the strong computer bid otherwise.",
        inline=False,
    )
    costly = [
        f"Deal {c['deal']}: {names[c['seat']]} played {label(c['card'])}; {label(c['better'])}"
        f" scored {c['loss']:.1f} more on average"
        for c in data["costly_cards"]
    ]
    embed.add_field(name="Costliest cards", value="\n".join(costly) or "None found.", inline=False)
    chunk: list[str] = []
    fields = 0
    for deal in data["deals"]:
        parts = [
            f"{names[r['seat']]} {r['bid']}/{r['tricks']} (computer {r['expected_tricks']}):"
            f" {r['score']:+d} vs worth {r['expected_score']:+.1f}"
            for r in deal["rows"]
        ]
        line = f"**{deal['deal']}** ({deal['hand_size']}): " + " · ".join(parts)
        if sum(len(x) + 1 for x in chunk) + len(line) > 1000:
            embed.add_field(name="Deal by deal" if fields == 0 else "…", value="\n".join(chunk), inline=False)
            fields += 1
            chunk = []
        chunk.append(line[:1000])
        if fields >= 20:
            break
    if chunk and fields < 21:
        embed.add_field(name="Deal by deal" if fields == 0 else "…", value="\n".join(chunk), inline=False)
    embed.set_footer(text="bid/won (the strong computer's bid): points vs the hand's worth in computer replays")
    return embed


COACHING = Coaching(
    version=VERSION, config=AnalysisConfig(), plan=_plan, work=analyse_deal, summarise=_summarise, embed=analysis_embed
)
