"""Turn-based tables (issue 33, server/tables/pace.py) played over simulated days: the app takes a
`FakeClock` (server/clock.py) and the test advances it; nothing sleeps. Moves hours apart, the
reminder (in the page, and by Web Push: the in-test push service decrypts it), a timeout with
each consequence, a restart in the middle that keeps the deadline, the expiry of an abandoned
table, Kombio's snap window at a turn-based pace, and a guest's "my games". On SQLite and
PostgreSQL."""

from __future__ import annotations

import pytest
from helpers import run_async
from pace_helpers import DAY, HOUR, Local, settle, until
from push_receiver import PushReceiver

from cardtable.server.clock import FakeClock


@pytest.fixture(scope="module")
def receiver():
    r = PushReceiver().start()
    yield r
    r.stop()


def rt_of(srv: Local, code: str):
    return next(rt for rt in srv.app.state.hub().rts.values() if rt.code == code)


async def two_humans(srv: Local, game: str, **pace) -> tuple[str, dict, dict]:
    """A private turn-based table of Ann and Bea (both connected): code, tokens and clients
    by seat."""
    extra = {"variant": "duel"} if game == "abluxxen" else {}
    out = await srv.create(game=game, players=2, name="Ann", public=False, pace="turn",
                           **extra, **pace)
    code = out["table"]["code"]
    assert out["table"]["pace"] == "turn"
    ann = out["join"]
    bea = await srv.join(code, "Bea")
    tokens = {ann["seat"]: ann["token"], bea["seat"]: bea["token"]}
    clients = {s: await srv.client(code, t) for s, t in tokens.items()}
    for c in clients.values():                          # connected before the clock moves
        await c.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing")
    return code, tokens, clients


def pick(state: dict) -> str:
    """A legal decision of the state that is no Kombio call and no snap (a plain move)."""
    plain = [d for d in state["legal"] if not d.startswith(("kombio", "snap"))]
    return (plain or state["legal"])[0]


async def move(srv: Local, code: str, clients: dict) -> int:
    """The seat to move makes a plain legal decision, as its player; its seat."""
    rt = rt_of(srv, code)
    seat, n = rt.state.to_move, rt.n
    c = clients[seat]
    st = await c.wait_for(lambda m: m["type"] == "state" and m["index"] == n and m["your_turn"])
    ack = await c.reply({"type": "decide", "decision": pick(st), "index": n}, kinds=("ack",
                                                                                     "error"))
    assert ack["type"] == "ack", ack
    return seat


def subscribe_body(code: str, token: str, sub) -> dict:
    return {"table": code, "token": token, "lang": "en", "subscription": sub.json()}


# -- a week of a turn-based table: moves hours apart, a reminder, a timeout, a restart --------
def test_a_week_at_one_day_a_move(database, receiver, tmp_path):
    run_async(_week(database, receiver))


