"""What the bot measures, in Prometheus' text format (``GET /metrics`` on the health endpoint).

Every series is named ``cardtable_…``. The collectors live in this module's own registry (not
prometheus_client's global one), so nothing another library registers leaks into the page, and the
hooks in the rest of the bot are one call each:

- a press (any button or select of the bot's) is timed from the moment its callback starts to the
  moment its answer went to Discord (:func:`pressed`, :func:`answered`, through
  :func:`time_answer`);
- a committed move is counted (:data:`MOVES`), every store call timed (:func:`time_store`),
  every REST call to Discord counted by route and status and every 429 by route
  (:func:`watch_rest`, :class:`RateLimitLog` for the 429s discord.py retries by itself), and so
  is every request of the interaction webhook: answers, follow-ups, panels redrawn
  (:func:`watch_webhooks`);
- the process's memory, CPU time and file descriptors (:data:`PROCESS`);
- a display's retries (:data:`DISPLAY_RETRIES`) and how long a table stayed behind its game
  (:data:`DISPLAY_BEHIND`), the computers' thinking (:data:`THINK`), the lease take-overs
  (:data:`TAKEOVERS`), the duplicate matches that closed themselves (:data:`MATCHES_EXPIRED`);
- what is true now (live tables, open panels, each shard's gateway latency and whether it is
  connected) is read from the bots when the page is asked for (:class:`LiveCollector`), costing
  nothing in between.

Time is ``time.perf_counter`` (real seconds, also under SimCord, whose clock only virtualises the
event loop's time), except how long a table stayed behind, which is the game clock's.
"""

from __future__ import annotations

import inspect
import logging
import re
import time
import weakref
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

import discord
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry(auto_describe=True)
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: seconds; a press should be answered well inside Discord's 3 s, most in tens of milliseconds
PRESS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
BEHIND_BUCKETS = (1.0, 5.0, 15.0, 30.0, 60.0, 300.0, 900.0, 3600.0)
THINK_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

PRESS = Histogram(
    "cardtable_press_seconds",
    "From a press of one of the bot's buttons or selects reaching the bot to its answer going out, by control",
    ["control"],
    buckets=PRESS_BUCKETS,
    registry=REGISTRY,
)
MOVES = Counter(
    "cardtable_moves_committed",
    "Moves committed to the store, by game and by whom (person or computer)",
    ["game", "by"],
    registry=REGISTRY,
)
STORE = Histogram(
    "cardtable_store_seconds",
    "Time of each store call (one transaction each), by operation",
    ["op"],
    buckets=STORE_BUCKETS,
    registry=REGISTRY,
)
REST = Counter(
    "cardtable_rest_requests",
    "REST calls to Discord (interaction answers excluded), by method, route and HTTP status",
    ["method", "route", "status"],
    registry=REGISTRY,
)
RATE_LIMITED = Counter(
    "cardtable_rest_rate_limited",
    "429 answers from Discord (each retry counts), by method and route",
    ["method", "route"],
    registry=REGISTRY,
)
DISPLAY_RETRIES = Counter(
    "cardtable_display_retries",
    "Passes of a table's display that failed and will be tried again, by HTTP status (0: timeout or store)",
    ["status"],
    registry=REGISTRY,
)
DISPLAY_BEHIND = Histogram(
    "cardtable_display_behind_seconds",
    "How long a table's channel stayed behind its game, from the first failure to showing it as it is",
    buckets=BEHIND_BUCKETS,
    registry=REGISTRY,
)
THINK = Histogram(
    "cardtable_computer_think_seconds",
    "Time a computer player took to decide a move (the pause before it moves excluded), by game",
    ["game"],
    buckets=THINK_BUCKETS,
    registry=REGISTRY,
)
TAKEOVERS = Counter(
    "cardtable_lease_takeovers",
    "Shard leases taken over from a process that was no longer running",
    registry=REGISTRY,
)
WEBHOOK = Counter(
    "cardtable_interaction_requests",
    "Requests to Discord's interaction webhook (answers to presses and commands, follow-ups, and the edits of"
    " either: the players' panels redrawn), by method, route and HTTP status",
    ["method", "route", "status"],
    registry=REGISTRY,
)
WEBHOOK_RATE_LIMITED = Counter(
    "cardtable_interaction_rate_limited",
    "429 answers to requests of the interaction webhook (each retry counts), by method and route",
    ["method", "route"],
    registry=REGISTRY,
)
#: the process's own series, read from /proc when the page is asked for: resident and virtual
#: memory, CPU seconds, open and allowed file descriptors, start time (prometheus_client's
#: ProcessCollector, under this module's prefix: cardtable_process_resident_memory_bytes, ...)
PROCESS = ProcessCollector(namespace="cardtable", registry=REGISTRY)
MATCHES_EXPIRED = Counter(
    "cardtable_matches_expired",
    "Duplicate matches closed by the bot because their other tables did not open in time",
    registry=REGISTRY,
)

