"""Every REST request the bot makes, held to Discord's published API rather than to SimCord.

SimCord accepts payloads that Discord refuses (an embed pointing at a file the message does not
carry, more text than a message may hold), so what the bot sends is checked here against what
Discord itself publishes:

- the operation's request schema in Discord's OpenAPI description (``discord/discord-api-spec``,
  ``specs/openapi.json``, OpenAPI 3.1, whose schemas are JSON Schema 2020-12), kept gzipped in
  ``tests/fixtures/`` at the commit :data:`SPEC_COMMIT` with its MIT licence: the request's method
  and path are matched to the spec's path template (a literal segment before a parameter, as
  Discord routes ``/messages/@original``), ``$ref``\\ s resolved in the document, and the body (a
  multipart request's ``payload_json``) validated against it: by ``jsonschema-rs`` (compiled) for
  the verdict, and by the ``jsonschema`` library for the field and the words of each refusal
  (:meth:`DiscordAPI.schema_errors`) whenever that verdict is not "valid";
- the limits Discord documents and the spec does not encode (bench/discord_limits.py: a bot's
  2,000 characters, five action rows, 6,000 characters of embed text a message, ten files, an
  ``attachment://`` image naming a file the message carries, slash command names...).

Where the spec and Discord's documentation differ, the documentation wins, as the spec's own
README says; two such places are relaxed here (:func:`_relaxed`), nothing else: a command's
``default_member_permissions`` is a string in the documentation (discord.py sends ``"32"``; the
README: the API takes a string parseable as an integer where the spec types an integer), and
Discord's "Uploading Files" example numbers a new attachment ``"id": 0``, an integer, where the
spec's snowflake is a string.

The checker is used by the test suite (every SimCord test's requests) and by
``bench/conformance.py``; it imports nothing from the bot or the tests.
"""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import referencing
from jsonschema.exceptions import ValidationError
from referencing.jsonschema import DRAFT202012

from bench.discord_limits import Request, documented_limits

#: the commit of ``discord/discord-api-spec`` whose ``specs/openapi.json`` is pinned (2026-07-18)
SPEC_COMMIT = "74fda0fad044407ea280043a03ffc9bc64c4e49e"
SPEC_FILE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / f"discord-openapi-{SPEC_COMMIT[:7]}.json"
SPEC_FILE = SPEC_FILE.with_name(SPEC_FILE.name + ".gz")
_SPEC_URI = f"https://raw.githubusercontent.com/discord/discord-api-spec/{SPEC_COMMIT}/specs/openapi.json"


@dataclass(frozen=True, slots=True)
class Violation:
    """What Discord would refuse: the request, the operation it is, the field and why."""

    method: str
    path: str
    operation: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.method} {self.path} ({self.operation}) {self.field or '(body)'}: {self.message}"


@dataclass(frozen=True, slots=True)
class Operation:
    operation_id: str
    template: str
    method: str
    body_pointer: str | None  # JSON pointer to the application/json request schema


