"""The Shithead table and panels over many states of every preset, without Discord: they stay
within Discord's limits, the panel can express every legal move, and nothing hidden shows.

The SimCord tests play a few whole games through the real bot; this sweeps far more states
(long pick-up hands, runs, several packs, jokers, the choosing deal) in a fraction of the time.
"""

from __future__ import annotations

import io
import random

import discord
import pytest
from PIL import Image

from bot.seam.contract import LiveTable
from cogs.shithead.kind import ShitheadKind
from cogs.shithead.panel import panel
from cogs.shithead.panel_choices import cards_of, play_options
from cogs.shithead.pictures import table_png
from db.records import GameRecord, SeatRecord
from draw.cards import label
from games.common.cards import card_label, is_joker
from games.shithead.ai import choose_action, random_action
from games.shithead.game import Shithead
from games.shithead.rules import PRESETS, make_rules
from tests.helpers import card_faces

KIND = ShitheadKind(bot=None)  # type: ignore[arg-type]


def live_table(engine: Shithead, computers: set[int] = frozenset()) -> LiveTable:
    seats = [
        SeatRecord(s, None if s in computers else 1000 + s, f"P{s}", "strong" if s in computers else None)
        for s in range(engine.seats)
    ]
    record = GameRecord(7, "shithead", 1, 2, 1000, "playing", "pagat", {}, engine.rules.to_json(), engine.seed, None, 3)
    record.seats = seats
    return LiveTable(record=record, kind=KIND, rules=engine.rules, engine=engine)


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        parts += [f.name, f.value]
    return "\n".join(parts)


def check_limits(rendered) -> None:
    for embed in rendered.embeds:
        assert len(embed.description or "") <= 4096
        assert len(embed.fields) <= 25
        for f in embed.fields:
            assert 0 < len(f.value) <= 1024 and len(f.name) <= 256
        assert len(embed) <= 6000
    assert rendered.content is None or len(rendered.content) <= 2000
    view = rendered.view
    if view is None:
        return
    rows: dict[int, int] = {}
    for item in view.children:
        inner = getattr(item, "item", item)
        assert len(inner.custom_id) <= 100, inner.custom_id
        if isinstance(inner, discord.ui.Select):
            assert 1 <= len(inner.options) <= 25 and inner.max_values <= len(inner.options)
            assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in inner.options)
            rows[inner.row if inner.row is not None else 0] = 5
        else:
            assert len(inner.label or "") <= 80
            row = inner.row if inner.row is not None else 0
            rows[row] = rows.get(row, 0) + 1
    assert len(rows) <= 5 and all(width <= 5 for width in rows.values())


def components(rendered) -> dict[str, discord.ui.Item]:
    return {
        getattr(i, "item", i).custom_id: getattr(i, "item", i)
        for i in (rendered.view.children if rendered.view else [])
    }


def faces(codes) -> set[str]:
    return {label(c) for c in codes if not c.startswith("X")}


def public_faces(engine: Shithead, events) -> set[str]:
    out = set()
    for e in events:
        if e.seat is not None:
            continue
        d = e.data
        if e.kind == "dealt":
            out |= {c for cards in d["face_up"].values() for c in faces(cards)}
        elif e.kind == "swap":
            out |= faces([d["to_up"], d["to_hand"]])
        elif e.kind in ("chose_up", "played", "picked_up"):
            out |= faces(d["cards"])
        elif e.kind in ("flipped", "stacked"):  # a Karma stack puts its card face up
            out |= faces([d["card"]])
    return out


