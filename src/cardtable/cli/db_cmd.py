"""`cardtable backup`, `cardtable restore` and `cardtable migrate`: the operator's commands for
the server's database (docs/deploy.md, "Backups, restore and rollback"). `register(app)` adds
them to a Typer app.

    cardtable backup  --database cardtable.db --to backups/cardtable-2026-11-29.db
    cardtable restore --from backups/cardtable-2026-11-29.db --database cardtable.db --replace
    cardtable backup  --database postgresql://cardtable@db/cardtable --to cardtable.dump
    cardtable restore --from cardtable.dump --database postgresql://cardtable@db/restored
    cardtable migrate --database cardtable.db --list
    cardtable migrate --database cardtable.db --to 0011 --yes

SQLite: the backup is SQLite's online backup API (`sqlite3.Connection.backup`, one step: a
consistent copy while the server runs and writes in WAL mode), checked (`PRAGMA
integrity_check`, the schema revision) and written as one self-contained file. A restore
checks the backup the same way first, and puts the file being replaced aside (with its WAL)
instead of deleting it. PostgreSQL: `pg_dump --format=custom` and `pg_restore` (found on the
PATH or in /usr/lib/postgresql/*/bin) into an empty database, the password from
`--database-password-file` given to them in the environment, never on a command line.

`migrate --to REV` goes up or down to a revision (store/migrate.py); going down drops what the
later revisions added, so it asks for `--yes`. Every error is one line and exit status 2
(ConfigError).
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import typer

from cardtable.core.errors import ConfigError

#: the version table of the migrations (store/migrations/env.py)
VERSION_TABLE = "cardtable_alembic_version"


def _url(database: str, password_file: str | None):
    from cardtable.server.config import DatabaseURL, read_password_file

    try:
        password = read_password_file(password_file) if password_file else None
        return DatabaseURL(database, password)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _known_revisions() -> list[str]:
    from cardtable.server.store.migrate import revisions

    return [r for r, _ in revisions()]


def _check_revision(rev: str | None, what: str) -> str:
    """`rev` if this release knows it; ConfigError otherwise."""
    known = _known_revisions()
    if rev is None:
        raise ConfigError(f"{what} is not a cardtable database (it has no {VERSION_TABLE} "
                          "table)")
    if rev not in known:
        raise ConfigError(f"{what} is at schema revision {rev}, which this release does not "
                          f"know (its newest is {known[-1]}): use the release that made it")
    return rev


def _revision_note(rev: str) -> str:
    head = _known_revisions()[-1]
    return (f"schema revision {rev}" if rev == head else
            f"schema revision {rev}; the server migrates it to {head} when it starts")


# -- SQLite --------------------------------------------------------------------------------------
def _sqlite_check(conn: sqlite3.Connection, what: str) -> tuple[str, int, int]:
    """(revision, tables, accounts) of a SQLite database that passes `integrity_check`."""
    try:
        ok = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as e:
        raise ConfigError(f"{what} is not a usable SQLite database: {e}") from None
    if ok != [("ok",)]:
        raise ConfigError(f"{what} fails SQLite's integrity check: "
                          + "; ".join(r[0] for r in ok[:3]))
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    rev = None
    if VERSION_TABLE in names:
        row = conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
        rev = row[0] if row else None
    rev = _check_revision(rev, what)
    count = (lambda t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
             if t in names else 0)
    return rev, count("game_tables"), count("accounts")


def _sqlite_copy(src: str, dst: str, what: str) -> tuple[str, int, int]:
    """Copy the SQLite database `src` into the new file `dst` with the online backup API (one
    step: a consistent snapshot, also while a server writes), check the copy and make it one
    file (journal mode DELETE: no WAL beside it). The file appears only once it is whole."""
    part = dst + ".part"
    for f in (part, part + "-journal"):
        if os.path.exists(f):
            os.remove(f)
    try:
        source = sqlite3.connect(Path(src).resolve().as_uri() + "?mode=ro", uri=True,
                                 timeout=60)
    except sqlite3.Error as e:
        raise ConfigError(f"cannot open {what}: {e}") from None
    try:
        target = sqlite3.connect(part)
        try:
            try:
                source.backup(target)
            except sqlite3.DatabaseError as e:
                raise ConfigError(f"{what} is not a usable SQLite database: {e}") from None
            target.execute("PRAGMA journal_mode=DELETE")
            found = _sqlite_check(target, what)
        finally:
            target.close()
    except BaseException:
        if os.path.exists(part):
            os.remove(part)
        raise
    finally:
        source.close()
    with open(part, "rb") as f:
        os.fsync(f.fileno())
    os.replace(part, dst)
    return found


def backup_sqlite(src: str, dst: str) -> str:
    if not os.path.isfile(src):
        raise ConfigError(f"no SQLite database file {src!r}")
    if os.path.exists(dst):
        raise ConfigError(f"{dst!r} exists: give a new file name (a backup never overwrites)")
    rev, tables, accounts = _sqlite_copy(src, dst, f"the database {src!r}")
    return (f"backed up {src} to {dst}: {tables} tables, {accounts} accounts, "
            f"schema revision {rev}")


def restore_sqlite(src: str, dst: str, replace: bool) -> str:
    if not os.path.isfile(src):
        raise ConfigError(f"no backup file {src!r}")
    if os.path.exists(dst) and not replace:
        raise ConfigError(f"{dst!r} exists: stop the server and give --replace (the file is "
                          f"kept as {dst}.before-restore)")
    part = dst + ".restoring"
    if os.path.exists(part):
        os.remove(part)
    rev, tables, accounts = _sqlite_copy(src, part, f"the backup {src!r}")
    kept = ""
    if os.path.exists(dst):
        aside = dst + ".before-restore"
        for suffix in ("", "-wal", "-shm"):      # the WAL belongs to the file it goes with
            if os.path.exists(dst + suffix):
                os.replace(dst + suffix, aside + suffix)
            elif os.path.exists(aside + suffix):
                os.remove(aside + suffix)
        kept = f"; the file it replaced is kept as {aside}"
    os.replace(part, dst)
    return (f"restored {src} into {dst}: {tables} tables, {accounts} accounts, "
            f"{_revision_note(rev)}{kept}")


# -- PostgreSQL ------------------------------------------------------------------------------------
def pg_tool(name: str) -> str:
    """The path of pg_dump or pg_restore: on the PATH, else the newest of Debian's
    /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                    key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
                    reverse=True):
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    raise ConfigError(f"{name} is not installed (Debian: apt-get install postgresql-client)")


