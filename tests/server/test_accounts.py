"""Accounts (issue 32), on SQLite and PostgreSQL: sign-up, names as strict as seats' (no
lookalikes), passwords, log-in without telling which names exist, sessions (cookie flags,
rotation, fixation), log out everywhere, password change, deletion (the games stay with a
neutral name), the data download, a guest's games claimed, a stolen seat token that gives
no account, my games."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import ORIGIN, PASSWORD, app_client, session_of, spy_on_verify

from cardtable.server.people import accounts as A


@pytest.fixture(scope="module")
def web(database):
    with app_client(database) as b:
        yield b


def test_sign_up_gives_a_session_cookie_that_scripts_cannot_read(web):
    r, sess = web.sign_up("Annika")
    assert r.status_code == 201, r.text
    assert r.json()["account"]["name"] == "Annika"
    cookie = r.headers["set-cookie"]
    flags = [f.strip().lower() for f in cookie.split(";")]
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags                # plain HTTP: a Secure cookie would be lost
    me = web.call("GET", "/api/me", sess)
    assert me.status_code == 200 and me.json()["name"] == "Annika"
    assert web.call("GET", "/api/me").json()["error"] == "not_logged_in"
    assert web.call("GET", "/api/me", "made-up-value").status_code == 401


def test_over_tls_the_cookie_is_secure_and_host_prefixed(database):
    with app_client(database, client_kw={"base_url": "https://cards.example"}) as b:
        r = b.client.post("/api/accounts", json={"name": "Tessa", "password": PASSWORD},
                          headers={"Origin": "https://cards.example"})
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-cardtable_session=")
        assert "secure" in [f.strip().lower() for f in cookie.split(";")]


@pytest.mark.parametrize("other", ["BERTA", "berta", "Bеrta", "B e r t a", "Ｂｅｒｔａ"])
def test_names_like_another_accounts_are_refused(web, other):
    if web.call("GET", "/api/me").status_code == 401 and not getattr(web, "_berta", False):
        r, _ = web.sign_up("Berta")
        assert r.status_code == 201, r.text
        web._berta = True
    r, sess = web.sign_up(other)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == "account_name_taken" and sess is None


@pytest.mark.parametrize("name,why", [("Bot 3", "impostor"), ("", "empty"),
                                      ("a\u202eb", "char"), ("x" * 33, "long"),
                                      ("...", "no_letter")])
def test_account_names_follow_the_seat_name_rules(web, name, why):
    r, sess = web.sign_up(name)
    assert r.status_code == 422 and sess is None
    assert r.json()["error"] == "bad_name" and r.json()["params"]["why"] == why


def test_passwords_between_10_and_1024_characters_normalised(web):
    r, _ = web.sign_up("Shorty", "123456789")
    assert r.status_code == 422
    assert r.json()["error"] == "bad_password" and r.json()["params"] == {
        "why": "short", "least": 10, "field": "password"}
    r, _ = web.sign_up("Longa", "x" * 1025)
    assert r.json()["params"]["why"] == "long" and r.json()["params"]["most"] == 1024
    r, _ = web.sign_up("Longa", "ü" * 1024)            # any Unicode, up to 1024 characters
    assert r.status_code == 201, r.text
    # NFKC: full-width digits from an input method are the digits typed on another keyboard
    r, _ = web.sign_up("Wide", "１２３４５６７８９０ab")
    assert r.status_code == 201, r.text
    r, sess = web.log_in("Wide", "1234567890ab")
    assert r.status_code == 200 and sess
    assert web.call("GET", "/api/me", sess).json()["name"] == "Wide"


def test_a_wrong_password_is_answered_as_an_unknown_name_after_the_same_work(web):
    r, _ = web.sign_up("Carla")
    assert r.status_code == 201
    with spy_on_verify(web) as calls:
        wrong = web.call("POST", "/api/session", json={"name": "Carla", "password": "x" * 12})
        unknown = web.call("POST", "/api/session", json={"name": "Nobody", "password": "x" * 12})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong name or password",
                                              "error": "bad_login", "params": {}}
    assert session_of(wrong) is None and session_of(unknown) is None
    # one Argon2id check each: the unknown name's against a dummy hash of the same cost
    assert len(calls) == 2 and all(h.startswith("$argon2id$") for h in calls)
    assert calls[0] != calls[1]


def test_log_in_rotates_the_session_and_refuses_a_fixed_one(web):
    web.sign_up("Dora")
    r1, s1 = web.log_in("Dora")
    assert r1.status_code == 200 and s1
    r2, s2 = web.log_in("Dora", sess=s1)              # logging in again: a new id, old ends
    assert s2 and s2 != s1
    assert web.call("GET", "/api/me", s1).status_code == 401
    assert web.call("GET", "/api/me", s2).status_code == 200
    # session fixation: an id an attacker planted in the browser never becomes a session
    planted = "attacker-chosen-session-id-0123456789"
    r3, s3 = web.log_in("Dora", sess=planted)
    assert s3 != planted and web.call("GET", "/api/me", planted).status_code == 401
    assert web.call("GET", "/api/me", s3).status_code == 200


def test_log_out_and_log_out_everywhere(web):
    _, a = web.sign_up("Erna")
    _, b = web.log_in("Erna")
    _, c = web.log_in("Erna")
    r = web.call("DELETE", "/api/session", a)
    assert r.status_code == 204 and "max-age=0" in r.headers["set-cookie"].lower()
    assert web.call("GET", "/api/me", a).status_code == 401
    assert web.call("GET", "/api/me", b).status_code == 200
    r = web.call("DELETE", "/api/me/sessions", b)
    assert r.status_code == 200 and r.json() == {"ended": 2}
    for s in (b, c):
        assert web.call("GET", "/api/me", s).status_code == 401


def test_password_change_needs_the_old_one_and_ends_the_other_sessions(web):
    _, a = web.sign_up("Frida")
    _, b = web.log_in("Frida")
    r = web.call("POST", "/api/me/password", a, json={"old": "wrong password", "new": "n" * 12})
    assert r.status_code == 403 and r.json()["error"] == "wrong_password"
    r = web.call("POST", "/api/me/password", a, json={"old": PASSWORD, "new": "short"})
    assert r.status_code == 422 and r.json()["params"]["field"] == "new"
    r = web.call("POST", "/api/me/password", a, json={"old": PASSWORD, "new": "new password!"})
    assert r.status_code == 200, r.text
    a2 = session_of(r)
    assert a2 and a2 != a
    assert web.call("GET", "/api/me", a2).status_code == 200
    for s in (a, b):
        assert web.call("GET", "/api/me", s).status_code == 401
    assert web.log_in("Frida")[0].status_code == 401
    assert web.log_in("Frida", "new password!")[0].status_code == 200


def test_a_guests_games_are_claimed_and_a_stolen_token_gives_no_account(web):
    code, token = web.guest_table("Gerd")
    r, gerd = web.sign_up("Gerd", claim=[token, "not-a-token"])
    assert r.json()["claimed"] == 1
    games = web.call("GET", "/api/me/games", gerd).json()
    assert [(g["code"], g["seat"], g["status"]) for g in games] == [(code, 0, "playing")]
    assert games[0]["turn"] in (0, 1)                 # (the first player is drawn by lot)
    assert games[0]["your_turn"] is (games[0]["turn"] == 0)
    # the thief of the seat token: it opens no session, and does not move the seat to them
    for sess in (token, f"{token}"):
        assert web.call("GET", "/api/me", sess).status_code == 401
    assert web.call("GET", "/api/me", headers={"Authorization": f"Bearer {token}"}) \
        .status_code == 401
    r, thief = web.sign_up("Mallory", claim=[token])
    assert r.json()["claimed"] == 0
    assert web.call("GET", "/api/me/games", thief).json() == []
    assert web.call("POST", "/api/me/seats", thief, json={"claim": [token]}).json() == \
        {"claimed": 0}
    assert [g["code"] for g in web.call("GET", "/api/me/games", gerd).json()] == [code]
    # logging in from another browser with that browser's guest seats claims them too
    code2, token2 = web.guest_table("Gerd")
    r, _ = web.log_in("Gerd", claim=[token2])
    assert r.json()["claimed"] == 1
    # a table made while logged in is the account's at once
    r = web.call("POST", "/api/tables", gerd, json={"game": "kombio", "public": False,
                                                     "name": "Gerd"})
    assert r.status_code == 201
    codes = [g["code"] for g in web.call("GET", "/api/me/games", gerd).json()]
    assert set(codes) == {code, code2, r.json()["table"]["code"]}


def test_a_running_seat_moves_to_another_device_of_the_account(web):
    from starlette.websockets import WebSocketDisconnect

    code, token = web.guest_table("Lotte")
    _, laptop = web.sign_up("Lotte", claim=[token])
    _, phone = web.log_in("Lotte")
    r = web.call("POST", f"/api/me/games/{code.lower()}/seat", phone)
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["code"], got["seat"], got["name"], got["game"]) == (code, 0, "Lotte", "kombio")
    new = got["token"]
    assert new != token
    c = web.client
    with c.websocket_connect(f"/ws/{code}?token={new}") as ws:      # the phone plays the seat
        assert ws.receive_json() == {**ws_welcome(code), "server_time": ANY}
    with pytest.raises(WebSocketDisconnect) as e:                   # the old token is spent
        with c.websocket_connect(f"/ws/{code}?token={token}") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            ws.receive_json()
    assert e.value.code == 4401
    # nobody else gets the seat that way: not logged in, or another account
    assert web.call("POST", f"/api/me/games/{code}/seat").status_code == 401
    _, other = web.sign_up("Mats")
    r = web.call("POST", f"/api/me/games/{code}/seat", other)
    assert r.status_code == 404 and r.json()["error"] == "not_your_seat"
    assert web.call("POST", f"/api/me/games/{code}/seat", laptop).status_code == 200


class _Any:
    def __eq__(self, other):
        return True


ANY = _Any()


def ws_welcome(code: str) -> dict:
    return {"type": "welcome", "protocol": 1, "table": code, "game": "kombio", "seat": 0,
            "role": "player", "name": "Lotte", "lang": "en"}


def test_deleting_an_account_keeps_the_game_for_the_others_under_a_neutral_name(web):
    r = web.call("POST", "/api/tables", origin=None, json={
        "game": "kombio", "public": False, "name": "Hanna", "players": 2})
    code, token = r.json()["table"]["code"], r.json()["join"]["token"]
    ivo = web.call("POST", f"/api/tables/{code}/join", origin=None,
                   json={"name": "Ivo"}).json()["token"]
    _, hanna = web.sign_up("Hanna", claim=[token])
    with web.client.websocket_connect(f"/ws/{code}?token={token}") as ws:     # a word first
        ws.send_json({"type": "chat", "channel": "table", "text": "hello"})
        while (m := ws.receive_json())["type"] != "chat":
            pass
        assert (m["seat"], m["name"], m["text"]) == (0, "Hanna", "hello")
    r = web.call("DELETE", "/api/me", hanna, json={"password": "not it at all"})
    assert r.status_code == 403 and r.json()["error"] == "wrong_password"
    r = web.call("DELETE", "/api/me", hanna, json={"password": PASSWORD})
    assert r.status_code == 204
    assert web.call("GET", "/api/me", hanna).status_code == 401
    assert web.log_in("Hanna")[0].status_code == 401
    table = web.call("GET", f"/api/tables/{code}").json()
    assert [(s["name"], s["joined"]) for s in table["seats"]] == [(None, True), ("Ivo", True)]
    assert table["status"] == "playing"
    # her line of table talk stays, without her name (the browser shows "Seat 1")
    with web.client.websocket_connect(f"/ws/{code}?token={ivo}") as ws:
        while (m := ws.receive_json())["type"] != "chat_log":
            pass
    assert [(r["seat"], r["name"], r["text"]) for r in m["messages"] if r["kind"] == "text"] == \
        [(0, None, "hello")]
    # the name is free again
    assert web.sign_up("Hanna")[0].status_code == 201


def test_the_data_download_holds_the_profile_and_the_games(web):
    code, token = web.guest_table("Jana")
    _, jana = web.sign_up("Jana", claim=[token])
    r = web.call("GET", "/api/me/data", jana)
    assert r.status_code == 200
    assert r.headers["content-disposition"].startswith("attachment")
    data = r.json()
    assert data["profile"]["name"] == "Jana" and len(data["sessions"]) == 1
    assert [(g["code"], g["status"], g["names"]) for g in data["games"]] == \
        [(code, "playing", ["Jana", "Bot 2"])]
    assert "record" not in data["games"][0]          # a running game's seed stays secret
    assert "argon2" not in r.text and token not in r.text
    assert web.call("GET", "/api/me/data").status_code == 401


def test_claims_are_bounded(web):
    _, s = web.sign_up("Kai")
    r = web.call("POST", "/api/me/seats", s, json={"claim": ["x"] * (A.MAX_CLAIM + 1)})
    assert r.status_code == 422


def test_account_routes_are_in_the_openapi_schema(web):
    paths = web.call("GET", "/openapi.json").json()["paths"]
    for path, method in [("/api/accounts", "post"), ("/api/session", "post"),
                         ("/api/session", "delete"), ("/api/me", "get"),
                         ("/api/me/password", "post"), ("/api/me/sessions", "delete"),
                         ("/api/me", "delete"), ("/api/me/data", "get"),
                         ("/api/me/games", "get"), ("/api/me/seats", "post"),
                         ("/api/me/games/{code}/seat", "post")]:
        op = paths[path][method]
        assert op["tags"] == ["accounts"] and op.get("description"), (path, method)
    assert ORIGIN                                         # (the helper's origin is the site's)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_account_error_has_words_in_both_languages(lang):
    import re

    from cardtable.i18n import t

    src = Path(__file__).parents[2] / "src" / "cardtable" / "server"
    codes = set()
    for name in ("http/account.py", "people/origin.py"):
        text = (src / name).read_text()
        codes |= set(re.findall(r'ApiError\(\d+,[^;]*?"([a-z_]+)"(?:,|\))', text, re.S))
        codes |= set(re.findall(r'"(origin_missing|cross_origin|[a-z]+_limited)"', text))
    assert {"bad_login", "not_logged_in", "wrong_password", "account_name_taken",
            "login_limited", "cross_origin", "origin_missing"} <= codes
    for code in codes:
        params = {"seconds": 30, "name": "Ann"}
        assert t(lang, f"err.api.{code}", **params) != f"err.api.{code}", code
    for why, params in (("short", {"least": 10}), ("long", {"most": 1024}),
                        ("char", {"char": "U+0000"})):
        text = t(lang, f"err.api.bad_password.{why}", **params)
        assert list(params.values())[0].__str__() in text, text


def test_a_session_ends_when_unused_and_lives_on_while_used(web, database):
    import time

    import sqlalchemy as sa

    from cardtable.server.people import sessions as S
    from cardtable.server.config import DatabaseURL

    _, used = web.sign_up("Nele")
    _, idle = web.log_in("Nele")
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    now = time.time()
    with engine.begin() as conn:
        # the idle one expired a second ago; the used one was last seen two hours ago
        conn.execute(sa.text("UPDATE sessions SET expires = :e WHERE id_hash = :h"),
                     {"e": now - 1, "h": S.id_hash(idle)})
        conn.execute(sa.text("UPDATE sessions SET last_seen = :t, expires = :e "
                             "WHERE id_hash = :h"),
                     {"t": now - 7200, "e": now + 60, "h": S.id_hash(used)})
    assert web.call("GET", "/api/me", idle).status_code == 401
    assert web.call("GET", "/api/me", used).json()["session_expires"] > now + 29 * S.DAY
    with engine.connect() as conn:
        expires = conn.execute(sa.text("SELECT expires FROM sessions WHERE id_hash = :h"),
                               {"h": S.id_hash(used)}).scalar()
    assert expires > now + 29 * S.DAY                       # renewed in the database
    web.log_in("Nele")                                      # a log-in clears expired ones
    with engine.connect() as conn:
        left = conn.execute(sa.text("SELECT count(*) FROM sessions WHERE id_hash = :h"),
                            {"h": S.id_hash(idle)}).scalar()
    engine.dispose()
    assert left == 0
