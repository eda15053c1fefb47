"""Migration 0018 (profiles) on SQLite and PostgreSQL: a database of revision 0017 with an
account upgrades in place (the account has no identity yet), takes an identity, and goes down
to 0017 again without the table, its account kept; up again works."""

from __future__ import annotations

import sqlalchemy as sa

from accounts_helpers import accounts_at, engine_as_server
from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import migrate_to, upgrade


def test_0017_upgrades_and_goes_down_again(database):
    url = DatabaseURL(database)
    accounts_at(url, "0017")
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert "profiles" not in sa.inspect(conn).get_table_names()
    engine.dispose()
    upgrade(url)
    engine = engine_as_server(url)
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
