"""The HTTP routes of friends (docs/api.md, "Friends"); friends.py does the work.

    GET    /api/friends                          friends (online or not), requests, invitations
    POST   /api/friends/requests                 ask for a name: {"name"}
    POST   /api/friends/requests/{id}/accept     accept a request to me
    POST   /api/friends/requests/{id}/decline    decline it (the requester is not told)
    DELETE /api/friends/requests/{id}            take back my request
    DELETE /api/friends/people/{name}            end a friendship
    POST   /api/friends/invites                  invite a friend to my table: {"table", "to"}
    POST   /api/friends/invites/{id}/accept      the table's link (the invitation goes)
    DELETE /api/friends/invites/{id}             dismiss an invitation
    POST   /api/friends/push                     invitations as browser notifications (Web Push)
    DELETE /api/friends/push                     no more of them on this browser

Every route needs a logged-in account (401 `not_logged_in`); the state-changing ones pass
the Origin checks of origin.py like every request with the session cookie. `install(app)`
adds the routes and `PresenceMiddleware` (open WebSockets of logged-in accounts).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Annotated, Literal

from fastapi import APIRouter, FastAPI, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from cardtable import i18n
from cardtable.server.people import accounts as A
from cardtable.server.people import friends as F
from cardtable.server.people import sessions as S
from cardtable.server.http.refusals import refuse_banned
from cardtable.server.errors import ApiError
from cardtable.server.protocol import Name
from cardtable.server.talk.push import BadSubscription, check_endpoint, check_keys
from cardtable.server.http.push import PushSubscription
from cardtable.server.guard.security import name_keys

log = logging.getLogger("cardtable.server")

Id = Annotated[int, Path(ge=1, le=2**53)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Ask(Body):
    name: Name = Field(..., description="the name asked for (the rules of a seat's name)")


class Invite(Body):
    table: str = Field(..., pattern=r"^[A-Za-z0-9]{1,32}$", description="the table code")
    to: Name = Field(..., description="the friend's name")


class PushOn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subscription: PushSubscription
    lang: Literal["en", "de"] = "en"


class PushOff(Body):
    endpoint: str = Field(..., max_length=1024)


class FriendOut(BaseModel):
    name: str
    online: bool = Field(..., description="seen in the last minute (docs/api.md, Friends)")
    since: float


class RequestOut(BaseModel):
    id: int
    name: str = Field(..., description="incoming: the requester; sent: the name as asked")
    created_at: float


class InviteOut(BaseModel):
    id: int
    from_: str = Field(..., alias="from", description="the friend who invites")
    code: str
    game: str
    link: str = Field(..., description="the table's page: take the free seat there")
    created_at: float
    rated: bool = Field(False, description="the table is rated: its seats need accounts")
    model_config = ConfigDict(populate_by_name=True)


class Overview(BaseModel):
    friends: list[FriendOut]
    incoming: list[RequestOut]
    sent: list[RequestOut]
    invites: list[InviteOut]


class Asked(BaseModel):
    status: Literal["sent", "friends"] = Field(
        ..., description="sent: the request is out (also for a name that has no account or "
                         "does not accept: the answer never tells); friends: you are friends")
    name: str = Field(..., description="sent: the name as asked; friends: the friend's name")
    request: RequestOut | None = None


class Invited(BaseModel):
    id: int
    to: str
    table: str
    new: bool = Field(..., description="false: this friend was invited to this table already "
                                       "(no second notification)")


class InviteTaken(BaseModel):
    code: str
    link: str


class Friends:
    """What the routes share: the accounts service (sessions, the store), the limits, who is
    online, and the pusher (for invitations)."""

    def __init__(self, app: FastAPI, limits: F.FriendLimits | None = None):
        self.app = app
        self.limits = limits or F.FriendLimits()
        self.presence = F.Presence(lambda: self.store)
        self._sending: set[asyncio.Task] = set()

    @property
    def accounts(self):
        return self.app.state.accounts

    @property
    def store(self):
        return self.accounts.store

    async def me(self, request: Request) -> tuple[int, str, tuple[str, str]]:
        account, _ = await self.accounts.me(request)
        return account["id"], account["name"], name_keys(account["name"])

    def limited(self, buckets, key: int, error: str) -> None:
        wait = buckets.take(str(key))
        if wait:
            seconds = int(wait + 0.999)
            raise ApiError(429, f"too many requests: try again in {seconds} seconds", error,
                           {"seconds": seconds}, {"Retry-After": str(seconds)})

    # -- invitations as notifications ------------------------------------------------------------
    def push_invite(self, to_id: int, sender: str, game: str, code: str) -> None:
        task = asyncio.create_task(self._push_invite(to_id, sender, game, code))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _push_invite(self, to_id: int, sender: str, game: str, code: str) -> None:
        pusher = getattr(self.app.state, "pusher", None)
        if pusher is None:
            return
        try:
            for sub in await A.read(self.store, F.push_subs(to_id)):
                status = await pusher.send(sub, invite_message(sub["lang"], sender, game, code))
                if status is None or status in (404, 410):
                    await A.write(self.store, lambda i=sub["id"]: F.push_drop(i))
        except Exception:                       # noqa: BLE001 -- a notification is a bonus
            log.exception("push: an invitation was not sent")


def invite_message(lang: str, sender: str, game: str, code: str) -> bytes:
    """An invitation as a notification: who, which game, the table's link; nothing else."""
    lang = lang if lang in i18n.LANGS else "en"
    return json.dumps({"title": i18n.t(lang, "friends.push_title"),
                       "body": i18n.t(lang, "friends.push_body", name=sender,
                                      game=i18n.t(lang, f"game.{game}"), code=code),
                       "url": f"/t/{code}", "table": code, "tag": f"cardtable-invite-{code}"},
                      ensure_ascii=False).encode("utf-8")


