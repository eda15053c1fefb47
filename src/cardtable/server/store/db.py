"""Persistence: `Store`, the asynchronous data access of the server. Its parts, one concern a
module: `schema.py` (the tables, SQLAlchemy Core; Alembic migrations in `migrations/` create
them), `tx.py` (one change of a table in one transaction), `sqlite_writer.py` (SQLite's writer
thread and group commit) and `pg_fast.py` (PostgreSQL's one-statement decisions).

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

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import (
    event,
    func,
    select,
    text,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from cardtable.server.clock import Clock
from cardtable.server.config import DatabaseURL
from cardtable.server.store.pg_fast import DecisionPool
from cardtable.server.store.schema import (NOTIFY_CHANNEL, Conflict, row_dict, actions, game_tables,  # noqa: F401
                                     metadata, seats, token_hash)
from cardtable.server.store.sqlite_writer import GroupWriter, insert_table_sqlite, sqlite_pragmas
from cardtable.server.store.tx import BatchTx, Tx, insert_new_table  # noqa: F401

def idle_options(idle_seconds: float) -> str:
    """libpq `options` that make the database server close the session after `idle_seconds`
    idle outside a transaction ("" for 0: never)."""
    if idle_seconds <= 0:
        return ""
    return f"-c idle_session_timeout={max(1, round(idle_seconds * 1000))}"


class Store:
    """Asynchronous access to the database.

    PostgreSQL: SQLAlchemy asyncio over psycopg 3; every transaction runs on the event loop.
    SQLite: reads through aiosqlite; writes in plain SQL on one writer thread and connection
    (`GroupWriter`), the changes that queue up meanwhile in one transaction (group commit), so
    no write lock is ever held across awaits, the process's tables do not queue behind each
    other's round trips, and a burst of decisions costs one COMMIT.

    The engine's connections (PostgreSQL: `pool_size` + `max_overflow`, and `decision_pool`
    of the decisions: store/budget.py counts them; SQLite: 5 + 5 readers)
    are handed out first come, first served; when all are busy a read waits for one as long as
    it takes (`pool_timeout`, None: no limit), so a burst of requests waits instead of failing
    (with SQLAlchemy's default, 30 s, a burst on SQLite got errors). How many wait is bounded by
    the server's open connections (`Settings.max_connections`)."""

    #: the SQLite readers: a connection is a thread of aiosqlite's; reads in WAL mode run side by
    #: side, and more threads than this do not read faster on a few cores
    SQLITE_READERS = (5, 5)

    def __init__(self, url: DatabaseURL, pool_size: int = 10, max_overflow: int = 10,
                 clock: Clock | None = None, pool_timeout: float | None = None,
                 decision_pool: int | None = None, idle_seconds: float = 0.0):
        self.url = url
        self.clock = clock or Clock()           # the times it writes (clock.py)
        if url.is_postgres:
            # an idle pool connection is closed by the database server after `idle_seconds`
            # (idle_session_timeout, PostgreSQL 14+): a quiet process holds only its LISTEN
            # and lock connections; the pools notice (pre-ping, DecisionPool's ping) and
            # open a new one when needed. Never on those two: they are idle by design.
            options = idle_options(idle_seconds)
            self.engine: AsyncEngine = create_async_engine(
                url.async_url, pool_size=pool_size, max_overflow=max_overflow,
                pool_timeout=pool_timeout, pool_pre_ping=True,
                connect_args={"options": options} if options else {})
            # the decisions' one-statement writes: their own connections (autocommit)
            self.decisions = DecisionPool(
                url.libpq(), pool_size if decision_pool is None else decision_pool,
                ping_after=min(10.0, idle_seconds / 2) if idle_seconds > 0 else 10.0,
                options=options)
            self._writer = None
        else:
            size, overflow = self.SQLITE_READERS
            self.engine = create_async_engine(url.async_url, pool_size=size,
                                              max_overflow=overflow, pool_timeout=pool_timeout)
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
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
            await tx.finish()
            return
        async with self.engine.begin() as conn:
            q = select(game_tables).where(game_tables.c.id == table_id).with_for_update()
            r = (await conn.execute(q)).first()
            if r is None:
                raise LookupError(f"no table {table_id}")
            tx = Tx(self, conn, row_dict(r))
            yield tx
            await tx.finish()

    async def create_table(self, values: dict, seat_rows: list[dict]) -> int:
        if self.url.is_postgres:
            async with self.engine.begin() as conn:
                return await insert_new_table(conn, values, seat_rows)
        return await self.write(lambda cur: insert_table_sqlite(cur, values, seat_rows))

    # -- reads ----------------------------------------------------------------------------------
    async def table_by_code(self, code: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(game_tables).where(game_tables.c.code == code))).first()
            return row_dict(r) if r else None

    async def table_row(self, table_id: int) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(game_tables).where(game_tables.c.id == table_id))).first()
            return row_dict(r) if r else None

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
            return (row_dict(r), [row_dict(x) for x in s],
                    [(x.idx, x.seat, x.text, x.by) for x in a])

    async def seat_by_token(self, table_id: int, token: str) -> int | None:
        """The seat the token holds at the table, or None. Only a human seat: a seat a bot
        took for good (its player left, or a turn-based table dropped them) is held by no
        token, whatever its row says, so nobody plays, sees or talks as it."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(
                select(seats.c.seat).where(seats.c.table_id == table_id,
                                           seats.c.kind == "human",
                                           seats.c.token_hash == token_hash(token)))).first()
            return r.seat if r else None

    async def seats_of(self, table_id: int) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            s = await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                   .order_by(seats.c.seat))
            return [row_dict(x) for x in s]

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
            rows = [row_dict(r) for r in await conn.execute(q)]
            by_table: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
            if rows:
                res = await conn.execute(select(seats).where(seats.c.table_id.in_(list(by_table)))
                                         .order_by(seats.c.table_id, seats.c.seat))
                for x in res:
                    by_table[x.table_id].append(row_dict(x))
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

    async def unfinished_by_creator(self, creator: str | list[str]) -> list[dict[str, Any]]:
        """Id and settings of the tables `creator` (security.AddressKeys.client_key; a list:
        any of them, its keys under each address key) made that are not over."""
        creators = [creator] if isinstance(creator, str) else list(creator)
        async with self.engine.connect() as conn:
            res = await conn.execute(
                select(game_tables.c.id, game_tables.c.settings)
                .where(game_tables.c.creator.in_(creators), game_tables.c.status != "over"))
            return [row_dict(r) for r in res]

    async def mark_seen(self, table_id: int, now: float) -> None:
        """A seat's player connected to the table: `seen_at`, the first time only (the sweeper
        then gives the table the expiry of a table somebody plays at)."""
        if not self.url.is_postgres:
            def run(cur: sqlite3.Cursor) -> None:
                cur.execute("UPDATE game_tables SET seen_at = ? WHERE id = ? AND seen_at IS NULL",
                            (now, table_id))
            await self.write(run)
            return
        async with self.engine.begin() as conn:
            await conn.execute(game_tables.update().where(
                game_tables.c.id == table_id, game_tables.c.seen_at.is_(None)).values(
                seen_at=now))

    async def table_owners(self, table_id: int) -> tuple[str | None, int | None]:
        """Whose table it is, for the bot pool's fair shares: its creator (security.client_key)
        and the account holding its host's seat (the first taken human seat), if any."""
        async with self.engine.connect() as conn:
            creator = (await conn.execute(select(game_tables.c.creator).where(
                game_tables.c.id == table_id))).scalar()
            account = (await conn.execute(
                select(seats.c.account_id).where(
                    seats.c.table_id == table_id, seats.c.kind == "human",
                    seats.c.joined_at.is_not(None)).order_by(seats.c.seat).limit(1))).scalar()
            return creator, account

    async def server_key(self, name: str, make: Callable[[], str]) -> str:
        """The server's key `name` (table server_keys): made by `make()` and stored at the
        first start; every process of the server reads the same one (the first to store it
        wins a race)."""
        sql = "SELECT value FROM server_keys WHERE name = :name"
        async with self.engine.connect() as conn:
            row = (await conn.execute(text(sql), {"name": name})).first()
        if row is not None:
            return row.value
        insert = ("INSERT INTO server_keys (name, value, created_at) VALUES (:name, :value, :t) "
                  "ON CONFLICT (name) DO NOTHING")
        params = {"name": name, "value": make(), "t": self.clock.now()}
        if self.url.is_postgres:
            async with self.engine.begin() as conn:
                await conn.execute(text(insert), params)
        else:
            await self.write(lambda cur: cur.execute(insert, params))   # sqlite3: :names too
        async with self.engine.connect() as conn:
            return (await conn.execute(text(sql), {"name": name})).first().value

    async def seat_clients(self, table_id: int) -> list[str | None]:
        async with self.engine.connect() as conn:
            res = await conn.execute(select(seats.c.client).where(seats.c.table_id == table_id)
                                     .order_by(seats.c.seat))
            return [r.client for r in res]

    async def sweep(self, waiting_before: float, idle_before: float,
                    keep: set[int] = frozenset(), moved_before: float | None = None,
                    unseen_before: float | None = None) -> list[int]:
        """Delete the tables nobody joined since `waiting_before` and the games nobody played
        since `idle_before` (epoch seconds), except those in `keep`; finished games stay.
        A turn-based game (pace.py) goes by `moved_before` instead: deleted when no player
        made a move of their own since then (its timeouts' moves do not count). A table made
        before `unseen_before` at which a seat is taken and no seat's player ever connected
        (`seen_at` NULL) goes too, whatever its pace. Their ids (PostgreSQL: each deletion is
        notified as "id:-1")."""
        moved_before = idle_before if moved_before is None else moved_before
        unseen_before = -1.0 if unseen_before is None else unseen_before     # (none)
        live = (game_tables.c.pace.is_(None)) | (game_tables.c.pace != "turn")
        moved = func.coalesce(game_tables.c.moved_at, game_tables.c.created_at)
        cond = ((game_tables.c.status == "waiting") & (game_tables.c.updated_at < waiting_before)) \
            | ((game_tables.c.status == "playing") & live
               & (game_tables.c.updated_at < idle_before)) \
            | ((game_tables.c.status == "playing") & (game_tables.c.pace == "turn")
               & (moved < moved_before)) \
            | (game_tables.c.status.in_(("waiting", "playing")) & game_tables.c.seen_at.is_(None)
               & (game_tables.c.created_at < unseen_before)
               & select(seats.c.seat).where(
                   seats.c.table_id == game_tables.c.id, seats.c.kind == "human",
                   seats.c.joined_at.is_not(None)).exists())
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
                        "(status = 'playing' AND coalesce(pace, 'live') <> 'turn' "
                        "AND updated_at < ?) OR "
                        "(status = 'playing' AND pace = 'turn' "
                        "AND coalesce(moved_at, created_at) < ?) OR "
                        "(status IN ('waiting', 'playing') AND seen_at IS NULL "
                        "AND created_at < ? AND EXISTS (SELECT 1 FROM seats WHERE "
                        "seats.table_id = game_tables.id AND seats.kind = 'human' "
                        "AND seats.joined_at IS NOT NULL))) RETURNING id",
                        [*ids, waiting_before, idle_before, moved_before, unseen_before])
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
