"""The HTTP routes of passkeys (docs/api.md, "Passkeys"): sign up with a passkey
(a name and a passkey, no password), log in with one (no name: the browser offers the
passkeys it holds for this site), add one to the account, list and remove them, and delete
a password-less account or set its e-mail address by confirming with a passkey.

Every ceremony has two requests: `.../options` makes a challenge (passkeys.py keeps it, a
short-lived HttpOnly cookie binds it to this browser) and answers the options of
navigator.credentials.create or .get; the second request brings the browser's answer, which
takes the challenge (single-use) and is checked by py_webauthn. The Origin of every request
here that may change something is checked (origin.py); sign-up and log-in also without a
cookie. The limits are those of log-in and sign-up with a password (login_limits.py): each
options request of sign-up or log-in is an attempt of the address; a failed log-in with a
known passkey counts against its account's name, as a wrong password does. An unknown
passkey and a wrong signature get the same answer, `bad_passkey`.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardtable.server.people import accounts as A
from cardtable.server.people import passkeys as P
from cardtable.server.people import sessions as S
from cardtable.server.http.account import AccountOut, Accounts, Token, svc
from cardtable.server.http.refusals import BanOut, ban_of, ban_out, refuse_banned
from cardtable.server.errors import ApiError
from cardtable.server.guard.login_limits import limit_keys
from cardtable.server.people.origin import parse_allowed
from cardtable.server.protocol import Name
from cardtable.server.guard.security import client_addr, name_keys

Label = Annotated[str, StringConstraints(max_length=64, strip_whitespace=True)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SignUpOptions(Body):
    name: Name = Field(..., description="the new account's name (the rules of a seat's name)")


class Answer(Body):
    credential: dict[str, Any] = Field(..., description="the browser's PublicKeyCredential "
                                       "as JSON (its toJSON(): id, rawId, type, response "
                                       "with base64url fields)")


class SignUp(Answer):
    label: Label = Field("", description="the player's words for this passkey")
    claim: Annotated[list[Token], Field(max_length=A.MAX_CLAIM)] = Field(
        default_factory=list, description="seat tokens this browser holds (as for sign-up "
                                          "with a password)")


class LogIn(Answer):
    claim: Annotated[list[Token], Field(max_length=A.MAX_CLAIM)] = Field(
        default_factory=list, description="as for sign-up")


class AddKey(Answer):
    label: Label = Field("", description="the player's words for this passkey")


class PasskeyAuthOut(BaseModel):
    account: AccountOut
    claimed: int = Field(..., description="seats that became the account's")
    has_password: bool = Field(..., description="whether the account also has a password")
    ban: BanOut | None = Field(None, description="as for POST /api/session")


class PasskeyOut(BaseModel):
    id: int
    label: str
    credential_id: str = Field(..., description="the credential's public id (base64url)")
    transports: list[str]
    created_at: float
    last_used: float | None


router = APIRouter(tags=["passkeys"])
_ALLOWED: dict[str, frozenset[str]] = {}


def _rp(request: Request) -> tuple[str, list[str]]:
    raw = svc(request).settings.allowed_origins
    if raw not in _ALLOWED:
        _ALLOWED[raw] = parse_allowed(raw)
    return P.relying_party(request.scope, _ALLOWED[raw])


def _cookie_value(request: Request) -> str | None:
    """The ceremony cookie's value (over TLS only under its `__Host-` name, as the session's:
    sessions.cookie_names), or None."""
    for name in S.cookie_names(request, P.SECURE_COOKIE, P.COOKIE):
        v = request.cookies.get(name)
        if v and len(v) <= 128:
            return v
    return None


async def _begin(request: Request, response: Response, purpose: str, **row) -> bytes:
    """A new ceremony of this browser: its challenge, kept in the store and tied to a new
    cookie (any ceremony the browser had begun ends)."""
    s = svc(request)
    value = S.new_value()
    old = _cookie_value(request)
    challenge = P.new_challenge()

    def op():
        if old:
            yield ("DELETE FROM passkey_challenges WHERE id_hash = :h",
                   {"h": P.cookie_hash(old)})
        yield from P.put_challenge(P.cookie_hash(value), challenge, purpose, **row)
    await A.write(s.store, op)
    tls = S.over_tls(request)
    response.set_cookie(P.SECURE_COOKIE if tls else P.COOKIE, value,
                        max_age=int(P.CHALLENGE_SECONDS), path="/", secure=tls,
                        httponly=True, samesite="strict")
    return challenge


async def _take(request: Request, response: Response, purpose: str) -> dict:
    """The ceremony this browser began for `purpose`, taken: 400 `passkey_expired` if there
    is none (never begun, answered already, expired, begun for something else)."""
    s = svc(request)
    value = _cookie_value(request)
    tls = S.over_tls(request)
    response.delete_cookie(P.SECURE_COOKIE if tls else P.COOKIE, path="/", secure=tls,
                           httponly=True, samesite="strict")
    found = await A.write(s.store, lambda: P.take_challenge(P.cookie_hash(value))) \
        if value else None
    if found is None or found["purpose"] != purpose:
        raise ApiError(400, "this passkey request expired or was answered already: try again",
                       "passkey_expired")
    return found


def _limited(s: Accounts, wait: float, error: str = "login_limited") -> None:
    if wait:
        raise s.limited(wait, error)


def _label(label: str, request: Request) -> str:
    """The player's words for a passkey (control and format characters dropped), or where
    it was made ("Passkey (Android)")."""
    label = " ".join("".join(ch for ch in label if unicodedata.category(ch)[0] != "C")
                     .split())[:64]
    if label:
        return label
    agent = request.headers.get("user-agent", "")
    for word in ("Android", "iPhone", "iPad", "Mac OS", "Windows", "Linux", "CrOS"):
        if word in agent:
            return f"Passkey ({word})"
    return "Passkey"


def _out(a: dict) -> AccountOut:
    return AccountOut(name=a["name"], created_at=a["created_at"])


@router.post("/api/passkeys/signup/options")
async def sign_up_options(req: SignUpOptions, request: Request, response: Response) -> dict:
    """Begin a sign-up with a passkey: the options of navigator.credentials.create (a
    discoverable credential with user verification). 409 `account_name_taken` if the name
    (or one that looks like it) has an account; limited as sign-up is (`signup_limited`).
    400 `passkey_no_domain` on a site reached by its IP address."""
    s = svc(request)
    rp_id, _ = _rp(request)
    addr = client_addr(request.scope)
    _limited(s, s.limits.signup_open(addr) or s.limits.attempt(addr), "signup_limited")
    keys = name_keys(req.name)
    if await A.read(s.store, A.by_keys(keys)) is not None:
        raise ApiError(409, f"the name {req.name!r} (or one that looks like it) has an "
                            "account: choose another", "account_name_taken", {"name": req.name})
    handle = P.new_user_handle()
    challenge = await _begin(request, response, "signup", name=req.name, user_handle=handle)
    return P.registration_options(rp_id, req.name, handle, challenge, [])


@router.post("/api/passkeys/signup", response_model=PasskeyAuthOut, status_code=201)
async def sign_up(req: SignUp, request: Request, response: Response) -> PasskeyAuthOut:
    """Make an account with the passkey just created (no password) and log in. 400
    `passkey_expired` without a ceremony begun by this browser; 400 `passkey_refused` for an
    answer that is not valid (another site's origin, another challenge); 409
    `account_name_taken` if the name was taken meanwhile, `passkey_known` if the passkey
    belongs to an account already; 403 `banned` / `suspended` for a banned browser or
    address."""
    s = svc(request)
    await refuse_banned(request, look_up=False)
    rp_id, origins = _rp(request)
    P.check_shape(req.credential, "create")  # bad input leaves the ceremony
    ch = await _take(request, response, "signup")
    new = P.check_registration(req.credential, ch["challenge"], rp_id, origins)
    name = ch["name"]
    try:
        account_id = await A.write(s.store, lambda: P.create_account(
            name, name_keys(name), new, ch["user_handle"], _label(req.label, request)))
    except A.IntegrityError:
        account_id = None
    if account_id == "known":
        raise ApiError(409, "this passkey belongs to an account already", "passkey_known")
    if account_id is None:
        raise ApiError(409, f"the name {name!r} (or one that looks like it) has an account: "
                            "choose another", "account_name_taken", {"name": name})
    s.limits.signed_up(client_addr(request.scope))
    await s.start_session(request, response, account_id)
    claimed = await A.claim(s.store, account_id, req.claim)
    account = await A.read(s.store, A.by_id(account_id))
    return PasskeyAuthOut(account=_out(account), claimed=claimed, has_password=False)


@router.post("/api/passkeys/login/options")
async def log_in_options(request: Request, response: Response) -> dict:
    """Begin a log-in with a passkey: the options of navigator.credentials.get, naming no
    credential (the browser offers the passkeys it holds for this site). An attempt of the
    address (`login_limited`)."""
    s = svc(request)
    rp_id, _ = _rp(request)
    _limited(s, s.limits.attempt(client_addr(request.scope)))
    challenge = await _begin(request, response, "login")
    return P.authentication_options(rp_id, challenge, [])


@router.post("/api/passkeys/login", response_model=PasskeyAuthOut)
async def log_in(req: LogIn, request: Request, response: Response) -> PasskeyAuthOut:
    """Log in with the browser's answer: a new session cookie (any session the request came
    with ends). 401 `bad_passkey` for a passkey this site does not know and for one whose
    answer is not valid alike (a wrong origin, a replayed challenge, a sign count that did
    not grow); 429 `login_limited` after too many failures for the passkey's account."""
    s = svc(request)
    rp_id, origins = _rp(request)
    P.check_shape(req.credential, "get")  # bad input leaves the ceremony
    ch = await _take(request, response, "login")
    cred_id = P.credential_id_of(req.credential)
    key = await A.read(s.store, P.key_by_credential(cred_id)) if cred_id else None
    account = await A.read(s.store, A.by_id(key["account_id"])) if key else None
    counted = limit_keys(name_keys(account["name"]), account["id"]) if account else ()
    if counted:
        _limited(s, s.limits.account_open(counted))
    count = P.check_assertion(req.credential, ch["challenge"], rp_id, origins, key) \
        if account else None
    if count is None or not await A.write(
            s.store, lambda: P.used(key["id"], key["sign_count"], count)):
        if counted:
            s.limits.failed(counted)
        raise ApiError(401, "this passkey was not accepted", "bad_passkey")
    await s.start_session(request, response, account["id"])
    claimed = await A.claim(s.store, account["id"], req.claim)
    return PasskeyAuthOut(account=_out(account), claimed=claimed,
                          has_password=bool(account["password_hash"]),
                          ban=ban_out(await ban_of(request, account["id"])))


