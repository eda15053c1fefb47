"""The coach and the review over HTTP (coach.py does the work; docs/protocol.md, "Coach and
review"):

    POST /api/tables/{code}/coach     {token, budget?}: the estimates of the seat's options now
    GET  /api/tables/{code}/review    ?seat=N&budget=R: a finished game's review of seat N
                                      (202 with the progress while it runs, 200 when done)
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from cardtable.server.tables.coach import CoachRefused, Coaching
from cardtable.server.errors import ApiError, bad
from cardtable.server.guard.netaddr import addr_group
from cardtable.server.guard.security import client_addr

router = APIRouter()
CodePath = Annotated[str, Path(pattern=r"^[A-Za-z0-9]{1,32}$")]


class CoachAsk(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(..., min_length=1, max_length=128, description="the seat's token")
    budget: int | None = Field(None, ge=2, le=100_000, description="rollouts (2 up to the "
                               "expert level's own budget, its default)")


def _coaching(request: Request) -> Coaching:
    """The app's Coaching, made at its first use (its pool: the drivers' bot pool)."""
    st = request.app.state
    if getattr(st, "coaching", None) is None:
        st.coaching = Coaching(lambda: st.drivers().pool, st.settings.coach_budget,
                               st.settings.review_budget)
    return st.coaching


def _refused(e: CoachRefused) -> JSONResponse:
    return JSONResponse({"detail": e.detail, "error": e.error, "params": e.params},
                        status_code=e.status)


async def _runtime(request: Request, code: str):
    """(hub, the table `code`'s runtime, pinned: the caller releases it); 404 no_table, and
    429 guessing for an address that looked up too many unknown codes (as app.py's lookups)."""
    hub = request.app.state.hub()
    rt = await hub.runtime_by_code(code.upper())
    if rt is None:
        clients, addr = request.app.state.clients, client_addr(request.scope)
        if clients.guessing(addr):
            raise ApiError(429, "too many unknown table codes from your address: wait a "
                                "minute", "guessing", headers={"Retry-After": "60"})
        clients.missed(addr)
        raise bad("no such table", 404, "no_table")
    return hub, rt


@router.post("/api/tables/{code}/coach", tags=["coach"])
async def coach(code: CodePath, req: CoachAsk, request: Request) -> JSONResponse:
    """The coach (a table where nobody else is a person, not rated): the seat's options now,
    each with the expert level's estimate of its win chance and its rollouts, best first,
    computed in the bot pool from the seat's own view. 403 coach_humans / coach_rated where
    the coach is off, 409 coach_not_your_turn, 429 coach_busy."""
    hub, rt = await _runtime(request, code)
    try:
        await rt.refresh()
        seat = await hub.store.seat_by_token(rt.id, req.token)
        if seat is None:
            raise bad("this token holds no seat at this table", 403, "bad_token")
        try:
            return JSONResponse(await _coaching(request).advise(rt, seat, req.budget))
        except CoachRefused as e:
            return _refused(e)
    finally:
        hub.release(rt)


@router.get("/api/tables/{code}/review", tags=["coach"])
async def review(code: CodePath, request: Request,
                 seat: Annotated[int, Query(ge=0, le=7)],
                 budget: Annotated[int | None, Query(ge=2, le=100_000)] = None
                 ) -> JSONResponse:
    """The review of a human seat of a finished game (docs/review.md), computed in the bot
    pool from that seat's view only, kept in memory once made. 202 {"status": "running",
    "done", "total"} while it runs (ask again), 200 {"status": "done", "review"} when done;
    409 not_over while the game is played, 422 review_seat for a seat that is not a person's,
    429 review_busy / review_limited."""
    hub, rt = await _runtime(request, code)
    try:
        await rt.refresh()
        if rt.status != "over":
            raise bad("the game is not over: only a finished game is reviewed", 409, "not_over")
        if seat >= rt.players or rt.seats[seat]["kind"] == "bot":
            raise bad(f"seat {seat} is not a person's seat of this game", 422, "review_seat",
                      seat=seat)
        rec, names = rt.record(), dict(rt.names)
        table_id = rt.id
    finally:
        hub.release(rt)
    try:
        out = _coaching(request).review(table_id, rec, seat, budget,
                                        addr_group(client_addr(request.scope)), names)
    except CoachRefused as e:
        r = _refused(e)
        if e.status == 429:
            r.headers["Retry-After"] = "10"
        return r
    if out["status"] == "running":
        return JSONResponse(out, status_code=202, headers={"Retry-After": "1"})
    return JSONResponse(out)
