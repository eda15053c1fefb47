"""The Web Push API (push.py does the work; docs/api.md, "Web Push"):

    GET    /api/push/key              the server's VAPID public key (applicationServerKey)
    POST   /api/push/subscriptions    a seat opts in: {table, token, subscription, lang}
    DELETE /api/push/subscriptions    a seat opts out: {table, token, endpoint}
    GET    /api/push/stats            this process's alerts: queued, done, sent, gone, ...
    GET    /sw.js                     the service worker (the whole origin is its scope)
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from cardtable.server.errors import bad
from cardtable.server.talk.push import ENDPOINT_MAX, BadSubscription, Pusher

router = APIRouter()
SW = Path(__file__).resolve().parents[2] / "web" / "static" / "sw.js"      # cardtable/web/static


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    p256dh: str = Field(..., max_length=128, description="the browser's P-256 key, base64url")
    auth: str = Field(..., max_length=64, description="the 16-byte auth secret, base64url")


class PushSubscription(BaseModel):
    """A browser's PushSubscription as `toJSON()` gives it."""
    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(..., max_length=ENDPOINT_MAX)
    keys: PushKeys


class Subscribe(BaseModel):
    table: str = Field(..., pattern=r"^[A-Za-z0-9]{1,32}$", description="the table code")
    token: str = Field(..., min_length=1, max_length=128, description="the seat's token")
    subscription: PushSubscription
    lang: Literal["en", "de"] = Field("en", description="the language of the alerts")


class Unsubscribe(BaseModel):
    table: str = Field(..., pattern=r"^[A-Za-z0-9]{1,32}$")
    token: str = Field(..., min_length=1, max_length=128)
    endpoint: str = Field(..., max_length=ENDPOINT_MAX)


class KeyOut(BaseModel):
    key: str = Field(..., description="the VAPID public key: an uncompressed P-256 point, "
                                      "base64url (PushManager.subscribe's applicationServerKey)")


class SubscribedOut(BaseModel):
    table: str
    seat: int


class UnsubscribedOut(BaseModel):
    removed: int


def pusher(request: Request) -> Pusher:
    return request.app.state.pusher


async def _seat(request: Request, code: str, token: str) -> tuple[int, int]:
    """(table id, seat) of the token's seat at table `code`; 404 or 403 otherwise."""
    store = pusher(request).store
    row = await store.table_by_code(code.upper())
    if row is None:
        raise bad("no such table", 404, "no_table")
    seat = await store.seat_by_token(row["id"], token)
    if seat is None:
        raise bad("this token holds no seat at this table", 403, "bad_token")
    return row["id"], seat


@router.get("/api/push/key", response_model=KeyOut, tags=["push"])
async def push_key(request: Request) -> KeyOut:
    """The server's VAPID public key (made at its first start, kept in the database)."""
    return KeyOut(key=pusher(request).public_key)


@router.post("/api/push/subscriptions", response_model=SubscribedOut, status_code=201,
             tags=["push"])
async def subscribe(req: Subscribe, request: Request) -> SubscribedOut:
    """Alerts for a seat while its page is closed ("your move at table X"). The seat's token
    proves the seat; the endpoint must be https on a public host; a seat keeps at most a few
    subscriptions (409 beyond). The same endpoint again replaces its keys."""
    table_id, seat = await _seat(request, req.table, req.token)
    s = req.subscription
    try:
        added = await pusher(request).subscribe(table_id, seat, s.endpoint, s.keys.p256dh,
                                                s.keys.auth, req.lang)
    except BadSubscription as e:
        raise bad(str(e), 422, e.error) from None
    if not added:
        most = pusher(request).settings.push_per_seat
        raise bad(f"this seat has {most} push subscriptions already (the most): turn alerts "
                  "off on another device first", 409, "push_full", most=most)
    return SubscribedOut(table=req.table.upper(), seat=seat)


@router.delete("/api/push/subscriptions", response_model=UnsubscribedOut, tags=["push"])
async def unsubscribe(req: Unsubscribe, request: Request) -> UnsubscribedOut:
    """Opt out: the seat's subscription with this endpoint is deleted."""
    table_id, seat = await _seat(request, req.table, req.token)
    return UnsubscribedOut(removed=await pusher(request).unsubscribe(table_id, seat,
                                                                     req.endpoint))


@router.get("/api/push/stats", tags=["push"])
async def push_stats(request: Request) -> dict:
    """This process's alerts since its start: `jobs` queued, `done` handled, `sent`
    accepted by a push service, `gone` (404/410: subscription deleted), `failed`,
    `dropped` (the queue was full), `waiting` in the queue."""
    p = pusher(request)
    return dict(p.stats, waiting=p.queue.qsize())


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker, from the root so that its scope is the whole site."""
    return FileResponse(SW, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
