"""The lobby's tables over HTTP: create (`POST /api/tables`), list, look at, join (by code
or link), watch, rematch, and a finished game's record, replay and table talk.

What the routes share lives on `app.state` (set by app.py): `settings`, `clock`, `clients`
(security.ClientLimits), `quotas` (tables/quotas.py), `accounts` (http/account.py), and,
once the app has started, `hub()`, `address_keys`. `make_table` is also the lessons'
(http/learn.py)."""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import IntegrityError

from cardtable.core import registry
from cardtable.core.record import new_game
from cardtable.server import protocol as P
from cardtable.server.errors import ApiError, bad
from cardtable.server.http.refusals import refuse_banned, refuse_blocked_host
from cardtable.server.games import table_config
from cardtable.server.guard.security import (
    MAX_CODE_LEN,
    AddressKeys,
    BadClientId,
    client_addr,
    client_identity,
    new_code,
    same_address,
    same_person,
    secret_seed,
)
from cardtable.server.http.rating import rated_host, rated_join
from cardtable.server.http.replay import MAX_PAGE, ReplayResponse, replay_page
from cardtable.server.store.db import token_hash
from cardtable.server.tables.joining import join_seat
from cardtable.server.tables.lessons import rematch_of
from cardtable.server.people import sessions as S
from cardtable.server.tables.quotas import Refused, account_key, is_turn, searching
from cardtable.server.tables.runtime import TableRuntime
from cardtable.server.tables.table_base import seat_info_of
from cardtable.server.talk.chat import chat_replay

router = APIRouter()

CodePath = Annotated[str, Path(pattern=r"^[A-Za-z0-9]{1,32}$", max_length=MAX_CODE_LEN,
                               description="the table code")]


def table_out(rt: TableRuntime) -> P.TableOut:
    return table_row_out(rt.row, rt.seat_info(), rt.n)


def pace_out(row: dict) -> dict:
    """The pace fields of a table for the lobby (server/tables/pace.py)."""
    s = row["settings"]
    turn = s.get("pace") == "turn"
    return {"pace": "turn" if turn else "live",
            "move_seconds": s.get("move_seconds") if turn else None,
            "on_timeout": s.get("on_timeout") if turn else None,
            "deadline": row.get("deadline") if row["status"] == "playing" else None}


def table_row_out(row: dict, seats: list[dict], n: int) -> P.TableOut:
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
        annulled=row.get("annulled_at") is not None, lesson=s.get("lesson"), **pace_out(row))


@asynccontextmanager
async def table(request: Request, code: str, refresh: bool = True
                ) -> AsyncIterator[TableRuntime]:
    """The table `code` (404 if there is none), brought up to date with the database
    unless `refresh` is false, held for the block (Hub.runtime) and released after it.
    An address that looked up too many codes that do not exist gets 429 instead of 404
    for a while; a table that exists is found whatever its address did before."""
    hub, clients = request.app.state.hub(), request.app.state.clients
    addr = client_addr(request.scope)
    rt = await hub.runtime_by_code(code.upper())
    if rt is None:
        if addr is not None:
            if clients.guessing(addr):
                raise ApiError(429, "too many unknown table codes from your address: wait "
                                    "a minute", "guessing", headers={"Retry-After": "60"})
            clients.missed(addr)
        raise bad("no such table", 404, "no_table")
    try:
        if refresh:
            await rt.refresh()
        yield rt
    finally:
        hub.release(rt)


async def opened(request: Request, table_id: int, start_clock: bool = True) -> P.TableOut:
    """A table just created: its turn clock started if it is being played (unless
    `start_clock` is false), the drivers told; the lobby's view of it."""
    hub = request.app.state.hub()
    async with hub.held(table_id) as rt:
        if start_clock and rt.status == "playing":
            await rt.reset_deadline()
        hub.after_change(rt)
        return table_out(rt)


def identity(request: Request) -> str | None:
    """The client identity of a request (docs/protocol.md); 400 if it is malformed."""
    try:
        return client_identity(request.headers)
    except BadClientId as e:
        raise bad(str(e), 400, "bad_client") from None


@router.post("/api/tables", response_model=P.CreateOut, status_code=201)
async def create_table(req: P.CreateTable, request: Request) -> P.CreateOut:
    """Create a table. With `name`, the creator takes the first human seat at once. An
    address may have a few unfinished tables at a time (fewer with searching bots), and
    the server a few thousand (quotas.py)."""
    cfg, base, rows = table_config(req, request.app.state.settings)
    await refuse_banned(request)
    if req.rated:
        await rated_host(req, cfg, request)
    return await make_table(req, request, cfg, base, rows)


