"""The table's language where features meet, played through SimCord as people play: a German- and
a Spanish-speaking member (their Discord clients' languages) at tables that speak another
language. At every meeting point what the channel sees speaks the table's language (its ``set
language``, else the server's), and what only one person sees speaks theirs: a spectator's Watch
view, the comparison of a duplicate match in each table's channel, a table restored by a restart
and the panels it keeps, a seat handed to someone, a card taken back, a turn ping, and a card
picked under ``confirm_cards``."""

from __future__ import annotations

import re
from typing import Any

import bench.simdriver as simdriver
from bot.messages import speech
from tests.bot.messages.test_heal import restart
from tests.bot.messages.test_table_language import open_hand, pointer
from tests.helpers import (
    OhHellDriver,
    current_message,
    live_panel,
    message_text,
    open_table,
    panel_moves,
    speaks,
    table_message,
    use_seed,
    walk_components,
    warning_of,
)

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}
#: words only each language's Oh Hell table message has
TABLE = {
    "en": ("Trumps: ", "Players (from the dealer's left)"),
    "de": ("Trumpf: ", "Spieler (links vom Geber an)"),
    "es": ("Triunfo: ", "Jugadores"),
}
#: words only each language's Oh Hell panel has (its title)
PANEL = {"de": "Deine Hand", "es": "Tu mano", "en": "Your hand"}


def speaks_only(text: str, words: dict[str, Any], language: str) -> None:
    """``text`` holds ``language``'s words of ``words`` and no other language's."""
    for other, said in words.items():
        said = (said,) if isinstance(said, str) else said
        held = [w in text for w in said]
        if other == language:
            assert all(held), (language, said, text)
        else:
            assert not any(held), (language, other, said, text)


def labels(message: Any) -> list[str]:
    return [c["label"] for c in walk_components(message.components) if c.get("label")]


def button(message: Any, custom_id_end: str) -> str:
    [found] = [
        c["custom_id"] for c in walk_components(message.components) if c.get("custom_id", "").endswith(custom_id_end)
    ]
    return found


async def german_and_spanish(
    env, monkeypatch, language: str | None, options=None, computers: int = 0, names=("ann", "bob", "cat")
):
    """A table of ann (German client), bob (Spanish) and cat (English), opened by ann with the
    table's ``language`` set (None: the server's, English): (guild, channel, people by name, table)."""
    monkeypatch.setattr(simdriver, "open_hand", open_hand)  # My hand whatever language it is in
    monkeypatch.setattr(simdriver, "is_pointer", pointer)
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = {n: guild.add_member(env.create_user(n)) for n in names}
    speaks(monkeypatch, people["ann"], "de")
    speaks(monkeypatch, people["bob"], "es-ES")
    host, *others = people.values()
    await open_table(env, channel, host, others, options={**SHORT, **(options or {})}, computers=computers)
    if language:  # (the lobby's buttons are then in its language: the tests' opening presses English ones)
        chosen = await host.slash(channel, "ohhell set", option="language", value=language)
        assert "✅" in chosen.response.content, chosen.response.content
        await env.settle()
    return guild, channel, people, env.bot.tables.in_channel(channel.id, "ohhell")


def table_text(env, channel) -> str:
    return message_text(table_message(channel, env.bot.user.id))


# -- spectators --------------------------------------------------------------------------------
WATCHING = {"de": "Du siehst Spiel", "es": "Estás mirando la partida", "en": "You are watching game"}
REFRESH = {"de": "Aktualisieren", "es": "Actualizar", "en": "Refresh"}


async def test_each_spectator_watches_in_their_own_language_and_the_table_speaks_the_channels(simcord_env, monkeypatch):
    """A Spanish table (set language es) watched by dee (German client) and eve (English): the table
    message stays Spanish; each Watch view, a private answer, is in its spectator's language when
    opened, when the bot redraws it after a move, and after Refresh."""
    env = simcord_env
    use_seed(monkeypatch, 4)
    guild, channel, people, table = await german_and_spanish(env, monkeypatch, "es", names=("ann", "bob"), computers=1)
    dee, eve = (guild.add_member(env.create_user(n)) for n in ("dee", "eve"))
    speaks(monkeypatch, dee, "de")
    shown = table_message(channel, env.bot.user.id)
    assert "Mirar" in labels(shown), labels(shown)
    views = {}
    for who, language in ((dee, "de"), (eve, "en")):
        watched = await who.click(shown, custom_id=button(shown, ":open"))
        assert watched.ephemeral and watched.response is not None, watched
        views[language] = watched.response
        text = message_text(watched.response)
        speaks_only(text, WATCHING, language)
        speaks_only(text, TABLE, language)
        assert labels(watched.response) == [REFRESH[language]]
    # a move: the bot redraws each view by itself, each in its spectator's language
    driver = OhHellDriver(env, channel, {p.id: p for p in people.values()}, seed=2)
    assert await driver.step()
    await env.settle()
    for language, view in views.items():
        redrawn = current_message(env, channel, view.id)
        assert redrawn is not None
        speaks_only(message_text(redrawn), WATCHING, language)
        speaks_only(message_text(redrawn), TABLE, language)
    speaks_only(table_text(env, channel), TABLE, "es")
    refreshed = await dee.click(current_message(env, channel, views["de"].id), label="Aktualisieren")
    speaks_only(message_text(refreshed.response), WATCHING, "de")
    speaks_only(message_text(refreshed.response), TABLE, "de")