CASES = [(preset, n) for preset in PRESETS for n in sorted({2, PRESETS[preset].player_range()[1]})]
CASES += [("pagat:deal=choose", 3), ("pagat:runs=on,decks=3,jokers=6", 4), ("pagat:refusal=keep-up", 3)]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_every_state_renders_within_limits_and_hides_what_it_must(preset: str, players: int) -> None:
    name, _, extra = preset.partition(":")
    options = dict(kv.split("=") for kv in extra.split(",")) if extra else {}
    rules = make_rules(name, **options)
    for seed in (players,):
        rng = random.Random(seed)
        engine = Shithead.new(rules, players, seed)
        table = live_table(engine, computers={players - 1})
        public = public_faces(engine, engine.deal_events())
        held: list[set[str]] = [set() for _ in range(players)]
        steps = 0
        while not engine.is_over and steps < 400:
            for s in range(players):
                held[s] |= {card_label(c) for c in engine.hand[s] if not is_joker(c)}
            shown = KIND.table(table, [])
            check_limits(shown)
            text = (shown.content or "") + "\n".join(embed_text(e) for e in shown.embeds)
            assert card_faces(text) <= public, card_faces(text) - public
            seat = engine.to_act()[0]
            view = engine.view(seat)
            mine = panel(table, seat)
            check_limits(mine)
            assert card_faces(embed_text(mine.embeds[0])) <= public | held[seat]
            ids = components(mine)
            # Every legal move can be made from the panel (a computer's seat shows none).
            assert (seat == players - 1) is ("🤖" in embed_text(mine.embeds[0]))
            for action in view["legal"] if seat != players - 1 else []:
                kind = action["type"]
                if kind == "play":
                    opts = play_options(view)
                    merged = any(len(o.codes) > 1 for o in opts)
                    covering = [i for i, o in enumerate(opts) if set(o.codes) & set(action["cards"])]
                    cards = cards_of(opts, sum(1 << i for i in covering))
                    assert merged or sorted(cards) == sorted(action["cards"]), (action, opts)
                    armed = panel(table, seat, mask=sum(1 << i for i in covering))
                    check_limits(armed)
                    assert any(
                        ":play:" in c and getattr(i, "disabled", True) is False for c, i in components(armed).items()
                    )
                elif kind == "pickup" and "add" in action:  # one press: "Add 7♠, pick up"
                    assert any(c.endswith(f":add:{action['add']}") for c in ids)
                elif kind == "pickup":
                    assert any(":pick:" in c for c in ids)
                elif kind == "flip":
                    assert any(c.endswith(f":flip:{action['index']:x}") for c in ids)
                elif kind == "swap":
                    select = next(i for c, i in ids.items() if c.endswith(":swap"))
                    assert f"{action['hand']}>{action['up']}" in [o.value for o in select.options]
                elif kind == "ready":
                    assert any(":ready:" in c for c in ids)
                elif kind == "choose_up":
                    select = next(i for c, i in ids.items() if c.endswith(":choose"))
                    assert set(action["cards"]) <= {o.value for o in select.options}
            if steps % 3 == 0:
                action = random_action(view, rng)
            else:
                action = choose_action(view, rng)
            _, events = engine.apply(seat, action)
            public |= public_faces(engine, events)
            steps += 1
        final = KIND.closing(table, [])
        check_limits(final)
        if engine.is_over:
            results = KIND.results(table)
            assert sorted(r.place for r in results)[0] == 1
            assert sum(r.is_loser for r in results) == (1 if rules.goal == "loser" else 0)
            check_limits(KIND.finale(table, results))


def test_a_huge_hand_merges_the_biggest_ranks_into_single_options() -> None:
    """Past 25 playable cards, whole ranks become one option each, biggest first, until it fits."""
    hand = [f"{r}{s}" for r in ("3", "4", "5", "6", "7", "8", "9") for s in "CDHS"]  # 28 cards
    hand += ["JC#1", "JC"]
    legal = [{"type": "play", "cards": [c]} for c in hand]
    view = {"legal": legal, "zone": "hand", "hand": hand, "viewer": 0, "seats": [{"face_up": []}]}
    options = play_options(view)
    assert len(options) <= 25
    merged = [o for o in options if len(o.codes) > 1]
    assert merged and all(len({label(c)[:-1] for c in o.codes}) == 1 for o in merged)
    assert sorted(c for o in options for c in o.codes) == sorted(hand)  # every card still offered
    assert max(len(o.codes) for o in merged) >= max((len(o.codes) for o in options if len(o.codes) == 1), default=1)
    assert len(merged[0].value) <= 100 and "all" in merged[0].text


def _png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_shithead_table_picture_rows_per_seat():
    seat = ("ann", ("AS", "KD"), 3, 4, False, True)
    two = _png(table_png(("7D", "8C"), 2, "8C", (seat, ("bob", (), 3, 5, False, False))))
    three = _png(table_png(("7D", "8C"), 2, "8C", (seat, seat, seat)))
    assert three.height > two.height
    empty = _png(table_png((), 0, None, (seat,)))
    assert empty.width > 0
