"""The HTTP routes of accounts (docs/api.md, "Accounts"): sign up, log in and out,
the current account, its password, its sessions, its deletion, its data and its games.

An account is optional: every game can be played as a guest. What it gives: one's games
from any device ("my games"), a name nobody else can take (lookalikes included). The store
side is accounts.py, the cookie sessions.py, the Origin checks origin.py, the password rules
passwords.py, the limits login_limits.py.

No route tells whether a name has an account, but sign-up (a name that is taken is taken;
the names are public at every table anyway): a log-in with an unknown name, or to an
account without a password (signed up with a passkey), gets the same answer as one with a
wrong password, after the same work (a hash checked against one of a random secret:
passwords.py), and counts against the same limits.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardtable.server.people import accounts as A
from cardtable.server.people import sessions as S
from cardtable.server.guard.connections import mark_useful
from cardtable.server.errors import ApiError
from cardtable.server.guard.login_limits import LoginLimits, limit_keys
from cardtable.server.people.friends import REQUEST_DAYS
from cardtable.server.people.email import data as email_data
from cardtable.server.people.passkeys import keys_of
from cardtable.server.people.passkeys import public as passkey_public
from cardtable.server.people.profiles import of_account as profile_of
from cardtable.server.tables.pace import waiting_seats
from cardtable.server.people.passwords import BadPassword, Passwords, clean_password
from cardtable.server.people.ratings import conservative, established
from cardtable.server.protocol import Name
from cardtable.server.guard.security import client_addr, name_keys
from cardtable.server.http.moderation import WarningOut
from cardtable.server.http.refusals import BanOut, ban_of, ban_out, refuse_banned
from cardtable.server.mod.moderation import account_data, role_of
from cardtable.server.mod.notices import unread_warnings
from cardtable.server.tables.views import seat_names

#: a password as sent (checked by passwords.clean_password, which words what is wrong)
Password = Annotated[str, StringConstraints(max_length=16 * 1024)]
Token = Annotated[str, StringConstraints(max_length=256)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SignUp(Body):
    name: Name = Field(..., description="the account's name (the rules of a seat's name; "
                                        "not like another account's, lookalikes included)")
    password: Password = Field(..., description="10 to 1024 characters (NFKC)")
    claim: Annotated[list[Token], Field(max_length=A.MAX_CLAIM)] = Field(
        default_factory=list, description="seat tokens this browser holds: those seats (a "
                                          "guest's games) become the account's")


class LogIn(Body):
    name: Annotated[str, StringConstraints(max_length=256)]
    password: Password
    claim: Annotated[list[Token], Field(max_length=A.MAX_CLAIM)] = Field(
        default_factory=list, description="as for sign-up")


class Claim(Body):
    claim: Annotated[list[Token], Field(max_length=A.MAX_CLAIM)]


class NewPassword(Body):
    old: Password = Field(..., description="the password now")
    new: Password = Field(..., description="the new password (10 to 1024 characters)")


class Confirm(Body):
    password: Password


class AccountOut(BaseModel):
    name: str
    created_at: float


class AuthOut(BaseModel):
    account: AccountOut
    claimed: int = Field(..., description="seats that became the account's")
    ban: BanOut | None = Field(None, description="the account is banned or suspended: it "
                               "logs in (its data download stays), and every route where "
                               "it would play answers 403 banned / suspended")


class MeOut(AccountOut):
    password_at: float
    session_expires: float
    has_password: bool = Field(True, description="false: an account signed up with a "
                                                 "passkey, which logs in only with passkeys")
    role: str = Field("player", description="player, moderator or admin")
    ban: BanOut | None = Field(None, description="as at log-in")
    warnings: list[WarningOut] = Field([], description="a moderator's unread warnings, "
                                       "oldest first (POST /api/me/warnings/{id}/read)")


class Ended(BaseModel):
    ended: int = Field(..., description="sessions ended")


class Claimed(BaseModel):
    claimed: int


class MyGame(BaseModel):
    code: str
    link: str = Field(..., description="the table (a running game: play on)")
    replay: str | None = Field(None, description="a finished game's replay")
    game: str
    variant: str | None
    status: str = Field(..., description="waiting, playing or over")
    seat: int = Field(..., description="the account's seat")
    names: list[str] = Field(..., description="the seats' names (in English)")
    seats: list[dict] = Field(..., description="the seats: seat, kind, bot, name (null: a "
                                               "free seat, or a deleted account's)")
    turn: int | None = Field(None, description="a running game: the seat to move")
    your_turn: bool = Field(False, description="it is your move: your turn, or a window of "
                                               "simultaneous decisions you have not answered")
    actions: int
    updated_at: float
    pace: str = Field("live", description="live or turn (turn-based)")
    deadline: float | None = Field(None, description="a running game: when the move's time "
                                                     "runs out (epoch seconds; null: no timer)")


class SeatToken(BaseModel):
    code: str
    seat: int
    name: str | None
    game: str
    token: str = Field(..., description="the seat's new token (the old one stops working)")


class Accounts:
    """What the routes share: the settings, the store (through the hub, once started), the
    password hasher and the limits."""

    def __init__(self, settings, hub: Callable[[], Any], limits: LoginLimits,
                 passwords: Passwords | None = None):
        self.settings = settings
        self.hub = hub
        self.limits = limits
        self.passwords = passwords or Passwords()
        self.lifetime = settings.session_days * S.DAY
        #: the seat to move at a running table, by code: (version, actions, seat); a table
        #: whose row has not changed since is not loaded again ("my games" is polled)
        self.turns: OrderedDict[str, tuple[int, int, int | None]] = OrderedDict()

    @property
    def store(self):
        return self.hub().store

    async def current(self, request: Request) -> tuple[dict, dict] | None:
        found = await S.current(request, self.store, self.lifetime)
        if found is not None:
            mark_useful(request.scope)       # an account's connection (connections.py)
        return found

    async def me(self, request: Request) -> tuple[dict, dict]:
        found = await self.current(request)
        if found is None:
            raise ApiError(401, "not logged in", "not_logged_in")
        return found

    async def link_seat(self, request: Request, token: str) -> None:
        """A seat just taken (or a table just created) by a logged-in player is theirs."""
        if S.cookie_value(request) is None:
            return
        found = await self.current(request)
        if found is not None:
            await A.claim(self.store, found[0]["id"], [token])

    async def start_session(self, request: Request, response: Response, account_id: int
                            ) -> None:
        value = S.new_value()
        old = S.cookie_value(request)
        await A.new_session(self.store, account_id, S.id_hash(value), self.lifetime,
                            replaces=S.id_hash(old) if old else None)
        S.set_cookie(request, response, value)

    def limited(self, wait: float, error: str = "login_limited") -> ApiError:
        seconds = int(wait + 0.999)
        return ApiError(429, f"too many attempts: try again in {seconds} seconds", error,
                        {"seconds": seconds}, {"Retry-After": str(seconds)})

    async def check_password(self, request: Request, account: dict | None,
                             keys: tuple[str, str], password: str) -> bool:
        """Whether `password` is the account's (None: an unknown name; an account without a
        password never matches), within the limits per address and per name (429 beyond
        them); a failure counts against the name as typed (its lookalike `keys`) and the
        account (login_limits.limit_keys)."""
        counted = limit_keys(keys, account["id"] if account else None)
        wait = self.limits.attempt(client_addr(request.scope)) or \
            self.limits.account_open(counted)
        if wait:
            raise self.limited(wait)
        pw = unicodedata.normalize("NFKC", password)
        ok = await self.passwords.verify(account["password_hash"] if account else None, pw)
        if not ok:
            self.limits.failed(counted)
        elif self.passwords.needs_rehash(account["password_hash"]):
            await A.rehash(self.store, account["id"], await self.passwords.hash(pw))
        return ok


def checked_password(raw: str, field: str = "password") -> str:
    try:
        return clean_password(raw)
    except BadPassword as e:
        raise ApiError(422, str(e), "bad_password", dict(e.params, why=e.why, field=field)) \
            from None


def _account_out(a: dict) -> AccountOut:
    return AccountOut(name=a["name"], created_at=a["created_at"])


router = APIRouter(tags=["accounts"])


def svc(request: Request) -> Accounts:
    return request.app.state.accounts


@router.post("/api/accounts", response_model=AuthOut, status_code=201)
async def sign_up(req: SignUp, request: Request, response: Response) -> AuthOut:
    """Make an account and log in (a session cookie). `claim`: the seat tokens this browser
    holds; those seats (a guest's games) become the account's. 409 `account_name_taken` if
    the name, or one that looks like it, has an account; 422 `bad_password` (at least 10,
    at most 1024 characters). Limited per address (docs/deploy.md, "Accounts")."""
    s = svc(request)
    addr = client_addr(request.scope)
    wait = s.limits.signup_open(addr) or s.limits.attempt(addr)
    if wait:
        raise s.limited(wait, "signup_limited")
    await refuse_banned(request, look_up=False)        # a banned browser or address
    password = checked_password(req.password)
    keys = name_keys(req.name)
    pw_hash = await s.passwords.hash(password)          # before the name is looked up
    account_id = await A.create(s.store, req.name, keys, pw_hash)
    if account_id is None:
        raise ApiError(409, f"the name {req.name!r} (or one that looks like it) has an "
                            "account: choose another", "account_name_taken", {"name": req.name})
    s.limits.signed_up(addr)
    await s.start_session(request, response, account_id)
    claimed = await A.claim(s.store, account_id, req.claim)
    account = await A.read(s.store, A.by_id(account_id))
    return AuthOut(account=_account_out(account), claimed=claimed)


@router.post("/api/session", response_model=AuthOut)
async def log_in(req: LogIn, request: Request, response: Response) -> AuthOut:
    """Log in: a new session cookie (any session the request came with ends). 401
    `bad_login` for an unknown name and a wrong password alike; 429 `login_limited` after
    too many attempts from the address or failures for the name. `claim` as for sign-up."""
    s = svc(request)
    try:
        keys = name_keys(" ".join(req.name.split()))
    except Exception:                               # noqa: BLE001 -- no name has these keys
        keys = ("", "")
    account = await A.read(s.store, A.by_keys(keys)) if keys[0] else None
    if not await s.check_password(request, account, keys, req.password) or account is None:
        raise ApiError(401, "wrong name or password", "bad_login")
    await s.start_session(request, response, account["id"])
    claimed = await A.claim(s.store, account["id"], req.claim)
    banned = await ban_of(request, account["id"])
    return AuthOut(account=_account_out(account), claimed=claimed,
                   ban=ban_out(banned))


@router.delete("/api/session", status_code=204)
async def log_out(request: Request) -> Response:
    """Log out: this session ends and its cookie is cleared (also when there was none)."""
    s = svc(request)
    value = S.cookie_value(request)
    if value:
        await A.end_session(s.store, S.id_hash(value))
    response = Response(status_code=204)
    S.clear_cookie(request, response)
    return response


@router.get("/api/me", response_model=MeOut)
async def get_me(request: Request) -> MeOut:
    """The logged-in account (401 `not_logged_in` without a session)."""
    s = svc(request)
    account, sess = await s.me(request)
    banned = await ban_of(request, account["id"])
    return MeOut(name=account["name"], created_at=account["created_at"],
                 password_at=account["password_at"], session_expires=sess["expires"],
                 has_password=bool(account["password_hash"]),
                 role=await A.read(s.store, role_of(account["id"])) or "player",
                 ban=ban_out(banned),
                 warnings=[WarningOut(**w) for w in
                           await A.read(s.store, unread_warnings(account["id"]))])


@router.post("/api/me/password", response_model=Ended)
async def change_password(req: NewPassword, request: Request, response: Response) -> Ended:
    """A new password; needs the old one (403 `wrong_password`). Every other session of the
    account ends; this one gets a new cookie."""
    s = svc(request)
    account, sess = await s.me(request)
    if not await s.check_password(request, account, name_keys(account["name"]), req.old):
        raise ApiError(403, "the password is wrong", "wrong_password")
    new = checked_password(req.new, "new")
    ended = await A.set_password(s.store, account["id"], await s.passwords.hash(new), None)
    await s.start_session(request, response, account["id"])
    return Ended(ended=max(0, ended - 1))


@router.delete("/api/me/sessions", response_model=Ended)
async def log_out_everywhere(request: Request, response: Response) -> Ended:
    """Log out everywhere: every session of the account ends, this one too."""
    s = svc(request)
    account, _ = await s.me(request)
    ended = await A.end_sessions(s.store, account["id"])
    S.clear_cookie(request, response)
    return Ended(ended=ended)


@router.post("/api/me/seats", response_model=Claimed)
async def claim_seats(req: Claim, request: Request) -> Claimed:
    """The seats of these tokens (held by this browser) become the account's; a seat of
    another account stays its own. A token never logs anybody in."""
    s = svc(request)
    account, _ = await s.me(request)
    return Claimed(claimed=await A.claim(s.store, account["id"], req.claim))


@router.delete("/api/me", status_code=204)
async def delete_me(req: Confirm, request: Request) -> Response:
    """Delete the account (needs its password: 403 `wrong_password`): its sessions end, its
    name is free again; its games stay in the other players' records, its seats named as a
    free seat is ("Seat 3")."""
    s = svc(request)
    account, _ = await s.me(request)
    if not await s.check_password(request, account, name_keys(account["name"]),
                                  req.password):
        raise ApiError(403, "the password is wrong", "wrong_password")
    await A.delete(s.store, account["id"])
    response = Response(status_code=204)
    S.clear_cookie(request, response)
    return response


#: running tables whose turn "my games" tells (a table not held in memory is loaded for it)
MAX_TURNS = 20


async def _turns(s: Accounts, games: list[dict]) -> dict[str, int | None]:
    """The seat to move at each running table (the latest `MAX_TURNS`), remembered while
    the table's row does not change."""
    out: dict[str, int | None] = {}
    hub = s.hub()
    for g in [g for g in games if g["status"] == "playing"][:MAX_TURNS]:
        key = (g["version"], g["n_actions"])
        known = s.turns.get(g["code"])
        if known is not None and known[:2] == key:
            out[g["code"]] = known[2]
            continue
        rt = await hub.runtime_by_code(g["code"])
        if rt is None:
            continue
        try:
            await rt.refresh()
            turn = None if rt.state.over else rt.state.to_move
            out[g["code"]] = turn
            s.turns[g["code"]] = (rt.version, rt.n, turn)
            if len(s.turns) > 10_000:
                s.turns.popitem(last=False)
        finally:
            hub.release(rt)
    return out


@router.get("/api/me/games", response_model=list[MyGame])
async def my_games(request: Request,
                   limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[MyGame]:
    """My games: the tables where the account holds a seat, those where it is your move first
    (`your_turn`), then the latest: running ones with the seat to move (`turn`) and the
    move's `deadline`, finished ones with their replay."""
    s = svc(request)
    account, _ = await s.me(request)
    games = await A.read(s.store, A.games(account["id"], limit))
    turns = await _turns(s, games)
    out = []
    for g in games:
        turn = turns.get(g["code"])
        out.append(MyGame(
            code=g["code"], link=f"/t/{g['code']}",
            replay=f"/replay/{g['code']}" if g["status"] == "over" else None,
            game=g["game"], variant=g["settings"].get("variant"), status=g["status"],
            seat=g["seat"], names=seat_names(g["seats"], "en"), turn=turn,
            seats=[{k: x[k] for k in ("seat", "kind", "bot", "name")} for x in g["seats"]],
            # a turn-based table: its windows too (waiting_for); live: the seat to move
            your_turn=g["status"] == "playing" and (
                g["seat"] in waiting_seats(g["waiting_for"])
                if g["settings"].get("pace") == "turn"
                else turn is not None and turn == g["seat"]),
            actions=g["n_actions"], updated_at=g["updated_at"],
            pace="turn" if g["settings"].get("pace") == "turn" else "live",
            deadline=g["deadline"] if g["status"] == "playing" else None))
    return out


@router.post("/api/me/games/{code}/seat", response_model=SeatToken)
async def my_seat_here(request: Request, code: Annotated[str, Path(
        pattern=r"^[A-Za-z0-9]{1,32}$", description="the table code")]) -> SeatToken:
    """Play on from this device: a new token for the account's seat at an unfinished table
    (from "my games" on a device that does not hold the seat's token). The seat's old token
    stops working, so a seat is played from one device at a time (the other one gets it
    back the same way). 404 `not_your_seat` if the account holds no seat there; 409
    `seat_left` if the player left the game (or a turn-based table dropped them): a bot plays
    the seat to the end, and nobody gets it back (anybody may watch)."""
    s = svc(request)
    account, _ = await s.me(request)
    token = secrets.token_urlsafe(32)
    found = await A.new_seat_token(s.store, account["id"], code.upper(), token)
    if found is None:
        raise ApiError(404, "your account holds no seat at a running table with this code",
                       "not_your_seat")
    if found == A.LEFT:
        raise ApiError(409, "you left this game: a bot plays your seat to its end "
                            "(you may watch)", "seat_left")
    seat, name, game = found
    return SeatToken(code=code.upper(), seat=seat, name=name, game=game, token=token)


@router.get("/api/me/data")
async def my_data(request: Request) -> JSONResponse:
    """Everything the server keeps about the account, as JSON (a download; docs/api.md lists
    the fields): the profile, its sessions (when made, last used, until when), its games (a
    finished game with its record, NOTATION.md, a running one without: its seed would reveal
    the hidden cards; the seat as stored), the lines of table talk the player wrote at those
    seats (theirs only), the ratings with their history, the friends, friend requests and
    invitations both ways, when last seen online, the Web Push subscriptions, the
    passkeys and the e-mail address. Nothing of another person that is private: no tokens or key material, no
    other player's lines, no hint that a sent friend request was declined."""
    s = svc(request)
    account, _ = await s.me(request)
    me = account["id"]
    sessions = await A.read(s.store, A.sessions_of(me))
    games = await A.read(s.store, A.games(me))
    seats = await A.read(s.store, A.seat_details(me))
    out_games = []
    for g in games:
        item = {"code": g["code"], "game": g["game"], "variant": g["settings"].get("variant"),
                "status": g["status"], "seat": g["seat"],
                "names": seat_names(g["seats"], "en"), "actions": g["n_actions"],
                "created_at": g["created_at"], "updated_at": g["updated_at"],
                **seats.get(g["code"], {})}
        if g["status"] == "over":
            base = await A.read(s.store, A.base_of(g["table_id"]))
            item["record"] = dict(base or {}, actions=await A.read(
                s.store, A.actions_of(g["table_id"])))
        out_games.append(item)
    ratings = await A.read(s.store, A.ratings_data(me))
    for r in ratings:
        r["rating"] = conservative(r["mu"], r["sigma"])
        r["provisional"] = not established(r["games"], r["opponents"])
    data = {"format": "cardtable account data", "version": 2, "exported_at": time.time(),
            "profile": {"name": account["name"], "created_at": account["created_at"],
                        "password_changed_at": account["password_at"]},
            "sessions": sessions, "games": out_games,
            "chat": await A.read(s.store, A.chat_lines(me)),
            "ratings": ratings,
            **await A.read(s.store, A.friends_data(me, name_keys(account["name"]),
                                                   REQUEST_DAYS)),
            # passkeys (passkeys.py): their public ids, labels and dates, no key material
            "passkeys": [passkey_public(k) for k in await A.read(s.store, keys_of(me))],
            # the e-mail address and recovery codes left (people/email.py; no tokens, no codes)
            "email": await A.read(s.store, email_data(me)),
            # avatar, profile line, country (people/profiles.py)
            "identity": await A.read(s.store, profile_of(me)),
            # role, bans, blocks, reports filed (mod/moderation.py)
            "moderation": await A.read(s.store, account_data(me))}
    return JSONResponse(data, headers={
        "Content-Disposition": 'attachment; filename="cardtable-account.json"',
        "Cache-Control": "no-store"})