@router.get("/api/me/passkeys", response_model=list[PasskeyOut])
async def my_passkeys(request: Request) -> list[PasskeyOut]:
    """The account's passkeys (their public ids, labels, when made and last used)."""
    s = svc(request)
    account, _ = await s.me(request)
    return [PasskeyOut(**P.public(k)) for k in await A.read(s.store, P.keys_of(account["id"]))]


@router.post("/api/me/passkeys/options")
async def add_options(request: Request, response: Response) -> dict:
    """Begin adding a passkey to the logged-in account: the options of
    navigator.credentials.create (the account's passkeys excluded). 409 `passkey_limit` when
    it has `MAX_PASSKEYS` (20)."""
    s = svc(request)
    account, _ = await s.me(request)
    rp_id, _ = _rp(request)
    keys = await A.read(s.store, P.keys_of(account["id"]))
    if len(keys) >= P.MAX_PASSKEYS:
        raise ApiError(409, f"an account has at most {P.MAX_PASSKEYS} passkeys",
                       "passkey_limit", {"most": P.MAX_PASSKEYS})
    handle = keys[0]["user_handle"] if keys else P.new_user_handle()
    challenge = await _begin(request, response, "add", account_id=account["id"],
                             user_handle=handle)
    return P.registration_options(rp_id, account["name"], handle, challenge, keys)


