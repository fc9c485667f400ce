"""A fake drand relay on 127.0.0.1 (aiohttp's server): each path prefix is a relay that behaves
one way (the real round, 404 until a time, 500, a hang, another round, a bad signature, not
JSON), for the relay client's tests and the game's SimCord tests. It serves only the rounds of
tests/fixtures/drand_quicknet.json, the real ones."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

FIXTURES: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[3] / "fixtures" / "drand_quicknet.json").read_text(encoding="utf-8")
)
ROUNDS: dict[int, dict[str, Any]] = {r["round"]: r for r in FIXTURES["rounds"]}
BEHAVIOURS = ("good", "notyet", "error", "hang", "other", "badsig", "garbage")


@dataclass
class FakeRelay:
    """``base(behaviour)`` is a relay's address; ``asked`` lists (behaviour, round, clock time)."""

    now: Callable[[], float]
    #: until when (on ``now``) the "notyet" relay answers 404
    published_at: float = 0.0
    asked: list[tuple[str, int, float]] = field(default_factory=list)
    hanging: asyncio.Event = field(default_factory=asyncio.Event)
    _runner: web.AppRunner | None = None
    _port: int = 0

    def base(self, behaviour: str) -> str:
        assert behaviour in BEHAVIOURS
        return f"http://127.0.0.1:{self._port}/{behaviour}"

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        behaviour, number = request.match_info["behaviour"], int(request.match_info["round"])
        self.asked.append((behaviour, number, self.now()))
        known = ROUNDS.get(number)
        if behaviour == "hang":
            self.hanging.set()
            await asyncio.Event().wait()
        if behaviour == "error":
            return web.Response(status=500, text="internal error")
        if behaviour == "garbage":
            return web.Response(status=200, text="<html>")
        if known is None or (behaviour == "notyet" and self.now() < self.published_at):
            return web.json_response({"error": "Requested future beacon"}, status=404)
        body = dict(known)
        if behaviour == "other":
            other = next(r for n, r in ROUNDS.items() if n != number)
            body = dict(other)
        if behaviour == "badsig":
            signature = bytearray(bytes.fromhex(body["signature"]))
            signature[-1] ^= 1
            body["signature"] = signature.hex()
            body.pop("randomness")
        return web.json_response(body)

    async def __aenter__(self) -> FakeRelay:
        app = web.Application()
        app.router.add_get("/{behaviour}/{chain}/public/{round}", self._serve)
        self._runner = web.AppRunner(app, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        self._port = server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._runner is not None
        await self._runner.cleanup()
