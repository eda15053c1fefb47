"""PostgreSQL's fast path for decisions (`DecisionPool`: psycopg connections of their own,
one statement a decision with its NOTIFY)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any



def _psycopg():
    import psycopg

    return psycopg


class DecisionPool:
    """PostgreSQL: plain psycopg connections (autocommit) for the decisions' one-statement
    writes, in a FIFO queue (under load every decision waits its turn; no connection is opened
    and closed per decision). No per-checkout ping round trip (SQLAlchemy's pre-ping doubled
    the round trips of a decision): a connection idle for `ping_after` seconds is checked
    first, a broken one replaced (also one the database server closed when it was idle too
    long: db.idle_options); a statement that fails closes its connection. At most `size`
    connections are open (store/budget.py counts them)."""

    def __init__(self, libpq: str, size: int, ping_after: float = 10.0, options: str = ""):
        self.libpq = libpq
        self.options = options              # libpq options (db.idle_options)
        self.size = size
        self.ping_after = ping_after
        self.size = size                             # connections at most (metrics)
        self._slots = asyncio.Semaphore(size)
        self._idle: list[tuple[Any, float]] = []     # (connection, last used), LIFO

    async def _connect(self):
        extra = {"options": self.options} if self.options else {}
        return await _psycopg().AsyncConnection.connect(self.libpq, autocommit=True, **extra)

    async def _get(self) -> tuple[Any, bool]:
        """A connection, and whether it was reused (an idle one) rather than new."""
        while self._idle:
            conn, used = self._idle.pop()
            if conn.closed or conn.broken:
                continue
            if time.monotonic() - used > self.ping_after:
                try:
                    await conn.execute("SELECT 1")
                except (OSError, _psycopg().Error):
                    await self._discard(conn)
                    continue
            return conn, True
        return await self._connect(), False

    async def _discard(self, conn) -> None:
        with contextlib.suppress(OSError, _psycopg().Error):
            await conn.close()

    async def fetchone(self, sql: str, params: dict) -> tuple:
        """Run one statement. A reused connection that turns out dead (e.g. PostgreSQL was
        restarted within `ping_after`) is replaced and the statement sent once more on a new
        one: a statement that did reach the server and commit finds its version guard moved
        on and reports a Conflict, so nothing is written twice."""
        async with self._slots:
            for attempt in (0, 1):
                conn, reused = await self._get()
                try:
                    cur = await conn.execute(sql, params)
                    row = await cur.fetchone()
                except _psycopg().OperationalError:
                    await self._discard(conn)
                    if reused and attempt == 0:
                        continue
                    raise
                except BaseException:
                    await self._discard(conn)
                    raise
                self._idle.append((conn, time.monotonic()))
                return row
        raise AssertionError("unreachable")

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn, _ in idle:
            await self._discard(conn)
