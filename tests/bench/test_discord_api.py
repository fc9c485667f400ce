"""bench/discord_api.py, the check every SimCord test's requests go through: it refuses what
Discord refuses (so it cannot pass silently), accepts what Discord accepts, and names the field."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import discord
import pytest

from bench.discord_api import (
    SPEC_COMMIT,
    SPEC_FILE,
    DiscordAPI,
    Request,
    Violation,
    check_all,
    discord_api,
)
from bench.discord_limits import embed_chars

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = "/channels/1/messages"
CALLBACK = "/interactions/2/token/callback"


def check(method: str, path: str, body: Any, files: tuple[str, ...] = (), kept: tuple[str, ...] | None = None):
    return discord_api().check(Request(method, path, body, files, kept))


def fields(violations: list[Violation]) -> list[str]:
    return [v.field for v in violations]


def button(custom_id: str = "ok", label: str = "OK") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def rows(count: int, per_row: int = 1) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [button(f"b{r}.{i}") for i in range(per_row)]} for r in range(count)]


def test_the_pinned_spec_is_discords_own_at_its_commit() -> None:
    """The file is the commit's ``specs/openapi.json``, OpenAPI 3.1, with its MIT licence beside it."""
    assert SPEC_FILE.name == f"discord-openapi-{SPEC_COMMIT[:7]}.json.gz" and SPEC_FILE.parent.name == "fixtures"
    with gzip.open(SPEC_FILE, "rb") as f:
        spec = json.load(f)
    assert spec["openapi"] == "3.1.0" and spec["info"]["title"].startswith("Discord HTTP API")
    assert spec["info"]["license"]["identifier"] == "MIT"
    licence = (SPEC_FILE.parent / "discord-openapi-LICENSE").read_text()
    assert "MIT License" in licence and "Copyright 2023 Discord" in licence
    assert len(spec["paths"]) == 150


def test_a_plain_message_a_button_row_and_an_uploaded_picture_are_accepted() -> None:
    embed = discord.Embed(title="Table", description="Spades", colour=0x2F3136)
    embed.set_image(url="attachment://table.png")
    body = {
        "content": "Your turn",
        "embeds": [embed.to_dict()],
        "components": rows(5, 5),
        "attachments": [{"id": 0, "filename": "table.png"}],
    }
    assert check("POST", MESSAGES, body, files=("table.png",)) == []
    assert check("POST", CALLBACK, {"type": 4, "data": {"content": "hi", "flags": 64}}) == []
    assert check("POST", CALLBACK, {"type": 6}) == []
    assert check("GET", "/channels/1/messages/2", None) == []


def test_an_over_long_custom_id_or_label_is_refused_by_the_spec() -> None:
    found = check("POST", MESSAGES, {"components": [{"type": 1, "components": [button("x" * 101)]}]})
    assert fields(found) == ["components[0].components[0].custom_id"]
    assert "101 characters" in found[0].message and found[0].operation == "create_message"
    assert "POST /channels/1/messages (create_message) components[0].components[0].custom_id" in str(found[0])
    found = check(
        "POST", CALLBACK, {"type": 7, "data": {"components": [{"type": 1, "components": [button(label="L" * 81)]}]}}
    )
    assert fields(found) == ["data.components[0].components[0].label"]
    assert check("POST", MESSAGES, {"components": [{"type": 1, "components": [button("x" * 100, "L" * 80)]}]}) == []


def test_a_sixth_row_a_sixth_button_and_a_shared_select_row_are_refused() -> None:
    assert fields(check("POST", MESSAGES, {"components": rows(6)})) == ["components"]
    assert fields(check("PATCH", "/channels/1/messages/2", {"components": rows(1, 6)})) == ["components[0].components"]
    select = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}
    assert fields(check("POST", MESSAGES, {"components": [{"type": 1, "components": [select, button()]}]})) == [
        "components[0]"
    ]
    too_many = dict(select, options=[{"label": str(i), "value": str(i)} for i in range(26)])
    assert fields(check("POST", MESSAGES, {"components": [{"type": 1, "components": [too_many]}]})) == [
        "components[0].components[0].options"
    ]


def test_embed_text_over_6000_characters_across_the_embeds_is_refused() -> None:
    fitting = [{"description": "a" * 4000}, {"title": "t" * 200, "fields": [{"name": "n" * 100, "value": "v" * 1000}]}]
    fitting.append({"footer": {"text": "f" * 500}, "author": {"name": "w" * 200}})
    assert embed_chars(fitting) == 6000 and check("POST", MESSAGES, {"embeds": fitting}) == []
    over = [*fitting[:2], {"footer": {"text": "f" * 501}, "author": {"name": "w" * 200}}]
    found = check("POST", CALLBACK, {"type": 4, "data": {"embeds": over}})
    assert fields(found) == ["data.embeds"] and "6001 characters" in found[0].message
    # the per-field limits are the spec's
    assert fields(check("POST", MESSAGES, {"embeds": [{"description": "d" * 4097}]})) == ["embeds[0].description"]
    field = {"name": "n", "value": "v" * 1025}
    assert fields(check("POST", MESSAGES, {"embeds": [{"fields": [field]}]})) == ["embeds[0].fields[0].value"]
    assert fields(check("POST", MESSAGES, {"embeds": [{"title": "t"}] * 11})) == ["embeds"]


