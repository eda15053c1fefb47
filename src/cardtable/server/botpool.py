"""Where the server's searching bots think: a bounded pool of worker processes, shared fairly
by the tables.

A search bot (pimc, the `hard` and `expert` levels, or ismcts) spends up to seconds of CPU on a
decision. In threads of the server process it held the interpreter's lock against the event
loop: ten tables of expert bots pushed every player's decision round trip past a second. Here:

- **Outside the event loop's process.** Decisions of searching bots (`Bot.searches`) run in
  `workers` processes (started with `spawn`: no copy of the server's threads, sockets or
  database connections), each at a lower CPU priority (`nice`), so the server's own process,
  which answers the players, is scheduled first. A decision travels as (bot name, seed, the
  state): the worker builds the bot and calls `cardtable.bots.act`, which shows it only its
  seat's knowledge, as before.
- **A fair share per table.** Jobs wait in one queue per table; a free worker serves the
  table whose last decision was made longest ago (never served: first), so a table whose bots
  queue many decisions does not starve the others, and every table's bots progress at the same
  pace under load.
- **Limits per client** are applied where tables are made (security.Limits.search_tables).
- The cheap bots (random, greedy, heuristic: a fraction of a millisecond) keep running in a
  thread of the server process: sending them to a worker would cost more than their decision.

If a worker dies, the pool is rebuilt and the decision is made by the random bot (a table never
stalls on a broken bot).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from cardtable.core.game import GameState

log = logging.getLogger("cardtable.server.bots")

#: the CPU priority of the workers, relative to the server's process (higher: yields more)
WORKER_NICE = 10


def _init_worker(parent: int) -> None:
    try:
        os.nice(WORKER_NICE)
    except OSError:
        pass
    # a worker outlives a server killed with SIGKILL (it holds its own end of the job queue,
    # so it never reads an end of file): it watches its parent and goes with it
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    import cardtable.bots  # noqa: F401  (import once, not in the first decision)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def think(name: str, seed: int, state: GameState) -> str:
    """(In a worker.) The decision of `state.to_move` by the bot `name` (a level or a bot)."""
    from cardtable.bots import act, make_bot

    return act(make_bot(name, seed=seed), state).text


class BotPool:
    """`workers` processes; `fn(name, seed, state)` is what a worker runs (`think`; a test may
    give another module-level function)."""

    def __init__(self, workers: int, fn=think):
        self.workers = max(1, workers)
        self.fn = fn
        self._executor: ProcessPoolExecutor | None = None
        self._queues: dict[object, deque] = {}      # table -> [(args, asyncio future)]
        self._served: dict[object, int] = {}        # table -> when it was last served
        self._clock = 0
        self._busy = 0
        self.done = 0                               # decisions made (statistics)

    def stats(self) -> dict:
        return {"workers": self.workers, "busy": self._busy, "decisions": self.done,
                "waiting": sum(len(q) for q in self._queues.values())}

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, initializer=_init_worker, initargs=(os.getpid(),),
                mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    async def decide(self, table, name: str, seed: int, state: GameState) -> str:
        """The bot's decision, made in a worker when it is `table`'s turn."""
        fut = asyncio.get_running_loop().create_future()
        self._queues.setdefault(table, deque()).append(((name, seed, state), fut))
        self._dispatch()
        return await fut

    def _next(self):
        """The waiting table served longest ago."""
        return min(self._queues, key=lambda t: self._served.get(t, -1))

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.workers and self._queues:
            table = self._next()
            q = self._queues[table]
            args, fut = q.popleft()
            if not q:
                del self._queues[table]
            if fut.cancelled():
                continue
            self._clock += 1
            self._served[table] = self._clock
            if len(self._served) > 10_000:          # forget the tables served longest ago
                for t in sorted(self._served, key=self._served.get)[:5_000]:
                    del self._served[t]
            self._busy += 1
            pool = self._pool()
            try:
                cf = pool.submit(self.fn, *args)
            except (BrokenProcessPool, RuntimeError) as e:
                self._busy -= 1
                self._broken(pool, e)
                fut.set_exception(e)
                continue
            cf.add_done_callback(lambda cf, fut=fut, pool=pool: loop.call_soon_threadsafe(
                self._finished, cf, fut, pool))

    def _finished(self, cf: Future, fut: asyncio.Future, pool: ProcessPoolExecutor) -> None:
        self._busy -= 1
        self.done += 1
        exc = BrokenProcessPool("cancelled") if cf.cancelled() else cf.exception()
        if isinstance(exc, BrokenProcessPool):
            self._broken(pool, exc)
        if not fut.done():
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(cf.result())
        self._dispatch()

    def _broken(self, pool: ProcessPoolExecutor, exc: BaseException) -> None:
        """`pool` broke (a worker died): if it is still the current one, start a new one."""
        if self._executor is not pool:
            return
        log.error("bot worker pool broke (%s): starting a new one", exc)
        pool.shutdown(wait=False, cancel_futures=True)
        self._executor = None

    async def close(self) -> None:
        """Cancel what waits, and stop the workers (after the decisions they are making)."""
        for q in self._queues.values():
            for _, fut in q:
                fut.cancel()
        self._queues.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
