"""The WebSocket endpoint `/ws/{code}` (docs/protocol.md).

Each connection has a seat (from `?token=` or an `auth` message) or is a spectator, an
outgoing queue drained by its own writer task (messages keep their order; a client that does not
read is disconnected when the queue is full), and two token buckets, its own and its client
address's (security.ClientLimits): messages beyond them get a `rate_limited` error and are
dropped. Every incoming message is checked for its size in bytes, read with
`security.strict_json` (binary frames, NaN, duplicate keys ... are `bad_message`), then with the
pydantic models of protocol.py; whatever is wrong gets an `error` to this client only.

A game's history (a client that connects with `since=`, or sends `sync` with `since`) is not
put into the queue in one go: the queue holds a marker, and the writer sends the history page
by page (`history_page` events at a time, each page made in a worker thread when the
previous one has been sent), so a game of any length can be rejoined with bounded memory per
connection and without holding up the event loop. Events of decisions made meanwhile are
queued behind the marker: every event reaches the client once and in order.

A process that shuts down (SIGTERM: app.py drains) tells each client `reconnect` and closes
its connection with code 1012 ("service restart") once the message it is handling, if any, is
answered (`Conn.drain`): a decision being committed is acknowledged first; one the server has
not read yet gets no answer, and the client sends it again after reconnecting (its `index`
makes that safe: one that was applied after all, its answer lost, is acknowledged again,
runtime.py `_made_already`). A connection that arrives during the drain gets the same at once.

A ban or suspension closes the connections it names with code 4403, and refuses those that
open while it is in force (ws/bans.py); each connection keeps the account of its session
cookie (`Conn.account_id`) for that and for the table talk's mutes, and a spectator the
person its browser's client identity names (`?client=`, as the header of HTTP requests:
`Conn.person`), which holds a guest watching to a moderator's mute of that browser; a
ban of a guest's browser (by its identity, or without one by its address) names seats and
spectators alike (`Conn.persons`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardtable.server.talk import chat as table_talk
from cardtable.server.ws import bans
from cardtable.server.guard.connections import mark_useful
from cardtable.server.observe import logs
from cardtable.server.protocol import (
    Auth,
    Back,
    Cancel,
    Chat,
    ChatMode,
    React,
    Decide,
    Ping,
    Leave,
    Ready,
    SetSeat,
    Sync,
    parse_client_value,
)
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.runtime import TableRuntime
from cardtable.server.store.schema import BY_PLAYER
from cardtable.server.tables.table_base import ProtocolError, dumps
from cardtable.server.guard.security import (CLIENT_ID, BadJSON, ClientLimits, TokenBucket,
                                             strict_json)
from cardtable.server.mod.moderation import person_of_client

log = logging.getLogger("cardtable.server.ws")

CODE_RE = re.compile(r"^[A-Za-z0-9]{1,32}$")


@dataclass
class History:
    """A marker in the send queue: the events of actions start..end-1 go here."""
    start: int
    end: int


#: messages of the address's budget a history page leaves for the client's own messages
PAGE_RESERVE = 5

#: a `reconnect` message's `delay_ms`: its clients come back spread over this many milliseconds
RECONNECT_SPREAD_MS = 1000
#: the close code after `reconnect` (RFC 6455: "service restart")
SERVICE_RESTART = 1012


class Conn:
    def __init__(self, ws: WebSocket, rt: TableRuntime, seat: int | None, lang: str, settings,
                 clients: ClientLimits | None = None, addr: str = ""):
        self.clients = clients
        self.addr = addr
        self.histories = 0                        # History markers queued or being sent
        self.ws = ws
        self.rt = rt
        self.seat = seat
        self.lang = lang
        self.page = max(1, settings.history_page)
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=settings.send_queue)
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.closed = False
        self.close_code = 1000
        self._last_state: dict | None = None
        self.spectator: int | None = None         # the table talk's number of a spectator
        self.chat_bucket: TokenBucket | None = None
        self.busy = False                         # a message of the client is being handled
        self.done = asyncio.Event()               # the writer has sent all and closed
        self.draining = False                     # told to reconnect (drain)
        self.account_id: int | None = None        # the account of the session cookie
        self.person: str | None = None            # the browser's person (?client=, mutes)
        self.persons: tuple[str, ...] = ()        # the person halves a ban names (bans.py)

    def _put(self, item) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:                 # a client that does not read: drop it
            self.closed = True
            self.close_code = 1008
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def send(self, msg: dict) -> None:
        self._put(dumps(msg))

    def send_close(self, code: int) -> None:
        """Close the connection once what is queued has been sent."""
        if not self.closed:
            self.close_code = code
            self._put(None)
            self.closed = True

    def drain(self) -> None:
        """The process shuts down: tell the client to reconnect, and close the connection
        (1012) as soon as no message of its is being handled (else right after that one)."""
        if self.draining or self.closed:
            return
        self.draining = True
        self.send({"type": "reconnect", "delay_ms": RECONNECT_SPREAD_MS})
        if not self.busy:
            self.send_close(SERVICE_RESTART)

    def send_history(self, since: int) -> None:
        """Queue the events from action `since` up to now (call under the table's lock, so
        that the events of later decisions follow them)."""
        since = max(0, since)
        if since < self.rt.n:
            self.histories += 1
            self._put(History(since, self.rt.n))

    def _page_cost(self) -> tuple[int, int]:
        """(cost, reserve) of a history page in the address's message budget; (0, 0): free."""
        if self.clients is None or not self.clients.limits.ws_rate:
            return 0, 0
        burst = int(self.clients.limits.ws_burst)
        cost = max(0, min(self.clients.limits.ws_page_cost, burst))
        return cost, max(0, min(PAGE_RESERVE, burst - cost))

    def can_pay_page(self) -> bool:
        cost, reserve = self._page_cost()
        if not cost:
            return True
        b = self.clients.get(self.addr).ws
        b.take(0)                                 # refill
        return b.tokens >= cost + reserve

    async def _pay_page(self) -> None:
        """Wait until the address's budget pays a page (leaving `PAGE_RESERVE` messages)."""
        cost, reserve = self._page_cost()
        if not cost:
            return
        b = self.clients.get(self.addr).ws
        while not self.closed:
            b.take(0)
            if b.tokens >= cost + reserve:
                b.take(cost)
                return
            await asyncio.sleep(max(0.01, b.wait(cost + reserve)))

    def send_state(self, msg: dict, force: bool = False) -> None:
        """Send a state message unless it says nothing new (server_time aside)."""
        key = dict(msg)
        key.pop("server_time", None)
        if not force and key == self._last_state:
            return
        self._last_state = key
        self.send(msg)

    def error(self, code: str, message: str, ident=None, reason_code: str | None = None,
              params: dict | None = None) -> None:
        msg = {"type": "error", "code": code, "message": message, "id": ident}
        self.rt.hub.metrics.error(code)                     # cardtable_errors{code}
        if reason_code is not None:          # an engine's refusal: its code and params
            msg["reason_code"], msg["params"] = reason_code, params or {}
        self.send(msg)

    async def _history(self, h: History) -> None:
        try:
            for start in range(h.start, h.end, self.page):
                await self._pay_page()
                if self.closed:
                    break
                events = await self.rt.history_page(self.seat, self.lang, start,
                                                    min(h.end, start + self.page))
                for msg in events:
                    await self.ws.send_text(dumps(msg))
        finally:
            self.histories -= 1

    async def writer(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    break
                if isinstance(item, History):
                    await self._history(item)
                else:
                    await self.ws.send_text(item)
        except Exception:
            pass
        finally:
            self.closed = True
            try:
                await self.ws.close(self.close_code)
            except Exception:
                pass
            self.done.set()


def _summary(e: ValidationError) -> str:
    errs = e.errors(include_url=False, include_input=False)
    if not errs:
        return "malformed message"
    first = errs[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "message"
    return f"{where}: {first.get('msg', 'invalid')}"[:200]


async def handle_ws(ws: WebSocket, code: str, hub: Hub, settings,
                    clients: ClientLimits | None = None,
                    draining: Callable[[], bool] = lambda: False) -> None:
    """One connection to /ws/{code}. `draining()`: the process shuts down (app.py), so the
    connection is told to reconnect (elsewhere) and closed."""
    params = ws.query_params
    token = params.get("token")
    lang = params.get("lang", "en")
    lang = lang if lang in ("en", "de") else "en"
    since_raw, tail_raw = params.get("since"), params.get("tail")
    addr = ws.client.host if ws.client else "unknown"
    identity = params.get("client")
    await ws.accept()
    if draining():
        await ws.send_text(dumps({"type": "reconnect", "delay_ms": RECONNECT_SPREAD_MS}))
        await ws.close(SERVICE_RESTART)
        return

    async def refuse(code_: str, message: str, close_code: int, msg: dict | None = None
                     ) -> None:
        hub.metrics.error(code_)
        await ws.send_text(dumps(msg or {"type": "error", "code": code_, "message": message,
                                         "id": None}))
        await ws.close(close_code)

    if identity is not None and not CLIENT_ID.match(identity):
        return await refuse("bad_client", "the client parameter must be the browser's client "
                                          "identity: 16 to 64 letters, digits, '-' or '_'", 4400)
    rt = await hub.runtime_by_code(code.upper()) if CODE_RE.match(code) else None
    if rt is None:
        # only unknown codes are slowed: a table that exists is found whatever its address
        # looked up before (the people behind one NAT are not locked out by one of them)
        if clients is not None:
            if clients.guessing(addr):
                return await refuse("rate_limited", "too many unknown table codes from your "
                                                    "address: wait a minute", 4429)
            clients.missed(addr)
        return await refuse("not_found", "no such table", 4404)
    try:                                       # the runtime is held while the client is here
        if clients is not None and not clients.connect(addr):
            return await refuse("rate_limited", "too many connections from your address "
                                                f"(at most {clients.limits.connections})", 4429)
        try:
            if token is None and params.get("auth") == "1":
                # the token comes in the first message, not in the URL (which may be logged)
                token = await _first_auth(ws, refuse)
                if token is None:
                    return
            seat = await hub.store.seat_by_token(rt.id, token[:256]) if token else None
            if token and seat is None:
                return await refuse("bad_token", "this token holds no seat at this table", 4401)
            account_id = await bans.session_account(ws, hub)
            persons = bans.persons(ws, addr, identity)
            banned = await bans.refusal(hub, account_id, rt.id, seat, addr, persons)
            if banned is not None:
                msg = bans.message(banned)
                return await refuse(msg["code"], msg["message"], bans.BANNED, msg)
            await _serve(ws, rt, seat, lang, _number(since_raw), _number(tail_raw), hub,
                         settings, clients, addr, draining, account_id,
                         person_of_client(identity) if identity else None, persons)
        finally:
            if clients is not None:
                clients.disconnect(addr)
    finally:
        hub.release(rt)


#: seconds a connection opened with ?auth=1 may take to send its `auth` message
AUTH_TIMEOUT = 10.0


async def _first_auth(ws: WebSocket, refuse) -> str | None:
    """The token of a connection opened with `?auth=1`: its first message must be `auth`.
    None (and the connection refused) if it is anything else or does not come in time."""
    try:
        msg = await asyncio.wait_for(ws.receive(), AUTH_TIMEOUT)
    except TimeoutError:
        await refuse("bad_message", "expected an auth message first", 4400)
        return None
    if msg["type"] == "websocket.disconnect":
        return None
    try:
        m = parse_client_value(strict_json(msg.get("text") or ""))
    except (BadJSON, ValidationError):
        m = None
    if not isinstance(m, Auth):
        await refuse("bad_message", "expected an auth message first", 4400)
        return None
    return m.token


async def seen(hub: Hub, rt: TableRuntime) -> None:
    """A seat's player connected: the table has been seen (`seen_at`, the first time; a table
    nobody ever connected to expires sooner: Settings.unseen_ttl)."""
    if rt.row.get("seen_at") is None:
        now = hub.clock.now()
        await hub.store.mark_seen(rt.id, now)
        rt.row["seen_at"] = now


def _number(raw: str | None) -> int | None:
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > 12:
        return None
    return int(raw)


async def _serve(ws: WebSocket, rt: TableRuntime, seat: int | None, lang: str,
                 since: int | None, tail: int | None, hub: Hub, settings,
                 clients: ClientLimits | None, addr: str,
                 draining: Callable[[], bool] = lambda: False,
                 account_id: int | None = None, person: str | None = None,
                 persons: tuple[str, ...] = ()) -> None:
    """The connection of a seat (or a spectator, `seat` None) at `rt`, until it closes.
    `since`: send the events from that action on; `tail`: at most that many of the last;
    `account_id`: the account of its session cookie; `person`: its browser's (mutes);
    `persons`: what a ban of its browser names (bans.persons)."""
    conn = Conn(ws, rt, seat, lang, settings, clients, addr)
    conn.account_id = account_id
    conn.person = person
    conn.persons = persons
    logs.TABLE.set(rt.id)                       # on every log line of this connection
    writer = asyncio.create_task(conn.writer())
    try:
        # under the table's lock: no decision is half broadcast while this client joins, so
        # it gets each event exactly once (in the history or in the broadcast)
        if seat is not None:
            mark_useful(ws.scope)                 # a seat's connection (connections.py)
            await seen(hub, rt)
        async with rt.lock:
            if rt.gone is not None:               # deleted while this connection was checked
                log.info("table %d was %s while a connection to it opened: told so",
                         rt.id, rt.gone)
                rt.tell_gone(conn)                # (the writer sends it and closes: finally)
                return
            rt.attach(conn)
            conn.send(rt.welcome_msg(seat, lang))
            if tail is not None:
                since = max(since or 0, rt.n - tail)
            if since is not None:
                conn.send_history(since)
            conn.send_state(rt.state_msg(seat, conn.lang), force=True)
            if seat is not None:
                rt.presence_changed()
            if draining():                        # the drain began while this one joined
                conn.drain()
        talk = table_talk.room(rt, settings)
        if seat is None:
            conn.spectator = talk.spectator_number()
        await talk.backlog(conn)                            # the chat so far (chat_log)
        if seat is not None and rt.seats[seat]["away"]:
            await rt.set_away(seat, False)                  # the player is back
        while not conn.closed:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            if conn.closed:                       # closing (drain, a client that does not
                break                             # read): nothing more is handled or answered
            received = time.perf_counter()
            conn.busy = True
            try:
                await handle_message(conn, msg, received, hub, settings, clients, addr)
            finally:
                conn.busy = False
            if conn.draining:                     # answered: now the connection may close
                conn.send_close(SERVICE_RESTART)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("connection to table #%d", rt.id)
    finally:
        rt.detach(conn)
        conn.closed = True
        try:
            conn.queue.put_nowait(None)
        except asyncio.QueueFull:
            writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)


def _ident(raw) -> str | int | None:
    """The `id` of a message that failed validation, if it is a usable one (echoed back)."""
    if isinstance(raw, dict):
        i = raw.get("id")
        if isinstance(i, str) and len(i) <= 64:
            return i
        if isinstance(i, int) and not isinstance(i, bool) and abs(i) <= 2 ** 53:
            return i
    return None


async def _or_error(conn: Conn, change, ident) -> None:
    """Await a change of the table; a refusal goes back to this client as an error."""
    try:
        await change
    except ProtocolError as e:
        conn.error(e.code, e.message, ident, e.reason_code, e.params)


async def handle_message(conn: Conn, msg: dict, received: float, hub: Hub, settings,
                         clients: ClientLimits | None = None, addr: str = "") -> None:
    rt = conn.rt
    if not conn.bucket.take() or (clients is not None and not clients.ws_message_ok(addr)):
        conn.error("rate_limited", f"too many messages: at most {settings.rate:g} per second "
                                   f"(bursts of {settings.burst})")
        return
    data = msg.get("text")
    if data is None:
        conn.error("bad_message", "binary frames are not part of the protocol: send JSON text")
        return
    if len(data) * 4 > settings.max_message and \
            len(data.encode("utf-8", "surrogatepass")) > settings.max_message:
        conn.error("too_large", f"a message may have at most {settings.max_message} bytes")
        return
    try:
        raw = strict_json(data)
    except BadJSON as e:
        conn.error("bad_message", str(e))
        return
    try:
        m = parse_client_value(raw)
    except ValidationError as e:
        conn.error("bad_message", _summary(e), _ident(raw))
        return
    ident = m.id
    if isinstance(m, Ping):
        conn.send({"type": "pong", "id": ident, "server_time": hub.clock.now()})
    elif isinstance(m, Sync):
        if m.since is not None and m.since < rt.n and conn.histories:
            conn.error("rate_limited", "a history is still being sent on this connection: "
                                       "wait for its end", ident)
            return
        if m.since is not None and m.since < rt.n and not conn.can_pay_page():
            conn.error("rate_limited", "too many messages from your address: the history "
                                       "pages have used up its budget", ident)
            return
        async with rt.lock:
            if m.since is not None:
                conn.send_history(m.since)
            conn.send_state(rt.state_msg(conn.seat, conn.lang), force=True)
    elif isinstance(m, Auth):
        seat = await hub.store.seat_by_token(rt.id, m.token)
        if seat is None:
            conn.error("bad_token", "this token holds no seat at this table", ident)
            return
        banned = await bans.refusal(hub, conn.account_id, rt.id, seat, conn.addr,
                                    conn.persons)
        if banned is not None:
            conn.send(bans.message(banned))
            conn.send_close(bans.BANNED)
            return
        mark_useful(conn.ws.scope)
        await seen(hub, rt)
        async with rt.lock:
            conn.seat = seat
            conn.send(rt.welcome_msg(seat, conn.lang))
            conn.send_state(rt.state_msg(seat, conn.lang), force=True)
            rt.presence_changed()
        await table_talk.room(rt, settings).backlog(conn)   # a player's view of the chat
        if rt.seats[seat]["away"]:
            await rt.set_away(seat, False)
    elif isinstance(m, Back):
        if conn.seat is None:
            conn.error("not_seated", "spectators have no seat", ident)
            return
        if rt.seats[conn.seat]["away"]:
            await rt.set_away(conn.seat, False)
        else:
            conn.send_state(rt.state_msg(conn.seat, conn.lang), force=True)
    elif isinstance(m, (SetSeat, Cancel)):
        if conn.seat is None or conn.seat != rt.host():
            conn.error("not_host", "only the table's host may change its seats or cancel it",
                       ident)
            return
        await _or_error(conn, rt.cancel() if isinstance(m, Cancel)
                        else rt.set_seat(m.seat, m.kind, m.bot), ident)
    elif isinstance(m, Leave):
        if conn.seat is None:
            conn.error("not_seated", "spectators have no seat to leave", ident)
            return
        await _or_error(conn, rt.leave(conn.seat), ident)
    elif isinstance(m, Ready):
        if conn.seat is None:
            conn.error("not_seated", "spectators have no seat", ident)
            return
        await _or_error(conn, rt.ready(conn.seat), ident)
    elif isinstance(m, (Chat, React, ChatMode)):
        talk = table_talk.room(rt, settings)
        await _or_error(conn, talk.set_mode(conn, m.off) if isinstance(m, ChatMode)
                        else talk.post(conn, m.channel, "text" if isinstance(m, Chat) else "react",
                                       m.text if isinstance(m, Chat) else m.code), ident)
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
            conn.error(e.code, e.message, ident, e.reason_code, e.params)
            return
        hub.stats.add(time.perf_counter() - received)


router = APIRouter()


@router.websocket("/ws/{code}")
async def ws_play(ws: WebSocket, code: str):
    st = ws.app.state
    await handle_ws(ws, code, st.hub(), st.settings, st.clients,
                    lambda: getattr(st, "draining", False))
