"""Whole games through real server processes and WebSocket clients, on SQLite and PostgreSQL.

Every message a seat or a spectator receives is checked against the engine (helpers.
check_messages): a seat's view is exactly `view(seat)` of the record replayed to that point, a
spectator's view holds only what every seat sees, legal decisions only for the seat to move,
events in words only from the viewer's own views, and no seed, deal or deck order anywhere."""

from __future__ import annotations

import asyncio
import random
import time

from helpers import Client, Replay, check_messages, event_log, play, run_async


def _seats(srv, code):
    return srv.get(f"/api/tables/{code}").json()["seats"]


def test_abluxxen_basic_one_client_three_bots_and_rematch(server):
    async def main():
        out = server.create(game="abluxxen", variant="basic", players=4, name="Ann", seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"},
            {"kind": "bot", "bot": "random"}])
        code, token = out["table"]["code"], out["join"]["token"]
        assert out["table"]["status"] == "playing"
        ann = await Client(server.ws_base, code, token, since=0).connect()
        spec = await Client(server.ws_base, code, lang="de", since=0).connect()
        # spectators who come late get the game so far from the history (built once per
        # viewer and language, then extended): one at index 20, two more at 40
        rng, late = random.Random(1), []
        for mark in (20, 40):
            await play(ann, "abluxxen", rng, stop=lambda: (ann.last_state() or {}).get(
                "index", 0) >= mark)
            late.append(await Client(server.ws_base, code, lang="de", since=0).connect())
        late.append(await Client(server.ws_base, code, lang="de", since=7).connect())
        await play(ann, "abluxxen", rng)
        for c in [spec] + late:
            await c.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
        rec = server.record(code)
        rp = Replay(rec)
        assert rp.states[-1].over
        seats = _seats(server, code)
        assert check_messages(ann, 0, rp, seats) > 50
        assert check_messages(spec, None, rp, seats) > 50
        # every action reached both, in order, in words
        assert event_log(ann) == dict(enumerate(rec["actions"]))
        assert event_log(spec) == dict(enumerate(rec["actions"]))
        assert not ann.errors()
        # the late ones: the same events, word for word, as the spectator who watched live
        live = [m for m in spec.messages if m["type"] == "event"]
        for c, since in zip(late, (0, 0, 7)):
            check_messages(c, None, rp, seats)
            assert [m for m in c.messages if m["type"] == "event"] == live[since:]

        # rematch: same settings, same players; the old token holds the same seat there
        r = server.post(f"/api/tables/{code}/rematch", {"token": token})
        assert r.status_code == 200, r.text
        new = r.json()
        assert new["code"] != code and new["status"] == "playing"
        assert [s["bot"] for s in new["seats"]] == [None, "easy", "medium", "random"]
        assert new["seats"][0]["name"] == "Ann"
        assert server.post(f"/api/tables/{code}/rematch", {"token": token}).json()["code"] == \
            new["code"]                                              # idempotent
        m = await ann.wait_for(lambda m: m["type"] == "rematch")
        assert m["table"] == new["code"]
        again = await Client(server.ws_base, new["code"], token).connect()
        w = await again.wait_for(lambda m: m["type"] == "welcome")
        assert w["seat"] == 0 and w["name"] == "Ann"
        for c in (ann, spec, again, *late):
            await c.close()

    run_async(main())


