"""Issue 29, item 5: searching bots of many tables must not slow the people's games.

- The bot pool serves the tables where a person plays first, then the watched tables of bots
  (oldest served first within a rank), keeps one waiting request per table, and withdraws the
  requests of tables nobody is at any more (unit tests with a fake worker: no processes).
- A table of bots only that nobody watches is not driven: it waits where its record ends while
  a watched one plays, goes on when a spectator connects, stops when the last one leaves, and
  expires after `idle_ttl` like any game nobody plays; on PostgreSQL a spectator on another
  process than the one that parked it gets it driven there.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Future
from types import SimpleNamespace

import pytest
from helpers import Client, ServerProc, assert_clean_log, database_url, run_async
from sizes import database_kinds

from cardtable.server.tables.botpool import BotPool, Withdrawn
from cardtable.server.tables.driver import RANK_ALONE, RANK_PLAYED, RANK_WATCHED, rank


# -- the pool's order (a fake worker: a job starts when the pool submits it and ends when the
# -- test says) -----------------------------------------------------------------------------------
class FakePool(BotPool):
    def __init__(self, workers: int = 1):
        super().__init__(workers, fn=None)
        self.started: list[str] = []              # the jobs' names, in the order they started
        self.running: list[Future] = []

    def _submit(self, args: tuple) -> Future:
        cf: Future = Future()
        self.started.append(args[0])
        self.running.append(cf)
        return cf

    async def finish_one(self) -> None:
        """The oldest running job ends; wait until the pool has looked for the next one."""
        n = self.done
        cf = self.running.pop(0)
        cf.set_result("done")
        while self.done == n:                      # _finished runs on the loop
            await asyncio.sleep(0)


async def _until(cond, what: str) -> None:
    """Yield to the loop until `cond()` holds (the pool has taken the requests made so far);
    a hang guard of 60 s, not a time budget."""
    deadline = time.monotonic() + 60
    while not cond():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0)


def test_a_human_table_is_served_before_twenty_bot_tables():
    """20 watched bot tables ask first, a table where a person plays asks last: its request is
    the next one the (busy) worker takes, and the bot tables follow in the order they came."""
    async def main():
        pool = FakePool(1)
        tasks = [asyncio.create_task(pool.decide("busy", "busy", 0, None, rank=RANK_WATCHED))]
        await _until(lambda: pool.started == ["busy"], "the busy job started")
        tasks += [asyncio.create_task(pool.decide(f"bots{i}", f"bots{i}", 0, None,
                                                  rank=RANK_WATCHED)) for i in range(20)]
        await _until(lambda: pool.stats()["waiting"] == 20, "20 bot tables wait")
        tasks.append(asyncio.create_task(pool.decide("people", "people", 0, None,
                                                     rank=RANK_PLAYED)))
        await _until(lambda: pool.stats()["waiting"] == 21, "the people's table waits")
        assert pool.stats()["waiting"] == 21 and pool.started == ["busy"]
        while pool.running:
            await pool.finish_one()
        await asyncio.gather(*tasks)
        return pool.started

    started = run_async(main())
    assert started == ["busy", "people"] + [f"bots{i}" for i in range(20)]


def test_the_rank_is_asked_when_a_worker_is_free():
    """A spectator who arrives while the request waits moves it up; a table nobody is at any
    more (rank None) is withdrawn without a worker spending time on it."""
    async def main():
        pool = FakePool(1)
        ranks = {"a": RANK_ALONE, "b": RANK_WATCHED, "gone": RANK_WATCHED}
        busy = asyncio.create_task(pool.decide("busy", "busy", 0, None))
        await _until(lambda: pool.started == ["busy"], "the busy job started")
        tasks = {t: asyncio.create_task(pool.decide(t, t, 0, None, rank=lambda t=t: ranks[t]))
                 for t in ("a", "b", "gone")}
        await _until(lambda: pool.stats()["waiting"] == 3, "three tables wait")
        ranks["a"] = RANK_PLAYED                     # its player connects
        ranks["gone"] = None                         # its last spectator leaves
        while pool.running or pool.stats()["waiting"]:
            await pool.finish_one()
        await busy
        with pytest.raises(Withdrawn):
            await tasks["gone"]
        assert await tasks["a"] == await tasks["b"] == "done"
        return pool.started, pool.stats()

    started, stats = run_async(main())
    assert started == ["busy", "a", "b"]
    assert stats["withdrawn"] == 1 and stats["decisions"] == 3


def test_one_waiting_request_per_table_and_the_oldest_served_first():
    """A table's newer request replaces its waiting one (the queue is never longer than the
    tables); of two tables of one rank, the one served longer ago goes first."""
    async def main():
        pool = FakePool(1)
        first = asyncio.create_task(pool.decide("A", "a0", 0, None))
        await _until(lambda: pool.started == ["a0"], "A's job started")
        await pool.finish_one()                      # A has been served
        assert await first == "done"
        busy = asyncio.create_task(pool.decide("X", "x0", 0, None))
        await _until(lambda: pool.started == ["a0", "x0"], "X's job started")
        old = asyncio.create_task(pool.decide("A", "a1", 0, None))
        await _until(lambda: pool.stats()["waiting"] == 1, "A's request waits")
        new = asyncio.create_task(pool.decide("A", "a2", 0, None))
        b = asyncio.create_task(pool.decide("B", "b0", 0, None))
        await _until(lambda: old.done() and pool.stats()["waiting"] == 2, "A's newer and B's wait")
        assert pool.stats()["waiting"] == 2                       # A once, B once
        with pytest.raises(Withdrawn):
            await old
        while pool.running:
            await pool.finish_one()
        await asyncio.gather(busy, new, b)
        return pool.started

    assert run_async(main()) == ["a0", "x0", "b0", "a2"]


def test_one_clients_many_expert_tables_do_not_hold_up_anothers():
    """Client A's four expert tables ask first, client B's one table last: B's table is served
    second, not fifth (owners take turns within a rank; before, every table of A went first)."""
    async def main():
        pool = FakePool(1)
        a = ("creator", "A")
        tasks = [asyncio.create_task(pool.decide("busy", "busy", 0, None))]
        await _until(lambda: pool.started == ["busy"], "the busy job started")
        tasks += [asyncio.create_task(pool.decide(f"a{i}", f"a{i}", 0, None, owners=(a,)))
                  for i in range(4)]
        tasks.append(asyncio.create_task(pool.decide("b", "b", 0, None,
                                                     owners=(("creator", "B"),))))
        await _until(lambda: pool.stats()["waiting"] == 5, "five tables wait")
        while pool.running:
            await pool.finish_one()
        await asyncio.gather(*tasks)
        return pool.started

    assert run_async(main()) == ["busy", "a0", "b", "a1", "a2", "a3"]


def test_an_account_from_two_addresses_has_one_turn():
    """One account's tables made from two address groups share one turn, as one address's
    tables of two accounts do: a third client's table comes second."""
    async def main():
        pool = FakePool(1)
        tasks = [asyncio.create_task(pool.decide("busy", "busy", 0, None))]
        await _until(lambda: pool.started == ["busy"], "the busy job started")
        for table, owners in (("x1", (("creator", "X1"), ("account", 7))),
                              ("x2", (("creator", "X2"), ("account", 7))),
                              ("y1", (("creator", "Y"), ("account", 8))),
                              ("y2", (("creator", "Y"), ("account", 9))),
                              ("z", (("creator", "Z"),))):
            tasks.append(asyncio.create_task(pool.decide(table, table, 0, None,
                                                         owners=owners)))
        await _until(lambda: pool.stats()["waiting"] == 5, "five tables wait")
        while pool.running:
            await pool.finish_one()
        await asyncio.gather(*tasks)
        return pool.started

    assert run_async(main()) == ["busy", "x1", "y1", "z", "x2", "y2"]


