"""The server's background tasks beside the drivers: `Sweeper` (abandoned tables expire) and,
on PostgreSQL, `Listener` (LISTEN cardtable: every commit, table talk, a driver's release and a
ban of any process reach this one). docs/deploy.md says what each costs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from cardtable.server.store.db import NOTIFY_CHANNEL
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.table_base import log_failure

log = logging.getLogger("cardtable.server.driver")


class _Background:
    """A task of the server's lifetime: `start()` runs `_run()`, `stop()` cancels it."""

    _task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        raise NotImplementedError


class Sweeper(_Background):
    """Deletes abandoned tables every `sweep_interval` seconds: tables nobody joined for
    `waiting_ttl`, games nobody played for `idle_ttl`, tables at which a seat was taken and
    no seat's player connected within `unseen_ttl` of their making (finished games stay, with
    their records). A table with a client of this process is never deleted. On PostgreSQL one
    process sweeps at a time (advisory lock 727271); every deletion is notified, and each
    process closes its clients' connections to a deleted table."""

    LOCK = 727271

    def __init__(self, hub: Hub, settings):
        self.hub = hub
        self.settings = settings

    def start(self) -> None:
        if self.settings.sweep_interval > 0:
            super().start()

    async def _run(self) -> None:
        while True:
            await self.hub.clock.sleep(self.settings.sweep_interval)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("sweeping abandoned tables failed: %s", e)

    async def sweep(self, now: float | None = None) -> list[int]:
        """One sweep; the ids of the deleted tables."""
        now = self.hub.clock.now() if now is None else now
        keep = {i for i, rt in self.hub.rts.items() if rt.conns}
        unseen = now - self.settings.unseen_ttl if self.settings.unseen_ttl > 0 else None
        store = self.hub.store
        if store.url.is_postgres:
            from sqlalchemy import text

            async with store.engine.connect() as conn:
                got = (await conn.execute(text("SELECT pg_try_advisory_lock(:k)"),
                                          {"k": self.LOCK})).scalar()
                if not got:
                    return []
                try:
                    gone = await store.sweep(now - self.settings.waiting_ttl,
                                             now - self.settings.idle_ttl, keep,
                                             now - self.settings.turn_ttl, unseen)
                finally:
                    await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": self.LOCK})
        else:
            gone = await store.sweep(now - self.settings.waiting_ttl,
                                     now - self.settings.idle_ttl, keep,
                                     now - self.settings.turn_ttl, unseen)
        for table_id in gone:
            self.hub.expired(table_id)
        if gone:
            log.info("expired %d abandoned tables", len(gone))
        return gone


class Listener(_Background):
    """PostgreSQL LISTEN cardtable: every commit of any process reaches this process's tables;
    a table talk's note ("table_id:chat") goes to `on_chat` (the app passes chat.py's), a
    table another process let go ("table_id:free") to `on_free` (Drivers.freed), a ban's
    ("ban:<id>") to `on_ban` (ws/bans.py's: it closes the connections the ban names)."""

    def __init__(self, hub: Hub, on_chat: Callable[[Hub, int], None],
                 on_free: Callable[[int], None] | None = None,
                 on_ban: Callable[[Hub, int], None] | None = None):
        self.hub, self.on_chat, self.on_free, self.on_ban = hub, on_chat, on_free, on_ban
        self.ready = asyncio.Event()

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.hub.store.url.libpq(),
                                                             autocommit=True)
                try:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    for rt in list(self.hub.rts.values()):     # missed while disconnected
                        asyncio.ensure_future(rt.refresh()).add_done_callback(log_failure)
                    self.ready.set()
                    async for note in conn.notifies():
                        table_id, _, version = note.payload.partition(":")
                        if table_id == "ban":                # a ban (ws/bans.py)
                            if self.on_ban is not None and version.isdigit():
                                self.on_ban(self.hub, int(version))
                            continue
                        if version == "chat":              # table talk (chat.py)
                            self.on_chat(self.hub, int(table_id))
                            continue
                        if version == "free":              # a driver let it go (Drivers)
                            if self.on_free is not None:
                                self.on_free(int(table_id))
                            continue
                        try:
                            table_id, version = int(table_id), int(version)
                        except ValueError:
                            continue
                        if version < 0:                    # deleted (Sweeper)
                            self.hub.expired(table_id)
                        else:
                            self.hub.notified(table_id, version)
                finally:
                    self.ready.clear()
                    await conn.close()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("LISTEN connection lost: %s", e)
                await asyncio.sleep(1.0)
