"""Persistence: the schema (SQLAlchemy Core; Alembic migrations in `migrations/` create it) and
`Store`, the asynchronous data access of the server.

Tables
  game_tables  one row per table: its code, settings, the base record (game, variant, players,
               seed, start, options, target: everything but the actions), status (`waiting` for
               players, `playing`, `over`), `n_actions`, `version` (bumped by every change, so
               processes know when to refresh), `deadline` (epoch seconds of the running turn
               timer or snap window), `snap` (the open snap window's answers so far, JSON), and
               `rematch_code`.
  seats        (table_id, seat): `kind` human|bot, the bot's name, the player's name, the
               SHA-256 of its secret token, `away` (a bot plays for it until it returns).
  actions      (table_id, idx): the decisions in order. (table_id, idx) is the primary key, so
               a second append at the same index fails: no decision can be lost or doubled.

Concurrency: every change of a table runs in `Store.locked(table_id)`. PostgreSQL: a
transaction that first locks the table row (SELECT ... FOR UPDATE), so the processes sharing the
database change a table one at a time; the commit also sends NOTIFY `cardtable` with
"table_id:version", delivered to every process at commit. SQLite (one process): the writes of a
change go to the file in plain SQL on one writer thread, guarded by the row's version; changes
that queue up while a commit runs are committed together (group commit, `GroupWriter`: each in
its own savepoint, one COMMIT). A change is committed before anybody is told about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from cardtable.server.config import DatabaseURL

NOTIFY_CHANNEL = "cardtable"

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(32), nullable=False, unique=True),
    Column("game", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("base", JSON, nullable=False),
    Column("public", Boolean, nullable=False, default=True),
    Column("status", String(12), nullable=False),
    Column("n_actions", Integer, nullable=False, default=0),
    Column("version", Integer, nullable=False, default=0),
    Column("deadline", Float, nullable=True),
    Column("snap", JSON, nullable=True),
    Column("rematch_code", String(32), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("creator", String(64), nullable=True),
    Index("ix_game_tables_lobby", "status", "public"),
    Index("ix_game_tables_sweep", "status", "updated_at"),
    Index("ix_game_tables_creator", "creator", "status"),
)

seats = Table(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("away", Boolean, nullable=False, default=False),
    Column("joined_at", Float, nullable=True),
    # who took the seat, as hashes (security.seat_client): 32 hex digits of the address, then
    # 32 of the person (the client identity; without one, the address again)
    Column("client", String(64), nullable=True),
    Index("ix_seats_token", "token_hash"),
)

actions = Table(
    "actions", metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", String(64), nullable=False),
    Column("by", String(8), nullable=False, default="player"),
    Column("at", Float, nullable=False),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _row(r) -> dict[str, Any]:
    return dict(r._mapping)


class Conflict(Exception):
    """The table row changed under an optimistic transaction (SQLite): nothing was written."""


class Tx:
    """A transaction holding the lock of one table row (see `Store.locked`): PostgreSQL.

    Reads and writes go to the database at once; the row is locked (SELECT ... FOR UPDATE)
    until the commit."""

    def __init__(self, store: Store, conn: AsyncConnection | None, row: dict[str, Any]):
        self.store = store
        self.conn = conn
        self.row = row
        self._changes: dict[str, Any] = {}
        self.notify = False
        self.new_table_id: int | None = None

    @property
    def table_id(self) -> int:
        return self.row["id"]

    async def seats(self) -> list[dict[str, Any]]:
        res = await self.conn.execute(
            select(seats).where(seats.c.table_id == self.table_id).order_by(seats.c.seat))
        return [_row(r) for r in res]

    async def actions_since(self, start: int) -> list[tuple[int, int, str, str]]:
        res = await self.conn.execute(
            select(actions.c.idx, actions.c.seat, actions.c.text, actions.c.by)
            .where(actions.c.table_id == self.table_id, actions.c.idx >= start)
            .where(actions.c.idx < self.row["n_actions"])
            .order_by(actions.c.idx))
        return [(r.idx, r.seat, r.text, r.by) for r in res]

    def _action_rows(self, start: int, items) -> list[dict]:
        now = time.time()
        return [{"table_id": self.table_id, "idx": start + i, "seat": seat, "text": txt,
                 "by": by, "at": now} for i, (seat, txt, by) in enumerate(items)]

    async def append(self, start: int, items: list[tuple[int, str, str]]) -> None:
        """Append decisions (seat, text, by) at indices start, start+1, ..."""
        if not items:
            return
        await self.conn.execute(insert(actions), self._action_rows(start, items))
        self.set(n_actions=start + len(items))

    async def update_seat(self, seat: int, **values) -> None:
        await self.conn.execute(update(seats).where(seats.c.table_id == self.table_id,
                                                    seats.c.seat == seat).values(**values))
        self.touch()

    async def insert_table(self, values: dict, seat_rows: list[dict]) -> None:
        """Create another table in this transaction (a rematch); its id: `new_table_id`."""
        self.new_table_id = await _insert_table(self.conn, values, seat_rows)

    def set(self, **values) -> None:
        """Change columns of the table row (written, with a new version, at commit)."""
        self._changes.update(values)
        self.row.update(values)
        self.notify = True

    def touch(self) -> None:
        self.notify = True

    def _row_update(self):
        version = self.row["version"] + 1
        values = dict(self._changes, version=version, updated_at=time.time())
        return version, values

    async def _finish(self) -> None:
        if not self.notify:
            return
        version, values = self._row_update()
        await self.conn.execute(update(game_tables).where(game_tables.c.id == self.table_id)
                                .values(**values))
        self.row["version"] = version
        await self.conn.execute(text("SELECT pg_notify(:ch, :payload)"),
                                {"ch": NOTIFY_CHANNEL, "payload": f"{self.table_id}:{version}"})


class BatchTx(Tx):
    """Optimistic: reads go to the database at once; writes are collected and written at the
    end in one short transaction (SQLite: on the writer thread; PostgreSQL: a plain decision
    in one statement), guarded by the row's version: `Conflict` if it changed meanwhile.
    Within a process the runtime's asyncio lock serializes the changes of a table; between
    processes the guarded UPDATE does (the second of two racing writers finds the version
    moved on), and the (table_id, idx) key makes a doubled action impossible."""

    def __init__(self, store: Store, row: dict[str, Any]):
        super().__init__(store, None, row)
        self._ops: list[tuple] = []
        self._version0 = row["version"]

    async def seats(self) -> list[dict[str, Any]]:
        return await self.store.seats_of(self.table_id)

    async def actions_since(self, start: int) -> list[tuple[int, int, str, str]]:
        return (await self.store.load(self.table_id, since=start))[2]

    async def append(self, start: int, items: list[tuple[int, str, str]]) -> None:
        if not items:
            return
        self._ops.append(("insert", actions, self._action_rows(start, items)))
        self.set(n_actions=start + len(items))

    async def update_seat(self, seat: int, **values) -> None:
        self._ops.append(("update_seat", seat, values))
        self.touch()

    async def insert_table(self, values: dict, seat_rows: list[dict]) -> None:
        self._ops.append(("insert_table", values, seat_rows))
        self.touch()

    def _write(self, conn, version: int, values: dict) -> None:
        res = conn.execute(update(game_tables).where(game_tables.c.id == self.table_id,
                                                     game_tables.c.version == self._version0)
                           .values(**values))
        if res.rowcount != 1:
            raise Conflict(f"table {self.table_id} changed meanwhile")
        for op in self._ops:
            if op[0] == "insert":
                conn.execute(insert(op[1]), op[2])
            elif op[0] == "update_seat":
                conn.execute(update(seats).where(seats.c.table_id == self.table_id,
                                                 seats.c.seat == op[1]).values(**op[2]))
            elif op[0] == "insert_table":
                self.new_table_id = _insert_table_sync(conn, op[1], op[2])

    def _write_sqlite(self, cur: sqlite3.Cursor, values: dict) -> None:
        """`_write` in plain SQL on the SQLite writer's connection (see `GroupWriter`): the
        guarded row update first (a Conflict writes nothing), then the other writes."""
        sql, params = _update_sql("game_tables", values)
        cur.execute(sql + " WHERE id = ? AND version = ?", params + [self.table_id,
                                                                    self._version0])
        if cur.rowcount != 1:
            raise Conflict(f"table {self.table_id} changed meanwhile")
        for op in self._ops:
            if op[0] == "insert":
                cur.executemany(_INSERT_ACTIONS, [
                    (r["table_id"], r["idx"], r["seat"], r["text"], r["by"], r["at"])
                    for r in op[2]])
            elif op[0] == "update_seat":
                sql, params = _update_sql("seats", op[2])
                cur.execute(sql + " WHERE table_id = ? AND seat = ?",
                            params + [self.table_id, op[1]])
            elif op[0] == "insert_table":
                self.new_table_id = _insert_table_sqlite(cur, op[1], op[2])

    async def _finish(self) -> None:
        if not self.notify:
            return
        version, values = self._row_update()
        if not self.store.url.is_postgres:
            await self.store.write(lambda cur: self._write_sqlite(cur, values))
        elif all(op[0] == "insert" for op in self._ops) and len(self._ops) <= 1:
            await self._pg_fast(version, values)
        else:
            async with self.store.engine.begin() as conn:
                await conn.run_sync(lambda c: self._write(c, version, values))
                await conn.execute(text("SELECT pg_notify(:ch, :payload)"),
                                   {"ch": NOTIFY_CHANNEL,
                                    "payload": f"{self.table_id}:{version}"})
        self.row["version"] = version

    async def _pg_fast(self, version: int, values: dict) -> None:
        """PostgreSQL, a plain change (a decision): one statement, one round trip: the
        guarded row update, the appended actions and the NOTIFY, atomically (autocommit), on a
        plain psycopg connection of `DecisionPool`."""
        params: dict[str, Any] = {"id": self.table_id, "v0": self._version0,
                                  "ch": NOTIFY_CHANNEL, "payload": f"{self.table_id}:{version}"}
        sets = []
        for i, (k, v) in enumerate(values.items()):
            col = game_tables.c[k]
            if isinstance(col.type, JSON):
                sets.append(f"{k} = CAST(%(p{i})s AS JSON)")
                params[f"p{i}"] = None if v is None else json.dumps(v)
            else:
                sets.append(f"{k} = %(p{i})s")
                params[f"p{i}"] = v
        acts = self._ops[0][2] if self._ops else []
        params["acts"] = json.dumps([{k: r[k] for k in ("idx", "seat", "text", "by", "at")}
                                     for r in acts])
        sql = (
            "WITH u AS (UPDATE game_tables SET " + ", ".join(sets) +
            " WHERE id = %(id)s AND version = %(v0)s RETURNING id), "
            "a AS (INSERT INTO actions (table_id, idx, seat, text, by, at) "
            "SELECT u.id, x.idx, x.seat, x.text, x.by, x.at FROM u, "
            "jsonb_to_recordset(CAST(%(acts)s AS jsonb)) AS x(idx int, seat int, text text, "
            "by text, at float8) RETURNING 1) "
            "SELECT (SELECT count(*) FROM u) AS updated, "
            "CASE WHEN (SELECT count(*) FROM u) = 1 "
            "THEN pg_notify(%(ch)s, %(payload)s) END AS notified, (SELECT count(*) FROM a) AS n")
        row = await self.store.decisions.fetchone(sql, params)
        if row[0] != 1:
            raise Conflict(f"table {self.table_id} changed meanwhile")




async def _insert_table(conn: AsyncConnection, values: dict, seat_rows: list[dict]) -> int:
    return await conn.run_sync(_insert_table_sync, values, seat_rows)


def _insert_table_sync(conn, values: dict, seat_rows: list[dict]) -> int:
    """Insert a table row and its seats (SQLAlchemy Core); the new table's id."""
    now = time.time()
    res = conn.execute(insert(game_tables).values(
        **values, n_actions=0, version=1, created_at=now, updated_at=now)
        .returning(game_tables.c.id))
    table_id = res.scalar_one()
    conn.execute(insert(seats), [dict(r, table_id=table_id) for r in seat_rows])
    return table_id


