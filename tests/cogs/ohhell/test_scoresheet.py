"""``/ohhell scores`` shows the score sheet deal by deal (bid/won and the change for each player,
the totals under it) with a chart of the running totals, during a game and after it; the final
standings carry the chart too."""

from __future__ import annotations

import re

from tests.helpers import OhHellDriver, open_table


def _sheet_rows(description: str) -> dict[int, list[str]]:
    """Deal number -> its cells as ``bid/won``, ``change`` pairs flattened (``·``, ``0`` for a seat
    out of that deal), from the sheet's lines ("**2** (2 cards): ann 1/1 +11 · bob · · …")."""
    rows = {}
    for line in description.splitlines():
        found = re.match(r"\*\*(\d+)\*\*[^:]*: (.*)$", line)
        if found:
            cells = [part.split()[-2:] if part.split()[-1] != "·" else ["·", "0"] for part in found[2].split(" · ")]
            rows[int(found[1])] = [x for cell in cells for x in cell]
    return rows


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


# -- the sheet fits a phone and names every seat ---------------------------------------------------
LONG = ("Alexandra the Great", "Computer 1 (strong)", "Computer 2 (strong)", "Computer 3 (strong)",
        "Alexandra Hamilton", "Computer 4 (quick)", "bo")  # fmt: skip


def test_fitted_names_are_distinct_and_fit():
    from draw.faces import font
    from draw.images import fit_names

    for width in (40, 60, 76, 100):
        fitted = fit_names(LONG, width)
        assert len(set(fitted)) == len(LONG), fitted
        assert all(font(12).getlength(n) <= width or len(n) <= 3 for n in fitted), (width, fitted)
    assert fit_names(LONG, 200)[1:3] == ("Computer 1", "Computer 2")  # the level goes first
    assert fit_names(("Computer 1 (strong)", "Computer 1 (quick)"), 400) == (
        "Computer 1 (strong)",
        "Computer 1 (quick)",
    )


def test_the_sheet_picture_fits_a_phone_with_seven_players_and_twenty_deals():
    import io

    from PIL import Image

    from cogs.ohhell.scoresheet import DealRow, running_totals, scoresheet

    rows = [
        DealRow(d, 10, tuple((1, 1 + (d + s) % 2, 10 if (d + s) % 2 else -10) for s in range(7))) for d in range(1, 21)
    ]
    rendered = scoresheet("Oh Hell scores", LONG, rows)
    image = Image.open(io.BytesIO(rendered.files[0].data))
    assert image.width <= 800, image.size
    text = rendered.embeds[0].description
    for name in LONG:  # every seat by its whole name in the words
        assert name in text
    assert running_totals(rows, 7)[-1][0] == sum(r.cells[0][2] for r in rows)
    # stored rows have no hand size: no empty "cards" column (the players' columns take its room)
    bare = [DealRow(r.deal, None, r.cells) for r in rows]
    assert Image.open(io.BytesIO(scoresheet("x", LONG, bare).files[0].data)).width <= 800


def test_equal_totals_draw_side_by_side_and_the_key_stays_inside():
    import io

    from PIL import Image

    from draw.images import PALETTE, scores_chart_png

    names = ("Computer 1 (strong)", "Computer 2 (strong)", "ann")
    totals = ((10, 10, 0), (20, 20, -10))
    image = Image.open(io.BytesIO(scores_chart_png(names, totals))).convert("RGB")

    def near(c, p):
        return sum(abs(a - b) for a, b in zip(c, p, strict=True)) < 30

    # Pillow 12.1 renamed getdata (deprecated, gone in Pillow 14); the project allows Pillow 10.1 on
    pixels = list(getattr(image, "get_flattened_data", image.getdata)())
    for seat in range(3):  # every player's line shows (none hidden under another's)
        assert sum(1 for c in pixels if near(c, PALETTE[seat])) > 150, seat
