"""The server's own state over HTTP: `GET /api/health` (alive, its version, database kind
and instance label, the tables driven), `GET /api/stats` (decision latency, the bot pool)
and `GET /api/games` (the games as they declare themselves)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from cardtable import __version__
from cardtable.server import protocol as P
from cardtable.server.games import games_out

router = APIRouter()


@router.get("/api/health")
async def health(request: Request) -> dict:
    st = request.app.state
    return {"ok": True, "version": __version__, "database": st.url.kind,
            "instance": st.settings.instance, "driving": len(st.drivers().tasks)}
    # (`instance` is a random label of this process unless the operator sets one: no host
    # name or process id for the world to see)


@router.get("/api/stats")
async def stats(request: Request, since: Annotated[int, Query(ge=0, le=2**53)] = 0) -> dict:
    """Decision latency in this process: message received -> broadcast queued; `since`:
    only the decisions after the first `since` of this process. `bot_pool`: the searching
    bots' worker processes (decisions made, busy workers, decisions waiting)."""
    pool = request.app.state.drivers().pool
    return dict(request.app.state.hub().stats.summary(since),
                bot_pool=pool.stats() if pool else None)


@router.get("/api/games", response_model=list[P.GameInfo])
async def games() -> list[P.GameInfo]:
    """The games of this server as they declare themselves (core/registry.py): rule
    sets with their players and option values, rule options and settings with their types
    and defaults, the score sense, the rules version, the browser's module; and the bots
    that play each game and the difficulty levels."""
    return games_out()
