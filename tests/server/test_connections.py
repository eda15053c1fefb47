"""Raw connections (issue 29, item 1; server/connections.py): a connection that does not complete
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

from helpers import GUARD, HOST, Client, ServerProc, assert_clean_log, play, run_async

from cardtable.server.netaddr import addr_group

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
