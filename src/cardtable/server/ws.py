"""The WebSocket endpoint `/ws/{code}` (docs/protocol.md).

Each connection has a seat (from `?token=` or an `auth` message) or is a spectator, an
outgoing queue drained by its own writer task (messages keep their order; a client that does not
read is disconnected when the queue is full), and a token bucket: messages beyond it get a
`rate_limited` error and are dropped. Every incoming message is checked for size, then parsed
with the pydantic models of protocol.py; whatever is wrong gets an `error` to this client only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardtable.server.protocol import Auth, Back, Decide, Ping, Sync, parse_client
from cardtable.server.runtime import BY_PLAYER, Hub, ProtocolError, TableRuntime, dumps

log = logging.getLogger("cardtable.server.ws")

CODE_RE = re.compile(r"^[A-Za-z0-9]{1,16}$")


class TokenBucket:
    """`rate` tokens per second, at most `burst` saved up; one message costs one token."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic):
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Conn:
    def __init__(self, ws: WebSocket, rt: TableRuntime, seat: int | None, lang: str, settings):
        self.ws = ws
        self.rt = rt
        self.seat = seat
        self.lang = lang
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=settings.send_queue)
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.closed = False
        self.close_code = 1000
        self._last_state: dict | None = None

    def send(self, msg: dict) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(dumps(msg))
        except asyncio.QueueFull:                 # a client that does not read: drop it
            self.closed = True
            self.close_code = 1008
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def send_state(self, msg: dict, force: bool = False) -> None:
        """Send a state message unless it says nothing new (server_time aside)."""
        key = dict(msg)
        key.pop("server_time", None)
        if not force and key == self._last_state:
            return
        self._last_state = key
        self.send(msg)

    def error(self, code: str, message: str, ident=None) -> None:
        self.send({"type": "error", "code": code, "message": message, "id": ident})

    async def writer(self) -> None:
        try:
            while True:
                data = await self.queue.get()
                if data is None:
                    break
                await self.ws.send_text(data)
        except Exception:
            pass
        finally:
            self.closed = True
            try:
                await self.ws.close(self.close_code)
            except Exception:
                pass


def _summary(e: ValidationError) -> str:
    errs = e.errors(include_url=False, include_input=False)
    if not errs:
        return "malformed message"
    first = errs[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "message"
    return f"{where}: {first.get('msg', 'invalid')}"[:200]


async def handle_ws(ws: WebSocket, code: str, hub: Hub, settings) -> None:
    params = ws.query_params
    token = params.get("token")
    lang = params.get("lang", "en")
    lang = lang if lang in ("en", "de") else "en"
    since_raw = params.get("since")
    await ws.accept()

    async def refuse(code_: str, message: str, close_code: int) -> None:
        await ws.send_text(dumps({"type": "error", "code": code_, "message": message,
                                  "id": None}))
        await ws.close(close_code)

    if not CODE_RE.match(code):
        return await refuse("not_found", "no such table", 4404)
    rt = await hub.runtime_by_code(code.upper())
    if rt is None:
        return await refuse("not_found", "no such table", 4404)
    try:                                       # the runtime is held while the client is here
        seat = await hub.store.seat_by_token(rt.id, token[:256]) if token else None
        if token and seat is None:
            return await refuse("bad_token", "this token holds no seat at this table", 4401)
        await _serve(ws, rt, seat, lang, since_raw, hub, settings)
    finally:
        hub.release(rt)


async def _serve(ws: WebSocket, rt: TableRuntime, seat: int | None, lang: str,
                 since_raw: str | None, hub: Hub, settings) -> None:
    """The connection of a seat (or a spectator, `seat` None) at `rt`, until it closes."""
    conn = Conn(ws, rt, seat, lang, settings)
    writer = asyncio.create_task(conn.writer())
    try:
        since = None
        if since_raw is not None:
            try:
                since = int(since_raw)
            except ValueError:
                since = None
        # under the table's lock: no decision is half broadcast while this client joins, so
        # it gets each event exactly once (in the history or in the broadcast)
        async with rt.lock:
            rt.attach(conn)
            conn.send(rt.welcome_msg(seat, lang))
            if since is not None:
                for msg in rt.history_events(seat, lang, since):
                    conn.send(msg)
            conn.send_state(rt.state_msg(seat), force=True)
        if seat is not None and rt.seats[seat]["away"]:
            await rt.set_away(seat, False)                  # the player is back
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            received = time.perf_counter()
            data = msg.get("text")
            if data is None:
                data = msg.get("bytes") or b""
            await handle_message(conn, data, received, hub, settings)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("connection to table %s", rt.code)
    finally:
        rt.detach(conn)
        conn.closed = True
        try:
            conn.queue.put_nowait(None)
        except asyncio.QueueFull:
            writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)


async def handle_message(conn: Conn, data, received: float, hub: Hub, settings) -> None:
    rt = conn.rt
    if not conn.bucket.take():
        conn.error("rate_limited", f"too many messages: at most {settings.rate:g} per second "
                                   f"(bursts of {settings.burst})")
        return
    if len(data) > settings.max_message:
        conn.error("too_large", f"a message may have at most {settings.max_message} bytes")
        return
    try:
        m = parse_client(data)
    except ValidationError as e:
        ident = None
        try:
            raw = json.loads(data)
            if isinstance(raw, dict) and isinstance(raw.get("id"), (str, int)) \
                    and not isinstance(raw.get("id"), bool) and len(str(raw.get("id"))) <= 64:
                ident = raw["id"]
        except (ValueError, RecursionError):
            pass
        conn.error("bad_message", _summary(e), ident)
        return
    except RecursionError:
        conn.error("bad_message", "malformed message")
        return
    ident = m.id
    if isinstance(m, Ping):
        conn.send({"type": "pong", "id": ident, "server_time": time.time()})
    elif isinstance(m, Sync):
        async with rt.lock:
            if m.since is not None:
                for msg in rt.history_events(conn.seat, conn.lang, m.since):
                    conn.send(msg)
            conn.send_state(rt.state_msg(conn.seat), force=True)
    elif isinstance(m, Auth):
        seat = await hub.store.seat_by_token(rt.id, m.token)
        if seat is None:
            conn.error("bad_token", "this token holds no seat at this table", ident)
            return
        async with rt.lock:
            conn.seat = seat
            conn.send(rt.welcome_msg(seat, conn.lang))
            conn.send_state(rt.state_msg(seat), force=True)
        if rt.seats[seat]["away"]:
            await rt.set_away(seat, False)
    elif isinstance(m, Back):
        if conn.seat is None:
            conn.error("not_seated", "spectators have no seat", ident)
            return
        if rt.seats[conn.seat]["away"]:
            await rt.set_away(conn.seat, False)
        else:
            conn.send_state(rt.state_msg(conn.seat), force=True)
    elif isinstance(m, Decide):
        if conn.seat is None:
            conn.error("not_seated", "spectators cannot decide: join a seat first", ident)
            return

        def acked(ack: dict) -> None:
            conn.send(dict(ack, id=ident))

        try:
            await rt.decide(conn.seat, m.decision, by=BY_PLAYER, expected=m.index,
                            on_commit=acked)
        except ProtocolError as e:
            conn.error(e.code, e.message, ident)
            return
        hub.stats.add(time.perf_counter() - received)