def test_people_still_come_before_owners_turns():
    """The owners' turns are taken within a rank: a watched table of bots of a client never
    served waits for a people's table of a client just served."""
    async def main():
        pool = FakePool(1)
        first = asyncio.create_task(pool.decide("p0", "p0", 0, None, rank=RANK_PLAYED,
                                                owners=(("creator", "P"),)))
        await _until(lambda: pool.started == ["p0"], "P's first job started")
        w = asyncio.create_task(pool.decide("w", "w", 0, None, rank=RANK_WATCHED,
                                            owners=(("creator", "W"),)))
        p = asyncio.create_task(pool.decide("p1", "p1", 0, None, rank=RANK_PLAYED,
                                            owners=(("creator", "P"),)))
        await _until(lambda: pool.stats()["waiting"] == 2, "two tables wait")
        while pool.running:
            await pool.finish_one()
        await asyncio.gather(first, w, p)
        return pool.started

    assert run_async(main()) == ["p0", "p1", "w"]


def test_rank_of_a_table():
    def rt(seats, conns=(), rated=False):
        return SimpleNamespace(seats=[{"kind": k, "away": away} for k, away in seats],
                               conns=[SimpleNamespace(seat=s) for s in conns],
                               row={"rated": rated})

    bots = [("bot", False)] * 3
    assert rank(rt(bots)) is None                                   # nobody: not driven
    assert rank(rt(bots, rated=True)) == RANK_ALONE   # a rated game its players left: played out
    left = SimpleNamespace(seats=[{"kind": "bot", "away": False, "joined_at": 1.0}] + [
        {"kind": "bot", "away": False, "joined_at": None}] * 2, conns=[], row={"rated": False})
    assert rank(left) == RANK_ALONE                   # a game its player left: played out
    assert rank(rt(bots, conns=[None])) == RANK_WATCHED             # a spectator
    assert rank(rt([("human", False)] + bots)) == RANK_PLAYED       # maybe on another process
    assert rank(rt([("human", True)] + bots, conns=[0])) == RANK_PLAYED
    assert rank(rt([("human", True)] + bots)) == RANK_ALONE         # away, nobody here
    assert rank(rt([("human", True)] + bots, conns=[None])) == RANK_WATCHED


