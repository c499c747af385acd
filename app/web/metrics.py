"""``GET /metrics``: the operator's view, in Prometheus' text format (prometheus-client).

- ``klub_words_total{game}``: words said (committed), whoever said them (members, the
  bot API, computer players, timers); ``klub_words_refused_total{code}``: words refused
  (``stale_version``, ``illegal_action``, ``not_your_turn``...);
- ``klub_word_latency_seconds{source}`` (histogram; ``member``, ``bot``, ``timer``): from a
  word's receipt on the word path (the table socket's frame read, the HTTP action's
  member known, a computer player's choice made) to its answer, the ack (or refusal)
  sent once its transaction committed: the word writer's queue and commit;
- ``klub_table_sockets``, ``klub_notice_sockets``, ``klub_bot_streams``: open now;
- ``klub_running_tables{game}``: running parties, counted in the database at scrape time
  (the whole Club's, the same from every instance);
- ``klub_push_queue_length``: notices waiting for the push outbox in this process;
  ``klub_push_outbox_rows``: pushes waiting to be sent (the database's, all instances);
- ``klub_errors_total{code}``: HTTP answers with a ClubError's code, ``internal`` for an
  unhandled exception, ``http_<status>`` for another 5xx;
- ``klub_db_connections_checked_out{pool}``, ``klub_db_pool_size{pool}``: the database
  pools (``main``; SQLite has a ``read`` and a ``write`` one);
- ``process_*``, ``python_info``: the process (CPU, memory, open files).

Each instance (each process) has its own numbers: Prometheus scrapes every instance and
the queries sum them. The word path pays a counter and a histogram per word; the rest is
read when scraped.

Served to loopback and to the trusted proxies' addresses (the client as
app/web/proxies.py reads it: a client relayed by a proxy is not the proxy), or to a
request with ``Authorization: Bearer <KLUB_METRICS_TOKEN>``; everyone else gets the
404 of a page that does not exist.
"""

from __future__ import annotations

