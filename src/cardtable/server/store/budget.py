"""The PostgreSQL connections of a server process: its budget, one number from the settings,
and the check at start that the deployment's processes fit the database server.

A process opens at most

    budget = pool + overflow + decisions + listen 1 + locks 1

connections: the SQLAlchemy pool of reads, lobby changes and the sweeper (`--db-pool-size`
kept, `--db-max-overflow` more in a burst), the decisions' own pool (`--db-decision-pool`,
pg_fast.DecisionPool), the LISTEN connection and the drivers' advisory-lock connection
(tables/driver.py). The bot workers open none. `--processes N` of one deployment, and one
connection more for a migration (`cardtable migrate`, or a process starting while the others
run), must fit what PostgreSQL lets ordinary roles open:

    processes × budget + 1  <=  max_connections - superuser_reserved_connections
                                                - reserved_connections (PostgreSQL 16+)

`check_fits` reads those settings (`SHOW`) and raises ConfigError with the formula, the numbers
and what to change when they do not fit; the entry points print it as one line, exit status 2.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.core.errors import ConfigError
from cardtable.server.config import DatabaseURL

#: connections that are not in a pool: the LISTEN connection and the drivers' lock connection
LISTEN, LOCKS = 1, 1
#: one connection of a migration (or a process starting while the others run) besides them
MIGRATION = 1
#: the first PostgreSQL version with `idle_session_timeout` (idle pool connections released)
IDLE_TIMEOUT_VERSION = 140000


@dataclass(frozen=True)
class Budget:
    """The most connections one process opens, part by part."""

    pool: int
    overflow: int
    decisions: int
    listen: int = LISTEN
    locks: int = LOCKS

    @property
    def total(self) -> int:
        return self.pool + self.overflow + self.decisions + self.listen + self.locks

    def parts(self) -> str:
        return (f"pool {self.pool} + overflow {self.overflow} + decisions {self.decisions} "
                f"+ listen {self.listen} + locks {self.locks}")

    def describe(self) -> str:
        """The start line's words: "at most 32 (pool 10 + overflow 10 + ...)"."""
        return f"at most {self.total} ({self.parts()})"


def check_numbers(pool: int, overflow: int, decisions: int, idle_seconds: float,
                  processes: int) -> str | None:
    """What is wrong with the connection options as given (the entry points' check), or
    None."""
    if pool < 1 or decisions < 1:
        return "--db-pool-size and --db-decision-pool must be 1 or more"
    if overflow < 0:
        return "--db-max-overflow must be 0 or more"
    if not 0 <= idle_seconds < float("inf"):
        return "--db-idle-seconds must be 0 (never) or more"
    if processes < 1:
        return "--processes must be 1 or more"
    return None


def budget(settings) -> Budget:
    """The budget of a process with these settings (config.Settings)."""
    return Budget(settings.pool_size, settings.max_overflow, settings.decision_pool)


def needed(settings) -> int:
    """What the deployment needs of the database server: processes × budget + a migration."""
    return settings.processes * budget(settings).total + MIGRATION


@dataclass(frozen=True)
class ServerLimits:
    """What the database server allows (its `SHOW` values; reserved is 0 before 16)."""

    max_connections: int
    superuser_reserved: int
    reserved: int
    version: int

    @property
    def available(self) -> int:
        return self.max_connections - self.superuser_reserved - self.reserved


def read_limits(url: DatabaseURL) -> ServerLimits:
    """The server's connection settings, read on one short connection (psycopg's errors pass
    through: the caller decides what an unreachable database means)."""
    import psycopg

    with psycopg.connect(url.libpq(), autocommit=True, connect_timeout=30) as conn:
        def show(name: str) -> int:
            return int(conn.execute(f"SHOW {name}").fetchone()[0])

        version = show("server_version_num")
        reserved = show("reserved_connections") if version >= 160000 else 0
        return ServerLimits(show("max_connections"), show("superuser_reserved_connections"),
                            reserved, version)


def misfit(settings, limits: ServerLimits) -> str | None:
    """The one-line reason why the deployment does not fit the database server, or None."""
    b = budget(settings)
    need = needed(settings)
    if need <= limits.available:
        return None
    reserved = (f" - reserved_connections {limits.reserved}"
                if limits.version >= 160000 else "")
    return (f"the database connections do not fit: {settings.processes} process"
            f"{'es' if settings.processes != 1 else ''} × {b.total} ({b.parts()}) + "
            f"{MIGRATION} for a migration = {need}, but PostgreSQL allows "
            f"{limits.available} (max_connections {limits.max_connections} - "
            f"superuser_reserved_connections {limits.superuser_reserved}{reserved}): lower "
            f"--db-pool-size, --db-max-overflow or --db-decision-pool, or raise "
            f"max_connections in postgresql.conf to at least "
            f"{need + limits.superuser_reserved + limits.reserved} (docs/deploy.md, "
            f"\"Database connections\")")


def check_fits(settings) -> ServerLimits | None:
    """At start (PostgreSQL): ConfigError when `settings.processes` processes of this budget
    do not fit the server's max_connections. Returns the server's limits; None for SQLite, or
    when the database cannot be reached now (the start then reports that itself)."""
    url = settings.url()
    if not url.is_postgres:
        return None
    import psycopg

    try:
        limits = read_limits(url)
    except (OSError, psycopg.Error):
        return None
    why = misfit(settings, limits)
    if why is not None:
        raise ConfigError(why)
    return limits
