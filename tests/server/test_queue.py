""""Play now" (docs/api.md "Play now"): the pairing (a rating window that widens, bots for a
casual table after its wait, never for a rated one), the routes on SQLite and PostgreSQL (a
rated duel of two accounts, bad input, a restart keeps an entry), and two server processes
on PostgreSQL pairing entries made through each."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from helpers import ServerProc, assert_clean_log, call, database_url

from cardtable.server.tables import queue as Q

GUARD = 60.0


def entry(i, rating=0.0, since=0.0, rated=True, variant=None, bot_wait=None, game="kombio"):
    return {"id": i, "owner": f"a:{i}", "account_id": i, "game": game, "variant": variant,
            "rated": rated, "pace": "live", "bot_wait": bot_wait, "rating": rating,
            "since": since, "table_code": None}


# -- the pairing ------------------------------------------------------------------------------
def test_the_rating_window_widens_while_they_wait():
    far = [entry(1, rating=0.0), entry(2, rating=10.0)]
    assert Q.pairings(far, now=0.0) == []                        # 10 apart, window 3
    wait = (10.0 - Q.WINDOW_BASE) / Q.WINDOW_GROWTH               # the window reaches 10
    assert Q.pairings(far, now=wait - 1) == []
    [p] = Q.pairings(far, now=wait)
    assert [e["id"] for e in p.entries] == [1, 2] and p.bots == 0
    # the nearest rating first; the one left over waits
    [p] = Q.pairings([entry(1, 5.0), entry(2, 0.0), entry(3, 6.0)], now=0.0)
    assert [e["id"] for e in p.entries] == [1, 3]


def test_rule_sets_agree_and_any_takes_the_smallest_table():
    [p] = Q.pairings([entry(1, game="abluxxen"), entry(2, game="abluxxen")], now=0.0)
    assert (p.variant, len(p.entries)) == ("duel", 2)
    assert Q.pairings([entry(1, game="abluxxen", variant="duel"),
                       entry(2, game="abluxxen", variant="classic")], now=0.0) == []
    assert Q.pairings([entry(1), entry(2, rated=False)], now=0.0) == []     # rated vs casual


def test_bots_fill_a_casual_table_after_its_wait_and_never_a_rated_one():
    casual = [entry(1, rated=False, bot_wait=30, since=100.0)]
    assert Q.pairings(casual, now=129.0) == []
    [p] = Q.pairings(casual, now=130.0)
    assert (len(p.entries), p.bots) == (1, 1)
    assert Q.pairings([entry(1, rated=False, bot_wait=None)], now=1e9) == []    # never
    assert Q.pairings([entry(1, rated=True, bot_wait=0)], now=1e9) == []        # rated


def test_two_accounts_of_which_one_blocks_the_other_are_never_paired():
    """Casual entries pair first come, first served, and rated ones within the window; a
    block (either way) keeps two accounts apart: the next one who fits is taken."""
    for rated in (False, True):
        two = [entry(1, rated=rated), entry(2, rated=rated, since=1.0)]
        blocked = frozenset({frozenset((2, 1))})
        assert Q.pairings(two, now=5.0, blocked=blocked) == []
        [p] = Q.pairings(two + [entry(3, rated=rated, since=2.0)], now=5.0, blocked=blocked)
        assert [e["id"] for e in p.entries] == [1, 3]
    # past the bot wait, the blocked one is not brought to the table with bots either
    casual = [entry(1, rated=False, bot_wait=0), entry(2, rated=False, bot_wait=0, since=1.0)]
    out = Q.pairings(casual, now=5.0, blocked=frozenset({frozenset((1, 2))}))
    assert [[e["id"] for e in p.entries] for p in out] == [[1], [2]]


# -- the routes -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def web(database):
    with app_client(database, round_break=0) as w:
        yield w


def join(web, sess=None, client=None, **body):
    h = {"x-cardtable-client": client} if client else {}
    return web.call("POST", "/api/queue", sess, json={"game": "kombio", **body}, headers=h)


def poll(web, ticket):
    r = web.call("GET", "/api/queue", headers={"X-Queue-Ticket": ticket})
    assert r.status_code == 200, r.text
    return r.json()


def paired(web, ticket):
    """The ticket's entry once the matcher has paired it (a pass of this process, run by
    the poll, or by its loop when another pass held the lock)."""
    deadline = time.monotonic() + GUARD
    while (e := poll(web, ticket)["entry"])["state"] != "paired":
        assert time.monotonic() < deadline, "not paired"
    return e


def test_two_accounts_are_paired_into_a_rated_duel(web):
    _, ann = web.sign_up("Queue Ann")
    _, ben = web.sign_up("Queue Ben")
    a = join(web, ann, rated=True)
    assert a.status_code == 201, a.text
    assert a.json()["entry"]["state"] == "waiting"
    assert a.json()["waiting"]["kombio"] >= 1
    assert join(web, ann, rated=True).status_code == 409               # one entry each
    b = join(web, ben, rated=True)
    assert b.status_code == 201, b.text
    ea, eb = paired(web, a.json()["ticket"]), paired(web, b.json()["ticket"])
    assert ea["table"] == eb["table"] and {ea["seat"], eb["seat"]} == {0, 1}
    t = web.call("GET", f"/api/tables/{ea['table']}").json()
    assert t["rated"] and t["status"] == "playing" and t["players"] == 2
    assert sorted(s["name"] for s in t["seats"]) == ["Queue Ann", "Queue Ben"]
    # the ticket is the seat's token: a rematch asked with it is accepted as the seat's
    r = web.call("POST", f"/api/tables/{ea['table']}/rematch",
                 json={"token": a.json()["ticket"]})
    assert r.json()["error"] == "not_over"
    assert web.call("DELETE", "/api/queue",
                    headers={"X-Queue-Ticket": a.json()["ticket"]}).status_code == 204


def test_the_matcher_keeps_a_blocker_and_the_blocked_apart(web):
    """Through the routes: Bea blocks Cal; both wait for a rated duel and are never paired
    (each poll runs a pass of the matcher); Dan joins and is paired with the one who waited
    longest, Bea."""
    _, bea = web.sign_up("Queue Bea")
    _, cal = web.sign_up("Queue Cal")
    _, dan = web.sign_up("Queue Dan")
    assert web.call("POST", "/api/me/blocks", bea, json={"name": "Queue Cal"}).status_code == 201
    b = join(web, bea, rated=True).json()["ticket"]
    c = join(web, cal, rated=True).json()["ticket"]
    for ticket in (b, c, b):
        assert poll(web, ticket)["entry"]["state"] == "waiting"
    d = join(web, dan, rated=True).json()["ticket"]
    eb, ed = paired(web, b), paired(web, d)
    assert eb["table"] == ed["table"]
    assert poll(web, c)["entry"]["state"] == "waiting"
    assert web.call("DELETE", "/api/queue", headers={"X-Queue-Ticket": c}).status_code == 204


def test_a_casual_guest_gets_bots_at_once_with_no_wait(web):
    r = join(web, client="guest-one-0000000", name="Gus", bot_wait=0)
    assert r.status_code == 201, r.text
    e = paired(web, r.json()["ticket"])
    t = web.call("GET", f"/api/tables/{e['table']}").json()
    assert [s["kind"] for s in t["seats"]] == ["human", "bot"] and not t["rated"]


@pytest.mark.parametrize("body,status,where", [
    ({"game": "nope"}, 422, "game"),
    ({"game": "kombio", "variant": "duel", "name": "X"}, 422, "variant"),
    ({"game": "kombio", "bot_wait": -1, "name": "X"}, 422, "bot_wait"),
    ({"game": "kombio", "bot_wait": "10", "name": "X"}, 422, "bot_wait"),
    ({"game": "kombio", "pace": "slow", "name": "X"}, 422, "pace"),
    ({"game": "kombio", "extra": 1, "name": "X"}, 422, "extra"),
    ({"game": "kombio"}, 422, "name"),
    ({"game": "kombio", "rated": True}, 401, "rated_login"),
])
def test_bad_input_is_refused_and_changes_nothing(web, body, status, where):
    before = web.call("GET", "/api/queue").json()["waiting"]
    r = web.call("POST", "/api/queue", json=body, headers={"x-cardtable-client":
                                                           "bad-input-0000000"})
    assert r.status_code == status, r.text
    assert where in r.text
    assert web.call("GET", "/api/queue").json()["waiting"] == before


def test_rated_with_bots_is_refused(web):
    _, s = web.sign_up("Queue Cid")
    r = join(web, s, rated=True, bot_wait=10)
    assert r.status_code == 422 and "bot_wait" in r.text


def test_an_entry_survives_a_restart(tmp_path):
    db = f"sqlite:///{tmp_path}/q.db"
    with app_client(db) as w:
        t = join(w, client="restart-one-00000", name="Rita").json()["ticket"]
    with app_client(db) as w:
        assert poll(w, t)["entry"]["state"] == "waiting"
        r = join(w, client="restart-two-00000", name="Remo")
        assert paired(w, t)["table"] == paired(w, r.json()["ticket"])["table"]


def test_two_processes_pair_entries_made_through_each(request, tmp_path, logs):
    url = database_url("postgresql", request, tmp_path)
    a_srv = ServerProc(url, log_dir=logs).start()
    b_srv = ServerProc(url, log_dir=logs).start()
    try:
        sess = []
        for srv, name in ((a_srv, "Procs Ann"), (b_srv, "Procs Ben")):
            r = call(srv, "POST", "/api/accounts", json={"name": name,
                                                         "password": "a long password"})
            sess.append(r.cookies["cardtable_session"])
        a = call(a_srv, "POST", "/api/queue", sess[0], json={"game": "kombio", "rated": True})
        b = call(b_srv, "POST", "/api/queue", sess[1], json={"game": "kombio", "rated": True})
        assert a.status_code == b.status_code == 201, (a.text, b.text)
        deadline = time.monotonic() + GUARD
        tables = set()
        for srv, r in ((a_srv, a), (b_srv, b)):
            while True:                 # the matcher of either process may pair them
                e = entry_of(srv, r.json()["ticket"])
                if e["state"] == "paired":
                    tables.add(e["table"])
                    break
                assert time.monotonic() < deadline, "not paired"
        assert len(tables) == 1
    finally:
        a_srv.stop()
        b_srv.stop()
    assert_clean_log(logs)


def entry_of(srv, ticket):
    r = httpx.get(srv.base + "/api/queue", headers={"X-Queue-Ticket": ticket},
                  timeout=GUARD, trust_env=False)
    assert r.status_code == 200, r.text
    return r.json()["entry"]
