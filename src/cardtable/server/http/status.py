"""The server's own state over HTTP: `GET /api/health` (liveness: the process answers; its
version, database kind and instance label, the tables driven; it touches no database),
`GET /api/ready` (readiness: the database answers and, on PostgreSQL, the LISTEN connection
is up, and the process is not draining: 200, else 503), `GET /api/stats` (decision latency,
the bot pool) and `GET /api/games` (the games as they declare themselves)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text

from cardtable import __version__
from cardtable.server.games import GameInfo, games_out

router = APIRouter()


@router.get("/api/health")
async def health(request: Request) -> dict:
    """Liveness: the process answers (it asks nothing of the database: /api/ready does)."""
    st = request.app.state
    return {"ok": True, "version": __version__, "database": st.url.kind,
            "instance": st.settings.instance, "driving": len(st.drivers().tasks)}
    # (`instance` is a random label of this process unless the operator sets one: no host
    # name or process id for the world to see)


#: seconds the readiness check waits for the database's answer
READY_TIMEOUT = 2.0


async def database_check(store) -> str:
    """"ok" if the database answers `SELECT 1` within READY_TIMEOUT, else what went wrong
    (the error's kind only: no address or password)."""
    async def ping() -> None:
        async with store.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    try:
        await asyncio.wait_for(ping(), READY_TIMEOUT)
    except TimeoutError:
        return f"no answer within {READY_TIMEOUT:g} s"
    except Exception as e:          # any failure of the driver: not ready, and why in a word
        return f"unavailable ({type(e).__name__})"
    return "ok"


@router.get("/api/ready")
async def ready(request: Request) -> JSONResponse:
    """Readiness (docs/deploy.md, "Seeing it"): 200 `{"ready": true, ...}` when this process
    can serve players: the database answers a short query, on PostgreSQL its LISTEN
    connection (other processes' decisions) is up, and it is not draining before a stop;
    else 503 with the same details (`database`, `listener`: "ok" or what is wrong, None on
    SQLite; `draining`)."""
    st = request.app.state
    draining = bool(getattr(st, "draining", False))
    database = await database_check(st.store())
    listener = st.listener()
    listening = None if listener is None else ("ok" if listener.ready.is_set() else "down")
    ok = not draining and database == "ok" and listening in (None, "ok")
    return JSONResponse({"ready": ok, "database": database, "listener": listening,
                         "draining": draining, "instance": st.settings.instance},
                        status_code=200 if ok else 503)


@router.get("/api/stats")
async def stats(request: Request, since: Annotated[int, Query(ge=0, le=2**53)] = 0) -> dict:
    """Decision latency in this process: message received -> broadcast queued; `since`:
    only the decisions after the first `since` of this process. `bot_pool`: the searching
    bots' worker processes (decisions made, busy workers, decisions waiting)."""
    pool = request.app.state.drivers().pool
    return dict(request.app.state.hub().stats.summary(since),
                bot_pool=pool.stats() if pool else None)


@router.get("/api/games", response_model=list[GameInfo])
async def games() -> list[GameInfo]:
    """The games of this server as they declare themselves (core/registry.py): rule
    sets with their players and option values, rule options and settings with their types
    and defaults, the score sense, the rules version, the browser's module; and the bots
    that play each game and the difficulty levels."""
    return games_out()
