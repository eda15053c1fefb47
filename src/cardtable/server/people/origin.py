"""Cross-site request forgery and cross-site WebSocket hijacking (docs/deploy.md, "Accounts").

A browser sends the session cookie (sessions.py) with every request to this site, also when
another site's page makes the request. SameSite=Lax keeps it off other sites' POSTs in
today's browsers; this middleware does not rely on that alone:

- an HTTP request that may change something (any method but GET, HEAD, OPTIONS) to the API
  that carries a session cookie must name this site in its Origin header (or, without one,
  its Referer); otherwise 403 `cross_origin` (a foreign origin) or `origin_missing`.
  Sign-up and log-in (`POST /api/accounts`, `/api/session`) are checked even without a
  cookie when they name an origin: a foreign page cannot log its visitor into an account of
  its choosing. A client that is no browser (curl, a bot) sends no Origin and no cookie, and
  is not concerned.
- a WebSocket handshake that carries a session cookie must come from a page of this site
  (its Origin, which browsers always send with WebSockets); otherwise it is refused (HTTP
  403) before it is accepted.

This site's origin is the request's own: its scheme (https when it came over TLS, also as a
trusted proxy's X-Forwarded-Proto says) and its Host header. A deployment whose proxy
rewrites the Host header, or whose pages are served from another origin, names the origins
it allows (`--allowed-origins https://cards.example.org`).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from cardtable.server.people.sessions import has_session_cookie

SAFE = ("GET", "HEAD", "OPTIONS")
#: routes checked whenever they name an origin, with or without a cookie (login CSRF)
ALWAYS = ("/api/accounts", "/api/session", "/api/recovery", "/api/password-reset",
          "/api/password-reset/confirm", "/api/email/verify")
#: ... and every route under these (sign-up and log-in with a passkey, http/passkey.py)
ALWAYS_UNDER = ("/api/passkeys/",)
_DEFAULT_PORT = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def normal_origin(value: str) -> str | None:
    """`scheme://host[:port]` in lower case, the default port left out; None if not one."""
    try:
        u = urlsplit(value.strip())
        port = u.port
    except ValueError:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(u.scheme.lower(), u.scheme.lower())
    if scheme not in ("http", "https") or not u.hostname:
        return None
    host = u.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORT[scheme]:
        host += f":{port}"
    return f"{scheme}://{host}"


def parse_allowed(raw: str) -> frozenset[str]:
    """The `--allowed-origins` setting (comma-separated origins); ValueError for one that
    is not an origin."""
    out = set()
    for item in (raw or "").split(","):
        if item.strip():
            o = normal_origin(item)
            if o is None:
                raise ValueError(f"not an origin (scheme://host[:port]): {item.strip()!r}")
            out.add(o)
    return frozenset(out)


def _header(headers, name: bytes) -> str | None:
    for k, v in headers:
        if k == name:
            return v.decode("latin-1")
    return None


def own_origin(scope) -> str | None:
    host = _header(scope.get("headers", []), b"host")
    if not host:
        return None
    return normal_origin(f"{scope.get('scheme', 'http')}://{host}")


class OriginCheck:
    """ASGI middleware (see the module docstring)."""

    def __init__(self, app, allowed: frozenset[str] = frozenset()):
        self.app = app
        self.allowed = allowed

    def verdict(self, scope, cookie: bool) -> str | None:
        """None if the request may go on, else the error code."""
        headers = scope.get("headers", [])
        raw = _header(headers, b"origin")
        if raw is None or raw == "null":
            referer = _header(headers, b"referer")
            raw = referer if referer else raw
        if raw is None or raw == "null":
            return "origin_missing" if cookie else None
        origin = normal_origin(raw)
        if origin is not None and (origin == own_origin(scope) or origin in self.allowed):
            return None
        return "cross_origin"

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind == "http" and scope.get("method", "GET") not in SAFE and \
                scope.get("path", "").startswith("/api/"):
            cookie = has_session_cookie(scope.get("headers", []))
            if cookie or scope["path"] in ALWAYS or scope["path"].startswith(ALWAYS_UNDER):
                error = self.verdict(scope, cookie)
                if error is not None:
                    return await _refuse(send, error)
        elif kind == "websocket" and has_session_cookie(scope.get("headers", [])):
            error = self.verdict(scope, True)
            if error is not None:
                # closing before accepting: the server answers the handshake with 403
                msg = await receive()
                if msg["type"] == "websocket.connect":
                    await send({"type": "websocket.close", "code": 1008})
                return
        return await self.app(scope, receive, send)


async def _refuse(send, error: str) -> None:
    detail = ("this request comes from a page of another site: refused"
              if error == "cross_origin" else
              "a request with a session cookie must say where it comes from (Origin)")
    body = json.dumps({"detail": detail, "error": error, "params": {}}).encode()
    await send({"type": "http.response.start", "status": 403, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
