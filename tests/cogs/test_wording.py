"""Counts read as English wherever a message prints one: "1 card", never "1 cards"; an extra deal
is not "deal 2 of 1"; "1 deal", not "deal(s)" (issue 13, defect 10)."""

from __future__ import annotations

import re

import discord

from bot.render.common import count
from cogs.ohhell.render import deal_notes, deal_result_embed, deal_title, scoreboard_embed, table_embed
from cogs.shithead.render import final_embed
from games.common.engine import Event
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules
from games.shithead.game import Shithead
from games.shithead.rules import make_rules as shithead_rules

BAD = re.compile(r"\b1 (cards|tricks|deals)\b|\(s\)|deal (\d+) of (\d+)")


def text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def no_bad_counts(words: str) -> None:
    for match in BAD.finditer(words):
        if match.group(2):  # "deal X of Y": X may not pass Y
            assert int(match.group(2)) <= int(match.group(3)), words
        else:
            raise AssertionError(f"{match.group(0)!r} in {words!r}")


def test_count_says_one_thing_or_several():
    assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert count(1, "deal") == "1 deal" and count(3, "play-off", "play-offs") == "3 play-offs"


def one_card_game() -> OhHell:
    return OhHell.new(make_rules("classic", sequence="fixed", fixed_hands="1"), 3, 5)


def test_a_one_card_deal_reads_one_card_and_one_trick():
    game = one_card_game()
    view = game.view(None)
    title, table = deal_title(view), text(table_embed(view, str, []))
    assert "1 card" in title and "for 1 trick" in table
    no_bad_counts(title + table)


def test_an_extra_deal_is_not_deal_two_of_one():
    view = dict(one_card_game().view(None), deal=2, deal_kind="extra")
    title = deal_title(view)  # type: ignore[arg-type]
    assert "deal 2" in title and "of 1" not in title and "extra deal" in title


def test_deal_notes_results_and_scores_after_one_deal():
    game = one_card_game()
    events: list[Event] = []
    while game.deal_no == 1 and not game.is_over:
        seat = game.to_act()[0]
        game, new = game.apply(seat, game.legal_actions(seat)[0])
        events += new
    scored = next(e.data for e in events if e.kind == "deal_scored")
    words = text(deal_result_embed(scored, str, None)) + text(scoreboard_embed(game.view(None), str))
    extra = Event("extra_deal", {"leaders": [0, 1], "total": 10, "hand_size": 1})
    words += "\n".join(deal_notes([extra], str))
    assert "(1 card)" in words and "after 1 deal" in words and "one more deal of 1 card." in words
    no_bad_counts(words)


def test_shithead_cards_left_reads_one_card():
    game = Shithead.new(shithead_rules("winner"), 3, 1)
    view = game.view(None)
    words = text(final_embed(view, str, [0], {0: 0, 1: 1, 2: 2}))
    assert "1 card left" in words and "2 cards left" in words
    no_bad_counts(words)
    view = Shithead.new(shithead_rules("pagat"), 3, 1).view(None)
    words = text(final_embed(dict(view, loser=1), str, [0, 2, 1], {0: 0, 1: 1, 2: 0}))  # type: ignore[arg-type]
    assert "is the shithead (1 card left)" in words
