"""Migration 0008 (friends, issue 32) on SQLite and PostgreSQL: a database of revision 0006
(accounts, Web Push, table talk) with two accounts, a session, a waiting table of one of them
and a line of table talk upgrades in place; everything is there afterwards, and the two
accounts become friends, see each other online and one invites the other to the old table."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import PASSWORD, app_client

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import alembic_config, upgrade
from cardtable.server.people.passwords import Passwords
from cardtable.server.guard.security import name_keys

NEW_TABLES = {"friend_requests", "friends", "presence", "invites", "account_push"}


def _rows_of_0006(conn) -> None:
    pw = asyncio.run(Passwords().hash(PASSWORD))
    now = time.time()
    for i, name in ((1, "Alma"), (2, "Bruno")):
        k1, k2 = name_keys(name)
        conn.execute(sa.text(
            "INSERT INTO accounts (id, name, name_key, name_key2, password_hash, created_at, "
            "password_at) VALUES (:i, :n, :a, :b, :h, :t, :t)"),
            {"i": i, "n": name, "a": k1, "b": k2, "h": pw, "t": now})
    conn.execute(sa.text("INSERT INTO sessions (id_hash, account_id, created_at, last_seen, "
                         "expires) VALUES ('x' || 'y', 1, :t, :t, :e)"),
                 {"t": now, "e": now + 86400})
    base = ('{"game": "kombio", "variant": null, "players": 2, "seed": 7, "start": 0, '
            '"options": {}, "target": null}')
    conn.execute(sa.text(
        "INSERT INTO game_tables (id, code, game, settings, base, public, status, n_actions, "
        "version, created_at, updated_at) VALUES (1, 'OLDTABLE', 'kombio', :s, :b, false, "
        "'waiting', 0, 1, :t, :t)"),
        {"s": '{"seats": [{"kind": "human", "bot": null}, {"kind": "human", "bot": null}]}',
         "b": base, "t": now})
    conn.execute(sa.text(
        "INSERT INTO seats (table_id, seat, kind, name, token_hash, away, joined_at, "
        "account_id) VALUES (1, 0, 'human', 'Alma', 'h0', false, :t, 1), "
        "(1, 1, 'human', NULL, NULL, false, NULL, NULL)"), {"t": now})
    conn.execute(sa.text("INSERT INTO chat (table_id, channel, seat, name, kind, text, n, at) "
                         "VALUES (1, 'table', 0, 'Alma', 'text', 'hello', 0, :t)"), {"t": now})


def test_a_database_of_revision_0006_upgrades_and_its_accounts_become_friends(database):
    url = DatabaseURL(database)
    upgrade(url, "0006")
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        assert not NEW_TABLES & set(sa.inspect(conn).get_table_names())
        _rows_of_0006(conn)
        if url.is_postgres:
            conn.execute(sa.text("SELECT setval('accounts_id_seq', 10)"))
            conn.execute(sa.text("SELECT setval('game_tables_id_seq', 10)"))
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM cardtable_alembic_version")) \
            .scalar() == ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert NEW_TABLES <= set(sa.inspect(conn).get_table_names())
        assert conn.execute(sa.text("SELECT name FROM accounts ORDER BY id")).scalars() \
            .all() == ["Alma", "Bruno"]
        assert conn.execute(sa.text("SELECT count(*) FROM sessions")).scalar() == 1
        assert conn.execute(sa.text("SELECT text FROM chat")).scalar() == "hello"
    engine.dispose()
    with app_client(database) as web:
        _, alma = web.log_in("Alma")
        _, bruno = web.log_in("Bruno")
        assert alma and bruno
        r = web.call("POST", "/api/friends/requests", alma, json={"name": "Bruno"})
        assert r.status_code == 202, r.text
        req = web.call("GET", "/api/friends", bruno).json()["incoming"][0]["id"]
        assert web.call("POST", f"/api/friends/requests/{req}/accept", bruno).status_code == 200
        friends = web.call("GET", "/api/friends", alma).json()["friends"]
        assert [(f["name"], f["online"]) for f in friends] == [("Bruno", True)]
        r = web.call("POST", "/api/friends/invites", alma, json={"table": "OLDTABLE",
                                                                 "to": "Bruno"})
        assert r.status_code == 201, r.text
        inv = web.call("GET", "/api/friends", bruno).json()["invites"]
        assert [(i["from"], i["code"]) for i in inv] == [("Alma", "OLDTABLE")]
        # deleting an account takes its friendships, requests and invitations along
        assert web.call("DELETE", "/api/me", alma, json={"password": PASSWORD}).status_code \
            == 204
        assert web.call("GET", "/api/friends", bruno).json() == {
            "friends": [], "incoming": [], "sent": [], "invites": []}
