"""Web Push ("your move" while the page is closed; server/talk/push.py), end to end: real server
processes (SQLite and PostgreSQL) send to the in-test push service (push_receiver.py), which
checks the VAPID token and decrypts every message as a browser would."""

from __future__ import annotations

import base64
import socket
import time

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from helpers import Client, ServerProc, run_async
from push_receiver import PushReceiver
from sqlalchemy import create_engine, text

from cardtable.server.config import DatabaseURL
from cardtable.server.talk.push import BadSubscription, check_endpoint

GUARD = 60.0


@pytest.fixture(scope="module")
def receiver():
    r = PushReceiver().start()
    yield r
    r.stop()


@pytest.fixture(scope="module")
def srv(database, logs):
    s = ServerProc(database, args=("--push-allow-local",), log_dir=logs).start()
    yield s
    s.stop()


def count_subs(database: str, where: str = "1 = 1", **params) -> int:
    engine = create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(f"SELECT count(*) FROM push_subscriptions WHERE {where}"),
                                params).scalar()
    finally:
        engine.dispose()


def poll(cond, what: str):
    """Poll `cond` until it is true (a generous deadline: a guard, not a budget)."""
    deadline = time.monotonic() + GUARD
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


def settled(srv: ServerProc) -> dict:
    """Wait until the server handled every alert it queued; its stats."""
    out = {}

    def done():
        out.update(srv.get("/api/push/stats").json())
        return out["jobs"] == out["done"] and out["waiting"] == 0
    poll(done, "push jobs still running")
    return out


def subscribe(srv, code, token, sub, lang="en"):
    return srv.post("/api/push/subscriptions", {"table": code, "token": token, "lang": lang,
                                                "subscription": sub.json()})


