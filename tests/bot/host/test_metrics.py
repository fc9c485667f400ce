"""A whole SimCord game moves the metrics it should: each press counted with its time, each move
committed counted, a 429 Discord answers counted by route (and the display's retry, and how long
the table stayed behind), the store's transactions timed; /metrics shows them as cardtable_*."""

from __future__ import annotations

from bot.host import metrics
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


def webhook(method: str, route: str, status: str = "ok", name: str = "cardtable_interaction_requests_total") -> float:
    """The sum over the routes that begin with ``route`` (a panel is its interaction's
    ``@original`` message or a follow-up's own)."""
    return sum(
        sample.value
        for family in metrics.REGISTRY.collect()
        for sample in family.samples
        if sample.name == name
        and sample.labels.get("method") == method
        and sample.labels.get("route", "").startswith(route)
        and sample.labels.get("status", status) == status
    )


CALLBACK = "/interactions/{id}/{token}/callback"
REDRAW = "/webhooks/{id}/{token}/messages/"  # a panel redrawn: its interaction's own message or follow-up
LIMITED = "cardtable_interaction_rate_limited_total"


async def test_the_interaction_webhook_and_its_429s_are_counted(simcord_env):
    """Answers to presses, panels redrawn and follow-ups go through discord.py's interaction webhook,
    not its HTTP client: each is counted by route and status, and a 429 there too."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
    answers, redraws = webhook("POST", CALLBACK), webhook("PATCH", REDRAW)
    limited = webhook("PATCH", REDRAW, name=LIMITED)
    await open_table(env, channel, people[0], people[1:], preset="classic", options={"fixed_hands": "2,1"})
    driver = OhHellDriver(env, channel, {p.id: p for p in people})
    for _ in range(2):
        assert await driver.step()
    before = [r for r in env.http_requests if r.method == "PATCH" and "/webhooks/" in r.path]
    assert before, "the moves redrew an open panel"
    assert webhook("POST", CALLBACK) - answers > 0
    assert webhook("PATCH", REDRAW) - redraws == len(before)
    # Discord refuses the next redraw of a panel with 429 Too Many Requests
    env.inject_error("PATCH", "/webhooks/*/*/messages/*", status=429, code=0, message="You are being rate limited.")
    await driver.play_to_end()
    assert webhook("PATCH", REDRAW, name=LIMITED) - limited == 1
    assert webhook("PATCH", REDRAW, "429") >= 1


def test_the_process_series_are_on_the_page():
    """Memory, CPU time and file descriptors of the process (prometheus_client's ProcessCollector)."""
    page = metrics.page().decode()
    values = {
        line.split(" ")[0]: float(line.split(" ")[1])
        for line in page.splitlines()
        if line.startswith("cardtable_process_")
    }
    assert values.get("cardtable_process_resident_memory_bytes", 0) > 10 * 2**20, values
    assert values.get("cardtable_process_open_fds", 0) >= 3, values
    assert "cardtable_process_cpu_seconds_total" in values and "cardtable_process_max_fds" in values, values
