"""The shipped proxy setup, for real: Debian's nginx (scripts/ensure-nginx.sh) in front of a
server, configured with the repository's own files, deploy/nginx/cardtable.conf and the main
context of deploy/nginx/nginx.conf (nginx_helpers.py: only addresses, ports and paths are
this test's), with TLS on loopback. The server trusts nginx and must see each client's own
address through it, on HTTP and on WebSocket: the limits per address count the client, not
nginx.

Clients connect to nginx from 127.0.0.3 and 127.0.0.4 (Linux routes all of 127/8 to the
loopback); nginx connects to the server from 127.0.0.2 (`proxy_bind`, outside the shipped
file), which the server trusts (`--trusted-proxies 127.0.0.2`)."""

from __future__ import annotations

import json
import time

import httpx
import pytest
import websockets

from helpers import GUARD, ServerProc, assert_clean_log, free_port, run_async
from nginx_helpers import MAIN, PROXY, SITE, Nginx, directive, ensure_nginx

A, B, C = "127.0.0.3", "127.0.0.4", "127.0.0.5"


@pytest.fixture(scope="module")
def nginx_and_server(tmp_path_factory):
    ensure_nginx()
    tmp = tmp_path_factory.mktemp("nginx")
    srv = ServerProc(str(tmp / "n.db"), log_dir=tmp, args=(
        "--client-limits", "on", "--trusted-proxies", PROXY,
        "--limit", "connections=1", "--limit", "tables=1")).start()
    # the site's upstream has two processes: the second is a port nobody listens on (a
    # process that is down), which nginx must pass over without an error
    nginx = Nginx(tmp, [srv.port, free_port()]).start()
    try:
        yield srv, nginx, tmp
    finally:
        nginx.stop()
        srv.stop()
    assert_clean_log(tmp)


def test_the_shipped_files_say_what_a_rolling_restart_and_scale_need():
    """The site and main files hold what docs/deploy.md promises (the other tests run them)."""
    site, main = SITE.read_text(), MAIN.read_text()
    assert "proxy_set_header Host $http_host;" in site and "$host;" not in site
    assert site.count("max_fails=0") >= 2
    assert directive(site, "proxy_next_upstream") == "error timeout http_502 http_503"
    assert directive(site, "hash") == "$cardtable_table consistent"
    assert int(directive(site, "keepalive")) > 0
    assert int(directive(main, "worker_connections")) >= 8192
    assert int(directive(main, "worker_rlimit_nofile")) > 2 * int(
        directive(main, "worker_connections"))


def _http(source: str, nginx: Nginx) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source, verify=nginx.tls()),
                        trust_env=False, timeout=GUARD)


def test_the_shipped_site_passes_each_clients_address(nginx_and_server):
    srv, nginx, tmp = nginx_and_server
    base, ws_base = nginx.base, nginx.ws_base
    with _http(A, nginx) as a, _http(B, nginx) as b:
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
                                      open_timeout=GUARD, local_addr=(source, 0),
                                      ssl=nginx.tls())
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


def test_the_shipped_access_log_has_no_table_codes_and_no_tokens(nginx_and_server):
    """A private table's code is its only key and a seat token its seat: the shipped site's
    access log (its own format) keeps neither, whatever the route (the page, the API, the
    WebSocket with ?token=), yet logs every request. nginx's default format logged both."""
    srv, nginx, tmp = nginx_and_server
    base, ws_base = nginx.base, nginx.ws_base
    with _http(C, nginx) as a:                       # A and B made their one table above
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
                                      open_timeout=GUARD, local_addr=(C, 0),
                                      ssl=nginx.tls()) as w:
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


def test_sign_up_and_log_in_through_the_site_on_a_tls_port_other_than_443(nginx_and_server):
    """The browser's Origin names the port (https://127.0.0.1:PORT); the server compares it
    with the Host it is given: nginx's $host drops the port (and sign-up was refused as
    cross-origin), the site passes $http_host. The session cookie is the TLS one."""
    srv, nginx, tmp = nginx_and_server
    origin = nginx.base
    body = {"name": "Tls Ann", "password": "a long enough password"}
    with _http("127.0.0.6", nginx) as c:
        r = c.post(origin + "/api/accounts", json=body, headers={"Origin": origin})
        assert r.status_code == 201, r.text
        assert "__Host-cardtable_session=" in r.headers.get("set-cookie", ""), r.headers
        c.cookies.clear()
        r = c.post(origin + "/api/session", json=body, headers={"Origin": origin})
        assert r.status_code == 200, r.text
