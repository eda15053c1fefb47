"""The interactive API docs (issue 29): /docs and /redoc loaded Swagger UI and ReDoc from a
CDN with a policy allowing inline code, on the origin where the players' seat tokens live.
They are off by default (`404`) and no response of the server allows inline code or names a
CDN; `--api-docs` turns them on for a developer (their own policy, on those two pages only).
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager

from fastapi.testclient import TestClient

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits

#: the CDN hosts FastAPI's docs pages load from
CDNS = ("cdn.jsdelivr.net", "cdn.redoc.ly", "fastapi.tiangolo.com", "fonts.googleapis.com")
#: a sample of what the server answers: pages, static files, the API, errors, the old docs
PATHS = ["/", "/t/ABCDEFGH", "/replay/ABCDEFGH", "/rules/kombio", "/static/js/app.js",
         "/api/games", "/api/health", "/api/tables", "/api/tables/NOSUCH", "/openapi.json",
         "/docs", "/redoc", "/docs/oauth2-redirect", "/no/such/page", "/api/no/such"]


@contextmanager
def lobby(api_docs: bool):
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
            database=f"{d}/docs.db", announce=False, limits=Limits.off(), bot_workers=0,
            api_docs=api_docs))) as client:
        yield client


def _answers(lobby):
    for path in PATHS:
        yield path, lobby.get(path)
    r = lobby.post("/api/tables", json={"game": "kombio", "public": False, "name": "Ann"})
    assert r.status_code == 201, r.text
    yield "POST /api/tables", r
    yield "POST bad", lobby.post("/api/tables", json={"game": "chess"})


def test_no_docs_pages_and_nothing_from_a_cdn_by_default():
    with lobby(api_docs=False) as client:
        _check_default(client)


def _check_default(lobby) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        r = lobby.get(path)
        assert r.status_code == 404, path
        assert "swagger-ui" not in r.text and "redoc.standalone" not in r.text, path
    assert lobby.get("/openapi.json").json()["info"]["title"] == "cardtable"
    for what, r in _answers(lobby):
        csp = r.headers["content-security-policy"]
        assert "'unsafe-inline'" not in csp and "script-src 'self';" in csp, what
        for host in CDNS:
            assert host not in csp and host not in r.text, (what, host)


def test_api_docs_on_request_with_their_own_policy():
    with lobby(api_docs=True) as client:
        _check_docs_on(client)


def _check_docs_on(lobby) -> None:
    for path, marker in (("/docs", "swagger-ui"), ("/redoc", "redoc")):
        r = lobby.get(path)
        assert r.status_code == 200 and marker in r.text, path
        assert "https://cdn.jsdelivr.net" in r.headers["content-security-policy"]
    for what, r in _answers(lobby):          # every other answer keeps the strict policy
        if what in ("/docs", "/redoc"):
            continue
        csp = r.headers["content-security-policy"]
        assert "'unsafe-inline'" not in csp and "cdn.jsdelivr.net" not in csp, what
