"""A change of one table in one transaction (`Tx`: SQLAlchemy, PostgreSQL and the readers;
`BatchTx`: the SQLite writer's batch of changes, see sqlite_writer.py)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.server.store.schema import NOTIFY_CHANNEL, Conflict, row_dict, actions, game_tables, seats
from cardtable.server.store.sqlite_writer import INSERT_ACTIONS, insert_table_sqlite, update_sql
from cardtable.server.clock import Clock
from cardtable.server.config import DatabaseURL
from cardtable.server.store.pg_fast import DecisionPool


class TxStore(Protocol):
    """What a transaction needs of its store (db.py's `Store` is one): the transaction sits
    below the store, which makes it."""
    url: DatabaseURL
    clock: Clock
    engine: AsyncEngine
    decisions: DecisionPool | None

    async def write(self, fn: Callable[[sqlite3.Cursor], Any]) -> Any: ...

    async def load(self, table_id: int, since: int = 0): ...

    async def seats_of(self, table_id: int) -> list[dict[str, Any]]: ...


class Tx:
    """A transaction holding the lock of one table row (see `Store.locked`): PostgreSQL.

    Reads and writes go to the database at once; the row is locked (SELECT ... FOR UPDATE)
    until the commit."""

    def __init__(self, store: TxStore, conn: AsyncConnection | None, row: dict[str, Any]):
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
        return [row_dict(r) for r in res]

    async def actions_since(self, start: int) -> list[tuple[int, int, str, str]]:
        res = await self.conn.execute(
            select(actions.c.idx, actions.c.seat, actions.c.text, actions.c.by)
            .where(actions.c.table_id == self.table_id, actions.c.idx >= start)
            .where(actions.c.idx < self.row["n_actions"])
            .order_by(actions.c.idx))
        return [(r.idx, r.seat, r.text, r.by) for r in res]

    def _action_rows(self, start: int, items) -> list[dict]:
        now = self.store.clock.now()
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
        self.new_table_id = await insert_new_table(self.conn, values, seat_rows)

    async def also(self, make_op) -> None:
        """Run the operation `make_op()` (a generator of (sql, params) statements in plain SQL
        with :named parameters, sent each statement's rows: accounts.py's idiom) in this
        transaction: it commits, or fails, with the table's change (ratings.py)."""
        await self.conn.run_sync(lambda c: _drive_sync(c, make_op()))
        self.touch()

    def set(self, **values) -> None:
        """Change columns of the table row (written, with a new version, at commit)."""
        self._changes.update(values)
        self.row.update(values)
        self.notify = True

    def touch(self) -> None:
        self.notify = True

    def changed(self, column: str) -> bool:
        """True if this transaction sets `column` of the table row."""
        return column in self._changes

    def _row_update(self):
        version = self.row["version"] + 1
        values = dict(self._changes, version=version, updated_at=self.store.clock.now())
        return version, values

    async def finish(self) -> None:
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

    def __init__(self, store: TxStore, row: dict[str, Any]):
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

    async def also(self, make_op) -> None:
        self._ops.append(("also", make_op))
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
            elif op[0] == "also":
                _drive_sync(conn, op[1]())

    def _write_sqlite(self, cur: sqlite3.Cursor, values: dict) -> None:
        """`_write` in plain SQL on the SQLite writer's connection (see `GroupWriter`): the
        guarded row update first (a Conflict writes nothing), then the other writes."""
        sql, params = update_sql("game_tables", values)
        cur.execute(sql + " WHERE id = ? AND version = ?", params + [self.table_id,
                                                                    self._version0])
        if cur.rowcount != 1:
            raise Conflict(f"table {self.table_id} changed meanwhile")
        for op in self._ops:
            if op[0] == "insert":
                cur.executemany(INSERT_ACTIONS, [
                    (r["table_id"], r["idx"], r["seat"], r["text"], r["by"], r["at"])
                    for r in op[2]])
            elif op[0] == "update_seat":
                sql, params = update_sql("seats", op[2])
                cur.execute(sql + " WHERE table_id = ? AND seat = ?",
                            params + [self.table_id, op[1]])
            elif op[0] == "insert_table":
                self.new_table_id = insert_table_sqlite(cur, op[1], op[2])
            elif op[0] == "also":
                drive_sqlite(cur, op[1]())

    async def finish(self) -> None:
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




def _drive_sync(conn, op) -> Any:
    """Run a generator of (sql, params) on a synchronous SQLAlchemy connection."""
    rows = None
    try:
        while True:
            sql, params = op.send(rows)
            res = conn.execute(text(sql), params)
            rows = [tuple(r) for r in res] if res.returns_rows else []
    except StopIteration as stop:
        return stop.value


def drive_sqlite(cur: sqlite3.Cursor, op) -> Any:
    """... on the SQLite writer's cursor (sqlite3 takes :named parameters too)."""
    rows = None
    try:
        while True:
            sql, params = op.send(rows)
            rows = cur.execute(sql, params).fetchall()
    except StopIteration as stop:
        return stop.value


async def insert_new_table(conn: AsyncConnection, values: dict, seat_rows: list[dict]) -> int:
    return await conn.run_sync(_insert_table_sync, values, seat_rows)


def _insert_table_sync(conn, values: dict, seat_rows: list[dict]) -> int:
    """Insert a table row and its seats (SQLAlchemy Core); the new table's id. `values` may
    carry `created_at` (the app's clock); else now."""
    values = dict(values)
    now = values.pop("created_at", None) or time.time()
    res = conn.execute(insert(game_tables).values(
        **values, n_actions=0, version=1, created_at=now, updated_at=now)
        .returning(game_tables.c.id))
    table_id = res.scalar_one()
    conn.execute(insert(seats), [dict(r, table_id=table_id) for r in seat_rows])
    return table_id
