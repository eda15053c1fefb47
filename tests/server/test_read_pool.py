"""A burst of reads larger than the database pool waits for connections instead of failing
(db.Store: no pool timeout). Before, a read that found every connection busy for 30 s
(SQLAlchemy's default `pool_timeout`) failed with a TimeoutError: under a burst, an SQLite
server answered 36 requests with errors. On SQLite and PostgreSQL, in one process.

The pool's timers run on the event loop's clock: the test's loop lets an hour pass for them
at once (`JumpLoop`), so the test needs no wall-clock wait to outlast any timeout."""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack

import pytest
from helpers import database_url

from cardtable.server.config import DatabaseURL
from cardtable.server.store.db import Store
from cardtable.server.store.migrate import upgrade


class JumpLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock can be moved forward (`offset`): its timers fire as if that
    much time had passed."""

    offset = 0.0

    def time(self) -> float:
        return super().time() + self.offset


async def _waiting(store: Store, n: int) -> None:
    """Yield to the loop until `n` reads wait for a connection of the pool (its queue's
    waiters; a hang guard of 60 s)."""
    queue = store.engine.pool._pool._queue                 # sqlalchemy's AsyncAdaptedQueue
    deadline = time.monotonic() + 60
    while len(queue._getters) < n:
        assert time.monotonic() < deadline, f"{len(queue._getters)} of {n} reads wait"
        await asyncio.sleep(0)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_burst_of_reads_larger_than_the_pool_waits_and_all_succeed(request, tmp_path, kind):
    url = DatabaseURL(database_url(kind, request, tmp_path))
    upgrade(url)
    loop = JumpLoop()

    async def main():
        store = Store(url)
        try:
            pool = store.engine.pool
            size = pool.size() + pool._max_overflow           # every connection it may open
            burst = 3 * size
            async with AsyncExitStack() as held:
                for _ in range(size):                          # all busy (a slow burst)
                    await held.enter_async_context(store.engine.connect())
                reads = [asyncio.create_task(store.playing_ids()) for _ in range(burst)]
                await _waiting(store, burst)
                loop.offset += 3600.0                          # an hour passes for the timers
                for _ in range(10):
                    await asyncio.sleep(0)
                assert not any(r.done() for r in reads)        # still waiting, none failed
            # the held connections go back: every read gets one in turn
            return await asyncio.gather(*reads, return_exceptions=True)
        finally:
            await store.close()

    try:
        results = loop.run_until_complete(main())
    finally:
        loop.close()
    assert results == [[]] * len(results), [r for r in results if r != []][:3]
