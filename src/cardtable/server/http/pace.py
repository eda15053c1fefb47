"""A guest's "my games": the browser sends the seat tokens it holds (as the
account claim does, POST /api/accounts) and gets the tables where they hold a seat, those
where it is that seat's move first. A token that holds no seat adds nothing: nothing is said
about a table to whoever does not hold one of its tokens (a token is 256 random bits)."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardtable.server.people import accounts as A
from cardtable.server.store.db import token_hash
from cardtable.server.tables.pace import waiting_seats

router = APIRouter(tags=["lobby"])

Token = Annotated[str, StringConstraints(min_length=1, max_length=256)]


class MyMoves(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: Annotated[list[Token], Field(max_length=A.MAX_CLAIM)] = Field(
        ..., description="the seat tokens this browser holds (at most 200)")


class GuestGame(BaseModel):
    code: str
    link: str
    game: str
    status: str = Field(..., description="waiting, playing or over")
    seat: int = Field(..., description="the token's seat")
    your_move: bool = Field(..., description="it is this seat's move (its turn, or a window "
                                             "it has not answered)")
    deadline: float | None = Field(None, description="when the move's time runs out "
                                                     "(epoch seconds; null: no timer)")
    pace: str = Field(..., description="live or turn (turn-based)")
    actions: int
    updated_at: float


def _games(hashes: list[str]) -> A.Op:
    marks, params = A.sql_marks("h", hashes)
    rows = yield ("SELECT t.code, t.game, t.settings, t.status, t.n_actions, t.updated_at, "
                  "t.deadline, t.waiting_for, s.seat FROM seats s JOIN game_tables t ON "
                  f"t.id = s.table_id WHERE s.kind = 'human' AND s.token_hash IN ({marks}) "
                  f"ORDER BY {A.YOUR_MOVE_FIRST}, t.updated_at DESC, t.id DESC", params)
    return rows


@router.post("/api/my-moves", response_model=list[GuestGame])
async def my_moves(req: MyMoves, request: Request) -> list[GuestGame]:
    """A guest's games from this browser's seat tokens: the tables where it is your move
    first (the earliest deadline first), then the others, the latest changed first."""
    hashes = sorted({token_hash(t) for t in req.tokens})
    if not hashes:
        return []
    rows = await A.read(request.app.state.store(), _games(hashes))
    out = []
    for code, game, settings, status, n, updated, deadline, waiting, seat in rows:
        if isinstance(settings, str):                   # SQLite through plain SQL
            settings = json.loads(settings)
        playing = status == "playing"
        out.append(GuestGame(
            code=code, link=f"/t/{code}", game=game, status=status, seat=seat,
            your_move=playing and seat in waiting_seats(waiting),
            deadline=deadline if playing else None,
            pace="turn" if settings.get("pace") == "turn" else "live", actions=n,
            updated_at=updated))
    out.sort(key=lambda g: (not g.your_move, g.deadline if g.your_move and g.deadline
                            else float("inf")))
    return out