async def make_table(req, request: Request, cfg: dict, base: dict, rows: list
                     ) -> P.CreateOut:
    """A table of `cfg`, `base` and seat `rows` (table_config's, or a lesson's)."""
    st = request.app.state
    clock = st.clock
    addr = client_addr(request.scope)
    keys: AddressKeys = st.address_keys
    who = keys.seat_client(addr, identity(request))
    creators = keys.client_keys(addr)           # the current key's first
    account = await st.accounts.current(request) if S.cookie_value(request) else None
    if account is not None:                     # a logged-in creator: the account's quota
        creators = [account_key(account[0]["id"])]
    humans = [r["seat"] for r in rows if r["kind"] == "human"]
    token = None
    seat = None
    if req.name is not None:
        if not humans:
            raise bad("no human seat to join", 422, "no_human_seat")
        seat = humans[0]
        token = secrets.token_urlsafe(32)
        rows[seat].update(name=req.name, token_hash=token_hash(token), joined_at=clock.now(),
                          client=who)
    status = "playing" if all(r["kind"] == "bot" or r["joined_at"] for r in rows) else "waiting"
    store = st.hub().store
    try:
        async with st.quotas.admit(addr, creators, searching(cfg), turn=is_turn(cfg),
                                   account=account is not None):
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
                raise bad("could not find a free table code", 503, "busy")
    except Refused as e:
        raise ApiError(e.status, e.detail, e.error, e.params, e.headers()) from None
    out = P.CreateOut(table=await opened(request, table_id))
    if token is not None:
        await st.accounts.link_seat(request, token)        # logged in: the seat is theirs
        out.join = P.JoinOut(table=out.table, seat=seat, name=req.name, token=token,
                             ws=f"/ws/{code}", resume_link=f"/t/{code}#token={token}")
    return out