router = APIRouter(tags=["friends"])


def svc(request: Request) -> Friends:
    return request.app.state.friends


@router.get("/api/friends", response_model=Overview, response_model_by_alias=True)
async def overview(request: Request) -> Overview:
    """My friends, each `online` or not (only friends see it), the requests to me and mine
    (declined ones look like unanswered ones), and the invitations to tables that still wait
    for players. Polled by the lobby: it also counts as being online."""
    s = svc(request)
    me, _, keys = await s.me(request)
    await s.presence.seen(me)
    out = await A.read(s.store, F.overview(me, keys, s.presence.online_seconds))
    return Overview(**out)


@router.post("/api/friends/requests", response_model=Asked, status_code=202)
async def ask(req: Ask, request: Request) -> Asked:
    """Ask for a friend by name. The answer is the same (`status` sent) for a name without
    an account, for one that declined before and for one that has not answered: no route
    tells which names exist. If that account had asked you, you are friends at once
    (`status` friends). 422 `friend_self`; 429 `friend_limited` (per account); 409
    `friend_requests_full` (50 unanswered requests out)."""
    s = svc(request)
    me, my_name, my_keys = await s.me(request)
    keys = name_keys(req.name)
    if keys[0] == my_keys[0] or keys[1] == my_keys[1]:
        raise ApiError(422, "that is your own name", "friend_self")
    await refuse_banned(request, me)
    s.limited(s.limits.requests, me, "friend_limited")
    status, found = await A.write(s.store, lambda: F.request(me, my_keys, req.name, keys))
    if status == "full":
        raise ApiError(409, f"you have {F.MAX_SENT} requests out already: take some back",
                       "friend_requests_full", {"most": F.MAX_SENT})
    if status == "friends":
        return Asked(status="friends", name=found)
    return Asked(status="sent", name=found["name"], request=RequestOut(**found))


async def _answer(s: Friends, me: int, keys: tuple[str, str], request_id: int,
                  accept: bool) -> str:
    name = await A.write(s.store, lambda: F.answer(me, keys, request_id, accept))
    if name is None:
        raise ApiError(404, "no such request to you", "no_request")
    return name


@router.post("/api/friends/requests/{request_id}/accept", response_model=FriendOut)
async def accept(request_id: Id, request: Request) -> FriendOut:
    """Accept a request to me: we are friends (404 `no_request` if there is none)."""
    s = svc(request)
    me, _, keys = await s.me(request)
    name = await _answer(s, me, keys, request_id, True)
    out = await A.read(s.store, F.overview(me, keys, s.presence.online_seconds))
    return next(FriendOut(**f) for f in out["friends"] if f["name"] == name)


@router.post("/api/friends/requests/{request_id}/decline", status_code=204)
async def decline(request_id: Id, request: Request) -> Response:
    """Decline a request to me. The requester is not told (their request looks unanswered)
    and cannot ask again."""
    s = svc(request)
    me, _, keys = await s.me(request)
    await _answer(s, me, keys, request_id, False)
    return Response(status_code=204)


@router.delete("/api/friends/requests/{request_id}", status_code=204)
async def withdraw(request_id: Id, request: Request) -> Response:
    """Take back a request of mine (404 `no_request` if I have none of that id)."""
    s = svc(request)
    me, _, _ = await s.me(request)
    if not await A.write(s.store, lambda: F.withdraw(me, request_id)):
        raise ApiError(404, "no such request of yours", "no_request")
    return Response(status_code=204)


@router.delete("/api/friends/people/{name}", status_code=204)
async def unfriend(name: Annotated[str, Path(max_length=128)], request: Request) -> Response:
    """End a friendship, on both sides (their invitations to each other go too); 404
    `not_friend` if I have no friend of that name."""
    s = svc(request)
    me, _, _ = await s.me(request)
    try:
        keys = name_keys(" ".join(name.split()))
    except Exception:                               # noqa: BLE001 -- no friend has these keys
        keys = ("", "")
    if not keys[0] or not await A.write(s.store, lambda: F.remove(me, keys)):
        raise ApiError(404, "you have no friend of that name", "not_friend")
    return Response(status_code=204)


