""""Play now" over HTTP (docs/api.md "Play now"): join the queue (`POST /api/queue`), look
at one's entry and the counts waiting per game (`GET /api/queue`), leave it
(`DELETE /api/queue`); and `Matcher`, the task of every server process that pairs the
entries and makes their tables (tables/queue.py has the rows and the pairing).

The entry's ticket (returned once by the join) is sent back in the header `X-Queue-Ticket`;
once paired, it is the seat's token at the new table. A client polls GET every few seconds:
that keeps its entry (an entry not polled for `queue.STALE_SECONDS` is dropped) and tells it
when it has a table.

The matcher: one pass a second in every process, and one after each join and poll; on
PostgreSQL a pass runs under a transaction-scoped advisory lock (`pg_try_advisory_xact_lock`,
so one process pairs at a time and the others skip), on SQLite in the one process under an
asyncio lock."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Annotated, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, model_validator
from sqlalchemy import text

from cardtable.core import registry
from cardtable.server import protocol as P
from cardtable.server.errors import ApiError, bad
from cardtable.server.games import table_config
from cardtable.server.guard.security import client_addr, new_code
from cardtable.server.http.refusals import refuse_banned
from cardtable.server.http.tables import identity
from cardtable.server.people import accounts as A
from cardtable.server.store.db import token_hash
from cardtable.server.tables import queue as Q

log = logging.getLogger("cardtable.server.queue")
router = APIRouter(tags=["play now"])

#: seconds between two passes of the matcher
MATCH_SECONDS = 1.0
#: how often the matcher of a process that saw nobody waiting looks again (a join or a poll on
#: this process runs a pass at once): an idle process lets its pooled connections close
IDLE_MATCH_SECONDS = 30.0
#: the advisory lock's key on PostgreSQL ("cardtable queue")
LOCK_KEY = 0x63717565
TICKET = "X-Queue-Ticket"


class JoinQueue(P.Body):
    game: P.GameName = Field(..., description="the game (GET /api/games)")
    variant: Annotated[str, Field(max_length=32)] | None = Field(
        None, description="the rule set; null: any")
    rated: bool = Field(False, description="a rated game (log in first; never bots)")
    pace: Literal["live", "turn"] = Field("live", description="live or turn-based")
    bot_wait: Annotated[int, Field(ge=0, le=Q.MAX_BOT_WAIT)] | None = Field(
        None, description="casual: seconds after which bots fill the empty seats; null: never")
    name: P.Name | None = Field(None, description="a guest's name at the table (an account "
                                                  "plays under its own)")

    @model_validator(mode="after")
    def _consistent(self):
        g = registry.info(self.game)
        if self.variant is not None and self.variant not in g.variant_names:
            raise ValueError(f"variant: {g.title} has no rule set {self.variant[:32]!r} "
                             f"(known: {', '.join(g.variant_names)})")
        if self.rated and self.bot_wait is not None:
            raise ValueError("bot_wait: a rated game is never filled with bots")
        return self


class EntryOut(BaseModel):
    game: str
    variant: str | None
    rated: bool
    pace: str
    bot_wait: int | None
    name: str
    waited: float = Field(..., description="seconds waited so far")
    state: Literal["waiting", "paired"]
    table: str | None = Field(None, description="paired: the table's code (open /t/CODE "
                                                "with the ticket as the seat's token)")
    seat: int | None = None


class QueueOut(BaseModel):
    entry: EntryOut | None = Field(None, description="the entry of the ticket sent")
    ticket: str | None = Field(None, description="the join's answer only: the secret that "
                                                 "names the entry, and the seat's token")
    waiting: dict[str, int] = Field(..., description="entries waiting per game")


def entry_out(e: dict, now: float) -> EntryOut:
    return EntryOut(game=e["game"], variant=e["variant"], rated=bool(e["rated"]),
                    pace=e["pace"], bot_wait=None if e["bot_wait"] is None else
                    int(e["bot_wait"]), name=e["name"], waited=max(0.0, now - e["since"]),
                    state="waiting" if e["table_code"] is None else "paired",
                    table=e["table_code"], seat=e["seat"])


def ticket_of(request: Request) -> str | None:
    t = request.headers.get(TICKET)
    return t if t and len(t) <= 64 else None


@router.post("/api/queue", response_model=QueueOut, status_code=201)
async def join_queue(req: JoinQueue, request: Request) -> QueueOut:
    """Wait for a table of this game (docs/api.md "Play now"). 401 for a rated game without
    logging in; 409 `queue_held` if this account or browser waits already; 429
    `queue_address` if the address group has `queue.PER_ADDRESS` entries waiting."""
    st = request.app.state
    await refuse_banned(request)
    found = await st.accounts.current(request)
    if req.rated and found is None:
        raise ApiError(401, "log in to play rated", "rated_login")
    if found is None and req.name is None:
        raise bad("name: a guest plays under a name", 422, "name", field="name")
    store, now = st.hub().store, st.clock.now()
    client = st.address_keys.seat_client(client_addr(request.scope), identity(request))
    account = found[0] if found else None
    rating = await A.read(store, Q.rating_of(account["id"], req.game)) if account else 0.0
    ticket = secrets.token_urlsafe(32)
    values = {"ticket_hash": token_hash(ticket), "client": client, "addr": client[:32],
              "owner": f"a:{account['id']}" if account else f"g:{client}",
              "account_id": account["id"] if account else None,
              "name": account["name"] if account else req.name, "game": req.game,
              "variant": req.variant, "rated": req.rated, "pace": req.pace,
              "bot_wait": req.bot_wait, "rating": rating, "since": now, "seen_at": now,
              "table_code": None, "seat": None}
    res = await A.write(store, lambda: Q.join(values))
    if res == "held":
        raise bad("you are waiting for a table already (leave that first)", 409,
                  "queue_held")
    if res == "address":
        raise bad(f"{Q.PER_ADDRESS} people behind your address wait already", 429,
                  "queue_address", most=Q.PER_ADDRESS)
    await st.matcher.run()
    e = await A.write(store, lambda: Q.seen(values["ticket_hash"], st.clock.now()))
    return QueueOut(entry=entry_out(e, st.clock.now()), ticket=ticket,
                    waiting=await A.read(store, Q.counts()))


@router.get("/api/queue", response_model=QueueOut)
async def get_queue(request: Request) -> QueueOut:
    """The counts waiting per game; with the header `X-Queue-Ticket`, the entry too (and it
    counts as seen: poll every few seconds, or it is dropped)."""
    st = request.app.state
    store = st.hub().store
    ticket, entry = ticket_of(request), None
    if ticket is not None:
        await st.matcher.run()
        e = await A.write(store, lambda: Q.seen(token_hash(ticket), st.clock.now()))
        entry = entry_out(e, st.clock.now()) if e else None
    return QueueOut(entry=entry, waiting=await A.read(store, Q.counts()))


@router.delete("/api/queue", status_code=204)
async def leave_queue(request: Request) -> None:
    """Leave the queue (the ticket's entry; 404 `no_entry` if there is none)."""
    ticket = ticket_of(request)
    store = request.app.state.hub().store
    if ticket is None or not await A.write(store, lambda: Q.leave(token_hash(ticket))):
        raise bad("no such queue entry", 404, "no_entry")


class Matcher:
    """The pairing task of one server process (see the module's docstring)."""

    def __init__(self, app) -> None:
        self.app = app
        self.lock = asyncio.Lock()
        self.task: asyncio.Task | None = None
        self.waiting = 0                    # entries waiting, as the last pass read them
        self.last_pass = float("-inf")      # when the last pass ran (the app's clock)

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass

    async def _loop(self) -> None:
        clock = self.app.state.clock
        while True:
            if self.waiting or clock.now() - self.last_pass >= IDLE_MATCH_SECONDS:
                await self.run()
            await clock.sleep(MATCH_SECONDS)

    async def run(self) -> None:
        """One pass, unless one runs already (in this process, or on PostgreSQL in any). A
        pass that fails is logged; the next one tries again (the entries are still there)."""
        if self.lock.locked():
            return
        try:
            await self._locked_pass()
        except Exception:                           # noqa: BLE001
            log.exception("queue: a pass of the matcher failed")

    async def _locked_pass(self) -> None:
        async with self.lock:
            store = self.app.state.hub().store
            if not store.url.is_postgres:
                await self._pass()
                return
            async with store.engine.begin() as conn:
                if await conn.scalar(text("SELECT pg_try_advisory_xact_lock(:k)"),
                                     {"k": LOCK_KEY}):
                    await self._pass()

    async def _pass(self) -> None:
        st = self.app.state
        store, now = st.hub().store, st.clock.now()
        entries = await A.write(store, lambda: Q.sweep_and_read(now))
        self.waiting = sum(e["table_code"] is None for e in entries)
        self.last_pass = now
        st.metrics.queue_size.set(self.waiting)
        waiting = [e["account_id"] for e in entries if e["table_code"] is None]
        blocked = await A.read(store, Q.blocks_among(waiting))
        for p in Q.pairings(entries, now, blocked):
            await self._table(p, now)

    async def _table(self, p: Q.Pairing, now: float) -> None:
        st = self.app.state
        hub, store = st.hub(), st.hub().store
        first = p.entries[0]
        seats = [P.SeatSpec(kind="human") for _ in p.entries] + \
            [P.SeatSpec(kind="bot", bot="medium") for _ in range(p.bots)]
        req = P.CreateTable(game=p.game, variant=p.variant, players=len(seats), seats=seats,
                            public=True, rated=bool(first["rated"]), pace=first["pace"])
        cfg, base, rows = table_config(req, st.settings)
        if req.rated and not cfg.get("turn_seconds") and req.pace == "live":
            cfg["turn_seconds"] = st.settings.public_turn_seconds or 120.0
        for r in rows:
            r.setdefault("account_id", None)
        for i, e in enumerate(p.entries):
            rows[i].update(name=e["name"], token_hash=e["ticket_hash"], joined_at=now,
                           client=e["client"], account_id=e["account_id"])
        table_id = await store.create_table({
            "code": new_code(private=False), "game": p.game, "settings": cfg, "base": base,
            "public": True, "status": "playing", "deadline": None, "snap": None,
            "rematch_code": None, "creator": "queue", "rated": req.rated,
            "pace": cfg.get("pace"), "created_at": now}, rows)
        async with hub.held(table_id) as rt:
            await rt.reset_deadline()
            hub.after_change(rt)
            code = rt.code
        for i, e in enumerate(p.entries):
            await A.write(store, lambda e=e, i=i: Q.seated(e["id"], code, i))
            st.metrics.queue_wait.observe(max(0.0, now - e["since"]))
        st.metrics.queue_pairings.labels("rated" if req.rated else "casual").inc()
        log.info("queue: paired entries %s at table %s (%s, %d bots) after %.1f s",
                 [e["id"] for e in p.entries], code, p.game, p.bots, now - first["since"])
