"""Helpers of the account tests: an app in this process (FastAPI's TestClient) on a fresh
database, and requests that carry exactly the session cookie a test gives (no cookie jar,
so one client can act as several browsers)."""

from __future__ import annotations

import contextlib

from contextlib import contextmanager

from fastapi.testclient import TestClient

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"


@contextmanager
def app_client(database: str, limits: Limits | None = None, client_kw: dict | None = None,
               **settings):
    app = create_app(Settings(database=database, announce=False,
                              limits=limits or Limits.off(), bot_workers=0, bot_delay=0,
                              **settings))
    with TestClient(app, **(client_kw or {})) as client:
        yield Browser(client)


class Browser:
    """Requests as a browser of this site makes them (Origin of the site), each with the
    session cookie `sess` or none."""

    def __init__(self, client: TestClient):
        self.client = client
        self.app = client.app

    def call(self, method: str, path: str, sess: str | None = None, json=None,
             origin: str | None = ORIGIN, headers: dict | None = None):
        h = dict(headers or {})
        if origin is not None:
            h["Origin"] = origin
        if sess is not None:
            h["Cookie"] = f"cardtable_session={sess}"
        self.client.cookies.clear()
        r = self.client.request(method, path, json=json, headers=h)
        self.client.cookies.clear()
        return r

    def sign_up(self, name: str, password: str = PASSWORD, claim=(), **kw):
        r = self.call("POST", "/api/accounts", json={"name": name, "password": password,
                                                     "claim": list(claim)}, **kw)
        return r, session_of(r)

    def log_in(self, name: str, password: str = PASSWORD, claim=(), **kw):
        r = self.call("POST", "/api/session", json={"name": name, "password": password,
                                                    "claim": list(claim)}, **kw)
        return r, session_of(r)

    def guest_table(self, name: str = "Guest", **body) -> tuple[str, str]:
        """A private table of a guest and a bot: (code, the guest's seat token)."""
        body = {"game": "kombio", "public": False, "name": name, "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot"}], **body}
        r = self.call("POST", "/api/tables", json=body, origin=None)
        assert r.status_code == 201, r.text
        j = r.json()
        return j["table"]["code"], j["join"]["token"]


def session_of(r) -> str | None:
    """The session cookie's value a response sets (None: it sets none)."""
    for raw in r.headers.get_list("set-cookie"):
        name, _, rest = raw.partition("=")
        if name in ("cardtable_session", "__Host-cardtable_session"):
            value = rest.split(";")[0].strip('"')
            return value or None
    return None


@contextlib.contextmanager
def spy_on_verify(web):
    """Within the block, record every password hash the app's Argon2 hasher verifies against
    (the list yielded); the hasher still answers as before and is put back afterwards."""
    passwords = web.app.state.accounts.passwords
    real = passwords.hasher
    calls: list = []

    class Spy:
        def verify(self, h, p):
            calls.append(h)
            return real.verify(h, p)

        def __getattr__(self, name):
            return getattr(real, name)
    passwords.hasher = Spy()
    try:
        yield calls
    finally:
        passwords.hasher = real


def accounts_at(url, revision: str, names=("Alma", "Bruno")) -> None:
    """A database upgraded to `revision` with one account per name (ids from 1), written with
    plain SQL as that revision's schema has them: the start of a migration's test."""
    import asyncio
    import time

    import sqlalchemy as sa

    from cardtable.server.guard.security import name_keys
    from cardtable.server.people.passwords import Passwords
    from cardtable.server.store.migrate import upgrade

    upgrade(url, revision)
    engine = sa.create_engine(url.sync_url)
    pw = asyncio.run(Passwords().hash(PASSWORD))
    with engine.begin() as conn:
        for i, name in enumerate(names, 1):
            k1, k2 = name_keys(name)
            conn.execute(sa.text(
                "INSERT INTO accounts (id, name, name_key, name_key2, password_hash, "
                "created_at, password_at) VALUES (:i, :n, :a, :b, :h, :t, :t)"),
                {"i": i, "n": name, "a": k1, "b": k2, "h": pw, "t": time.time()})
    engine.dispose()


def engine_as_server(url):
    """A synchronous engine on `url` whose SQLite connections enforce foreign keys, as the
    server's do (sqlite_pragmas)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url.sync_url)
    if not url.is_postgres:
        sa.event.listen(engine, "connect", lambda c, _: c.execute("PRAGMA foreign_keys=ON"))
    return engine


@contextmanager
def site_with_moderator(database: str, other: str):
    """An app client with two accounts signed up: "Mod", made a moderator through `cardtable
    admin`, and `other`: yields (client, {name: session cookie})."""
    from cardtable.cli.main import main

    with app_client(database) as b:
        sess = {}
        for name in ("Mod", other):
            r, sess[name] = b.sign_up(name)
            assert r.status_code == 201, r.text
        assert main(["admin", "role", "Mod", "moderator", "--reason", "test",
                     "--database", database]) == 0
        yield b, sess


def ws_until(ws, pred) -> dict:
    """Read `ws` until a message satisfies `pred`: that message."""
    while True:
        m = ws.receive_json()
        if pred(m):
            return m