# -- presses ----------------------------------------------------------------------------------
_STARTED = "cardtable_pressed"  # key in interaction.extras: (perf_counter at the press, control)


class _TimedResponse(discord.InteractionResponse):
    """The interaction's response object, noting when the first answer went out."""

    __slots__ = ()


def _timed(name: str) -> Callable[..., Awaitable[Any]]:
    original = getattr(discord.InteractionResponse, name)

    async def method(self: _TimedResponse, *args: Any, **kwargs: Any) -> Any:
        try:
            return await original(self, *args, **kwargs)
        finally:
            answered(self._parent)

    method.__name__ = name
    return method


for _name in ("defer", "send_message", "edit_message", "send_modal"):
    setattr(_TimedResponse, _name, _timed(_name))


def pressed(interaction: discord.Interaction, control: str) -> None:
    """A press reached the bot: its answer is timed from now (called first in the callback)."""
    interaction.extras[_STARTED] = (time.perf_counter(), control)
    try:
        # discord.py keeps the response object in this cached slot; ours notes the answer
        setattr(interaction, "_cs_response", _TimedResponse(interaction))  # noqa: B010
    except AttributeError:  # another discord.py: the press is then timed to its handler's end
        pass


def answered(interaction: discord.Interaction) -> None:
    """The press's answer went out (or its handler ended without one): observe once."""
    started = interaction.extras.pop(_STARTED, None)
    if started is not None:
        PRESS.labels(started[1]).observe(time.perf_counter() - started[0])


# -- the store --------------------------------------------------------------------------------
def time_store(store: Any) -> None:
    """Time each of the store's coroutine methods (a wrapper on the instance; the class, and any
    test that patches it, are untouched, and the call goes to whatever the class has then)."""
    kind = type(store)
    for name in _timed_names(kind):
        setattr(store, name, _timed_store_call(store, kind, name))


#: each store class -> its coroutine methods (:func:`_timed_names`)
_TIMED_NAMES: dict[type, tuple[str, ...]] = {}


def _timed_names(kind: type) -> tuple[str, ...]:
    """The coroutine methods of a store class, read once a class (a test process opens a store
    for every test bot: reading a class's hundred-odd members took 7 ms of each bot's start)."""
    names = _TIMED_NAMES.get(kind)
    if names is None:
        names = _TIMED_NAMES[kind] = tuple(
            name
            for name in dir(kind)
            if not name.startswith("_")
            and name not in ("open", "close")
            and inspect.iscoroutinefunction(getattr(kind, name, None))
        )
    return names


def _timed_store_call(store: Any, kind: type, name: str) -> Callable[..., Awaitable[Any]]:
    histogram: Any = None  # made at the first call: the page lists only the operations that happen

    async def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal histogram
        started = time.perf_counter()
        try:
            return await getattr(kind, name)(store, *args, **kwargs)
        finally:
            if histogram is None:
                histogram = STORE.labels(name)
            histogram.observe(time.perf_counter() - started)

    call.__name__ = name
    return call


