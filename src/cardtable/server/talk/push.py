"""Web Push: "your move" while a player's page is closed (docs/api.md, "Web Push").

- Keys: the server's VAPID key pair (RFC 8292, P-256) is made at its first start and kept in
  the database (table `server_keys`, name `vapid`); every process of the server uses it. Its
  public key is what a browser subscribes with (GET /api/push/key).
- Subscriptions (table `push_subscriptions`): a seat opts in with its token (http/push.py);
  the endpoint must be https on a public address (`check_endpoint`, no requests to the
  server's own network: SSRF), at most `Settings.push_per_seat` of them a seat.
- Sending (`Pusher.changed`, called by Hub.after_change after every committed change): when
  a human seat's move begins (its turn; or it may answer a window of simultaneous decisions
  that stays open at least `WINDOW_MIN` seconds) and no connection of that seat is open in
  this process, one job goes into a bounded queue (full: the alert is dropped and counted;
  the table never waits for it). Workers take the jobs: claim the move in the database (one
  push a move and seat, in all processes), encrypt the message (RFC 8291, aes128gcm of
  RFC 8188) and sign the VAPID token with pywebpush/py_vapid, POST it with aiohttp (no
  redirects, a resolver that refuses non-public addresses, a timeout). 404 or 410 from the
  push service deletes the subscription. Never for a bot or an away seat (its stand-in plays).
- What is sent: "Your move at table CODE" in the subscriber's language, the table's link and
  code; no card, no name, nothing of the game's state.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import logging
import socket
import time
from collections import OrderedDict
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from sqlalchemy import text

from cardtable import i18n
from cardtable.server.clock import Clock

log = logging.getLogger("cardtable.server")

ENDPOINT_MAX = 1024
#: how long a push service keeps an undelivered alert (seconds; the TTL header)
TTL = 12 * 3600
#: a window of simultaneous decisions shorter than this gets no push (today's snap windows
#: last seconds: nobody could come in time; a slow table's long windows will)
WINDOW_MIN = 600.0
#: jobs waiting to be sent (more: dropped), workers sending at once, seconds a send may take
QUEUE = 1000
WORKERS = 4
SEND_TIMEOUT = 10.0
#: (table, seat) -> the last action index queued, kept for this many seats (then forgotten:
#: the database's claim still allows one push a move)
REMEMBER = 20_000


class BadSubscription(ValueError):
    """A subscription the server refuses: `error` is the API's error code."""

    def __init__(self, error: str, detail: str):
        super().__init__(detail)
        self.error = error


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def _local_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def check_endpoint(url: str, allow_local: bool = False) -> str:
    """The endpoint if the server may send to it: https, a host name or a public address,
    no user or password. `allow_local` (tests only): http and local addresses too."""
    if not isinstance(url, str) or not url or len(url) > ENDPOINT_MAX:
        raise BadSubscription("push_endpoint", f"an endpoint is an https URL of at most "
                                               f"{ENDPOINT_MAX} characters")
    try:
        u = urlsplit(url)
        host = u.hostname
        u.port                                             # noqa: B018 (a bad port raises)
    except ValueError:
        host = None
    schemes = ("https", "http") if allow_local else ("https",)
    if u.scheme not in schemes or not host or u.username or u.password or u.fragment:
        raise BadSubscription("push_endpoint", "an endpoint is an https URL without user, "
                                               "password or fragment")
    if allow_local:
        return url
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is not None and _local_ip(ip):
        raise BadSubscription("push_endpoint", "an endpoint's address must be public")
    if ip is None and (host == "localhost" or host.endswith((".localhost", ".local",
                                                             ".internal", ".lan"))
                       or "." not in host):
        raise BadSubscription("push_endpoint", "an endpoint's host must be public")
    return url