async def _week(database: str, receiver: PushReceiver) -> None:
    clock = FakeClock()
    async with Local(database, clock) as srv:
        code, tokens, clients = await two_humans(srv, "abluxxen", move_seconds=86400,
                                                 on_timeout="bot_move")
        rt = rt_of(srv, code)
        t0 = clock.now()
        assert rt.deadline == t0 + DAY
        first = rt.state.to_move
        # 3 hours later the first player moves (perhaps several decisions of one turn)
        await clock.advance(3 * HOUR)
        while rt_of(srv, code).state.to_move == first:
            await move(srv, code, clients)
        other = rt_of(srv, code).state.to_move
        assert other != first
        moved = clock.now()
        rt = rt_of(srv, code)
        assert rt.deadline == moved + DAY                   # the full day for the next move
        sub = receiver.subscribe(f"week-{code}")
        r = await srv.http.post("/api/push/subscriptions",
                                json=subscribe_body(code, tokens[other], sub))
        assert r.status_code == 201, r.text
        await clients[other].wait_for(lambda m: m["type"] == "state" and m["pace"] and
                                      m["pace"]["remind_at"] == moved + 12 * HOUR)
        # 11 hours on: no reminder yet (it is due 12 hours before the deadline)
        await clock.advance(11 * HOUR)
        await settle(srv)
        assert not [m for m in clients[other].messages if m["type"] == "reminder"]
        # 12 hours after the move: the reminder, in the page and by Web Push
        await clock.advance(1 * HOUR)
        note = await clients[other].wait_for(lambda m: m["type"] == "reminder")
        assert note["seat"] == other and note["deadline"] == moved + DAY
        # (the receiver's own thread answers; this loop must not block: it runs the server)
        await until(lambda: receiver.received(sub.name), "the reminder's push")
        pushed = receiver.received(sub.name)
        assert len(pushed) == 1 and "error" not in pushed[0], pushed
        msg = pushed[0]["payload"]
        assert msg["title"] == "Your move: time is running out"
        assert code in msg["body"] and "12 h" in msg["body"] and msg["url"] == f"/t/{code}"
        assert not [m for m in clients[first].messages if m["type"] == "reminder"]
        deadline = rt_of(srv, code).deadline
    # the server stops for two hours and starts again over the same database
    await clock.advance(2 * HOUR)
    async with Local(database, clock) as srv:
        r = await srv.table(code)
        assert r.json()["deadline"] == deadline             # kept, not a fresh day
        clients = {s: await srv.client(code, t) for s, t in tokens.items()}
        for c in clients.values():                      # connected before the clock moves
            await c.wait_for(lambda m: m["type"] == "state")
        rt = rt_of(srv, code)
        assert rt.deadline == deadline and rt.row["reminded"] == rt.n    # no second reminder
        # the day runs out: a bot makes that one move; the player keeps the seat
        n = rt.n
        await clock.advance(deadline - clock.now())
        ev = await clients[first].wait_for(lambda m: m["type"] == "event" and m["index"] == n)
        assert ev["by"] == "timeout" and ev["seat"] == other
        await until(lambda: rt_of(srv, code).state.to_move != other or
                    rt_of(srv, code).deadline > deadline, "the timeout's move")
        rt = rt_of(srv, code)
        assert rt.seats[other]["kind"] == "human" and not rt.seats[other]["away"]
        # ... and has the full day again for their next move
        while rt_of(srv, code).state.to_move != other:
            await move(srv, code, clients)
        rt = rt_of(srv, code)
        assert rt.deadline == clock.now() + DAY
        st = await clients[other].wait_for(lambda m: m["type"] == "state" and
                                           m["index"] == rt.n and m["your_turn"])
        assert st["deadline"] == rt.deadline and st["pace"]["on_timeout"] == "bot_move"


def test_a_missed_move_drops_the_player(database, tmp_path):
    run_async(_drop(database))


async def _drop(database: str) -> None:
    clock = FakeClock()
    async with Local(database, clock) as srv:
        code, tokens, clients = await two_humans(srv, "abluxxen", move_seconds=43200,
                                                 on_timeout="drop")
        rt = rt_of(srv, code)
        late = rt.state.to_move
        n = rt.n
        await clock.advance(12 * HOUR)
        other = 1 - late
        ev = await clients[other].wait_for(lambda m: m["type"] == "event" and m["index"] == n)
        assert ev["by"] == "timeout" and ev["seat"] == late
        await until(lambda: rt_of(srv, code).seats[late]["kind"] == "bot", "dropped")
        # the bot plays the seat for the rest: the game goes on to the other player's move
        await until(lambda: rt_of(srv, code).state.to_move == other, "the bot's moves")
        r = await srv.http.post("/api/my-moves", json={"tokens": [tokens[late]]})
        assert r.status_code == 200 and r.json() == []       # the token holds no seat now
        r = await srv.http.post("/api/my-moves", json={"tokens": [tokens[other]]})
        assert [g["your_move"] for g in r.json()] == [True]


def test_an_abandoned_turn_based_table_expires_after_30_days(database, tmp_path):
    run_async(_expiry(database))


async def _expiry(database: str) -> None:
    clock = FakeClock()
    async with Local(database, clock) as srv:
        code, tokens, clients = await two_humans(srv, "abluxxen", move_seconds=604800)
        first = rt_of(srv, code).state.to_move
        while rt_of(srv, code).state.to_move == first:
            await move(srv, code, clients)                   # a player's last own move
        for c in clients.values():
            await c.close()
        srv.clients.clear()
        sweeper = srv.app.state.drivers().sweeper
        table_id = rt_of(srv, code).id
        await until(lambda: not rt_of(srv, code).conns, "the clients are gone")
        await clock.advance(29 * DAY)                       # timeouts' moves do not count
        await settle(srv)
        assert table_id not in await sweeper.sweep()
        assert (await srv.table(code)).status_code == 200
        await clock.advance(2 * DAY)
        await sweeper.sweep()              # (its own loop may have swept it first: woken too)
        await until(lambda: table_id not in srv.app.state.hub().rts, "dropped")
        assert (await srv.table(code)).status_code == 404


# -- Kombio's snap window at a turn-based pace ----------------------------------------------------
def test_kombio_snap_window_waits_for_every_answer_or_the_move_time(database, tmp_path):
    run_async(_snap(database))


