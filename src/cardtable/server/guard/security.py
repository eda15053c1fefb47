"""What protects the server and its players from hostile clients (docs/deploy.md, "Under
attack", says what each limit is, its default and why).

- Secrets: every deal's seed has `SEED_BITS` bits of OS randomness (`secret_seed`): one seat's
  view cannot be matched against every possible seed to learn the other hands, the deck
  order or the Kombio grids. Private tables get codes nobody can guess (`new_code`).
- Input: `strict_json` reads a JSON document the way the protocol means it (no NaN or
  Infinity, no number beyond a float, no lone surrogate, no key given twice, no deep nesting);
  `clean_name` decides what a player may be called.
- Per client address (`ClientLimits`; an IPv6 client by its /64, netaddr.addr_group): a
  token bucket for HTTP requests, one for WebSocket messages shared by all of the address's
  connections, a cap on its open connections, a bucket for look-ups of table codes that do
  not exist (once it is empty, unknown codes are answered 429 instead of 404; codes that exist
  are always found). Per address for quotas (an IPv6 client by its /56, netaddr.quota_group):
  a bucket of tables created, and caps on the unfinished tables it created
  (`AddressKeys.client_key`, quotas.py); quotas.py also keeps the caps in all, whatever the
  addresses.
- Per person (`AddressKeys.seat_client`): one seat at a public table per client identity (the
  browser's own random id, `CLIENT_HEADER`), a few per address (/56) for volume.
- Addresses in the database: only keyed hashes (HMAC-SHA256 under the server's secret keys,
  `AddressKeys`), so a copy of the database without the keys cannot tell the addresses.
- `Guard`, an ASGI middleware in front of the app: refuses a body over its route's limit with
  413 before reading it (or as soon as it passes the limit), applies the HTTP rate limit (429),
  checks JSON bodies with `strict_json` (400) and adds the security headers to every response.
"""

from __future__ import annotations

import functools
import json
import math
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from cardtable.core.record import MAX_RECORD_BYTES
from cardtable.server.guard.netaddr import (AddressKeys, addr_group, address_keys,  # noqa: F401
                                      new_address_key, quota_group, same_address,
                                      same_person)

#: bits of OS randomness in every seed of a game played online (deals, rematches, and through
#: the game's own generator every later Kombio round)
SEED_BITS = 128


def secret_seed() -> int:
    """A seed for a game whose cards players must not be able to compute."""
    return secrets.randbits(SEED_BITS)


# -- table codes ----------------------------------------------------------------------------------
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"      # no 0/O, 1/I/L: read out loud safely
#: a public table's code: short (it is listed in the lobby anyway: knowing it grants nothing)
PUBLIC_CODE_LEN = 8
#: a private table's code: the only key to the table, so as hard to guess as a seed
#: (26 letters of 31: 128.8 bits)
PRIVATE_CODE_LEN = 26
MAX_CODE_LEN = 32


def new_code(private: bool) -> str:
    n = PRIVATE_CODE_LEN if private else PUBLIC_CODE_LEN
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(n))


# -- JSON as the protocol means it ----------------------------------------------------------------
class BadJSON(ValueError):
    """A document `strict_json` refuses; the message says what is wrong, never echoing it."""