@router.post("/api/me/passkeys", response_model=PasskeyOut, status_code=201)
async def add_passkey(req: AddKey, request: Request, response: Response) -> PasskeyOut:
    """Add the passkey just created to the account. 400 `passkey_expired`,
    `passkey_refused` as at sign-up; 409 `passkey_known` (this or another account has it),
    `passkey_limit`."""
    s = svc(request)
    account, _ = await s.me(request)
    rp_id, origins = _rp(request)
    P.check_shape(req.credential, "create")  # bad input leaves the ceremony
    ch = await _take(request, response, "add")
    if ch["account_id"] != account["id"]:
        raise ApiError(400, "this passkey request expired or was answered already: try again",
                       "passkey_expired")
    new = P.check_registration(req.credential, ch["challenge"], rp_id, origins)
    try:
        got = await A.write(s.store, lambda: P.add_key(account["id"], new, ch["user_handle"],
                                                       _label(req.label, request)))
    except A.IntegrityError:                # PostgreSQL: another process stored it meanwhile
        got = "known"
    if got == "known":
        raise ApiError(409, "this passkey belongs to an account already", "passkey_known")
    if got == "limit":
        raise ApiError(409, f"an account has at most {P.MAX_PASSKEYS} passkeys",
                       "passkey_limit", {"most": P.MAX_PASSKEYS})
    key = await A.read(s.store, P.key_by_credential(new["credential_id"]))
    return PasskeyOut(**P.public(key))


