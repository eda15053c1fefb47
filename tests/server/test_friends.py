"""Friends (issue 32), on SQLite and PostgreSQL: requests that the other accepts or declines,
removing a friend, no enumeration of names, the limits, the Origin checks, who is online
(an open WebSocket, a polling page; friends only), invitations to a table (they lapse when
it starts), invitations as Web Push notifications (decrypted by the test's push service),
and migration 0008 from a database of revision 0006."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import ORIGIN, app_client
from push_receiver import PushReceiver

from cardtable.server.people import friends as F
from cardtable.server.people.friends import FriendLimits

EVIL = "https://evil.example"
GUARD = 60.0


@pytest.fixture(scope="module")
def web(database):
    with app_client(database, push_allow_local=True) as b:
        yield b


def people(web, *names):
    """Sign up each name: their session cookies."""
    out = []
    for n in names:
        r, sess = web.sign_up(n)
        assert r.status_code == 201, r.text
        out.append(sess)
    return out


def ask(web, sess, name, **kw):
    return web.call("POST", "/api/friends/requests", sess, json={"name": name}, **kw)


def view(web, sess) -> dict:
    r = web.call("GET", "/api/friends", sess)
    assert r.status_code == 200, r.text
    return r.json()


def befriend(web, a, b, b_name):
    assert ask(web, a, b_name).json()["status"] == "sent"
    req = view(web, b)["incoming"][0]["id"]
    assert web.call("POST", f"/api/friends/requests/{req}/accept", b).status_code == 200


def poll(cond, what: str):
    deadline = time.monotonic() + GUARD
    while not cond():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


# -- requests ----------------------------------------------------------------------------------------
def test_a_request_the_other_accepts_makes_friends_and_either_can_end_it(web):
    ann, bob = people(web, "Ann", "Bob")
    r = ask(web, ann, "BOB")                         # a lookalike of the name finds it
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "sent" and r.json()["name"] == "BOB"
    assert [x["name"] for x in view(web, ann)["sent"]] == ["BOB"]
    inc = view(web, bob)["incoming"]
    assert [x["name"] for x in inc] == ["Ann"]
    assert view(web, bob)["friends"] == [] and view(web, ann)["friends"] == []
    r = web.call("POST", f"/api/friends/requests/{inc[0]['id']}/accept", bob)
    assert r.status_code == 200 and r.json()["name"] == "Ann", r.text
    assert [f["name"] for f in view(web, ann)["friends"]] == ["Bob"]
    assert [f["name"] for f in view(web, bob)["friends"]] == ["Ann"]
    assert view(web, ann)["sent"] == [] and view(web, bob)["incoming"] == []
    # accepting again: the request is gone
    r = web.call("POST", f"/api/friends/requests/{inc[0]['id']}/accept", bob)
    assert r.status_code == 404 and r.json()["error"] == "no_request"
    # asking a friend again says so, and changes nothing
    assert ask(web, ann, "Bob").json() == {"status": "friends", "name": "Bob", "request": None}
    r = web.call("DELETE", "/api/friends/people/bob", ann)
    assert r.status_code == 204
    assert view(web, ann)["friends"] == [] and view(web, bob)["friends"] == []
    r = web.call("DELETE", "/api/friends/people/Bob", ann)
    assert r.status_code == 404 and r.json()["error"] == "not_friend"
    # two who ask each other are friends at once
    assert ask(web, bob, "Ann").json()["status"] == "sent"
    assert ask(web, ann, "Bob").json()["status"] == "friends"
    assert [f["name"] for f in view(web, bob)["friends"]] == ["Ann"]


def test_a_declined_requester_is_not_told_and_cannot_ask_again(web):
    cleo, dan = people(web, "Cleo", "Dan")
    ask(web, cleo, "Dan")
    before = view(web, cleo)["sent"]
    req = view(web, dan)["incoming"][0]["id"]
    r = web.call("POST", f"/api/friends/requests/{req}/decline", dan)
    assert r.status_code == 204
    assert view(web, dan)["incoming"] == []
    assert view(web, cleo)["sent"] == before           # unchanged: not told
    for _ in range(3):                                  # asking again reaches nobody
        assert ask(web, cleo, "Dan").json()["status"] == "sent"
    assert view(web, dan)["incoming"] == [] and view(web, dan)["friends"] == []
    # taking it back and asking again does not either
    r = web.call("DELETE", f"/api/friends/requests/{before[0]['id']}", cleo)
    assert r.status_code == 204 and view(web, cleo)["sent"] == []
    assert ask(web, cleo, "Dan").json()["status"] == "sent"
    assert [x["name"] for x in view(web, cleo)["sent"]] == ["Dan"]
    assert view(web, dan)["incoming"] == []
    # Dan changes his mind: his own request makes them friends
    assert ask(web, dan, "Cleo").json()["status"] == "friends"
    # nobody else answers Dan's requests or takes back Cleo's
    r = web.call("POST", f"/api/friends/requests/{req}/decline", cleo)
    assert r.status_code == 404


def test_an_unknown_name_is_answered_as_one_that_does_not_accept(web, monkeypatch):
    """The answer, the requester's list and the statements run are the same for a name
    without an account, an account that declined, and one that has not answered."""
    eve, fay, gil = people(web, "Eve", "Fay", "Gil")
    ask(web, fay, "Eve")
    web.call("POST", f"/api/friends/requests/{view(web, eve)['incoming'][0]['id']}/decline",
             eve)
    seen: list[list[str]] = []
    real = F.request

    def spy(*args):
        op = real(*args)
        sqls: list[str] = []
        seen.append(sqls)
        rows = None
        try:
            while True:
                sql, params = op.send(rows)
                sqls.append(sql)
                rows = yield sql, params
        except StopIteration as stop:
            return stop.value
    monkeypatch.setattr(F, "request", spy)
    answers = {name: ask(web, fay, name) for name in ("Eve", "Nobodyhere", "Gil")}
    shapes = set()
    for name, r in answers.items():
        assert r.status_code == 202, r.text
        body = r.json()
        assert body["status"] == "sent" and body["name"] == name
        shapes.add((tuple(body), tuple(body["request"])))
    assert len(shapes) == 1
    assert seen[0] == seen[1] == seen[2] and len(seen) == 3
    sent = view(web, fay)["sent"]
    assert sorted(x["name"] for x in sent) == ["Eve", "Gil", "Nobodyhere"]
    assert {tuple(x) for x in sent} == {("id", "name", "created_at")}
    # a bad name is refused for its form alone (the rules are public), one's own name too
    r = ask(web, fay, "Bot 3")
    assert r.status_code == 422 and r.json()["error"] == "bad_name"
    r = ask(web, fay, "FAY")
    assert r.status_code == 422 and r.json()["error"] == "friend_self"
    # somebody who signs up later under an asked-for name sees the request
    (nob,) = people(web, "NobodyHere")
    assert [x["name"] for x in view(web, nob)["incoming"]] == ["Fay"]


def test_requests_are_limited_per_account(database):
    with app_client(database) as web:
        web.app.state.friends.limits = FriendLimits(requests_per_day=1, request_burst=3)
        hal, ida = people(web, "Hal", "Ida")
        codes = [ask(web, hal, f"Someone {i}").status_code for i in range(4)]
        assert codes == [202, 202, 202, 429]
        r = ask(web, hal, "Someone 9")
        assert r.json()["error"] == "friend_limited" and int(r.headers["Retry-After"]) > 3600
        assert r.json()["params"]["seconds"] > 3600
        assert len(view(web, hal)["sent"]) == 3            # nothing stored when refused
        assert ask(web, ida, "Hal").status_code == 202     # another account's budget is its own
        # unanswered requests out, in all processes: at most MAX_SENT
        web.app.state.friends.limits = FriendLimits(request_burst=1000)
        for i in range(F.MAX_SENT - 1):
            assert ask(web, ida, f"Nobody {i}").status_code == 202
        r = ask(web, ida, "One too many")
        assert r.status_code == 409 and r.json()["error"] == "friend_requests_full"
        assert ask(web, ida, "Nobody 3").status_code == 202     # asking again is no new one


def test_friend_routes_need_an_account_and_this_sites_origin(web):
    jon, kim = people(web, "Jon", "Kim")
    assert web.call("GET", "/api/friends").json()["error"] == "not_logged_in"
    assert ask(web, None, "Kim").status_code == 401
    for origin, error in ((EVIL, "cross_origin"), (None, "origin_missing")):
        r = ask(web, jon, "Kim", origin=origin)
        assert r.status_code == 403 and r.json()["error"] == error
    assert view(web, kim)["incoming"] == [] and view(web, jon)["sent"] == []
    befriend(web, jon, kim, "Kim")
    for method, path, body in (("DELETE", "/api/friends/people/Kim", None),
                               ("POST", "/api/friends/invites", {"table": "ABCDEFGH", "to": "Kim"}),
                               ("POST", "/api/friends/push", {"subscription": {}})):
        r = web.call(method, path, jon, json=body, origin=EVIL)
        assert r.status_code == 403 and r.json()["error"] == "cross_origin", path
    assert [f["name"] for f in view(web, jon)["friends"]] == ["Kim"]


# -- invitations ---------------------------------------------------------------------------------------
def table_of(web, sess, name, players=3) -> tuple[str, str]:
    r = web.call("POST", "/api/tables", sess, json={
        "game": "kombio", "public": False, "name": name, "players": players,
        "seats": [{"kind": "human"}] * players})
    assert r.status_code == 201, r.text
    return r.json()["table"]["code"], r.json()["join"]["token"]


def test_an_invitation_reaches_the_friend_and_lapses_when_the_table_starts(web):
    lea, max_, ned, ola = people(web, "Lea", "Max", "Ned", "Ola")
    befriend(web, lea, max_, "Max")
    befriend(web, lea, ned, "Ned")
    code, token = table_of(web, lea, "Lea")
    r = web.call("POST", "/api/friends/invites", lea, json={"table": code.lower(), "to": "max"})
    assert r.status_code == 201, r.text
    assert r.json() == {"id": r.json()["id"], "to": "Max", "table": code, "new": True}
    again = web.call("POST", "/api/friends/invites", lea, json={"table": code, "to": "Max"})
    assert again.json()["new"] is False and again.json()["id"] == r.json()["id"]
    inv = view(web, max_)["invites"]
    assert [(i["from"], i["code"], i["game"], i["link"]) for i in inv] == \
        [("Lea", code, "kombio", f"/t/{code}")]
    # only friends, only a player of the table, only a table that exists
    refusals = [(ola, {"table": code, "to": "Max"}, 403, "not_seated_here"),
                (lea, {"table": code, "to": "Ola"}, 404, "not_friend"),
                (lea, {"table": "NOSUCHTABLE", "to": "Max"}, 404, "no_table")]
    for sess, body, status, error in refusals:
        r = web.call("POST", "/api/friends/invites", sess, json=body)
        assert (r.status_code, r.json()["error"]) == (status, error), body
    r = web.call("POST", "/api/friends/invites", lea, json={"table": code, "to": "Ned"})
    assert r.status_code == 201
    # Max accepts: the table's link; the invitation is gone
    r = web.call("POST", f"/api/friends/invites/{inv[0]['id']}/accept", max_)
    assert r.status_code == 200 and r.json() == {"code": code, "link": f"/t/{code}"}
    assert view(web, max_)["invites"] == []
    j = web.call("POST", f"/api/tables/{code}/join", max_, json={"name": "Max"})
    assert j.status_code == 200, j.text
    r = web.call("POST", "/api/friends/invites", lea, json={"table": code, "to": "Max"})
    assert r.status_code == 409 and r.json()["error"] == "friend_seated"
    assert len(view(web, ned)["invites"]) == 1
    # the last seat is taken: the game starts, Ned's invitation lapses
    web.call("POST", f"/api/tables/{code}/join", json={"name": "Pia"}, origin=None)
    assert web.call("GET", f"/api/tables/{code}").json()["status"] == "playing"
    assert view(web, ned)["invites"] == []
    r = web.call("POST", "/api/friends/invites", lea, json={"table": code, "to": "Ned"})
    assert r.status_code == 409 and r.json()["error"] == "no_free_seat"
    # dismissing: gone; a table that closed: its invitations with it
    code2, _ = table_of(web, lea, "Lea")
    web.call("POST", "/api/friends/invites", lea, json={"table": code2, "to": "Ned"})
    iid = view(web, ned)["invites"][0]["id"]
    assert web.call("DELETE", f"/api/friends/invites/{iid}", ned).status_code == 204
    assert view(web, ned)["invites"] == []
    assert web.call("DELETE", f"/api/friends/invites/{iid}", ned).status_code == 404
    code3, token3 = table_of(web, lea, "Lea")
    web.call("POST", "/api/friends/invites", lea, json={"table": code3, "to": "Ned"})
    iid = view(web, ned)["invites"][0]["id"]
    with web.client.websocket_connect(f"/ws/{code3}?token={token3}") as ws:
        ws.send_json({"type": "cancel"})
        while ws.receive_json()["type"] != "cancelled":
            pass
    assert view(web, ned)["invites"] == []
    r = web.call("POST", f"/api/friends/invites/{iid}/accept", ned)
    assert r.status_code == 410 and r.json()["error"] == "invite_gone"
    # a friendship that ends takes its invitations along
    code4, _ = table_of(web, lea, "Lea")
    web.call("POST", "/api/friends/invites", lea, json={"table": code4, "to": "Ned"})
    assert len(view(web, ned)["invites"]) == 1
    web.call("DELETE", "/api/friends/people/Lea", ned)
    assert view(web, ned)["invites"] == []


def test_invitations_are_limited_per_account(database):
    with app_client(database) as web:
        web.app.state.friends.limits = FriendLimits(invites_per_hour=1, invite_burst=2)
        ute, vic = people(web, "Ute", "Vic")
        befriend(web, ute, vic, "Vic")
        codes = []
        for _ in range(3):
            code, _ = table_of(web, ute, "Ute")
            codes.append(web.call("POST", "/api/friends/invites", ute,
                                  json={"table": code, "to": "Vic"}))
        assert [r.status_code for r in codes] == [201, 201, 429]
        assert codes[2].json()["error"] == "invite_limited"
        assert len(view(web, vic)["invites"]) == 2


def seen_at(database: str, name: str) -> float:
    import sqlalchemy as sa

    from cardtable.server.config import DatabaseURL
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(
                "SELECT p.seen_at FROM presence p JOIN accounts a ON a.id = p.account_id "
                "WHERE a.name = :n"), {"n": name}).scalar()
    finally:
        engine.dispose()


# -- presence ------------------------------------------------------------------------------------------
def test_friends_see_who_is_online_and_strangers_see_nothing(database):
    with app_client(database) as web:
        presence = web.app.state.friends.presence
        presence.beat, presence.online_seconds = 0.2, 1.0
        wil, xia, yan = people(web, "Wil", "Xia", "Yan")
        befriend(web, wil, xia, "Xia")
        code, token = table_of(web, xia, "Xia", players=2)

        def online(sess, name):
            return {f["name"]: f["online"] for f in view(web, sess)["friends"]}.get(name)
        poll(lambda: online(wil, "Xia") is False, "Xia still online after her requests")
        headers = {"Cookie": f"cardtable_session={xia}", "Origin": ORIGIN}
        with web.client.websocket_connect(f"/ws/{code}?token={token}", headers=headers) as ws:
            ws.receive_json()
            poll(lambda: online(wil, "Xia") is True, "Xia's open table does not count")
            # renewed while the connection stays open, beyond the online window
            first = seen_at(database, "Xia")
            poll(lambda: seen_at(database, "Xia") > first + 2 * presence.online_seconds,
                 "the open connection's presence was not renewed")
            assert online(wil, "Xia") is True
            assert view(web, yan)["friends"] == []          # a stranger sees nobody
        poll(lambda: online(wil, "Xia") is False, "Xia still online after she left")
        assert not presence.open
        poll(lambda: presence._task.done(), "the beat goes on with no connection open")


def test_an_invitation_arrives_as_a_web_push_notification(web, database):
    receiver = PushReceiver().start()
    try:
        receiver.server_key = web.call("GET", "/api/push/key").json()["key"]
        zoe, abe = people(web, "Zoe", "Abe")
        befriend(web, zoe, abe, "Abe")
        sub = receiver.subscribe("abe")
        r = web.call("POST", "/api/friends/push", abe,
                     json={"subscription": sub.json(), "lang": "de"})
        assert r.status_code == 201, r.text
        bad = dict(sub.json(), endpoint="ftp://push.example/x")
        r = web.call("POST", "/api/friends/push", abe, json={"subscription": bad})
        assert r.status_code == 422 and r.json()["error"] == "push_endpoint"
        code, _ = table_of(web, zoe, "Zoe")
        web.call("POST", "/api/friends/invites", zoe, json={"table": code, "to": "Abe"})
        receiver.wait(lambda ms: any(m["sub"] == "abe" for m in ms))
        msg = receiver.received("abe")[0]
        assert msg.get("error") is None and msg["status"] == 201
        assert msg["payload"] == {"title": "Einladung an einen Tisch",
                                  "body": f"Zoe lädt dich zu Kombio an Tisch {code} ein.",
                                  "url": f"/t/{code}", "table": code,
                                  "tag": f"cardtable-invite-{code}"}
        # the same invitation again: no second notification; the browser dropped the
        # subscription (410): the next invitation deletes it
        web.call("POST", "/api/friends/invites", zoe, json={"table": code, "to": "Abe"})
        sub.status = 410
        code2, _ = table_of(web, zoe, "Zoe")
        web.call("POST", "/api/friends/invites", zoe, json={"table": code2, "to": "Abe"})
        receiver.wait(lambda ms: sum(m["sub"] == "abe" for m in ms) == 2)
        assert receiver.received("abe")[1]["payload"]["table"] == code2

        def subs():
            import sqlalchemy as sa

            from cardtable.server.config import DatabaseURL
            engine = sa.create_engine(DatabaseURL(database).sync_url)
            try:
                with engine.connect() as conn:
                    return conn.execute(sa.text("SELECT count(*) FROM account_push")).scalar()
            finally:
                engine.dispose()
        poll(lambda: subs() == 0, "the 410 did not delete the subscription")
        assert len(receiver.received("abe")) == 2
    finally:
        receiver.stop()


# -- the API's documents ---------------------------------------------------------------------------------
def test_friend_routes_are_in_the_openapi_schema(web):
    paths = web.call("GET", "/openapi.json").json()["paths"]
    for path, method in [("/api/friends", "get"), ("/api/friends/requests", "post"),
                         ("/api/friends/requests/{request_id}/accept", "post"),
                         ("/api/friends/requests/{request_id}/decline", "post"),
                         ("/api/friends/requests/{request_id}", "delete"),
                         ("/api/friends/people/{name}", "delete"),
                         ("/api/friends/invites", "post"),
                         ("/api/friends/invites/{invite_id}/accept", "post"),
                         ("/api/friends/invites/{invite_id}", "delete"),
                         ("/api/friends/push", "post"), ("/api/friends/push", "delete")]:
        op = paths[path][method]
        assert op["tags"] == ["friends"] and op.get("description"), (path, method)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_friends_error_has_words_in_both_languages(lang):
    import re

    from cardtable.i18n import t

    src = Path(__file__).parents[2] / "src" / "cardtable" / "server"
    text = (src / "http/friend.py").read_text() + (src / "people/friends.py").read_text()
    # ApiError(status, "detail" "detail ...", "code" ...), InviteRefused(status, "code", ...)
    codes = set(re.findall(r'ApiError\(\d+,\s*(?:f?"[^"]*"\s*)+,\s*"([a-z_]+)"', text)) | \
        set(re.findall(r'InviteRefused\(\d+, "([a-z_]+)"', text)) | \
        set(re.findall(r'"([a-z]+_limited)"', text))
    assert {"friend_self", "friend_limited", "invite_limited", "friend_requests_full",
            "no_request", "not_friend", "not_seated_here", "no_free_seat", "friend_seated",
            "invite_gone", "no_invite", "no_table", "push_full"} <= codes
    for code in codes:
        assert t(lang, f"err.api.{code}", seconds=30, most=4) != f"err.api.{code}", code
