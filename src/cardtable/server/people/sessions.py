"""Sessions of logged-in accounts: the cookie, and which account a request comes from.

A session is a random value (`secrets.token_urlsafe(32)`: 256 bits) in a cookie; the
database keeps only its SHA-256 (accounts.sessions), so a copy of the database opens no
session. The cookie is
- HttpOnly: no script of the page (nor one injected into it) can read it;
- SameSite=Lax: other sites' pages do not send it with their forms' POSTs, fetches or
  frames (only with a top-level GET link to this site, which changes nothing);
- Secure, and named with the `__Host-` prefix (no Domain, Path=/, Secure: no sibling
  sub-domain can set or shadow it), when the request came over TLS: its scheme is https,
  which uvicorn takes from X-Forwarded-Proto when the request came through a trusted proxy
  (`--trusted-proxies`); over plain HTTP (a server on one's own machine) a Secure cookie
  would not be kept, so it is named `cardtable_session` and not Secure. Over TLS only the
  `__Host-` name is read: a cookie of the plain name may have been planted by another site of
  the same registrable domain (or by a page over plain HTTP), so it is ignored there.
- Max-Age: `SESSION_MAX_DAYS`, the longest a session can live; the server decides when it
  ends: `Settings.session_days` after it was last used (renewed at most once an hour, in
  the database: the cookie needs no renewal), never later than a year after the log-in.

A new session id at every log-in and sign-up (the cookie the client came with is ended):
an id set by somebody else beforehand never becomes a logged-in session (session fixation).
The Origin checks that go with cookies are origin.py's.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from fastapi import Request, Response

from cardtable.server.people import accounts as A

COOKIE = "cardtable_session"
SECURE_COOKIE = "__Host-cardtable_session"
COOKIES = (SECURE_COOKIE, COOKIE)
SESSION_MAX_DAYS = 365.0
#: seconds between two renewals of a session's life (each is a write)
TOUCH_EVERY = 3600.0
DAY = 86400.0


def id_hash(value: str) -> str:
    return hashlib.sha256(b"cardtable session " + value.encode("utf-8", "replace")).hexdigest()


def over_tls(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def cookie_names(request: Request, secure: str = SECURE_COOKIE, plain: str = COOKIE
                 ) -> tuple[str, ...]:
    """The names a cookie is read under: over TLS only the `__Host-` one (`secure`), which
    no other site can set; over plain HTTP both."""
    return (secure,) if over_tls(request) else (secure, plain)


def cookie_value(request: Request) -> str | None:
    """The session cookie's value (see `cookie_names`), or None."""
    for name in cookie_names(request):
        v = request.cookies.get(name)
        if v and len(v) <= 128:
            return v
    return None


def has_session_cookie(headers) -> bool:
    """A raw ASGI header list carries a session cookie (origin.py), under either name (a
    plain-named one over TLS is never read, but checking its Origin costs nothing)."""
    for k, v in headers:
        if k == b"cookie":
            text = v.decode("latin-1")
            if any(f"{name}=" in text for name in COOKIES):
                return True
    return False


def set_cookie(request: Request, response: Response, value: str) -> None:
    tls = over_tls(request)
    response.set_cookie(SECURE_COOKIE if tls else COOKIE, value,
                        max_age=int(SESSION_MAX_DAYS * DAY),
                        path="/", secure=tls, httponly=True, samesite="lax")


def clear_cookie(request: Request, response: Response) -> None:
    tls = over_tls(request)
    response.delete_cookie(SECURE_COOKIE if tls else COOKIE, path="/", secure=tls,
                           httponly=True, samesite="lax")


def new_value() -> str:
    return secrets.token_urlsafe(32)


async def current(request: Request, store, lifetime: float) -> tuple[dict, dict] | None:
    """(account, session) of the request's cookie, or None (no cookie, an unknown or
    expired session). Renews the session's life at most once an hour."""
    value = cookie_value(request)
    if value is None:
        return None
    now = time.time()
    found = await A.read(store, A.session(id_hash(value), now))
    if found is None:
        return None
    account, sess = found
    if now - sess["last_seen"] >= TOUCH_EVERY:
        expires = min(sess["created_at"] + SESSION_MAX_DAYS * DAY, now + lifetime)
        await A.touch(store, sess["id_hash"], expires)
        sess["expires"] = expires
    return account, sess
