"""The HTTP routes of e-mail (docs/api.md, "E-mail and password reset"): an account's
optional address verified by a link, password reset by e-mail, and recovery codes for
accounts that log in with passkeys only. The store side is people/email.py, the sending
mail/smtp.py, the limits below.

No route tells whether a name or an address has an account: a reset request is answered
the same (202) whatever it names, before the database is asked; the look-up, the link and
the message are made afterwards, in the background (`Mail.reset_later`), so neither the
answer nor its time depends on them. Limits: requests that send mail per address group
(429 `mail_limited`, whatever they name) and messages per account (beyond them a request is
answered alike and nothing is sent).

Without SMTP configured (mail/smtp.py `configured`) the site works as before: the routes
that would send a message answer 409 `mail_unavailable` (a state of the site, not a failure
of the server), and GET /api/password-reset says `available: false` (the log-in dialog then
says that reset is not available).
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, StringConstraints

from cardtable.i18n import LANGS, t
from cardtable.server.errors import ApiError
from cardtable.server.guard.login_limits import Buckets, limit_keys
from cardtable.server.guard.netaddr import addr_group
from cardtable.server.guard.security import Limits, client_addr, name_keys
from cardtable.server.http.account import (AccountOut, Accounts, Body, Password,
                                           checked_password)
from cardtable.server.http.passkey import confirmed
from cardtable.server.mail.smtp import Mailer, Outgoing
from cardtable.server.people import accounts as A
from cardtable.server.people import email as E

log = logging.getLogger("cardtable.mail")

Lang = Annotated[str, StringConstraints(pattern=r"^(en|de)$")]
LinkToken = Annotated[str, StringConstraints(max_length=128)]


class Mail:
    """What the routes share: the accounts' service, the mailer, the clock of the links'
    lifetimes (`now`: tests pass a fake one) and the limits."""

    def __init__(self, accounts: Accounts, mailer: Mailer, now: Callable[[], float],
                 limits: Limits, max_keys: int = 100_000):
        self.accounts = accounts
        self.mailer = mailer
        self.now = now
        self.site = accounts.settings.site_url.rstrip("/")
        self.per_address = Buckets(limits.mails_per_hour / 3600.0, limits.mail_burst,
                                   max_keys)
        self.per_account = Buckets(limits.account_mails_per_hour / 3600.0,
                                   limits.account_mail_burst, max_keys)

    @property
    def store(self):
        return self.accounts.store

    def need_mail(self) -> None:
        if not self.mailer.available:
            raise ApiError(409, "this site sends no e-mail (its operator configured none)",
                           "mail_unavailable")

    def address_open(self, request: Request) -> None:
        """One request that sends mail from the request's address group (429 beyond it)."""
        wait = self.per_address.take(addr_group(client_addr(request.scope)))
        if wait:
            raise self.accounts.limited(wait, "mail_limited")

    def link(self, page: str, token: str) -> str:
        """A link to the site's page `page` with the token in its fragment (never sent to
        the server by the browser, so it is in no access log or Referer)."""
        return f"{self.site}/{page}#token={token}"

    async def send_verification(self, account: dict, address: str, lang: str) -> None:
        token, hashed = E.new_token()
        await A.write(self.store, lambda: E.ask(account["id"], address, lang, hashed,
                                                self.now()))
        if self.per_account.take(f"account {account['id']}"):
            log.info("mail verify for account %s not sent: too many messages", account["id"])
            return
        self.mailer.send_later(Outgoing(
            to=address, kind="verify", account_id=account["id"],
            subject=t(lang, "mail.verify.subject"),
            body=t(lang, "mail.verify.body", name=account["name"],
                   link=self.link("verify-email", token), hours=int(E.VERIFY_SECONDS / 3600))))

    def reset_later(self, who: str) -> None:
        """Look the name or address up, and send each account found a reset link, in the
        background (see the module docstring)."""
        self.mailer.later(self._reset(who))

    async def _reset(self, who: str) -> None:
        try:
            if "@" in who:
                try:
                    targets = await A.read(self.store, E.by_address(E.clean_address(who)))
                except E.BadAddress:
                    targets = []
            else:
                try:
                    keys = name_keys(" ".join(who.split()))
                except Exception:                       # noqa: BLE001 -- no name has these
                    return
                targets = await A.read(self.store, E.by_name(keys))
            for account_id, address, lang in targets:
                if self.per_account.take(f"account {account_id}"):
                    log.info("mail reset for account %s not sent: too many messages",
                             account_id)
                    continue
                token, hashed = E.new_token()
                await A.write(self.store, lambda: E.new_reset(account_id, hashed, self.now()))
                account = await A.read(self.store, A.by_id(account_id))
                await self.mailer.send(Outgoing(
                    to=address, kind="reset", account_id=account_id,
                    subject=t(lang, "mail.reset.subject"),
                    body=t(lang, "mail.reset.body", name=account["name"] if account else "",
                           link=self.link("reset", token),
                           minutes=int(E.RESET_SECONDS / 60))))
        except Exception:                               # noqa: BLE001 -- logged, not lost
            log.exception("a password reset request failed")


