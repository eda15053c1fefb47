"""Migration 0015 (table talk's moderation, warnings, announcements) on SQLite and
PostgreSQL: a database of revision 0014 with a chat line upgrades in place (the line is not
removed; the tables mutes, warnings and announcements come), takes a removal, and goes down
to 0014 again with its line and text kept and without the new tables; up again works."""

from __future__ import annotations

import sqlalchemy as sa

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import migrate_to, upgrade


NEW_TABLES = {"mutes", "warnings", "announcements"}


def _tables(url) -> set[str]:
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        out = set(sa.inspect(conn).get_table_names())
    engine.dispose()
    return out


def _columns(url) -> set[str]:
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        out = {c["name"] for c in sa.inspect(conn).get_columns("chat")}
    engine.dispose()
    return out


def test_0014_upgrades_and_goes_down_again(database):
    url = DatabaseURL(database)
    upgrade(url, "0014")
    assert "removed_at" not in _columns(url) and not NEW_TABLES & _tables(url)
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO game_tables (id, code, game, settings, base, public, status, "
            "n_actions, version, created_at, updated_at) VALUES (1, 'K7QX', 'kombio', '{}', "
            "'{}', true, 'playing', 0, 0, 0, 0)"))
        conn.execute(sa.text("INSERT INTO chat (table_id, channel, seat, name, kind, text, n, "
                             "at) VALUES (1, 'table', 0, 'Alma', 'text', 'hello', 0, 0)"))
    engine.dispose()
    upgrade(url)
    assert {"removed_at", "removed_by"} <= _columns(url) and NEW_TABLES <= _tables(url)
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        assert conn.execute(sa.text("SELECT text, removed_at FROM chat")).one() == ("hello", None)
        conn.execute(sa.text("UPDATE chat SET removed_at = 1, removed_by = 'Mod'"))
    engine.dispose()
    assert migrate_to(url, "0014")[1] == "0014"
    assert not {"removed_at", "removed_by"} & _columns(url) and not NEW_TABLES & _tables(url)
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT text FROM chat")).scalars().all() == ["hello"]
    engine.dispose()
    upgrade(url)
    assert "removed_at" in _columns(url)
