"""The host's endpoint: is the bot alive, is it ready, and how is it doing.

Off unless ``HEALTH_PORT`` is set; it listens on ``HEALTH_HOST`` (127.0.0.1 unless the host says
otherwise: the page names no secret, but it is nobody else's business). aiohttp serves it, as it
already carries discord.py's connections, on the bot's own event loop:

- ``GET /healthz``: 200 while the process answers at all (its event loop turns);
- ``GET /readyz``: 200 once the store is open, this process holds its shards' leases and every
  shard's gateway connection is up; 503 otherwise (also while stopping). The JSON body names
  each part and whether it is ready, so a host sees which one is not;
- ``GET /metrics``: Prometheus' text format (:mod:`bot.host.metrics`).

The server starts before the store opens (so that a slow start reads "not ready", not "nothing
there") and stops last, when the bot has closed.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

from aiohttp import web

from bot.host import metrics

log = logging.getLogger(__name__)


def readiness(bot: Any) -> dict[str, Any]:
    """Each part of being ready, and whether all are: ``{"ready": bool, "store": {...}, ...}``.

    ``bot`` is a :class:`bot.client.CardBot` (not imported here: it imports this module)."""
    shards = metrics.gateway(bot)
    down = [shard for shard, _, up in shards if not up]
    parts: dict[str, dict[str, Any]] = {
        "store": {"ready": bot.store_open, "detail": "open" if bot.store_open else "not open"},
        "shards": {
            "ready": bot.leases.held,
            "detail": (
                f"leased: {','.join(map(str, bot.leases.shards))} of {bot.leases.shard_count}"
                if bot.leases.held
                else "not leased"
            ),
        },
        "gateway": {
            "ready": not down and not bot.is_closed(),
            "detail": (
                "connected"
                if not down and not bot.is_closed()
                else f"not connected: shard(s) {','.join(map(str, down or [s for s, _, _ in shards]))}"
                + (f" ({bot.login_retry})" if getattr(bot, "login_retry", None) else "")
            ),
        },
    }
    ready = all(part["ready"] for part in parts.values())
    return {"ready": ready, **parts}


class EndpointError(Exception):
    """The endpoint cannot listen where it was told (a port another program holds); the message is
    one sentence naming the address. A wrong setting, not a network fault: the caller exits 2."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        self.host = host
        self.port = port
        self.reason = reason
        super().__init__(
            f"The health endpoint could not listen on {host}:{port} ({reason}):"
            " pick another HEALTH_PORT, or leave it empty for no endpoint."
        )


class HealthServer:
    """The endpoint of one bot; :meth:`start` binds it, :meth:`close` stops it."""

    def __init__(self, bot: Any, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        #: the port asked for (0: any free one); the one bound once started
        self.port = port
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        return app

    async def start(self) -> None:
        if self._runner is not None:
            return
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            reason = os.strerror(error.errno).lower() if error.errno else str(error)
            raise EndpointError(self.host, self.port, reason) from error
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("health endpoint on http://%s:%d (/healthz, /readyz, /metrics)", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def readyz(self, request: web.Request) -> web.Response:
        body = readiness(self.bot)
        return web.Response(
            text=json.dumps(body), status=200 if body["ready"] else 503, content_type="application/json"
        )

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=metrics.page(), headers={"Content-Type": metrics.CONTENT_TYPE})