def test_abluxxen_duel_two_clients(server):
    async def main():
        out = server.create(game="abluxxen", variant="duel", public=False)
        code = out["table"]["code"]
        assert out["table"]["status"] == "waiting" and out["table"]["free_seats"] == [0, 1]
        assert code not in [t["code"] for t in server.get("/api/tables").json()]   # private
        j0 = server.join(code, "Ann")
        r = server.post("/api/join", {"table": f"http://example.invalid/t/{code}", "name": "Bob"})
        assert r.status_code == 200, r.text
        j1 = r.json()
        assert (j0["seat"], j1["seat"]) == (0, 1)
        assert server.post(f"/api/tables/{code}/join", {"name": "Cy"}).status_code == 409
        a = await Client(server.ws_base, code, j0["token"], since=0).connect()
        b = await Client(server.ws_base, code, j1["token"], lang="de", since=0).connect()
        spec = await Client(server.ws_base, code, since=0).connect()
        await asyncio.gather(play(a, "abluxxen", random.Random(2)),
                             play(b, "abluxxen", random.Random(3)))
        await spec.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
        rec = server.record(code)
        rp = Replay(rec)
        assert rp.states[-1].over and rec["variant"] == "duel"
        seats = _seats(server, code)
        check_messages(a, 0, rp, seats)
        check_messages(b, 1, rp, seats)
        check_messages(spec, None, rp, seats)
        assert event_log(spec) == dict(enumerate(rec["actions"]))
        assert not a.errors() and not b.errors()
        for c in (a, b, spec):
            await c.close()

    run_async(main())


def test_kombio_two_clients_one_bot(server):
    async def main():
        out = server.create(game="kombio", players=3, target=20, snap_seconds=0.4, seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "medium"}, {"kind": "human"}])
        code = out["table"]["code"]
        assert server.get("/api/tables", params={"game": "kombio"}).status_code == 200
        assert code in [t["code"] for t in server.get("/api/tables").json()]        # public
        j0 = server.join(code, "Ann")
        # the lobby list (from the database rows) says what the table itself says
        listed = {t["code"]: t for t in server.get("/api/tables", params={"game": "kombio"}).json()}
        assert listed[code] == server.get(f"/api/tables/{code}").json()
        assert listed[code]["free_seats"] == [2] and listed[code]["seats"][0]["name"] == "Ann"
        j2 = server.join(code, "Cy")
        assert j2["seat"] == 2
        a = await Client(server.ws_base, code, j0["token"], since=0).connect()
        c = await Client(server.ws_base, code, j2["token"], since=0).connect()
        spec = await Client(server.ws_base, code, since=0).connect()
        await asyncio.gather(play(a, "kombio", random.Random(4), timeout=600),
                             play(c, "kombio", random.Random(5), timeout=600))
        await spec.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
        rec = server.record(code)
        rp = Replay(rec)
        assert rp.states[-1].over and rec["target"] == 20
        seats = _seats(server, code)
        check_messages(a, 0, rp, seats)
        check_messages(c, 2, rp, seats)
        check_messages(spec, None, rp, seats)
        assert event_log(a) == dict(enumerate(rec["actions"]))
        for x in (a, c, spec):
            await x.close()

    run_async(main())


async def _to_window(clients: dict, guard: float = 600) -> dict:
    """Play simple turns (draw, discard, skip any action) until a snap window is open;
    returns the latest state of seat 0. (`guard`: only against a hang.)"""
    deadline = time.time() + guard
    while time.time() < deadline:
        st = clients[0].last_state()
        if st and st["window"] is not None and st["legal"]:
            return st
        for cl in clients.values():
            s = cl.last_state()
            if s and s["legal"] and s["window"] is None:
                legal = s["legal"]
                pick = next((d for d in ("draw", "discard", "skip", "keep") if d in legal), None)
                if pick is None:
                    pick = legal[0]
                n = len(cl.messages)
                await cl.send({"type": "decide", "decision": pick, "index": s["index"]})
                await cl.wait_for(lambda m: m["type"] in ("ack", "error"), guard, n)
        await asyncio.sleep(0.05)
    raise TimeoutError("no snap window")


async def _kombio_pair(server, snap_seconds: float) -> tuple[str, dict]:
    out = server.create(game="kombio", players=2, target=30, snap_seconds=snap_seconds)
    code = out["table"]["code"]
    j = [server.join(code, "Ann"), server.join(code, "Bob")]
    cl = {i: await Client(server.ws_base, code, j[i]["token"]).connect() for i in (0, 1)}
    for c in cl.values():
        await c.wait_for(lambda m: m["type"] == "state")
    return code, cl