# -- keys ----------------------------------------------------------------------------------------------
def test_vapid_key_is_made_once_and_kept_across_a_restart(database, logs):
    a = ServerProc(database, log_dir=logs).start()
    try:
        key = a.get("/api/push/key").json()["key"]
    finally:
        a.stop()
    point = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)   # a P-256 point
    b = ServerProc(database, log_dir=logs).start()
    try:
        assert b.get("/api/push/key").json()["key"] == key
        # this server (no --push-allow-local) refuses endpoints into its own network (SSRF)
        out = b.create(game="abluxxen", players=3, name="Ann", public=False,
                       seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
        code, token = out["table"]["code"], out["join"]["token"]
        r = PushReceiver()
        sub = r.subscribe("x")
        for endpoint in (sub.endpoint, "https://127.0.0.1/p", "https://10.1.2.3/p",
                         "https://[::1]/p", "https://localhost/p", "https://push.local/p",
                         "ftp://push.example.com/p", "https://user:pw@push.example.com/p"):
            body = {"table": code, "token": token,
                    "subscription": dict(sub.json(), endpoint=endpoint)}
            resp = b.post("/api/push/subscriptions", body)
            assert resp.status_code == 422 and resp.json()["error"] == "push_endpoint", endpoint
        r.httpd.server_close()
    finally:
        b.stop()
    assert count_subs(database) == 0


def test_endpoint_checks():
    for ok in ("https://fcm.googleapis.com/fcm/send/abc", "https://updates.push.services"
               ".mozilla.com/wpush/v2/x", "https://8.8.8.8/x"):
        assert check_endpoint(ok) == ok
    for bad in ("http://fcm.googleapis.com/x", "https://192.168.1.1/x", "https://169.254.169"
                ".254/latest", "https://[::ffff:127.0.0.1]/x", "https://[fd00::1]/x",
                "https://intranet/x", "https://a.localhost/x", "https://x.example.com:99999/",
                "", "https://" + "a" * 1100 + ".com/"):
        with pytest.raises(BadSubscription):
            check_endpoint(bad)
    assert check_endpoint("http://127.0.0.1:8/x", allow_local=True)


# -- subscriptions ----------------------------------------------------------------------------------
def test_subscribe_needs_the_seat_token_and_sane_input(srv, database, receiver):
    out = srv.create(game="abluxxen", players=3, name="Ann", public=False,
                     seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    code, token = out["table"]["code"], out["join"]["token"]
    sub = receiver.subscribe(f"s-{code}")
    before = count_subs(database)
    r = subscribe(srv, code, "x" * 43, sub)
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    r = subscribe(srv, "ZZZZZZZZ", token, sub)
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    bad_keys = dict(sub.json(), keys={"p256dh": "AAAA", "auth": "BBBB"})
    r = srv.post("/api/push/subscriptions", {"table": code, "token": token,
                                             "subscription": bad_keys})
    assert r.status_code == 422 and r.json()["error"] == "push_keys"
    huge = dict(sub.json(), endpoint=sub.endpoint + "x" * 20000)
    r = srv.post("/api/push/subscriptions", {"table": code, "token": token, "subscription": huge})
    assert r.status_code == 413
    assert count_subs(database) == before                      # nothing was kept
    r = subscribe(srv, code, token, sub)
    assert r.status_code == 201 and r.json() == {"table": code, "seat": 0}
    assert subscribe(srv, code, token, sub).status_code == 201      # again: replaced
    assert count_subs(database) == before + 1
    more = [receiver.subscribe(f"s-{code}-{i}") for i in range(4)]
    codes = [subscribe(srv, code, token, s).status_code for s in more]
    assert codes == [201, 201, 201, 409]                        # 4 a seat
    r = httpx.request("DELETE", srv.base + "/api/push/subscriptions", trust_env=False,
                      json={"table": code, "token": token, "endpoint": sub.endpoint})
    assert r.status_code == 200 and r.json() == {"removed": 1}
    assert count_subs(database) == before + 3


# -- delivery ---------------------------------------------------------------------------------------
async def play_until(client: Client, stop) -> int:
    """Decide (the first legal decision) whenever the client's seat may, until `stop(state)`;
    the number of decisions."""
    moves = 0
    await client.wait_for(lambda m: m["type"] == "state")
    while True:
        start = len(client.messages) - 1
        st = client.last_state()
        if stop(st):
            return moves
        if st["legal"]:
            moves += 1
            await client.send({"type": "decide", "decision": st["legal"][0],
                               "index": st["index"]})
        await client.wait_for(lambda m: m["type"] == "state" and (
            m["index"] != st["index"] or m["waiting_for"] != st["waiting_for"]), GUARD, start)


def test_your_move_reaches_the_closed_page_once_and_not_the_open_one(srv, database, receiver):
    """Ann (seat 0, the host) plays with her page open, a bot (seat 1), Bea (seat 2) has
    closed hers: when Bea's move begins she gets one push, decrypted by the receiver, in her
    language, with the table and its link and nothing of the game; Ann, connected, gets none;
    neither a reconnection nor a restart of the server sends it again; at Bea's next move the
    push service answers 410 and the server deletes her subscription."""
    receiver.server_key = srv.get("/api/push/key").json()["key"]
    out = srv.create(game="abluxxen", players=3, name="Ann", public=False,
                     seats=[{"kind": "human"}] * 3)
    code, ann_token = out["table"]["code"], out["join"]["token"]
    bea_token = srv.join(code, "Bea", seat=2)["token"]
    ann_sub, bea_sub = receiver.subscribe(f"ann-{code}"), receiver.subscribe(f"bea-{code}")
    assert subscribe(srv, code, ann_token, ann_sub).status_code == 201
    assert subscribe(srv, code, bea_token, bea_sub, lang="de").status_code == 201

    def pushes(sub):
        return receiver.received(sub.name)

    def bea_seat_count():
        return count_subs(database, "seat = 2 AND table_id IN (SELECT id FROM game_tables "
                                    "WHERE code = :c)", c=code)

    async def first_round():
        ann = await Client(srv.ws_base, code, ann_token).connect()
        await ann.wait_for(lambda m: m["type"] == "state")
        # the free seat 1 to a bot: the game starts (both have subscribed by now)
        await ann.send({"type": "seat", "seat": 1, "kind": "bot", "bot": "easy"})
        await ann.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing")
        await play_until(ann, lambda st: st["waiting_for"] == [2])
        await ann.close()
    run_async(first_round())
    receiver.wait(lambda ms: any(m["sub"] == bea_sub.name for m in ms))
    stats = settled(srv)
    mine = [m for m in receiver.received() if m["sub"] in (ann_sub.name, bea_sub.name)]
    assert [m.get("error") for m in mine] == [None], mine
    assert len(pushes(bea_sub)) == 1 and pushes(ann_sub) == []
    assert stats["sent"] >= 1 and stats["dropped"] == 0
    msg = pushes(bea_sub)[0]
    assert msg["headers"]["Content-Encoding"] == "aes128gcm" and int(msg["headers"]["TTL"]) > 0
    # exactly this (no card, no name, nothing of the game's state)
    assert msg["payload"] == {"title": "Du bist dran", "body": f"Du bist dran an Tisch {code}.",
                              "url": f"/t/{code}", "table": code, "tag": f"cardtable-{code}"}

    # Ann opens her page again (a first connection: the table looks again), the server
    # restarts (the new process remembers nothing), Ann opens it again: still one push
    async def reopen():
        again = await Client(srv.ws_base, code, ann_token).connect()
        await again.wait_for(lambda m: m["type"] == "state")
        await again.close()
    run_async(reopen())
    settled(srv)
    srv.stop()
    srv.start()
    run_async(reopen())
    settled(srv)
    assert len(pushes(bea_sub)) == 1 and pushes(ann_sub) == []

    # Bea's browser dropped the subscription: 410 at her next move deletes it
    bea_sub.status = 410
    assert bea_seat_count() == 1

    async def second_round():
        ann = await Client(srv.ws_base, code, ann_token).connect()     # open all along
        await ann.wait_for(lambda m: m["type"] == "state")
        bea = await Client(srv.ws_base, code, bea_token).connect()
        await play_until(bea, lambda st: st["waiting_for"] == [0])
        await bea.close()
        await ann.wait_for(lambda m: m["type"] == "state" and not m["seats"][2]["online"])
        assert await play_until(ann, lambda st: st["waiting_for"] == [2]) > 0
        await ann.close()
    run_async(second_round())
    receiver.wait(lambda ms: sum(m["sub"] == bea_sub.name for m in ms) == 2)
    poll(lambda: bea_seat_count() == 0, "the 410 did not delete the subscription")
    assert pushes(bea_sub)[1]["status"] == 410 and "payload" in pushes(bea_sub)[1]
    assert settled(srv)["gone"] == 1
    assert pushes(ann_sub) == []                  # Ann's moves began with her page open


def test_send_time_resolver_refuses_local_addresses():
    """A host name that resolves into the server's own network is refused when an alert is
    sent (DNS may change after the subscription was checked)."""
    import asyncio

    from cardtable.server.talk.push import public_resolver

    async def main():
        strict, loose = public_resolver(allow_local=False), public_resolver(allow_local=True)
        try:
            with pytest.raises(OSError):
                await strict.resolve("localhost", 443)
            assert [r["host"] for r in await loose.resolve("localhost", 443,
                                                           socket.AF_INET)] == ["127.0.0.1"]
        finally:
            await strict.close()
            await loose.close()
    asyncio.run(main())


def test_which_moves_get_an_alert():
    """Pusher.changed on a table's runtime (a stand-in object with the runtime's interface):
    one job per move and seat, never for a bot, an away seat, a connected seat, a game not
    being played, or a window too short to come back for; a long window alerts every eligible
    seat that has not answered."""
    import asyncio
    from types import SimpleNamespace as NS

    from cardtable.server.config import Settings
    from cardtable.server.talk.push import WINDOW_MIN, Pusher

    class Rt:
        def __init__(self, to_move, window=None, answered=(), conns=(), status="playing"):
            self.id, self.code, self.n, self.status = 7, "ABCDEFGH", 10, status
            self.state = NS(over=False, to_move=to_move)
            self.seats = [{"kind": "human", "away": False}, {"kind": "bot", "away": False},
                          {"kind": "human", "away": True}, {"kind": "human", "away": False}]
            self._window, self._answered = window, {s: "player" for s in answered}
            self.conns = [NS(seat=s) for s in conns]

        def round_break(self):
            return None

        def window(self):
            return object() if self._window is not None else None

        def window_seconds(self):
            return self._window

        def window_order(self):
            return [0, 1, 2, 3]

        def answers(self):
            return self._answered

        def is_auto(self, s):
            return self.seats[s]["kind"] == "bot" or self.seats[s]["away"]

    async def main():
        def jobs(*rts):
            p = Pusher(None, Settings())
            for rt in rts:
                p.changed(rt)
            out = []
            while not p.queue.empty():
                out.append(p.queue.get_nowait())
            return out
        assert jobs(Rt(0), Rt(0)) == [(7, "ABCDEFGH", 0, 10)]          # once a move
        later = Rt(0)
        later.n = 12
        assert len(jobs(Rt(0), later)) == 2                             # the next move: again
        assert jobs(Rt(1)) == [] and jobs(Rt(2)) == []                   # bot, away
        assert jobs(Rt(0, conns=[0])) == []                              # page open
        assert jobs(Rt(0, status="over")) == []
        assert jobs(Rt(None, window=5.0)) == []                          # a snap window
        assert [j[2] for j in jobs(Rt(None, window=WINDOW_MIN, answered=[3]))] == [0]
    asyncio.run(main())
