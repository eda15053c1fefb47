"""The FastAPI application: the lobby over HTTP (OpenAPI at /openapi.json) and
the game over WebSocket (/ws/{code}, ws/endpoint.py).

    from cardtable.server import create_app, Settings
    app = create_app(Settings(database="postgresql://localhost/cardtable"))

At start (lifespan) the database is migrated (Alembic, migrate.py), the drivers take up the
tables being played (driver.py) and, with PostgreSQL, the LISTEN task starts.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
import re
import secrets
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import FastAPI, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from cardtable import __version__
from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.record import new_game
from cardtable.server import protocol as P
from cardtable.server.http.account import Accounts
from cardtable.server.http.account import router as account_router
from cardtable.server.http.passkey import router as passkey_router
from cardtable.server.http.friend import install as install_friends
from cardtable.server.clock import Clock
from cardtable.server.config import Settings
from cardtable.server.http.coach import router as coach_router
from cardtable.server.store.db import Store, token_hash
from cardtable.server.tables.driver import Drivers, Listener
from cardtable.server.tables.joining import join_seat
from cardtable.server.guard.login_limits import LoginLimits
from cardtable.server.people.origin import OriginCheck, parse_allowed
from cardtable.server.errors import ApiError, invalid_code, validation_errors
from cardtable.server.errors import bad as _bad
from cardtable.server.games import games_out, table_config
from cardtable.server.store.migrate import upgrade
from cardtable.server.http.replay import MAX_PAGE, ReplayResponse, replay_page
from cardtable.server.http.replay import router as replay_router
from cardtable.server.talk.chat import chat_replay, notified as chat_notified
from cardtable.server.tables.quotas import Refused, TableQuotas, searching
from cardtable.server.tables.hub import Hub
from cardtable.server.talk.push import Pusher
from cardtable.server.http.pace import router as pace_router
from cardtable.server.http.push import router as push_router
from cardtable.server.http.rating import rated_checks
from cardtable.server.http.rating import router as rating_router
from cardtable.server.tables.runtime import TableRuntime
from cardtable.server.tables.table_base import seat_info_of
from cardtable.server.guard.security import (
    MAX_CODE_LEN,
    AddressKeys,
    BadClientId,
    ClientLimits,
    Guard,
    address_keys,
    client_addr,
    client_identity,
    new_address_key,
    new_code,
    same_address,
    same_person,
    secret_seed,
)
from cardtable.server.http.learn import router as learn_router
from cardtable.server.tables.lessons import rematch_of
from cardtable.server.ws.endpoint import handle_ws

log = logging.getLogger("cardtable.server")

CodePath = Annotated[str, Path(pattern=r"^[A-Za-z0-9]{1,32}$", max_length=MAX_CODE_LEN,
                               description="the table code")]




def table_out(rt: TableRuntime) -> P.TableOut:
    return _table_out(rt.row, rt.seat_info(), rt.n)


def _pace_out(row: dict) -> dict:
    """The pace fields of a table for the lobby (server/tables/pace.py)."""
    s = row["settings"]
    turn = s.get("pace") == "turn"
    return {"pace": "turn" if turn else "live",
            "move_seconds": s.get("move_seconds") if turn else None,
            "on_timeout": s.get("on_timeout") if turn else None,
            "deadline": row.get("deadline") if row["status"] == "playing" else None}


def _table_out(row: dict, seats: list[dict], n: int) -> P.TableOut:
    """A table for the lobby, from its row and its seats (SeatInfo)."""
    code, s = row["code"], row["settings"]
    return P.TableOut(
        code=code, link=f"/t/{code}", ws=f"/ws/{code}", game=row["game"],
        variant=s.get("variant"), players=len(seats), seats=seats,
        free_seats=[x["seat"] for x in seats if x["kind"] == "human" and not x["joined"]],
        public=row["public"], status=row["status"], turn_seconds=s.get("turn_seconds"),
        snap_seconds=s.get("snap_seconds"), target=s.get("target"),
        options=s.get("options") or {}, actions=n, rematch=row["rematch_code"],
        memory=bool(s.get("memory")), host=s.get("host"), rated=bool(row.get("rated")),
        lesson=s.get("lesson"), **_pace_out(row))


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
    quotas = TableQuotas(settings.limits, clients, lambda: state["store"],
                         lambda: settings.bot_workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(upgrade, url)
        store = Store(url, settings.pool_size, settings.max_overflow, clock=clock)
        hub = Hub(store, settings)
        hub.clients = clients
        drivers = Drivers(hub, settings)
        hub.push = app.state.pusher = Pusher(store, settings)           # Web Push (push.py)
        await hub.push.start()
        # the keys of the address hashes: the operator's (a file), else the database's own
        keys = AddressKeys(settings.address_secrets) if settings.address_secrets else \
            address_keys(await store.server_key("address", new_address_key))
        listener = Listener(hub, chat_notified) if url.is_postgres else None
        state.update(store=store, hub=hub, drivers=drivers, address_keys=keys)
        if listener:
            listener.start()
            try:
                await asyncio.wait_for(listener.ready.wait(), 10)
            except TimeoutError:
                log.warning("LISTEN not ready yet")
        await drivers.start()
        tune_gc(settings)
        if settings.announce:
            print(f"cardtable server on http://{settings.host}:{settings.port} "
                  f"(database: {url.display()}, {settings.instance})", flush=True)
        try:
            yield
        finally:
            await drivers.stop()
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
    app.state.clients = clients                         # POST /api/replay's own budget
    app.state.store = lambda: state["store"]            # POST /api/my-moves (http/pace.py)
    app.state.hub = lambda: state["hub"]
    app.state.drivers = lambda: state["drivers"]
    app.state.settings = settings                      # http/coach.py
    app.state.clock = clock
    app.state.accounts = accounts = Accounts(settings, lambda: state["hub"],
                                             LoginLimits(settings.limits))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(dict({"detail": validation_errors(exc)}, **invalid_code(exc)),
                            status_code=422)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail, "error": exc.error, "params": exc.params},
                            status_code=exc.status_code, headers=exc.headers)

    def hub() -> Hub:
        return state["hub"]

    @asynccontextmanager
    async def table(code: str, refresh: bool = True, request: Request | None = None
                    ) -> AsyncIterator[TableRuntime]:
        """The table `code` (404 if there is none), brought up to date with the database
        unless `refresh` is false, held for the block (Hub.runtime) and released after it.
        An address that looked up too many codes that do not exist gets 429 instead of 404
        for a while; a table that exists is found whatever its address did before."""
        addr = client_addr(request.scope) if request is not None else None
        rt = await hub().runtime_by_code(code.upper())
        if rt is None:
            if addr is not None:
                if clients.guessing(addr):
                    raise ApiError(429, "too many unknown table codes from your address: wait "
                                        "a minute", "guessing", headers={"Retry-After": "60"})
                clients.missed(addr)
            raise _bad("no such table", 404, "no_table")
        try:
            if refresh:
                await rt.refresh()
            yield rt
        finally:
            hub().release(rt)

    async def opened(table_id: int, start_clock: bool = True) -> P.TableOut:
        """A table just created: its turn clock started if it is being played (unless
        `start_clock` is false), the drivers told; the lobby's view of it."""
        async with hub().held(table_id) as rt:
            if start_clock and rt.status == "playing":
                await rt.reset_deadline()
            hub().after_change(rt)
            return table_out(rt)

    # -- lobby ---------------------------------------------------------------------------------------
    @app.get("/api/health")
    async def health() -> dict:
        return {"ok": True, "version": __version__, "database": url.kind,
                "instance": settings.instance, "driving": len(state["drivers"].tasks)}
        # (`instance` is a random label of this process unless the operator sets one: no host
        # name or process id for the world to see)

    @app.get("/api/stats")
    async def stats(since: Annotated[int, Query(ge=0, le=2**53)] = 0) -> dict:
        """Decision latency in this process: message received -> broadcast queued; `since`:
        only the decisions after the first `since` of this process. `bot_pool`: the searching
        bots' worker processes (decisions made, busy workers, decisions waiting)."""
        pool = state["drivers"].pool
        return dict(hub().stats.summary(since), bot_pool=pool.stats() if pool else None)

    @app.get("/api/games", response_model=list[P.GameInfo])
    async def games() -> list[P.GameInfo]:
        """The games of this server as they declare themselves (core/registry.py): rule
        sets with their players and option values, rule options and settings with their types
        and defaults, the score sense, the rules version, the browser's module; and the bots
        that play each game and the difficulty levels."""
        return games_out()

    @app.post("/api/tables", response_model=P.CreateOut, status_code=201)
    async def create_table(req: P.CreateTable, request: Request) -> P.CreateOut:
        """Create a table. With `name`, the creator takes the first human seat at once. An
        address may have a few unfinished tables at a time (fewer with searching bots), and
        the server a few thousand (quotas.py)."""
        cfg, base, rows = table_config(req, settings)
        if req.rated:
            await rated_host(req, cfg, request)
        return await make_table(req, request, cfg, base, rows)

    async def make_table(req, request: Request, cfg: dict, base: dict, rows: list
                         ) -> P.CreateOut:
        """A table of `cfg`, `base` and seat `rows` (table_config's, or a lesson's)."""
        addr = client_addr(request.scope)
        keys: AddressKeys = state["address_keys"]
        who = keys.seat_client(addr, identity(request))
        creators = keys.client_keys(addr)           # the current key's first
        humans = [r["seat"] for r in rows if r["kind"] == "human"]
        token = None
        seat = None
        if req.name is not None:
            if not humans:
                raise _bad("no human seat to join", 422, "no_human_seat")
            seat = humans[0]
            token = secrets.token_urlsafe(32)
            rows[seat].update(name=req.name, token_hash=token_hash(token), joined_at=clock.now(),
                              client=who)
        status = "playing" if all(r["kind"] == "bot" or r["joined_at"] for r in rows) else "waiting"
        store = hub().store
        try:
            async with quotas.admit(addr, creators, searching(cfg)):
                for _ in range(8):
                    code = new_code(private=not req.public)
                    try:
                        table_id = await store.create_table({
                            "code": code, "game": req.game, "settings": cfg, "base": base,
                            "public": req.public, "status": status, "deadline": None,
                            "snap": None, "rematch_code": None, "creator": creators[0],
                            "rated": req.rated, "pace": cfg.get("pace"),
                            "created_at": clock.now()}, rows)
                        break
                    except IntegrityError:
                        continue
                else:
                    raise _bad("could not find a free table code", 503, "busy")
        except Refused as e:
            raise ApiError(e.status, e.detail, e.error, e.params, e.headers()) from None
        out = P.CreateOut(table=await opened(table_id))
        if token is not None:
            await accounts.link_seat(request, token)        # logged in: the seat is theirs
            out.join = P.JoinOut(table=out.table, seat=seat, name=req.name, token=token,
                                 ws=f"/ws/{code}", resume_link=f"/t/{code}#token={token}")
        return out

    @app.get("/api/tables", response_model=list[P.TableOut])
    async def list_tables(game: str | None = Query(None, max_length=32),
                          limit: int = Query(50, ge=1, le=200),
                          status: str = Query("waiting", pattern="^(waiting|playing)$")
                          ) -> list[P.TableOut]:
        """Public tables waiting for players (or, with status=playing, being played: to
        watch), newest first. `game`: only that game's (a game the server does not know:
        422)."""
        if game is not None and game not in registry.names():
            raise RequestValidationError([{            # as a malformed query is refused
                "type": "value_error", "loc": ("query", "game"), "input": None,
                "msg": f"Value error, unknown game (known: {', '.join(registry.names())})"}])
        rows, seat_rows = await hub().store.open_tables(game, limit, status)
        return [_table_out(row, seat_info_of(seat_rows[row["id"]]), row["n_actions"])
                for row in rows]

    @app.get("/api/tables/{code}", response_model=P.TableOut)
    async def get_table(code: CodePath, request: Request) -> P.TableOut:
        async with table(code, request=request) as rt:
            return table_out(rt)

    async def _join(code: str, req: P.JoinTable, request: Request) -> P.JoinOut:
        async with table(code, refresh=False, request=request) as rt:
            account_id = None
            if rt.row.get("rated"):                  # logged in, as the account's name
                name, account_id = await rated_join(rt, request)
                req = P.JoinTable(name=name, seat=req.seat)
            public_limits = settings.public_seats_per_person or \
                settings.public_seats_per_address
            # this person under each key of the address hashes (the current one's first)
            mine = state["address_keys"].seat_clients(client_addr(request.scope),
                                                      identity(request))

            async def check(rt: TableRuntime, client: str) -> None:
                await check_public_seats(rt, mine)

            seat, token = await join_seat(hub(), rt, req.name, req.seat, mine[0],
                                          check if public_limits else None, account_id)
            await accounts.link_seat(request, token)
            return P.JoinOut(table=table_out(rt), seat=seat, name=req.name, token=token,
                             ws=f"/ws/{rt.code}", resume_link=f"/t/{rt.code}#token={token}")

    @app.post("/api/tables/{code}/join", response_model=P.JoinOut)
    async def join(code: CodePath, req: P.JoinTable, request: Request) -> P.JoinOut:
        """Take a free human seat under a name; returns the seat's secret token."""
        return await _join(code, req, request)

    @app.post("/api/join", response_model=P.JoinOut)
    async def join_by_link(req: P.JoinByLink, request: Request) -> P.JoinOut:
        """Join by table code or by link (…/t/CODE)."""
        m = re.search(r"(?:^|/t/)([A-Za-z0-9]{1,32})(?:[/?#].*)?$", req.table)
        if not m:
            raise _bad("not a table code or link", 404, "not_a_code")
        return await _join(m.group(1), P.JoinTable(name=req.name, seat=req.seat), request)

    rated_host, rated_join = rated_checks(accounts, settings, hub)

    def identity(request: Request) -> str | None:
        """The client identity of a request (docs/protocol.md); 400 if it is malformed."""
        try:
            return client_identity(request.headers)
        except BadClientId as e:
            raise _bad(str(e), 400, "bad_client") from None

    async def check_public_seats(rt: TableRuntime, mine: list[str]) -> None:
        """409 if this person (`mine`: their seats.client under each address key) already
        holds a seat at the public table `rt`, or the people behind this address hold as many
        as one address may (docs/deploy.md)."""
        held = await hub().store.seat_clients(rt.id)
        per_person, per_address = (settings.public_seats_per_person,
                                   settings.public_seats_per_address)
        if per_person and sum(any(same_person(c, m) for m in mine)
                              for c in held) >= per_person:
            raise _bad("you already hold a seat at this public table (to play several seats "
                       "from one device, invite your friends to a private table)", 409,
                       "seat_held")
        if per_address and sum(any(same_address(c, m) for m in mine)
                               for c in held) >= per_address:
            raise _bad(f"{per_address} seats of this public table are taken from your address "
                       "already (the most for one address): play together at a private table",
                       409, "address_seats", most=per_address)

    @app.get("/api/tables/{code}/watch", response_model=P.WatchOut)
    async def watch(code: CodePath, request: Request) -> P.WatchOut:
        """Spectate: the public view now (no hands, no unseen cards) and the WebSocket path
        (connect without a token)."""
        async with table(code, request=request) as rt:
            return P.WatchOut(table=table_out(rt), ws=f"/ws/{rt.code}", index=rt.n,
                              view=rt.view_for(None))

    @app.post("/api/tables/{code}/rematch", response_model=P.TableOut)
    async def rematch(code: CodePath, req: P.Rematch, request: Request) -> P.TableOut:
        """A new table with the same settings and players (a finished game only; any seat's
        token). Every player's token works at the new table too."""
        async with table(code, request=request) as rt:
            seat = await hub().store.seat_by_token(rt.id, req.token)
            if seat is None:
                raise _bad("this token holds no seat at this table", 403, "bad_token")
            for attempt in range(8):
                try:
                    new_id, created = await make_rematch(rt)
                    break
                except IntegrityError:              # the new code was taken: another one
                    if attempt == 7:
                        raise _bad("could not find a free table code", 503, "busy") from None
        return await opened(new_id, start_clock=created)

    async def make_rematch(rt: TableRuntime) -> tuple[int, bool]:
        """The rematch table's id, and whether this call created it (else it existed)."""
        store = hub().store
        async with rt.lock:
            async with store.locked(rt.id) as tx:
                await rt.sync_tx(tx)
                if rt.status != "over":
                    raise _bad("the game is not over", 409, "not_over")
                if rt.rematch:
                    row = await store.table_by_code(rt.rematch)
                    if row is not None:
                        return row["id"], False
                    # the rematch table expired unplayed (waiting_ttl): make a new one
                seat_rows = await tx.seats()
                cfg, base = rematch_of(rt.settings, dict(rt.base))   # a lesson's: free
                base["seed"] = secret_seed()
                base["start"] = secrets.randbelow(rt.players)
                new_game(**{k: v for k, v in base.items() if k != "actions"})   # still valid
                rows = [{k: r[k] for k in ("seat", "kind", "bot", "name", "token_hash",
                                           "joined_at", "client", "account_id")} | {"away": False}
                        for r in seat_rows]
                for r in rows:          # a seat its player left: a plain bot's, nobody's
                    if r["kind"] != "human":
                        r["account_id"] = None
                humans_in = all(r["kind"] == "bot" or r["joined_at"] is not None for r in rows)
                status = "playing" if humans_in else "waiting"
                code = new_code(private=not rt.public)
                await tx.insert_table({
                    "code": code, "game": rt.game, "settings": cfg, "base": base,
                    "public": rt.public, "status": status, "deadline": None, "snap": None,
                    "rematch_code": None, "creator": rt.row.get("creator"),
                    "rated": bool(rt.row.get("rated")), "pace": cfg.get("pace"),
                    "created_at": clock.now(), "seen_at": clock.now()}, rows)  # players here
                tx.set(rematch_code=code)
            new_id = tx.new_table_id
            rt.set_meta(tx.row, None)
            for c in list(rt.conns):
                c.send({"type": "rematch", "table": code})
            rt.publish([], only_state=True)
        return new_id, True

    @app.get("/api/tables/{code}/record")
    async def record(code: CodePath, request: Request) -> JSONResponse:
        """The finished game as a record (NOTATION.md). 409 while it is being played: the
        record's seed would reveal every hidden card."""
        async with table(code, request=request) as rt:
            if rt.status != "over":
                raise _bad("the game is not over", 409, "not_over")
            rec = rt.record()
        return JSONResponse(rec, headers={
            "Content-Disposition": f'attachment; filename="cardtable-{rt.code}.json"'})

    @app.get("/api/tables/{code}/replay", response_model=ReplayResponse, tags=["replay"])
    async def table_replay(code: CodePath, request: Request,
                           seat: Annotated[int | None, Query(ge=0, le=5)] = None,
                           first: Annotated[int, Query(alias="from", ge=0, le=10**7)] = 0,
                           count: Annotated[int, Query(ge=1, le=MAX_PAGE)] = MAX_PAGE
                           ) -> JSONResponse:
        """A finished game step by step (as POST /api/replay with its record): the view of
        `seat` (none: the full view) after each action, a page of `count` steps from `from`,
        with the table's seat names in both languages. 409 while it is being played."""
        async with table(code, request=request) as rt:
            if rt.status != "over":
                raise _bad("the game is not over", 409, "not_over")
            rec, names = rt.record(), dict(rt.names)
        return await replay_page(rec, seat, names, first, count)

    @app.get("/api/tables/{code}/chat", tags=["replay"])
    async def table_chat(code: CodePath, request: Request) -> JSONResponse:
        """The table talk of a finished game, both channels, oldest first (chat.py; the last
        `chat.REPLAY_ROWS`). 409 while it is being played (the spectators' chat is theirs)."""
        async with table(code, request=request) as rt:
            if rt.status != "over":
                raise _bad("the game is not over", 409, "not_over")
        return JSONResponse(await chat_replay(hub().store, rt.id))

    # -- play --------------------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def ws_play(ws: WebSocket, code: str):
        await handle_ws(ws, code, hub(), settings, clients)

    app.include_router(replay_router)                   # POST /api/replay
    app.state.make_table = make_table
    app.include_router(learn_router)                    # /api/lessons (http/learn.py)
    app.include_router(push_router)                     # /api/push/..., /sw.js
    app.include_router(account_router)                  # /api/accounts, /api/session, /api/me
    app.include_router(passkey_router)                  # /api/passkeys/..., /api/me/passkeys
    app.include_router(rating_router)                   # /api/players/..., /api/leaderboard/...
    app.include_router(coach_router)                    # /api/tables/{code}/coach, .../review
    install_friends(app)                                # /api/friends/..., presence (WebSockets)
    app.include_router(pace_router)                     # POST /api/my-moves

    # -- the browser client (pages, static files) ------------------------------------------------
    from cardtable.web import mount

    mount(app)
    return app


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
        settings.url()
        TrustedProxies(settings.trusted_proxies)
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
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning",
                            http=http, ws=ws, timeout_keep_alive=settings.keep_alive,
                            ws_max_size=settings.ws_max_frame, ws_per_message_deflate=False,
                            access_log=False, proxy_headers=bool(settings.trusted_proxies),
                            forwarded_allow_ips=settings.trusted_proxies or None,
                            h11_max_incomplete_event_size=16 * 1024)
    uvicorn.Server(config).run(sockets=[sock])
