"""Alembic environment of the cardtable server, configured programmatically
(`cardtable.server.store.migrate.upgrade`): no alembic.ini is needed. The connection to migrate is
passed in `config.attributes["connection"]`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from cardtable.server.store.db import metadata

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite",
                      version_table="cardtable_alembic_version")
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # several server processes may start at once on one database: one migrates at a
            # time (the lock is released at commit)
            connection.execute(text("SELECT pg_advisory_xact_lock(727270, 0)"))
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("cardtable migrations run through cardtable.server.store.migrate.upgrade()")
_run(connection)