def field_name(path: Iterable[str | int]) -> str:
    """``["embeds", 0, "fields", 3, "value"]`` -> ``embeds[0].fields[3].value``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


#: the permission bits of a command, which Discord documents as a string and discord.py sends so
_NUMERIC_STRING = {"type": "string", "pattern": "^[0-9]+$"}
_PERMISSION_FIELDS = (
    "ApplicationCommandCreateRequest",
    "ApplicationCommandPatchRequestPartial",
    "ApplicationCommandUpdateRequest",
)


def _relaxed(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec where Discord's documentation allows more: a snowflake that may also be a
    non-negative integer, as Discord's own "Uploading Files" example sends a new attachment's
    ``id`` (``"id": 0``); a command's ``default_member_permissions`` as a string of digits (the
    documentation's type; the spec's README: "Our API accepts strings for int fields if they are
    parseable as ints"). Only these fields: elsewhere a type is the spec's."""
    schemas = spec["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]}
    for name in _PERMISSION_FIELDS:
        field = schemas[name]["properties"]["default_member_permissions"]
        schemas[name]["properties"]["default_member_permissions"] = {"anyOf": [field, _NUMERIC_STRING]}
    return spec


def _discriminated(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with each union told apart by its ``type`` field checked as such: a ``oneOf`` or
    ``anyOf`` whose branches are objects each naming the ``type`` values it takes (a component:
    a button's 2, a select's 3; a callback: 4 or 5, 6 or 7, 9...), with those values disjoint,
    becomes the keyword :data:`BY_TYPE`: "``type`` is one of them, and the branch of that value
    holds". The same schema in meaning (exactly one branch can hold either way), but jsonschema
    then validates one branch instead of trying every one to count the matches (a table's
    message took a tenth of a second), and a failure names the field inside the branch the
    payload meant. A union of constants (``ButtonStyleTypes``: one branch a style) becomes the
    ``enum`` it means, checked once instead of a failed branch a value."""
    schemas = spec["components"]["schemas"]

    def type_values(branch: Any) -> list[Any] | None:
        target = branch
        if isinstance(branch, dict) and set(branch) == {"$ref"} and branch["$ref"].startswith("#/components/schemas/"):
            target = schemas.get(branch["$ref"].rsplit("/", 1)[1])
        kind = target.get("properties", {}).get("type") if isinstance(target, dict) else None
        if not isinstance(kind, dict) or "type" not in target.get("required", ()):
            return None
        values = kind.get("enum", [kind["const"]] if "const" in kind else None)
        return list(values) if isinstance(values, list) else None

    def rewrite(node: Any) -> Any:
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: rewrite(value) for key, value in node.items()}
        for union in ("oneOf", "anyOf"):
            branches = node.get(union)
            if not isinstance(branches, list) or len(branches) < 2:
                continue
            if all(isinstance(b, dict) and "const" in b and set(b) <= CONST_BRANCH for b in branches):
                del node[union]  # an enumeration written as one branch a value: the same, as an enum
                node["enum"] = [b["const"] for b in branches]
                continue
            nullable = [b for b in branches if b == {"type": "null"}]
            typed = [(b, type_values(b)) for b in branches if b not in nullable]
            values = [v for _, vs in typed for v in (vs or [None])]
            if any(vs is None for _, vs in typed) or len(values) != len(set(values)):
                continue
            del node[union]
            node["type"] = ["object", "null"] if nullable else "object"
            node[BY_TYPE] = {json.dumps(v): branch for branch, vs in typed for v in vs or ()}
        return node

    spec["components"]["schemas"] = {name: rewrite(schema) for name, schema in schemas.items()}
    spec["paths"] = rewrite(spec["paths"])
    return spec


def _inlined(schema: Any, schemas: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> Any:
    """``schema`` with each ``$ref`` to a named schema replaced by that schema, except where it
    would reach itself again (a container of components: the reference stays, absolute); and an
    ``allOf`` that only repeats, wider, the ``enum`` beside it (a button's ``type`` [2] within all
    component types) dropped. The same schema in meaning; it validates in half the time, as
    jsonschema looks each reference up anew for every value it checks."""
    if isinstance(schema, list):
        return [_inlined(item, schemas, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/") and len(schema) == 1:
        name = ref.rsplit("/", 1)[1]
        if name in seen:
            return {"$ref": _SPEC_URI + ref}
        return _inlined(schemas[name], schemas, seen | {name})
    out = {key: value if key in ("enum", "const") else _inlined(value, schemas, seen) for key, value in schema.items()}
    if isinstance(ref, str) and ref.startswith("#"):
        out["$ref"] = _SPEC_URI + ref  # beside other words (a poll's question): the spec's, from anywhere
    if isinstance(out.get("enum"), list) and isinstance(out.get("allOf"), list):
        wider = [
            s
            for s in out["allOf"]
            if isinstance(s, dict)
            and set(s) <= {"type", "enum", "format", "title", "description"}
            and set(map(json.dumps, out["enum"])) <= set(map(json.dumps, s.get("enum", [])))
        ]
        out["allOf"] = [s for s in out["allOf"] if s not in wider]
        if not out["allOf"]:
            del out["allOf"]
    return out


#: an operation not looked up yet
_UNKNOWN = object()
#: what a branch of an enumeration written as a union holds besides its value (its name, its words)
CONST_BRANCH = {"const", "title", "description"}
#: the keyword :func:`_discriminated` writes: the branch of each ``type`` value (as JSON)
BY_TYPE = "x-branch-by-type"


def _branch_by_type(validator: Any, branches: dict[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    """Validate an object against the branch of its ``type`` alone."""
    if not isinstance(instance, dict):
        return
    branch = branches.get(json.dumps(instance.get("type")))
    if branch is None:
        allowed = ", ".join(branches)
        yield ValidationError(
            f"type {instance.get('type')!r} is none of the types allowed here ({allowed})", path=["type"]
        )
        return
    yield from validator.descend(instance, branch)


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {BY_TYPE: _branch_by_type})


def _standard(node: Any) -> Any:
    """``node`` in JSON Schema's own words, for a validator that knows no :data:`BY_TYPE`: each
    such keyword as "``type`` is one of the values, and for each value, if ``type`` is it, its
    branch holds" (``required``, ``enum``, ``if``/``then``). The same verdict for every body
    :func:`_plain` lets through (no float there, so ``2.0`` is never a ``type`` that JSON
    Schema's equality would take for ``2`` and :func:`_branch_by_type`'s lookup would not)."""
    if isinstance(node, list):
        return [_standard(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: value if key in ("enum", "const") else _standard(value) for key, value in node.items()}
    branches = out.pop(BY_TYPE, None)
    if branches is not None:
        values = {key: json.loads(key) for key in branches}
        by_type: list[Any] = [{"required": ["type"], "properties": {"type": {"enum": list(values.values())}}}]
        by_type += [{"if": {"properties": {"type": {"const": values[k]}}}, "then": b} for k, b in branches.items()]
        out["allOf"] = [*out.get("allOf", ()), {"allOf": by_type}]
    return out


def _plain(value: Any) -> bool:
    """Whether ``value`` is made of JSON's own types alone, exactly: dicts with string keys,
    lists, strings, ints, booleans and ``None``. Such a value means the same to both validators;
    anything else (a tuple, which ``jsonschema`` holds to be no array and ``jsonschema-rs`` takes
    for one; a float; a subclass of ``int`` or ``str``) is left to ``jsonschema`` alone."""
    stack = [value]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            for key in value:
                if type(key) is not str:
                    return False
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
        elif kind is not str and kind is not int and kind is not bool and value is not None:
            return False
    return True


class DiscordAPI:
    """Discord's OpenAPI description, ready to check requests (:meth:`check`)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = _discriminated(_relaxed(spec))
        resource = referencing.Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self._registry: referencing.Registry[Any] = referencing.Registry().with_resource(_SPEC_URI, resource)
        self._routes: dict[tuple[str, int], list[tuple[list[str], Operation]]] = {}
        self._operations: dict[tuple[str, str], Operation | None | object] = {}
        for template, item in self.spec["paths"].items():
            for method, op in item.items():
                if method not in ("get", "put", "post", "patch", "delete"):
                    continue
                pointer = None
                content = (op.get("requestBody") or {}).get("content") or {}
                if "application/json" in content:
                    escaped = template.replace("~", "~0").replace("/", "~1")
                    pointer = f"#/paths/{escaped}/{method}/requestBody/content/application~1json/schema"
                operation = Operation(op["operationId"], template, method.upper(), pointer)
                segments = template.strip("/").split("/")
                self._routes.setdefault((method.upper(), len(segments)), []).append((segments, operation))

    @classmethod
    def load(cls, path: Path = SPEC_FILE) -> DiscordAPI:
        with gzip.open(path, "rb") as f:
            return cls(json.load(f))

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation ``method path`` is: the template that matches it with the most literal
        segments (``/messages/@original`` before ``/messages/{message_id}``). A game edits the
        same few messages thousands of times, so each path is matched once."""
        known = self._operations.get((method, path), _UNKNOWN)
        if known is _UNKNOWN:
            if len(self._operations) > 20000:
                self._operations.clear()
            known = self._operations[method, path] = self._match(method, path)
        return known  # type: ignore[return-value]

    def _match(self, method: str, path: str) -> Operation | None:
        segments = path.split("?", 1)[0].strip("/").split("/")
        best: tuple[int, Operation] | None = None
        for template, operation in self._routes.get((method.upper(), len(segments)), ()):
            literals = 0
            for tpl, seg in zip(template, segments, strict=True):
                if tpl.startswith("{") and tpl.endswith("}"):
                    continue
                if tpl != seg:
                    break
                literals += 1
            else:
                if best is None or literals > best[0]:
                    best = (literals, operation)
        return None if best is None else best[1]

    @functools.cache  # noqa: B019 - one checker object lives for the whole run
    def _schema(self, pointer: str) -> Any:
        resolved = self._registry.resolver(_SPEC_URI).lookup(pointer).contents
        return _inlined(resolved, self.spec["components"]["schemas"])

    @functools.cache  # noqa: B019
    def _validator(self, pointer: str) -> Any:
        return _Validator(self._schema(pointer), registry=self._registry)

    @functools.cached_property
    def _fast_registry(self) -> jsonschema_rs.Registry:
        return jsonschema_rs.Registry([(_SPEC_URI, _standard(self.spec))], draft=jsonschema_rs.Draft202012)

    @functools.cache  # noqa: B019
    def _fast_validator(self, pointer: str) -> Any:
        # formats are words only, as for jsonschema without a format checker
        schema = _standard(self._schema(pointer))
        return jsonschema_rs.Draft202012Validator(schema, registry=self._fast_registry, validate_formats=False)

    def fast_verdict(self, pointer: str, body: Any) -> bool | None:
        """Whether ``body`` is valid against the request schema at ``pointer``, by the compiled
        validator (a body of thousands of values in microseconds, where ``jsonschema`` takes a
        millisecond); ``None`` for a body it is not given (:func:`_plain`) or cannot read."""
        if not _plain(body):
            return None
        validator = self._fast_validator(pointer)  # a schema it cannot read fails here, loudly
        try:
            return bool(validator.is_valid(body))
        except ValueError:  # a string with a lone surrogate: not UTF-8, nothing JSON can carry
            return None

    def schema_errors(self, pointer: str, body: Any) -> list[tuple[str, str]]:
        """``(field, why)`` for each field of ``body`` the request schema at ``pointer`` refuses,
        by ``jsonschema``, the reference: the field the payload meant, the words of each error."""
        by_field: dict[str, str] = {}  # one error a field (a wrong type fails a field's enum too)
        for error in map(_precise, self._validator(pointer).iter_errors(body)):
            by_field.setdefault(field_name(error.absolute_path), _says(error))
        return list(by_field.items())

    def check(self, request: Request) -> list[Violation]:
        """Everything in ``request`` that Discord would refuse (empty: Discord accepts it)."""
        operation = self.operation(request.method, request.path)
        if operation is None:
            return [Violation(request.method, request.path, "?", "", "no such operation in Discord's API")]
        found: list[tuple[str, str]] = []
        if request.body is not None:
            if operation.body_pointer is None:
                found.append(("", "this operation takes no JSON body"))
            elif not self.fast_verdict(operation.body_pointer, request.body):
                # refused (or not for the compiled validator): jsonschema judges and says why
                found += self.schema_errors(operation.body_pointer, request.body)
        found += documented_limits(operation.operation_id, request)
        return [Violation(request.method, request.path, operation.operation_id, f, m) for f, m in found]


def _precise(error: ValidationError) -> ValidationError:
    """For a failed ``oneOf``/``anyOf`` (a component, an interaction's callback), the error of
    the branch the payload meant, told by its ``type`` (a button's 2, a callback's 4): the branch
    whose own ``type`` check did not fail, when exactly one did not."""
    while error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0], []).append(sub)
        meant = [
            errs
            for errs in branches.values()
            if not any(list(e.relative_path) == ["type"] or (e.validator == "type" and not e.path) for e in errs)
        ]
        if len(meant) != 1:
            return error
        error = max(meant[0], key=lambda e: len(e.absolute_path))
    return error


def _says(error: ValidationError) -> str:
    """An error in a line: a length or a count with its limit rather than the whole text."""
    instance, limit = error.instance, error.validator_value
    if error.validator in ("maxLength", "minLength") and isinstance(instance, str):
        return f"{len(instance)} characters; {error.validator} {limit}"
    if error.validator in ("maxItems", "minItems") and isinstance(instance, list):
        return f"{len(instance)} items; {error.validator} {limit}"
    text = error.message
    return text if len(text) <= 200 else text[:200] + "…"


# -- recording SimCord's requests --------------------------------------------------------------

#: per SimCord backend: index in ``backend.http_requests`` -> (uploaded file names, kept file names)
_FILES_SEEN = "_discord_api_files"


def record_simcord_files() -> None:
    """Make SimCord note, for every request, the names of the files it uploads and, for an edit
    that sends no ``attachments``, the files the message carries after it: SimCord's own log
    (``env.http_requests``) keeps neither. Idempotent; call before the bot starts."""
    from simcord.http import router

    if getattr(router.dispatch, "_discord_api", False):
        return
    original = router.dispatch

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        index = len(backend.http_requests)
        files = note_files(backend, index, kwargs.get("files"))  # first: an injected fault raises below
        seen = backend.__dict__.setdefault(_FILES_SEEN, {})
        result = original(backend, method, path, **kwargs)
        kept = None
        body = kwargs.get("json")
        if isinstance(body, Mapping) and isinstance(body.get("data"), Mapping) and "/callback" in path:
            body = body["data"]
        if method in ("PATCH", "POST") and isinstance(body, Mapping) and "attachments" not in body:
            message = result.get("resource", {}).get("message") if isinstance(result, Mapping) else None
            message = message if message is not None else result
            if isinstance(message, Mapping) and isinstance(message.get("attachments"), list):
                kept = tuple(a.get("filename", "") for a in message["attachments"] if isinstance(a, Mapping))
        if files or kept:
            seen[index] = (files, kept)
        return result

    dispatch._discord_api = True  # type: ignore[attr-defined]
    router.dispatch = dispatch


def note_files(backend: Any, index: int, files: Iterable[Any] | None) -> tuple[str, ...]:
    """Note the names of the files request ``index`` uploads (for a test that fails a request
    itself, before SimCord's router sees it) and return them."""
    names = tuple(str(getattr(f, "filename", None) or "") for f in files or ())
    if names:
        backend.__dict__.setdefault(_FILES_SEEN, {})[index] = (names, None)
    return names


def simcord_requests(env: Any, start: int = 0) -> list[Request]:
    """The requests of a SimCord env (``env.http_requests``) from ``start``, with the files
    :func:`record_simcord_files` noted."""
    seen: dict[int, tuple[tuple[str, ...], tuple[str, ...] | None]] = env.backend.__dict__.get(_FILES_SEEN, {})
    out = []
    for index, entry in enumerate(env.http_requests[start:], start):
        files, kept = seen.get(index, ((), None))
        out.append(Request(entry.method, entry.path, entry.json, files, kept))
    return out


def check_all(api: DiscordAPI, requests: Iterable[Request]) -> tuple[list[Violation], set[str]]:
    """Every violation in ``requests``, and the operations they were. Each request is checked
    whole: a valid body costs the compiled validator a few microseconds, less than a key to
    remember it by would."""
    violations: list[Violation] = []
    operations: set[str] = set()
    for request in requests:
        operation = api.operation(request.method, request.path)
        operations.add(f"{request.method} {request.path}" if operation is None else operation.operation_id)
        violations += api.check(request)
    return violations, operations


@functools.cache
def discord_api() -> DiscordAPI:
    """The pinned spec, loaded once a process."""
    return DiscordAPI.load()