# -- SQLite: plain SQL on the writer's connection -------------------------------------------------
_INSERT_ACTIONS = 'INSERT INTO actions (table_id, idx, seat, text, "by", at) VALUES (?, ?, ?, ?, ?, ?)'
_TABLES = {"game_tables": game_tables, "seats": seats}


def _sql_value(col, v):
    """A value as SQLAlchemy's SQLite dialect binds it (JSON: json.dumps, None included)."""
    if isinstance(col.type, JSON):
        return json.dumps(v)
    return v


def _update_sql(table: str, values: dict) -> tuple[str, list]:
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


def _insert_table_sqlite(cur: sqlite3.Cursor, values: dict, seat_rows: list[dict]) -> int:
    now = time.time()
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
        _sqlite_pragmas(conn, None)
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


def _psycopg():
    import psycopg

    return psycopg


class DecisionPool:
    """PostgreSQL: plain psycopg connections (autocommit) for the decisions' one-statement
    writes, in a FIFO queue (under load every decision waits its turn; no connection is opened
    and closed per decision). No per-checkout ping round trip (SQLAlchemy's pre-ping doubled
    the round trips of a decision): a connection idle for `ping_after` seconds is checked
    first, a broken one replaced; a statement that fails closes its connection."""

    def __init__(self, libpq: str, size: int, ping_after: float = 10.0):
        self.libpq = libpq
        self.ping_after = ping_after
        self._slots = asyncio.Semaphore(size)
        self._idle: list[tuple[Any, float]] = []     # (connection, last used), LIFO

    async def _connect(self):
        return await _psycopg().AsyncConnection.connect(self.libpq, autocommit=True)

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


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")          # readers never wait for the writer
    cur.execute("PRAGMA synchronous=NORMAL")        # durable across kill -9 of the process
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


