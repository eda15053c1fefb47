"""Server settings and database URLs.

`--database` takes a SQLAlchemy/libpq style URL or a plain file path:

    cardtable.db, ./games/x.db, sqlite:///cardtable.db     embedded SQLite (one process)
    postgresql://user:pw@host:5432/db, postgres://...,
    postgresql+psycopg://...                                PostgreSQL (psycopg 3)

`DatabaseURL` derives the three forms the server needs: the synchronous SQLAlchemy URL (Alembic
migrations), the asynchronous one (the server) and, for PostgreSQL, the libpq URL of the
LISTEN/NOTIFY and advisory-lock connections.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field

from sqlalchemy.engine import URL, make_url

DEFAULT_DATABASE = "cardtable.db"


class DatabaseURL:
    """A parsed `--database` value."""

    def __init__(self, raw: str):
        raw = (raw or DEFAULT_DATABASE).strip()
        if "://" not in raw:                                   # a plain file path: SQLite
            raw = "sqlite:///" + os.path.abspath(raw)
        url = make_url(raw)
        backend = url.get_backend_name()
        if backend == "postgres":
            backend = "postgresql"
        if backend not in ("sqlite", "postgresql"):
            raise ValueError(f"unsupported database {backend!r}: use a SQLite file or postgresql://")
        if backend == "sqlite":
            db = url.database or ""
            if db in ("", ":memory:"):
                raise ValueError("an in-memory SQLite database cannot be shared by the server's "
                                 "connections: give a file path")
            url = url.set(drivername="sqlite", database=os.path.abspath(db))
        else:
            url = url.set(drivername="postgresql+psycopg")
        self.kind: str = backend
        self.sync_url: URL = url
        self.async_url: URL = (url.set(drivername="sqlite+aiosqlite") if backend == "sqlite"
                               else url)

    @property
    def is_postgres(self) -> bool:
        return self.kind == "postgresql"

    def libpq(self) -> str:
        """The libpq connection string (PostgreSQL only) for psycopg's own connections."""
        return self.sync_url.set(drivername="postgresql").render_as_string(hide_password=False)

    def display(self) -> str:
        return self.sync_url.render_as_string(hide_password=True)


@dataclass
class Settings:
    """Everything `cardtable serve` can set; tests and the bench pass their own."""

    database: str = DEFAULT_DATABASE
    host: str = "127.0.0.1"
    port: int = 8000
    #: seconds a bot waits before its decision is applied (so people can follow the game)
    bot_delay: float = 0.5
    #: the bot that plays for a human seat whose player is away (NOTATION difficulty or name)
    standin: str = "medium"
    #: largest WebSocket message the protocol accepts (bigger ones get an error); the transport
    #: closes a connection whose frame exceeds `ws_max_frame` (code 1009)
    max_message: int = 4096
    ws_max_frame: int = 1 << 20
    #: token bucket per connection: `rate` messages per second, bursts of `burst`
    rate: float = 20.0
    burst: int = 40
    #: a connection that does not read its messages: close it when this many are queued
    send_queue: int = 512
    #: database pools (PostgreSQL; two of them: reads and lobby, decisions)
    pool_size: int = 20
    max_overflow: int = 10
    #: garbage collector thresholds set after start-up (app.tune_gc; None: Python's defaults,
    #: no freeze)
    gc_threshold: tuple[int, int, int] | None = (10_000, 10, 10)
    #: how often a PostgreSQL process looks for tables without a driver (seconds)
    claim_interval: float = 1.0
    #: a label of this process in logs and /api/health
    instance: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    #: print the start line ("cardtable server on http://...") to stdout
    announce: bool = True

    def url(self) -> DatabaseURL:
        return DatabaseURL(self.database)
