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
change go to the file in one short transaction on a writer thread, guarded by the row's version.
A change is committed before anybody is told about it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
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
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from cardtable.server.config import DatabaseURL

NOTIFY_CHANNEL = "cardtable"

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("game", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("base", JSON, nullable=False),
    Column("public", Boolean, nullable=False, default=True),
    Column("status", String(12), nullable=False),
    Column("n_actions", Integer, nullable=False, default=0),
    Column("version", Integer, nullable=False, default=0),
    Column("deadline", Float, nullable=True),
    Column("snap", JSON, nullable=True),
    Column("rematch_code", String(16), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_game_tables_lobby", "status", "public"),
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

    async def _finish(self) -> None:
        if not self.notify:
            return
        version, values = self._row_update()
        if not self.store.url.is_postgres:
            await self.store.write(lambda conn: self._write(conn, version, values))
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
        guarded row update, the appended actions and the NOTIFY, atomically."""
        params: dict[str, Any] = {"id": self.table_id, "v0": self._version0,
                                  "ch": NOTIFY_CHANNEL, "payload": f"{self.table_id}:{version}"}
        sets = []
        for i, (k, v) in enumerate(values.items()):
            col = game_tables.c[k]
            if isinstance(col.type, JSON):
                sets.append(f"{k} = CAST(:p{i} AS JSON)")
                params[f"p{i}"] = None if v is None else json.dumps(v)
            else:
                sets.append(f"{k} = :p{i}")
                params[f"p{i}"] = v
        acts = self._ops[0][2] if self._ops else []
        params["acts"] = json.dumps([{k: r[k] for k in ("idx", "seat", "text", "by", "at")}
                                     for r in acts])
        sql = (
            "WITH u AS (UPDATE game_tables SET " + ", ".join(sets) +
            " WHERE id = :id AND version = :v0 RETURNING id), "
            "a AS (INSERT INTO actions (table_id, idx, seat, text, by, at) "
            "SELECT u.id, x.idx, x.seat, x.text, x.by, x.at FROM u, "
            "jsonb_to_recordset(CAST(:acts AS jsonb)) AS x(idx int, seat int, text text, "
            "by text, at float8) RETURNING 1) "
            "SELECT (SELECT count(*) FROM u) AS updated, "
            "CASE WHEN (SELECT count(*) FROM u) = 1 "
            "THEN pg_notify(:ch, :payload) END AS notified, (SELECT count(*) FROM a) AS n")
        stmt = _TEXTS.get(sql)
        if stmt is None:
            stmt = _TEXTS[sql] = text(sql)
        async with self.store._decision_slots:
            async with self.store.autocommit.connect() as conn:
                row = (await conn.execute(stmt, params)).first()
        if row.updated != 1:
            raise Conflict(f"table {self.table_id} changed meanwhile")


_TEXTS: dict[str, Any] = {}


async def _insert_table(conn: AsyncConnection, values: dict, seat_rows: list[dict]) -> int:
    now = time.time()
    res = await conn.execute(insert(game_tables).values(
        **values, n_actions=0, version=1, created_at=now, updated_at=now)
        .returning(game_tables.c.id))
    table_id = res.scalar_one()
    await conn.execute(insert(seats), [dict(r, table_id=table_id) for r in seat_rows])
    return table_id


def _insert_table_sync(conn, values: dict, seat_rows: list[dict]) -> int:
    now = time.time()
    res = conn.execute(insert(game_tables).values(
        **values, n_actions=0, version=1, created_at=now, updated_at=now)
        .returning(game_tables.c.id))
    table_id = res.scalar_one()
    conn.execute(insert(seats), [dict(r, table_id=table_id) for r in seat_rows])
    return table_id


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
    SQLite: reads through aiosqlite; writes on one writer thread (a synchronous SQLAlchemy
    engine), one short transaction per change, so no write lock is ever held across awaits
    and the process's tables do not queue behind each other's round trips."""

    def __init__(self, url: DatabaseURL, pool_size: int = 10, max_overflow: int = 20):
        self.url = url
        if url.is_postgres:
            self.engine: AsyncEngine = create_async_engine(
                url.async_url, pool_size=pool_size, max_overflow=max_overflow,
                pool_pre_ping=True)
            # the decisions' one-statement writes: their own pool, autocommit at the
            # connection level (no per-checkout isolation round trips)
            self.autocommit = create_async_engine(
                url.async_url, isolation_level="AUTOCOMMIT", pool_size=pool_size,
                max_overflow=0, pool_pre_ping=True)
            # FIFO queue in front of that pool: under load every decision waits its turn
            # (the pool's own waiting is not fair) and no connection is opened and closed
            self._decision_slots = asyncio.Semaphore(pool_size)
            self._sync_engine = None
            self._writer_pool = None
        else:
            self.engine = create_async_engine(url.async_url, pool_size=5, max_overflow=5)
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self._sync_engine = create_engine(url.sync_url, pool_size=1, max_overflow=0)
            event.listen(self._sync_engine, "connect", _sqlite_pragmas)
            self._writer_pool = ThreadPoolExecutor(max_workers=1,
                                                   thread_name_prefix="sqlite-writer")

    async def close(self) -> None:
        await self.engine.dispose()
        if self.url.is_postgres:
            await self.autocommit.dispose()
        if self._writer_pool is not None:
            self._writer_pool.shutdown(wait=True)
            self._sync_engine.dispose()

    # -- transactions ---------------------------------------------------------------------------
    async def write(self, fn: Callable[[Any], Any]) -> Any:
        """SQLite: run fn(connection) in one transaction on the writer thread."""
        def run():
            with self._sync_engine.begin() as conn:
                return fn(conn)

        return await asyncio.get_running_loop().run_in_executor(self._writer_pool, run)

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
        return await self.write(lambda conn: _insert_table_sync(conn, values, seat_rows))

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

    async def open_tables(self, game: str | None, limit: int) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            q = (select(game_tables).where(game_tables.c.status == "waiting",
                                           game_tables.c.public.is_(True))
                 .order_by(game_tables.c.created_at.desc()).limit(limit))
            if game:
                q = q.where(game_tables.c.game == game)
            return [_row(r) for r in await conn.execute(q)]

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


def dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))
