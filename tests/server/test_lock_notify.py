"""The drivers' locks on PostgreSQL without polling every table (tables/driver.py): two server
apps share one database in this process (each its own store, LISTEN and lock connection, as
two processes would).

- An idle process sends one query a claim round on its lock connection (which tables are
  free: `FREE_SQL`), whatever the number of tables the other process drives. Before, it tried
  the advisory lock of each such table every round: N + 2 queries a round for N tables.
- A process that stops lets its tables go with a notification ("id:free"): the other one
  claims them at once, although its own claim round would come only an hour later. Before,
  the others found out at their next round.
(The takeover after a kill -9, found by the periodic query: tests/server/test_multiprocess.py.)
"""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack

import httpx
from helpers import GUARD, database_url, run_async

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits

TABLES = 30


def _app(url: str, claim_interval: float):
    app = create_app(Settings(database=url, announce=False, limits=Limits.off(), bot_workers=0,
                              claim_interval=claim_interval, sweep_interval=0))
    return app


async def _until(pred, what: str) -> None:
    """Wait (yielding to the loop) until pred() holds; a hang guard of GUARD seconds."""
    deadline = time.monotonic() + GUARD
    while not pred():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


async def _make_tables(http: httpx.AsyncClient, n: int) -> list[str]:
    """n tables being played: a person (whose turn it is: the table waits) and two bots."""
    codes = []
    for _ in range(n):
        r = await http.post("/api/tables", json={
            "game": "abluxxen", "players": 3, "name": "Ann", "public": False,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                      {"kind": "bot", "bot": "easy"}]})
        assert r.status_code == 201, r.text
        codes.append(r.json()["table"]["code"])
    return codes


def test_an_idle_process_asks_once_a_round_not_once_a_table(request, tmp_path):
    url = database_url("postgresql", request, tmp_path)

    async def main():
        a, b = _app(url, 0.05), _app(url, 0.05)
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(a.router.lifespan_context(a))
            await stack.enter_async_context(b.router.lifespan_context(b))
            http = await stack.enter_async_context(httpx.AsyncClient(
                transport=httpx.ASGITransport(app=a), base_url="http://a"))
            await _make_tables(http, TABLES)
            da, db = a.state.drivers(), b.state.drivers()
            await _until(lambda: len(da.tasks) + len(db.tasks) == TABLES,
                         "the tables are not all driven")
            q0 = {d: (d.lock_queries, d.claim_rounds) for d in (da, db)}
            await _until(lambda: all(d.claim_rounds >= q0[d][1] + 20 for d in (da, db)),
                         "the claim rounds stopped")
            for d in (da, db):
                queries, rounds = d.lock_queries - q0[d][0], d.claim_rounds - q0[d][1]
                # one query a round (a round under way may have sent its query already)
                assert queries <= rounds + 1, (queries, rounds, len(d.tasks))
            assert len(da.tasks) + len(db.tasks) == TABLES

    run_async(main())


def test_a_stopping_process_hands_its_tables_over_at_once(request, tmp_path):
    url = database_url("postgresql", request, tmp_path)

    async def main():
        # claim rounds an hour apart: only a notification can make b claim in this test
        a, b = _app(url, 3600.0), _app(url, 3600.0)
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(b.router.lifespan_context(b))
            db = b.state.drivers()
            await _until(lambda: db.claim_rounds >= 1, "b's first claim round")
            async with a.router.lifespan_context(a), httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=a), base_url="http://a") as http:
                await _make_tables(http, TABLES)
                da = a.state.drivers()
                # a's own changes wake a's claim loop: a drives them, b none
                await _until(lambda: len(da.tasks) == TABLES, "a does not drive its tables")
                assert len(db.tasks) == 0
                rounds = db.claim_rounds
            # a stopped: its "free" notifications woke b's claim loop
            await _until(lambda: len(db.tasks) == TABLES,
                         f"b took over {len(db.tasks)} of {TABLES} tables")
            assert db.claim_rounds > rounds

    run_async(main())
