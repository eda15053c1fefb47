"""The hub: the tables this process holds in memory (loaded from the database on demand,
pinned while in use, dropped when nobody uses them)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from cardtable.core.record import load_record
from cardtable.server.clock import Clock
from cardtable.server.observe.metrics import UNWIRED
from cardtable.server.tables.runtime import TableRuntime
from cardtable.server.tables.table_base import Stats, log_failure


class Hub:
    """The runtimes of this process (loaded on demand, dropped when unused)."""

    def __init__(self, store, settings):
        self.store = store
        self.settings = settings
        self.clock = getattr(store, "clock", None) or Clock()   # the game's time (clock.py)
        self.rts: dict[int, TableRuntime] = {}
        self._loading: dict[int, asyncio.Future] = {}
        #: notifications of tables being loaded (their commits may be newer than the read)
        self._missed: dict[int, int | None] = {}
        self.stats = Stats()
        self.on_change: Callable[[TableRuntime], None] | None = None
        self.on_expired: Callable[[int], None] | None = None
        #: another process committed a change of a table this process drives and nobody here
        #: watches (driver.Drivers.foreign_change: the table goes to its players' process)
        self.on_foreign: Callable[[TableRuntime], None] | None = None
        self.clients = None                # security.ClientLimits (set by the app)
        self.push = None                   # push.Pusher (set by the app): "your move" alerts
        self.metrics = UNWIRED             # the app's (observe/metrics.py)

    async def runtime(self, table_id: int) -> TableRuntime | None:
        """The table's runtime, loaded if need be, and pinned: it stays this process's one
        runtime of the table until the caller calls `release` (once per call of this)."""
        while True:
            rt = self.rts.get(table_id)
            if rt is None:
                fut = self._loading.get(table_id)
                if fut is None:
                    rt = await self._load(table_id)
                else:
                    rt = await asyncio.shield(fut)
                    if rt is not None and self.rts.get(table_id) is not rt:
                        continue                  # released by its loader before we got it
            if rt is not None:
                rt.pins += 1
            return rt

    async def _load(self, table_id: int) -> TableRuntime | None:
        fut = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row, seat_rows, rows = await self.store.load(table_id)
            if row is None:
                rt = None
            else:
                rec = dict(row["base"], actions=[t for _, _, t, _ in rows])
                state = await asyncio.to_thread(load_record, rec)
                rt = TableRuntime(self, row, seat_rows, state, [(s, b) for _, s, _, b in rows])
                self.rts[table_id] = rt
                if table_id in self._missed:       # a commit notified while it was read
                    version = self._missed.pop(table_id)
                    if version is None or version > rt.version:
                        asyncio.ensure_future(rt.refresh(version)).add_done_callback(
                            log_failure)
            fut.set_result(rt)
            return rt
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()                        # mark retrieved
            raise
        finally:
            self._loading.pop(table_id, None)
            self._missed.pop(table_id, None)

    async def runtime_by_code(self, code: str) -> TableRuntime | None:
        """The runtime of the table `code`, pinned as by `runtime` (the caller releases it)."""
        for rt in self.rts.values():
            if rt.code == code:
                # pinned here too: unpinned, its caller's release could drop it while others
                # use it, and the next request load a second runtime of the table (two locks:
                # their changes raced, a join's lost the race as a 500)
                rt.pins += 1
                return rt
        row = await self.store.table_by_code(code)
        if row is None:
            return None
        return await self.runtime(row["id"])

    @asynccontextmanager
    async def held(self, table_id: int) -> AsyncIterator[TableRuntime | None]:
        """`runtime(table_id)`, released at the end of the block."""
        rt = await self.runtime(table_id)
        try:
            yield rt
        finally:
            if rt is not None:
                self.release(rt)

    def release(self, rt: TableRuntime) -> None:
        """Unpin a runtime `runtime` gave; it is dropped when nobody holds it any more."""
        rt.pins -= 1
        if rt.pins <= 0 and not rt.conns and not rt.driven and self.rts.get(rt.id) is rt:
            del self.rts[rt.id]

    def notified(self, table_id: int, version: int | None) -> None:
        """A NOTIFY from the database (any process's commit)."""
        rt = self.rts.get(table_id)
        if rt is None and table_id in self._loading:
            # being loaded: its read may predate this commit, refreshed once it is loaded
            # (else its clients would wait for the next change, and their turn never come)
            known = self._missed.get(table_id, -1)
            self._missed[table_id] = (None if version is None or known is None
                                      else max(known, version))
            return
        if rt is not None and (version is None or version > rt.version):
            # newer than the runtime and not the version this process is committing:
            # another process's commit
            if (rt.driven and not rt.conns and version is not None
                    and version != rt.committing and self.on_foreign is not None):
                self.on_foreign(rt)
            task = asyncio.ensure_future(rt.refresh(version))
            task.add_done_callback(log_failure)

    def expired(self, table_id: int) -> None:
        """The table was deleted (background.Sweeper): its clients are told and disconnected."""
        rt = self.rts.pop(table_id, None)
        if self.on_expired is not None:
            self.on_expired(table_id)
        if rt is None:
            return
        rt.gone = "expired"
        for c in list(rt.conns):
            rt.tell_gone(c)

    def after_change(self, rt: TableRuntime) -> None:
        if self.on_change is not None:
            self.on_change(rt)
        if self.push is not None:
            self.push.changed(rt)