# -- REST -------------------------------------------------------------------------------------
_SNOWFLAKE = re.compile(r"/\d{2,}")
_TOKEN = re.compile(r"/(interactions|webhooks)/\{id\}/[^/]+")
#: 429s discord.py logged (and retried) during the current request: not counted again at its end
_LOGGED_429: ContextVar[int] = ContextVar("cardtable_logged_429", default=0)


def route_of(url_or_path: str) -> str:
    """A REST path with its ids and tokens replaced (``/channels/{id}/messages/{id}``): few
    distinct values, whatever channel or message they were about."""
    path = url_or_path.split("?", 1)[0]
    index = path.find("/api/v")
    if index != -1:
        path = path[index + len("/api/v") :]
        path = path[path.find("/") :]
    return _TOKEN.sub(r"/\1/{id}/{token}", _SNOWFLAKE.sub("/{id}", path))


def watch_rest(http: Any) -> None:
    """Count every REST call ``http`` (the bot's ``discord.http.HTTPClient``) makes, by route and
    status, and each 429 it ends in. Wraps the instance's ``request`` once."""
    if getattr(http, "_cardtable_watched", False):
        return
    request = http.request

    async def counted(route: Any, **kwargs: Any) -> Any:
        method, path = route.method, route_of(route.url)
        token = _LOGGED_429.set(0)
        try:
            result = await request(route, **kwargs)
        except discord.RateLimited:
            _count_429(method, path)
            REST.labels(method, path, "429").inc()
            raise
        except discord.HTTPException as error:
            if error.status == 429:
                _count_429(method, path)
            REST.labels(method, path, str(error.status)).inc()
            raise
        except BaseException:
            REST.labels(method, path, "error").inc()
            raise
        else:
            REST.labels(method, path, "ok").inc()
            return result
        finally:
            _LOGGED_429.reset(token)

    http.request = counted
    http._cardtable_watched = True


def _count_429(method: str, path: str) -> None:
    if _LOGGED_429.get() == 0:  # discord.py retried (and logged) it: counted by RateLimitLog
        RATE_LIMITED.labels(method, path).inc()