# -- duplicate matches -------------------------------------------------------------------------
COMPARISON = {
    "de": ("⚖️ Duplikat-Match", "Karten von Platz 1"),
    "es": ("⚖️ Partida duplicada", "Cartas del puesto 1"),
    "en": ("⚖️ Duplicate match", "Seat 1's cards"),
}


async def test_each_table_of_a_duplicate_match_reads_the_comparison_in_its_channels_language(simcord_env, monkeypatch):
    """ann's table speaks German, bob's (another server, whose preferred locale is Spanish) its
    server's: the second table takes the first one's rules, not its language, and the comparison
    is posted in each channel in that channel's language."""
    from tests.cogs.fairness.test_duplicate import _lobby

    env = simcord_env
    monkeypatch.setattr(simdriver, "open_hand", open_hand)
    monkeypatch.setattr(simdriver, "is_pointer", pointer)
    first_guild, second_guild = env.create_guild(), env.create_guild(preferred_locale="es-ES")
    first, second = first_guild.create_text_channel("cards"), second_guild.create_text_channel("cartas")
    ann, bob = first_guild.add_member(env.create_user("ann")), second_guild.add_member(env.create_user("bob"))
    speaks(monkeypatch, ann, "de")
    opened = await _lobby(env, ann, first, "ohhell duplicate new", tables=2)
    code = re.search(r"\*\*([A-Z0-9]{6})\*\*", opened.followups[-1].content).group(1)
    for option, value in {**SHORT, "language": "de"}.items():
        assert "✅" in (await ann.slash(first, "ohhell set", option=option, value=value)).response.content
    joined = await _lobby(env, bob, second, "ohhell duplicate join", code=code)
    assert "Tisch" not in message_text(joined.response), "the joined lobby speaks its own server's language"
    table_a = await start_with_computers(env, ann, opened.response, first)
    await OhHellDriver(env, first, {ann.id: ann}, seed=5).play_to_end()
    table_b = await start_with_computers(env, bob, joined.response, second)
    assert "language" not in table_b.record.options, table_b.record.options
    speaks_only(table_text(env, second), TABLE, "es")
    await OhHellDriver(env, second, {bob.id: bob}, seed=6).play_to_end()
    assert table_a.record.id != table_b.record.id
    for channel, language in ((first, "de"), (second, "es")):
        [comparison] = [m for m in channel.history() if m.embeds and "⚖️" in (m.embeds[0].title or "")]
        speaks_only(message_text(comparison), COMPARISON, language)
        # each seat's score against the others who held its cards, written with the language's
        # decimal comma (an f-string once wrote "+3.0" in every language)
        against = re.findall(r"[+-]\d+[.,]\d\b", message_text(comparison))
        assert against and all("," in figure for figure in against), against


async def start_with_computers(env, member, lobby, channel):
    """Two computers join ``lobby`` and ``member`` starts it (its buttons pressed whatever their
    language): the live table."""
    for act in ("bot", "bot", "start"):
        pressed = await member.click(lobby, custom_id=button(lobby, f":{act}"))
        assert not pressed.ephemeral, pressed.response and pressed.response.content
    return env.bot.tables.in_channel(channel.id)


