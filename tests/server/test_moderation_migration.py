"""Migration 0013 (moderation) on SQLite and PostgreSQL: a database of revision 0012 with an
account upgrades in place (the account is a player), takes roles, bans, blocks and reports,
and goes down to 0012 again without them, its account kept; up again works."""

from __future__ import annotations

import sqlalchemy as sa

from accounts_helpers import accounts_at, engine_as_server
from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import migrate_to, upgrade

NEW_TABLES = {"audit_log", "bans", "blocks", "reports", "name_reservations"}


def test_0012_upgrades_and_goes_down_again(database):
    url = DatabaseURL(database)
    accounts_at(url, "0012")
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert not NEW_TABLES & set(sa.inspect(conn).get_table_names())
    engine.dispose()
    upgrade(url)
    engine = engine_as_server(url)
    with engine.begin() as conn:
        assert NEW_TABLES <= set(sa.inspect(conn).get_table_names())
        assert conn.execute(sa.text("SELECT role FROM accounts ORDER BY id")).scalars() \
            .all() == ["player", "player"]
        conn.execute(sa.text("UPDATE accounts SET role = 'admin' WHERE id = 1"))
        conn.execute(sa.text("INSERT INTO blocks VALUES (1, 2, 0)"))
        conn.execute(sa.text("INSERT INTO bans (kind, target, reason, created_at, created_by) "
                             "VALUES ('account', '2', 'x', 0, 'terminal:root')"))
        conn.execute(sa.text("INSERT INTO reports (reporter_id, target_id, target_name, reason, "
                             "note, evidence, created_at) VALUES (1, 2, 'Bruno', 'spam', '', "
                             "'{}', 0)"))
        conn.execute(sa.text("DELETE FROM accounts WHERE id = 2"))     # the report stays
        assert conn.execute(sa.text("SELECT target_id, target_name FROM reports")).all() == \
            [(None, "Bruno")]
        assert conn.execute(sa.text("SELECT count(*) FROM blocks")).scalar() == 0
    engine.dispose()
    assert migrate_to(url, "0012")[1] == "0012"
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert not NEW_TABLES & set(sa.inspect(conn).get_table_names())
        assert "role" not in {c["name"] for c in sa.inspect(conn).get_columns("accounts")}
        assert conn.execute(sa.text("SELECT name FROM accounts")).scalars().all() == ["Alma"]
    engine.dispose()
    upgrade(url)
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT role FROM accounts")).scalars().all() == ["player"]
    engine.dispose()
