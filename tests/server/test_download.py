"""The account's data download (GET /api/me/data; docs/api.md, "Accounts"): besides the
profile, sessions, games and passkeys, the lines of table talk the player wrote (theirs only),
the ratings with their history and opponents, the friends, friend requests and invitations both
ways, presence, the Web Push subscriptions and the seats as stored; and nothing private of
anybody else: no other player's token or line, no key material, no hint that a sent request was
declined."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from test_ratings import play_out, rated_table

from cardtable.server.config import DatabaseURL
from cardtable.server.store.schema import token_hash


@pytest.fixture(scope="module")
def web(database):
    with app_client(database, round_break=0) as b:
        yield b


def data(web, sess) -> dict:
    r = web.call("GET", "/api/me/data", sess)
    assert r.status_code == 200, r.text
    return r.json()


def sql(database: str, statement: str, **params) -> None:
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(statement), params)
    finally:
        engine.dispose()


def ask(web, sess, name):
    r = web.call("POST", "/api/friends/requests", sess, json={"name": name})
    assert r.status_code in (200, 202), r.text


def incoming(web, sess) -> list[dict]:
    return web.call("GET", "/api/friends", sess).json()["incoming"]


def say(ws, other, text: str) -> None:
    """Send a line of table talk on `ws`; wait until `other` got it."""
    ws.send_json({"type": "chat", "channel": "table", "text": text})
    while not ((m := other.receive_json())["type"] == "chat" and m["text"] == text):
        pass


def test_the_download_holds_talk_ratings_friends_and_no_one_elses_secrets(web, database):
    sess = {n: web.sign_up(n)[1] for n in ("Ann", "Bob", "Cid", "Dan", "Eve")}
    # friends: Ann and Bob; Ann asked Cid, who declined; Dan asks Ann; Eve asked, Ann declined
    ask(web, sess["Ann"], "Bob")
    req = incoming(web, sess["Bob"])[0]["id"]
    assert web.call("POST", f"/api/friends/requests/{req}/accept", sess["Bob"]).status_code == 200
    ask(web, sess["Ann"], "Cid")
    req = incoming(web, sess["Cid"])[0]["id"]
    assert web.call("POST", f"/api/friends/requests/{req}/decline", sess["Cid"]).status_code == 204
    ask(web, sess["Dan"], "Ann")
    ask(web, sess["Eve"], "Ann")
    req = [r for r in incoming(web, sess["Ann"]) if r["name"] == "Eve"][0]["id"]
    assert web.call("POST", f"/api/friends/requests/{req}/decline", sess["Ann"]).status_code == 204
    # a rated game of Ann and Bob, played out
    rated = rated_table(web, sess["Ann"], public=False).json()["table"]["code"]
    assert web.call("POST", f"/api/tables/{rated}/join", sess["Bob"], json={"name": "x"},
                    headers={"X-Cardtable-Client": "f" * 32}).status_code == 200
    play_out(web, rated)
    # a running game of Ann and Bob: they talk
    r = web.call("POST", "/api/tables", sess["Ann"], json={
        "game": "abluxxen", "variant": "duel", "public": False, "name": "Ann"})
    code, ann_token = r.json()["table"]["code"], r.json()["join"]["token"]
    r = web.call("POST", f"/api/tables/{code}/join", sess["Bob"], json={"name": "Bob"})
    bob_token = r.json()["token"]
    with web.client.websocket_connect(f"/ws/{code}?token={ann_token}") as ann, \
            web.client.websocket_connect(f"/ws/{code}?token={bob_token}") as bob:
        for ws in (ann, bob):
            while ws.receive_json()["type"] != "chat_log":
                pass
        say(ann, bob, "Ann's own line")
        say(bob, ann, "Bob's private line")
        ann.send_json({"type": "react", "channel": "table", "code": "gg"})
        while not ((m := bob.receive_json())["type"] == "chat" and m.get("kind") == "react"):
            pass                                # (Bob's own line comes back to him first)
    # an invitation of Ann to Bob, a table waiting for players
    r = web.call("POST", "/api/tables", sess["Ann"], json={
        "game": "kombio", "public": False, "name": "Ann", "players": 3,
        "seats": [{"kind": "human"}] * 3})
    waiting = r.json()["table"]["code"]
    assert web.call("POST", "/api/friends/invites", sess["Ann"],
                    json={"table": waiting, "to": "Bob"}).status_code == 201
    # Web Push subscriptions: for invitations (the account) and for a seat's moves
    now = time.time()
    sql(database, "INSERT INTO account_push (account_id, endpoint, p256dh, auth, lang, "
                  "created_at) SELECT id, 'https://push.example/ann', 'PUBKEY-ANN', "
                  "'AUTHSECRET-ANN', 'de', :t FROM accounts WHERE name = 'Ann'", t=now)
    sql(database, "INSERT INTO push_subscriptions (table_id, seat, endpoint, p256dh, auth, "
                  "lang, created_at) SELECT id, 0, 'https://push.example/ann-seat', "
                  "'PUBKEY-SEAT', 'AUTHSECRET-SEAT', 'en', :t FROM game_tables "
                  "WHERE code = :c", t=now, c=code)
    sql(database, "DELETE FROM presence")
    sql(database, "INSERT INTO presence (account_id, seen_at) SELECT id, :t FROM accounts "
                  "WHERE name = 'Ann'", t=now)

    r = web.call("GET", "/api/me/data", sess["Ann"])
    d = r.json()
    # the talk: her own lines and reaction, with the table and the time; not Bob's
    assert [(c["table"], c["kind"], c["text"], c["seat"]) for c in d["chat"]] == [
        (code, "text", "Ann's own line", 0), (code, "react", "gg", 0)]
    assert all(c["at"] > 0 and c["channel"] == "table" for c in d["chat"])
    assert "Bob's private line" not in r.text
    # ratings: one per game with its history and opponents
    (rating,) = d["ratings"]
    assert (rating["game"], rating["games"], rating["opponents"]) == ("kombio", 1, 1)
    assert rating["opponent_names"] == ["Bob"] and rating["provisional"] is True
    assert [h["table"] for h in rating["history"]] == [rated]
    h = rating["history"][0]
    assert h["mu_after"] == rating["mu"] and h["seat"] == 0 and h["left_game"] is False
    # friends, requests both ways (Cid's decline not told), invitations, presence, push
    assert [f["name"] for f in d["friends"]] == ["Bob"]
    assert d["requests_sent"] == [{"name": "Cid", "created_at": d["requests_sent"][0]
                                   ["created_at"]}]
    assert [(x["name"], x["declined_at"] is not None) for x in d["requests_received"]] == [
        ("Dan", False), ("Eve", True)]
    assert [(i["to"], i["table"]) for i in d["invites_sent"]] == [("Bob", waiting)]
    assert d["invites_received"] == [] and d["last_seen_online"] == now
    assert d["push_subscriptions"] == [{"endpoint": "https://push.example/ann", "lang": "de",
                                        "created_at": now}]
    # the seats as stored
    games = {g["code"]: g for g in d["games"]}
    assert set(games) == {rated, code, waiting}
    assert games[rated]["rated"] is True and "record" in games[rated]
    assert games[code]["push"] == [{"endpoint": "https://push.example/ann-seat",
                                    "lang": "en", "created_at": now}]
    assert games[code]["pace"] == "live" and len(games[code]["address_hash"]) == 64
    # nothing private of anybody: no token or its hash, no key material, no password hash
    for secret in (ann_token, bob_token, token_hash(ann_token), token_hash(bob_token),
                   "AUTHSECRET", "PUBKEY", "argon2", "token_hash", "password_hash"):
        assert secret not in r.text, secret
    # Bob's download has his line and not Ann's; Cid's tells Cid's own decline
    b = data(web, sess["Bob"])
    assert [c["text"] for c in b["chat"] if c["kind"] == "text"] == ["Bob's private line"]
    assert [(i["from"], i["table"]) for i in b["invites_received"]] == [("Ann", waiting)]
    c = data(web, sess["Cid"])
    assert [(x["name"], x["declined_at"] is not None) for x in c["requests_received"]] == \
        [("Ann", True)]
    assert c["chat"] == [] and c["ratings"] == [] and c["games"] == []
