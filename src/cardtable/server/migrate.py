"""Alembic migrations, run programmatically at server start (no alembic.ini needed).

    from cardtable.server.migrate import upgrade
    upgrade("postgresql://localhost/cardtable")      # or a SQLite file path

The scripts live in `cardtable/server/migrations/` (env.py, versions/). To add a revision,
write `versions/000N_what.py` by hand (down_revision = the previous one) and mirror the change
in `db.py`'s metadata; `tests/server/test_units.py` checks that both agree.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

from cardtable.server.config import DatabaseURL

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(database: str | DatabaseURL, revision: str = "head") -> None:
    """Bring the database's schema to `revision` (idempotent; safe from several processes on
    PostgreSQL at once: env.py takes an advisory lock)."""
    url = database if isinstance(database, DatabaseURL) else DatabaseURL(database)
    engine = create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
            conn.commit()
    finally:
        engine.dispose()
