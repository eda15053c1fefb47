"""The HTTP routes of a player's identity (docs/api.md, "Identity"): the account's avatar,
profile line and country (GET and PUT /api/me/profile), and the identities of the people at
tables (GET /api/people?tables=...: the table page's seats, the lobby's lists) or by name (GET
/api/identity/{name}: the player's profile page). The store side
is people/profiles.py.

A refused field answers 422 `bad_profile` with the field and why (`params.field`,
`params.why`) and changes nothing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardtable.server.errors import ApiError
from cardtable.server.http.account import svc
from cardtable.server.people import accounts as A
from cardtable.server.people import profiles as P

#: tables at most one GET /api/people asks about (the lobby's lists are shorter)
MAX_TABLES = 100


class ProfileIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    avatar: int | None = Field(None, description=f"the avatar: 0 to {P.AVATARS - 1} (the "
                                                  "browser's generated avatars), null none")
    line: Annotated[str, StringConstraints(max_length=4096)] = Field(
        "", description=f"the profile line: plain text, at most {P.LINE_MAX} characters")
    country: Annotated[str, StringConstraints(max_length=16)] | None = Field(
        None, description="an ISO 3166-1 alpha-2 code (\"DE\"), null or '' none")


class Identity(BaseModel):
    avatar: int | None
    line: str
    country: str | None
    flag: str = Field(..., description="the country's flag emoji ('' none)")


class ProfileOut(Identity):
    avatars: int = Field(P.AVATARS, description="how many avatars there are to choose from")
    line_max: int = Field(P.LINE_MAX, description="the line's most characters")
    countries: list[str] = Field(..., description="the country codes one may choose")


router = APIRouter(tags=["accounts"])


def _identity(d: dict) -> Identity:
    return Identity(**d, flag=P.flag(d["country"]))


def _profile_out(d: dict) -> ProfileOut:
    return ProfileOut(**_identity(d).model_dump(), countries=list(P.COUNTRIES))


@router.get("/api/me/profile", response_model=ProfileOut)
async def get_profile(request: Request) -> ProfileOut:
    """The account's identity and what it may choose from (401 `not_logged_in`)."""
    s = svc(request)
    account, _ = await s.me(request)
    return _profile_out(await A.read(s.store, P.of_account(account["id"])))


@router.put("/api/me/profile", response_model=ProfileOut)
async def put_profile(req: ProfileIn, request: Request) -> ProfileOut:
    """Set the account's identity: every field at once. 422 `bad_profile` (params `field`,
    `why`: long, markup or unknown) for a line too long or with HTML, an unknown avatar or
    country; nothing is changed then."""
    s = svc(request)
    account, _ = await s.me(request)
    try:
        avatar = P.check_avatar(req.avatar)
        line = P.clean_line(req.line)
        country = P.check_country(req.country)
    except P.BadIdentity as e:
        raise ApiError(422, str(e), "bad_profile", dict(e.params, field=e.field, why=e.why)) \
            from None
    account_id = account["id"]
    return _profile_out(await A.write(s.store, lambda: P.put(account_id, avatar, line, country)))


@router.get("/api/identity/{name}", response_model=Identity)
async def identity_of(request: Request, name: Annotated[str, PathParam(max_length=256)]
                      ) -> Identity:
    """A player's identity by the account's name, as their profile page shows it (a name
    without an account, or an account that chose none: no avatar, line nor country)."""
    return _identity(await A.read(svc(request).store, P.of_name(name)))


@router.get("/api/people", response_model=dict[str, dict[int, Identity]])
async def people(request: Request, tables: Annotated[str, Query(
        max_length=40 * MAX_TABLES, pattern=r"^[A-Za-z0-9,]*$",
        description=f"table codes, comma-separated (at most {MAX_TABLES})")] = ""
                 ) -> dict[str, dict[int, Identity]]:
    """The identities of the accounts seated at the tables: {code: {seat: identity}}; a seat
    without an account, or whose account chose none, is left out (public: as the names)."""
    codes = sorted({c.upper() for c in tables.split(",") if c})
    if len(codes) > MAX_TABLES:
        raise ApiError(422, f"at most {MAX_TABLES} tables", "invalid",
                       {"field": "tables", "most": MAX_TABLES})
    found = await A.read(svc(request).store, P.of_tables(codes))
    return {code: {seat: _identity(d) for seat, d in seats.items()}
            for code, seats in found.items()}
