"""Migration 0004 (accounts, issue 32) on SQLite and PostgreSQL: a database of today's
schema (revision 0003) with a finished game and a running one upgrades in place; both are
there afterwards, the finished one replays to the same record, the running one is played
on, and a guest's seat there can be claimed by a new account."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import alembic_config, upgrade

#: the columns of revision 0003 (the seats had no account then)
OLD = {"game_tables": ("id", "code", "game", "settings", "base", "public", "status",
                       "n_actions", "version", "deadline", "snap", "rematch_code",
                       "created_at", "updated_at", "creator"),
       "seats": ("table_id", "seat", "kind", "bot", "name", "token_hash", "away", "joined_at",
                 "client"),
       "actions": ("table_id", "idx", "seat", "text", "by", "at")}


def _games_made_by_a_server(tmp: str):
    """A finished game of two bots and a guest's running game against a bot, made by a
    server on a scratch database: (rows per table, the finished code, the running code and
    its token, the finished record)."""
    from cardtable.server.store.db import metadata

    with app_client(f"{tmp}/scratch.db") as web:
        r = web.call("POST", "/api/tables", origin=None, json={
            "game": "kombio", "public": True, "players": 2,
            "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}]})
        over = r.json()["table"]["code"]
        code, token = web.guest_table("Vera")
        # the bots play their game to the end (the app's drivers, bot_delay 0)
        with web.client.websocket_connect(f"/ws/{over}") as ws:
            while True:
                m = ws.receive_json()
                if m["type"] == "state" and m["status"] == "over":
                    break
        record = web.call("GET", f"/api/tables/{over}/record").json()
    engine = sa.create_engine(f"sqlite:///{tmp}/scratch.db")
    rows = {}
    with engine.connect() as conn:
        for name, cols in OLD.items():
            t = metadata.tables[name]
            rows[name] = [dict(r._mapping) for r in
                          conn.execute(sa.select(*(t.c[c] for c in cols)))]
    engine.dispose()
    return rows, over, code, token, record


def test_a_database_of_revision_0003_upgrades_and_its_games_go_on(database):
    from cardtable.server.store.db import metadata

    with tempfile.TemporaryDirectory() as tmp:
        rows, over, code, token, record = _games_made_by_a_server(tmp)
    url = DatabaseURL(database)
    upgrade(url, "0003")
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        assert "accounts" not in sa.inspect(conn).get_table_names()
        for name in OLD:                                  # as revision 0003 stored them
            if rows[name]:
                conn.execute(metadata.tables[name].insert(), rows[name])
        if url.is_postgres:
            conn.execute(sa.text("SELECT setval('game_tables_id_seq', 100)"))
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM cardtable_alembic_version")) \
            .scalar() == ScriptDirectory.from_config(alembic_config()).get_current_head()
        for name, cols in OLD.items():
            t = metadata.tables[name]
            got = [dict(r._mapping) for r in conn.execute(sa.select(*(t.c[c] for c in cols)))]
            key = lambda r: tuple(r[c] for c in cols[:2])           # noqa: E731
            assert sorted(got, key=key) == sorted(rows[name], key=key), name
        assert conn.execute(sa.text("SELECT count(*) FROM seats WHERE account_id IS NOT NULL")) \
            .scalar() == 0
    engine.dispose()
    with app_client(database) as web:
        assert web.call("GET", f"/api/tables/{over}/record").json() == record
        assert web.call("GET", f"/api/tables/{over}/replay?count=1").status_code == 200
        # the guest plays on at the running table
        with web.client.websocket_connect(f"/ws/{code}?token={token}") as ws:
            while True:
                m = ws.receive_json()
                if m["type"] == "state" and m["legal"]:
                    break
            ws.send_json({"type": "decide", "decision": m["legal"][0], "index": m["index"]})
            while True:
                m2 = ws.receive_json()
                if m2["type"] == "state" and m2["index"] > m["index"]:
                    break
                assert m2["type"] != "error", m2
        # and keeps the game when signing up
        r, sess = web.sign_up("Vera", claim=[token])
        assert r.status_code == 201 and r.json()["claimed"] == 1
        assert [g["code"] for g in web.call("GET", "/api/me/games", sess).json()] == [code]
        # new tables get ids after the old ones
        assert web.guest_table("Wim")[0] not in (over, code)
