"""SQLite's writes: plain SQL on one writer thread's connection, with group commit
(`GroupWriter`: the changes that queue up while a COMMIT runs go into the next transaction,
each in its own savepoint)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import (
    JSON,
)
from sqlalchemy import exc as sa_exc

from cardtable.server.store.schema import game_tables, seats

# -- SQLite: plain SQL on the writer's connection -------------------------------------------------
INSERT_ACTIONS = 'INSERT INTO actions (table_id, idx, seat, text, "by", at) VALUES (?, ?, ?, ?, ?, ?)'
_TABLES = {"game_tables": game_tables, "seats": seats}


def _sql_value(col, v):
    """A value as SQLAlchemy's SQLite dialect binds it (JSON: json.dumps, None included)."""
    if isinstance(col.type, JSON):
        return json.dumps(v)
    return v


def update_sql(table: str, values: dict) -> tuple[str, list]:
    t = _TABLES[table]
    cols = [t.c[k] for k in values]               # KeyError for a column that does not exist
    sql = f"UPDATE {table} SET " + ", ".join(f'"{c.name}" = ?' for c in cols)
    return sql, [_sql_value(c, values[c.name]) for c in cols]


def _insert_sql(table: str, row: dict) -> tuple[str, list]:
    t = _TABLES[table]
    cols = [t.c[k] for k in row]
    sql = (f"INSERT INTO {table} (" + ", ".join(f'"{c.name}"' for c in cols) + ") VALUES ("
           + ", ".join("?" for _ in cols) + ")")
    return sql, [_sql_value(c, row[c.name]) for c in cols]


def insert_table_sqlite(cur: sqlite3.Cursor, values: dict, seat_rows: list[dict]) -> int:
    values = dict(values)
    now = values.pop("created_at", None) or time.time()
    sql, params = _insert_sql("game_tables", dict(values, n_actions=0, version=1,
                                                  created_at=now, updated_at=now))
    cur.execute(sql, params)
    table_id = cur.lastrowid
    for r in seat_rows:
        sql, params = _insert_sql("seats", dict(r, table_id=table_id))
        cur.execute(sql, params)
    return table_id


def _as_sqlalchemy_error(e: sqlite3.Error) -> BaseException:
    """The SQLAlchemy exception the synchronous engine would have raised (IntegrityError for a
    taken table code, ...)."""
    return sa_exc.DBAPIError.instance(None, None, e, sqlite3.Error)


class GroupWriter:
    """SQLite: every write of the process, on one writer thread and one connection, with group
    commit. Writes queued while a commit runs go together into the next transaction: each in its
    own savepoint (one that raises, e.g. a `Conflict`, is rolled back alone and gets its
    exception; the others are kept), then one COMMIT for all of them. No write's future is
    resolved before the COMMIT that holds it returned; if the COMMIT fails, every write of the
    batch gets the error (nothing of it is acknowledged). `fn(cursor)` runs on the writer
    thread."""

    def __init__(self, path: str):
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._conn: sqlite3.Connection | None = None
        self._pending: list[tuple[Callable[[sqlite3.Cursor], Any], asyncio.Future]] = []
        self._busy = False
        self.batches = 0                 # statistics (tests, bench)
        self.writes = 0

    async def submit(self, fn: Callable[[sqlite3.Cursor], Any]) -> Any:
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._pending.append((fn, fut))
        if not self._busy:
            self._kick(loop)
        return await fut

    def _kick(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._pending = self._pending, []
        self._busy = True
        cf = self._pool.submit(self._run_batch, [fn for fn, _ in batch])
        cf.add_done_callback(lambda f: loop.call_soon_threadsafe(self._done, loop, batch, f))

    def _done(self, loop, batch, cf) -> None:
        if self._pending:                 # the next batch starts while we hand out results
            self._kick(loop)
        else:
            self._busy = False
        try:
            results = cf.result()
        except Exception as e:  # noqa: BLE001 -- the batch failed as a whole: all get it
            results = [(False, e)] * len(batch)
        for (_, fut), (ok, value) in zip(batch, results):
            if fut.done():                # its waiter was cancelled
                continue
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        sqlite_pragmas(conn, None)
        return conn

    def _run_batch(self, fns: list) -> list[tuple[bool, Any]]:
        """On the writer thread: one transaction, a savepoint per write (if there are several),
        one COMMIT."""
        if self._conn is None:
            self._conn = self._connect()
        conn = self._conn
        cur = conn.cursor()
        single = len(fns) == 1
        results: list[tuple[bool, Any]] = []
        cur.execute("BEGIN IMMEDIATE")
        try:
            for fn in fns:
                if not single:
                    cur.execute("SAVEPOINT w")
                try:
                    value = fn(cur)
                except Exception as e:
                    if not conn.in_transaction:
                        raise           # SQLite rolled the whole transaction back (I/O error)
                    if single:
                        cur.execute("ROLLBACK")
                    else:
                        cur.execute("ROLLBACK TO w")
                        cur.execute("RELEASE w")
                    results.append((False, _as_sqlalchemy_error(e)
                                    if isinstance(e, sqlite3.Error) else e))
                    continue
                if not single:
                    cur.execute("RELEASE w")
                results.append((True, value))
            if conn.in_transaction:
                cur.execute("COMMIT")
        except Exception as e:  # noqa: BLE001 -- rolled back, then raised again
            try:
                if conn.in_transaction:
                    cur.execute("ROLLBACK")
            except sqlite3.Error:
                self._close()
            raise _as_sqlalchemy_error(e) if isinstance(e, sqlite3.Error) else e
        finally:
            cur.close()
        self.batches += 1
        self.writes += len(fns)
        return results

    def _close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = None

    def close(self) -> None:
        self._pool.submit(self._close)
        self._pool.shutdown(wait=True)


def sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")          # readers never wait for the writer
    cur.execute("PRAGMA synchronous=NORMAL")        # durable across kill -9 of the process
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()