import functools
import hmac
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from prometheus_client import (
    CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, PlatformCollector, ProcessCollector,
    disable_created_metrics, generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.models import Partie, PushMessage
from app.errors import ClubError
from app.games.registry import codes
from app.tables.writer import WordWriter
from app.web.proxies import TrustedProxies, is_loopback

if TYPE_CHECKING:
    from app.club import Club
    from app.tables.words import Word

log = logging.getLogger("klub.metrics")
router = APIRouter()
disable_created_metrics()  # no *_created series beside each counter
# A word is a few milliseconds on a quiet Club; a busy SQLite or a slow disk, a second.
WORD_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
COUNTED = "klub.error_counted"  # a scope key: this request's error is counted already


class Metrics:
    def __init__(self, club: Club, app: FastAPI):
        self.club = club
        self.app = app
        # One registry per app: tests make many apps in one process.
        self.registry = CollectorRegistry()
        self.words = Counter("klub_words", "Words said (committed), by game", ["game"], registry=self.registry)
        self.refused = Counter("klub_words_refused", "Words refused, by error code", ["code"], registry=self.registry)
        self.latency = Histogram(
            "klub_word_latency_seconds", "From a word's receipt to its ack (or refusal), by source",
            ["source"], buckets=WORD_BUCKETS, registry=self.registry,
        )
        self.errors = Counter(
            "klub_errors", "HTTP errors: ClubError codes, internal, http_<status> (5xx)", ["code"],
            registry=self.registry,
        )
        for game in codes():  # at 0 from the start, so that rate() sees the first words
            self.words.labels(game)
        for source in ("member", "bot", "timer"):
            self.latency.labels(source)
        self.bot_streams = 0  # the bot API's streams being served (MetricsMiddleware)
        self.gauges = _Gauges()
        self.registry.register(self.gauges)
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self.trusted = TrustedProxies(club.settings.trusted_proxies)
        self._render_lock = threading.Lock()

    # -- the word path: a counter and a histogram per word --------------------------------

    def word_answered(self, word: Word, started: float, future: Any) -> None:
        """A word's future is settled (in the writer's thread or the event loop)."""
        self.latency.labels(word.source).observe(time.perf_counter() - started)
        if future.cancelled():
            return
        error = future.exception()
        if error is None:
            if not future.result().duplicate:
                table = self.club.tables.peek(word.partie_id)
                self.words.labels(table.game if table is not None else "unknown").inc()
        elif isinstance(error, ClubError):
            self.refused.labels(error.code).inc()

    # -- scraping ------------------------------------------------------------------------

    def allowed(self, request: Request) -> bool:
        token = self.club.settings.metrics_token
        if token:
            scheme, _, given = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
                return True
        host = request.client.host if request.client else None
        return is_loopback(host) or host in self.trusted

    def loop_values(self) -> dict[str, Any]:
        """What the event loop's objects hold (read on the loop, which alone changes them)."""
        state, push = self.app.state, self.club.push
        return {
            "table_sockets": _open_sockets(getattr(state, "member_limits", None)),
            "notice_sockets": _open_sockets(getattr(state, "notice_limits", None)),
            "bot_streams": self.bot_streams,
            "push_queue": push.waiting if push is not None else 0,
        }

    def render(self, values: dict[str, Any]) -> bytes:
        """The exposition, with the database's numbers read now (in a worker thread)."""
        values.update(self._database_values())
        with self._render_lock:
            self.gauges.values = values
            return generate_latest(self.registry)

    def _database_values(self) -> dict[str, Any]:
        db = self.club.db
        engines = {"main": db.read_engine} if db.read_engine.pool is db.write_engine.pool else {
            "read": db.read_engine, "write": db.write_engine}
        values: dict[str, Any] = {"pools": {}}
        for name, engine in engines.items():
            pool = engine.pool
            checked_out, size = getattr(pool, "checkedout", None), getattr(pool, "size", None)
            values["pools"][name] = (checked_out() if checked_out else 0, size() if size else 0)
        try:
            with db.read() as s:
                stmt = select(Partie.game, func.count()).where(Partie.status == "running").group_by(Partie.game)
                values["running"] = {game: n for game, n in s.execute(stmt)}
                values["outbox"] = s.scalar(select(func.count()).select_from(PushMessage))
        except Exception as e:  # the scrape still tells the rest
            log.warning("metrics: the database could not be read: %r", e)
        return values


def _open_sockets(limits: Any) -> int:
    return sum(limits.connections.values()) if limits is not None else 0


class _Gauges(Collector):
    """The gauges of one scrape, from the values :meth:`Metrics.render` took."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def collect(self):
        v = self.values
        for key, name, text in (
            ("table_sockets", "klub_table_sockets", "Table sockets open"),
            ("notice_sockets", "klub_notice_sockets", "Notice sockets open (one per page a member has open)"),
            ("bot_streams", "klub_bot_streams", "The bot API's streams open"),
            ("push_queue", "klub_push_queue_length", "Notices waiting for the push outbox in this process"),
            ("outbox", "klub_push_outbox_rows", "Pushes waiting to be sent (all instances)"),
        ):
            if key in v:
                yield GaugeMetricFamily(name, text, value=v[key])
        if "running" in v:
            running = GaugeMetricFamily("klub_running_tables", "Running parties (all instances), by game", labels=["game"])
            for game, n in sorted(v["running"].items()):
                running.add_metric([game], n)
            yield running
        checked_out = GaugeMetricFamily("klub_db_connections_checked_out", "Database connections in use", labels=["pool"])
        size = GaugeMetricFamily("klub_db_pool_size", "Database connections kept in the pool", labels=["pool"])
        for pool, (used, kept) in sorted(v.get("pools", {}).items()):
            checked_out.add_metric([pool], used)
            size.add_metric([pool], kept)
        yield checked_out
        yield size


class MeasuredWordWriter(WordWriter):
    """The word writer, timing each word from its submission to its answer."""

    def __init__(self, writer: WordWriter, metrics: Metrics):
        super().__init__(writer.apply, writer.max_batch, writer.idle_seconds)
        self.metrics = metrics

    def submit(self, word):
        started = time.perf_counter()
        future = super().submit(word)
        future.add_done_callback(functools.partial(self.metrics.word_answered, word, started))
        return future

    def submit_async(self, word):
        started = time.perf_counter()
        future = super().submit_async(word)
        future.add_done_callback(functools.partial(self.metrics.word_answered, word, started))
        return future


class MetricsMiddleware:
    """Counts the 5xx answers and unhandled errors, and the bot API's open streams."""

    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        stream = path.startswith("/api/bot/") and path.endswith("/stream")
        errors = self.metrics.errors

        async def counting_send(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 500 and not scope.get(COUNTED):
                errors.labels(f"http_{message['status']}").inc()
            await send(message)

        if stream:
            self.metrics.bot_streams += 1
        try:
            await self.app(scope, receive, counting_send)
        except Exception:
            errors.labels("internal").inc()
            raise
        finally:
            if stream:
                self.metrics.bot_streams -= 1


@router.get("/metrics", include_in_schema=False)
async def metrics_page(request: Request):
    metrics: Metrics = request.app.state.metrics
    if not metrics.allowed(request):
        raise HTTPException(404, "Not Found")  # as a page that does not exist
    body = await run_in_threadpool(metrics.render, metrics.loop_values())
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def install(app: FastAPI, club: Club) -> Metrics:
    """The app's metrics: its word writer measured, its ClubErrors counted, its middleware
    added (after app/web/errors.py installed the handlers, before the first request)."""
    metrics = app.state.metrics = Metrics(club, app)
    if club.writer is not None and not isinstance(club.writer, MeasuredWordWriter):
        club.writer = MeasuredWordWriter(club.writer, metrics)
    handler: Any = app.exception_handlers[ClubError]  # app/web/errors.py: async

    async def counted(request: Request, exc: ClubError):
        metrics.errors.labels(exc.code).inc()
        request.scope[COUNTED] = True
        return await handler(request, exc)

    app.exception_handlers[ClubError] = counted
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return metrics
