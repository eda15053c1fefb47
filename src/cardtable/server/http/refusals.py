"""What a ban, a suspension or a block refuses over HTTP: `refuse_banned` (called by the
routes where somebody plays: creating and joining tables, friend requests and invitations,
reports, sign-up), `refuse_blocked_host` (joining a table whose host blocked the player), and
how a ban is told to its player (`ban_out`, `ban_error`). The moderators' routes that make
bans are in http/moderation.py; the store side is mod/moderation.py.
"""

from __future__ import annotations

from fastapi import Request
from pydantic import BaseModel, Field

from cardtable.server.errors import ApiError
from cardtable.server.guard.netaddr import addr_group
from cardtable.server.guard.security import BadClientId, client_addr, client_identity
from cardtable.server.mod import moderation as M
from cardtable.server.people import accounts as A


def accounts_store(request: Request):
    return request.app.state.accounts.store


ban_params = M.ban_params


class BanOut(BaseModel):
    """A ban or suspension as its player is told it (at log-in, GET /api/me)."""
    reason: str
    until: float | None = Field(None, description="a suspension's end (epoch seconds); "
                                                  "none: a ban")
    until_text: str | None = Field(None, description="the same in UTC, as text")


def ban_out(b: dict | None) -> BanOut | None:
    return BanOut(**ban_params(b)) if b else None


def ban_error(b: dict) -> ApiError:
    p = ban_params(b)
    if b["until"] is None:
        return ApiError(403, f"you are banned: {b['reason']}", "banned", p)
    return ApiError(403, f"you are suspended until {p['until_text']}: {b['reason']}",
                    "suspended", p)


async def ban_of(request: Request, account_id: int | None) -> dict | None:
    """The ban or suspension in force of this request: of the account `account_id`, the
    browser's client identity (or a guest without one, its address: the person half of
    seats.client under each address key) or its address group (an IPv4 address, an IPv6
    /64)."""
    st = request.app.state
    addr = client_addr(request.scope)
    try:
        identity = client_identity(request.headers)
    except BadClientId:
        identity = None
    persons = [c[32:] for c in st.address_keys.seat_clients(addr, identity)]
    return await A.read(accounts_store(request), M.ban_of(account_id, persons, addr_group(addr)))


async def refuse_banned(request: Request, account_id: int | None = None,
                        look_up: bool = True) -> None:
    """403 `banned` / `suspended` (with the reason and until when) if a ban is in force for
    this request; `look_up`: the logged-in account's too (when `account_id` is not given)."""
    if account_id is None and look_up:
        found = await request.app.state.accounts.current(request)
        account_id = found[0]["id"] if found else None
    b = await ban_of(request, account_id)
    if b is not None:
        raise ban_error(b)


async def refuse_blocked_host(request: Request, code: str, host_seat: int | None) -> None:
    """403 `not_welcome` if the logged-in player is blocked by the account holding the
    table's host seat (the message does not say who or why: a block is private)."""
    if host_seat is None:
        return
    found = await request.app.state.accounts.current(request)
    if found is None:
        return
    me = found[0]["id"]
    store = accounts_store(request)
    host = await A.read(store, M.host_account(code, host_seat))
    if host is not None and host != me and await A.read(store, M.blocks_between([host], me)):
        raise ApiError(403, "you cannot join this table", "not_welcome")


# -- models ------------------------------------------------------------------------------------
