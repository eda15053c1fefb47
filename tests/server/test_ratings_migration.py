"""Migration 0007 (ratings, issue 32) on SQLite and PostgreSQL: a database of revision 0006
with an account, its finished game and a guest's running game upgrades in place; the rows
are kept, the old tables are unrated, the account's profile counts the old game, and a rated
game played afterwards moves the ratings."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from test_ratings import play_out, rated_table

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import alembic_config, upgrade

#: the tables and columns of revision 0006 that hold these games
OLD = {"accounts": ("id", "name", "name_key", "name_key2", "password_hash", "created_at",
                    "password_at"),
       "game_tables": ("id", "code", "game", "settings", "base", "public", "status",
                       "n_actions", "version", "deadline", "snap", "rematch_code",
                       "created_at", "updated_at", "creator"),
       "seats": ("table_id", "seat", "kind", "bot", "name", "token_hash", "away", "joined_at",
                 "client", "account_id"),
       "actions": ("table_id", "idx", "seat", "text", "by", "at")}


def _made_by_a_server(tmp: str):
    from cardtable.server.store.db import metadata

    with app_client(f"{tmp}/scratch.db", round_break=0) as web:
        _, s = web.sign_up("Olga")
        r = web.call("POST", "/api/tables", s, json={
            "game": "kombio", "players": 2, "target": 1, "public": True, "name": "Olga",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
        over = r.json()["table"]["code"]
        play_out(web, over)
        running, _ = web.guest_table("Vera")
    engine = sa.create_engine(f"sqlite:///{tmp}/scratch.db")
    rows = {}
    with engine.connect() as conn:
        for name, cols in OLD.items():
            t = metadata.tables[name]
            rows[name] = [dict(r._mapping) for r in conn.execute(sa.select(*(t.c[c] for c in cols)))]
    engine.dispose()
    return rows, over, running


def test_a_database_of_revision_0006_upgrades_and_rated_games_follow(database):
    from cardtable.server.store.db import metadata

    with tempfile.TemporaryDirectory() as tmp:
        rows, over, running = _made_by_a_server(tmp)
    url = DatabaseURL(database)
    upgrade(url, "0006")
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        names = sa.inspect(conn).get_table_names()
        assert "ratings" not in names and "chat" in names
        assert "rated" not in [c["name"] for c in sa.inspect(conn).get_columns("game_tables")]
        old = sa.MetaData()
        for name, cols in OLD.items():                 # only the columns of 0006
            t = metadata.tables[name]
            conn.execute(sa.Table(name, old, *(sa.Column(c, t.c[c].type) for c in cols))
                         .insert(), rows[name])
        if url.is_postgres:
            conn.execute(sa.text("SELECT setval('game_tables_id_seq', 100)"))
            conn.execute(sa.text("SELECT setval('accounts_id_seq', 100)"))
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM cardtable_alembic_version")) \
            .scalar() == ScriptDirectory.from_config(alembic_config()).get_current_head()
        for name, cols in OLD.items():
            t = metadata.tables[name]
            got = [dict(r._mapping) for r in conn.execute(sa.select(*(t.c[c] for c in cols)))]
            key = lambda r: tuple(str(r[c]) for c in cols[:2])           # noqa: E731
            assert sorted(got, key=key) == sorted(rows[name], key=key), name
        assert conn.execute(sa.text("SELECT count(*) FROM game_tables WHERE rated")).scalar() == 0
        assert conn.execute(sa.text("SELECT count(*) FROM ratings")).scalar() == 0
    engine.dispose()
    with app_client(database, round_break=0) as web:
        p = web.call("GET", "/api/players/Olga").json()
        # the old game counts as played; its result was not kept, so it is not known as won
        assert p["games"] == [{"game": "kombio", "variant": None, "played": 1, "won": 0}]
        assert p["recent"][0]["code"] == over and p["recent"][0]["won"] is None
        assert web.call("GET", f"/api/tables/{running}").json()["rated"] is False
        _, s = web.log_in("Olga")
        code = rated_table(web, s, seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}]) \
            .json()["table"]["code"]
        play_out(web, code)
        p = web.call("GET", "/api/players/Olga").json()
        assert p["ratings"][0]["games"] == 1 and p["games"][0]["played"] == 2
        assert p["recent"][0]["won"] is not None
