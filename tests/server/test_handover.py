"""A table is driven by the process its players are at (tables/driver.py, PostgreSQL): two
server apps share one database in this process (each its own store, LISTEN and lock
connection, as two processes would), with claim rounds an hour apart, so only notifications
move a table.

- A table made and started through process a (it claims it: a drives it) whose players then
  play through process b: at b's first decision a hands the table over ("id:free") and b
  drives it. From then on a holds no copy of the table and reads nothing for b's NOTIFYs (it
  read and replayed every decision before, as its driver), and b's decisions wake no claim
  round of b (each woke one before: a query of every playing table, a decision).
- A table watched at both processes (a spectator at a): a keeps driving it, and b's decisions
  wake no claim round of b either (it knows a holds the table).
Counted in calls, not time: what a's listener handed its hub, b's claim rounds.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack

import httpx
from helpers import GUARD, database_url, run_async

from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits

DECISIONS = 12


def _app(url: str):
    return create_app(Settings(database=url, announce=False, limits=Limits.off(), bot_workers=0,
                               claim_interval=3600.0, sweep_interval=0))


async def _until(pred, what: str) -> None:
    """Wait (yielding to the loop) until pred() holds; a hang guard of GUARD seconds."""
    deadline = time.monotonic() + GUARD
    while not pred():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


class Watcher:
    """A client connection as a table sees it (ws/endpoint.py's Conn): it keeps what it gets."""

    def __init__(self, seat: int | None):
        self.seat, self.lang, self.got = seat, "en", []

    def send(self, msg) -> None:
        self.got.append(msg)

    def send_state(self, msg, force: bool = False) -> None:
        self.got.append(msg)

    def error(self, *args, **kwargs) -> None:
        pass

    def send_close(self, code: int) -> None:
        pass


async def _started_table(http: httpx.AsyncClient) -> str:
    """A two-player table, both seats joined through `http`'s process: it is being played."""
    r = await http.post("/api/tables", json={"game": "abluxxen", "variant": "duel",
                                             "public": False})
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    for name in ("Ann", "Bob"):
        j = await http.post(f"/api/tables/{code}/join", json={"name": name})
        assert j.status_code == 200, j.text
    return code


def _count_notes(hub, table_id: int) -> dict:
    """Wrap the hub's `notified` (what its listener calls for every commit of any process):
    the NOTIFYs of `table_id` it got, and of them those that came while it held the table
    (each one a read and replay of the table)."""
    seen = {"version": -1, "held": 0}
    inner = hub.notified

    def notified(tid: int, version: int | None) -> None:
        if tid == table_id:
            seen["version"] = max(seen["version"], version or 0)
            seen["held"] += tid in hub.rts
        inner(tid, version)

    hub.notified = notified
    return seen


async def _decide(rt, seen: dict) -> None:
    """The seat to move decides (its first legal decision) through `rt`'s process; returns
    once the other process's listener has had the commit's NOTIFY."""
    await rt.decide(rt.state.to_move, rt.state.legal()[0])
    await _until(lambda: seen["version"] >= rt.version, "the NOTIFY did not come")


def _handed_over(app) -> float:
    """`cardtable_tables_handed_over_total` of the app's metrics, read by Prometheus's own
    parser."""
    from prometheus_client.parser import text_string_to_metric_families

    text = app.state.metrics.exposition().decode()
    return next(s.value for f in text_string_to_metric_families(text)
                for s in f.samples if s.name == "cardtable_tables_handed_over_total")


async def _two(url: str, body) -> None:
    a, b = _app(url), _app(url)
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(a.router.lifespan_context(a))
        await stack.enter_async_context(b.router.lifespan_context(b))
        http = await stack.enter_async_context(httpx.AsyncClient(
            transport=httpx.ASGITransport(app=a), base_url="http://a"))
        await body(a, b, http)


def test_the_table_goes_to_the_process_its_players_are_at(request, tmp_path):
    url = database_url("postgresql", request, tmp_path)

    async def body(a, b, http):
        da, db = a.state.drivers(), b.state.drivers()
        ha, hb = a.state.hub(), b.state.hub()
        code = await _started_table(http)
        rt = await hb.runtime_by_code(code)               # the players connect to b
        tid = rt.id
        await _until(lambda: tid in da.tasks, "a does not drive the table it started")
        # a's driver under way: it drives the runtime and its first read is done (the read
        # holds the runtime's lock). A driver still starting takes a NOTIFY as a read, not
        # as another process's commit: the handover would come at b's next decision
        await _until(lambda: tid in ha.rts and ha.rts[tid].driven, "a's driver did not start")
        async with ha.rts[tid].lock:
            pass
        seen = _count_notes(ha, tid)
        for seat in (0, 1):
            rt.attach(Watcher(seat))
        await _decide(rt, seen)
        await _until(lambda: tid in db.tasks, "the table stayed with a, its players at b")
        assert tid not in da.tasks and da.handovers == 1
        assert _handed_over(a) == 1 and _handed_over(b) == 0      # what /metrics says
        await _until(lambda: tid not in ha.rts, "a still holds the table")
        held, rounds = seen["held"], db.claim_rounds
        for _ in range(DECISIONS):
            await _decide(rt, seen)
        assert seen["held"] == held, "a read the table for b's decisions"
        # (a round under way when counting began may end during them)
        assert db.claim_rounds <= rounds + 1, "b's decisions woke its claim rounds"
        assert tid in db.tasks and tid not in da.tasks and tid not in ha.rts

    run_async(_two(url, body))


def test_a_table_watched_at_its_driver_stays_there(request, tmp_path):
    url = database_url("postgresql", request, tmp_path)

    async def body(a, b, http):
        da, db = a.state.drivers(), b.state.drivers()
        ha, hb = a.state.hub(), b.state.hub()
        code = await _started_table(http)
        await _until(lambda: len(da.tasks) == 1, "a does not drive the table it started")
        at_a = await ha.runtime_by_code(code)
        at_a.attach(Watcher(None))                         # a spectator at a
        rt = await hb.runtime_by_code(code)
        tid = rt.id
        seen = _count_notes(ha, tid)
        for seat in (0, 1):
            rt.attach(Watcher(seat))
        # a client came to b: b's claim round (its second) finds the table held by a
        await _until(lambda: db.claim_rounds >= 2, "b did not look for the table")
        await _decide(rt, seen)
        rounds = db.claim_rounds
        for _ in range(DECISIONS):
            await _decide(rt, seen)
        assert db.claim_rounds <= rounds + 1, "b's decisions woke its claim rounds"
        assert tid in da.tasks and tid not in db.tasks and da.handovers == 0
        assert seen["held"] == DECISIONS + 1               # the spectator's copy follows

    run_async(_two(url, body))