class RateLimitLog(logging.Filter):
    """Counts the 429s discord.py's HTTP client handles by itself (it waits and retries, logging a
    warning each time) from that warning: the one place a retried 429 can be seen from outside."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "responded with 429" in str(record.msg) and "Retrying" in str(record.msg) and len(record.args or ()) >= 2:
            method, url = record.args[0], record.args[1]  # type: ignore[index]
            RATE_LIMITED.labels(str(method), route_of(str(url))).inc()
            _LOGGED_429.set(_LOGGED_429.get() + 1)
        return True


_RATE_LIMIT_LOG = RateLimitLog()


def watch_rate_limit_log() -> None:
    logger = logging.getLogger("discord.http")
    if _RATE_LIMIT_LOG not in logger.filters:
        logger.addFilter(_RATE_LIMIT_LOG)


# -- the interaction webhook ----------------------------------------------------------------------
#: the webhook request under way in this task, for the 429s discord.py retries by itself
_WEBHOOK_ROUTE: ContextVar[tuple[str, str] | None] = ContextVar("cardtable_webhook_route", default=None)


def watch_webhooks() -> None:
    """Count every request of the interaction webhook (answers, follow-ups, their edits: none of
    them goes through the bot's HTTP client, so :func:`watch_rest` never sees them), by route and
    status, and each 429. discord.py sends them through one adapter, the current one of its
    context variable (SimCord's, under SimCord): its ``request`` is wrapped once."""
    from discord.webhook.async_ import async_context

    adapter = async_context.get()
    if vars(adapter).get("_cardtable_watched"):
        return
    request = adapter.request

    async def counted(route: Any, session: Any, **kwargs: Any) -> Any:
        method, path = route.method, route_of(route.url)
        token = _WEBHOOK_ROUTE.set((method, path))
        try:
            result = await request(route, session, **kwargs)
        except discord.HTTPException as error:
            if error.status == 429:
                WEBHOOK_RATE_LIMITED.labels(method, path).inc()
            WEBHOOK.labels(method, path, str(error.status)).inc()
            raise
        except BaseException:
            WEBHOOK.labels(method, path, "error").inc()
            raise
        else:
            WEBHOOK.labels(method, path, "ok").inc()
            return result
        finally:
            _WEBHOOK_ROUTE.reset(token)

    # (on the instance: SimCord's adapter, or discord.py's one default adapter)
    setattr(adapter, "request", counted)  # noqa: B010
    setattr(adapter, "_cardtable_watched", True)  # noqa: B010
    logger = logging.getLogger("discord.webhook.async_")
    if _WEBHOOK_RATE_LIMIT_LOG not in logger.filters:
        logger.addFilter(_WEBHOOK_RATE_LIMIT_LOG)


class WebhookRateLimitLog(logging.Filter):
    """Counts the webhook's 429s discord.py waits out and retries by itself, from its warning."""

    def filter(self, record: logging.LogRecord) -> bool:
        current = _WEBHOOK_ROUTE.get()
        if current is not None and "is rate limited. Retrying" in str(record.msg):
            WEBHOOK_RATE_LIMITED.labels(*current).inc()
        return True


_WEBHOOK_RATE_LIMIT_LOG = WebhookRateLimitLog()


# -- what is true now -------------------------------------------------------------------------
class LiveCollector(Collector):
    """Live tables, open panels and the gateway, read from the running bots when scraped."""

    def __init__(self) -> None:
        #: the running bots (:class:`bot.client.CardBot`; not imported: it imports this module)
        self.bots: weakref.WeakSet[Any] = weakref.WeakSet()

    def collect(self) -> Iterator[Metric]:
        panels = GaugeMetricFamily("cardtable_open_panels", "Players' private panels the bot keeps current")
        latency = GaugeMetricFamily(
            "cardtable_gateway_latency_seconds", "Each shard's gateway heartbeat latency", labels=["shard"]
        )
        connected = GaugeMetricFamily(
            "cardtable_gateway_connected",
            "Whether each shard's gateway connection is up (1) or not (0)",
            labels=["shard"],
        )
        counts: dict[tuple[str, str], int] = {}
        open_panels = 0
        for bot in list(self.bots):
            for table in list(bot.tables.tables.values()):
                key = (table.kind.key, table.record.status)
                counts[key] = counts.get(key, 0) + 1
            open_panels += len(bot.tables.presenter.panels.open)
            for shard, seconds, up in gateway(bot):
                latency.add_metric([str(shard)], seconds)
                connected.add_metric([str(shard)], 1.0 if up else 0.0)
        tables = GaugeMetricFamily(
            "cardtable_live_tables", "Tables live in this process, by game and status", labels=["game", "status"]
        )
        for (game, status), count in sorted(counts.items()):
            tables.add_metric([game, status], count)
        panels.add_metric([], open_panels)
        yield from (tables, panels, latency, connected)


def gateway(bot: discord.Client) -> list[tuple[int, float, bool]]:
    """Per shard of ``bot``: the latency in seconds (``nan`` before the first heartbeat) and
    whether its connection is up."""
    if isinstance(bot, discord.AutoShardedClient):
        found = []
        # every shard this process should run, connected or not yet (``shards`` fills as they connect)
        for shard_id in sorted(bot.shard_ids or range(bot.shard_count or 1)):
            info = bot.shards.get(shard_id)
            if info is None:
                found.append((shard_id, float("nan"), False))
            else:
                found.append((shard_id, info.latency, not info.is_closed() and bot.is_ready()))
        return found
    shard = bot.shard_id or 0
    return [(shard, bot.latency, bot.is_ready() and not bot.is_closed())]


LIVE = LiveCollector()
REGISTRY.register(LIVE)


def watch(bot: discord.Client) -> None:
    """Make ``bot``'s live figures part of the page (called once per bot)."""
    LIVE.bots.add(bot)


def page() -> bytes:
    """The whole ``/metrics`` page."""
    return generate_latest(REGISTRY)


def value(name: str, labels: dict[str, str] | None = None) -> float:
    """One sample's current value (0 if it was never set): for tests and the benchmark."""
    found = REGISTRY.get_sample_value(name, labels or {})
    return 0.0 if found is None else found
