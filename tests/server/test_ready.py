"""Liveness and readiness (server/http/status.py; docs/deploy.md, "Seeing it: metrics, logs,
health"): `/api/health` says the process answers, `/api/ready` that it can serve players. A
real server on a PostgreSQL database that the test takes away (no new connections, its
connections ended): ready answers 503 and says why while health still answers 200; with the
database back, ready is 200 again. A draining process is not ready; SQLite's readiness has
no listener."""

from __future__ import annotations

import tempfile
import time

import psycopg
from fastapi.testclient import TestClient
from helpers import GUARD, ServerProc, database_url

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits


def wait_ready(srv, status: int) -> dict:
    """/api/ready's answer once it has `status` (GUARD: a hung server, not a budget)."""
    deadline = time.monotonic() + GUARD
    while True:
        r = srv.get("/api/ready")
        if r.status_code == status:
            return r.json()
        assert time.monotonic() < deadline, (r.status_code, r.text)
        time.sleep(0.05)


def test_ready_follows_the_database_health_does_not(request, tmp_path, pg_url):
    url = database_url("postgresql", request, tmp_path)
    name = url.rsplit("/", 1)[1]
    srv = ServerProc(url, log_dir=tmp_path, args=("--bot-workers", "0")).start()
    try:
        body = wait_ready(srv, 200)
        assert body == {"ready": True, "database": "ok", "listener": "ok", "draining": False,
                        "instance": body["instance"]}
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s", (name,))
            down = wait_ready(srv, 503)
            assert down["ready"] is False and down["database"] != "ok", down
            assert "postgresql" not in down["database"] and name not in down["database"]
            assert srv.get("/api/health").status_code == 200           # alive all the same
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        back = wait_ready(srv, 200)
        assert (back["database"], back["listener"]) == ("ok", "ok")
        assert srv.alive()
    finally:
        srv.stop()


def test_draining_is_not_ready_and_sqlite_has_no_listener():
    with tempfile.TemporaryDirectory() as d:
        app = create_app(Settings(database=f"{d}/r.db", announce=False, limits=Limits.off(),
                                  bot_workers=0))
        with TestClient(app) as c:
            r = c.get("/api/ready")
            assert r.status_code == 200
            assert r.json() | {"instance": None} == {"ready": True, "database": "ok",
                                                      "listener": None, "draining": False,
                                                      "instance": None}
            app.state.draining = True
            r = c.get("/api/ready")
            assert r.status_code == 503 and r.json()["draining"] is True
            assert c.get("/api/health").status_code == 200