def test_kombio_snap_window_first_snap_wins_and_deadline(server):
    """KO-10 networked: the first snap to arrive closes the window at once (the others pass);
    a pass stays hidden from the other seats; a window nobody answers closes at its deadline.
    Nothing here depends on the machine's speed: the windows that must stay open last a minute,
    and when a window closed is read from the server's clock in its messages."""
    async def main():
        _, cl = await _kombio_pair(server, snap_seconds=60)

        # 1. Ann passes: hidden from Bob; Bob snaps: the window closes at once
        st = await _to_window(cl)
        idx = st["index"]
        order = st["window"]["seats"]
        deadline = st["window"]["deadline"]
        assert sorted(order) == [0, 1]
        mark = len(cl[1].messages)
        ack = await cl[0].reply({"type": "decide", "decision": "pass", "index": idx},
                                kinds=("ack", "error"))
        assert ack["type"] == "ack" and ack["pending"] is True
        mine = await cl[0].wait_for(lambda m: m["type"] == "state"
                                    and m["window"] and m["window"]["answered"] == "pass")
        assert mine["legal"] == []
        # Bob hears nothing of the pass (his next message, a pong, comes after anything the
        # pass would have sent him)
        await cl[1].reply({"type": "ping"}, kinds=("pong",))
        assert not [m for m in cl[1].messages[mark:] if m["type"] == "event"]
        assert all(m["window"]["answered"] is None for m in cl[1].messages[mark:]
                   if m["type"] == "state")
        bob_state = cl[1].last_state()
        snap = next(d for d in bob_state["legal"] if d.startswith("snap 1."))
        mark = len(cl[1].messages)
        ack = await cl[1].reply({"type": "decide", "decision": snap, "index": idx},
                                kinds=("ack", "error"))
        assert ack["type"] == "ack" and ack["pending"] is False, ack
        evs = [await cl[1].wait_for(lambda m, i=i: m["type"] == "event" and m["index"] == i)
               for i in range(idx, idx + 2)]
        got = {e["seat"]: e["decision"] for e in evs}
        assert got == {0: "pass", 1: snap}
        assert [e["seat"] for e in evs] == order                 # the engine's window order
        assert {e["by"] for e in evs} == {"player"}              # nobody's answer timed out
        after = await cl[1].wait_for(lambda m: m["type"] == "state" and m["index"] > idx, 60,
                                     mark)
        assert after["server_time"] < deadline                   # closed long before its end

        # 3. an answer twice, and a snap answer out of the window, are refused
        st = await _to_window(cl)
        idx = st["index"]
        await cl[0].reply({"type": "decide", "decision": "pass", "index": idx}, kinds=("ack",))
        err = await cl[0].reply({"type": "decide", "decision": "snap 0.1", "index": idx},
                                kinds=("error",))
        assert err["code"] == "already_answered"
        ack = await cl[1].reply({"type": "decide", "decision": "pass", "index": idx},
                                kinds=("ack", "error"))
        assert ack["type"] == "ack" and ack["pending"] is False   # everybody passed: closed
        for c in cl.values():
            await c.close()

        # 2. a window nobody answers closes at its deadline: everybody passes
        _, cl = await _kombio_pair(server, snap_seconds=1)
        st = await _to_window(cl)
        idx = st["index"]
        deadline = st["window"]["deadline"]
        mark = len(cl[0].messages)
        ev = await cl[0].wait_for(lambda m: m["type"] == "event" and m["index"] == idx + 1, 600)
        evs = [m for m in cl[0].messages if m["type"] == "event" and m["index"] in (idx, idx + 1)]
        assert [e["decision"] for e in evs] == ["pass", "pass"]
        assert {e["by"] for e in evs} == {"timeout"} and ev is evs[-1]
        closed = await cl[0].wait_for(lambda m: m["type"] == "state" and m["index"] > idx, 600,
                                      mark)
        assert closed["server_time"] >= deadline - 0.02          # not before its deadline
        for c in cl.values():
            await c.close()

    run_async(main())


