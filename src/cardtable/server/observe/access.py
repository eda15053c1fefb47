"""`Observe`, the outermost ASGI middleware of the app: every HTTP request and WebSocket gets
a request id (a new one; or the `X-Request-ID` a trusted proxy sent, `--trusted-proxies`),
returned in the `X-Request-ID` response header and put on every log line written while it is
served (logs.REQUEST); it is counted among the open connections while it runs
(`cardtable_connections`), its HTTP status counted, and when it ends one access log line is
written (logger `cardtable.access`): method, path with its table code masked, no query
string, status, duration (a WebSocket: `WS`, the status of its handshake, at its end)."""

from __future__ import annotations

import logging
import re
import secrets
import time
from typing import Any

from cardtable.server.guard.connections import SLOT_KEY, Slot, TrustedProxies
from cardtable.server.observe import logs
from cardtable.server.observe.metrics import Metrics

log = logging.getLogger("cardtable.access")

HEADER = b"x-request-id"
#: an incoming request id a trusted proxy may set (nginx's $request_id: 32 hex digits)
ID_RE = re.compile(rb"^[A-Za-z0-9._:-]{1,64}$")


def new_id() -> str:
    return secrets.token_hex(8)


def from_trusted_proxy(scope: dict, trusted: TrustedProxies) -> bool:
    """The request came through a trusted proxy: its connection's slot (guard/connections.py)
    belongs to no address group, as only a trusted proxy's does (the client address of the
    scope is already the one the proxy named); an app not served through those protocols
    (a test's) has only the scope's client to go by."""
    if not trusted:
        return False
    slot = (scope.get("state") or {}).get(SLOT_KEY)
    if isinstance(slot, Slot):
        return slot.group is None and slot.client is None
    client = scope.get("client")
    return client is not None and client[0] in trusted


class Observe:
    """See the module docstring. `trusted`: --trusted-proxies."""

    def __init__(self, app, metrics: Metrics, trusted: str = ""):
        self.app = app
        self.metrics = metrics
        self.trusted = TrustedProxies(trusted)
        self.open = {kind: metrics.connections.labels(kind) for kind in ("http", "websocket")}
        self.answered: dict[int, Any] = {}           # status -> its counter (labels() once)

    def _request_id(self, scope: dict) -> str:
        if self.trusted:
            for k, v in scope.get("headers", ()):
                if k == HEADER:
                    if ID_RE.match(v) and from_trusted_proxy(scope, self.trusted):
                        return v.decode("ascii")
                    break
        return new_id()

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        rid = self._request_id(scope)
        header = (HEADER, rid.encode("ascii"))
        token = logs.REQUEST.set(rid)
        gauge = self.open[kind]
        gauge.inc()
        status: list[int | None] = [None]
        started = time.perf_counter()

        async def sending(message):
            t = message["type"]
            if t in ("http.response.start", "websocket.http.response.start"):
                status[0] = message["status"]
                message = dict(message, headers=[*message.get("headers", ()), header])
            elif t == "websocket.accept":
                status[0] = 101
                message = dict(message, headers=[*(message.get("headers") or ()), header])
            elif t == "websocket.close" and status[0] is None:
                status[0] = 403                     # closed before the handshake: refused
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except BaseException:
            if status[0] is None:
                status[0] = 500
            raise
        finally:
            gauge.dec()
            if kind == "http" and status[0] is not None:
                counter = self.answered.get(status[0])
                if counter is None:
                    counter = self.answered[status[0]] = \
                        self.metrics.responses.labels(str(status[0]))
                counter.inc()
            logs.access_line(log, scope.get("method", "GET") if kind == "http" else "WS",
                             scope.get("path", ""), status[0], time.perf_counter() - started)
            logs.REQUEST.reset(token)
