"""`sync` with an old `since` on a long game (issue 29): one 30-byte message made the server
send the whole history, and a burst of them one copy each. The pages are charged to the
address's WebSocket message budget, and a connection has one history under way at most."""

from __future__ import annotations

import pytest
from helpers import Client, ServerProc, long_kombio_record, plant_finished_game, run_async


@pytest.fixture(scope="module")
def long_record():
    # 13,461 actions, 67 pages: after the address's burst (11 pages) the history takes some
    # 14 s more at 4 pages a second, so the pings beside it meet a spent budget even when the
    # machine is slow (with 21 pages it could be paid in full before they went out)
    rec = long_kombio_record(seed=2**90 + 5, rng_seed=5, target=3000)
    assert len(rec["actions"]) >= 10_000
    return rec


def _serve(rec, tmp_path_factory, logs, *limits: str):
    """A server of its own (so its address's budget is whole) with the limits per address on,
    whose database holds the finished game `rec`."""
    db = str(tmp_path_factory.mktemp("sync") / "sync.db")
    args = ("--client-limits", "on") + tuple(x for lim in limits for x in ("--limit", lim))
    srv = ServerProc(db, log_dir=logs, args=args).start()
    code = srv.create(game="kombio", players=4, public=False)["table"]["code"]
    plant_finished_game(db, code, rec)
    return srv, code, len(rec["actions"])


@pytest.fixture
def long_game(long_record, tmp_path_factory, logs):
    srv, code, n = _serve(long_record, tmp_path_factory, logs)
    yield srv, code, n
    srv.stop()


@pytest.fixture
def slow_budget_game(tmp_path_factory, logs):
    """A game of 4,189 actions (21 pages) on a server whose address budget refills at 4
    messages a second: after the burst's 11 pages the other 10 take 2.5 s each, far longer
    than any machine takes to build one, so the stream is held by the budget, not by speed."""
    rec = long_kombio_record(seed=2**90 + 5, rng_seed=5, target=1000)
    srv, code, n = _serve(rec, tmp_path_factory, logs, "ws_rate=4")
    yield srv, code, n
    srv.stop()


async def _sync_from_0(c: Client) -> int:
    """Send `sync` from 0 until the server takes it (an earlier test of this module may have
    left the address's budget spent for a moment); the index of the first message after it."""
    for attempt in range(200):
        start = len(c.messages)
        await c.send({"type": "sync", "since": 0, "id": f"a{attempt}"})
        m = await c.wait_for(lambda m: m["type"] == "event" or m.get("id") == f"a{attempt}",
                             60, start)
        if m["type"] == "event":
            return start
        assert m["type"] == "error" and m["code"] == "rate_limited", m
    raise AssertionError("the sync was never taken")


def test_a_burst_of_syncs_from_one_address_is_rate_limited(long_game):
    """One connection streams the history from 0 (its pages use up the address's budget);
    a second connection of the same address then bursts five syncs from 0: they are refused
    `rate_limited` (the budget is spent, or the connection's one history is under way), and
    what it receives holds every event at most once."""
    srv, code, n = long_game

    async def main():
        first = await Client(srv.ws_base, code).connect()
        await first.wait_for(lambda m: m["type"] == "state")
        await _sync_from_0(first)
        # the address's burst (120 messages) pays 11 pages of 200 events at 10 messages each
        await first.wait_for(lambda m: m["type"] == "event" and m["index"] >= 11 * 200, 60)
        second = await Client(srv.ws_base, code).connect()
        await second.wait_for(lambda m: m["type"] == "state")
        start = len(second.messages)
        for i in range(5):
            await second.send({"type": "sync", "since": 0, "id": f"s{i}"})
        await second.wait_for(lambda m: m["type"] == "error", 60, start)
        # every sync is answered: a refusal (error) or, if one was taken, its state message
        await second.wait_for(lambda m: len([x for x in second.messages[start:]
                                             if x["type"] in ("error", "state")]) >= 5, 120)
        await first.close()
        await second.close()
        return second.messages[start:]

    got = run_async(main())
    refused = [m for m in got if m["type"] == "error"]
    assert refused and all(m["code"] == "rate_limited" for m in refused)
    assert len(refused) >= 4                 # at most one of the five is taken
    events = [m["index"] for m in got if m["type"] == "event"]
    assert len(events) == len(set(events))   # no history twice


def test_a_sync_from_0_is_paid_page_by_page(slow_budget_game):
    """A sync from 0 on a connection of its own: the history arrives complete and in order,
    and while it streams the address's budget is used up by its pages (a ping burst beside
    it is partly refused), which it was not before: the pages were free."""
    srv, code, n = slow_budget_game

    async def main():
        c = await Client(srv.ws_base, code).connect()
        await c.wait_for(lambda m: m["type"] == "state")
        start = await _sync_from_0(c)
        await c.wait_for(lambda m: m["type"] == "event" and m["index"] >= 11 * 200, 60, start)
        # then up to 3 bursts of 30 pings from the same address (each on a new connection,
        # within its own limit of 40) while the history streams (25 s or more), until one is
        # refused or this client has seen the history's end. 90 pings fit the address's burst of 120: with free pages none
        # would be refused, however fast or slow either side runs.
        pinged: list[dict] = []
        for _burst in range(3):
            pings = await Client(srv.ws_base, code).connect()
            await pings.wait_for(lambda m: m["type"] == "state")
            p0 = len(pings.messages)
            for i in range(30):
                await pings.send({"type": "ping", "id": i})
            await pings.wait_for(lambda m: len([x for x in pings.messages[p0:]
                                                if x["type"] in ("pong", "error")]) >= 30, 60)
            pinged += pings.messages[p0:]
            await pings.close()
            if any(m["type"] == "error" for m in pinged):
                break
            if any(m["type"] == "event" and m["index"] == n - 1 for m in c.messages[start:]):
                break
        last = await c.wait_for(lambda m: m["type"] == "state", 300, start)
        await c.close()
        return c.messages[start:], pinged, last

    got, pinged, last = run_async(main())
    events = [m["index"] for m in got if m["type"] == "event"]
    assert events == sorted(set(events)) and events[-1] == n - 1 and last["index"] == n
    assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in pinged)
    assert any(m["type"] == "pong" for m in pinged)      # a reserve is left for the client