def test_content_over_2000_characters_is_refused_though_the_spec_says_4000() -> None:
    assert check("POST", MESSAGES, {"content": "c" * 2000}) == []
    assert fields(check("POST", MESSAGES, {"content": "c" * 2001})) == ["content"]


def test_a_wrong_type_per_the_spec_is_refused() -> None:
    assert fields(check("POST", MESSAGES, {"content": 5})) == ["content"]
    found = check("POST", CALLBACK, {"type": 4, "data": {"embeds": {"title": "not a list"}}})
    assert fields(found) == ["data.embeds"]
    wrong_style = {"type": 1, "components": [dict(button(), style="primary")]}
    assert fields(check("POST", MESSAGES, {"components": [wrong_style]})) == ["components[0].components[0].style"]
    assert fields(check("POST", CALLBACK, {"type": 99})) == ["type"]


def test_a_body_like_one_found_valid_before_is_judged_anew() -> None:
    """Nothing found valid carries over to another body: the same text where a shorter one is
    required, the same row with one more button, ``True`` where ``1`` was valid, a tuple where a
    list was (``jsonschema-rs`` would take it for an array: it is left to ``jsonschema``), or a
    refusal seen before, are each refused again."""
    label = "L" * 81  # a valid embed title (256), an over-long button label (80)
    assert check("POST", MESSAGES, {"embeds": [{"title": label}], "components": rows(1)}) == []
    found = check(
        "POST",
        MESSAGES,
        {"embeds": [{"title": label}], "components": [{"type": 1, "components": [button(label=label)]}]},
    )
    assert fields(found) == ["components[0].components[0].label"]
    assert check("POST", MESSAGES, {"components": rows(1, 5)}) == []
    assert fields(check("POST", MESSAGES, {"components": rows(1, 6)})) == ["components[0].components"]
    assert fields(check("POST", MESSAGES, {"components": rows(1, 6)})) == ["components[0].components"]  # again
    assert check("POST", MESSAGES, {"content": "x", "flags": 1}) == []
    assert fields(check("POST", MESSAGES, {"content": "x", "flags": True})) == ["flags"]
    assert check("POST", MESSAGES, {"embeds": [{"fields": [{"name": "n", "value": "v"}]}]}) == []
    tupled = {"embeds": [{"fields": ({"name": "n", "value": "v"},)}]}  # JSON has no tuple: not an array
    assert fields(check("POST", MESSAGES, tupled)) == ["embeds[0].fields"]


def test_an_attachment_reference_must_name_a_file_the_message_carries() -> None:
    embed = {"image": {"url": "attachment://table.png"}}
    found = check("POST", MESSAGES, {"embeds": [embed]})
    assert fields(found) == ["embeds[0].image.url"] and "attachment://table.png" in found[0].message
    other = {"embeds": [embed], "attachments": [{"id": 0, "filename": "hand.png"}]}
    assert fields(check("POST", CALLBACK, {"type": 4, "data": other}, files=("hand.png",))) == [
        "data.embeds[0].image.url"
    ]
    # an edit keeps the files it lists by id, or all of them when it lists none
    kept = {"embeds": [embed], "attachments": [{"id": "123", "filename": "table.png"}]}
    assert check("PATCH", "/channels/1/messages/2", kept) == []
    assert check("PATCH", "/channels/1/messages/2", {"embeds": [embed]}, kept=("table.png",)) == []
    # a new message carries only what it uploads, whatever the simulator answered
    assert fields(check("POST", MESSAGES, {"embeds": [embed]}, kept=("table.png",))) == ["embeds[0].image.url"]
    dropped = {"embeds": [embed], "attachments": []}
    assert fields(check("PATCH", "/webhooks/1/tok/messages/@original", dropped)) == ["embeds[0].image.url"]


def test_eleven_files_or_an_empty_message_are_refused() -> None:
    names = tuple(f"{i}.png" for i in range(11))
    assert fields(check("POST", MESSAGES, {"content": "x"}, files=names)) == ["files"]
    assert fields(check("POST", MESSAGES, {"content": ""})) == ["(body)"]
    assert fields(check("POST", CALLBACK, {"type": 4, "data": {}})) == ["data"]
    assert check("PATCH", "/channels/1/messages/2", {"content": ""}) == []  # an edit may empty the text