async def _to_window(srv: Local, code: str, clients: dict) -> int:
    """Play plain moves until a snap window opens; the action index it opened at."""
    while rt_of(srv, code).window() is None:
        await move(srv, code, clients)
    return rt_of(srv, code).n


async def _snap(database: str) -> None:
    clock = FakeClock()
    async with Local(database, clock) as srv:
        code, tokens, clients = await two_humans(srv, "kombio", move_seconds=86400)
        n = await _to_window(srv, code, clients)
        rt = rt_of(srv, code)
        order = rt.window_order()
        assert sorted(order) == [0, 1] and rt.deadline == clock.now() + DAY
        # the first answers "pass" two hours later: the window stays open for the other
        await clock.advance(2 * HOUR)
        a, b = order
        ack = await clients[a].reply({"type": "decide", "decision": "pass", "index": n},
                                     kinds=("ack", "error"))
        assert ack["type"] == "ack" and ack["pending"], ack
        await clock.advance(10 * HOUR)
        await settle(srv)
        assert rt_of(srv, code).n == n and rt_of(srv, code).window() is not None
        r = await srv.http.post("/api/my-moves", json={"tokens": [tokens[a], tokens[b]]})
        assert {g["seat"]: g["your_move"] for g in r.json()} == {a: False, b: True}
        # the last answer closes it at once
        st = await clients[b].wait_for(lambda m: m["type"] == "state" and m["index"] == n
                                       and m["window"] and m["window"]["eligible"])
        ack = await clients[b].reply({"type": "decide", "decision": "pass", "index": n},
                                     kinds=("ack", "error"))
        assert ack["type"] == "ack" and not ack["pending"], ack
        assert rt_of(srv, code).n == n + 2
        # the next window: both snap (a live table takes only the first); the engine gets
        # both claims and draws one (KO-10's own reading)
        n = await _to_window(srv, code, clients)
        order = rt_of(srv, code).window_order()
        snaps = {}
        for s in order:
            st = await clients[s].wait_for(lambda m: m["type"] == "state" and m["index"] == n
                                           and m["window"] and m["window"]["eligible"])
            snaps[s] = next(d for d in st["legal"] if d.startswith("snap"))
            await clock.advance(3 * HOUR)
            ack = await clients[s].reply({"type": "decide", "decision": snaps[s], "index": n},
                                         kinds=("ack", "error"))
            assert ack["type"] == "ack", ack
        rt = rt_of(srv, code)
        assert rt.n == n + 2
        assert [rt.state.history[n + i] for i in range(2)] == [snaps[s] for s in order]
        # a window nobody answers closes when the move time is over: both pass by timeout
        m = await _to_window(srv, code, clients)
        await clock.advance(DAY - 1)
        await settle(srv)
        assert rt_of(srv, code).n == m                      # still open a second before
        await clock.advance(1)
        await until(lambda: rt_of(srv, code).n > m, "closed by the move time")
        assert [by for _, by in rt_of(srv, code).log[m:m + 2]] == ["timeout", "timeout"]
        assert rt_of(srv, code).state.history[m:m + 2] == ["pass", "pass"]


# -- a guest's "my games" -----------------------------------------------------------------------
def test_guest_my_games_puts_your_moves_first(database, tmp_path):
    run_async(_guest(database))


async def _guest(database: str) -> None:
    clock = FakeClock()
    async with Local(database, clock) as srv:
        made = []
        for move_seconds in (259200, 86400, 43200):
            code, tokens, _ = await two_humans(srv, "abluxxen", move_seconds=move_seconds)
            made.append((code, tokens, rt_of(srv, code).state.to_move))
            await clock.advance(HOUR)
        (c1, t1, m1), (c2, t2, m2), (c3, t3, m3) = made
        held = [t1[m1], t2[1 - m2], t3[m3], "not-a-token-" + "x" * 30]
        r = await srv.http.post("/api/my-moves", json={"tokens": held})
        assert r.status_code == 200, r.text
        got = r.json()
        # your moves first, the earliest deadline first; a token of nothing adds nothing
        assert [g["code"] for g in got] == [c3, c1, c2]
        assert [g["your_move"] for g in got] == [True, True, False]
        assert got[0]["deadline"] < got[1]["deadline"] and got[0]["pace"] == "turn"
        r = await srv.http.post("/api/my-moves", json={"tokens": ["y" * 43]})
        assert r.status_code == 200 and r.json() == []
        r = await srv.http.post("/api/my-moves", json={"tokens": ["z"] * 201})
        assert r.status_code == 422 and r.json()["error"]