# -- restarts ----------------------------------------------------------------------------------
async def test_after_a_restart_the_table_and_each_kept_panel_speak_as_before(simcord_env, monkeypatch, db_path):
    """A German table (set language de) with ann (German client), bob (Spanish) and cat (English),
    each panel open. The bot stops and starts again (and so forgets which language each member's
    client spoke): the table message is German, each kept panel the bot redraws after cat's move
    still speaks its reader's language, and ann's next press is answered in German."""
    env = simcord_env
    use_seed(monkeypatch, 5)
    _guild, channel, people, table = await german_and_spanish(env, monkeypatch, "de")
    language = {people["ann"].id: "de", people["bob"].id: "es", people["cat"].id: "en"}
    driver = OhHellDriver(env, channel, people_by_id(people), seed=1)
    while not all(live_panel(env, channel, p) is not None for p in people.values()):
        assert await driver.step()
    monkeypatch.setattr(speech, "_members", {})  # a new process: nothing is remembered but the store
    await restart(env, db_path)
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    speaks_only(table_text(env, channel), TABLE, "de")
    for _ in range(len(table.seats)):  # each player's move redraws the others' kept panels
        (seat,) = table.engine.to_act()
        mover = next(p for p in people.values() if p.id == table.seats[seat].user_id)
        panel = live_panel(env, channel, mover)
        done = await mover.click(panel, custom_id=next(iter(panel_moves(panel).values())))
        assert warning_of(done) is None, warning_of(done)
        await env.settle()
        for person in people.values():
            shown = live_panel(env, channel, person)
            if person.id != mover.id and shown is not None and shown.components:
                speaks_only(message_text(shown), PANEL, language[person.id])
        speaks_only(message_text(done.response), PANEL, language[mover.id])
        speaks_only(table_text(env, channel), TABLE, "de")


def people_by_id(people: dict[str, Any]) -> dict[int, Any]:
    return {p.id: p for p in people.values()}


# -- handing a seat over -----------------------------------------------------------------------
async def test_a_seat_handed_to_a_german_member_shows_her_german_panel_and_the_channel_its_language(
    simcord_env, monkeypatch
):
    """A Spanish table: cat (English client) hands her seat to dee (German), who was watching. The
    offer and the line that she took it speak Spanish; her panel, and the note that closes her
    Watch view, speak German; cat's closed panel says so in English."""
    env = simcord_env
    use_seed(monkeypatch, 11)
    guild, channel, people, table = await german_and_spanish(env, monkeypatch, "es")
    dee = guild.add_member(env.create_user("dee"))
    speaks(monkeypatch, dee, "de")
    cat = people["cat"]
    seat = table.seat_of(cat.id)
    driver = OhHellDriver(env, channel, people_by_id(people), seed=1)
    while live_panel(env, channel, cat) is None:
        assert await driver.step()
    old_panel = live_panel(env, channel, cat)
    shown = table_message(channel, env.bot.user.id)
    watched = await dee.click(shown, custom_id=button(shown, ":open"))  # she watches first
    speaks_only(message_text(watched.response), WATCHING, "de")
    offer = await cat.slash(channel, "ohhell handover", member=dee)
    assert not offer.ephemeral and "ofrece" in offer.response.content, offer.response.content
    assert labels(offer.response) == ["Ocupar el puesto", "Rechazar"], labels(offer.response)
    taken = await dee.click(offer.response, label="Ocupar el puesto")
    assert taken.ephemeral and table.seats[seat].user_id == dee.id, taken
    speaks_only(message_text(taken.response), PANEL, "de")
    said = current_message(env, channel, offer.response.id).content
    assert "ocupó el puesto de cat" in said, said
    assert "que lo juega desde ahora" in table_text(env, channel), table_text(env, channel)
    closed = current_message(env, channel, old_panel.id)
    assert "plays this seat now" in closed.content, closed.content
    stopped = current_message(env, channel, watched.response.id).content
    assert "Du spielst jetzt den Platz von cat" in stopped and "**Meine Hand**" in stopped, stopped


# -- taking a card back ------------------------------------------------------------------------
def acts(panel: Any, act: str) -> list[dict[str, Any]]:
    return [
        c
        for c in walk_components(panel.components)
        if (c.get("custom_id") or "").startswith("ohp:")
        and not c.get("disabled")
        and c["custom_id"].split(":")[3] == act
    ]


async def press_act(env, channel, person, act: str) -> Any:
    panel = live_panel(env, channel, person)
    [first, *_] = acts(panel, act)
    result = await person.click(panel, custom_id=first["custom_id"])
    assert result.acknowledged and warning_of(result) is None, warning_of(result)
    await env.settle()
    return result.response


