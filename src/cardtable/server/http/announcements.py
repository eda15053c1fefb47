"""The announcement banner over HTTP (docs/api.md, "Moderation"): the banner shown now, and
the admins' routes that post and end it (mod/notices.py keeps it; each action goes into the
audit log and is counted in cardtable_mod_actions_total{kind})."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from cardtable.server.errors import ApiError
from cardtable.server.http.moderation import Body, counted, mod_error, staff
from cardtable.server.http.refusals import accounts_store as _store
from cardtable.server.mod import moderation as M
from cardtable.server.mod import notices as N
from cardtable.server.people import accounts as A

router = APIRouter(tags=["moderation"])


class AnnounceIn(Body):
    en: str = Field(..., min_length=1, max_length=N.ANNOUNCE_MAX, description="English words")
    de: str = Field(..., min_length=1, max_length=N.ANNOUNCE_MAX, description="German words")
    until: str | None = Field(None, max_length=40, description="when it ends: 30m, 12h, 3d, "
                              "2w or an ISO 8601 time; none: until ended")


class Announcement(BaseModel):
    id: int
    en: str
    de: str
    until: float | None



@router.get("/api/announcement")
async def announcement(request: Request) -> dict:
    """The banner shown now (everybody): {"announcement": {"id", "en", "de", "until"} or
    null}."""
    return {"announcement": await A.read(_store(request), N.current_announcement())}


@router.post("/api/mod/announcement", response_model=Announcement, status_code=201)
async def post_announcement(req: AnnounceIn, request: Request) -> Announcement:
    """Post the banner in both languages, in place of the one before (admins; 403
    `not_admin`); 422 `bad_until`, `bad_announcement`."""
    me = await staff(request, admin=True)
    try:
        until = M.parse_until(req.until) if req.until else None
        out = await A.write(_store(request), lambda: N.announce(me["name"], req.en, req.de,
                                                                until))
    except M.ModError as e:
        raise mod_error(e) from None
    counted(request, "announce")
    return Announcement(**out)


@router.delete("/api/mod/announcement", status_code=204)
async def end_announcement(request: Request) -> Response:
    """End the banner (admins); 404 `no_announcement` if none is shown."""
    me = await staff(request, admin=True)
    if not await A.write(_store(request), lambda: N.end_announcement(me["name"])):
        raise ApiError(404, "no announcement is shown", "no_announcement")
    counted(request, "end_announcement")
    return Response(status_code=204)
