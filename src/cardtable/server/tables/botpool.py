"""Where the server's searching bots think: a bounded pool of worker processes, shared by the
tables, people's tables first.

A search bot (pimc, the `hard` and `expert` levels, or ismcts) spends up to seconds of CPU on a
decision. In threads of the server process it held the interpreter's lock against the event
loop: ten tables of expert bots pushed every player's decision round trip past a second. Here:

- **Outside the event loop's process, at the lowest CPU priority.** Decisions of searching bots
  (`Bot.searches`) run in `workers` processes (by default one fewer than the CPU cores, at
  least one and at most 4: config.default_bot_workers; started with `spawn`: no copy of the
  server's threads, sockets or database connections), each at nice 19, so the server's own
  process, which answers the players, is scheduled first. A decision travels as (bot name,
  seed, the state): the worker builds the bot and calls `cardtable.bots.act`, which shows it
  only its seat's knowledge, as before.
- **People first.** Every request has a rank, asked again each time a worker is free (a
  spectator may come or go while it waits): 0 a table where a person plays, 1 a table only
  watched, 2 neither (driver.rank). A free worker takes the lowest rank. A rank of None
  withdraws the request (nobody is there any more: its awaiter gets `Withdrawn`, no worker
  spends time on it).
- **Owners in turn.** Within a rank the owners of the tables take turns (round robin): a
  request names its owners (driver.owners: the creator's address group, the account of its
  host), and the free worker takes the request whose owners were served longest ago (an
  owner never served: first; of several owners, the one served last counts, so neither one
  address with many accounts nor one account from many addresses gets more than one turn);
  among one owner's tables, the table served longest ago. One client's many expert tables
  share that client's turn: they cannot hold up another client's table longer than one
  decision per client waiting. A request without owners is an owner of its own.
- **At most one waiting request per table** (a table's driver asks for one decision at a time;
  a newer request replaces an older one, whose awaiter gets `Withdrawn`): the queue is never
  longer than the number of tables being driven, and `workers` decisions run at once. When
  many tables wait, each waits its turn: with W workers and C owners whose tables of one rank
  wait, an owner gets a decision about every C/W decision times, shared by its tables; the
  people's tables are served before any of them. How many owners have searching tables at all
  is capped where tables are made (quotas.py, security.Limits.all_search_tables_per_worker;
  per owner: search_tables), and unwatched tables of bots only are not driven (driver.py), so
  they never queue.
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
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from cardtable.core.game import GameState
from cardtable.server.observe.metrics import UNWIRED

log = logging.getLogger("cardtable.server.bots")

#: the CPU priority of the workers, added to the server's (19: the lowest there is)
WORKER_NICE = 19


class Withdrawn(Exception):
    """A request the pool will not serve: nobody wants its decision any more (its rank is None),
    or a newer request of the same table replaced it."""


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


class Job:
    """Another piece of work for the pool than a bot's decision (the coach's estimates, a
    review's decision: server/tables/coach.py): `fn(*args)` in a worker, queued and ranked as a
    table's decision is (`BotPool.run`)."""

    __slots__ = ("fn", "args")

    def __init__(self, fn: Callable, args: tuple):
        self.fn = fn
        self.args = args