MAX_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name: str):
    raise BadJSON(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON("a number is too large")
    return value


def _int(text: str) -> int:
    if len(text) > 40:                           # int() of 4,300+ digits raises anyway
        raise BadJSON("a number is too large")
    return int(text)


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise BadJSON(f"the key {k[:40]!r} is given twice" if not _SURROGATE.search(k)
                          else "a key is given twice")
        out[k] = v
    return out


def _check(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise BadJSON(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise BadJSON("a text holds a lone surrogate (not Unicode)")
    elif isinstance(value, dict):
        for k, v in value.items():
            if _SURROGATE.search(k):
                raise BadJSON("a key holds a lone surrogate (not Unicode)")
            _check(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check(v, depth + 1)


def strict_json(data: str | bytes) -> Any:
    """Parse a JSON document or raise `BadJSON` with a short reason."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON("not UTF-8 text") from None
    try:
        value = json.loads(data, parse_constant=_no_constant, parse_float=_finite,
                           parse_int=_int, object_pairs_hook=_pairs)
    except BadJSON:
        raise
    except RecursionError:
        raise BadJSON(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:                       # json.JSONDecodeError is a ValueError
        pos = getattr(e, "pos", None)
        raise BadJSON("not JSON" + (f" (at character {pos})" if pos is not None else "")) \
            from None
    _check(value)
    return value


# -- names ---------------------------------------------------------------------------------------
NAME_MAX = 32
#: names that would pass for a bot or a free seat in the log ("Bot 2 (medium)", "Seat 3")
_IMPOSTOR = re.compile(r"^(bot|seat|platz)\b", re.IGNORECASE)


class BadName(ValueError):
    """A name `clean_name` refuses: `why` says which rule (`char`, `empty`, `long`,
    `impostor`) and `params` its details, for the client's words (the message is English)."""

    def __init__(self, message: str, why: str, **params):
        super().__init__(message)
        self.why = why
        self.params = params


def clean_name(raw: str) -> str:
    """A player's name as shown to everybody: NFC, spaces collapsed; `BadName` (a ValueError)
    if it has control or formatting characters (NUL, right-to-left overrides, zero-width
    marks), is empty or too long, has no letter or digit (only combining marks, punctuation
    or symbols: nothing to tell its player by), or would pass for a bot or a free seat."""
    name = unicodedata.normalize("NFC", raw)
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            code = f"U+{ord(ch):04X}"
            raise BadName(f"a name may not contain the character {code}", "char", char=code)
    name = " ".join(name.split())
    if not name:
        raise BadName("a name needs at least one visible character", "empty")
    if len(name) > NAME_MAX:
        raise BadName(f"a name has at most {NAME_MAX} characters", "long", most=NAME_MAX)
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise BadName("a name needs at least one letter or digit", "no_letter")
    if _IMPOSTOR.match(name):
        raise BadName("a name may not start like a bot's or a free seat's (Bot, Seat, Platz)",
                      "impostor")
    return name


#: Unicode TR39 (UTS #39) confusable detection, from ICU through PyICU: ICU's SpoofChecker is
#: the Unicode Consortium's own implementation of the TR39 skeleton, with the confusables data
#: of its Unicode version, and ICU and PyICU are released with every Unicode version. The pure
#: Python candidates were weighed: confusable_homoglyphs finds mixed-script characters but has
#: no skeleton; confusables (last release 2021) normalizes with its own extra data into many
#: candidate strings, not the TR39 skeleton; homoglyphs (2020) is unmaintained. PyICU comes as
#: the pyicu-wheels build (ICU inside the wheel: no compiler, no system ICU); the skeletons are
#: computed when names are compared, never stored, so another ICU version changes no data.
#: ICU is loaded with the first name compared, not when the settings are read (the CLI's start).
@functools.cache
def _spoof_checker():
    import icu

    return icu.SpoofChecker()


def skeleton(text: str) -> str:
    """The TR39 skeleton of `text` (ICU's getSkeleton): two strings that look alike (a Latin
    "A" and a Cyrillic "А", "rn" and "m", "I" and "l") have the same skeleton."""
    return _spoof_checker().getSkeleton(0, text)


def name_keys(name: str) -> tuple[str, str]:
    """What `same_name` compares, two keys with case, compatibility forms (width, ligatures)
    and spaces set aside: the TR39 skeleton folded and skeletonized again (a function of the
    skeleton alone, so names with the same skeleton always share it; also a Latin "o" and a
    digit "0", whose skeleton is a capital "O"), and the skeleton of the folded name ("Ian"
    and "ian": the skeleton of a capital I is a small l)."""
    def fold(text: str) -> str:
        return "".join(unicodedata.normalize("NFKC", text.casefold()).split())
    return skeleton(fold(skeleton(name))), skeleton(fold(name))


def same_name(a: str, b: str) -> bool:
    """True if two names would look alike in the log: either of their `name_keys` is the same
    (lookalike characters of other scripts, case, width and spaces aside)."""
    return any(x == y for x, y in zip(name_keys(a), name_keys(b)))


# -- limits per client address ------------------------------------------------------------------
class TokenBucket:
    """`rate` tokens per second, at most `burst` saved up."""

    __slots__ = ("rate", "burst", "tokens", "last", "clock")

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def take(self, n: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False

    def wait(self, n: float = 1.0) -> float:
        """Seconds until `n` tokens are there (0 if they are)."""
        missing = n - self.tokens
        return 0.0 if missing <= 0 else missing / self.rate


@dataclass
class Limits:
    """Per client address (IPv6: rates per /64, quotas per /56; netaddr.py) and, the last
    four, in all; see docs/deploy.md. 0 switches a limit off."""
    #: HTTP API requests per second and burst (pages and static files are not counted)
    http_rate: float = 10.0
    http_burst: int = 60
    #: WebSocket messages per second and burst, all of an address's connections together
    ws_rate: float = 40.0
    ws_burst: int = 120
    #: what one page of a game's history (a `sync` or a rejoin with `since`: Settings.history_page
    #: events) costs of that budget, in messages
    ws_page_cost: int = 10
    #: open WebSocket connections of one address
    connections: int = 32
    #: look-ups of table codes that do not exist: per minute, and burst
    misses_per_minute: float = 10.0
    miss_burst: int = 20
    #: unfinished live tables created by one address (a logged-in creator: by one account),
    #: unfinished turn-based tables, counted apart, and of all of them, tables with searching
    #: bots
    tables: int = 12
    turn_tables: int = 24
    search_tables: int = 3
    #: tables one address creates: per minute, and burst
    new_tables_per_minute: float = 6.0
    new_tables_burst: int = 12
    #: in all, whatever the addresses (quotas.py): unfinished tables; tables created per
    #: minute and burst (per server process); clients (quota keys) with unfinished tables with
    #: searching bots, per bot worker process (Settings.bot_workers, at least 1)
    all_tables: int = 2000
    all_new_tables_per_minute: float = 60.0
    all_new_tables_burst: int = 120
    all_search_tables_per_worker: int = 4
    #: POST /api/replay (a posted record replayed: up to a few tenths of a second of CPU each):
    #: requests per minute and burst, apart from the HTTP budget
    replays_per_minute: float = 6.0
    replay_burst: int = 10
    #: accounts (login_limits.py): log-in and sign-up attempts per address (/64) per minute
    #: and burst (each costs a password hash); failed log-ins per account name per hour and
    #: burst (unknown names alike); accounts created per address (/56) per hour and burst
    logins_per_minute: float = 10.0
    login_burst: int = 20
    account_failures_per_hour: float = 12.0
    account_failure_burst: int = 10
    signups_per_hour: float = 10.0
    signup_burst: int = 5
    #: e-mail (http/email.py): requests that send a message (a password reset, an address to
    #: verify) per address (/64) per hour and burst; messages to one account per hour and
    #: burst (beyond it a request is answered alike and nothing is sent)
    mails_per_hour: float = 10.0
    mail_burst: int = 5
    account_mails_per_hour: float = 3.0
    account_mail_burst: int = 3

    @classmethod
    def off(cls) -> "Limits":
        """No limits per address nor in all (tests and benchmarks whose clients share one
        address and make tables by the hundred)."""
        return cls(http_rate=0, ws_rate=0, connections=0, misses_per_minute=0, tables=0,
                   turn_tables=0,
                   search_tables=0, new_tables_per_minute=0, all_tables=0,
                   all_new_tables_per_minute=0, all_search_tables_per_worker=0,
                   replays_per_minute=0, logins_per_minute=0, account_failures_per_hour=0,
                   signups_per_hour=0, mails_per_hour=0, account_mails_per_hour=0)


class Client:
    __slots__ = ("http", "ws", "misses", "new_tables", "connections", "tables", "seen",
                 "replays")

    def __init__(self, limits: Limits):
        self.http = TokenBucket(limits.http_rate, limits.http_burst)
        self.ws = TokenBucket(limits.ws_rate, limits.ws_burst)
        self.misses = TokenBucket(limits.misses_per_minute / 60.0, limits.miss_burst)
        self.new_tables = TokenBucket(limits.new_tables_per_minute / 60.0,
                                      limits.new_tables_burst)
        self.connections = 0
        self.tables: dict[int, bool] = {}        # table id -> has searching bots
        self.seen = time.monotonic()
        self.replays = TokenBucket(limits.replays_per_minute / 60.0, limits.replay_burst)


class ClientLimits:
    """The limits' state per address, in this process (at most `max_clients` addresses: the
    least recently seen is forgotten first, unless it has connections or tables). Every
    method takes the client's address as the server sees it and counts it by its group
    (netaddr.py): an IPv6 client by its /64, its tables created by its /56."""

    def __init__(self, limits: Limits, max_clients: int = 100_000):
        self.limits = limits
        self.max_clients = max_clients
        self._clients: OrderedDict[str, Client] = OrderedDict()

    def get(self, addr: str, group=addr_group) -> Client:
        """The state of the client `addr` (by `group`: netaddr.addr_group or quota_group)."""
        addr = group(addr)
        c = self._clients.get(addr)
        if c is None:
            c = self._clients[addr] = Client(self.limits)
            if len(self._clients) > self.max_clients:
                self._evict()
        else:
            self._clients.move_to_end(addr)
        c.seen = time.monotonic()
        return c

    def _evict(self) -> None:
        for addr in list(self._clients)[: len(self._clients) // 10 + 1]:
            c = self._clients[addr]
            if not c.connections and not c.tables:
                del self._clients[addr]

    def http_ok(self, addr: str) -> float:
        """0 if the request may go on, else the seconds to wait (Retry-After)."""
        if not self.limits.http_rate:
            return 0.0
        b = self.get(addr).http
        return 0.0 if b.take() else max(1.0, b.wait())

    def replay_ok(self, addr: str) -> float:
        """0 if a posted replay may be computed, else the seconds to wait (Retry-After)."""
        if not self.limits.replays_per_minute:
            return 0.0
        b = self.get(addr).replays
        return 0.0 if b.take() else max(1.0, b.wait())

    def ws_message_ok(self, addr: str) -> bool:
        return not self.limits.ws_rate or self.get(addr).ws.take()

    def connect(self, addr: str) -> bool:
        c = self.get(addr)
        if self.limits.connections and c.connections >= self.limits.connections:
            return False
        c.connections += 1
        return True

    def disconnect(self, addr: str) -> None:
        c = self._clients.get(addr_group(addr))
        if c is not None and c.connections > 0:
            c.connections -= 1

    def guessing(self, addr: str) -> bool:
        """True if the address has used up its look-ups of unknown codes. Asked only when a
        code was not found: a table that exists is found whatever the address did before
        (its other users behind the same NAT are not locked out)."""
        if not self.limits.misses_per_minute:
            return False
        b = self.get(addr).misses
        b.take(0)                               # refill
        return b.tokens < 1.0

    def missed(self, addr: str) -> None:
        if self.limits.misses_per_minute:
            self.get(addr).misses.take()

    def new_table_ok(self, addr: str) -> float:
        """0 if the address (its /56) may create a table now (the token is taken), else the
        seconds until it may."""
        if not self.limits.new_tables_per_minute:
            return 0.0
        b = self.get(addr, quota_group).new_tables
        return 0.0 if b.take() else max(1.0, b.wait())


# -- the ASGI guard ---------------------------------------------------------------------------
#: the largest request bodies (bytes): the lobby's (a few hundred bytes are enough), and the
#: replay API's (a record: about 12 bytes an action; server/http/replay.py MAX_ACTIONS is 20,000),
#: the same cap as every record read by `cardtable replay` and core.record.read_record
MAX_BODY = 16 * 1024
MAX_REPLAY_BODY = MAX_RECORD_BYTES

#: the Content-Security-Policy of the pages: modules, styles and sockets of this origin only
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", b"DENY"),
           (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
           (b"cross-origin-opener-policy", b"same-origin")]


def client_addr(scope: dict) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class Guard:
    """ASGI middleware (see the module docstring). `body_limit(path)` gives a route's largest
    request body in bytes."""

    def __init__(self, app, clients: ClientLimits, body_limit, json_paths=("/api/",),
                 own_json=()):
        self.app = app
        #: paths whose route reads its JSON body itself, off the event loop (POST /api/replay)
        self.own_json = own_json
        self.clients = clients
        self.body_limit = body_limit
        self.json_paths = json_paths

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path: str = scope.get("path", "")
        csp = CSP.encode()          # (a route may set its own: server/http/apidocs.py)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in names]
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", csp))
                message = dict(message, headers=headers)
            await send(message)

        if path.startswith("/api/"):
            wait = self.clients.http_ok(client_addr(scope))
            if wait:
                return await _answer(send_with_headers, 429, {
                    "detail": "too many requests from your address: try again shortly",
                    "error": "rate_limited"}, [(b"retry-after", str(math.ceil(wait)).encode())])
        method = scope.get("method", "GET")
        if method in ("GET", "HEAD", "OPTIONS"):       # a DELETE may have a body (DELETE /api/me)
            return await self.app(scope, receive, send_with_headers)
        limit = self.body_limit(path)
        too_big = {"detail": f"the request body is larger than {limit} bytes",
                   "error": "too_large"}
        length = None
        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    length = int(v)
                except ValueError:
                    return await _answer(send_with_headers, 400,
                                         {"detail": "bad Content-Length", "error": "bad_request"})
        if length is not None and length > limit:
            return await _answer(send_with_headers, 413, too_big, close=True)
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > limit:
                return await _answer(send_with_headers, 413, too_big, close=True)
        ctype = b""
        for k, v in scope.get("headers", []):
            if k == b"content-type":
                ctype = v.split(b";")[0].strip().lower()
        if body and path.startswith(self.json_paths) and path not in self.own_json and ctype in (b"application/json", b""):
            try:
                strict_json(bytes(body))
            except BadJSON as e:
                return await _answer(send_with_headers, 400, {"detail": f"bad JSON body: {e}",
                                                              "error": "bad_json"})
        sent = False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        return await self.app(scope, replay, send_with_headers)


async def _answer(send, status: int, body: dict, headers=(), close: bool = False) -> None:
    data = json.dumps(dict(body, params=body.get("params", {}))).encode()
    hdrs = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
            *headers]
    if close:
        hdrs.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": hdrs})
    await send({"type": "http.response.body", "body": data})


# -- one person, one seat -------------------------------------------------------------------------
#: the request header a browser names itself by: its own random identity, kept in its storage
#: (docs/protocol.md, "Client identity"); not a secret and not proof of anything, it only tells
#: two people behind one address apart
CLIENT_HEADER = "x-cardtable-client"
CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class BadClientId(ValueError):
    """A client identity header that is not 16-64 letters, digits, '-' or '_'."""


def client_identity(headers) -> str | None:
    """The client identity of a request (`CLIENT_HEADER`), None without one; `BadClientId` if
    the header is given but malformed (or given twice)."""
    values = headers.getlist(CLIENT_HEADER) if hasattr(headers, "getlist") else \
        [v for k, v in headers if k.lower() == CLIENT_HEADER]
    if not values:
        return None
    if len(values) > 1 or not CLIENT_ID.match(values[0]):
        raise BadClientId(f"the {CLIENT_HEADER} header must be one value of 16 to 64 letters, "
                          "digits, '-' or '_'")
    return values[0]