@router.get("/api/tables", response_model=list[P.TableOut])
async def list_tables(request: Request, game: str | None = Query(None, max_length=32),
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
    rows, seat_rows = await request.app.state.hub().store.open_tables(game, limit, status)
    return [table_row_out(row, seat_info_of(seat_rows[row["id"]]), row["n_actions"])
            for row in rows]


@router.get("/api/tables/{code}", response_model=P.TableOut)
async def get_table(code: CodePath, request: Request) -> P.TableOut:
    async with table(request, code) as rt:
        return table_out(rt)


async def join_table(code: str, req: P.JoinTable, request: Request) -> P.JoinOut:
    st = request.app.state
    settings = st.settings
    await refuse_banned(request)
    async with table(request, code, refresh=False) as rt:
        await refuse_blocked_host(request, rt.code, rt.host())
        account_id = None
        if rt.row.get("rated"):                  # logged in, as the account's name
            name, account_id = await rated_join(rt, request)
            req = P.JoinTable(name=name, seat=req.seat)
        public_limits = settings.public_seats_per_person or \
            settings.public_seats_per_address
        # this person under each key of the address hashes (the current one's first)
        mine = st.address_keys.seat_clients(client_addr(request.scope), identity(request))

        async def check(rt: TableRuntime, client: str) -> None:
            await check_public_seats(request, rt, mine)

        seat, token = await join_seat(st.hub(), rt, req.name, req.seat, mine[0],
                                      check if public_limits else None, account_id)
        await st.accounts.link_seat(request, token)
        return P.JoinOut(table=table_out(rt), seat=seat, name=req.name, token=token,
                         ws=f"/ws/{rt.code}", resume_link=f"/t/{rt.code}#token={token}")


@router.post("/api/tables/{code}/join", response_model=P.JoinOut)
async def join(code: CodePath, req: P.JoinTable, request: Request) -> P.JoinOut:
    """Take a free human seat under a name; returns the seat's secret token."""
    return await join_table(code, req, request)


@router.post("/api/join", response_model=P.JoinOut)
async def join_by_link(req: P.JoinByLink, request: Request) -> P.JoinOut:
    """Join by table code or by link (…/t/CODE)."""
    m = re.search(r"(?:^|/t/)([A-Za-z0-9]{1,32})(?:[/?#].*)?$", req.table)
    if not m:
        raise bad("not a table code or link", 404, "not_a_code")
    return await join_table(m.group(1), P.JoinTable(name=req.name, seat=req.seat), request)


async def check_public_seats(request: Request, rt: TableRuntime, mine: list[str]) -> None:
    """409 if this person (`mine`: their seats.client under each address key) already
    holds a seat at the public table `rt`, or the people behind this address hold as many
    as one address may (docs/deploy.md)."""
    settings = request.app.state.settings
    held = await request.app.state.hub().store.seat_clients(rt.id)
    per_person, per_address = (settings.public_seats_per_person,
                               settings.public_seats_per_address)
    if per_person and sum(any(same_person(c, m) for m in mine)
                          for c in held) >= per_person:
        raise bad("you already hold a seat at this public table (to play several seats "
                  "from one device, invite your friends to a private table)", 409,
                  "seat_held")
    if per_address and sum(any(same_address(c, m) for m in mine)
                           for c in held) >= per_address:
        raise bad(f"{per_address} seats of this public table are taken from your address "
                  "already (the most for one address): play together at a private table",
                  409, "address_seats", most=per_address)


@router.get("/api/tables/{code}/watch", response_model=P.WatchOut)
async def watch(code: CodePath, request: Request) -> P.WatchOut:
    """Spectate: the public view now (no hands, no unseen cards) and the WebSocket path
    (connect without a token)."""
    async with table(request, code) as rt:
        return P.WatchOut(table=table_out(rt), ws=f"/ws/{rt.code}", index=rt.n,
                          view=rt.view_for(None))


@router.post("/api/tables/{code}/rematch", response_model=P.TableOut)
async def rematch(code: CodePath, req: P.Rematch, request: Request) -> P.TableOut:
    """A new table with the same settings and players (a finished game only; any seat's
    token). Every player's token works at the new table too."""
    await refuse_banned(request)
    async with table(request, code) as rt:
        seat = await request.app.state.hub().store.seat_by_token(rt.id, req.token)
        if seat is None:
            raise bad("this token holds no seat at this table", 403, "bad_token")
        for attempt in range(8):
            try:
                new_id, created = await make_rematch(request, rt)
                break
            except IntegrityError:              # the new code was taken: another one
                if attempt == 7:
                    raise bad("could not find a free table code", 503, "busy") from None
    return await opened(request, new_id, start_clock=created)


async def make_rematch(request: Request, rt: TableRuntime) -> tuple[int, bool]:
    """The rematch table's id, and whether this call created it (else it existed)."""
    store, clock = request.app.state.hub().store, request.app.state.clock
    async with rt.lock:
        async with store.locked(rt.id) as tx:
            await rt.sync_tx(tx)
            if rt.status != "over":
                raise bad("the game is not over", 409, "not_over")
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


@router.get("/api/tables/{code}/record")
async def record(code: CodePath, request: Request) -> JSONResponse:
    """The finished game as a record (NOTATION.md). 409 while it is being played: the
    record's seed would reveal every hidden card."""
    async with table(request, code) as rt:
        if rt.status != "over":
            raise bad("the game is not over", 409, "not_over")
        rec = rt.record()
    return JSONResponse(rec, headers={
        "Content-Disposition": f'attachment; filename="cardtable-{rt.code}.json"'})


@router.get("/api/tables/{code}/replay", response_model=ReplayResponse, tags=["replay"])
async def table_replay(code: CodePath, request: Request,
                       seat: Annotated[int | None, Query(ge=0, le=5)] = None,
                       first: Annotated[int, Query(alias="from", ge=0, le=10**7)] = 0,
                       count: Annotated[int, Query(ge=1, le=MAX_PAGE)] = MAX_PAGE
                       ) -> JSONResponse:
    """A finished game step by step (as POST /api/replay with its record): the view of
    `seat` (none: the full view) after each action, a page of `count` steps from `from`,
    with the table's seat names in both languages. 409 while it is being played."""
    async with table(request, code) as rt:
        if rt.status != "over":
            raise bad("the game is not over", 409, "not_over")
        rec, names = rt.record(), dict(rt.names)
    return await replay_page(rec, seat, names, first, count)


@router.get("/api/tables/{code}/chat", tags=["replay"])
async def table_chat(code: CodePath, request: Request) -> JSONResponse:
    """The table talk of a finished game, both channels, oldest first (chat.py; the last
    `chat.REPLAY_ROWS`). 409 while it is being played (the spectators' chat is theirs)."""
    async with table(request, code) as rt:
        if rt.status != "over":
            raise bad("the game is not over", 409, "not_over")
    return JSONResponse(await chat_replay(request.app.state.hub().store, rt.id))
