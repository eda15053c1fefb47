"""What the server's start-up spends: a database already at the head revision is recognised
without Alembic (migrate.upgrade reads the version table and the scripts' heads), so a restart
neither imports Alembic and the SQL dialects it loads nor runs its machinery; a database behind
is still migrated by Alembic. On SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT, database_url
from sqlalchemy import create_engine, text

from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import VERSION_TABLE, alembic_config, script_heads, upgrade


def test_the_scripts_heads_are_alembics():
    from alembic.script import ScriptDirectory

    assert script_heads() == set(ScriptDirectory.from_config(alembic_config()).get_heads())


def _upgrade_in_a_new_process(url: str) -> bool:
    """Run migrate.upgrade(url) in a fresh interpreter; whether it imported Alembic."""
    code = ("import sys; from cardtable.server.store.migrate import upgrade; "
            f"upgrade({url!r}); print('alembic' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=str(ROOT), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip() == "True"


def _version(url: str) -> set[str]:
    engine = create_engine(DatabaseURL(url).sync_url)
    try:
        with engine.connect() as conn:
            return {r[0] for r in conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}"))}
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_at_head_starts_without_alembic(request, tmp_path, kind):
    url = database_url(kind, request, tmp_path)
    (head,) = script_heads()
    assert _upgrade_in_a_new_process(url)                 # a new database: Alembic migrates
    assert _version(url) == script_heads()
    assert not _upgrade_in_a_new_process(url)             # at head: Alembic is not imported
    assert _version(url) == script_heads()
    # a database one revision behind is migrated by Alembic again
    from alembic import command

    engine = create_engine(DatabaseURL(url).sync_url)
    try:
        with engine.connect() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "-1")
            conn.commit()
    finally:
        engine.dispose()
    assert _version(url) != script_heads()
    assert _upgrade_in_a_new_process(url)
    assert _version(url) == script_heads() == {head}
    upgrade(url)                                           # and in this process: a no-op