# -- bodies ------------------------------------------------------------------------------------
class SetAddress(Body):
    address: Annotated[str, StringConstraints(max_length=1024)] = Field(
        ..., description="the address; it counts once its link is followed")
    password: Password | None = Field(None, description="the account's password (needed "
                                                        "if it has one)")
    lang: Lang = Field("en", description="the language of the account's messages: en, de")
    credential: dict[str, Any] | None = Field(
        None, description="an account without a password: the answer of a passkey "
                          "confirmation begun with POST /api/me/passkeys/confirm/options"
                          "?for=email (as JSON, as for the passkey routes)")


class ResetRequest(Body):
    who: Annotated[str, StringConstraints(max_length=1024)] = Field(
        ..., description="the account's name or its verified address")


class ResetConfirm(Body):
    token: LinkToken = Field(..., description="the token of the link (after #token=)")
    password: Password = Field(..., description="the new password (10 to 1024 characters)")


class VerifyToken(Body):
    token: LinkToken


class Recover(Body):
    name: Annotated[str, StringConstraints(max_length=256)]
    code: Annotated[str, StringConstraints(max_length=64)] = Field(
        ..., description="one of the account's recovery codes")
    password: Password = Field(..., description="the account's new password")


class AddressOut(BaseModel):
    address: str | None = Field(None, description="the verified address (null: none)")
    pending: str | None = Field(None, description="an address awaiting its verification")
    verified_at: float | None = None
    lang: str | None = None
    mail: bool = Field(..., description="whether this site sends e-mail at all")
    recovery_codes_left: int = 0


class Available(BaseModel):
    available: bool = Field(..., description="whether password reset by e-mail works here")


class Accepted(BaseModel):
    detail: str


class Ended(BaseModel):
    ended: int = Field(..., description="sessions ended")


class Codes(BaseModel):
    codes: list[str] = Field(..., description="the recovery codes: shown this once, each "
                                              "good for one log-in; older ones stop working")


class Recovered(BaseModel):
    account: AccountOut
    ended: int


router = APIRouter(tags=["e-mail"])


def svc(request: Request) -> Mail:
    return request.app.state.mail


@router.get("/api/password-reset", response_model=Available)
async def reset_available(request: Request) -> Available:
    """Whether password reset by e-mail is available on this site (an SMTP server
    configured); the log-in dialog asks before it offers it."""
    return Available(available=svc(request).mailer.available)


@router.post("/api/password-reset", response_model=Accepted, status_code=202)
async def reset_request(req: ResetRequest, request: Request) -> Accepted:
    """Ask for a password-reset link by the account's name or its verified address. The
    answer is the same (202) whether or not anything is found, and comes before the look-up;
    a link (good for 30 minutes, one use) goes to the verified address only. 409
    `mail_unavailable` without SMTP; 429 `mail_limited` per address group."""
    s = svc(request)
    s.need_mail()
    s.address_open(request)
    s.reset_later(req.who.strip())
    return Accepted(detail="if the name or address has a verified e-mail address, a link to "
                           "set a new password was sent to it")


@router.post("/api/password-reset/confirm", response_model=Ended)
async def reset_confirm(req: ResetConfirm, request: Request) -> Ended:
    """Set a new password with the token of a reset link: every session of the account ends
    (log in with the new password). 400 `bad_link` for an unknown, used or expired link;
    422 `bad_password` (the link stays good)."""
    s = svc(request)
    password = checked_password(req.password)
    pw_hash = await s.accounts.passwords.hash(password)
    done = await A.write(s.store, lambda: E.reset(E.token_hash(req.token), pw_hash, s.now()))
    if done is None:
        raise ApiError(400, "this link is unknown, used or expired: ask for a new one",
                       "bad_link")
    log.info("password reset for account %s: %s sessions ended", done[0], done[1])
    return Ended(ended=done[1])


@router.post("/api/email/verify", response_model=AddressOut)
async def verify(req: VerifyToken, request: Request) -> AddressOut:
    """Verify an address with the token of its link: it becomes the account's address. 400
    `bad_link` for an unknown, used or expired link (or one whose address was changed)."""
    s = svc(request)
    account_id = await A.write(s.store, lambda: E.verify(E.token_hash(req.token), s.now()))
    if account_id is None:
        raise ApiError(400, "this link is unknown, used or expired: ask for a new one",
                       "bad_link")
    return await _address_out(s, account_id)


