"""A panel goes stale only when something that bears on *that* player's choice changed
(secret bids pressed on panels opened at the same time all count); an Oh Hell
panel kept from an earlier deal, or a Shithead panel drawn before the pile changed, is still
refused with the reason.

The kinds' decision keys are checked directly too: which changes move a seat's key and which do
not (in-turn bidding: an earlier bid changes the next bidder's choice; simultaneous: it does not).
"""

from __future__ import annotations

import re

from bot.seam.contract import DIGEST_LENGTH
from bot.tables.manager import STALE
from cogs.ohhell.kind import OhHellKind
from cogs.shithead.kind import ShitheadKind
from games.ohhell import rules as oh_rules
from games.ohhell.game import OhHell
from games.shithead import rules as sh_rules
from games.shithead.game import Shithead
from tests.cogs.shithead.test_games import seat_table, use_seed
from tests.helpers import (
    OhHellDriver,
    ShitheadDriver,
    find_component,
    make_bot,
    message_text,
    open_hand,
    open_stale_copy,
    open_table,
    panel_moves,
    press,
    warning_of,
)

NAMES = ("ann", "bob", "cat", "dan")


async def _oh_shit_table(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in NAMES]
    await open_table(env, channel, people[0], people[1:], preset="oh-shit")
    table = env.bot.tables.in_channel(channel.id)
    assert table.engine.view(None)["bidding"] == "simultaneous"
    return channel, people, table


# -- through the bot, as players -----------------------------------------------------------------
async def test_four_secret_bids_opened_at_once_all_count(simcord_env):
    env = simcord_env
    channel, people, table = await _oh_shit_table(env)
    panels = [await open_hand(person, channel, env.bot.user.id) for person in people]  # everyone opens it
    assert all(panel_moves(p) for p in panels), "every panel offers the bids"
    chosen = {}
    for person, panel in zip(people, panels, strict=True):
        value = list(panel_moves(panel))[-1]
        answer = await press(person, panel, value)  # on the panel opened before the others bid
        assert answer.acknowledged and warning_of(answer) is None, warning_of(answer)
        chosen[table.seat_of(person.id)] = int(value)
    view = table.engine.view(None)
    assert view["phase"] == "playing", "every bid counted, so bidding is over"
    assert view["bids"] == [chosen[s] for s in range(4)]
    stored = await env.bot.store.get_game(table.id)
    assert sorted(stored.actions) == sorted((s, {"type": "bid", "bid": b}) for s, b in chosen.items())
    assert env.errors == []


async def test_a_bid_panel_from_the_last_deal_is_refused_with_the_reason(simcord_env):
    env = simcord_env
    channel, people, table = await _oh_shit_table(env)
    ann = people[0]
    seat = table.seat_of(ann.id)
    kept = await open_stale_copy(ann, channel, env)  # opened twice: this one is kept for later
    kept_bid = next(iter(panel_moves(kept)))
    driver = OhHellDriver(env, channel, {p.id: p for p in people}, seed=2)
    while table.engine.view(None)["deal"] == 1:
        await driver.step()
    view = table.engine.view(None)
    assert view["phase"] == "bidding" and seat in view["to_act"]
    log = list(table.engine.log)
    late = await press(ann, kept, kept_bid)
    assert late.response.ephemeral and warning_of(late) == f"⚠️ {STALE}", warning_of(late)
    assert "moved on" in STALE and "nothing was changed" in STALE
    assert table.engine.log == log
    assert not table.engine.view(seat)["has_bid"][seat]
    # The refusal redrew the panel with deal 2's bids; a freshly opened panel works too.
    fresh = await open_hand(ann, channel, env.bot.user.id)
    done = await press(ann, fresh, next(iter(panel_moves(fresh))))
    assert warning_of(done) is None, warning_of(done)
    assert table.engine.view(seat)["has_bid"][seat]


async def test_a_panel_opened_before_a_restart_counts_after_it(simcord_env, db_path):
    env = simcord_env
    channel, people, table = await _oh_shit_table(env)
    panels = [await open_hand(person, channel, env.bot.user.id) for person in people]
    first = await press(people[0], panels[0], next(iter(panel_moves(panels[0]))))
    assert warning_of(first) is None, warning_of(first)
    old = env.bot
    await env.restart_bot(make_bot(db_path))
    await old.close()
    restored = env.bot.tables.in_channel(channel.id)
    assert restored is not table
    for person, panel in zip(people[1:], panels[1:], strict=True):
        answer = await press(person, panel, next(iter(panel_moves(panel))))
        assert answer.acknowledged and warning_of(answer) is None, warning_of(answer)
    assert restored.engine.view(None)["phase"] == "playing"
    assert len((await env.bot.store.get_game(restored.id)).actions) == 4