def test_slash_command_names_descriptions_and_sizes_are_held_to_the_documented_rules() -> None:
    def command(**changes: Any) -> list[dict[str, Any]]:
        option = {"type": 3, "name": "player", "description": "Who"}
        sub = {"type": 1, "name": "new", "description": "A new table", "options": [option]}
        out = {"name": "ohhell", "description": "Oh Hell", "options": [sub], "default_member_permissions": "32"}
        return [out | changes]

    bulk = "/applications/1/commands"
    assert check("PUT", bulk, command()) == []
    assert check("PUT", "/applications/1/guilds/2/commands", command(name="काम")) == []  # Devanagari
    assert fields(check("PUT", bulk, command(name="OhHell"))) == ["[0].name"]
    assert fields(check("PUT", bulk, command(name="oh hell"))) == ["[0].name"]
    assert fields(check("PUT", bulk, command(name="o" * 33))) == ["[0].name", "[0].name"]  # the spec's and ours
    assert fields(check("PUT", bulk, command(description=""))) == ["[0].description"]
    bad = [{"type": 1, "name": "New", "description": "d" * 101}]
    assert sorted(fields(check("PUT", bulk, command(options=bad)))) == [
        "[0].options[0].description",
        "[0].options[0].description",
        "[0].options[0].name",
    ]
    choices = [{"name": f"c{i}", "value": "v" * 160} for i in range(25)]
    big = [{"type": 3, "name": "pick", "description": "d", "choices": choices}]
    assert any("4000" in v.message for v in check("PUT", bulk, command(options=big)))
    many = [{"type": 1, "name": f"s{i}", "description": "d"} for i in range(26)]
    assert fields(check("PUT", bulk, command(options=many))) == ["[0].options"]
    assert fields(check("PUT", bulk, command(default_member_permissions="admin"))) == ["[0].default_member_permissions"]


def test_paths_match_the_most_literal_template_and_unknown_ones_are_refused() -> None:
    api = discord_api()
    assert (
        api.operation("PATCH", "/webhooks/1/tok/messages/@original").operation_id == "update_original_webhook_message"
    )
    assert api.operation("PATCH", "/webhooks/1/tok/messages/3").operation_id == "update_webhook_message"
    assert api.operation("GET", "/channels/1/messages/pins").operation_id == "list_pins"
    assert api.operation("POST", "/channels/1/messages?x=1").operation_id == "create_message"
    assert fields(check("POST", "/channels/1/nonsense", {})) == [""]
    assert check("POST", "/channels/1/nonsense", {})[0].operation == "?"
    assert fields(check("POST", "/channels/1/typing", {"content": "x"})) == [""]  # takes no body


def test_the_relaxations_are_only_the_documented_ones() -> None:
    """An attachment numbered 0 and permissions as a string of digits pass; a negative id, a
    word, or a string where the spec wants a number anywhere else do not."""
    attachment = {"content": "x", "attachments": [{"id": -1, "filename": "a.png"}]}
    assert fields(check("POST", MESSAGES, attachment)) == ["attachments[0].id"]
    assert fields(check("POST", MESSAGES, {"content": "x", "flags": "64"})) == ["flags"]
    assert fields(check("POST", CALLBACK, {"type": "4", "data": {"content": "x"}})) == ["type"]
    spec = json.loads(gzip.decompress(SPEC_FILE.read_bytes()))
    assert DiscordAPI(spec).check(Request("POST", MESSAGES, {"attachments": [{"id": 0}], "content": "x"})) == []


def test_check_all_counts_operations_and_keeps_each_requests_path() -> None:
    requests = [Request("POST", f"/channels/{i}/messages", {"content": "c" * 2001}) for i in (1, 2)]
    requests.append(Request("GET", "/gateway/bot"))
    violations, operations = check_all(discord_api(), requests)
    assert [v.path for v in violations] == ["/channels/1/messages", "/channels/2/messages"]
    assert operations == {"create_message", "get_bot_gateway"}


BAD_BOT_TEST = """
import discord
import pytest
import pytest
from discord import app_commands


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="show", description="Shows a picture it never attaches")
        async def show(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Table").set_image(url="attachment://table.png")
            await interaction.response.send_message(embed=embed)

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def simcord_bot():
    bot = Bot()
    yield bot
    await bot.close()


async def test_sends_a_picture_without_its_file(simcord_env):
    channel = simcord_env.create_guild().create_text_channel("cards")
    member = channel.guild.add_member(simcord_env.create_user("ann"))
    answer = await member.slash(channel, "show")
    assert answer.response is not None  # SimCord accepts it; Discord would not
"""


def test_a_simcord_test_whose_bot_sends_what_discord_refuses_fails_naming_the_field(tmp_path: Path) -> None:
    """The suite's own hook (tests/discord_conformance.py) on a bot that sends an embed pointing
    at a file it never uploads: SimCord accepts it, the test fails, the report names the request."""
    (tmp_path / "test_bad_bot.py").write_text(textwrap.dedent(BAD_BOT_TEST))
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.discord_conformance", "-p", "no:cacheprovider", "-q"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 failed" in out and "test_sends_a_picture_without_its_file" in out, out
    assert "/callback (create_interaction_response) data.embeds[0].image.url: attachment://table.png" in out, out


def test_this_suite_checks_every_simcord_environment(request: pytest.FixtureRequest) -> None:
    """The hook is loaded in the suite itself (tests/conftest.py), following every ``Env.start``."""
    from simcord.env import Env

    from tests import discord_conformance

    assert request.config.pluginmanager.has_plugin("tests.discord_conformance")
    assert Env.start is discord_conformance._followed_start
