"""Drivers: the bots, the turn timers and the window clocks of the tables.

Every table that is being played has exactly one driver task, in one process:
- SQLite (one process): this process drives every table with status `playing`; at start it
  takes up all of them again (after a crash or kill -9 the games go on where their records end).
- PostgreSQL (any number of processes): a process drives a table while it holds the session
  advisory lock (727272, table id) on its own lock connection. A process that lets a table
  go (it parks it, or stops) unlocks it and notifies "table_id:free" (NOTIFY cardtable): the
  others' listeners wake their claim loops at once. Every `claim_interval` seconds each
  process asks once which playing tables nobody holds (`FREE_SQL`: game_tables against
  pg_locks, one query whatever the number of tables) and tries to lock only those: an idle
  process makes one query an interval, not one a table. If a process dies its connection
  closes, the locks go, and another process takes its tables over within about
  `claim_interval`. Even two drivers could not corrupt a game: every decision carries the
  action index it was made at and is refused as stale if the table moved on
  (runtime.decide).
- A table is driven where its players are (`foreign_change`): a process that drives a table no
  client of its own watches, and gets the NOTIFY of another process's commit to it, lets it
  go ("table_id:free") and keeps off it for a `claim_interval` unless one of its clients comes;
  the process whose players committed claims it at once. Else both processes would read and
  replay every decision of it (the driver from the NOTIFY), twice the CPU a decision. A change
  of a table another process held at the last claim round wakes no claim round (`ensure`).

**A table of bots only that nobody watches is not driven** (`unattended`): its driver stops
(parks it) before the next step, and it goes on when a client connects to it (runtime.attach
tells the drivers). Nothing is lost: the game waits where its record ends, its bots think
about nobody's game in the meantime, and the sweeper deletes it after `idle_ttl` like any other
game nobody plays. On PostgreSQL the process that parks a table releases its lock and
remembers it (`_parked`): it claims it again only while one of its own clients watches it, so
the table moves to the process of whoever watches it (within `claim_interval`). A table
whose players all left (rated or not: `left_by_players`) is played out all the same, watched
or not, at bot speed: they were told a bot plays their seats to the end, and its result,
their ratings and its creator's quota wait for that end. A table with a human seat is
always driven (its timers run, and its player may be connected to another process). The bot
pool serves the tables where a person plays before the watched tables of bots (`rank`,
botpool.py), and those before the left ones.

A driver loop: bots (and the stand-in bot of an away human) decide after `bot_delay`; a human's
turn timer running out makes the stand-in decide and marks the seat away (it plays for the seat
until the player returns: connects again, or sends `back` or a decision); in a window of
simultaneous decisions (the engine's `window()`, e.g. Kombio's snap window) the bot seats
answer (an answer that is not the window's silence, e.g. a snap, after a reaction time of
30-70 % of the window, so a quick human can be first) and the window is closed at its
deadline; a round break (runtime.py) ends when the players are ready or its time is over.

Turn-based tables (pace.py, turns.py): the same loop, on days instead of seconds. A human's
move time running out makes the stand-in decide (`by: "timeout"`) and then the table's
`on_timeout` (a bot's move only, or the seat dropped to the stand-in); before that the
reminder is due (`TableRuntime.reminder_at`) and the driver sends it (`remind`). In a window
that collects every answer (`collects`) bots answer at once. Every time the drivers and the
sweeper read or wait on goes through the hub's clock (clock.py), so tests advance a FakeClock.

A bot sees only its seat's knowledge: `cardtable.bots.act` hands it a determinization for its
seat. Searching bots think in worker processes (botpool.py: people's tables first, their
owners in turn: `owners`), the cheap ones in worker threads, on copies of the state. Every
bot's seed has 128 bits of OS randomness (security.secret_seed): a player cannot replay a
bot's choices to learn its hand.

The drivers start `Sweeper` (background.py): abandoned tables expire (Settings.waiting_ttl,
idle_ttl, unseen_ttl); finished games are kept.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from cardtable.bots import act, make_bot
from cardtable.server.tables.lessons import lesson_bot
from cardtable.server.tables.background import Sweeper
from cardtable.server.tables.botpool import BotPool, Withdrawn
from cardtable.server.store.db import NOTIFY_CHANNEL
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.runtime import TableRuntime
from cardtable.server.store.schema import BY_BOT, BY_STANDIN, BY_TIMEOUT
from cardtable.server.tables.table_base import ProtocolError, log_failure
from cardtable.server.guard.security import secret_seed

log = logging.getLogger("cardtable.server.driver")

#: first key of the drivers' advisory locks (the second is the table id); migrations use 727270
LOCK_NAMESPACE = 727272

#: the playing tables of this database and whether their driver lock is free (one query: an
#: idle process asks this once a `claim_interval`, instead of trying every table's lock)
FREE_SQL = """
SELECT g.id, NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND l.classid::bigint = %(ns)s AND l.objid::bigint = g.id) AS free
FROM game_tables g WHERE g.status = 'playing'
"""

#: a table's rank in the bot pool (lower first): a person plays there, it is watched, neither
RANK_PLAYED, RANK_WATCHED, RANK_ALONE = 0, 1, 2


def left_by_players(rt: TableRuntime) -> bool:
    """A seat of the table was a person's who left the game (the `leave` message, or dropped
    at a turn-based table): the stand-in bot holds a seat somebody had joined."""
    return any(s["kind"] == "bot" and s.get("joined_at") is not None for s in rt.seats)


def unattended(rt: TableRuntime) -> bool:
    """Bots only and no client of this process: nobody to play for (the driver parks it).
    Not a table its players left (`left_by_players`: a bot took each of their seats): they
    were told a bot plays their seat to the end, their creator's quota waits for that end, and
    at a rated table their ratings too, so its bots play it out at bot speed (one game's
    work, then it is over and its result is stored like any other)."""
    return (not rt.conns and all(s["kind"] == "bot" for s in rt.seats)
            and not rt.row.get("rated") and not left_by_players(rt))


def rank(rt: TableRuntime) -> int | None:
    """The table's place in the bot pool's queue (botpool.py): RANK_PLAYED if a person plays
    there (a seat's client is connected here, or a human seat is not away: its player may be
    connected to another process), RANK_WATCHED if a spectator is here, else RANK_ALONE (a
    table of away players); None for a table nobody is at any more (its request is
    withdrawn)."""
    if any(c.seat is not None for c in rt.conns) or any(
            s["kind"] == "human" and not s["away"] for s in rt.seats):
        return RANK_PLAYED
    if rt.conns:
        return RANK_WATCHED
    return None if unattended(rt) else RANK_ALONE


async def owners(store, table_id: int) -> tuple:
    """Whose table it is in the bot pool (botpool.py, owners in turn): its creator's address
    group (the quota key: an IPv4 address, an IPv6 /56) and the account holding its host's
    seat. A table of neither (made before creators were kept) is an owner of its own."""
    creator, account = await store.table_owners(table_id)
    keys = []
    if creator is not None:
        keys.append(("creator", creator))
    if account is not None:
        keys.append(("account", account))
    return tuple(keys) or (("table", table_id),)


class Drivers:
    def __init__(self, hub: Hub, settings):
        self.hub = hub
        self.settings = settings
        self.store = hub.store
        self.tasks: dict[int, asyncio.Task] = {}
        self._bots: dict[tuple, object] = {}
        self._rng = random.Random()             # bots' reaction times in windows only
        self._parked: set[int] = set()          # tables of bots only left when nobody watched
        self._owners: dict[int, tuple] = {}     # table -> its owners in the bot pool (owners)
        #: tables handed over to their players' process (foreign_change) -> when (monotonic):
        #: not claimed again here for a `claim_interval` unless a client here watches them
        self._handed: dict[int, float] = {}
        self._handing: set[int] = set()
        #: playing tables another process held at the last claim round: a change of one
        #: wakes no claim round here (`ensure`); its "free" note or the next round does
        self._elsewhere: set[int] = set()
        self.pool = BotPool(settings.bot_workers) if settings.bot_workers > 0 else None
        self.sweeper = Sweeper(hub, settings)
        self._claim_task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._lockconn = None
        self._lockconn_lock = asyncio.Lock()
        self._stopping = False
        #: statements sent on the lock connection and claim rounds done (PostgreSQL): an idle
        #: process sends one a round (tests/server/test_lock_notify.py, docs/deploy.md)
        self.lock_queries = 0
        self.claim_rounds = 0
        self.handovers = 0                      # tables handed over (foreign_change)
        hub.on_change = self.ensure
        hub.on_expired = self._expired
        hub.on_foreign = self.foreign_change

    # -- ownership -----------------------------------------------------------------------------------
    async def start(self) -> None:
        self.sweeper.start()
        if self.store.url.is_postgres:
            self._claim_task = asyncio.create_task(self._claim_loop())
        else:
            for table_id in await self.store.playing_ids():
                self._start(table_id)

    async def stop(self) -> None:
        self._stopping = True
        await self.sweeper.stop()
        if self.pool is not None:
            await self.pool.close()
        await self.release_all()

    async def release_all(self) -> None:
        """Stop driving every table and give up their locks (a process that drains before it
        exits, app.py): another process claims them at its next look (`claim_interval`). A
        driver in the middle of a change (a bot's decision being committed) finishes it first:
        each task is cancelled while this holds its table's lock. Claims nothing afterwards."""
        self._stopping = True
        held = [i for i in self.tasks if self.store.url.is_postgres]
        if self._claim_task:
            self._claim_task.cancel()
        tasks = list(self.tasks.items())
        for table_id, task in tasks:
            rt = self.hub.rts.get(table_id)
            if rt is None:
                task.cancel()
                continue
            async with rt.lock:                   # not in the middle of a commit
                task.cancel()
        await asyncio.gather(*(t for _, t in tasks),
                             *([self._claim_task] if self._claim_task else []),
                             return_exceptions=True)
        if self._lockconn is not None:            # closing it lets every lock go at once
            try:
                if held and not self._lockconn.closed:   # the others take them over at once
                    async with self._lockconn_lock:
                        self.lock_queries += 2
                        await self._lockconn.execute("SELECT pg_advisory_unlock_all()")
                        await self._lockconn.execute(
                            "SELECT pg_notify(%s, x::text || ':free') FROM unnest(%s::int[]) x",
                            (NOTIFY_CHANNEL, held))
                await self._lockconn.close()
            except Exception:
                pass
            self._lockconn = None

    def _expired(self, table_id: int) -> None:
        self._parked.discard(table_id)
        self._handed.pop(table_id, None)
        task = self.tasks.pop(table_id, None)
        if task is not None:
            task.cancel()

    def freed(self, table_id: int) -> None:
        """Another process let a table go ("table_id:free", Listener): claim it now rather than
        at the next round."""
        self._elsewhere.discard(table_id)
        if not self._stopping and table_id not in self.tasks:
            self._wake.set()

    def foreign_change(self, rt: TableRuntime) -> None:
        """Another process committed a change of a table this process drives, and no client
        of this process watches it (Hub.notified): its players are at that process. Driving
        it here would make both processes read and replay every decision (this one from the
        NOTIFY). The driver stops and lets it go ("table_id:free"); that process claims it
        at once, and this one does not claim it again for a `claim_interval` unless one of
        its own clients watches it (after that any process may: if that one died, the table
        is driven again within about `claim_interval`)."""
        task = self.tasks.get(rt.id)
        if task is None or rt.conns or self._stopping or not self.store.url.is_postgres:
            return
        if rt.id in self._handing:
            return
        self._handing.add(rt.id)
        asyncio.ensure_future(self._hand_over(rt, task)).add_done_callback(log_failure)

    async def _hand_over(self, rt: TableRuntime, task: asyncio.Task) -> None:
        try:
            async with rt.lock:                   # not in the middle of a commit
                if rt.conns or self.tasks.get(rt.id) is not task or self._stopping:
                    return                        # a client came meanwhile: it stays here
                self._handed[rt.id] = time.monotonic()
                task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # unlocks, notifies "free"
            self.handovers += 1
            log.info("table %d handed over: its players commit at another process", rt.id)
        finally:
            self._handing.discard(rt.id)

    def ensure(self, rt: TableRuntime) -> None:
        """Called after every change this process made, and when a client connects to a table
        nobody here watched (runtime.attach): drive newly started tables, and parked ones."""
        if rt.status != "playing" or rt.id in self.tasks or self._stopping:
            return
        if self.store.url.is_postgres:
            if rt.id not in self._elsewhere:      # (held by another process: no use)
                self._wake.set()
        else:
            self._start(rt.id)

    def _start(self, table_id: int) -> None:
        if table_id in self.tasks or self._stopping:
            return
        task = asyncio.create_task(self._drive(table_id))
        self.tasks[table_id] = task
        task.add_done_callback(log_failure)

    async def _lock_sql(self, sql: str, *params):
        async with self._lockconn_lock:
            self.lock_queries += 1
            cur = await self._lockconn.execute(sql, params)
            row = await cur.fetchone()
            return row[0] if row else None

    async def _playing_tables(self) -> tuple[set[int], list[int]]:
        """The playing tables, and those of them nobody drives (FREE_SQL, on the lock
        connection: the query also shows that the connection, and with it this process's
        locks, is alive)."""
        async with self._lockconn_lock:
            self.lock_queries += 1
            cur = await self._lockconn.execute(FREE_SQL, {"ns": LOCK_NAMESPACE})
            rows = await cur.fetchall()
        return {r[0] for r in rows}, [r[0] for r in rows if r[1]]

    async def _claim_loop(self) -> None:
        import psycopg

        while not self._stopping:
            self._wake.clear()                    # a wake from now on means another round
            try:
                if self._lockconn is None or self._lockconn.closed:
                    for t in list(self.tasks.values()):        # our locks are gone with it
                        t.cancel()
                    self._lockconn = await psycopg.AsyncConnection.connect(
                        self.store.url.libpq(), autocommit=True)
                playing, free = await self._playing_tables()
                self._parked.intersection_update(playing)
                self._elsewhere = playing.difference(free, self.tasks)
                since = time.monotonic() - self.settings.claim_interval
                for table_id in [i for i, t in self._handed.items()
                                 if t < since or i not in playing]:
                    del self._handed[table_id]
                for table_id in free:
                    if table_id in self.tasks:
                        continue
                    if table_id in self._parked and not self._watched_here(table_id):
                        continue                  # bots only, nobody here watches it
                    if table_id in self._handed and not self._watched_here(table_id):
                        continue                  # handed to its players' process
                    if await self._lock_sql("SELECT pg_try_advisory_lock(%s, %s)",
                                            LOCK_NAMESPACE, table_id):
                        self._start(table_id)
                self.claim_rounds += 1
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("claiming tables failed: %s", e)
                if self._lockconn is not None:
                    try:
                        await self._lockconn.close()
                    except Exception:
                        pass
                self._lockconn = None
            try:
                await asyncio.wait_for(self._wake.wait(), self.settings.claim_interval)
            except TimeoutError:
                pass

    def _watched_here(self, table_id: int) -> bool:
        rt = self.hub.rts.get(table_id)
        return rt is not None and bool(rt.conns)

    async def _release(self, table_id: int, playing: bool) -> None:
        """Unlock a table this process drove; one still being played (parked) is notified as
        "table_id:free", so another process whose client watches it claims it at once."""
        if self.store.url.is_postgres and self._lockconn is not None and not self._lockconn.closed:
            try:
                if playing:
                    await self._lock_sql("SELECT pg_advisory_unlock(%s, %s), pg_notify(%s, %s)",
                                         LOCK_NAMESPACE, table_id, NOTIFY_CHANNEL,
                                         f"{table_id}:free")
                else:
                    await self._lock_sql("SELECT pg_advisory_unlock(%s, %s)",
                                         LOCK_NAMESPACE, table_id)
            except Exception:
                pass

    # -- bots ------------------------------------------------------------------------------------------
    def bot_for(self, rt: TableRuntime, seat: int) -> tuple[str, object]:
        """(The bot's name or level, its bot) for `seat`: its own, or the stand-in."""
        s = rt.seats[seat]
        name = s["bot"] if s["kind"] == "bot" else self.settings.standin
        key = (rt.id, seat, name)
        bot = self._bots.get(key)
        if bot is None:
            bot = lesson_bot(rt.settings.get("lesson") if s["kind"] == "bot" else None,
                             make_bot(name, seed=secret_seed()))     # a lesson's script first
            self._bots[key] = bot
        return name, bot

    async def choose(self, rt: TableRuntime, seat: int, window: bool = False) -> str:
        name, bot = self.bot_for(rt, seat)
        state = rt.window_state(seat) if window else rt.state.copy()
        try:
            if bot.searches and self.pool is not None:
                if rt.id not in self._owners:
                    self._owners[rt.id] = await owners(self.store, rt.id)
                return await self.pool.decide(rt.id, name, bot.rng.below(2**62), state,
                                              rank=lambda: rank(rt), owners=self._owners[rt.id])
            return (await asyncio.to_thread(act, bot, state)).text
        except (asyncio.CancelledError, Withdrawn):
            raise
        except Exception:                 # a broken bot must not stall the table
            log.exception("bot %s failed at table #%d; a random bot decides", bot.name, rt.id)
            decision = await asyncio.to_thread(act, make_bot("random", seed=secret_seed()),
                                               state)
            return decision.text

    # -- one table ----------------------------------------------------------------------------------------
    async def _drive(self, table_id: int) -> None:
        rt = await self.hub.runtime(table_id)
        if rt is None:
            self.tasks.pop(table_id, None)
            return
        rt.driven = True
        try:
            if unattended(rt):                      # (see the module docstring)
                self._parked.add(table_id)
                return
            self._parked.discard(table_id)
            await rt.refresh()
            if rt.deadline is not None and rt.deadline < self.hub.clock.now():
                await rt.reset_deadline()           # expired while nobody drove: full time again
            planned: dict[int, tuple[int, str, float]] = {}
            while rt.status != "over":
                if unattended(rt):                  # the last spectator left: park it
                    self._parked.add(table_id)
                    break
                try:
                    await self._step(rt, planned)
                except Withdrawn:                   # nobody there any more (botpool.py)
                    continue
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("driver of table #%d", rt.id)
                    await self.hub.clock.sleep(1.0)
                    try:
                        await rt.refresh()
                    except Exception:
                        pass
        finally:
            rt.driven = False
            self.tasks.pop(table_id, None)
            self._owners.pop(table_id, None)
            for key in [k for k in self._bots if k[0] == table_id]:
                del self._bots[key]
            self.hub.release(rt)
            if not self._stopping:
                await self._release(table_id, rt.status == "playing")

    @staticmethod
    async def _decide_for(rt: TableRuntime, seat: int, text: str, n: int, by=None) -> None:
        """Decide for `seat` as its bot, stand-in or timer (`by`). The decision is tied to move
        `n`: when a player's own decision got there first it is refused, which is fine."""
        if by is None:
            by = BY_BOT if rt.seats[seat]["kind"] == "bot" else BY_STANDIN
        try:
            await rt.decide(seat, text, by=by, expected=n)
        except ProtocolError:
            pass

    async def _step(self, rt: TableRuntime, planned: dict) -> None:
        tick, n, state = rt.tick, rt.n, rt.state
        if rt.status != "playing" or state.over:
            await rt.wait_change(tick, None if rt.status == "waiting" else 1.0)
            return
        clock = self.hub.clock
        now = clock.now()
        end = rt.break_end()
        if end is not None:                 # a round break: nobody decides during it
            if end <= now:
                await rt.end_break(n)
                return
            await rt.wait_change(tick, end - now)
            return
        window = rt.window()
        if window is not None:
            order, answers = rt.window_order(), rt.answers()
            todo = [s for s in order if s not in answers and rt.is_auto(s)]
            for s in todo:
                if planned.get(s, (None,))[0] != n:
                    text = await self.choose(rt, s, window=True)
                    if rt.n != n:
                        return
                    # (a table that collects every answer has no race to be first: at once)
                    delay = 0.0 if text == window.silence or rt.collects() else \
                        self._rng.uniform(0.3, 0.7) * rt.window_seconds()
                    planned[s] = (n, text, clock.now() + delay)
            for s in list(planned):
                if planned[s][0] != n or s not in todo:
                    del planned[s]
            now = clock.now()
            due = sorted((p[2], s) for s, p in planned.items() if p[2] <= now)
            if due:
                s = due[0][1]
                _, text, _ = planned.pop(s)
                await self._decide_for(rt, s, text, n)
                return
            if rt.deadline is not None and rt.deadline <= now:
                await rt.close_window(n)
                return
            remind = rt.reminder_at()
            if remind is not None and remind <= now:
                await rt.remind(n)
                return
            wake = [p[2] for p in planned.values()]
            if rt.deadline is not None:
                wake.append(rt.deadline)
            if remind is not None:
                wake.append(remind)
            await rt.wait_change(tick, (min(wake) - now) if wake else None)
            return
        seat = state.to_move
        if rt.is_auto(seat):
            t0 = time.monotonic()
            text = await self.choose(rt, seat)
            wait = self.settings.bot_delay - (time.monotonic() - t0)
            if wait > 0:
                await clock.sleep(wait)
            await self._decide_for(rt, seat, text, n)
            return
        if rt.deadline is not None:
            if rt.deadline <= now:
                await self._decide_for(rt, seat, await self.choose(rt, seat), n, BY_TIMEOUT)
                return
            remind = rt.reminder_at()
            if remind is not None and remind <= now:
                await rt.remind(n)
                return
            await rt.wait_change(tick, min(rt.deadline, remind or rt.deadline) - now)
            return
        await rt.wait_change(tick, None)