# -- a real server -------------------------------------------------------------------------------
BOTS = {"game": "kombio", "players": 2, "target": 1000, "snap_seconds": 0.2,
        "seats": [{"kind": "bot", "bot": "easy"}] * 2}


def _actions(srv: ServerProc, code: str) -> int:
    r = srv.get(f"/api/tables/{code}")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"
    return r.json()["actions"]


async def _events(c: Client, n: int, start: int = 0) -> None:
    """Until `c` has been sent `n` more events (from message `start` on)."""
    seen = 0

    def pred(m):
        nonlocal seen
        if m["type"] == "event":
            seen += 1
        return seen >= n

    await c.wait_for(pred, timeout=300, start=start)


def test_an_unwatched_bot_table_waits_and_resumes(server):
    """Bots played tables nobody watched: 30 expert tables made a human's expert opponent take
    14 s per move. Now such a table waits where it is while a watched one plays; it goes on
    when a spectator connects and stops again when the spectator leaves."""
    async def main():
        alone = server.create(**BOTS)["table"]["code"]
        watched = server.create(**BOTS)["table"]["code"]
        w = await Client(server.ws_base, watched).connect()
        before = _actions(server, alone)
        await _events(w, 40)                       # the watched table plays on ...
        assert _actions(server, alone) == before   # ... the other one has not moved
        spec = await Client(server.ws_base, alone).connect()
        await _events(spec, 10)                    # a spectator: it goes on
        await spec.close()
        mark = len(w.messages)
        await _events(w, 40, mark)                 # (its step under way, if any, ends)
        left = _actions(server, alone)
        await _events(w, 40, len(w.messages))
        assert _actions(server, alone) == left > before
        await w.close()

    run_async(main())


@pytest.mark.parametrize("kind", database_kinds("test_an_unwatched_bot_table_expires"))
def test_an_unwatched_bot_table_expires(kind, request, tmp_path, logs):
    """A table of bots only that nobody watches is a game nobody plays: the sweeper deletes it
    after `idle_ttl` (3 s here); one with a spectator stays. (Before, the bots played it to
    its end, unwatched.)"""
    srv = ServerProc(database_url(kind, request, tmp_path), log_dir=logs,
                     args=("--idle-ttl", "3", "--sweep-interval", "0.3")).start()
    try:
        async def main():
            watched = srv.create(**BOTS)["table"]["code"]
            w = await Client(srv.ws_base, watched).connect()
            alone = srv.create(**BOTS)["table"]["code"]
            guard = time.time() + 300               # only a guard against a hang
            while (r := srv.get(f"/api/tables/{alone}")).status_code != 404:
                assert r.json()["status"] == "playing"      # (not played to its end)
                assert time.time() < guard, "the unwatched table did not expire"
                await asyncio.sleep(0.2)
            assert srv.get(f"/api/tables/{watched}").status_code == 200
            await w.close()

        run_async(main())
    finally:
        srv.stop()
    assert_clean_log(logs)


def test_a_spectator_on_another_process_gets_the_table_driven(request, tmp_path, logs):
    """PostgreSQL, two processes: the table is made through A, which parks it (nobody watches
    it there); a spectator connects to B, and B takes it up and drives it."""
    url = database_url("postgresql", request, tmp_path)
    a_srv = ServerProc(url, log_dir=logs).start()
    b_srv = ServerProc(url, log_dir=logs).start()
    try:
        async def main():
            code = a_srv.create(**BOTS)["table"]["code"]
            spec = await Client(b_srv.ws_base, code).connect()
            await _events(spec, 20)
            assert b_srv.get("/api/health").json()["driving"] == 1
            assert a_srv.get("/api/health").json()["driving"] == 0
            await spec.close()

        run_async(main())
    finally:
        a_srv.stop()
        b_srv.stop()
    assert_clean_log(logs)


def test_the_owners_of_a_table(tmp_path):
    """A table's owners in the bot pool: a guest's table its creator's address group; a
    logged-in creator's table the account (its quota key, tables/quotas.py `account_key`, and
    the account holding its host's seat)."""
    from accounts_helpers import app_client

    from cardtable.server.tables.driver import owners

    with app_client(str(tmp_path / "o.db")) as web:
        store = web.app.state.hub().store
        code, _ = web.guest_table()
        r, sess = web.sign_up("Owner")
        assert r.status_code == 201, r.text
        r = web.call("POST", "/api/tables", sess, json={
            "game": "kombio", "players": 2, "name": "Owner", "public": False,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "expert"}]})
        assert r.status_code == 201, r.text
        mine = r.json()["table"]["code"]

        async def both():
            guest = await store.table_by_code(code)
            owned = await store.table_by_code(mine)
            return (await owners(store, guest["id"]), await owners(store, owned["id"]),
                    guest["creator"])
        guest, owned, hashed = web.client.portal.call(both)
    creator = ("creator", hashed)                   # the address group's keyed hash
    assert len(hashed) == 64 and "testclient" not in hashed
    assert guest == (creator,)
    assert owned[0][0] == "creator" and owned[0][1].startswith("account:")
    assert owned[1] == ("account", int(owned[0][1].split(":")[1])) and len(owned) == 2
