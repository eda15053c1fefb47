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

Both directions (`migrate_to`, the command `cardtable migrate --to REV`): every revision has a
downgrade, so an operator can go back to the schema of an earlier release (docs/deploy.md,
"Backups, restore and rollback"). `revisions()` lists the scripts in order, `current_and_head`
tells where a database is. A database at a revision this release does not know (a newer
release migrated it) is refused with `NewerSchema`, whose message names the command to run.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from cardtable.core.errors import ConfigError
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


def _url(database: str | DatabaseURL) -> DatabaseURL:
    return database if isinstance(database, DatabaseURL) else DatabaseURL(database)


def _summary(src: str, most: int = 90) -> str:
    """The first sentence of a script's docstring, at most `most` characters."""
    doc = re.match(r'\s*"""(.*?)(\n\s*\n|""")', src, re.S)
    words = " ".join(doc.group(1).split()) if doc else ""
    first = re.split(r"(?<=\.)\s", words, maxsplit=1)[0].rstrip(".")
    return first if len(first) <= most else first[:most - 1].rstrip() + "…"


def revisions() -> list[tuple[str, str]]:
    """The scripts' revisions from the first to the head: (revision, the first line of its
    docstring), read from the files' text (without Alembic)."""
    found: dict[str | None, tuple[str, str]] = {}
    for f in (MIGRATIONS / "versions").glob("*.py"):
        src = f.read_text(encoding="utf-8")
        m = re.search(r"^revision\s*=\s*[\"']([^\"']+)[\"']", src, re.M)
        if m is None:
            continue
        d = re.search(r"^down_revision\s*=\s*[\"']([^\"']+)[\"']", src, re.M)
        found[d.group(1) if d else None] = (m.group(1), _summary(src))
    out, down = [], None
    while down in found:
        out.append(found[down])
        down = found[down][0]
    return out


def head() -> str:
    """The head revision of the scripts (the chain is linear: test_rollback.py checks it)."""
    return revisions()[-1][0]


def _current(conn) -> str | None:
    """The database's revision: None for a database without the version table (a new one)."""
    try:
        with conn.begin():                           # rolled back if the table is missing
            rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    except DBAPIError:                               # no version table yet: a new database
        return None
    return rows[0][0] if rows else None


def _at_head(conn) -> bool:
    """True if the database's version table names exactly the scripts' heads."""
    try:
        with conn.begin():                           # rolled back if the table is missing
            rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    except DBAPIError:                               # no version table yet: a new database
        return False
    return {r[0] for r in rows} == script_heads()


def current_and_head(database: str | DatabaseURL) -> tuple[str | None, str]:
    """(the database's revision, None for an empty database; the head of this release's
    scripts). The migrations are current when both are equal."""
    engine = create_engine(_url(database).sync_url)
    try:
        with engine.connect() as conn:
            return _current(conn), head()
    finally:
        engine.dispose()


def command_url(url: DatabaseURL) -> str:
    """The `--database` value to show in a command: the SQLite file, or the PostgreSQL URL
    without its password."""
    if not url.is_postgres:
        return url.sync_url.database
    return url.sync_url.set(drivername="postgresql", password=None) \
        .render_as_string(hide_password=False)


class NewerSchema(ConfigError):
    """The database is at a revision this release does not know: a newer release migrated it.
    The message says what to do."""

    def __init__(self, url: DatabaseURL, current: str):
        self.current = current
        mine = head()
        super().__init__(
            f"the database is at schema revision {current}, newer than this release of "
            f"cardtable knows (its newest is {mine}): a newer release migrated it. Start the "
            f"newer release again, or roll the schema back with it: stop every server "
            f"process, run `cardtable migrate --database {command_url(url)} --to {mine}` "
            f"with the newer release still installed, then install this release and start it "
            f"(docs/deploy.md, \"Backups, restore and rollback\")")


def _known(url: DatabaseURL, current: str | None) -> None:
    if current is not None and current not in {r for r, _ in revisions()}:
        raise NewerSchema(url, current)


def refuse_newer(database: str | DatabaseURL) -> None:
    """Raise NewerSchema if the database is at a revision this release does not know; a
    database that cannot be read is left to the start to report."""
    url = _url(database)
    try:
        current, _ = current_and_head(url)
    except DBAPIError:
        return
    _known(url, current)


def _alembic(conn, direction: str, revision: str) -> None:
    from alembic import command

    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    getattr(command, direction)(cfg, revision)
    conn.commit()


def upgrade(database: str | DatabaseURL, revision: str = "head") -> None:
    """Bring the database's schema to `revision` (idempotent; safe from several processes on
    PostgreSQL at once: env.py takes an advisory lock). NewerSchema if the database is at a
    revision this release does not know."""
    url = _url(database)
    engine = create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            if revision == "head" and _at_head(conn):
                return
            _known(url, _current(conn))
            _alembic(conn, "upgrade", revision)
    finally:
        engine.dispose()


def migrate_to(database: str | DatabaseURL, revision: str) -> tuple[str | None, str]:
    """Bring the database's schema up or down to `revision` (a revision of `revisions()`, or
    "head"): (the revision before, the revision now). ValueError for an unknown revision,
    NewerSchema for a database at a revision this release does not know. Stop every server
    process of the database first: a server of another release must not run on the schema
    while it changes."""
    url = _url(database)
    order = [r for r, _ in revisions()]
    target = order[-1] if revision == "head" else revision
    if target not in order:
        raise ValueError(f"unknown revision {revision!r}: one of {', '.join(order)} or head "
                         "(cardtable migrate --list)")
    engine = create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            before = _current(conn)
            _known(url, before)
            if before is None or order.index(target) > order.index(before):
                _alembic(conn, "upgrade", target)
            elif order.index(target) < order.index(before):
                _alembic(conn, "downgrade", target)
            return before, target
    finally:
        engine.dispose()
