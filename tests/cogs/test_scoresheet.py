"""``/ohhell scores`` shows the score sheet deal by deal (bid/won and the change for each player,
the totals under it) with a chart of the running totals, during a game and after it; the final
standings carry the chart too."""

from __future__ import annotations

import pytest

from cogs.ohhell.scoresheet import CELL
from tests.helpers import OhHellDriver, open_table


def _sheet_rows(description: str) -> dict[int, list[str]]:
    """Deal number -> its cells as ``bid/won``, ``change`` pairs flattened (``·``, ``·`` for a seat
    out of that deal), from the sheet's fixed-width code block."""
    rows = {}
    for line in description.split("```")[1].strip().splitlines():
        if line[:4].strip().isdigit():
            cells = [line[i : i + CELL].split() for i in range(11, len(line), CELL)]
            rows[int(line[:4])] = [part for cell in cells for part in (cell if len(cell) == 2 else ["·", "0"])]
    return rows


@pytest.mark.simcord(settle_timeout=0.5)
async def test_scores_show_every_deal_and_a_chart(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3,2,1"})
    table = env.bot.tables.in_channel(channel.id)
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=3)
    while table.engine.view(None)["deal"] < 3:
        await driver.step()
    during = await people[1].slash(channel, "ohhell scores")
    assert during.ephemeral
    board = during.response.embeds[0]
    history = table.engine.view(None)["history"]
    rows = _sheet_rows(board.description)
    assert sorted(rows) == [1, 2]
    for entry in history:
        cells = rows[entry["deal"]]
        for seat in range(3):
            assert cells[2 * seat] == f"{entry['bids'][seat]}/{entry['tricks'][seat]}"
            assert int(cells[2 * seat + 1]) == entry["scores"][seat]
    assert board.image.url.endswith("scores.png")
    assert [a.filename for a in during.response.attachments] == ["scores.png"]

    await driver.play_to_end()
    final = channel.last_message
    assert "Game over" in final.content and [a.filename for a in final.attachments] == ["scores.png"]
    after = await people[2].slash(channel, "ohhell scores")
    board = after.response.embeds[0]
    rows = _sheet_rows(board.description)
    stored = await env.bot.store.deal_scores(table.id)
    assert sorted(rows) == sorted({s.deal for s in stored}) and len(rows) >= 3  # ties add deals
    for score in stored:
        cells = rows[score.deal]
        assert int(cells[2 * score.seat + 1]) == score.delta
    results = await env.bot.store.results(table.id)
    assert all(f"**{r.total}**" in board.description for r in results)
    assert [a.filename for a in after.response.attachments] == ["scores.png"]
