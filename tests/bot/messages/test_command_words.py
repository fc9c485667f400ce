"""The slash commands as a German- or Spanish-speaking client shows them: every command's and
option's description, and every option choice, in the client's language; every command,
subcommand and option name English in every client (bot.messages.speech.CONTEXTS says why: the
bot's messages, the docs and the local page name the commands as they are typed). The payloads are
the ones the bot synced (every SimCord test also holds them to Discord's published API)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.helpers import speaks

#: what the translator is asked for: German, and both of Discord's Spanish locales
LOCALES = ("de", "es-ES", "es-419")
#: the choices kept as they are in every language: the games' own names
PROPER_NAMES = {"Oh Hell", "Shithead"}


def synced(env) -> list[dict[str, Any]]:
    guild = env.create_guild()
    commands = [env.backend.find_command(c.name, guild.id) for c in env.bot.tree.get_commands()]
    assert commands and all(commands), commands
    return commands


def walk(command: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every command, subcommand and option below ``command`` (itself first), with its path."""
    here = (*path, command["name"])
    yield here, command
    for option in command.get("options") or []:
        yield from walk(option, here)


async def test_every_description_speaks_german_and_spanish_and_no_name_is_localized(simcord_env):
    checked, missing = 0, []
    for command in synced(simcord_env):
        for path, item in walk(command):
            assert not item.get("name_localizations"), (path, item.get("name_localizations"))
            localized = item.get("description_localizations") or {}
            for locale in LOCALES:
                said = localized.get(locale)
                if not (said and said != item["description"] and len(said) <= 100):
                    missing.append(f"{' '.join(path)} {locale}: {item['description']!r} -> {said!r}")
            checked += 1
    assert not missing, "\n".join(missing)
    assert checked > 60


async def test_every_choice_is_shown_in_the_clients_language(simcord_env):
    choices = [
        (path, choice)
        for command in synced(simcord_env)
        for path, item in walk(command)
        for choice in item.get("choices") or []
        if choice["name"] not in PROPER_NAMES
    ]
    shown = {(path[-1], c["value"]): (c.get("name_localizations") or {}) for path, c in choices}
    assert {key for key in shown} >= {
        ("hand", "show"),
        ("hand", "hide"),
        ("setting", "on"),
        ("setting", "off"),
        ("length", "monthly"),
        ("length", "none"),
    }
    for (option, value), localized in shown.items():
        for locale in LOCALES:
            name = localized.get(locale)
            assert name and name != value and len(name) <= 100, (option, value, locale, localized)
    assert shown[("hand", "show")]["de"] == "zeigen" and shown[("setting", "off")]["es-ES"] == "desactivar"
    assert shown[("length", "quarterly")]["es-419"] == "trimestral"


async def test_a_german_member_picks_a_choice_as_their_client_shows_it(simcord_env, monkeypatch):
    """ann's client shows ``/ohhell pings`` with its choices "an" and "aus": she picks "aus" (the
    client sends its value) and is answered in German, told to pick "an" to turn pings back on."""
    from tests.helpers import open_table

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    ann, bob = (guild.add_member(env.create_user(n)) for n in ("ann", "bob"))
    speaks(monkeypatch, ann, "de")
    await open_table(env, channel, bob, [ann], computers=1)
    group = env.backend.find_command("ohhell", guild.id)
    pings = next(o for o in group["options"] if o["name"] == "pings")
    [setting] = pings["options"]
    picked = next(c for c in setting["choices"] if c["name_localizations"]["de"] == "aus")
    answer = await ann.slash(channel, "ohhell pings", setting=picked["value"])
    assert answer.ephemeral and "Zug-Pings sind für dich aus" in answer.response.content, answer.response.content
    on = next(c for c in setting["choices"] if c["value"] == "on")
    assert f"`/ohhell pings {on['name_localizations']['de']}`" in answer.response.content
    assert await env.bot.store.pings_off([ann.id]) == {ann.id}
