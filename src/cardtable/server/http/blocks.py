"""A player's blocks over HTTP (docs/api.md, "Moderation"): the list, block and unblock.
Private to the blocker; what a block refuses is mod/moderation.py's and the rooms that ask it
(friends, invitations, presence, table talk, joining a table the blocker hosts)."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field

from cardtable.server.errors import ApiError
from cardtable.server.guard.security import name_keys
from cardtable.server.http.moderation import Body, account_of
from cardtable.server.http.refusals import accounts_store as _store
from cardtable.server.mod import moderation as M
from cardtable.server.people import accounts as A
from cardtable.server.protocol import Name

router = APIRouter(tags=["moderation"])


class BlockIn(Body):
    name: Name = Field(..., description="the player to block")


class BlockOut(BaseModel):
    name: str
    since: float



@router.get("/api/me/blocks", response_model=list[BlockOut])
async def my_blocks(request: Request) -> list[BlockOut]:
    """The players I block (nobody else sees this list)."""
    me = await account_of(request)
    return [BlockOut(**b) for b in await A.read(_store(request), M.blocked_by(me["id"]))]


@router.post("/api/me/blocks", response_model=BlockOut, status_code=201)
async def block(req: BlockIn, request: Request) -> BlockOut:
    """Block a player: no friendship (it ends), no friend requests or invitations from them,
    no presence either way, no lines of theirs in my table talk, and they cannot join a
    table I host. They are not told. 404 `no_account`; 422 `block_self`."""
    me = await account_of(request)
    keys = name_keys(req.name)
    if keys == name_keys(me["name"]):
        raise ApiError(422, "that is your own name", "block_self")
    name = await A.write(_store(request), lambda: M.block(me["id"], keys))
    if name is None:
        raise ApiError(404, f"no account is named {req.name!r}", "no_account",
                       {"name": req.name})
    return BlockOut(name=name, since=time.time())


@router.delete("/api/me/blocks/{name}", status_code=204)
async def unblock(name: Annotated[str, Path(max_length=128)], request: Request) -> Response:
    """No longer block a player (404 `not_blocked` if I do not)."""
    me = await account_of(request)
    try:
        keys = name_keys(" ".join(name.split()))
    except Exception:                               # noqa: BLE001 -- no account has these keys
        keys = ("", "")
    if not keys[0] or not await A.write(_store(request), lambda: M.unblock(me["id"], keys)):
        raise ApiError(404, "you do not block anybody of that name", "not_blocked")
    return Response(status_code=204)
