"""The beating rules in isolation: the card to beat, legality per rank, burning."""

from __future__ import annotations

from games.common.cards import joker, parse_card
from games.shithead.pile import PileRules, a_rank
from games.shithead.rules import make_rules


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def labels(pr: PileRules, pile: list[int], free=()) -> list[str]:
    names = {11: "J", 15: "J", 16: "Q", 17: "K", 18: "A", 19: "X"}
    return [names.get(r, str(r)) for r in pr.playable_ranks(pile, free)]


def test_plain_beating_twos_and_tens() -> None:
    pr = PileRules(make_rules())
    assert labels(pr, []) == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "X"]
    assert labels(pr, cards("QH")) == ["10", "Q", "K", "A", "2", "X"]
    assert labels(pr, cards("QH", "2C")) == labels(pr, [])  # anything on a 2
    assert pr.why_not(parse_card("JS"), cards("QH")) == "A jack does not beat the queen on the pile."
    assert str(pr.describe_need(cards("QH"))) == "Beat the queen: 10, Q, K, A or 2."


def test_ten_not_on_face_cards() -> None:
    pr = PileRules(make_rules(ten="not-on-face"))
    assert "10" not in labels(pr, cards("JH")) and "10" in labels(pr, cards("9H")) and "10" in labels(pr, cards("2H"))


def test_see_through_cards() -> None:
    pr = PileRules(make_rules(seven="glass", eight="reverse", jokers=2))
    assert pr.effective(cards("KH", "8C")) == parse_card("KH")
    assert pr.effective(cards("KH", "7C", "8C", "7D")) == parse_card("KH")
    assert pr.effective(cards("8C")) is None  # an 8 on the empty table: anything beats it
    assert pr.effective(cards("7C")) == parse_card("7C")  # a glass 7 on the empty table counts as 7
    assert pr.effective(cards("8C", "7C")) is None
    assert pr.effective([parse_card("9S"), joker(0)]) == parse_card("9S")  # reversing jokers too


def test_skip_jokers_by_value() -> None:
    pile = [parse_card("KH"), joker(0)]
    assert labels(PileRules(make_rules(jokers=2, joker_rule="skip-glass")), pile)[0] == "10"
    assert labels(PileRules(make_rules(jokers=2, joker_rule="skip-7")), pile)[0] == "7"
    assert labels(PileRules(make_rules(jokers=2, joker_rule="skip-2")), pile)[0] == "3"
    # played with two players left: the joker's player may follow with anything
    assert labels(PileRules(make_rules(jokers=2, joker_rule="skip-glass")), pile, free={joker(0)})[0] == "3"


def test_sevens_and_eights_that_want_lower() -> None:
    lower7 = PileRules(make_rules("gultnieks"))
    assert labels(lower7, cards("7C")) == ["3", "4", "5", "6", "7", "8", "10", "2", "X"]
    assert labels(lower7, cards("7C", "8S")) == labels(lower7, cards("7C"))  # the 8 is transparent
    lower8 = PileRules(make_rules(eight="lower"))
    assert labels(lower8, cards("8C")) == ["3", "4", "5", "6", "7", "8", "2", "X"]


def test_burns() -> None:
    assert PileRules.burns(cards("10C"))
    assert PileRules.burns(cards("3C", "5C", "5D", "5H", "5S"))
    assert not PileRules.burns(cards("5C", "5D", "3H", "5S"))
    assert not PileRules.burns([joker(0), joker(1), joker(0) | 512, joker(1) | 512])
    assert not PileRules.burns([])


def test_articles() -> None:
    assert [str(a_rank(r)) for r in (3, 8, 10, 15, 18, 19)] == ["a 3", "an 8", "a 10", "a jack", "an ace", "a joker"]