async def test_a_take_back_asks_and_answers_each_player_in_their_language_and_the_table_logs_it_in_its(
    simcord_env, monkeypatch
):
    """A German table: bob (Spanish) plays a card and asks for it back; his panel says so in
    Spanish, ann's panel asks her in German and cat's in English, each with Accept and Refuse in
    their language; the table's lines (the request, then who agreed or refused) are German."""
    env = simcord_env
    use_seed(monkeypatch, 3)
    _guild, channel, people, table = await german_and_spanish(env, monkeypatch, "de")
    ann, bob, cat = people["ann"], people["bob"], people["cat"]
    by_seat = {table.seat_of(p.id): p for p in people.values()}
    for person in people.values():
        await person.click(
            table_message(channel, env.bot.user.id), custom_id=button(table_message(channel, env.bot.user.id), ":hand")
        )
    while table.engine.view(None)["phase"] == "bidding" or table.engine.to_act() != [table.seat_of(bob.id)]:
        (seat,) = table.engine.to_act()
        await press_act(env, channel, by_seat[seat], "b" if table.engine.view(None)["phase"] == "bidding" else "p")
    await press_act(env, channel, bob, "p")
    assert acts(live_panel(env, channel, bob), "u"), "bob's card closed the trick: nothing to take back"
    asked = await press_act(env, channel, bob, "u")
    assert "Retirar la petición" in labels(asked), labels(asked)
    speaks_only(message_text(asked), PANEL, "es")
    assert "möchte" in table_text(env, channel) and "zurücknehmen" in table_text(env, channel), table_text(env, channel)
    for person, accept, refuse, language in ((ann, "Zustimmen", "Ablehnen", "de"), (cat, "Accept", "Refuse", "en")):
        panel = live_panel(env, channel, person)
        assert accept in labels(panel) and refuse in labels(panel), (language, labels(panel))
        speaks_only(message_text(panel), PANEL, language)
    await press_act(env, channel, ann, "y")
    await press_act(env, channel, cat, "y")
    assert table.engine.log[-1][1]["type"] == "undo_accept"
    said = table_text(env, channel)
    assert "zurückgenommen: alle waren einverstanden" in said, said
    assert "everyone agreed" not in said and "todos" not in said
    # a refusal: bob plays again, asks again (a new card), cat refuses
    await press_act(env, channel, bob, "p")
    await press_act(env, channel, bob, "u")
    await press_act(env, channel, cat, "n")
    assert "hat abgelehnt, dass bob" in table_text(env, channel), table_text(env, channel)


# -- turn pings --------------------------------------------------------------------------------
async def test_a_turn_ping_speaks_the_tables_language_and_pings_off_the_pressers(simcord_env, monkeypatch):
    """A German table pings whoever it waits on in German (naming its German My hand button),
    whatever that player's client speaks; bob turning his pings off is answered in Spanish."""
    env = simcord_env
    _guild, channel, people, table = await german_and_spanish(
        env, monkeypatch, "de", options={"bidding": "sequential", "ping_after": "2m"}
    )
    (seat,) = table.engine.to_act()
    waited = table.seats[seat].user_id
    await env.advance_time(121)
    [ping] = [m for m in channel.history() if (m.content or "").startswith("🔔")]
    assert f"<@{waited}>" in ping.content, ping.content
    assert "Der Tisch wartet auf euch" in ping.content and "**Meine Hand**" in ping.content, ping.content
    off = await people["bob"].slash(channel, "ohhell pings", setting="off")
    assert off.ephemeral and "Los avisos de turno están desactivados" in off.response.content, off.response.content


# -- confirm_cards -----------------------------------------------------------------------------
async def test_a_picked_card_is_said_in_the_pressers_language(simcord_env, monkeypatch):
    """An English table with confirm_cards: ann (German) and bob (Spanish) each pick a card; the
    panel that answers says so, and labels the picked card, in the presser's language."""
    env = simcord_env
    use_seed(monkeypatch, 3)
    _guild, channel, people, table = await german_and_spanish(env, monkeypatch, None, options={"confirm_cards": "on"})
    by_seat = {table.seat_of(p.id): p for p in people.values()}
    for person in people.values():
        await person.click(table_message(channel, env.bot.user.id), label="My hand")
    while table.engine.view(None)["phase"] == "bidding":
        (seat,) = table.engine.to_act()
        await press_act(env, channel, by_seat[seat], "b")
    picked = {
        "de": ("ist gewählt", "zum Spielen noch einmal drücken"),
        "es": ("está elegida", "pulsa otra vez para jugar"),
        "en": ("is picked", "press again to play"),
    }
    seen = set()
    language = {people["ann"].id: "de", people["bob"].id: "es", people["cat"].id: "en"}
    for _ in range(len(table.seats)):
        (seat,) = table.engine.to_act()
        person = by_seat[seat]
        answer = await press_act(env, channel, person, "a")
        said = language[person.id]
        text = message_text(answer) + "\n" + "\n".join(labels(answer))
        for other, words in picked.items():
            assert all(w in text for w in words) == (other == said), (said, other, text)
        seen.add(said)
        await press_act(env, channel, person, "p")
    assert seen == {"de", "es", "en"}
    speaks_only(table_text(env, channel), TABLE, "en")
