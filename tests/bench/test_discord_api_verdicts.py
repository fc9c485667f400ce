"""The two validators of bench/discord_api.py give one verdict: ``jsonschema-rs`` says whether a
body is valid (every SimCord request goes through it), ``jsonschema`` is asked only when it says
no, for the field and the words. A body the compiled one calls valid is never looked at again, so
it must call valid only what ``jsonschema`` does: held here on real requests and on their mutants.

The real requests (tests/fixtures/discord-requests-sample.json.gz) were recorded, with the names
of the files each uploads or keeps, from the SimCord runs of tests/cogs/ohhell/test_games.py,
tests/cogs/shithead/test_games.py and ``bench/conformance.py --quick``: one request of each
operation for each shape of body (the keys and the types of the values, a list's distinct
element shapes), 63 requests of 8 operations."""

from __future__ import annotations

import copy
import enum
import gzip
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from bench.discord_api import DiscordAPI, Request, discord_api
from bench.discord_limits import COMMAND_NAME

SAMPLE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "discord-requests-sample.json.gz"
MESSAGES = "/channels/1/messages"
COMMANDS = "/applications/1/commands"
#: mutants of each real body: about a thousand bodies, each validated by both
MUTANTS = 16

#: strings where the spec bounds lengths (80 a label, 100 a custom id, 256 a title, 2,000 and
#: 4,000 a content...), names of the scripts Discord's command names take and case it refuses,
#: snowflakes and a colour's hex form around their patterns
STRINGS = [
    "",
    "x" * 33,
    "L" * 81,
    "c" * 101,
    "t" * 257,
    "d" * 1025,
    "f" * 2049,
    "c" * 4001,
    "d" * 4097,
    "काम",  # Devanagari
    "ภาษา",  # Thai
    "OhHell",
    "oh hell",
    "é" * 40,
    "😀" * 33,
    "0",
    "123",
    "0123",
    "-1",
    "#abcdef",
    "#abcdeg",
]
NUMBERS = [0, 1, -1, 2, 5, 7, 99, 2**31, 2**53, 2**64 - 1, 2**64, -(2**63) - 1, 10**30]


def sample() -> list[Request]:
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as f:
        return [
            Request(
                r["method"], r["path"], r["body"], tuple(r["files"]), None if r["kept"] is None else tuple(r["kept"])
            )
            for r in json.load(f)
        ]


def pointer(api: DiscordAPI, request: Request) -> str:
    operation = api.operation(request.method, request.path)
    assert operation is not None and operation.body_pointer is not None, request.path
    return operation.body_pointer


def verdicts(api: DiscordAPI, where: str, body: Any) -> tuple[bool | None, bool]:
    """The compiled validator's verdict (``None``: not given to it) and jsonschema's."""
    return api.fast_verdict(where, body), not api.schema_errors(where, body)


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def replaced(body: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    body = copy.deepcopy(body)
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return body


def variants(value: Any, rng: random.Random) -> list[Any]:
    """What a value may be turned into: the wrong JSON type, a length or a count past a limit, a
    number or a string that its schema may refuse, a field more or less, another ``type``."""
    if isinstance(value, bool):
        return [not value, 1, 0, "true", None]
    if isinstance(value, int):
        return [*NUMBERS, True, str(value), None, [value]]
    if isinstance(value, str):
        return [*STRINGS, value * 30, 5, None, [value]]
    if value is None:
        return [0, "", [], {}, False]
    if isinstance(value, list):
        return [[], value * 30, value[:1] * 26, {}, "[]", [None], [5]]
    out: list[Any] = [{}, [], "{}", dict(value, zz_extra=1), dict(value, name_localizations={"hi": "x" * 101})]
    if value:
        dropped = rng.choice(sorted(value))
        out.append({k: v for k, v in value.items() if k != dropped})
    if isinstance(value.get("type"), int) and not isinstance(value["type"], bool):
        out += [dict(value, type=t) for t in (1, 2, 3, 4, 5, 6, 7, 9, 10, 17, 99, "2")]
    return out


def test_every_real_request_is_valid_to_both() -> None:
    api = discord_api()
    requests = sample()
    assert len(requests) == 63
    assert {api.operation(r.method, r.path).operation_id for r in requests} >= {  # type: ignore[union-attr]
        "bulk_set_application_commands",
        "create_interaction_response",
        "create_message",
        "update_message",
        "execute_webhook",
        "update_original_webhook_message",
    }
    for request in requests:
        assert verdicts(api, pointer(api, request), request.body) == (True, True), request.path
        assert api.check(request) == []


def test_the_compiled_verdict_is_jsonschemas_on_a_thousand_mutants_of_real_requests() -> None:
    """Each real body, changed at a random place (wrong types, over-long strings, names in
    other scripts or cases, numbers past their bounds, fields more or fewer, lists past their
    counts, another ``type`` for a component or a callback): the same verdict from both, and
    about as many refused as accepted, so the agreement is not that of a body nobody checks."""
    api = discord_api()
    rng = random.Random(20260718)
    seen: Counter[tuple[bool | None, bool]] = Counter()
    for request in sample():
        where = pointer(api, request)
        spots = list(places(request.body))
        for _ in range(MUTANTS):
            path, value = rng.choice(spots)
            body = replaced(request.body, path, rng.choice(variants(value, rng)))
            fast, python = verdicts(api, where, body)
            assert fast == python, (request.method, request.path, path, json.dumps(body)[:2000])
            seen[fast, python] += 1
    assert seen[True, True] > 300 and seen[False, False] > 300, seen


def test_the_documented_relaxations_and_the_limits_around_them_agree() -> None:
    """The two relaxations (an attachment's ``id`` a non-negative integer; permissions a string
    of digits) and their neighbours, a ``type`` and a flag of the wrong JSON type, the counts."""
    api = discord_api()
    message = pointer(api, Request("POST", MESSAGES))
    commands = pointer(api, Request("PUT", COMMANDS))
    cases: list[tuple[str, Any, bool]] = []
    for id_, valid in [
        (0, True),
        (2**64 - 1, True),
        ("0", True),
        ("123", True),
        (-1, False),
        (2**64, False),
        ("abc", False),
        ("-1", False),
        (" 1", False),
        (True, False),
        (None, False),
    ]:
        cases.append((message, {"content": "x", "attachments": [{"id": id_, "filename": "a.png"}]}, valid))
    for permissions, valid in [("32", True), ("0", True), (32, True), (None, True), ("admin", False), ("-1", False)]:
        command = {"name": "ohhell", "description": "d", "default_member_permissions": permissions}
        cases.append((commands, [command], valid))
    for name, valid in [("काम", True), ("ภาษา", True), ("o" * 32, True), ("o" * 33, False), ("", False), (5, False)]:
        cases.append((commands, [{"name": name, "description": "d"}], valid))
    localized = {"name": "ohhell", "description": "d", "name_localizations": {"hi": "काम", "de": "x" * 33}}
    cases.append((commands, [localized], False))
    cases += [
        (message, {"content": "x", "flags": True}, False),
        (message, {"content": "x", "flags": "64"}, False),
        (message, {"content": "c" * 4000}, True),
        (message, {"content": "c" * 4001}, False),
        (message, {"embeds": [{"title": "t"}] * 10}, True),
        (message, {"embeds": [{"title": "t"}] * 11}, False),
        (message, {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "c"}]}]}, True),
        (message, {"components": [{"type": 1, "components": [{"type": 2, "custom_id": "c"}]}]}, False),
        (message, {"components": [{"type": 1, "components": [{"style": 1, "custom_id": "c"}]}]}, False),
        (message, {"components": [{"type": 99}]}, False),
        (message, {"components": [{"type": None}]}, False),
        (message, {"embeds": [{"color": 16777215}], "zz_extra": [1]}, True),  # the spec's objects are open
        (message, {"embeds": [{"color": 16777216}]}, False),
    ]
    for where, body, valid in cases:
        assert verdicts(api, where, body) == (valid, valid), body


