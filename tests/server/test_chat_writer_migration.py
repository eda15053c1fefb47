"""Migration 0019 (who wrote a spectator's line) on SQLite and PostgreSQL: a database of
revision 0018 with a chat line upgrades in place (the line keeps its text, its writer
unknown), takes a spectator's line with its writer, and goes down to 0018 again without the
columns, its lines kept."""

from __future__ import annotations

import sqlalchemy as sa

from accounts_helpers import accounts_at, engine_as_server
from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import migrate_to, upgrade

TABLE = ("INSERT INTO game_tables (id, code, game, settings, base, public, status, n_actions, "
         "version, created_at, updated_at) VALUES (1, 'ABC', 'kombio', '{}', '{}', :pub, "
         "'waiting', 0, 0, 0, 0)")


def _columns(url) -> set[str]:
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        cols = {c["name"] for c in sa.inspect(conn).get_columns("chat")}
    engine.dispose()
    return cols


def test_0018_upgrades_and_goes_down_again(database):
    url = DatabaseURL(database)
    accounts_at(url, "0018")
    assert not {"person", "account_id"} & _columns(url)
    upgrade(url)
    assert {"person", "account_id"} <= _columns(url)
    engine = engine_as_server(url)
    with engine.begin() as conn:
        conn.execute(sa.text(TABLE), {"pub": False})
        conn.execute(sa.text("INSERT INTO chat (table_id, channel, spectator, kind, text, n, "
                             "at, person, account_id) VALUES (1, 'spectators', 1, 'text', "
                             "'hi', 0, 0, :p, 1)"), {"p": "a" * 32})
        assert conn.execute(sa.text("SELECT person, account_id FROM chat")).one() == \
            ("a" * 32, 1)
    engine.dispose()
    assert migrate_to(url, "0018")[1] == "0018"
    assert not {"person", "account_id"} & _columns(url)
    engine = sa.create_engine(url.sync_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT text FROM chat")).scalars().all() == ["hi"]
    engine.dispose()
    upgrade(url)
    assert {"person", "account_id"} <= _columns(url)