@router.delete("/api/me/passkeys/{key_id}", status_code=204)
async def remove_passkey(request: Request, key_id: Annotated[int, Path(
        ge=1, le=2**31 - 1, description="the passkey's id (GET /api/me/passkeys)")]) -> Response:
    """Remove one of the account's passkeys. 404 `no_passkey` if the account has none with
    this id; 409 `last_login_way` if it is the account's only way to log in (no password,
    no other passkey)."""
    s = svc(request)
    account, _ = await s.me(request)
    got = await A.write(s.store, lambda: P.remove_key(account["id"], key_id))
    if got == "gone":
        raise ApiError(404, "your account has no passkey with this id", "no_passkey")
    if got == "last":
        raise ApiError(409, "this passkey is your account's only way to log in: add another "
                            "one first", "last_login_way")
    return Response(status_code=204)


#: what a logged-in player may confirm with a passkey (`for=`) -> the ceremony's purpose
CONFIRM_PURPOSES = {"delete": "confirm", "email": "email"}


@router.post("/api/me/passkeys/confirm/options")
async def confirm_options(request: Request, response: Response, purpose: Annotated[
        str, Query(alias="for", pattern="^(delete|email)$",
                   description="what the answer confirms: `delete` (DELETE "
                               "/api/me/with-passkey) or `email` (PUT /api/me/email)")
        ] = "delete") -> dict:
    """Begin confirming with one of the account's passkeys (deleting an account without a
    password, or setting its e-mail address): the options of navigator.credentials.get
    naming the account's passkeys. The ceremony is bound to its purpose: its answer
    confirms that one request only, once, within its lifetime (five minutes)."""
    s = svc(request)
    account, _ = await s.me(request)
    rp_id, _ = _rp(request)
    keys = await A.read(s.store, P.keys_of(account["id"]))
    if not keys:
        raise ApiError(404, "your account has no passkey", "no_passkey")
    challenge = await _begin(request, response, CONFIRM_PURPOSES[purpose],
                             account_id=account["id"])
    return P.authentication_options(rp_id, challenge, keys)


async def confirmed(request: Request, response: Response, account: dict,
                    credential: dict[str, Any], purpose: str) -> None:
    """Check the answer of a confirmation ceremony this browser began for `purpose`
    (CONFIRM_PURPOSES' values) by one of `account`'s passkeys; it is taken (single-use)
    whatever the outcome. 400 `passkey_malformed` (nothing taken), `passkey_expired` (none
    begun for this purpose, answered already, expired); 403 `bad_passkey` when the answer is
    not valid or not by one of the account's passkeys (counted as a failed log-in of the
    account, 429 `login_limited` beyond)."""
    s = svc(request)
    rp_id, origins = _rp(request)
    P.check_shape(credential, "get")  # bad input leaves the ceremony
    ch = await _take(request, response, purpose)
    cred_id = P.credential_id_of(credential)
    key = await A.read(s.store, P.key_by_credential(cred_id)) if cred_id else None
    counted = limit_keys(name_keys(account["name"]), account["id"])
    _limited(s, s.limits.account_open(counted))
    ok = key is not None and key["account_id"] == account["id"] == ch["account_id"]
    count = P.check_assertion(credential, ch["challenge"], rp_id, origins, key) \
        if ok else None
    if count is None or not await A.write(
            s.store, lambda: P.used(key["id"], key["sign_count"], count)):
        s.limits.failed(counted)
        raise ApiError(403, "this passkey was not accepted", "bad_passkey")


@router.delete("/api/me/with-passkey", status_code=204)
async def delete_me(req: Answer, request: Request, response: Response) -> Response:
    """Delete the account, confirmed with one of its passkeys (as DELETE /api/me is with the
    password): its sessions and passkeys end, its games stay in the other players' records
    under a neutral name. 403 `bad_passkey` when the answer is not valid or not by one of
    the account's passkeys."""
    s = svc(request)
    account, _ = await s.me(request)
    await confirmed(request, response, account, req.credential, "confirm")
    await A.delete(s.store, account["id"])
    out = Response(status_code=204)
    S.clear_cookie(request, out)
    for k, v in response.headers.items():
        if k == "set-cookie":
            out.headers.append(k, v)
    return out
