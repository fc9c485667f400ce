"""A whole SimCord game moves the metrics it should: each press counted with its time, each move
committed counted, a 429 Discord answers counted by route (and the display's retry, and how long
the table stayed behind), the store's transactions timed; /metrics shows them as cardtable_*."""

from __future__ import annotations

from bot import metrics
from tests.helpers import OhHellDriver, open_table

EDIT = {"method": "PATCH", "route": "/channels/{id}/messages/{id}"}


def snapshot() -> dict[str, float]:
    return {
        "presses": metrics.value("cardtable_press_seconds_count", {"control": "PanelButton"}),
        "press time": metrics.value("cardtable_press_seconds_sum", {"control": "PanelButton"}),
        "lobby presses": metrics.value("cardtable_press_seconds_count", {"control": "LobbyButton"}),
        "person moves": metrics.value("cardtable_moves_committed_total", {"game": "ohhell", "by": "person"}),
        "computer moves": metrics.value("cardtable_moves_committed_total", {"game": "ohhell", "by": "computer"}),
        "commits": metrics.value("cardtable_store_seconds_count", {"op": "record_action"}),
        "429s": metrics.value("cardtable_rest_rate_limited_total", EDIT),
        "edits refused": metrics.value("cardtable_rest_requests_total", {**EDIT, "status": "429"}),
        "edits": metrics.value("cardtable_rest_requests_total", {**EDIT, "status": "ok"}),
        "retries": metrics.value("cardtable_display_retries_total", {"status": "429"}),
        "behind": metrics.value("cardtable_display_behind_seconds_count"),
        "thinking": metrics.value("cardtable_computer_think_seconds_count", {"game": "ohhell"}),
    }


async def test_a_whole_game_moves_the_metrics(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    before = snapshot()
    await open_table(env, channel, people[0], people[1:], preset="classic", options={"fixed_hands": "2,1"}, computers=1)
    # Discord refuses the next edit of a table message with 429 Too Many Requests
    env.inject_error("PATCH", "/channels/*/messages/*", status=429, code=0, message="You are being rate limited.")
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    await driver.play_to_end()
    await env.advance_time(5)  # the display's pause after the 429, then its retry
    assert "Game over" in channel.last_message.content
    after = snapshot()
    delta = {key: after[key] - before[key] for key in before}

    record = await env.bot.store.get_game(1)  # the one game of this test
    computer_seats = {s.seat for s in record.seats if s.ai_level is not None}
    by_computer = sum(1 for seat, _ in record.actions if seat in computer_seats)
    assert delta["person moves"] == len(record.actions) - by_computer > 0
    assert delta["computer moves"] == by_computer > 0 and delta["thinking"] == by_computer
    assert delta["commits"] == len(record.actions)
    # every move press on a panel is timed (the opening presses of My hand are TableButton's)
    assert delta["presses"] == delta["person moves"]
    assert delta["press time"] > 0
    assert delta["lobby presses"] == 3  # Join, Add computer, Start
    assert delta["429s"] == 1 and delta["edits refused"] == 1 and delta["retries"] == 1
    assert delta["behind"] == 1 and delta["edits"] > 0

    page = metrics.page().decode()
    names = {line.split("{")[0].split(" ")[0] for line in page.splitlines() if line and not line.startswith("#")}
    assert names and all(name.startswith("cardtable_") for name in names), names
    assert 'cardtable_rest_rate_limited_total{method="PATCH",route="/channels/{id}/messages/{id}"}' in page