def check_keys(p256dh: str, auth: str) -> None:
    """The subscription's keys (RFC 8291): a P-256 point and a 16-byte secret, base64url."""
    try:
        point = unb64url(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        secret = unb64url(auth)
    except (ValueError, TypeError):
        raise BadSubscription("push_keys", "keys.p256dh must be a P-256 public key and "
                                           "keys.auth 16 bytes, in base64url") from None
    if len(point) != 65 or len(secret) != 16:
        raise BadSubscription("push_keys", "keys.p256dh must be a P-256 public key and "
                                           "keys.auth 16 bytes, in base64url")


def contact_ok(contact: str) -> bool:
    """A VAPID `sub` claim py_vapid accepts (a mailto: address or an https: URL)."""
    from py_vapid import _check_sub

    return _check_sub(contact)


_resolver_class = None


def public_resolver(allow_local: bool):
    """A resolver of host names to public addresses only (a name that points into the
    server's own network is refused at every send, not only when it was subscribed). aiohttp
    is imported here, at the first push sent, not when the server starts."""
    global _resolver_class
    if _resolver_class is None:
        import aiohttp

        class PublicResolver(aiohttp.ThreadedResolver):
            def __init__(self, allow_local: bool):
                super().__init__()
                self.allow_local = allow_local

            async def resolve(self, host: str, port: int = 0, family: int = socket.AF_INET):
                out = await super().resolve(host, port, family)
                if not self.allow_local:
                    out = [r for r in out if not _local_ip(ipaddress.ip_address(r["host"]))]
                    if not out:
                        raise OSError(f"{host} resolves to no public address")
                return out

        _resolver_class = PublicResolver
    return _resolver_class(allow_local)


class Pusher:
    """The keys, the subscriptions and the sending of one server process."""

    def __init__(self, store, settings):
        self.store = store
        self.settings = settings
        self.clock = getattr(store, "clock", None) or Clock()   # a reminder's hours left
        self.allow_local = settings.push_allow_local
        self.vapid: Vapid | None = None
        self.public_key = ""
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE)
        self._last: OrderedDict[tuple[int, int], int] = OrderedDict()
        self._tasks: list[asyncio.Task] = []
        self._session: aiohttp.ClientSession | None = None
        self.stats = {"jobs": 0, "done": 0, "sent": 0, "gone": 0, "failed": 0, "dropped": 0}

    # -- the database ------------------------------------------------------------------------------
    async def _exec(self, *statements: tuple[str, dict]) -> list[int]:
        """Run the statements in one transaction; their row counts."""
        writer = getattr(self.store, "_writer", None)
        if writer is not None:                                   # SQLite: the writer thread
            def run(cur):
                return [cur.execute(sql, params).rowcount for sql, params in statements]
            return await self.store.write(run)
        async with self.store.engine.begin() as conn:
            return [(await conn.execute(text(sql), params)).rowcount
                    for sql, params in statements]

    async def _rows(self, sql: str, params: dict) -> list[dict]:
        async with self.store.engine.connect() as conn:
            return [dict(r._mapping) for r in await conn.execute(text(sql), params)]

    async def _load_keys(self) -> None:
        sql = "SELECT value FROM server_keys WHERE name = 'vapid'"
        rows = await self._rows(sql, {})
        if not rows:
            key = ec.generate_private_key(ec.SECP256R1())
            raw = key.private_numbers().private_value.to_bytes(32, "big")
            await self._exec(("INSERT INTO server_keys (name, value, created_at) VALUES "
                              "('vapid', :v, :t) ON CONFLICT (name) DO NOTHING",
                              {"v": b64url(raw), "t": time.time()}))
            rows = await self._rows(sql, {})               # another process may have won
        self.vapid = Vapid.from_raw(rows[0]["value"].encode("ascii"))
        self.public_key = b64url(self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    # -- life -----------------------------------------------------------------------------------------
    async def start(self) -> None:
        await self._load_keys()
        self._tasks = [asyncio.create_task(self._work()) for _ in range(WORKERS)]

    def _client(self):
        """The HTTP client of the sends, made at the first one (the server starts without
        importing aiohttp)."""
        if self._session is None:
            import aiohttp

            connector = aiohttp.TCPConnector(resolver=public_resolver(self.allow_local),
                                             limit=WORKERS * 2)
            self._session = aiohttp.ClientSession(connector=connector, trust_env=False)
        return self._session

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    # -- subscriptions -------------------------------------------------------------------------------
    async def subscribe(self, table_id: int, seat: int, endpoint: str, p256dh: str, auth: str,
                        lang: str) -> bool:
        """Keep a subscription of `seat` (the same endpoint again: its new keys); False if the
        seat has `push_per_seat` others already. BadSubscription if it is not acceptable."""
        check_endpoint(endpoint, self.allow_local)
        check_keys(p256dh, auth)
        p = {"t": table_id, "s": seat, "e": endpoint, "k": p256dh, "a": auth, "l": lang,
             "now": time.time(), "most": self.settings.push_per_seat}
        _, added = await self._exec(
            ("DELETE FROM push_subscriptions WHERE table_id = :t AND seat = :s "
             "AND endpoint = :e", p),
            ("INSERT INTO push_subscriptions (table_id, seat, endpoint, p256dh, auth, lang, "
             "created_at) SELECT :t, :s, :e, :k, :a, :l, :now WHERE (SELECT count(*) FROM "
             "push_subscriptions WHERE table_id = :t AND seat = :s) < :most", p))
        return added > 0

    async def unsubscribe(self, table_id: int, seat: int, endpoint: str) -> int:
        (n,) = await self._exec(("DELETE FROM push_subscriptions WHERE table_id = :t AND "
                                 "seat = :s AND endpoint = :e",
                                 {"t": table_id, "s": seat, "e": endpoint}))
        return n

    # -- when a move begins ----------------------------------------------------------------------------
    def changed(self, rt) -> None:
        """After a committed change of table `rt` (cheap; nothing waits here)."""
        if rt.status != "playing" or rt.state.over or rt.round_break() is not None:
            return
        w = rt.window()
        if w is not None:
            if rt.window_seconds() < WINDOW_MIN:
                return
            answered = rt.answers()
            seats = [s for s in rt.window_order() if s not in answered]
        else:
            seats = [rt.state.to_move]
        here = {c.seat for c in rt.conns}
        for s in seats:
            if s is None or s in here or rt.seats[s]["kind"] != "human" or rt.is_auto(s):
                continue
            key = (rt.id, s)
            if self._last.get(key, -1) >= rt.n:
                continue
            self._last[key] = rt.n
            self._last.move_to_end(key)
            if len(self._last) > REMEMBER:
                self._last.popitem(last=False)
            try:
                self.queue.put_nowait((rt.id, rt.code, s, rt.n))
                self.stats["jobs"] += 1
            except asyncio.QueueFull:
                self.stats["dropped"] += 1
                log.warning("push queue full: a your-move alert was dropped")

    def remind(self, rt, seats: list[int]) -> None:
        """A turn-based table's reminder (turns.py) for `seats`: the move's time runs out at
        `rt.deadline`. The table row's `reminded` claimed it (one reminder a move, in all
        processes): sent to every subscription of the seat, whether a page is open or not."""
        for s in seats:
            try:
                self.queue.put_nowait((rt.id, rt.code, s, rt.n, rt.deadline))
                self.stats["jobs"] += 1
            except asyncio.QueueFull:
                self.stats["dropped"] += 1
                log.warning("push queue full: a reminder was dropped")

    async def _work(self) -> None:
        while True:
            job = await self.queue.get()
            try:
                await self._job(*job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("push: sending failed")
            finally:
                self.stats["done"] += 1

    async def _job(self, table_id: int, code: str, seat: int, n: int,
                   deadline: float | None = None) -> None:
        p = {"t": table_id, "s": seat, "n": n}
        if deadline is not None:                  # a reminder (claimed by the table's row)
            subs = await self._rows("SELECT id, endpoint, p256dh, auth, lang FROM "
                                    "push_subscriptions WHERE table_id = :t AND seat = :s", p)
            for sub in subs:
                await self._deliver(sub, code, deadline)
            return
        (claimed,) = await self._exec((
            "UPDATE push_subscriptions SET sent_n = :n WHERE table_id = :t AND seat = :s "
            "AND (sent_n IS NULL OR sent_n < :n)", p))
        if not claimed:                       # no subscription, or another process sent it
            return
        subs = await self._rows("SELECT id, endpoint, p256dh, auth, lang FROM "
                                "push_subscriptions WHERE table_id = :t AND seat = :s "
                                "AND sent_n = :n", p)
        for sub in subs:
            await self._deliver(sub, code)

    def message(self, lang: str, code: str, deadline: float | None = None) -> bytes:
        """The alert's text: the table and a link, nothing of the game (a reminder: the hours
        left and the deadline, for the page to show in the reader's time zone)."""
        lang = lang if lang in i18n.LANGS else "en"
        if deadline is not None:
            hours = max(1, round((deadline - self.clock.now()) / 3600))
            return json.dumps({"title": i18n.t(lang, "pace.remind_title"),
                               "body": i18n.t(lang, "pace.remind_body", code=code, hours=hours),
                               "url": f"/t/{code}", "table": code, "deadline": deadline,
                               "tag": f"cardtable-{code}"},
                              ensure_ascii=False).encode("utf-8")
        return json.dumps({"title": i18n.t(lang, "push.title"),
                           "body": i18n.t(lang, "push.body", code=code),
                           "url": f"/t/{code}", "table": code,
                           "tag": f"cardtable-{code}"}, ensure_ascii=False).encode("utf-8")

    def _prepare(self, sub: dict, payload: bytes) -> tuple[bytes, dict]:
        """The encrypted body and the headers (a worker thread: EC arithmetic)."""
        info = {"endpoint": sub["endpoint"], "keys": {"p256dh": sub["p256dh"],
                                                      "auth": sub["auth"]}}
        from pywebpush import WebPusher

        body = WebPusher(info).encode(payload, "aes128gcm")["body"]
        u = urlsplit(sub["endpoint"])
        headers = self.vapid.sign({"aud": f"{u.scheme}://{u.netloc}",
                                   "exp": int(time.time()) + 12 * 3600,
                                   "sub": self.settings.push_contact})
        headers.update({"TTL": str(TTL), "Content-Encoding": "aes128gcm",
                        "Content-Type": "application/octet-stream", "Urgency": "high"})
        return body, headers

    async def _deliver(self, sub: dict, code: str, deadline: float | None = None) -> None:
        status = await self.send(sub, self.message(sub["lang"], code, deadline))
        if status is None or status in (404, 410):
            await self._drop(sub["id"])

    async def send(self, sub: dict, payload: bytes) -> int | None:
        """Encrypt `payload` for the subscription `sub` (endpoint, p256dh, auth) and POST it
        to its push service (also for friends.py's invitations): the answer's status, 0 if
        the service could not be reached, None if the endpoint is no longer acceptable
        (the caller forgets the subscription then, as after a 404 or 410)."""
        try:
            check_endpoint(sub["endpoint"], self.allow_local)
        except BadSubscription:
            return None
        import aiohttp

        body, headers = await asyncio.to_thread(self._prepare, sub, payload)
        try:
            async with self._client().post(sub["endpoint"], data=body, headers=headers,
                                          allow_redirects=False,
                                          timeout=aiohttp.ClientTimeout(total=SEND_TIMEOUT)
                                          ) as r:
                status = r.status
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            self.stats["failed"] += 1
            log.info("push: %s unreachable (%s)", urlsplit(sub["endpoint"]).hostname,
                     type(e).__name__)
            return 0
        if status in (404, 410):                     # the browser unsubscribed: forget it
            self.stats["gone"] += 1
        elif 200 <= status < 300:
            self.stats["sent"] += 1
        else:
            self.stats["failed"] += 1
            log.info("push: %s answered %s", urlsplit(sub["endpoint"]).hostname, status)
        return status

    async def _drop(self, sub_id: int) -> None:
        await self._exec(("DELETE FROM push_subscriptions WHERE id = :i", {"i": sub_id}))