async def test_shithead_panels_go_stale_on_the_pile_not_on_another_players_swap(simcord_env, monkeypatch):
    use_seed(monkeypatch, 5)
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], computers=0)
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    engine = driver.engine
    # The swap: Ann's panel, drawn before Bob swaps and gets ready, still swaps.
    ann_panel = await driver.open_panel(0)
    bob_view = engine.view(1)
    bob_swap = next(a for a in bob_view["legal"] if a["type"] == "swap")
    await driver.act(1, bob_swap)
    await driver.act(1, {"type": "ready"})
    ann_swap = next(a for a in driver.engine.view(0)["legal"] if a["type"] == "swap")
    await driver.act(0, ann_swap, panel=ann_panel)  # no warning (checked by the driver)
    while driver.engine.view(None)["phase"] == "swap":
        assert await driver.step()
    # Play until a person is to move on a pile that is not empty: Pick up is offered.
    while not (driver.engine.view(None)["pile"] and driver.engine.to_act()):
        assert await driver.step()
    turn = driver.engine.to_act()[0]
    stale = await driver.open_panel(turn, keep=True)
    assert find_component(stale, ":pick")
    pile = driver.engine.view(None)["pile"]
    # That player moves from a fresh panel, the others play on, and the turn comes back round.
    assert await driver.step()
    while driver.engine.to_act() != [turn]:
        assert await driver.step()
    assert driver.engine.view(None)["pile"] != pile
    log = list(driver.engine.log)
    actor = driver.actors[driver.live.seats[turn].user_id]
    answer = await actor.click(stale, custom_id=find_component(stale, ":pick")["custom_id"])
    assert answer.response.ephemeral and "moved on" in message_text(answer.response)
    assert driver.engine.log == log


# -- the keys themselves ----------------------------------------------------------------------------
def test_secret_bids_leave_the_other_seats_keys_alone():
    kind = OhHellKind(None)
    game = OhHell.new(oh_rules.make_rules("oh-shit"), 4, 7)
    digests = {s: kind.decision_digest(game, s) for s in range(4)}
    assert all(re.fullmatch(f"[0-9a-f]{{{DIGEST_LENGTH}}}", d) for d in digests.values())
    game, _ = game.apply(0, {"type": "bid", "bid": 1})
    assert kind.decision_digest(game, 0) != digests[0], "the bidder's own form is spent"
    assert all(kind.decision_digest(game, s) == digests[s] for s in (1, 2, 3))
    # What the others bid, not only that they bid, is invisible to a seat's key.
    zero = OhHell.new(oh_rules.make_rules("oh-shit"), 4, 7)
    zero, _ = zero.apply(0, {"type": "bid", "bid": 0})
    assert kind.decision_key(zero.view(2), 2) == kind.decision_key(game.view(2), 2)


def test_an_earlier_bid_changes_the_next_bidders_choice():
    """In turn, the bids so far are on the form (and move the hook): they belong to the key."""
    kind = OhHellKind(None)
    rules = oh_rules.make_rules("classic")
    states = []
    for bid in (0, 1):
        game = OhHell.new(rules, 3, 11)
        game, _ = game.apply(game.to_act()[0], {"type": "bid", "bid": bid})
        states.append(game)
    following = states[0].to_act()[0]
    assert states[1].to_act() == [following]
    assert kind.decision_digest(states[0], following) != kind.decision_digest(states[1], following)
    # Waiting for one's turn, there is no form to spend: the key only says so.
    dealer = states[0].view(None)["players"][-1]
    assert kind.decision_key(states[0].view(dealer), dealer) == kind.decision_key(states[1].view(dealer), dealer)


def test_shithead_keys_follow_the_seats_own_cards_and_the_pile():
    kind = ShitheadKind(None)
    game = Shithead.new(sh_rules.make_rules("pagat"), 3, 4)
    mine = kind.decision_digest(game, 0)
    other = next(a for a in game.view(1)["legal"] if a["type"] == "swap")
    game, _ = game.apply(1, other)
    game, _ = game.apply(1, {"type": "ready"})
    assert kind.decision_digest(game, 0) == mine, "another player's swap and Ready change nothing for me"
    own = next(a for a in game.view(0)["legal"] if a["type"] == "swap")
    game, _ = game.apply(0, own)
    assert kind.decision_digest(game, 0) != mine
    for seat in (0, 2):
        game, _ = game.apply(seat, {"type": "ready"})
    assert game.view(None)["phase"] == "play"
    turn = game.to_act()[0]
    waiting = [s for s in range(3) if s != turn]
    keys = {s: kind.decision_digest(game, s) for s in waiting}
    play = next(a for a in game.view(turn)["legal"] if a["type"] == "play")
    game, _ = game.apply(turn, play)
    assert all(kind.decision_digest(game, s) != keys[s] for s in waiting), "the pile changed for everyone"