@router.post("/api/friends/invites", response_model=Invited, status_code=201)
async def invite(req: Invite, request: Request) -> Invited:
    """Invite a friend (online or not) to a table where my account holds a seat, before
    its game starts, while a seat is free. The friend sees it in the lobby, and as a browser
    notification if they turned those on (POST /api/friends/push). It lapses when the table
    starts or closes. 403 `not_seated_here`, 404 `no_table` / `not_friend`, 409
    `no_free_seat` / `friend_seated`, 429 `invite_limited`."""
    s = svc(request)
    me, my_name, _ = await s.me(request)
    await refuse_banned(request, me)
    s.limited(s.limits.invites, me, "invite_limited")
    keys = name_keys(req.to)
    try:
        invite_id, friend, name, game, new = await A.write(
            s.store, lambda: F.invite(me, req.table.upper(), keys))
    except F.InviteRefused as e:
        raise ApiError(e.status, str(e), e.error) from None
    if new:
        s.push_invite(friend, my_name, game, req.table.upper())
    return Invited(id=invite_id, to=name, table=req.table.upper(), new=new)


@router.post("/api/friends/invites/{invite_id}/accept", response_model=InviteTaken)
async def take_invite(invite_id: Id, request: Request) -> InviteTaken:
    """Accept an invitation: its table's link (take the free seat there); the invitation
    goes. 410 `invite_gone` if the table filled up, started or closed meanwhile (or there
    is no such invitation)."""
    s = svc(request)
    me, _, _ = await s.me(request)
    code = await A.write(s.store, lambda: F.take_invite(me, invite_id, True))
    if code is None:
        raise ApiError(410, "this invitation has lapsed (its table started or filled up)",
                       "invite_gone")
    return InviteTaken(code=code, link=f"/t/{code}")


@router.delete("/api/friends/invites/{invite_id}", status_code=204)
async def dismiss_invite(invite_id: Id, request: Request) -> Response:
    """Dismiss an invitation (404 `no_invite` if there is none of that id for me)."""
    s = svc(request)
    me, _, _ = await s.me(request)
    if not await A.write(s.store, lambda: F.take_invite(me, invite_id, False)):
        raise ApiError(404, "no such invitation for you", "no_invite")
    return Response(status_code=204)


@router.post("/api/friends/push", status_code=201)
async def push_on(req: PushOn, request: Request) -> dict:
    """Invitations as browser notifications on this browser (its PushSubscription, as for
    a seat's "your move"; the same endpoint checks). At most 4 per account (409
    `push_full`)."""
    s = svc(request)
    me, _, _ = await s.me(request)
    sub = req.subscription
    try:
        check_endpoint(sub.endpoint, request.app.state.pusher.allow_local)
        check_keys(sub.keys.p256dh, sub.keys.auth)
    except BadSubscription as e:
        raise ApiError(422, str(e), e.error) from None
    if not await A.write(s.store, lambda: F.push_subscribe(me, sub.endpoint, sub.keys.p256dh,
                                                          sub.keys.auth, req.lang)):
        raise ApiError(409, f"{F.PUSH_PER_ACCOUNT} browsers get invitations already (the "
                            "most): turn them off on another first", "push_full",
                       {"most": F.PUSH_PER_ACCOUNT})
    return {"subscribed": True}


@router.delete("/api/friends/push")
async def push_off(req: PushOff, request: Request) -> dict:
    """No more invitations as notifications on the browser of this endpoint."""
    s = svc(request)
    me, _, _ = await s.me(request)
    return {"removed": await A.write(s.store, lambda: F.push_unsubscribe(me, req.endpoint))}


class PresenceMiddleware:
    """Counts the open WebSockets of logged-in accounts (a handshake with the session
    cookie that was accepted: the Origin checks refuse foreign ones before that) as their
    presence (friends.Presence), until they close."""

    def __init__(self, app, friends: Friends):
        self.app = app
        self.friends = friends

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or not S.has_session_cookie(scope.get("headers", [])):
            return await self.app(scope, receive, send)
        counted: list[int] = []
        presence = self.friends.presence

        async def sending(message):
            await send(message)
            if message["type"] == "websocket.accept" and not counted:
                try:
                    found = await S.current(HTTPConnection(scope), self.friends.store,
                                            self.friends.accounts.lifetime)
                except Exception:               # noqa: BLE001 -- presence is not worth a 500
                    log.exception("presence: the session was not read")
                    found = None
                if found is not None:
                    counted.append(found[0]["id"])
                    await presence.opened(found[0]["id"])
        try:
            return await self.app(scope, receive, sending)
        finally:
            for account_id in counted:
                presence.closed(account_id)


def install(app: FastAPI, limits: F.FriendLimits | None = None) -> Friends:
    """The routes, and the presence of open WebSockets (outside the other middleware)."""
    friends = app.state.friends = Friends(app, limits)
    app.include_router(router)
    app.add_middleware(PresenceMiddleware, friends=friends)
    return friends