class Seat(enum.IntEnum):
    FIRST = 1


def test_a_body_of_other_than_jsons_own_types_is_left_to_jsonschema() -> None:
    """A tuple (jsonschema: no array; jsonschema-rs: an array), a float (``2.0`` is JSON
    Schema's ``2``, not the ``type`` key jsonschema's branch lookup reads), an int or str
    subclass, a key that is no string: the compiled validator is not asked, and the check is
    jsonschema's as before. A lone surrogate (no UTF-8 for it) it judges where it needs no
    UTF-8 (a type, a length) and cannot read elsewhere (a pattern, an enum): never a verdict
    of its own."""
    api = discord_api()
    message = pointer(api, Request("POST", MESSAGES))
    button = {"type": 2, "style": 1, "custom_id": "c"}
    for body in [
        {"embeds": [{"fields": ({"name": "n", "value": "v"},)}]},
        {"components": [{"type": 1.0, "components": [button]}]},
        {"content": "x", "flags": Seat.FIRST},
        {"content": "x", 1: "y"},
    ]:
        fast, _ = verdicts(api, message, body)
        assert fast is None, body
    lone = "\ud800"
    for body in [
        {"content": lone},
        {"content": lone * 4001},
        {"embeds": [{"title": lone}]},
        {"attachments": [{"id": lone, "filename": "a.png"}]},
        {"allowed_mentions": {"parse": [lone]}},
        {"components": [{"type": 1, "components": [dict(button, custom_id=lone * 101)]}]},
        {lone: "x"},
    ]:
        fast, python = verdicts(api, message, body)
        assert fast in (None, python), body
    assert [v.field for v in api.check(Request("POST", MESSAGES, {"embeds": ({"title": "t"},)}))] == ["embeds"]
    assert api.check(Request("POST", MESSAGES, {"content": "x", "flags": Seat.FIRST})) == []


def test_where_the_compiled_validator_is_stricter_jsonschemas_verdict_stands() -> None:
    """Python's ``re`` lets ``$`` match before a final newline, JSON Schema's (ECMA-262) regular
    expressions do not: a snowflake ``"12\\n"`` is refused by the compiled validator, then
    accepted by jsonschema, whose verdict the check keeps, as it did before."""
    api = discord_api()
    message = pointer(api, Request("POST", MESSAGES))
    body = {"content": "x", "attachments": [{"id": "12\n", "filename": "a.png"}]}
    assert verdicts(api, message, body) == (False, True)
    assert api.check(Request("POST", MESSAGES, body)) == []


@pytest.mark.parametrize("name", ["काम", "कार्ड", "ภาษา", "ohhell", "oh-hell_2", "OhHell", "oh hell", "", "a" * 33])
def test_the_compiled_validator_reads_unicode_script_classes_as_regex_does(name: str) -> None:
    """Discord's command name pattern (bench/discord_limits.py, ``\\p{sc=Deva}``, ``\\p{sc=Thai}``)
    as a schema's ``pattern``: the compiled validator reads it as the ``regex`` module does, so a
    spec that carries it would be checked the same."""
    schema = {"type": "string", "pattern": COMMAND_NAME.pattern}
    assert jsonschema_rs.validator_for(schema).is_valid(name) == bool(COMMAND_NAME.search(name))
