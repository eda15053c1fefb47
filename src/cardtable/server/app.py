"""The FastAPI application: the lobby over HTTP (OpenAPI at /openapi.json) and
the game over WebSocket (/ws/{code}, ws/endpoint.py).

    from cardtable.server import create_app, Settings
    app = create_app(Settings(database="postgresql://localhost/cardtable"))

`create_app` assembles the app: the middleware, the error handlers, one router a feature
(http/: tables.py the lobby's tables, status.py, account.py, passkey.py, email.py, friend.py,
rating.py, replay.py, push.py, pace.py, coach.py, learn.py; ws/endpoint.py) and the
browser client. What the routers share they find on `app.state`: `settings`, `clock`,
`url`, `clients`, `quotas`, `accounts`, `pusher`, `metrics` (observe/metrics.py: this app's
registry), `draining` (True while the process drains before it stops: /api/ready says 503),
and, set at start, `hub()`, `store()`, `drivers()`, `listener()` (PostgreSQL's LISTEN task,
None on SQLite), `address_keys`; `cut_banned(ban)` closes this process's connections a new
ban names (ws/bans.py). The outermost middleware (observe/access.py) gives every
request its id, the access log line and its place among the open connections; `run` sets up
the log lines (observe/logs.py).

At start (lifespan) the database is migrated (Alembic, store/migrate.py), the drivers take up
the tables being played (tables/driver.py) and, with PostgreSQL, the LISTEN task starts.

On SIGTERM (a rolling restart) `run`'s server drains before uvicorn's own graceful shutdown
(`drain`): `app.state.draining` is set at once (readiness answers 503), the listening socket
closes (a load balancer's new connections go to another process), every WebSocket client is
told to reconnect (ws/endpoint.py), the decisions being committed finish, the tables this
process drives are given up (their locks go, another process takes them), then uvicorn
finishes the requests in flight, the lifespan ends, and the process exits 0, all within
`Settings.drain_seconds`.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import signal
import socket
import sys
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from cardtable import __version__
from cardtable.core.errors import ConfigError
from cardtable.server.clock import Clock
from cardtable.server.config import Settings
from cardtable.server.errors import ApiError, invalid_code, validation_errors
from cardtable.server.guard.login_limits import LoginLimits
from cardtable.server.guard.security import (ClientLimits, Guard, AddressKeys, address_keys,
                                             new_address_key)
from cardtable.server.http.account import Accounts
from cardtable.server.http.account import router as account_router
from cardtable.server.http.coach import router as coach_router
from cardtable.server.http.friend import install as install_friends
from cardtable.server.http.learn import router as learn_router
from cardtable.server.http.metrics import router as metrics_router
from cardtable.server.http.announcements import router as announcements_router
from cardtable.server.http.blocks import router as blocks_router
from cardtable.server.http.moderation import router as moderation_router
from cardtable.server.http.pace import router as pace_router
from cardtable.server.http.profile import router as profile_router
from cardtable.server.http.passkey import router as passkey_router
from cardtable.server.http.email import Mail
from cardtable.server.http.email import router as email_router
from cardtable.server.mail.smtp import Mailer
from cardtable.server.http.push import router as push_router
from cardtable.server.http.rating import router as rating_router
from cardtable.server.http.replay import router as replay_router
from cardtable.server.http.status import router as status_router
from cardtable.server.http.tables import router as tables_router
from cardtable.server.http.queue import Matcher, router as queue_router
from cardtable.server.observe import logs
from cardtable.server.observe.access import Observe
from cardtable.server.observe.metrics import Metrics
from cardtable.server.people.origin import OriginCheck, parse_allowed
from cardtable.server.store.budget import IDLE_TIMEOUT_VERSION, budget, check_fits
from cardtable.server.store.db import Store
from cardtable.server.store.migrate import refuse_newer, upgrade
from cardtable.server.tables.background import Listener
from cardtable.server.tables.driver import Drivers
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.quotas import TableQuotas
from cardtable.server.talk.chat import notified as chat_notified
from cardtable.server.talk.push import Pusher
from cardtable.server.ws import bans as ws_bans
from cardtable.server.ws.endpoint import router as ws_router

log = logging.getLogger("cardtable.server")


#: set by `run()`: the process is this server's (the garbage collector may be tuned)
_OWN_PROCESS = False


def tune_gc(settings: Settings) -> None:
    """After start-up: the objects that live as long as the process (modules, the app, the
    engines: about 110,000) go to the permanent generation, and the collector runs less often.
    A full collection walks every tracked object (with 200 tables and 800 clients about 270,000:
    0.1 to 0.2 s, the server's longest pause, its p99); with the default thresholds one ran
    every few seconds, with these it is rare. Most garbage goes by reference counting; the
    young generation, collected every `gc_threshold[0]` new objects, takes the cyclic rest."""
    if settings.gc_threshold is None or not _OWN_PROCESS:
        return                            # an app in somebody else's process: not ours to tune
    gc.collect()
    gc.freeze()
    gc.set_threshold(*settings.gc_threshold)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """The app. `clock`: the game's time (server/clock.py; default real time; tests pass a
    FakeClock to play days in a second)."""
    settings = settings or Settings()
    clock = clock or Clock()
    url = settings.url()
    state: dict = {}
    clients = ClientLimits(settings.limits)
    metrics = Metrics()                     # this app's own registry (observe/metrics.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(upgrade, url)
        store = Store(url, settings.pool_size, settings.max_overflow, clock=clock,
                      decision_pool=settings.decision_pool, idle_seconds=settings.db_idle_seconds)
        hub = Hub(store, settings)
        hub.clients = clients
        hub.metrics = metrics
        drivers = Drivers(hub, settings)
        hub.push = app.state.pusher = Pusher(store, settings)           # Web Push (push.py)
        await hub.push.start()
        # the keys of the address hashes: the operator's (a file), else the database's own
        keys = AddressKeys(settings.address_secrets) if settings.address_secrets else \
            address_keys(await store.server_key("address", new_address_key))
        listener = Listener(hub, chat_notified, drivers.freed, ws_bans.notified) \
            if url.is_postgres else None
        state.update(store=store, hub=hub, drivers=drivers, listener=listener)
        if drivers.pool is not None:
            drivers.pool.metrics = metrics
        app.state.address_keys = keys
        if listener:
            listener.start()
            try:
                await asyncio.wait_for(listener.ready.wait(), 10)
            except TimeoutError:
                log.warning("LISTEN not ready yet")
        await drivers.start()
        app.state.matcher.start()                       # "Play now" (http/queue.py)
        tune_gc(settings)
        if settings.announce:
            conns = (f"; database connections: {budget(settings).describe()}"
                     if url.is_postgres else "")
            print(f"cardtable server on http://{settings.host}:{settings.port} "
                  f"(database: {url.display()}, {settings.instance}{conns})", flush=True)
        try:
            yield
        finally:
            await app.state.matcher.stop()
            await drivers.stop()
            await app.state.mail.mailer.close()         # the messages under way
            await hub.push.stop()
            if listener:
                await listener.stop()
            await store.close()

    extra = {}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters:
        # no OpenTelemetry spans, metrics or exporters (never any traffic but the clients')
        extra["telemetry"] = {"tracing": False, "metrics": False, "logs": False,
                              "operation_spans": False, "auto_configure": False}
    # no /docs or /redoc unless asked for: they load a CDN's scripts (server/http/apidocs.py)
    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan,
                  description="Lobby of the cardtable game server. Games are played over the "
                              "WebSocket /ws/{code} (docs/protocol.md).",
                  docs_url=None, redoc_url=None, **extra)
    if settings.api_docs:
        from cardtable.server.http.apidocs import add_api_docs

        add_api_docs(app)

    def body_limit(path: str) -> int:
        return settings.max_replay_body if path == "/api/replay" else settings.max_body

    # Origin checks of requests with a session cookie (origin.py), inside the Guard (whose
    # headers and limits every answer gets)
    app.add_middleware(OriginCheck, allowed=parse_allowed(settings.allowed_origins))
    app.add_middleware(Guard, clients=clients, body_limit=body_limit,
                       own_json=("/api/replay",))       # parsed once, off the loop
    # outermost: request ids, the access log, open connections (observe/access.py)
    app.add_middleware(Observe, metrics=metrics, trusted=settings.trusted_proxies)
    app.state.settings = settings
    app.state.clock = clock
    app.state.draining = False                          # set on SIGTERM (drain)
    app.state.url = url
    app.state.clients = clients                         # the limits per client address
    app.state.store = lambda: state["store"]            # the parts made at start (lifespan)
    app.state.hub = lambda: state["hub"]
    app.state.drivers = lambda: state["drivers"]
    app.state.quotas = TableQuotas(settings.limits, clients, lambda: state["store"],
                                   lambda: settings.bot_workers)
    app.state.accounts = Accounts(settings, lambda: state["hub"], LoginLimits(settings.limits))
    # e-mail (mail/smtp.py, http/email.py): links' lifetimes on the app's clock
    app.state.mail = Mail(app.state.accounts, Mailer(settings), clock.now, settings.limits)
    app.state.metrics = metrics
    app.state.matcher = Matcher(app)
    app.state.listener = lambda: state.get("listener")  # PostgreSQL's LISTEN (None: SQLite)
    #: a new ban: close this process's connections it names (ws/bans.py; other processes
    #: learn of it from its NOTIFY)
    app.state.cut_banned = lambda ban: ws_bans.cut(state["hub"], ban)
    #: True while the process drains before it stops: /api/ready answers 503 (status.py)
    app.state.draining = False
    metrics.watch(hub=lambda: state["hub"], drivers=lambda: state["drivers"],
                  store=lambda: state["store"], pusher=lambda: app.state.pusher)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        code = invalid_code(exc)
        metrics.error(code.get("error", "invalid"))
        return JSONResponse(dict({"detail": validation_errors(exc)}, **code), status_code=422)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        metrics.error(exc.error)
        return JSONResponse({"detail": exc.detail, "error": exc.error, "params": exc.params},
                            status_code=exc.status_code, headers=exc.headers)

    app.include_router(status_router)                   # /api/health, /api/ready, /api/stats, ...
    app.include_router(metrics_router)                  # /metrics (Prometheus)
    app.include_router(tables_router)                   # /api/tables/..., /api/join
    app.include_router(queue_router)                    # /api/queue: "Play now"
    app.include_router(ws_router)                       # /ws/{code}: the game
    app.include_router(replay_router)                   # POST /api/replay
    app.include_router(learn_router)                    # /api/lessons (http/learn.py)
    app.include_router(push_router)                     # /api/push/..., /sw.js
    app.include_router(account_router)                  # /api/accounts, /api/session, /api/me
    app.include_router(profile_router)                  # /api/me/profile, /api/people
    app.include_router(passkey_router)                  # /api/passkeys/..., /api/me/passkeys
    app.include_router(email_router)                    # /api/password-reset, /api/me/email, ...
    app.include_router(rating_router)                   # /api/players/..., /api/leaderboard/...
    app.include_router(coach_router)                    # /api/tables/{code}/coach, .../review
    install_friends(app)                                # /api/friends/..., presence (WebSockets)
    app.include_router(pace_router)                     # POST /api/my-moves
    app.include_router(blocks_router)                   # a player's blocks
    app.include_router(moderation_router)               # reports, /api/mod/...
    app.include_router(announcements_router)            # the banner

    # -- the browser client (pages, static files) ------------------------------------------------
    from cardtable.web import mount

    mount(app)
    return app


async def drain(app: FastAPI, deadline: float, hurry=lambda: False) -> None:
    """Empty this process before it exits (see the module docstring), until the event loop's
    time `deadline` at the latest: every table connection is told to reconnect and closed
    once the message it is handling is answered (ws/endpoint.py, Conn.drain), then the
    tables this process drives are given up (Drivers.release_all). What runs after it
    (uvicorn's graceful shutdown, the lifespan's end) closes what is left. `hurry()`: stop
    waiting (a second Ctrl-C)."""
    app.state.draining = True
    try:
        hub, drivers = app.state.hub(), app.state.drivers()
    except KeyError:                              # stopped before it had started
        return
    loop = asyncio.get_running_loop()
    started = loop.time()
    told = 0
    for rt in list(hub.rts.values()):
        for conn in list(rt.conns):
            conn.drain()
            told += 1

    def sending() -> int:
        """Connections whose writer has not yet sent its last message and the close (a
        client need not answer the close: uvicorn's shutdown ends those connections)."""
        return sum(not c.done.is_set() for rt in hub.rts.values() for c in rt.conns)

    while sending() and loop.time() < deadline and not hurry():
        await asyncio.sleep(0.02)                 # each closes after its answer is sent
    left = sending()
    driven = len(drivers.tasks)
    try:
        await asyncio.wait_for(drivers.release_all(), max(0.1, deadline - loop.time()))
    except TimeoutError:
        log.warning("draining: the tables' drivers did not stop in time")
    log.info("draining: %d connections told to reconnect (%d still sending), %d tables "
                "given up, in %.2f s", told, left, driven, loop.time() - started)


def listen(settings: Settings) -> socket.socket:
    """The server's listening socket, bound before anything starts or is announced, so a busy
    port is one error and `--port 0` gets its real port (settings.port is set to it).
    ConfigError if the address cannot be bound."""
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((settings.host, settings.port))
    except (OSError, OverflowError) as e:
        sock.close()
        why = getattr(e, "strerror", None) or str(e)
        raise ConfigError(f"cannot listen on {settings.host}:{settings.port}: {why}") from None
    sock.listen(2048)                 # connections wait from now on, also during the startup
    settings.port = sock.getsockname()[1]
    return sock


def run(settings: Settings, sock: socket.socket | None = None) -> None:
    """Start uvicorn with `settings` (blocking), on `sock` or a socket bound by `listen`.
    Its protocols are connections.protocols: request heads in `head_timeout`, open connections
    capped in all and per address."""
    import uvicorn

    from cardtable.server.guard.connections import TrustedProxies, fit_file_limit, protocols

    try:
        refuse_newer(settings.url())       # a schema of a newer release: what to do, exit 2
        TrustedProxies(settings.trusted_proxies)
        logs.setup(settings.log_format, settings.log_level)      # observe/logs.py
        limits = check_fits(settings)          # PostgreSQL: processes × budget fit (budget.py)
        if limits is not None and limits.version < IDLE_TIMEOUT_VERSION:
            settings.db_idle_seconds = 0        # no idle_session_timeout before 14
        sock = sock or listen(settings)
    except (ValueError, ConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2)
    global _OWN_PROCESS
    _OWN_PROCESS = True
    settings.max_connections = fit_file_limit(settings.max_connections)
    http, ws = protocols(settings.head_timeout, settings.max_connections,
                         settings.connections_per_address, settings.trusted_proxies)
    app = create_app(settings)

    class Server(uvicorn.Server):
        """uvicorn's server, which drains the app (`drain`) before its graceful shutdown."""

        def handle_exit(self, sig, frame) -> None:
            app.state.draining = True             # readiness says 503 from the signal on
            super().handle_exit(sig, frame)

        async def shutdown(self, sockets=None) -> None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + settings.drain_seconds
            for server in getattr(self, "servers", ()):
                server.close()                    # refuse new connections: the balancer
            for s in sockets or ():               # passes them to another process
                s.close()
            await drain(app, deadline, lambda: self.force_exit)
            # uvicorn then waits for the requests in flight, in what is left of the time
            self.config.timeout_graceful_shutdown = max(0.1, deadline - loop.time())
            await super().shutdown(sockets)

    # uvicorn logs through our handler (log_config None), its info lines (request lines with
    # their query string) never
    quiet = max(logging.WARNING, logs.level_number(settings.log_level))
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level=quiet,
                            log_config=None,
                            http=http, ws=ws, timeout_keep_alive=settings.keep_alive,
                            ws_max_size=settings.ws_max_frame, ws_per_message_deflate=False,
                            access_log=False, proxy_headers=bool(settings.trusted_proxies),
                            forwarded_allow_ips=settings.trusted_proxies or None,
                            h11_max_incomplete_event_size=16 * 1024)
    # uvicorn raises the signal it shut down for again once it is done, with the handler it
    # found: this one (nothing), so a drained process exits with status 0, not by SIGTERM, and
    # Ctrl-C (SIGINT) stops it quietly with status 0 too, not as a KeyboardInterrupt (130)
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        Server(config).run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