async def _address_out(s: Mail, account_id: int) -> AddressOut:
    d = await A.read(s.store, E.data(account_id))
    return AddressOut(**(d["email"] or {}), mail=s.mailer.available,
                      recovery_codes_left=d["recovery_codes_left"])


@router.get("/api/me/email", response_model=AddressOut)
async def get_address(request: Request) -> AddressOut:
    """The account's address (verified, or awaiting its verification), whether this site
    sends e-mail, and how many recovery codes are left."""
    s = svc(request)
    account, _ = await s.accounts.me(request)
    return await _address_out(s, account["id"])


@router.put("/api/me/email", response_model=AddressOut, status_code=202)
async def set_address(req: SetAddress, request: Request, response: Response) -> AddressOut:
    """Set or change the address: a message with a link (good for two days, one use) goes
    to it, and it counts once the link is followed (until then a verified one stays). The
    session alone is not enough (a stolen one could redirect the account's recovery mail):
    an account with a password confirms with it (403 `wrong_password`), one without with a
    passkey (`credential`: the answer of a ceremony begun with POST
    /api/me/passkeys/confirm/options?for=email, good for this request once; 403
    `passkey_needed` without it, `bad_passkey` for an answer that is not valid, 400
    `passkey_expired` for one of another purpose, used or expired). 422 `bad_address`; 409
    `mail_unavailable`; 429 `mail_limited`."""
    s = svc(request)
    account, _ = await s.accounts.me(request)
    s.need_mail()
    try:
        address = E.clean_address(req.address)
    except E.BadAddress as e:
        raise ApiError(422, str(e), "bad_address", {"field": "address"}) from None
    if account["password_hash"]:
        if req.password is None or not await s.accounts.check_password(
                request, account, name_keys(account["name"]), req.password):
            raise ApiError(403, "the password is wrong", "wrong_password")
    elif req.credential is None:
        raise ApiError(403, "confirm with one of your passkeys", "passkey_needed",
                       {"field": "credential"})
    else:
        await confirmed(request, response, account, req.credential, "email")
    s.address_open(request)
    await s.send_verification(account, address, req.lang if req.lang in LANGS else "en")
    return await _address_out(s, account["id"])


@router.delete("/api/me/email", status_code=204)
async def remove_address(request: Request) -> Response:
    """Remove the address (and one awaiting verification): no reset by e-mail any more."""
    s = svc(request)
    account, _ = await s.accounts.me(request)
    await A.write(s.store, lambda: E.remove(account["id"]))
    return Response(status_code=204)


@router.post("/api/me/recovery-codes", response_model=Codes, status_code=201)
async def make_codes(request: Request) -> Codes:
    """New recovery codes for an account that logs in with passkeys only (409 `has_password`
    for one with a password): shown this once (stored hashed), each good for one log-in that
    sets a password (POST /api/recovery); the older ones stop working."""
    s = svc(request)
    account, _ = await s.accounts.me(request)
    if account["password_hash"]:
        raise ApiError(409, "recovery codes are for accounts without a password",
                       "has_password")
    codes = E.new_codes()
    await A.write(s.store, lambda: E.store_codes(account["id"], codes, time.time()))
    return Codes(codes=codes)


@router.post("/api/recovery", response_model=Recovered)
async def recover(req: Recover, request: Request, response: Response) -> Recovered:
    """Log in with a recovery code and set a password: the code is used up, every other
    session of the account ends, this request gets a new one. 401 `bad_recovery` for a wrong
    name or code alike; limited as a log-in (429 `login_limited`)."""
    s = svc(request)
    acc = s.accounts
    try:
        keys = name_keys(" ".join(req.name.split()))
    except Exception:                                   # noqa: BLE001 -- no name has these
        keys = ("", "")
    account = await A.read(acc.store, A.by_keys(keys)) if keys[0] else None
    counted = limit_keys(keys, account["id"] if account else None)
    wait = acc.limits.attempt(client_addr(request.scope)) or acc.limits.account_open(counted)
    if wait:
        raise acc.limited(wait)
    password = checked_password(req.password)
    pw_hash = await acc.passwords.hash(unicodedata.normalize("NFKC", password))
    ended = None
    if account is not None:
        ended = await A.write(acc.store, lambda: E.recover(account["id"], req.code, pw_hash,
                                                          time.time()))
    if ended is None:
        acc.limits.failed(counted)
        raise ApiError(401, "wrong name or recovery code", "bad_recovery")
    await acc.start_session(request, response, account["id"])
    return Recovered(account=AccountOut(name=account["name"], created_at=account["created_at"]),
                     ended=ended)
