"""The server's log lines (server/observe/logs.py, access.py; docs/deploy.md, "Seeing it:
metrics, logs, health"): a real server at `--log-level debug --log-format json`, after a
private table was made, joined and played over WebSockets (a token in the URL and one in an
`auth` message), an account signed up and a wrong password tried: every line is one JSON
object with its time in UTC, the access lines name method, masked path, status, duration and
the request id the response carried, and no table code, token or password appears anywhere.
The request id of a trusted proxy is taken, anybody else's is not; the text format is one
line a record, with paths masked in any message."""

from __future__ import annotations

import io
import json
import logging
import tempfile
from datetime import datetime

from fastapi.testclient import TestClient
from helpers import Client, ServerProc, database_url
from helpers import run_async as run

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits
from cardtable.server.observe import logs

PASSWORD = "correct horse battery staple 42"


def test_json_lines_without_codes_tokens_or_passwords(request, tmp_path):
    db = database_url("sqlite", request, tmp_path)
    srv = ServerProc(db, log_dir=tmp_path, args=(
        "--log-format", "json", "--log-level", "debug", "--trusted-proxies", "127.0.0.1",
        "--bot-workers", "0")).start()
    try:
        r = srv.post("/api/accounts", {"name": "Carol", "password": PASSWORD})
        assert r.status_code == 201, r.text
        assert srv.post("/api/session", {"name": "Carol", "password": PASSWORD + "x"}
                        ).status_code == 401
        out = srv.create(game="abluxxen", variant="duel", name="Ann", public=False)
        code, ta = out["table"]["code"], out["join"]["token"]
        joined = srv.post(f"/api/tables/{code}/join", {"name": "Bob", "seat": None})
        assert joined.status_code == 200
        tb = joined.json()["token"]
        for path in (f"/t/{code}", f"/api/tables/{code}", f"/replay/{code}",
                     f"/api/tables/{code.lower()}/record?token={ta}"):       # 409: not over
            srv.get(path)
        proxied = srv.get("/api/health", headers={"X-Request-ID": "nginx-5f0c9a",
                                                  "X-Forwarded-For": "203.0.113.5"})
        assert proxied.headers["x-request-id"] == "nginx-5f0c9a"

        async def play():
            ann = await Client(srv.ws_base, code, ta).connect()           # ?token= in the URL
            bob = Client(srv.ws_base, code)
            bob.url = f"{srv.ws_base}/ws/{code}?auth=1"                  # the token in a message
            await bob.connect()
            await bob.send({"type": "auth", "token": tb})
            await bob.wait_for(lambda m: m["type"] == "welcome" and m.get("seat") == 1)
            for n in range(2):
                for c in (ann, bob):
                    await c.wait_for(lambda m: m["type"] == "state" and m["index"] >= n)
                mover = ann if ann.last_state()["legal"] else bob
                st = mover.last_state()
                a = await mover.reply({"type": "decide", "decision": st["legal"][0],
                                       "index": st["index"]}, kinds=("ack", "error"))
                assert a["type"] == "ack", a
            await ann.send({"type": "chat", "channel": "table", "text": f"my code is {code}"})
            await bob.wait_for(lambda m: m["type"] == "chat")
            await ann.close()
            await bob.close()
        run(play())
        plain = srv.get("/api/tables")
    finally:
        srv.stop()
    text = "".join(f.read_text() for f in tmp_path.glob("server-*.log"))
    for secret in (code, code.lower(), ta, tb, PASSWORD):
        assert secret not in text, secret
    records = []
    for line in text.splitlines():
        if line.startswith("cardtable server on "):           # the start line, on stdout
            continue
        rec = json.loads(line)                                  # every log line is JSON
        assert {"time", "level", "logger", "message"} <= set(rec), rec
        assert rec["time"].endswith("Z") and datetime.fromisoformat(rec["time"])
        records.append(rec)
    access = [r for r in records if r["logger"] == "cardtable.access"]
    paths = {(r["method"], r["path"], r["status"]) for r in access}
    for want in (("POST", "/api/accounts", 201), ("POST", "/api/session", 401),
                 ("POST", "/api/tables", 201), ("POST", "/api/tables/-/join", 200),
                 ("GET", "/t/-", 200), ("GET", "/api/tables/-", 200), ("GET", "/replay/-", 200),
                 ("GET", "/api/tables/-/record", 409), ("WS", "/ws/-", 101)):
        assert want in paths, (want, sorted(paths))
    assert all(isinstance(r["duration_ms"], float) and r["request_id"] for r in access)
    by_id = {r["request_id"]: r for r in access}
    assert by_id[plain.headers["x-request-id"]]["path"] == "/api/tables"
    assert by_id["nginx-5f0c9a"]["path"] == "/api/health"
    assert any(isinstance(r.get("table_id"), int) for r in access if r["method"] == "WS")


def test_a_request_id_from_anybody_else_is_not_taken():
    """Without --trusted-proxies a client's X-Request-ID is replaced by one of the server's
    own (it would let anybody write what they like into the operator's logs)."""
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
            database=f"{d}/l.db", announce=False, limits=Limits.off(), bot_workers=0))) as c:
        r = c.get("/api/health", headers={"X-Request-ID": "made-up"})
        assert r.headers["x-request-id"] != "made-up" and len(r.headers["x-request-id"]) == 16


def test_text_lines_are_one_a_record_and_masked():
    """The text format: time, level, logger, the request id, the message, a traceback on the
    same line; a table code in a path and a token in a query string masked in any message
    (uvicorn's, a library's)."""
    stream = io.StringIO()
    root, ours = logging.getLogger(), logging.getLogger("cardtable")
    levels = root.level, ours.level
    handler = logs.setup("text", "info", stream)
    try:
        token = logs.REQUEST.set("abc123")
        log = logging.getLogger("cardtable.server.test")
        log.warning('127.0.0.1:5 - "WebSocket /ws/SECRETCODE?token=tok123" 403')
        try:
            raise RuntimeError("GET /api/tables/SECRETCODE/join failed\nsecond line")
        except RuntimeError:
            log.exception("at /t/SECRETCODE and /api/me/games/SECRETCODE/seat")
        logging.getLogger("sqlalchemy.engine").info("SELECT ... ('SECRETCODE',)")   # below
        logs.REQUEST.reset(token)
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        ours.setLevel(levels[1])
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert "SECRETCODE" not in stream.getvalue() and "tok123" not in stream.getvalue()
    first = lines[0].split(" ", 4)
    assert datetime.fromisoformat(first[0]) and first[0].endswith("Z")
    assert first[1:4] == ["WARNING", "cardtable.server.test", "[req=abc123]"]
    assert first[4] == '127.0.0.1:5 - "WebSocket /ws/-" 403'
    assert "/t/- and /api/me/games/-/seat | Traceback" in lines[1]
    assert "/api/tables/-/join failed\\nsecond line" in lines[1]
