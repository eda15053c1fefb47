"""Several server processes on one PostgreSQL: decisions made through one process reach the
clients of the other (LISTEN/NOTIFY), concurrent decisions on one table are serialized (row
lock + unique action index), and a process's tables are taken over when it dies."""

from __future__ import annotations

import asyncio
import time
import random

from helpers import RACES, assert_clean_log, database_url, Client, Replay, ServerProc, check_messages, event_log, play, run_async


def test_two_processes_one_database(request, tmp_path, logs):
    pg_url = database_url("postgresql", request, tmp_path)

    async def main():
        a_srv = ServerProc(pg_url, log_dir=logs).start()
        b_srv = ServerProc(pg_url, log_dir=logs).start()
        try:
            await _shared_game(a_srv, b_srv)
            await _concurrent_decisions(a_srv, b_srv)
            await _takeover(a_srv, b_srv)
        finally:
            a_srv.stop()
            b_srv.stop()
        assert_clean_log(logs)

    run_async(main())


async def _shared_game(a_srv, b_srv):
    out = a_srv.create(game="abluxxen", variant="duel")
    code = out["table"]["code"]
    j0 = b_srv.join(code, "Ann")                 # the lobby works through either process
    j1 = a_srv.join(code, "Bob")
    ann = await Client(a_srv.ws_base, code, j0["token"], since=0).connect()
    bob = await Client(b_srv.ws_base, code, j1["token"], since=0).connect()
    spec_a = await Client(a_srv.ws_base, code, since=0).connect()
    spec_b = await Client(b_srv.ws_base, code, lang="de", since=0).connect()
    await asyncio.gather(play(ann, "abluxxen", random.Random(5)),
                         play(bob, "abluxxen", random.Random(6)))
    for s in (spec_a, spec_b):
        await s.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
    rec = b_srv.record(code)
    rp = Replay(rec)
    every = dict(enumerate(rec["actions"]))
    # Ann (on A) saw every decision Bob made through B, and the other way round
    for c in (ann, bob, spec_a, spec_b):
        assert event_log(c) == every
    seats = a_srv.get(f"/api/tables/{code}").json()["seats"]
    check_messages(ann, 0, rp, seats)
    check_messages(bob, 1, rp, seats)
    check_messages(spec_a, None, rp, seats)
    check_messages(spec_b, None, rp, seats)
    for c in (ann, bob, spec_a, spec_b):
        await c.close()


async def _concurrent_decisions(a_srv, b_srv):
    """One seat, connected to both processes, sends the same decision through both at once:
    exactly one is applied."""
    out = a_srv.create(game="abluxxen", variant="duel")
    code = out["table"]["code"]
    j0 = a_srv.join(code, "Ann")
    j1 = a_srv.join(code, "Bob")
    tokens = [j0["token"], j1["token"]]
    on_a = [await Client(a_srv.ws_base, code, t).connect() for t in tokens]
    on_b = [await Client(b_srv.ws_base, code, t).connect() for t in tokens]
    rng = random.Random(9)
    done_to = 0                                 # the index after the last round's decisions
    for _ in range(12):
        # every client of both processes has the state after the last round (poll, 60 s guard)
        deadline, st = time.monotonic() + 60, None
        while True:
            sts = [c.last_state() for c in on_a + on_b]
            if all(s and s["index"] == sts[0]["index"] >= done_to for s in sts):
                st = next((s for s in sts[:2] if s["legal"]), None)
                if st is not None:
                    break
            assert time.monotonic() < deadline, "the processes did not agree on the state"
            await asyncio.sleep(0.02)
        seat = st["seat"]
        decision = rng.choice(st["legal"])
        msg = {"type": "decide", "decision": decision}          # no index: the race is real
        ca, cb = on_a[seat], on_b[seat]
        na, nb = len(ca.messages), len(cb.messages)
        await asyncio.gather(ca.send(msg), cb.send(msg))
        ra = await ca.wait_for(lambda m: m["type"] in ("ack", "error"), 60, na)
        rb = await cb.wait_for(lambda m: m["type"] in ("ack", "error"), 60, nb)
        kinds = sorted([ra["type"], rb["type"]])
        done_to = max(r["index"] for r in (ra, rb) if r["type"] == "ack")
        if kinds == ["ack", "ack"]:
            # both legal one after the other (e.g. 'draw deck' twice while drawing): two actions
            assert ra["index"] != rb["index"]
        else:
            assert kinds == ["ack", "error"], (ra, rb)
            err = ra if ra["type"] == "error" else rb
            assert err["code"] in RACES | {"illegal"}, err
    # the stored actions are a gapless, duplicate-free sequence that replays
    state = on_a[0].last_state()
    spec = await Client(b_srv.ws_base, code, since=0).connect()
    await spec.wait_for(lambda m: m["type"] == "state")
    log = event_log(spec)
    assert sorted(log) == list(range(len(log))) and len(log) >= state["index"] - 1
    for c in on_a + on_b + [spec]:
        await c.close()


async def _takeover(a_srv, b_srv):
    """A table with bots goes on when the process that drives it is killed: the other one
    takes it over (its advisory lock is gone with the dead process's connection)."""
    def driving(srv):
        return srv.get("/api/health").json()["driving"]

    before = {a_srv: driving(a_srv), b_srv: driving(b_srv)}    # unfinished earlier tables
    out = a_srv.create(game="kombio", players=3, target=30, snap_seconds=0.3, name="Ann",
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                              {"kind": "bot", "bot": "easy"}])
    code, token = out["table"]["code"], out["join"]["token"]
    deadline = time.monotonic() + 60            # a hang guard, not a time budget
    while driving(a_srv) + driving(b_srv) != sum(before.values()) + 1:
        assert time.monotonic() < deadline, "no process drives the new table"
        await asyncio.sleep(0.05)
    driver, other = ((a_srv, b_srv) if driving(a_srv) > before[a_srv] else (b_srv, a_srv))
    assert driving(driver) == before[driver] + 1 and driving(other) == before[other]
    # a spectator at the driver: a table nobody watches there would go to Ann's process at
    # her first decision (Drivers.foreign_change), and the kill would not take it over
    await Client(driver.ws_base, code, since=0).connect()
    ann = await Client(other.ws_base, code, token, since=0).connect()
    game = asyncio.create_task(play(ann, "kombio", random.Random(12), timeout=600))
    await ann.wait_for(lambda m: m["type"] == "event" and m["index"] >= 8, timeout=30)
    driver.kill9()
    await game
    # the survivor takes over the dead one's tables; this one's driver ended with the game
    deadline = time.monotonic() + 60            # a hang guard, not a time budget
    while driving(other) != before[a_srv] + before[b_srv]:
        assert time.monotonic() < deadline, "the survivor did not take the tables over"
        await asyncio.sleep(0.1)
    assert driving(other) == before[a_srv] + before[b_srv]
    rec = other.record(code)
    rp = Replay(rec)
    assert rp.states[-1].over
    assert event_log(ann) == dict(enumerate(rec["actions"]))
    check_messages(ann, 0, rp, other.get(f"/api/tables/{code}").json()["seats"])
    await ann.close()
