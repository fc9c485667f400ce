"""Shithead's variant rules through the bot: Karma's stacks offered in the panel and shown on the
table, and Smeghead's flush person named on the table, in whole games played as users play."""

from __future__ import annotations

from draw.cards import label
from games.shithead.rules import make_rules
from tests.cogs.shithead.test_games import find_seed, person_did, seat_table, use_seed
from tests.helpers import ShitheadDriver, message_text


async def test_karma_stacks_through_the_panel_and_on_the_table(simcord_env, monkeypatch):
    rules = make_rules("karma")
    computers = [False, False]
    use_seed(monkeypatch, find_seed(rules, computers, person_did(computers, lambda e: e.kind == "stacked")))
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], 0, preset="karma")
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    offered = shown = False
    while await driver.step():
        engine = driver.engine
        if engine.phase == "swap":
            for seat in engine.to_act():
                if any(a["type"] == "stack" for a in engine.legal_actions(seat)):
                    panel = await driver.open_panel(seat)
                    offered = offered or "Stack " in str(panel.components)
        if not engine.is_over and "📚" in message_text(driver.table_message()):
            shown = True
            face_up = [s["face_up"] for s in engine.view(None)["seats"]]
            assert any(len(u) > 3 for u in face_up)
            text = message_text(driver.table_message())
            assert all(label(c) in text for u in face_up if len(u) > 3 for c in u)  # the stack shown
    assert offered, "the panel never offered a stack the engine allowed"
    assert shown, "the table never showed a stacked card"
    assert any(e.kind == "stacked" for e in driver.watch.events)
    driver.check_viewers()


async def test_smeghead_names_the_flush_person_on_the_table(simcord_env, monkeypatch):
    rules = make_rules("smeghead")
    computers = [False, False]
    use_seed(monkeypatch, find_seed(rules, computers, person_did(computers, lambda e: e.kind == "flush")))
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], 0, preset="smeghead")
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    named = None
    while await driver.step():
        flush = driver.engine.view(None)["flush"]
        text = message_text(driver.table_message()) if not driver.engine.is_over else ""
        if flush is not None and text:
            assert f"Flush person: {driver.live.name(flush)}" in text
            named = flush
        elif text:
            assert "Flush person" not in text
    assert named is not None


def _two_jokers(event) -> bool:
    return event.kind == "played" and sum(c.startswith("X") for c in event.data["cards"]) == 2


async def test_two_jokers_with_two_players_give_their_player_the_next_play(simcord_env, monkeypatch):
    """Guarducci: the joker's player "immediately plays another card"; the panel answering the
    jokers offers that play and the table names the same player again."""
    rules = make_rules("guarducci")
    computers = [False, False]

    def wanted(game, events) -> bool:  # two jokers at once that leave both players in
        return any(
            _two_jokers(e) and all(later.kind != "player_out" for _, later in events[i + 1 : i + 4])
            for i, (_, e) in enumerate(events)
        )

    use_seed(monkeypatch, find_seed(rules, computers, wanted))
    env = simcord_env
    guild, channel, people = await seat_table(env, ["ann", "bob"], 0, preset="guarducci")
    driver = ShitheadDriver(env, channel, {p.id: p for p in people})
    seen = False
    while not driver.engine.is_over:
        engine = driver.engine
        seat = engine.to_act()[0]
        view = engine.view(seat)
        action = driver.policy(view, view["action_count"])
        jokers = action["type"] == "play" and sum(c.startswith("X") for c in action["cards"]) == 2
        answer = await driver.act(seat, action)
        if jokers and not driver.engine.is_over and sum(not s["out"] for s in driver.engine.view(None)["seats"]) == 2:
            seen = True
            assert driver.engine.to_act() == [seat]
            assert "shq:" in str(answer.response.components)  # the panel offers the play, one press each
            assert people[seat].mention in driver.table_message().content  # the table pings the same player
    assert seen
