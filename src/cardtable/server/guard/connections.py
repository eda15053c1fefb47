"""Raw connections: how long a request head may take, and how many connections are open.

uvicorn closes a keep-alive connection that stays idle after a response (`timeout_keep_alive`),
but nothing bounds a connection that never completes a request: a client sending a header line
every few seconds (slowloris), one that sends nothing at all, or a WebSocket upgrade sent half
kept a socket (a file descriptor) each for ever, and 1,100 of them from one client exhausted a
file limit of 1,024 so that every normal request failed. Here, as uvicorn's protocol classes
(`uvicorn.Config(http=..., ws=...)`, see `protocols`):

- a connection must complete each request head (request line and headers) within
  `head_timeout` seconds of its first byte (the first request: of the connection's opening),
  else it is closed;
- at most `connections_per_address` connections are open from one address (an IPv6 /64
  counts as one address, netaddr.addr_group); a connection beyond it is answered `503` at once
  and closed;
- at most `max_connections` connections are open in all, and the cap keeps room for everybody:
  when it is reached, a new connection takes the place of one held by the client (an IPv4
  address, an IPv6 /56: netaddr.quota_group) holding the most, if that client holds at least
  two more than the newcomer's (`Gate.admit`, max-min fair shares). Of that client's
  connections the ones that carry nothing useful go first (no account's session, no seat at
  a table: `mark_useful`), idle ones before those in a request, the oldest first. Only when
  every client holds about as many as the newcomer's is the newcomer answered `503` (`busy`).
  A trusted proxy (`trusted_proxies`) carries many clients: its connections count only in the
  total, are never closed for a newcomer, and a newcomer of its own counts as a client with
  none;
- a request from a trusted proxy without `X-Forwarded-For` is logged once (stderr): behind
  such a proxy every client would count as the proxy's address.

A connection is counted from its opening to its close, as HTTP and after an upgrade as
WebSocket (the transport is the key). docs/deploy.md says what each limit does.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections import Counter

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from cardtable.server.guard.netaddr import addr_group, quota_group

log = logging.getLogger("cardtable.server")


class TrustedProxies:
    """`--trusted-proxies`: a comma-separated list of addresses and networks, `*` (any), or ""
    (none). ValueError names an entry that is neither."""

    def __init__(self, spec: str | None):
        entries = [e.strip() for e in (spec or "").split(",") if e.strip()]
        self.any = "*" in entries
        self.nets = []
        for e in entries:
            if e == "*":
                continue
            try:
                self.nets.append(ipaddress.ip_network(e, strict=False))
            except ValueError:
                raise ValueError(f"--trusted-proxies: {e!r} is not an address or network "
                                 "(give e.g. 10.0.0.5,10.1.0.0/16, * for any, or nothing)"
                                 ) from None

    def __bool__(self) -> bool:
        return self.any or bool(self.nets)

    def __contains__(self, host: str | None) -> bool:
        if self.any:
            return True
        if not host or not self.nets:
            return False
        ip = host_ip(host)
        return ip is not None and any(ip in n for n in self.nets)


def host_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address of a peer's host as the ASGI server gives it (an IPv6 zone dropped, an
    IPv4-mapped IPv6 address as its IPv4 address); None if it is not an address."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip


#: the key of a connection's `Slot` in its requests' and WebSocket's ASGI scope["state"]
SLOT_KEY = "cardtable_conn"


class Slot:
    """One open connection in the `Gate`: its transport, its address group (per address) and
    client (the fair share; both None: a trusted proxy's), whether it carried something useful
    (`mark_useful`), whether a request is under way on it, and its order of opening."""

    __slots__ = ("transport", "group", "client", "useful", "busy", "seq")

    def __init__(self, transport, group: str | None, client: str | None, seq: int):
        self.transport = transport
        self.group = group
        self.client = client
        self.useful = False
        self.busy = False
        self.seq = seq


def mark_useful(scope) -> None:
    """The connection of this ASGI scope carries something useful (a logged-in account's
    request, a seat's WebSocket): when the server is full it is closed after the others of its
    client (`Gate.admit`). A scope not served through `protocols` (tests' own servers): no-op."""
    slot = (scope.get("state") or {}).get(SLOT_KEY) if isinstance(scope, dict) else None
    if isinstance(slot, Slot):
        slot.useful = True


class Gate:
    """The open connections, in all, per address group and per client (the fair share)."""

    def __init__(self, total: int, per_address: int, trusted: TrustedProxies):
        self.total = total
        self.per_address = per_address
        self.trusted = trusted
        self.open: dict[object, Slot] = {}                    # transport -> its slot
        self.groups: Counter[str] = Counter()
        self.clients: dict[str, dict[object, Slot]] = {}      # client -> its open slots
        self.evicted = 0                                      # closed for a newcomer
        self._seq = 0

    def admit(self, transport, host: str | None) -> tuple[str | None, Slot | None]:
        """Count `transport` in: (None, its slot) if it may stay, else (why not, None). When
        the cap in all is reached, another client's connection may be closed to make room."""
        group = client = None
        if host is not None and host not in self.trusted:
            group, client = addr_group(host), quota_group(host)
            if self.per_address and self.groups[group] >= self.per_address:
                return "address", None
        if self.total and len(self.open) >= self.total:
            victim = self._victim(client)
            if victim is None:
                return "server", None
            self.evicted += 1
            self.release(victim.transport)
            victim.transport.abort()              # its file descriptor is free at once
        self._seq += 1
        slot = Slot(transport, group, client, self._seq)
        self.open[transport] = slot
        if group is not None:
            self.groups[group] += 1
            self.clients.setdefault(client, {})[transport] = slot
        return None, slot

    def _victim(self, client: str | None) -> Slot | None:
        """The connection to close for a newcomer of `client`: of the clients holding at least
        two more connections than `client` does, one that carries nothing useful (the
        biggest client's first), else one of the biggest client's; idle before busy, oldest
        first. None: nobody holds more than a fair share."""
        mine = len(self.clients.get(client, ())) if client is not None else 0
        best, best_key = None, None
        for slots in self.clients.values():
            n = len(slots)
            if n < mine + 2:
                continue
            for slot in slots.values():
                key = (slot.useful, slot.busy, -n, slot.seq)
                if best_key is None or key < best_key:
                    best, best_key = slot, key
        return best

    def release(self, transport) -> None:
        slot = self.open.pop(transport, None)
        if slot is None or slot.group is None:
            return
        self.groups[slot.group] -= 1
        if self.groups[slot.group] <= 0:
            del self.groups[slot.group]
        slots = self.clients.get(slot.client)
        if slots is not None:
            slots.pop(transport, None)
            if not slots:
                del self.clients[slot.client]


def _refusal(why: str, most: int) -> bytes:
    detail = ("too many connections from your address" if why == "address"
              else "the server has too many open connections")
    body = json.dumps({"detail": detail + ": try again in a moment",
                       "error": "connections" if why == "address" else "busy",
                       "params": {"most": most} if why == "address" else {}}).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nretry-after: 5\r\n"
            b"connection: close\r\n\r\n" + body)


def protocols(head_timeout: float, max_connections: int, connections_per_address: int,
              trusted_proxies: str) -> tuple[type, type]:
    """uvicorn's HTTP (httptools) and WebSocket protocol classes with the limits above, sharing
    one `Gate` (one per server). 0 switches a limit off."""
    gate = Gate(max_connections, connections_per_address, TrustedProxies(trusted_proxies))
    warned: list[bool] = []

    class HTTP(HttpToolsProtocol):
        _head: asyncio.TimerHandle | None = None
        _slot: Slot | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            why, slot = gate.admit(transport, host)
            if why is not None:
                self.transport.write(_refusal(why, gate.per_address))
                self.transport.close()
                return
            self._slot = slot
            # every request's scope (and the WebSocket's, which gets this state) carries the
            # slot: the application marks it useful (mark_useful)
            self.app_state = dict(self.app_state, **{SLOT_KEY: slot})
            self._start_head()

        def connection_lost(self, exc) -> None:
            self._stop_head()
            gate.release(self.transport)
            super().connection_lost(exc)

        def _start_head(self) -> None:
            if head_timeout and self._head is None:
                self._head = self.loop.call_later(head_timeout, self._head_expired)

        def _stop_head(self) -> None:
            if self._head is not None:
                self._head.cancel()
                self._head = None

        def _head_expired(self) -> None:
            self._head = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:         # a request's first byte (keep-alive too)
            self._start_head()
            super().on_message_begin()

        def on_headers_complete(self) -> None:      # before an upgrade is handed over too
            self._stop_head()
            if self._slot is not None:
                self._slot.busy = True
            if not warned and self.client and self.client[0] in gate.trusted and not any(
                    name == b"x-forwarded-for" for name, _ in self.headers):
                warned.append(True)
                log.warning("a request from %s, a trusted proxy (--trusted-proxies), carries "
                            "no X-Forwarded-For: every client behind it counts as the proxy's "
                            "address (docs/deploy.md, Behind a load balancer)", self.client[0])
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            if self._slot is not None:
                self._slot.busy = False
            super().on_response_complete()

    class WS(AutoWebSocketsProtocol):                # type: ignore[misc, valid-type]
        def connection_lost(self, exc) -> None:
            gate.release(self.transport)
            super().connection_lost(exc)

    return HTTP, WS


#: file descriptors a server process needs besides its clients' connections (database pools,
#: LISTEN, bot workers' pipes, static files, the listening socket)
RESERVED_FILES = 200


def fit_file_limit(max_connections: int) -> int:
    """Raise the process's soft limit of open files to fit `max_connections` plus
    RESERVED_FILES (up to the hard limit); returns the cap that fits (lowered, with a warning,
    when the hard limit is too low). 0 (no cap) stays 0."""
    try:
        import resource
    except ImportError:                                        # not on Unix
        return max_connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = max_connections + RESERVED_FILES
    if max_connections and soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
        if soft < need:
            fit = max(1, soft - RESERVED_FILES)
            log.warning("the file limit (%d) fits %d connections, not --max-connections %d",
                        soft, fit, max_connections)
            return fit
    return max_connections
