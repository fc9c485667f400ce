"""Each person reads the bot in their own Discord client's language, the channel in the server's:
a German and a Spanish member get their refusals, their lobby answers and their panel's shared
words in German and Spanish, while the lobby message and the table message (seen by everyone)
stay in the server's language (English here: the server's preferred locale is en-US), whoever
pressed. The slash commands carry German and Spanish descriptions."""

from __future__ import annotations

from tests.helpers import (
    bot_messages,
    current_message,
    live_panel,
    make_bot,
    message_text,
    open_hand,
    open_stale_copy,
    open_table,
    panel_moves,
    press,
    speaks,
    table_message,
    walk_components,
    warning_of,
)

SHORT = {"fixed_hands": "3,2", "sequence": "fixed"}


def labels(message) -> list[str]:
    return [c.get("label") for c in walk_components(message.components) if c["type"] == 2]


def embed_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name} {field.value}" for field in embed.fields]
    return "\n".join(parts)


async def test_each_member_reads_their_language_and_the_lobby_stays_the_channels(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob, cid = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cid"))
    speaks(monkeypatch, ann, "de")
    speaks(monkeypatch, bob, "es-ES")

    opened = await ann.slash(channel, "ohhell new")  # the German host opens the table
    lobby = opened.response
    assert not opened.ephemeral
    assert "Press **Join** to take a seat." in lobby.content  # the channel's words, not the presser's
    assert "a table is open" in embed_text(lobby)
    assert labels(lobby)[:4] == ["Join", "Leave", "Start", "Cancel"]

    refused = await bob.click(lobby, label="Start")  # only the host: said to Bob in Spanish
    assert refused.ephemeral and refused.response.content == "⚠️ Solo el anfitrión puede hacer eso."
    refused = await ann.click(lobby, label="Leave")  # the host may not leave: said to Ann in German
    assert refused.response.content == ("⚠️ Du bist der Host: Drück stattdessen Abbrechen, um den Tisch zu schließen.")
    refused = await cid.click(lobby, label="Leave")  # an English member: English, as before
    assert refused.response.content == "⚠️ You are not at this table."

    joined = await bob.click(lobby, label="Join")  # the lobby redrawn by Bob's press: still English
    assert joined.acknowledged and not joined.ephemeral
    shown = [m for m in bot_messages(channel, env.bot.user.id) if m.id == lobby.id][0]
    assert "Players (2," in embed_text(shown) and "Jugadores" not in embed_text(shown)
    assert labels(shown)[:4] == ["Join", "Leave", "Start", "Cancel"]

    answer = await ann.slash(channel, "ohhell set", option="fixed_hands", value="3,2")
    assert answer.ephemeral and answer.response.content == "✅ fixed_hands ist jetzt **3,2**."
    refused = await bob.slash(channel, "ohhell set", option="sequence", value="fixed")
    assert refused.response.content == "⚠️ Solo el anfitrión puede cambiar las reglas."
    answer = await bob.slash(channel, "ohhell pings", setting="off")
    assert answer.response.content.startswith("🔕 Los avisos de turno están desactivados para ti")
    refused = await bob.slash(channel, "ohhell table")
    assert refused.response.content == ("⚠️ La partida aún no ha empezado: por ahora el mensaje de la sala es la mesa.")
    rules = await ann.slash(channel, "ohhell rules")
    assert rules.ephemeral and "Regeln an diesem Tisch" in embed_text(rules.response)

    await ann.slash(channel, "ohhell set", option="sequence", value="fixed")
    refused = await ann.click(lobby, label="Start")  # two seated, three needed: the plural, in German
    assert refused.response.content == "⚠️ Diese Regeln brauchen 3 bis 7 Spieler; 2 sitzen am Tisch."
    await ann.click(lobby, label="Add computer")  # a name the whole table reads: in the channel's words
    assert [s.name for s in env.bot.tables.in_channel(channel.id).seats][-1] == "Computer 1 (strong)"
    started = await ann.click(lobby, label="Start")  # the German host starts: the channel reads English
    assert started.acknowledged and not started.ephemeral
    closed = [m for m in bot_messages(channel, env.bot.user.id) if m.id == lobby.id][0]
    assert "The game has started" in embed_text(closed) and "Spiel" not in embed_text(closed)
    table = table_message(channel, env.bot.user.id)
    assert "My hand" in labels(table) and "Meine Hand" not in labels(table)

    refused = await cid.click(table, label="My hand")  # not a player: in cid's English
    assert refused.response.content == "⚠️ You are not playing at this table."
    panel = await open_hand(bob, channel, env.bot.user.id)  # Bob's own panel, privately
    assert panel.ephemeral
    refused = await bob.slash(channel, "ohhell back")  # his seat is his: said in Spanish
    assert refused.response.content == "⚠️ Ya tienes tu puesto: lo juegas tú."
    left = await ann.slash(channel, "ohhell leave")
    assert left.response.content == "Der Computer spielt jetzt deinen Platz. Mit /ohhell back nimmst du ihn wieder."
    # the notice the leave put on the table is the channel's: English
    table = table_message(channel, env.bot.user.id)
    shown = [m for m in bot_messages(channel, env.bot.user.id) if m.id == table.id][0]
    assert "left: the computer plays their seat" in embed_text(shown), embed_text(shown)
    assert "Computer spielt" not in embed_text(shown)


async def test_the_end_question_is_the_hosts_and_the_announcement_the_channels(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    speaks(monkeypatch, ann, "es")
    lobby = (await ann.slash(channel, "ohhell new")).response
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Add computer")
    for option, value in SHORT.items():
        await ann.slash(channel, "ohhell set", option=option, value=value)
    await ann.click(lobby, label="Start")
    table = env.bot.tables.in_channel(channel.id)

    asked = await ann.slash(channel, "ohhell end")
    assert asked.ephemeral
    assert asked.response.content == f"¿Terminar ahora la partida #{table.id}? No se guarda ningún resultado."
    assert labels(asked.response) == ["Confirmar", "Cancelar"]
    confirmed = await ann.click(asked.response, label="Confirmar")
    assert confirmed.response.content == f"La partida #{table.id} queda terminada."
    said = [m.content or "" for m in bot_messages(channel, env.bot.user.id)]
    assert any(f"ended game #{table.id}. No result is recorded" in s for s in said), said
    assert not any("terminó la partida" in s for s in said), said


async def test_the_commands_carry_german_and_spanish_descriptions(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    guild.create_text_channel("cards")
    group = env.backend.find_command("ohhell", guild.id)
    assert group is not None
    assert group["description_localizations"]["de"] == "Oh Hell spielen"
    assert group["description_localizations"]["es-ES"] == "Jugar a Oh Hell"
    new = next(o for o in group["options"] if o["name"] == "new")
    assert new["description"] == "Open a new Oh Hell table in this channel"
    assert new["description_localizations"]["de"] == "Einen neuen Oh Hell-Tisch in diesem Kanal eröffnen"
    preset = next(o for o in new["options"] if o["name"] == "preset")
    assert preset["description_localizations"]["es-ES"].startswith("El conjunto de reglas")


async def test_a_double_press_is_answered_in_the_pressers_language(simcord_env, monkeypatch):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    speaks(monkeypatch, ann, "de")
    speaks(monkeypatch, bob, "es")
    await open_table(env, channel, ann, [bob], options=SHORT, computers=1)
    table = env.bot.tables.in_channel(channel.id)
    people = {ann.id: ann, bob.id: bob}
    seat = table.engine.to_act()[0]
    actor = people[table.seats[seat].user_id]
    counted = {
        ann.id: "✅ Dein Zug hat (einmal) gezählt; hier ist jetzt deine Hand.",
        bob.id: "✅ Tu jugada contó (una vez); aquí tienes ahora tu mano.",
    }
    first = await open_stale_copy(actor, channel, env)
    second = live_panel(env, channel, actor)
    value = next(iter(panel_moves(first)))
    done = await press(actor, second, value)
    assert warning_of(done) is None, warning_of(done)
    again = await press(actor, first, value)  # the same move pressed again, on the older copy
    assert counted[actor.id] in message_text(again.response).splitlines(), message_text(again.response)
    # one move of the presser's seat (the computer may have moved since)
    assert [s for s, _ in table.engine.log].count(seat) == 1


async def test_a_computer_at_a_german_and_a_spanish_table_has_its_level_in_the_tables_words(simcord_env, monkeypatch):
    """The computer's name ("Computer 1 (strong)") is the table's: a German table names it with
    "stark", a Spanish one with "fuerte", never the English level word."""
    env = simcord_env
    guild = env.create_guild()
    expected = {"de": "Computer 1 (stark)", "es": "Ordenador 1 (fuerte)"}
    for language, name in expected.items():
        channel = guild.create_text_channel(f"cards-{language}")
        host = guild.add_member(env.create_user(f"host-{language}"))
        lobby = (await host.slash(channel, "ohhell new")).response
        answer = await host.slash(channel, "ohhell set", option="language", value=language)
        assert "✅" in answer.response.content, answer.response
        lobby = [m for m in bot_messages(channel, env.bot.user.id) if m.id == lobby.id][0]
        [add] = [c["custom_id"] for c in walk_components(lobby.components) if c.get("custom_id", "").endswith(":bot")]
        assert "Add computer" not in labels(lobby)
        await host.click(lobby, custom_id=add)
        seats = env.bot.tables.in_channel(channel.id).seats
        assert [s.name for s in seats][-1] == name


async def test_a_restored_panel_speaks_its_players_language_before_they_press(simcord_env, monkeypatch, db_path):
    """The bot learns a member's language only from their presses; it keeps it in the store, so
    after a stop and a start (a new process, which knows nobody's language) the German player's
    open panel, redrawn after another player's move, is German before she presses anything."""
    from bot.messages import speech

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    people = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cid")]
    await open_table(env, channel, people[0], people[1:], preset="spades", options={"fixed_hands": "3"})
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    by_seat = {table.seat_of(p.id): p for p in people}
    first_seat = table.engine.to_act()[0]
    first, second, german = (by_seat[(first_seat + k) % 3] for k in range(3))  # she acts last
    speaks(monkeypatch, german, "de")
    panels = {}
    for person in (first, second, german):
        panels[person.id] = await open_hand(person, channel, env.bot.user.id)
    assert "Deine Hand" in message_text(panels[german.id])
    await env.settle()

    await env.bot.close()  # a clean stop: the open panels are saved
    speech.forget_all()  # a new process knows no member's language but what the store kept
    await env.restart_bot(make_bot(db_path))
    await env.settle()
    table = env.bot.tables.in_channel(channel.id, "ohhell")
    assert env.bot.tables.presenter.panels.live(table, table.seat_of(german.id))
    before = current_message(env, channel, panels[german.id].id)
    for person in (first, second):  # the others move through their old panels: her turn comes
        shown = current_message(env, channel, panels[person.id].id)
        moves = panel_moves(shown)
        assert moves, "their panel offers a move"
        await press(person, shown, next(iter(moves)))
        await env.settle()
    assert table.engine.to_act() == [table.seat_of(german.id)]
    redrawn = current_message(env, channel, panels[german.id].id)
    assert message_text(redrawn) != message_text(before), "redrawn by the new bot after the move"
    assert "Deine Hand" in message_text(redrawn) and "Your hand" not in message_text(redrawn), message_text(redrawn)