class BotPool:
    """`workers` processes; `fn(name, seed, state)` is what a worker runs (`think`; a test may
    give another module-level function, or override `_submit`)."""

    metrics = UNWIRED                               # the app's (observe/metrics.py)

    def __init__(self, workers: int, fn=think):
        self.workers = max(1, workers)
        self.fn = fn
        self._executor: ProcessPoolExecutor | None = None
        #: table -> its one waiting request (args, asyncio future, rank)
        self._waiting: dict[object, tuple[tuple, asyncio.Future, object]] = {}
        self._served: dict[object, int] = {}        # table -> when it was last served
        self._owner_served: dict[object, int] = {}  # owner -> when it was last served
        self._owners: dict[object, tuple] = {}      # waiting table -> its owners
        self._clock = 0
        self._busy = 0
        self.done = 0                               # decisions made (statistics)
        self.withdrawn = 0                          # requests dropped unserved (statistics)
        self.queued: dict[object, float] = {}       # waiting table -> since when (metrics)

    def stats(self) -> dict:
        return {"workers": self.workers, "busy": self._busy, "decisions": self.done,
                "waiting": len(self._waiting), "withdrawn": self.withdrawn}

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, initializer=_init_worker, initargs=(os.getpid(),),
                mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def _submit(self, args: tuple) -> Future:
        """Start `fn(*args)` in a worker (a test's pool may run it elsewhere); a `Job`'s own
        function with its own arguments."""
        if args and isinstance(args[0], Job):
            return self._pool().submit(args[0].fn, *args[0].args)
        return self._pool().submit(self.fn, *args)

    async def run(self, key, fn: Callable, args: tuple,
                  rank: Callable[[], int | None] | int = 0, owners: tuple = ()):
        """`fn(*args)` (a module-level function: it travels to a worker by name) made in a
        worker when it is `key`'s turn, exactly as a table's decision (`decide`): one waiting
        request per key (a newer one withdraws the older), ranked by `rank`, in turn with
        other `owners`."""
        fut = asyncio.get_running_loop().create_future()
        old = self._waiting.pop(key, None)
        if old is not None:
            self._withdraw(old[1], "a newer request replaced it")
        self._waiting[key] = ((Job(fn, args),), fut, rank)
        self.queued[key] = time.perf_counter()
        self._owners[key] = tuple(owners)
        self._dispatch()
        return await fut

    async def decide(self, table, name: str, seed: int, state: GameState,
                     rank: Callable[[], int | None] | int = 0, owners: tuple = ()) -> str:
        """The bot's decision, made in a worker when it is `table`'s turn. `rank()`: its
        place (lower first; None: withdraw it), asked whenever a worker is free; `owners`:
        whose table it is (hashable keys; owners take turns within a rank)."""
        fut = asyncio.get_running_loop().create_future()
        old = self._waiting.pop(table, None)
        if old is not None:
            self._withdraw(old[1], "a newer request of the table replaced it")
        self._waiting[table] = ((name, seed, state), fut, rank)
        self.queued[table] = time.perf_counter()
        self._owners[table] = tuple(owners)
        self._dispatch()
        return await fut

    def _owner_keys(self, table) -> tuple:
        return self._owners.get(table) or (("table", table),)

    def _withdraw(self, fut: asyncio.Future, why: str) -> None:
        if not fut.done():
            fut.set_exception(Withdrawn(why))
            self.withdrawn += 1

    def _next(self):
        """The waiting table to serve: the lowest rank, then the one whose owners were served
        longest ago, then the one served longest ago; the requests whose rank is None (or
        whose awaiter has gone) are dropped on the way."""
        best, best_key = None, None
        for table, (_, fut, rank) in list(self._waiting.items()):
            r = rank() if callable(rank) else rank
            if r is None or fut.done():
                del self._waiting[table]
                self._owners.pop(table, None)
                self.queued.pop(table, None)
                self._withdraw(fut, "nobody is at the table any more")
                continue
            owner = max(self._owner_served.get(o, -1) for o in self._owner_keys(table))
            key = (r, owner, self._served.get(table, -1))
            if best_key is None or key < best_key:
                best, best_key = table, key
        return best

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.workers and self._waiting:
            table = self._next()
            if table is None:
                return
            args, fut, _ = self._waiting.pop(table)
            now = time.perf_counter()
            self.metrics.bot_waited(now - self.queued.pop(table, now))
            self._clock += 1
            self._served[table] = self._clock
            for o in self._owner_keys(table):
                self._owner_served[o] = self._clock
            self._owners.pop(table, None)
            for served in (self._served, self._owner_served):
                if len(served) > 10_000:            # forget those served longest ago
                    for t in sorted(served, key=served.get)[:5_000]:
                        del served[t]
            self._busy += 1
            try:
                cf = self._submit(args)
            except (BrokenProcessPool, RuntimeError) as e:
                self._busy -= 1
                self._broken(self._executor, e)
                fut.set_exception(e)
                continue
            pool = self._executor                   # the one that runs it (None: a test's)
            cf.add_done_callback(lambda cf, fut=fut, pool=pool: loop.call_soon_threadsafe(
                self._finished, cf, fut, pool))

    def _finished(self, cf: Future, fut: asyncio.Future, pool) -> None:
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

    def _broken(self, pool: ProcessPoolExecutor | None, exc: BaseException) -> None:
        """`pool` broke (a worker died): if it is still the current one, start a new one."""
        if pool is None or self._executor is not pool:
            return
        log.error("bot worker pool broke (%s): starting a new one", exc)
        pool.shutdown(wait=False, cancel_futures=True)
        self._executor = None

    async def close(self) -> None:
        """Cancel what waits, and stop the workers (after the decisions they are making)."""
        for _, fut, _ in self._waiting.values():
            fut.cancel()
        self._waiting.clear()
        self._owners.clear()
        self.queued.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