def _pg_env(url) -> tuple[str, dict]:
    """The libpq URL without the password, and an environment that has it (PGPASSWORD)."""
    env = dict(os.environ)
    if url.sync_url.password is not None:
        env["PGPASSWORD"] = url.sync_url.password
    return url.sync_url.set(drivername="postgresql", password=None) \
        .render_as_string(hide_password=False), env


def _run(cmd: list[str], env: dict, what: str) -> str:
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        err = " ".join(proc.stderr.split())[-600:]
        raise ConfigError(f"{what} failed: {err or f'exit status {proc.returncode}'}")
    return proc.stdout


def _pg_facts(url, what: str) -> tuple[str | None, int, int, int]:
    """(revision, tables of the public schema, game tables, accounts) of a database."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import DBAPIError

    engine = create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            names = {r[0] for r in conn.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))}
            rev = (conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
                   if VERSION_TABLE in names else None)
            count = (lambda t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar()
                     if t in names else 0)
            return rev, len(names), count("game_tables"), count("accounts")
    except DBAPIError as e:
        raise ConfigError(f"cannot read {what}: {' '.join(str(e.orig).split())}") from None
    finally:
        engine.dispose()


def backup_postgres(url, dst: str) -> str:
    if os.path.exists(dst):
        raise ConfigError(f"{dst!r} exists: give a new file name (a backup never overwrites)")
    rev, _, tables, accounts = _pg_facts(url, "the database")
    rev = _check_revision(rev, "the database")
    libpq, env = _pg_env(url)
    part = dst + ".part"
    try:
        _run([pg_tool("pg_dump"), "--format=custom", f"--file={part}", f"--dbname={libpq}"],
             env, "pg_dump")
        _run([pg_tool("pg_restore"), "--list", part], env, "reading the dump back")
        os.replace(part, dst)
    finally:
        if os.path.exists(part):
            os.remove(part)
    return (f"backed up {url.display()} to {dst} (pg_dump custom format): {tables} tables, "
            f"{accounts} accounts, schema revision {rev}")


def _dump_revision(src: str, env: dict) -> str | None:
    """The schema revision a pg_dump archive holds (its version table's row), or None."""
    out = _run([pg_tool("pg_restore"), "--data-only", f"--table={VERSION_TABLE}",
                "--file=-", src], env, f"reading the backup {src!r}")
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"COPY public.{VERSION_TABLE} ") and i + 1 < len(lines):
            value = lines[i + 1].strip()
            return None if value == "\\." else value
    return None


def restore_postgres(src: str, url) -> str:
    if not os.path.isfile(src):
        raise ConfigError(f"no backup file {src!r}")
    libpq, env = _pg_env(url)
    _check_revision(_dump_revision(src, env), f"the backup {src!r}")
    _, n, _, _ = _pg_facts(url, "the target database")
    if n:
        raise ConfigError(f"the database {url.display()} is not empty ({n} tables): restore "
                          "into a new, empty database (createdb), then point the server at it")
    _run([pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
          "--single-transaction", f"--dbname={libpq}", src], env, "pg_restore")
    rev, _, tables, accounts = _pg_facts(url, "the restored database")
    rev = _check_revision(rev, "the restored database")
    return (f"restored {src} into {url.display()}: {tables} tables, {accounts} accounts, "
            f"{_revision_note(rev)}")


