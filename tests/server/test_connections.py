"""Raw connections (issue 29, item 1; server/guard/connections.py): a connection that does not complete
its request head in time is closed (slowloris, idle, a half-sent WebSocket upgrade), open
connections are capped per address (an IPv6 /64 counts as one) and in all, a trusted proxy
counts only in all, and normal keep-alive requests and WebSocket games go on unaffected.

Real sockets against real server processes. The timeouts are configured small; every wait ends
at its event (the close, the answer), GUARD is only the deadline of a hung server. Sources
127.0.0.2-127.0.0.9 (Linux routes all of 127/8 to the loopback) stand for distinct clients."""

from __future__ import annotations

import json
import random
import select
import socket
import time

import pytest
import websockets

from helpers import GUARD, HOST, Client, ServerProc, assert_clean_log, play, run_async

from cardtable.server.guard.netaddr import addr_group

HEAD = ("GET /api/health HTTP/1.1\r\nHost: t\r\n"
        "Connection: keep-alive\r\n\r\n").encode()


def _connect(port: int, source: str = HOST) -> socket.socket:
    s = socket.create_connection((HOST, port), timeout=GUARD, source_address=(source, 0))
    return s


def _closed_by_server(s: socket.socket, deadline: float) -> bool:
    """Wait until the server closes `s` (EOF or reset): True; False at the deadline."""
    while time.monotonic() < deadline:
        r, _, _ = select.select([s], [], [], max(0.0, deadline - time.monotonic()))
        if not r:
            continue
        try:
            if s.recv(65536) == b"":
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def _response(s: socket.socket) -> tuple[int, dict, bytes]:
    """Read one HTTP response (with Content-Length) from `s`: status, headers, body."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        assert chunk, f"connection closed before a response: {buf!r}"
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in
               (line.partition(":") for line in lines[1:])}
    n = int(headers.get("content-length", "0"))
    while len(body) < n:
        chunk = s.recv(65536)
        assert chunk, "connection closed within a response body"
        body += chunk
    return int(lines[0].split()[1]), headers, body


def _get(port: int, source: str = HOST, sock: socket.socket | None = None
         ) -> tuple[int, dict, bytes]:
    s = sock or _connect(port, source)
    try:
        s.sendall(HEAD)
        return _response(s)
    finally:
        if sock is None:
            s.close()


def _until_served(port: int, source: str) -> None:
    """Poll (a fresh connection each time) until a request from `source` gets 200: the server
    has counted the closed connections out."""
    deadline = time.monotonic() + GUARD
    while True:
        try:
            if _get(port, source)[0] == 200:
                return
        except (OSError, AssertionError):
            pass
        assert time.monotonic() < deadline, f"{source} is still refused"
        time.sleep(0.05)


# -- a short head timeout ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("quick")
    srv = ServerProc(str(tmp / "q.db"), log_dir=tmp,
                     args=("--head-timeout", "0.5", "--keep-alive", "30")).start()
    yield srv
    srv.stop()
    assert_clean_log(tmp)


def test_slowloris_is_closed(quick):
    s = _connect(quick.port)
    s.sendall(b"GET /api/health HTTP/1.1\r\n")
    deadline, closed, n = time.monotonic() + GUARD, False, 0
    try:
        while not closed and time.monotonic() < deadline:
            try:
                s.sendall(f"X-Slow-{n}: x\r\n".encode())   # a header line, never the end
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            n += 1
            # the pace of the attack (0.1 s a line), which is also the wait for the close
            closed = _closed_by_server(s, min(deadline, time.monotonic() + 0.1))
    finally:
        s.close()
    assert closed, f"a request head still open after {n} header lines"


def test_idle_connection_is_closed(quick):
    with _connect(quick.port) as s:
        assert _closed_by_server(s, time.monotonic() + GUARD)


def test_half_sent_websocket_upgrade_is_closed(quick):
    with _connect(quick.port) as s:
        s.sendall(b"GET /ws/ABCDEFGH HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\n"
                  b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n")     # no end
        assert _closed_by_server(s, time.monotonic() + GUARD)


def test_keep_alive_and_websocket_games_are_unaffected(quick):
    # keep-alive: three requests one after the other on one connection
    with _connect(quick.port) as s:
        for _ in range(3):
            status, headers, body = _get(quick.port, sock=s)
            assert status == 200 and json.loads(body)["ok"] is True
            assert headers.get("connection") != "close"

    async def main():
        out = quick.create(game="abluxxen", variant="basic", players=3, name="Ann", seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "random"}])
        code, token = out["table"]["code"], out["join"]["token"]
        ann = await Client(quick.ws_base, code, token, since=0).connect()
        # a connection left idle is closed meanwhile: the WebSocket has outlived the head
        # timeout, and goes on
        with _connect(quick.port) as idle:
            assert _closed_by_server(idle, time.monotonic() + GUARD)
        await play(ann, "abluxxen", random.Random(3))
        assert ann.last_state()["status"] == "over"
        pong = await ann.reply({"type": "ping", "id": "p1"}, kinds=("pong",))
        assert pong["type"] == "pong"
        assert not ann.errors()
        await ann.close()

    run_async(main())


# -- caps -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("capped")
    srv = ServerProc(str(tmp / "c.db"), log_dir=tmp, args=(
        "--client-limits", "on", "--head-timeout", "60", "--keep-alive", "60",
        "--connections-per-address", "4", "--max-connections", "8",
        "--trusted-proxies", "127.0.0.2")).start()
    srv.tmp = tmp
    yield srv
    srv.stop()
    assert_clean_log(tmp)


def test_connections_per_address(capped):
    held = [_connect(capped.port, "127.0.0.3") for _ in range(4)]
    try:
        assert _get(capped.port, "127.0.0.4")[0] == 200          # another address is served
        with _connect(capped.port, "127.0.0.3") as fifth:
            status, headers, body = _response(fifth)              # answered before asking
            assert status == 503 and headers["connection"] == "close"
            assert json.loads(body) == {
                "detail": "too many connections from your address: try again in a moment",
                "error": "connections", "params": {"most": 4}}
            assert _closed_by_server(fifth, time.monotonic() + GUARD)
        # the held connections still work
        assert all(_get(capped.port, sock=s)[0] == 200 for s in held)
    finally:
        for s in held:
            s.close()
    _until_served(capped.port, "127.0.0.3")                     # their slots are free again


def test_trusted_proxy_counts_only_in_all_and_is_warned_about_once(capped):
    log = next(capped.tmp.glob("server-*.log"))
    warning = "carries no X-Forwarded-For"
    # 7 connections of the proxy (more than 4 per address), each with a request without
    # X-Forwarded-For, kept open
    proxy = [_connect(capped.port, "127.0.0.2") for _ in range(7)]
    other = []
    try:
        assert all(_get(capped.port, sock=s)[0] == 200 for s in proxy)
        other.append(_connect(capped.port, "127.0.0.5"))           # the 8th in all
        assert _get(capped.port, sock=other[0])[0] == 200
        with _connect(capped.port, "127.0.0.6") as ninth:
            status, _, body = _response(ninth)
            assert status == 503 and json.loads(body)["error"] == "busy"
    finally:
        for s in proxy + other:
            s.close()
    _until_served(capped.port, "127.0.0.6")
    assert log.read_text().count(warning) == 1, log.read_text()


def _held(port: int, source: str, n: int) -> list[socket.socket]:
    """`n` connections from `source`, each with a request answered (so each is counted and
    idle now)."""
    held = [_connect(port, source) for _ in range(n)]
    assert all(_get(port, sock=s)[0] == 200 for s in held)
    return held


def _closed(socks: list[socket.socket]) -> list[socket.socket]:
    """Those of `socks` the server has closed (a poll of each: no waiting)."""
    out = []
    for s in socks:
        r, _, _ = select.select([s], [], [], 0)
        if r:
            try:
                if s.recv(65536) == b"":
                    out.append(s)
            except (ConnectionResetError, BrokenPipeError):
                out.append(s)
    return out


def _wait_closed(socks: list[socket.socket], n: int) -> list[socket.socket]:
    """Wait until the server has closed `n` of `socks` (a guard against a hang only)."""
    deadline, gone = time.monotonic() + GUARD, []
    while len(gone) < n:
        assert time.monotonic() < deadline, f"{len(gone)} of {n} connections closed"
        gone += _closed([s for s in socks if s not in gone])
        if len(gone) < n:
            select.select([s for s in socks if s not in gone], [], [], 0.05)
    return gone


def test_a_full_server_keeps_room_for_a_newcomer(capped):
    """Two addresses hold every one of the 8 connections in all: a normal client used to be
    refused (`503 busy`, 0 of 57 requests in 30 s with 13 addresses on the default caps). Now
    the newcomer takes the place of a connection of the client holding the most; a client
    that already holds as many as the others is refused."""
    a = _held(capped.port, "127.0.0.3", 4)
    b = _held(capped.port, "127.0.0.4", 4)
    newcomers = []
    try:
        newcomers.append(_connect(capped.port, "127.0.0.7"))
        assert _get(capped.port, sock=newcomers[0])[0] == 200        # served, kept open
        assert len(_wait_closed(a + b, 1)) == 1                      # one of theirs went
        newcomers.append(_connect(capped.port, "127.0.0.8"))
        assert _get(capped.port, sock=newcomers[1])[0] == 200
        gone = _wait_closed(a + b, 2)
        assert len([s for s in gone if s in a]) == 1 == len([s for s in gone if s in b])
        # 3 + 3 + 1 + 1: nobody holds two more than the attackers: they are refused
        with _connect(capped.port, "127.0.0.3") as more:
            status, _, body = _response(more)
            assert status == 503 and json.loads(body)["error"] == "busy"
        assert all(_get(capped.port, sock=s)[0] == 200 for s in newcomers)
    finally:
        for s in a + b + newcomers:
            s.close()
    _until_served(capped.port, "127.0.0.3")


def test_connections_that_carry_nothing_useful_go_first(capped):
    """Of a client's connections the idle ones make room for newcomers first, then those
    that carry nothing useful (a spectator's WebSocket); a seat's WebSocket is kept, though it
    is the client's oldest connection. A client is never cut below a newcomer's share."""
    from websockets.sync.client import connect as ws_connect

    out = capped.create(game="abluxxen", variant="basic", players=3, name="Ann", seats=[
        {"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}])
    code, token = out["table"]["code"], out["join"]["token"]
    url = f"{capped.ws_base}/ws/{code}"
    held, newcomers = [], []
    with ws_connect(f"{url}?token={token}", proxy=None, open_timeout=GUARD,
                    sock=_connect(capped.port, "127.0.0.3")) as seat, \
            ws_connect(url, proxy=None, open_timeout=GUARD,
                       sock=_connect(capped.port, "127.0.0.3")) as spectator:
        try:
            assert json.loads(seat.recv(timeout=GUARD))["type"] == "welcome"
            assert json.loads(spectator.recv(timeout=GUARD))["type"] == "welcome"
            held = _held(capped.port, "127.0.0.3", 2) + _held(capped.port, "127.0.0.4", 4)
            for i in range(5):                     # each takes an idle connection's place
                newcomers.append(_connect(capped.port, f"127.0.0.{10 + i}"))
                assert _get(capped.port, sock=newcomers[-1])[0] == 200
                _wait_closed(held, i + 1)
            # 127.0.0.3 holds its two WebSockets, 127.0.0.4 one idle connection: the next
            # newcomer takes the spectator's place
            newcomers.append(_connect(capped.port, "127.0.0.15"))
            assert _get(capped.port, sock=newcomers[-1])[0] == 200
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    spectator.recv(timeout=GUARD)
            assert not _closed(newcomers)
            seat.send(json.dumps({"type": "ping", "id": "still-here"}))
            while (m := json.loads(seat.recv(timeout=GUARD)))["type"] != "pong":
                pass
            assert m["id"] == "still-here"
            # now each client holds one: the next newcomer is refused
            with _connect(capped.port, "127.0.0.20") as late:
                assert _response(late)[0] == 503
        finally:
            for s in held + newcomers:
                s.close()
    _until_served(capped.port, "127.0.0.20")


class _Transport:
    def __init__(self):
        self.aborted = False

    def abort(self):
        self.aborted = True


def test_the_fair_share_counts_an_ipv6_56_as_one_client():
    """One /56 with connections from 8 of its /64s (each within the cap per address) fills the
    cap in all; another client's newcomer takes the place of the /56's idle connection, not
    of its seat's, and the /56 cannot take it back."""
    from cardtable.server.guard.connections import Gate, TrustedProxies

    gate = Gate(8, 4, TrustedProxies(""))
    slots = []
    for i in range(8):
        why, slot = gate.admit(_Transport(), f"2001:db8:5:{i:x}::1")
        assert why is None
        slots.append(slot)
    for slot in slots[:7]:
        slot.useful = True                          # seats' connections, all but the last
    why, mine = gate.admit(_Transport(), "192.0.2.1")
    assert why is None and slots[7].transport.aborted
    assert not any(s.transport.aborted for s in slots[:7])
    assert gate.admit(_Transport(), "2001:db8:5:ff::9") == ("server", None)
    why, _ = gate.admit(_Transport(), "2001:db8:6::1")        # another /56: a useful one goes
    assert why is None and sum(s.transport.aborted for s in slots) == 2
    assert len(gate.open) == 8 and len(gate.clients["2001:db8:5::/56"]) == 6
    gate.release(mine.transport)
    assert len(gate.open) == 7 and "192.0.2.1" not in gate.clients
    # a trusted proxy's connections are never closed for a newcomer
    proxied = Gate(2, 4, TrustedProxies("10.0.0.1"))
    p = [proxied.admit(_Transport(), "10.0.0.1")[1] for _ in range(2)]
    assert proxied.admit(_Transport(), "192.0.2.9") == ("server", None)
    assert not any(s.transport.aborted for s in p)


def test_addr_group():
    assert addr_group("192.0.2.7") == "192.0.2.7"
    assert addr_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert addr_group("2001:db8:1:2:aaaa::1") == addr_group("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert addr_group("2001:db8:1:3::1") != addr_group("2001:db8:1:2::1")
    assert addr_group("fe80::1%eth0") == "fe80::/64"
    assert addr_group("unknown") == "unknown"


# -- trusted proxies: none unless told --------------------------------------------------------
def test_no_proxy_is_trusted_by_default(tmp_path):
    srv = ServerProc(str(tmp_path / "p.db"), log_dir=tmp_path,
                     args=("--client-limits", "on", "--limit", "tables=1")).start()
    try:
        made_up = [srv.post("/api/tables", {"game": "kombio", "players": 2},
                            headers={"X-Forwarded-For": f"10.0.0.{i}"}) for i in (1, 2)]
    finally:
        srv.stop()
    assert made_up[0].status_code == 201, made_up[0].text
    # the second names another address, but comes from the same one: its limit holds
    assert made_up[1].status_code == 429 and made_up[1].json()["error"] == "too_many_tables"
    assert_clean_log(tmp_path)


def test_bad_trusted_proxies_is_one_error(tmp_path):
    import subprocess
    import sys

    from cardtable.cli import serve_cmd
    from cardtable.core.errors import ConfigError

    with pytest.raises(ConfigError, match="'nonsense' is not an address or network"):
        serve_cmd.run_serve("127.0.0.1", 0, str(tmp_path / "a.db"), 0.5, "medium",
                            trusted_proxies="10.0.0.1,nonsense")
    p = subprocess.run([sys.executable, "-m", "cardtable.server", "--port", "0", "--database",
                        str(tmp_path / "b.db"), "--trusted-proxies", "nonsense"],
                       capture_output=True, text=True, timeout=GUARD)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [
        "error: --trusted-proxies: 'nonsense' is not an address or network (give e.g. "
        "10.0.0.5,10.1.0.0/16, * for any, or nothing)"]
    assert not (tmp_path / "a.db").exists() and not (tmp_path / "b.db").exists()
