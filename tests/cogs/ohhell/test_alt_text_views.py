"""Each picture's alt text names exactly the cards its picture shows, read from the same view,
within Discord's 1,024 characters at seven seats with 32-character names; a hand's text goes only
with that hand's private picture. Whole games of the real engines, every state."""

from __future__ import annotations

import random
import re
from collections import Counter

import discord

from cogs.ohhell.pictures import chart_picture, finished_trick, hand_picture, trick_picture
from cogs.ohhell.render import public_view, seat_view
from cogs.shithead import pictures as sh_pictures
from draw.cards import RANK_WORDS, SUIT_WORDS
from draw.pictures import ALT_LIMIT
from games.ohhell.game import OhHell
from games.ohhell.rules import make_rules as ohhell_rules
from games.shithead.game import Shithead
from games.shithead.rules import make_rules as shithead_rules

NAMES = [(chr(65 + i) + " long display name of a player").ljust(32, "x")[:32] for i in range(7)]
RANK = "|".join(["10", "11", "12", "13", *[str(n) for n in range(2, 10)], *RANK_WORDS.values()])
WORDS = re.compile(rf"\b({RANK}) (?:of )?({'|'.join(SUIT_WORDS.values())})\b|\bjoker\b")
WORD_RANK = {v: k for k, v in RANK_WORDS.items()}
WORD_SUIT = {v: k for k, v in SUIT_WORDS.items()}


def named(text: str) -> Counter[str]:
    """The cards a description names, as face codes (``QH``, ``X``), counted (``3 × 7 hearts``)."""
    out: Counter[str] = Counter()
    for match in re.finditer(rf"(?:(\d+) × )?({WORDS.pattern})", text):
        many = int(match[1]) if match[1] else 1
        inner = WORDS.fullmatch(match[2])
        assert inner is not None
        code = "X" if inner[0] == "joker" else WORD_RANK.get(inner[1], inner[1]) + WORD_SUIT[inner[2]]
        out[code] += many
    return out


def faces(codes) -> Counter[str]:
    return Counter(c.partition("#")[0] for c in codes)


def alt(files) -> str:
    assert len(files) == 1
    text = files[0].description
    assert text and len(text) <= ALT_LIMIT, (len(text), text)
    assert files[0].file().description == text
    return text


def test_ohhell_alt_text_names_the_cards_every_state() -> None:
    rng = random.Random(4)
    engine = OhHell.new(ohhell_rules("classic", sequence="fixed", fixed_hands="7,1"), 7, 11)
    name = NAMES.__getitem__
    states = 0
    while not engine.is_over:
        view = public_view(engine)
        files = trick_picture(view, name, discord.Embed())
        if files:
            text = alt(files)
            finished = finished_trick(view)
            shown = [code for _s, code, _n in (finished["cards"] if finished else view["trick"])]
            shown += [view["turnup"]] if view["turnup"] else []
            assert named(text) == faces(shown), text
            if view["phase"] == "playing" and finished is None:
                waiting = [s for s in view["players"] if s not in {p[0] for p in view["trick"]}]
                assert "to play" in text and any(NAMES[s][:11] in text for s in waiting), text
        for seat in range(7):
            mine = seat_view(engine, seat)
            shown_hand = hand_picture(mine, discord.Embed())
            if shown_hand:
                assert named(alt(shown_hand)) == faces(mine["hand"])
        seat = engine.to_act()[0]
        engine, _events = engine.apply(seat, rng.choice(list(engine.legal_actions(seat))))
        states += 1
    view = public_view(engine)
    running = [[10 * d + s for s in range(7)] for d in range(1, 3)]
    text = alt(chart_picture(NAMES, running, discord.Embed()))
    assert f"{NAMES[6]} leads with 26" in text
    assert all(f"{n} {t}" in text for n, t in zip(NAMES, running[-1], strict=True))
    assert states > 50


def test_shithead_alt_text_names_the_cards_every_state() -> None:
    rng = random.Random(5)
    engine = Shithead.new(shithead_rules("pagat", decks=2), 7, 12)
    name = NAMES.__getitem__
    for _ in range(4000):
        if engine.is_over:
            break
        view = engine.view(None)
        text = alt(sh_pictures.table_picture(view, name, discord.Embed()))
        shown = view["pile"][-sh_pictures.PILE_SHOWN :] + [c for s in view["seats"] for c in s["face_up"]]
        beat = faces([view["to_beat"]] if view["to_beat"] else [])
        assert named(text) - beat == faces(shown), text
        for seat in engine.to_act():
            mine = engine.view(seat)
            cards = mine["hand"] or mine["seats"][seat]["face_up"]
            assert named(alt(sh_pictures.hand_picture(mine, discord.Embed()))) == faces(cards)
        seat = engine.to_act()[0]
        engine, _events = engine.apply(seat, rng.choice(list(engine.legal_actions(seat))))
    assert engine.is_over


def test_a_huge_pickup_is_named_within_the_limit() -> None:
    """A hand of three packs' worth (a picked-up pile) still names every card, counted."""
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    hand = [f"{r}{s}#{k}" for k in range(3) for s in "CDHS" for r in ranks]
    view = {"viewer": 0, "hand": hand, "seats": [{"face_up": []}]}
    text = alt(sh_pictures.hand_picture(view, discord.Embed()))  # type: ignore[arg-type]
    assert named(text) == faces(hand)
