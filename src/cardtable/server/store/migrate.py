"""Alembic migrations, run programmatically at server start (no alembic.ini needed).

    from cardtable.server.store.migrate import upgrade
    upgrade("postgresql://localhost/cardtable")      # or a SQLite file path

The scripts live in `cardtable/server/store/migrations/` (env.py, versions/). To add a revision,
write `versions/000N_what.py` by hand (down_revision = the previous one) and mirror the change
in `db.py`'s metadata; `tests/server/test_units.py` checks that both agree.

A database already at the head revision (every start but the first after an upgrade) is
recognised without Alembic: its version table is read and compared with the heads of the
scripts (`script_heads`, read from their `revision` / `down_revision` lines), and Alembic is
not even imported (it and the SQL dialects it loads were about a tenth of the server's start-up
CPU). Anything else goes through Alembic as before.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from cardtable.server.config import DatabaseURL

MIGRATIONS = Path(__file__).with_name("migrations")
#: env.py's version table
VERSION_TABLE = "cardtable_alembic_version"


def alembic_config():
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def script_heads() -> set[str]:
    """The head revisions of the scripts in migrations/versions/: the revisions no script
    names as its down_revision (read from the files' text, without Alembic)."""
    revisions, downs = set(), set()
    for f in (MIGRATIONS / "versions").glob("*.py"):
        src = f.read_text(encoding="utf-8")
        m = re.search(r"^revision\s*=\s*[\"']([^\"']+)[\"']", src, re.M)
        if m is None:
            continue
        revisions.add(m.group(1))
        d = re.search(r"^down_revision\s*=\s*(.+)$", src, re.M)
        if d is not None:
            downs.update(re.findall(r"[\"']([^\"']+)[\"']", d.group(1)))
    return revisions - downs


def _at_head(conn) -> bool:
    """True if the database's version table names exactly the scripts' heads."""
    try:
        with conn.begin():                           # rolled back if the table is missing
            rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    except DBAPIError:                               # no version table yet: a new database
        return False
    return {r[0] for r in rows} == script_heads()


def upgrade(database: str | DatabaseURL, revision: str = "head") -> None:
    """Bring the database's schema to `revision` (idempotent; safe from several processes on
    PostgreSQL at once: env.py takes an advisory lock)."""
    url = database if isinstance(database, DatabaseURL) else DatabaseURL(database)
    engine = create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            if revision == "head" and _at_head(conn):
                return
            from alembic import command

            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
            conn.commit()
    finally:
        engine.dispose()
