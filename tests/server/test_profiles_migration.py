"""Migration 0018 (profiles) on SQLite and PostgreSQL: a database of revision 0017 with an
account upgrades in place (the account has no identity yet), takes an identity, and goes down
to 0017 again without the table, its account kept; up again works."""

from __future__ import annotations

import asyncio
import time

import sqlalchemy as sa

from cardtable.server.config import DatabaseURL
from cardtable.server.guard.security import name_keys
from cardtable.server.people.passwords import Passwords
from cardtable.server.store.migrate import migrate_to, upgrade


def test_0017_upgrades_and_goes_down_again(database):
    url = DatabaseURL(database)
    upgrade(url, "0017")
    engine = sa.create_engine(url.sync_url)
    pw = asyncio.run(Passwords().hash("correct horse battery"))
    with engine.begin() as conn:
        assert "profiles" not in sa.inspect(conn).get_table_names()
        for i, name in ((1, "Alma"), (2, "Bruno")):
            k1, k2 = name_keys(name)
            conn.execute(sa.text(
                "INSERT INTO accounts (id, name, name_key, name_key2, password_hash, "
                "created_at, password_at) VALUES (:i, :n, :a, :b, :h, :t, :t)"),
                {"i": i, "n": name, "a": k1, "b": k2, "h": pw, "t": time.time()})
    engine.dispose()
    upgrade(url)
    engine = sa.create_engine(url.sync_url)
    if not url.is_postgres:                     # as the server's connections (sqlite_pragmas)
        sa.event.listen(engine, "connect", lambda c, _: c.execute("PRAGMA foreign_keys=ON"))
    with engine.begin() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM profiles")).scalar() == 0
        conn.execute(sa.text("INSERT INTO profiles (account_id, avatar, country, updated_at) "
                             "VALUES (1, 3, 'DE', 0)"))
        conn.execute(sa.text("INSERT INTO profiles (account_id, avatar, line, updated_at) "
                             "VALUES (2, NULL, 'hi', 0)"))
        assert conn.execute(sa.text("SELECT account_id, avatar, line, country FROM profiles "
                                    "ORDER BY account_id")).all() == \
            [(1, 3, "", "DE"), (2, None, "hi", None)]
        conn.execute(sa.text("DELETE FROM accounts WHERE id = 2"))      # its identity goes too
        assert conn.execute(sa.text("SELECT account_id FROM profiles")).scalars().all() == [1]
    engine.dispose()
    assert migrate_to(url, "0017")[1] == "0017"
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert "profiles" not in sa.inspect(conn).get_table_names()
        assert conn.execute(sa.text("SELECT name FROM accounts")).scalars().all() == ["Alma"]
    engine.dispose()
    upgrade(url)
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM profiles")).scalar() == 0
    engine.dispose()