def test_turn_timer_standin_and_return(server):
    """A human who lets the turn timer run out is played by the stand-in bot until they
    return (`back`, or connecting again)."""
    async def main():
        out = server.create(game="abluxxen", variant="duel", turn_seconds=1, name="Ann",
                            seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        code, token = out["table"]["code"], out["join"]["token"]
        a = await Client(server.ws_base, code, token).connect()
        ev = await a.wait_for(lambda m: m["type"] == "event" and m["seat"] == 0, timeout=120)
        assert ev["by"] == "timeout"
        await a.wait_for(lambda m: m["type"] == "state" and m["away"] is True)
        await a.wait_for(lambda m: m["type"] == "event" and m["seat"] == 0
                         and m["by"] == "standin", timeout=120)
        await a.send({"type": "back"})
        await a.wait_for(lambda m: m["type"] == "state" and m["away"] is False)
        st = await a.wait_for(lambda m: m["type"] == "state" and m["legal"] and not m["away"],
                              timeout=120)
        assert st["deadline"] is not None and st["deadline"] > st["server_time"]
        ack = await a.reply({"type": "decide", "decision": st["legal"][0],
                             "index": st["index"]}, kinds=("ack", "error"))
        if ack["type"] == "ack":
            ev = await a.wait_for(lambda m: m["type"] == "event" and m["index"] == st["index"])
            assert ev["by"] == "player"
        else:                                  # the timer was quicker than the test
            assert ack["code"] == "stale"
        # away while disconnected; back when connecting again
        await a.close()
        deadline = time.monotonic() + 60        # a hang guard, not a time budget
        while True:
            info = server.get(f"/api/tables/{code}").json()
            if info["seats"][0]["away"] or info["status"] == "over":
                break
            assert time.monotonic() < deadline, "the seat was never marked away"
            await asyncio.sleep(0.1)
        assert info["seats"][0]["away"] or info["status"] == "over"
        b = await Client(server.ws_base, code, token).connect()
        if info["status"] != "over":
            await b.wait_for(lambda m: m["type"] == "state" and m["away"] is False)
        await b.close()

    run_async(main())


def test_lobby_errors(server):
    assert server.get("/api/games").status_code == 200
    assert server.get("/api/tables/NOSUCH42").status_code == 404
    assert server.get("/api/tables/bad-code!").status_code == 422
    out = server.create(game="kombio", players=2)
    code = out["table"]["code"]
    assert server.get(f"/api/tables/{code}/record").status_code == 409      # not over
    assert server.post(f"/api/tables/{code}/rematch", {"token": "nope"}).status_code == 403
    j = server.join(code, "Ann")
    assert server.post(f"/api/tables/{code}/rematch", {"token": j["token"]}).status_code == 409
    assert server.post(f"/api/tables/{code}/join", {"name": "Bob", "seat": 0}).status_code == 409
    assert server.post(f"/api/tables/{code}/join", {"name": "Bob", "seat": 5}).status_code == 404
    assert server.post(f"/api/tables/{code}/join", {"name": "  "}).status_code == 422
    w = server.get(f"/api/tables/{code}/watch").json()
    assert w["view"]["grids"] == [["?"] * 4, ["?"] * 4] and w["view"]["legal"] == []
    for bad in ({"game": "chess"}, {"game": "kombio", "players": 7},
                {"game": "abluxxen", "variant": "duel", "players": 3},
                {"game": "kombio", "variant": "duel"},
                {"game": "abluxxen", "options": {"nonsense": True}},
                {"game": "abluxxen", "seats": [{"kind": "bot", "bot": "nobody"}] * 4},
                {"game": "abluxxen", "seats": [{"kind": "human"}]},
                {"game": "abluxxen", "target": 20}):
        r = server.post("/api/tables", bad)
        assert r.status_code == 422, (bad, r.text)
