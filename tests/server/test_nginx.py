"""The documented proxy setup, for real (issue 29, item 4): Debian's nginx (scripts/ensure-nginx.sh)
in front of a server, configured with the nginx block of docs/deploy.md itself (read from the
file, so the documentation cannot drift from what is tested; only the upstream's address and
the listening port are this test's). The server trusts nginx and must see each client's own address through it, on HTTP and on WebSocket: the limits per
address count the client, not nginx.

Clients connect to nginx from 127.0.0.3 and 127.0.0.4 (Linux routes all of 127/8 to the
loopback); nginx connects to the server from 127.0.0.2 (`proxy_bind`, outside the documented
block), which the server trusts (`--trusted-proxies 127.0.0.2`)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time

import httpx
import pytest
import websockets

from helpers import GUARD, HOST, ROOT, ServerProc, assert_clean_log, free_port, run_async

NGINX = "/usr/sbin/nginx"
A, B, C = "127.0.0.3", "127.0.0.4", "127.0.0.5"
PROXY = "127.0.0.2"             # nginx's address towards the server (the test's health checks
                                # come from 127.0.0.1, not through the proxy)


def documented_block() -> str:
    """The first ```nginx block of docs/deploy.md."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    m = re.search(r"```nginx\n(.*?)```", text, re.S)
    assert m, "docs/deploy.md has no nginx block"
    return m.group(1)


def nginx_conf(tmp, upstream_port: int, port: int) -> str:
    block = documented_block()
    block, n = re.subn(r"upstream cardtable \{[^}]*\}",
                       f"upstream cardtable {{ server {HOST}:{upstream_port}; }}", block)
    assert n == 1, block
    block, n = re.subn(r"listen [^;]*;", f"listen {HOST}:{port};", block)
    assert n == 1, block
    # the documented access log, written where this test can read it
    block, n = re.subn(r"access_log /\S+ ", f"access_log {tmp}/cardtable.access.log ", block)
    assert n <= 1, block
    temp = " ".join(f"{k}_temp_path {tmp}/{k};"
                    for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"worker_processes 1;\npid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\n"
            f"events {{ worker_connections 256; }}\n"
            # nginx's own default access log (the combined format) unless the block has one
            f"http {{\n access_log {tmp}/default.access.log;\n proxy_bind {PROXY};\n {temp}\n"
            f"{block}\n}}\n")


@pytest.fixture(scope="module")
def nginx_and_server(tmp_path_factory):
    if subprocess.run(["sh", str(ROOT / "scripts" / "ensure-nginx.sh")]).returncode != 0:
        pytest.fail("scripts/ensure-nginx.sh could not install nginx")
    tmp = tmp_path_factory.mktemp("nginx")
    srv = ServerProc(str(tmp / "n.db"), log_dir=tmp, args=(
        "--client-limits", "on", "--trusted-proxies", PROXY,
        "--limit", "connections=1", "--limit", "tables=1")).start()
    port = free_port()
    (tmp / "nginx.conf").write_text(nginx_conf(tmp, srv.port, port))
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-e", str(tmp / "error.log"),
                             "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + GUARD
        while True:
            assert proc.poll() is None, f"nginx exited: {proc.stderr.read().decode()}"
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        yield srv, f"http://{HOST}:{port}", f"ws://{HOST}:{port}", tmp
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        srv.stop()
        shutil.rmtree(tmp / "proxy", ignore_errors=True)
    assert_clean_log(tmp)


def _http(source: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), trust_env=False,
                        timeout=GUARD)


def test_documented_nginx_block_passes_each_clients_address(nginx_and_server):
    srv, base, ws_base, tmp = nginx_and_server
    with _http(A) as a, _http(B) as b:
        # HTTP: one unfinished table per address (--limit tables=1)
        r = a.post(base + "/api/tables", json={"game": "kombio", "players": 2})
        assert r.status_code == 201, r.text
        code = r.json()["table"]["code"]
        r = a.post(base + "/api/tables", json={"game": "kombio", "players": 2},
                   headers={"X-Forwarded-For": "10.9.9.9"})      # a made-up address: nginx
        assert r.status_code == 429, r.text                      # appends the real one
        assert r.json()["error"] == "too_many_tables"
        r = b.post(base + "/api/tables", json={"game": "kombio", "players": 2})
        assert r.status_code == 201, r.text                      # another client: its own

    async def connect(source: str):
        ws = await websockets.connect(f"{ws_base}/ws/{code}", proxy=None, max_size=None,
                                      open_timeout=GUARD, local_addr=(source, 0))
        return ws, json.loads(await ws.recv())

    async def main():
        # WebSocket: one open connection per address (--limit connections=1)
        wa, ma = await connect(A)
        wb, mb = await connect(B)                                 # nginx's address: refused
        wa2, ma2 = await connect(A)
        with pytest.raises(websockets.ConnectionClosed):
            await wa2.recv()
        for w in (wa, wb):
            await w.close()
        return ma, mb, ma2, wa2.close_code

    ma, mb, ma2, code2 = run_async(main())
    assert ma["type"] == "welcome"
    assert mb["type"] == "welcome", mb                           # B counts as itself, not nginx
    assert ma2["code"] == "rate_limited" and code2 == 4429       # A's second: A's limit
    # every request through nginx named its client: no warning about a bare proxy request
    log = next(tmp.glob("server-*.log")).read_text()
    assert "carries no X-Forwarded-For" not in log, log


def test_the_documented_access_log_has_no_table_codes_and_no_tokens(nginx_and_server):
    """A private table's code is its only key and a seat token its seat: the documented block's
    access log (its own format) keeps neither, whatever the route (the page, the API, the
    WebSocket with ?token=), yet logs every request. nginx's default format logged both."""
    srv, base, ws_base, tmp = nginx_and_server
    with _http(C) as a:                              # A and B made their one table above
        r = a.post(base + "/api/tables", json={"game": "kombio", "players": 2,
                                               "public": False, "name": "Ann"})
        assert r.status_code == 201, r.text
        code, token = r.json()["table"]["code"], r.json()["join"]["token"]
        for path in (f"/t/{code}", f"/replay/{code}", f"/api/tables/{code}",
                     f"/api/tables/{code}/chat?token={token}",
                     f"/api/tables/{code.lower()}/watch"):
            a.get(base + path)
        a.post(base + f"/api/me/games/{code}/seat", json={})

    async def ws():
        async with websockets.connect(f"{ws_base}/ws/{code}?token={token}", proxy=None,
                                      open_timeout=GUARD, local_addr=(C, 0)) as w:
            await w.recv()

    run_async(ws())
    # nginx writes a request's line when it is done with it: the WebSocket's when nginx has
    # closed it, which may be a moment after the client did
    deadline = time.monotonic() + GUARD
    while True:
        logs = {p.name: p.read_text() for p in tmp.glob("*.access.log")}
        text = "".join(logs.values())
        if sum(line.startswith(C + " ") for line in text.splitlines()) >= 8:
            break                                    # 7 HTTP requests and the WebSocket
        assert time.monotonic() < deadline, logs
        time.sleep(0.05)
    for secret in (code, code.lower(), token):
        assert secret not in text, (secret, logs)
    assert '"GET /t/-"' in text and '"GET /ws/-"' in text, logs
    assert '"GET /api/tables/-/chat"' in text and '"POST /api/me/games/-/seat"' in text, logs