class Store:
    """Asynchronous access to the database.

    PostgreSQL: SQLAlchemy asyncio over psycopg 3; every transaction runs on the event loop.
    SQLite: reads through aiosqlite; writes in plain SQL on one writer thread and connection
    (`GroupWriter`), the changes that queue up meanwhile in one transaction (group commit), so
    no write lock is ever held across awaits, the process's tables do not queue behind each
    other's round trips, and a burst of decisions costs one COMMIT."""

    def __init__(self, url: DatabaseURL, pool_size: int = 10, max_overflow: int = 20):
        self.url = url
        if url.is_postgres:
            self.engine: AsyncEngine = create_async_engine(
                url.async_url, pool_size=pool_size, max_overflow=max_overflow,
                pool_pre_ping=True)
            # the decisions' one-statement writes: their own connections (autocommit)
            self.decisions = DecisionPool(url.libpq(), pool_size)
            self._writer = None
        else:
            self.engine = create_async_engine(url.async_url, pool_size=5, max_overflow=5)
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self._writer = GroupWriter(url.sync_url.database)

    async def close(self) -> None:
        await self.engine.dispose()
        if self.url.is_postgres:
            await self.decisions.close()
        if self._writer is not None:
            self._writer.close()

    # -- transactions ---------------------------------------------------------------------------
    async def write(self, fn: Callable[[sqlite3.Cursor], Any]) -> Any:
        """SQLite: run fn(cursor) on the writer thread, atomically (all or nothing), committed
        (group commit: see `GroupWriter`) before this returns."""
        return await self._writer.submit(fn)

    @asynccontextmanager
    async def locked(self, table_id: int, known: dict | None = None) -> AsyncIterator[Tx]:
        """A change of one table: commits (and notifies) on exit; nothing is written if the
        body raises. Without `known`, PostgreSQL locks the row (SELECT ... FOR UPDATE) for
        the whole transaction. With `known` (the row as this process last saw it: the
        runtimes' decision path), the change is optimistic: validated against the process's
        state, then written in one go only if the row's version is still `known`'s, else
        `Conflict` (the runtime catches up and validates again)."""
        if known is not None or not self.url.is_postgres:
            # optimistic: written at the end, guarded by the row's version (Conflict if it
            # changed: the caller catches up and tries again)
            row = dict(known) if known is not None else await self.table_row(table_id)
            if row is None:
                raise LookupError(f"no table {table_id}")
            tx = BatchTx(self, row)
            yield tx
            await tx._finish()
            return
        async with self.engine.begin() as conn:
            q = select(game_tables).where(game_tables.c.id == table_id).with_for_update()
            r = (await conn.execute(q)).first()
            if r is None:
                raise LookupError(f"no table {table_id}")
            tx = Tx(self, conn, _row(r))
            yield tx
            await tx._finish()

    async def create_table(self, values: dict, seat_rows: list[dict]) -> int:
        if self.url.is_postgres:
            async with self.engine.begin() as conn:
                return await _insert_table(conn, values, seat_rows)
        return await self.write(lambda cur: _insert_table_sqlite(cur, values, seat_rows))

    # -- reads ----------------------------------------------------------------------------------
    async def table_by_code(self, code: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(game_tables).where(game_tables.c.code == code))).first()
            return _row(r) if r else None

    async def table_row(self, table_id: int) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(game_tables).where(game_tables.c.id == table_id))).first()
            return _row(r) if r else None

    async def load(self, table_id: int, since: int = 0):
        """(row, seats, actions since `since`) read in one snapshot."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(game_tables).where(game_tables.c.id == table_id))).first()
            if r is None:
                return None, [], []
            s = await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                   .order_by(seats.c.seat))
            a = await conn.execute(
                select(actions.c.idx, actions.c.seat, actions.c.text, actions.c.by)
                .where(actions.c.table_id == table_id, actions.c.idx >= since)
                .where(actions.c.idx < r.n_actions)
                .order_by(actions.c.idx))
            return (_row(r), [_row(x) for x in s],
                    [(x.idx, x.seat, x.text, x.by) for x in a])

    async def seat_by_token(self, table_id: int, token: str) -> int | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(
                select(seats.c.seat).where(seats.c.table_id == table_id,
                                           seats.c.token_hash == token_hash(token)))).first()
            return r.seat if r else None

    async def seats_of(self, table_id: int) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            s = await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                   .order_by(seats.c.seat))
            return [_row(x) for x in s]

    async def open_tables(self, game: str | None, limit: int, status: str = "waiting"
                          ) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
        """Public tables with `status` (waiting for players, or playing), newest first, and
        their seats by table id (one read, two queries)."""
        async with self.engine.connect() as conn:
            q = (select(game_tables).where(game_tables.c.status == status,
                                           game_tables.c.public.is_(True))
                 .order_by(game_tables.c.created_at.desc()).limit(limit))
            if game:
                q = q.where(game_tables.c.game == game)
            rows = [_row(r) for r in await conn.execute(q)]
            by_table: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
            if rows:
                res = await conn.execute(select(seats).where(seats.c.table_id.in_(list(by_table)))
                                         .order_by(seats.c.table_id, seats.c.seat))
                for x in res:
                    by_table[x.table_id].append(_row(x))
            return rows, by_table

    async def delete_waiting_table(self, table_id: int) -> bool:
        """Delete a table that still waits for players (cancelled by its host), with its seats;
        False if it is not waiting (any more)."""
        if not self.url.is_postgres:
            def run(cur: sqlite3.Cursor) -> bool:
                row = cur.execute("SELECT status FROM game_tables WHERE id = ?",
                                  (table_id,)).fetchone()
                if row is None or row[0] != "waiting":
                    return False
                cur.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
                cur.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
                cur.execute("DELETE FROM game_tables WHERE id = ?", (table_id,))
                return True
            return await self.write(run)
        async with self.engine.begin() as conn:
            status = (await conn.execute(select(game_tables.c.status).where(
                game_tables.c.id == table_id).with_for_update())).scalar()
            if status != "waiting":
                return False
            await conn.execute(actions.delete().where(actions.c.table_id == table_id))
            await conn.execute(seats.delete().where(seats.c.table_id == table_id))
            await conn.execute(game_tables.delete().where(game_tables.c.id == table_id))
            return True

    async def unfinished_by_creator(self, creator: str) -> list[dict[str, Any]]:
        """Id and settings of the tables `creator` (security.client_key) made that are not over."""
        async with self.engine.connect() as conn:
            res = await conn.execute(
                select(game_tables.c.id, game_tables.c.settings)
                .where(game_tables.c.creator == creator, game_tables.c.status != "over"))
            return [_row(r) for r in res]

    async def seat_clients(self, table_id: int) -> list[str | None]:
        async with self.engine.connect() as conn:
            res = await conn.execute(select(seats.c.client).where(seats.c.table_id == table_id)
                                     .order_by(seats.c.seat))
            return [r.client for r in res]

    async def sweep(self, waiting_before: float, idle_before: float,
                    keep: set[int] = frozenset()) -> list[int]:
        """Delete the tables nobody joined since `waiting_before` and the games nobody played
        since `idle_before` (epoch seconds), except those in `keep`; finished games stay.
        Their ids (PostgreSQL: each deletion is notified as "id:-1")."""
        cond = ((game_tables.c.status == "waiting") & (game_tables.c.updated_at < waiting_before)) \
            | ((game_tables.c.status == "playing") & (game_tables.c.updated_at < idle_before))
        async with self.engine.connect() as conn:
            ids = [r.id for r in await conn.execute(select(game_tables.c.id).where(cond))
                   if r.id not in keep]
        if not ids:
            return []
        if self.url.is_postgres:
            async with self.engine.begin() as conn:
                res = await conn.execute(game_tables.delete().where(
                    game_tables.c.id.in_(ids), cond).returning(game_tables.c.id))
                gone = [r.id for r in res]
                for table_id in gone:
                    await conn.execute(text("SELECT pg_notify(:ch, :payload)"),
                                       {"ch": NOTIFY_CHANNEL, "payload": f"{table_id}:-1"})
            return gone

        def delete(cur: sqlite3.Cursor) -> list[int]:
            marks = ", ".join("?" for _ in ids)
            cur.execute(f"DELETE FROM game_tables WHERE id IN ({marks}) AND ("
                        "(status = 'waiting' AND updated_at < ?) OR "
                        "(status = 'playing' AND updated_at < ?)) RETURNING id",
                        [*ids, waiting_before, idle_before])
            return [r[0] for r in cur.fetchall()]
        return await self.write(delete)

    async def playing_ids(self) -> list[int]:
        async with self.engine.connect() as conn:
            res = await conn.execute(select(game_tables.c.id)
                                     .where(game_tables.c.status == "playing"))
            return [r.id for r in res]

    async def all_actions(self, table_id: int) -> list[str]:
        async with self.engine.connect() as conn:
            res = await conn.execute(select(actions.c.text).where(actions.c.table_id == table_id)
                                     .order_by(actions.c.idx))
            return [r.text for r in res]
