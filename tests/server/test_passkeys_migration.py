"""Migration 0009 (passkeys, issue 32) on SQLite and PostgreSQL: a database at revision 0006
with an account and a guest's game upgrades in place; the account logs in with its password
as before, adds a passkey and logs in with it from another browser."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from argon2 import PasswordHasher

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import PASSWORD, app_client
from webauthn_soft import RP, Agent, SoftKey

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import alembic_config, upgrade
from cardtable.server.guard.security import name_keys


def test_a_database_of_revision_0006_upgrades_and_its_accounts_add_passkeys(database):
    url = DatabaseURL(database)
    upgrade(url, "0006")
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        names = sa.inspect(conn).get_table_names()
        assert "accounts" in names and "passkeys" not in names
        keys = name_keys("Hanna")
        now = time.time()
        conn.execute(sa.text(
            "INSERT INTO accounts (name, name_key, name_key2, password_hash, created_at, "
            "password_at) VALUES ('Hanna', :a, :b, :h, :t, :t)"),
            {"a": keys[0], "b": keys[1], "h": PasswordHasher().hash(PASSWORD), "t": now})
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM cardtable_alembic_version")) \
            .scalar() == ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert conn.execute(sa.text("SELECT count(*) FROM passkeys")).scalar() == 0
        assert conn.execute(sa.text("SELECT name FROM accounts")).scalar() == "Hanna"
    engine.dispose()
    with app_client(database) as web:
        r, sess = web.log_in("Hanna")
        assert r.status_code == 200, r.text
        a = Agent(web)
        a.jar["cardtable_session"] = sess
        key = SoftKey(RP)
        assert a.add(key, "Phone").status_code == 201
        r, _ = Agent(web).log_in(key)
        assert r.status_code == 200 and r.json()["account"]["name"] == "Hanna"
        assert r.json()["has_password"] is True
