"""The server's Prometheus metrics (`GET /metrics`, http/metrics.py; docs/deploy.md, "Seeing
it: metrics, logs, health").

Each app has its own `Metrics` and registry (never prometheus_client's global one: several
apps in one process, as in the tests, do not clash). Two kinds of figures:

- **counted where they happen**: decisions and their latency (tables/runtime.py), the bots'
  wait for a worker (tables/botpool.py), chat lines (talk/chat.py), the error codes sent
  (ws/endpoint.py, the app's error handlers), reports filed and moderators' actions
  (http/moderation.py), HTTP answers and open connections (access.py);
- **read at each scrape** (`Scrape`, cheap: no database query): the tables this process holds
  by state, the bot pool's queue, the database pools, Web Push's outcomes (talk/push.py's
  `stats`).

The objects the app does not wire (a unit test's hub or bot pool) count into `UNWIRED`, a
`Metrics` nobody scrapes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import (CollectorRegistry, Counter, Gauge, Histogram,
                               disable_created_metrics, generate_latest)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily

#: seconds: a decision from being taken up to its broadcast (most take milliseconds)
DECISION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: seconds: a searching bot's request waiting for a free worker
BOT_WAIT_BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
#: seconds: a "Play now" entry waiting for its table
QUEUE_WAIT_BUCKETS = (1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
#: the table states (game_tables.status)
TABLE_STATES = ("waiting", "playing", "over")
#: Web Push's outcomes as talk/push.py's Pusher counts them
PUSH_OUTCOMES = ("sent", "failed", "gone", "dropped")

#: a report's reasons (mod/moderation.py's REPORT_REASONS)
REPORT_REASONS = ("abuse", "cheating", "spam", "name", "other")
#: what a moderator does over HTTP (http/moderation.py): each counted by its kind
MOD_ACTIONS = ("claim", "resolve", "remove_line", "mute", "unmute", "warn", "suspend", "ban",
               "announce", "end_announcement", "annul")

#: who decides (store/schema.py's BY_*): their series exist from the start (rate() from 0)
DECIDERS = ("player", "bot", "standin", "timeout")

#: the text format generate_latest writes (Prometheus 2 and 3 read it)
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4

#: no `_created` series beside every counter and histogram (Prometheus does not need them)
disable_created_metrics()


class Metrics:
    """One app's metrics and their registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self._by: dict = {}           # decider -> (its decisions' counter, its latency's)
        self._errors: dict = {}       # error code -> its counter
        self.connections = Gauge(
            "cardtable_connections", "Open connections of this process: WebSockets, and HTTP "
            "requests in flight", ["kind"], registry=r)
        for kind in ("websocket", "http"):
            self.connections.labels(kind)
        self.decisions = Counter(
            "cardtable_decisions", "Decisions committed by this process, by who made them "
            "(player, bot, standin, timeout)", ["by"], registry=r)
        for by in DECIDERS:
            self.decisions.labels(by)
        self.again = Counter(
            "cardtable_decisions_again", "Decisions sent a second time with the index they "
            "were made at (their first answer lost with a connection): acknowledged again, "
            "not played", registry=r)
        self.decision_seconds = Histogram(
            "cardtable_decision_seconds", "A decision from being taken up (its message read, a "
            "bot's or timer's decision made) to its broadcast queued to this process's clients",
            ["by"], buckets=DECISION_BUCKETS, registry=r)
        self.bot_wait = Histogram(
            "cardtable_bot_wait_seconds", "A searching bot's request waiting for a free worker "
            "of the bot pool", buckets=BOT_WAIT_BUCKETS, registry=r)
        self.chat = Counter("cardtable_chat_lines", "Table talk lines stored by this process, "
                            "by kind (text, react, on, off)", ["kind"], registry=r)
        self.errors = Counter("cardtable_errors", "Error codes this process sent: WebSocket "
                              "`error` messages and the HTTP API's error bodies", ["code"],
                              registry=r)
        self.reports = Counter("cardtable_reports", "Reports of players filed through this "
                               "process, by reason", ["reason"], registry=r)
        for reason in REPORT_REASONS:
            self.reports.labels(reason)
        self.mod_actions = Counter("cardtable_mod_actions", "Moderators' actions done through "
                                   "this process's HTTP API, by kind (claim, resolve, "
                                   "remove_line, mute, unmute, warn, suspend, ban, announce, "
                                   "end_announcement, annul)", ["kind"], registry=r)
        for kind in MOD_ACTIONS:
            self.mod_actions.labels(kind)
        self.responses = Counter("cardtable_http_responses", "HTTP responses by status",
                                 ["status"], registry=r)
        self.queue_size = Gauge("cardtable_queue_waiting", "\"Play now\" entries waiting, "
                                "as this process's matcher last read them", registry=r)
        self.queue_pairings = Counter("cardtable_queue_pairings", "\"Play now\" tables made "
                                      "by this process's matcher, by kind (rated, casual)",
                                      ["kind"], registry=r)
        for kind in ("rated", "casual"):
            self.queue_pairings.labels(kind)
        self.queue_wait = Histogram(
            "cardtable_queue_wait_seconds", "A \"Play now\" entry's wait until its table",
            buckets=QUEUE_WAIT_BUCKETS, registry=r)
        self.scrape = Scrape()
        r.register(self.scrape)

    # -- counted where it happens ---------------------------------------------------------------
    def decided(self, by: str, seconds: float) -> None:
        pair = self._by.get(by)
        if pair is None:          # the labelled children, looked up once per kind of decider
            pair = self._by[by] = (self.decisions.labels(by), self.decision_seconds.labels(by))
        pair[0].inc()
        pair[1].observe(seconds)

    @contextmanager
    def deciding(self, by: str) -> Iterator[dict]:
        """Around a decision's path (tables/runtime.py): counted and timed if it ends without
        an error (a refused decision is counted among the errors it sends instead); one the
        path marks `again` (yields a dict) is counted apart, as a decision sent again."""
        started = time.perf_counter()
        outcome = {"again": False}
        yield outcome
        if outcome["again"]:
            self.again.inc()
        else:
            self.decided(by, time.perf_counter() - started)

    def error(self, code: str) -> None:
        counter = self._errors.get(code)
        if counter is None:
            counter = self._errors[code] = self.errors.labels(code)
        counter.inc()

    def chat_line(self, kind: str) -> None:
        self.chat.labels(kind).inc()

    def reported(self, reason: str) -> None:
        self.reports.labels(reason).inc()

    def mod_action(self, kind: str) -> None:
        self.mod_actions.labels(kind).inc()

    def bot_waited(self, seconds: float) -> None:
        self.bot_wait.observe(seconds)

    # -- read at scrape time --------------------------------------------------------------------
    def watch(self, **sources: Callable[[], Any]) -> None:
        """What the scrape reads: `hub`, `drivers`, `store`, `pusher` (callables giving the
        app's objects, or None before the start)."""
        self.scrape.sources.update(sources)

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric."""
        return generate_latest(self.registry)


def _get(sources: dict, name: str):
    fn = sources.get(name)
    try:
        return fn() if fn is not None else None
    except (KeyError, AttributeError):            # not started yet
        return None


class Scrape:
    """The figures read when Prometheus scrapes (a custom collector)."""

    def __init__(self) -> None:
        self.sources: dict[str, Callable[[], Any]] = {}

    def describe(self):
        return []                     # the names are known only at collect (no early collect)

    def collect(self):
        hub = _get(self.sources, "hub")
        tables = GaugeMetricFamily("cardtable_tables", "Tables held by this process (it has "
                                   "clients there or drives them), by state", labels=["state"])
        by_state = dict.fromkeys(TABLE_STATES, 0)
        for rt in list(getattr(hub, "rts", {}).values()):
            by_state[rt.status] = by_state.get(rt.status, 0) + 1
        for state, n in by_state.items():
            tables.add_metric([state], n)
        yield tables
        drivers = _get(self.sources, "drivers")
        yield GaugeMetricFamily("cardtable_tables_driven", "Tables whose bots, timers and "
                                "windows this process drives",
                                value=len(getattr(drivers, "tasks", ()) or ()))
        yield CounterMetricFamily("cardtable_tables_handed_over", "Tables this process "
                                  "stopped driving because their players commit at another "
                                  "process (the other claims them)",
                                  value=getattr(drivers, "handovers", 0) or 0)
        pool = getattr(drivers, "pool", None)
        stats = pool.stats() if pool is not None else {}
        for name, key, what in (("cardtable_bot_queue", "waiting", "Searching bots' requests "
                                 "waiting for a worker (at most one per table)"),
                                ("cardtable_bot_busy", "busy", "Bot workers thinking now"),
                                ("cardtable_bot_workers", "workers", "Bot worker processes")):
            yield GaugeMetricFamily(name, what, value=stats.get(key, 0))
        use = GaugeMetricFamily("cardtable_db_pool_in_use", "Database connections checked out "
                                "of this process's pools", labels=["pool"])
        wait = GaugeMetricFamily("cardtable_db_pool_waiting", "Tasks waiting for a database "
                                 "connection of this process's pools", labels=["pool"])
        for name, (in_use, waiting) in db_pools(_get(self.sources, "store")).items():
            use.add_metric([name], in_use)
            wait.add_metric([name], waiting)
        yield use
        yield wait
        pusher = _get(self.sources, "pusher")
        pushed = CounterMetricFamily("cardtable_push", "Web Push alerts by outcome (sent, "
                                     "failed, gone: the browser unsubscribed, dropped: the "
                                     "queue was full)", labels=["outcome"])
        counts = getattr(pusher, "stats", None) or {}
        for outcome in PUSH_OUTCOMES:
            pushed.add_metric([outcome], counts.get(outcome, 0))
        yield pushed


def db_pools(store) -> dict[str, tuple[int, int]]:
    """pool name -> (connections in use, tasks waiting for one): `main`, the SQLAlchemy
    engine's pool (reads, the lobby, PostgreSQL's locked changes), and on PostgreSQL
    `decisions`, the decisions' own connections (store/pg_fast.py). SQLAlchemy's pool tells
    its connections checked out; the waiting tasks are those queued on its asyncio queue
    (read defensively: 0 where a version keeps them elsewhere)."""
    out: dict[str, tuple[int, int]] = {}
    engine = getattr(store, "engine", None)
    pool = getattr(engine, "pool", None)
    if pool is not None and hasattr(pool, "checkedout"):
        queue = getattr(pool, "_pool", None)
        aq = vars(queue).get("_queue") if queue is not None and hasattr(queue, "__dict__") \
            else None                           # (created on first use: not created here)
        out["main"] = (pool.checkedout(), _waiters(aq))
    decisions = getattr(store, "decisions", None)
    slots = getattr(decisions, "_slots", None)
    size = getattr(decisions, "size", None)
    if slots is not None and size is not None:
        free = getattr(slots, "_value", size)
        out["decisions"] = (max(0, size - free), _waiters(slots))
    return out


def _waiters(obj) -> int:
    """Tasks waiting on an asyncio Queue's get or a Semaphore's acquire."""
    for name in ("_getters", "_waiters"):
        w = getattr(obj, name, None)
        if w:
            return sum(1 for f in w if not f.done())
    return 0


#: the metrics of objects no app wired (a unit test's hub or bot pool): counted, never scraped
UNWIRED = Metrics()