# -- the commands ------------------------------------------------------------------------------------
def run_backup(database: str, to: str, password_file: str | None = None) -> str:
    url = _url(database, password_file)
    if url.is_postgres:
        return backup_postgres(url, to)
    return backup_sqlite(url.sync_url.database, to)


def run_restore(src: str, database: str, replace: bool = False,
                password_file: str | None = None) -> str:
    url = _url(database, password_file)
    if url.is_postgres:
        if replace:
            raise ConfigError("--replace is for a SQLite file: PostgreSQL restores into a new, "
                              "empty database")
        return restore_postgres(src, url)
    return restore_sqlite(src, url.sync_url.database, replace)


def revision_list(current: str | None) -> list[str]:
    """The lines of `migrate --list`: each revision, the current one marked `*`."""
    from cardtable.server.store.migrate import revisions

    revs = revisions()
    lines = [f"{'*' if rev == current else ' '} {rev}  {doc}"
             + ("  (head)" if i == len(revs) - 1 else "") for i, (rev, doc) in enumerate(revs)]
    if current is None:
        lines.append("(the database is empty: no revision yet)")
    return lines


def run_migrate(database: str, to: str | None, list_: bool, yes: bool,
                password_file: str | None = None) -> list[str]:
    """What `cardtable migrate` prints (lines); ConfigError for what it refuses."""
    from sqlalchemy.exc import DBAPIError

    from cardtable.server.store import migrate as M

    url = _url(database, password_file)
    order = _known_revisions()
    target = order[-1] if to in (None, "head") else to
    if target not in order and not list_:
        raise ConfigError(f"--to: unknown revision {to!r}: one of {', '.join(order)} or head "
                          "(cardtable migrate --list)")
    if list_ and not url.is_postgres and not os.path.isfile(url.sync_url.database):
        raise ConfigError(f"no SQLite database file {url.sync_url.database!r}")
    try:
        current, _ = M.current_and_head(url)
    except DBAPIError as e:
        raise ConfigError(f"cannot read the database: {' '.join(str(e.orig).split())}") \
            from None
    if current is not None and current not in _known_revisions():
        raise M.NewerSchema(url, current)
    if list_:
        return revision_list(current)
    if current is not None and order.index(target) < order.index(current):
        undone = M.revisions()[order.index(target) + 1:order.index(current) + 1]
        if not yes:
            raise ConfigError(
                f"going down from {current} to {target} undoes "
                + "; ".join(f"{r} ({doc.rstrip('.')})" for r, doc in reversed(undone))
                + ": what they added is dropped. Stop every server process and make a backup "
                  "(cardtable backup), then run this again with --yes")
    try:
        before, after = M.migrate_to(url, target)
    except DBAPIError as e:
        raise ConfigError(f"the migration failed (nothing changed): "
                          f"{' '.join(str(e.orig).split())}") from None
    if before == after:
        return [f"the database is at revision {after} already"]
    return [f"migrated the database from {before or 'empty'} to {after}"]


def register(app: typer.Typer) -> None:
    database_opt = typer.Option("cardtable.db", "--database", metavar="URL",
                                envvar="CARDTABLE_DATABASE_URL",
                                help="SQLite file or postgresql://user@host/db")
    password_opt = typer.Option(None, "--database-password-file", metavar="FILE",
                                envvar="CARDTABLE_DATABASE_PASSWORD_FILE",
                                help="PostgreSQL: the password, the first line of FILE")

    @app.command("backup", help="Back up the server's database while it runs: SQLite's "
                                "online backup, or pg_dump (custom format).")
    def backup_cmd(
        database: str = database_opt,
        to: str = typer.Option(..., "--to", metavar="FILE", help="the backup file (new)"),
        database_password_file: str = password_opt,
    ) -> None:
        typer.echo(run_backup(database, to, database_password_file))

    @app.command("restore", help="Restore a backup (checked first) into a SQLite file or an "
                                 "empty PostgreSQL database; stop the server first.")
    def restore_cmd(
        src: str = typer.Option(..., "--from", metavar="FILE", help="the backup file"),
        database: str = database_opt,
        replace: bool = typer.Option(False, "--replace",
                                     help="SQLite: replace the existing file (it is kept as "
                                          "FILE.before-restore)"),
        database_password_file: str = password_opt,
    ) -> None:
        typer.echo(run_restore(src, database, replace, database_password_file))

    @app.command("migrate", help="Migrate the database's schema up or down to a revision "
                                 "(default: this release's newest); --list shows them.")
    def migrate_cmd(
        database: str = database_opt,
        to: str = typer.Option(None, "--to", metavar="REV",
                               help="the revision to go to (head: the newest)"),
        list_: bool = typer.Option(False, "--list", help="list the revisions, the database's "
                                                         "marked *"),
        yes: bool = typer.Option(False, "--yes", help="going down: drop what the later "
                                                      "revisions added"),
        database_password_file: str = password_opt,
    ) -> None:
        for line in run_migrate(database, to, list_, yes, database_password_file):
            typer.echo(line)
