"""A rolling restart behind the real nginx, and the drain it relies on.

`test_sigterm_drains`: a server process that gets SIGTERM tells each WebSocket client
`reconnect`, closes its connection with 1012 ("service restart") and exits 0 (app.py `drain`,
ws/endpoint.py `Conn.drain`).

`test_rolling_restart_behind_nginx`: two server processes on PostgreSQL behind nginx with the
shipped site file (nginx_helpers.py), light asyncio players (two a table, Abluxxen duel,
deciding after a think time of about a second) connected through nginx with TLS. One process
gets SIGTERM, is started again and answers its health check, then the other. Every client
must see no 502 or 504 (nor any other refusal of its handshake), every decision a client sent
must be answered (acknowledged, or refused with one of the errors of a game that moved on;
one sent while its connection closed is sent again after reconnecting, its `index` makes
that safe: acknowledged again if it had been applied), the acknowledged decisions must be exactly the records' actions (nothing lost,
nothing applied unacknowledged), and every client must be back at its table, its game going
on. `make test` plays 40 tables (80 clients); CARDTABLE_FULL=1 plays 300 (600)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import signal
import socket
import time

import httpx
import websockets
from websockets.exceptions import InvalidStatus

from helpers import GUARD, HOST, Client, ServerProc, assert_clean_log, database_url, run_async
from nginx_helpers import PROXY, Nginx, ensure_nginx, private_duel
from sizes import sample

#: errors a player may get for a decision when the game moved on under it
MOVED_ON = {"stale", "not_your_turn", "game_over"}


def silent_spectator(port: int, code: str) -> socket.socket:
    """A WebSocket spectator of `code` that reads up to its welcome and then nothing more
    (it never answers the close)."""
    s = socket.create_connection((HOST, port), timeout=GUARD)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /ws/{code} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
              "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    got = b""
    while b'"welcome"' not in got:
        chunk = s.recv(4096)
        assert chunk, got
        got += chunk
    assert got.startswith(b"HTTP/1.1 101"), got
    return s


def test_sigterm_drains(tmp_path):
    """Two players at a table of one process (SQLite), and a spectator that stopped reading:
    SIGTERM makes the process tell each to reconnect, close the connections with 1012 and
    exit with status 0, without waiting for the silent one's answer to the close (the drain
    may take 10 minutes here: only what must be sent is waited for)."""
    srv = ServerProc(str(tmp_path / "d.db"), log_dir=tmp_path,
                     args=("--drain-seconds", "600")).start()

    async def main():
        code = srv.create(game="abluxxen", variant="duel")["table"]["code"]
        tokens = [srv.join(code, name)["token"] for name in ("Ann", "Bob")]
        clients = [await Client(srv.ws_base, code, t).connect() for t in tokens]
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "state")
        silent = silent_spectator(srv.port, code)
        srv.proc.send_signal(signal.SIGTERM)
        for c in clients:
            m = await c.wait_for(lambda m: m["type"] == "reconnect")
            assert m["delay_ms"] > 0
            await c._reader
            assert c.close_code == 1012
        try:
            return await asyncio.to_thread(srv.proc.wait, GUARD)
        finally:
            silent.close()

    try:
        assert run_async(main()) == 0
    finally:
        srv.stop()
    assert "draining: 3 connections told to reconnect (0 still sending)" in \
        next(tmp_path.glob("server-*.log")).read_text()
    assert_clean_log(tmp_path)


class Player:
    """A light client of one seat through nginx: connects (again, whenever its connection
    closes, after the delay a `reconnect` message asks for), decides after a think time when
    its state asks it to, and keeps what was answered."""

    def __init__(self, url: str, tls, rng: random.Random, wake: asyncio.Event):
        self.url, self.tls, self.rng, self.wake = url, tls, rng, wake
        self.ws = None
        self.state: dict | None = None
        self.pending: dict | None = None        # a decision sent and not answered yet
        self.acked: list[tuple[int, str]] = []
        self.refused: list[dict] = []
        self.statuses: list[int] = []           # HTTP statuses of refused handshakes
        self.failures: list[str] = []           # handshakes that failed otherwise
        self.connects = 0
        self.resent = 0
        self.again = 0                          # acknowledged again (applied before a close)
        self.reconnects = 0                     # `reconnect` messages received
        self.stopping = False
        self._changed = asyncio.Event()
        self._next_id = 0
        self.trail: list = []                   # what happened, for a failure's message

    async def run(self) -> None:
        think = asyncio.create_task(self._think())
        try:
            while not self.stopping:
                delay = await self._connection()
                if delay and not self.stopping:
                    await asyncio.sleep(self.rng.uniform(0, delay))
        finally:
            think.cancel()
            await asyncio.gather(think, return_exceptions=True)

    async def _connection(self) -> float:
        """One connection, until it closes; the delay (s) before the next one."""
        try:
            ws = await websockets.connect(self.url, ssl=self.tls, proxy=None, max_size=None,
                                          open_timeout=GUARD, compression=None)
        except InvalidStatus as e:
            self.statuses.append(e.response.status_code)
            return 0.2
        except (OSError, websockets.InvalidHandshake, TimeoutError) as e:
            self.failures.append(repr(e))
            return 0.2
        self.connects += 1
        self.trail.append((round(time.monotonic(), 2), "open"))
        self.ws, delay, first = ws, 0.0, True
        try:
            async for raw in ws:
                m = json.loads(raw)
                kind = m["type"]
                if kind in ("ack", "error", "reconnect", "welcome"):
                    self.trail.append((round(time.monotonic(), 2), kind, m.get("id"),
                                       m.get("index"), m.get("decision") or m.get("code")))
                if kind == "state":
                    self.state = m
                    if first and self.pending is not None and \
                            self.pending["on"] != self.connects:  # unanswered when it closed
                        self.resent += 1
                        await self._send(self.pending)
                    first = False
                elif kind == "ack" and self.pending and m["id"] == self.pending["id"]:
                    self.acked.append((m["index"], m["decision"]))
                    self.again += bool(m.get("again"))
                    self.pending = None
                elif kind == "error" and self.pending and m["id"] == self.pending["id"]:
                    self.refused.append(m)
                    self.pending = None
                elif kind == "reconnect":
                    self.reconnects += 1
                    delay = m["delay_ms"] / 1000
                self._changed.set()
                self.wake.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.trail.append((round(time.monotonic(), 2), "closed", ws.close_code))
            self.ws = None
            self.wake.set()
        return delay or 0.2

    async def _send(self, decision: dict) -> None:
        self._next_id += 1
        decision["id"] = self._next_id
        decision["on"] = self.connects            # the connection it was sent on
        self.trail.append((round(time.monotonic(), 2), "send", self._next_id,
                           decision["index"], decision["decision"]))
        try:
            await self.ws.send(json.dumps({"type": "decide", "id": decision["id"],
                                           "index": decision["index"],
                                           "decision": decision["decision"]}))
        except (websockets.ConnectionClosed, AttributeError):
            pass                                  # sent again after reconnecting

    async def _think(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            st = self.state
            if (self.stopping or self.pending is not None or st is None or not st["legal"]
                    or st["status"] != "playing"):
                continue
            await asyncio.sleep(self.rng.uniform(0.5, 1.5))     # the player's think time
            if self.state is not st or self.ws is None or self.stopping:
                self._changed.set()
                continue
            self.pending = {"decision": self.rng.choice(st["legal"]), "index": st["index"]}
            await self._send(self.pending)

    def connected(self) -> bool:
        return self.ws is not None and self.state is not None

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()


async def wait_until(wake: asyncio.Event, pred, what: str) -> None:
    """Wait until `pred()` holds, looking again whenever a client hears something (GUARD
    without anything heard: the test fails)."""
    while not pred():
        wake.clear()
        try:
            await asyncio.wait_for(wake.wait(), GUARD)
        except TimeoutError:
            raise AssertionError(f"still waiting for {what}") from None


def test_rolling_restart_behind_nginx(request, tmp_path):
    ensure_nginx()
    db = database_url("postgresql", request, tmp_path)
    args = ("--trusted-proxies", PROXY, "--drain-seconds", "10")
    procs = [ServerProc(db, log_dir=tmp_path, args=args).start()]
    procs.append(ServerProc(db, log_dir=tmp_path, args=args).start())
    nginx = Nginx(tmp_path, [p.port for p in procs]).start()
    tables = sample(300, 40)

    async def main():
        wake = asyncio.Event()
        tls = nginx.tls()
        async with httpx.AsyncClient(base_url=nginx.base, verify=tls, trust_env=False,
                                     timeout=GUARD) as http:
            made = []
            for i in range(0, tables, 20):
                made += await asyncio.gather(*(private_duel(http) for _ in range(min(20, tables - i))))
        rng = random.Random(44)
        players = {(code, seat): Player(f"{nginx.ws_base}/ws/{code}?token={tok}", tls,
                                        random.Random(rng.random()), wake)
                   for code, toks in made for seat, tok in enumerate(toks)}
        runs = [asyncio.create_task(p.run()) for p in players.values()]

        def acks() -> dict[str, int]:
            out: dict[str, int] = {}
            for (code, _), p in players.items():
                out[code] = out.get(code, 0) + len(p.acked)
            return out

        over = {code for (code, _), p in players.items()
                if p.state is not None and p.state["status"] == "over"}

        def all_moved_on(since: dict[str, int]) -> bool:
            """Every client connected, every table two decisions further than `since` (or
            its game over)."""
            now = acks()
            over.update(code for (code, _), p in players.items()
                        if p.state is not None and p.state["status"] == "over")
            return all(p.connected() for p in players.values()) and \
                all(now[c] >= since.get(c, 0) + 2 or c in over for c in now)

        t0 = time.monotonic()
        try:
            await wait_until(wake, lambda: all_moved_on({}), "every table playing")
            print(f"\nplaying after {time.monotonic() - t0:.1f} s")
            for i in range(len(procs)):
                before = acks()
                old = procs[i]
                old.proc.send_signal(signal.SIGTERM)
                assert await asyncio.to_thread(old.proc.wait, GUARD) == 0
                old.stop()
                procs[i] = await asyncio.to_thread(
                    ServerProc(db, port=old.port, log_dir=tmp_path, args=args).start)
                print(f"process {i} restarted after {time.monotonic() - t0:.1f} s")
                await wait_until(wake, lambda: all_moved_on(before),
                                 f"every client back at its table after restarting {i}")
                print(f"every table went on after {time.monotonic() - t0:.1f} s")
            for p in players.values():
                p.stopping = True
            await wait_until(wake, lambda: all(p.pending is None for p in players.values()),
                             "an answer to every decision sent")
        finally:
            for p in players.values():
                await p.close()
            await asyncio.gather(*runs, return_exceptions=True)
        return made, players

    try:
        made, players = run_async(main())
    finally:
        nginx.stop()
        for p in procs:
            p.stop()
    everyone = list(players.values())
    assert [s for p in everyone for s in p.statuses] == [], "handshakes refused"
    assert [f for p in everyone for f in p.failures] == [], "handshakes failed"
    assert all(p.reconnects >= 1 for p in everyone)          # each was on a drained process
    refused = [e for p in everyone for e in p.refused]
    assert all(e["code"] in MOVED_ON for e in refused), refused
    import psycopg

    with psycopg.connect(db) as conn:             # the records, as the database keeps them
        rows = conn.execute("SELECT t.code, a.idx, a.text, a.by FROM actions a JOIN "
                            "game_tables t ON t.id = a.table_id ORDER BY a.idx").fetchall()
    assert {by for *_, by in rows} <= {"player"}, "a decision nobody sent"
    for code, _ in made:
        # an ack's index is the state's after the decision: the action's index + 1
        actions = [(idx + 1, text) for c, idx, text, _ in rows if c == code]
        acked = sorted(a for (c, _), p in players.items() if c == code for a in p.acked)
        if acked != actions:
            (tmp_path / "trail.json").write_text(json.dumps(
                [acked, actions, [p.trail for (c, _), p in players.items() if c == code]]))
        assert acked == actions, (code, f"what happened: {tmp_path / 'trail.json'}")
    assert_clean_log(tmp_path)
    print(f"\n{len(everyone)} clients, {sum(len(p.acked) for p in everyone)} decisions "
          f"acknowledged, {len(refused)} refused, {sum(p.resent for p in everyone)} sent again "
          f"after reconnecting ({sum(p.again for p in everyone)} of them acknowledged again), "
          f"{sum(p.connects for p in everyone)} connections")
