"""`TableRuntime.change()` (server/tables/change.py), the one idiom of every change of a table: the
lock, the table's transaction, catching up, and after the commit taking the change over,
publishing it once, waking the driver and telling the hub. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from helpers import run_async

from cardtable.core.record import new_game
from cardtable.server.config import DatabaseURL, Settings
from cardtable.server.store.db import Conflict, Store
from cardtable.server.store.migrate import upgrade


class Conn:
    """A client connection of seat 0 that keeps what it is sent."""

    seat, lang = 0, "en"

    def __init__(self):
        self.sent: list[dict] = []

    def send(self, msg: dict) -> None:
        self.sent.append(msg)

    def send_state(self, msg: dict, force: bool = False) -> None:
        self.sent.append(msg)

    def send_close(self, code: int) -> None:
        pass


async def _table(url: DatabaseURL, code: str):
    """A store, a hub and the runtime of a new playing Abluxxen duel table with a listening
    client of seat 0; `calls` counts the hub's after_change calls."""
    from cardtable.server.tables.hub import Hub

    store = Store(url)
    rec = new_game("abluxxen", variant="duel", seed=3).record()
    values = {"code": code, "game": "abluxxen", "settings": {},
              "base": {k: v for k, v in rec.items() if k != "actions"}, "public": False,
              "status": "playing", "deadline": None, "snap": None, "rematch_code": None}
    rows = [{"seat": s, "kind": "human", "bot": None, "name": f"P{s}", "token_hash": None,
             "away": False, "joined_at": 1.0} for s in range(2)]
    tid = await store.create_table(values, rows)
    hub = Hub(store, Settings(database=url))
    rt = await hub.runtime(tid)
    calls: list = []
    hub.after_change = calls.append
    conn = Conn()
    rt.conns.add(conn)
    return store, rt, conn, calls


@pytest.fixture(scope="module")
def url(database) -> DatabaseURL:
    u = DatabaseURL(database)
    upgrade(u)
    return u


def test_a_failed_change_writes_publishes_and_changes_nothing(url):
    async def main():
        store, rt, conn, calls = await _table(url, "CHG1")
        tick, version, state = rt.tick, rt.version, rt.state
        with pytest.raises(RuntimeError, match="refused"):
            async with rt.change() as ch:
                await ch.update_seat(1, away=True)
                trial = rt.state.copy()
                steps = rt._play(trial, rt.n, [(rt.state.to_move, rt.state.legal()[0],
                                                "player")], {0})
                await ch.append(trial, steps)
                ch.tx.set(deadline=123.0)
                raise RuntimeError("refused")
        assert conn.sent == [] and calls == [] and rt.tick == tick
        assert rt.version == version and rt.n == 0 and rt.state is state
        assert rt.seats[1]["away"] is False and rt.deadline is None
        row, seat_rows, acts = await store.load(rt.id)
        assert row["version"] == version and row["n_actions"] == 0 and row["deadline"] is None
        assert acts == [] and not seat_rows[1]["away"]
        await store.close()

    run_async(main())


def test_a_change_is_taken_over_and_published_once(url):
    async def main():
        store, rt, conn, calls = await _table(url, "CHG2")
        tick, version = rt.tick, rt.version
        seat, text = rt.state.to_move, rt.state.legal()[0]
        async with rt.change() as ch:
            await ch.update_seat(1, away=True)
            trial = rt.state.copy()
            steps = rt._play(trial, rt.n, [(seat, text, "player")], {0})
            await ch.append(trial, steps)
            ch.on_commit(lambda: conn.send({"type": "ack", "index": rt.n}))
            assert conn.sent == [] and rt.n == 0         # nothing taken over before the commit
        assert rt.n == 1 and rt.state is trial and rt.log == [(seat, "player")]
        assert rt.seats[1]["away"] is True and rt.version == version + 1
        assert rt.tick == tick + 1 and calls == [rt]
        # the acknowledgement first, then the step's event and the new state, once each
        kinds = [m["type"] for m in conn.sent]
        assert kinds == ["ack", "event", "state"], kinds
        assert conn.sent[0]["index"] == 1
        row, seat_rows, acts = await store.load(rt.id)
        assert row["version"] == version + 1 and row["n_actions"] == 1
        assert [(s, t) for _, s, t, _ in acts] == [(seat, trial.history[-1])]
        assert seat_rows[1]["away"]
        await store.close()

    run_async(main())


def test_a_change_is_made_once_for_every_connection_of_a_viewer(url):
    """Two connections of seat 0 (two tabs) and two of spectators in one language: each
    message is made (and encoded) once per viewer, every connection gets that one."""
    async def main():
        store, rt, conn, calls = await _table(url, "CHG5")
        tab = Conn()
        watchers = [Conn(), Conn()]
        for w in watchers:
            w.seat = None
        rt.conns.update([tab, *watchers])
        async with rt.change() as ch:
            trial = rt.state.copy()
            steps = rt._play(trial, rt.n, [(rt.state.to_move, rt.state.legal()[0], "player")],
                             rt._viewers())
            await ch.append(trial, steps)
        assert [m["type"] for m in conn.sent] == ["event", "state"]
        assert all(a is b for a, b in zip(conn.sent, tab.sent, strict=True))
        assert all(a is b for a, b in zip(*(w.sent for w in watchers), strict=True))
        assert conn.sent[1]["seat"] == 0 and watchers[0].sent[1]["seat"] is None
        await store.close()

    run_async(main())


def test_a_change_that_writes_nothing_publishes_nothing(url):
    async def main():
        store, rt, conn, calls = await _table(url, "CHG3")
        tick, version = rt.tick, rt.version
        async with rt.change():
            pass
        assert conn.sent == [] and calls == [] and rt.tick == tick and rt.version == version
        await store.close()

    run_async(main())


def test_a_change_that_lost_the_race_publishes_nothing_and_is_run_again(url):
    """Another process changed the table first: the commit raises Conflict and nothing is
    taken over; `_retrying` catches up and runs the body again against the new position."""
    async def main():
        store, rt, conn, calls = await _table(url, "CHG4")
        other = Store(url)
        async with other.locked(rt.id) as tx:            # another process sets the seat away
            await tx.update_seat(1, away=True)
        runs = []

        async def body():
            async with rt.change() as ch:
                runs.append(rt.version)
                await ch.update_seat(0, away=True)

        with pytest.raises(Conflict):
            await body()
        assert conn.sent == [] and calls == [] and not rt.seats[0]["away"]
        await rt._retrying(body)
        assert len(runs) == 3 and runs[1] < runs[2]         # run again after catching up
        assert rt.seats[0]["away"] and rt.seats[1]["away"] and calls == [rt]
        assert [m["type"] for m in conn.sent] == ["state", "state"]  # caught up; the change
        await other.close()
        await store.close()

    run_async(main())
