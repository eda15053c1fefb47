"""Moderation over HTTP, in this process (TestClient): the moderator routes refuse players,
a ban or suspension (made from the terminal or by a moderator) refuses the account, the
browser (client identity), the guest of a seat and the address group where they would play,
says why and until when, and leaves the data download; blocks; reports, their limit and
their outcome seen by the reporter."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import PASSWORD, app_client

from cardtable.cli.main import main
from cardtable.i18n import t

ADDR = "203.0.113.9"
GUEST = {"X-Cardtable-Client": "guest-browser-0000000001"}
OTHER = {"X-Cardtable-Client": "guest-browser-0000000002"}
TABLE = {"game": "kombio", "public": False, "players": 2,
         "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture(scope="module")
def site(database):
    """A server in this process whose client address is ADDR, with the accounts Mod, Alma,
    Bruno and Carl (their sessions)."""
    with app_client(database, client_kw={"client": (ADDR, 40000)}) as b:
        sess = {}
        for name in ("Mod", "Alma", "Bruno", "Carl"):
            r, sess[name] = b.sign_up(name)
            assert r.status_code == 201, r.text
        yield b, sess, database


def admin(db: str, *args) -> int:
    return main(["admin", *args, "--database", db])


def test_moderator_routes_refuse_players_and_roles_open_them(site, capsys):
    b, sess, db = site
    for method, path, body in (("GET", "/api/mod/reports", None),
                               ("POST", "/api/mod/reports/1/claim", None),
                               ("POST", "/api/mod/reports/1/resolve",
                                {"outcome": "warned", "note": "x"}),
                               ("POST", "/api/mod/bans", {"name": "Bruno", "reason": "x"})):
        r = b.call(method, path, sess["Mod"], json=body)
        assert r.status_code == 403 and r.json()["error"] == "not_moderator", r.text
    assert b.call("GET", "/api/mod/audit", sess["Mod"]).json()["error"] == "not_moderator"
    assert b.call("GET", "/api/mod/reports").status_code == 401
    r = b.call("POST", "/api/mod/bans", sess["Mod"], json={"name": "Bruno", "reason": "x"},
               origin="http://evil.example")
    assert r.status_code == 403 and r.json()["error"] == "cross_origin"
    assert admin(db, "role", "Mod", "moderator", "--reason", "test") == 0
    assert b.call("GET", "/api/me", sess["Mod"]).json()["role"] == "moderator"
    assert b.call("GET", "/api/mod/reports", sess["Mod"]).json() == []
    r = b.call("GET", "/api/mod/audit", sess["Mod"])
    assert r.status_code == 403 and r.json()["error"] == "not_admin"
    assert admin(db, "role", "Mod", "admin", "--reason", "test") == 0
    rows = b.call("GET", "/api/mod/audit", sess["Mod"]).json()
    assert [(r["action"], r["target"], r["detail"]["to"]) for r in rows[:2]] == \
        [("role", "Mod", "admin"), ("role", "Mod", "moderator")]


def test_a_suspended_account_is_told_why_and_until_when_and_keeps_its_data(site):
    b, sess, db = site
    admin(db, "role", "Mod", "admin", "--reason", "test")
    r = b.call("POST", "/api/mod/bans", sess["Mod"], json={"name": "Bruno", "reason": "x",
                                                            "until": "soon"})
    assert r.status_code == 422 and r.json()["error"] == "bad_until"
    assert b.call("GET", "/api/me", sess["Bruno"]).json()["ban"] is None
    r = b.call("POST", "/api/mod/bans", sess["Mod"], json={"name": "bruno", "reason": "insults",
                                                            "until": "3d"})
    assert r.status_code == 201 and r.json()["name"] == "Bruno", r.text
    r, again = b.log_in("Bruno")
    assert r.status_code == 200 and again
    ban = r.json()["ban"]
    assert ban["reason"] == "insults" and ban["until"] > 0 and ban["until_text"].endswith("UTC")
    data = b.call("GET", "/api/me/data", again)
    assert data.status_code == 200
    bans = data.json()["moderation"]["bans"]
    assert bans[-1]["reason"] == "insults" and bans[-1]["lifted_at"] is None
    assert "created_by" not in bans[-1]
    for path, body in (("/api/tables", dict(TABLE, name="Bruno")),
                       ("/api/friends/requests", {"name": "Alma"})):
        r = b.call("POST", path, again, json=body)
        assert r.status_code == 403, r.text
        j = r.json()
        assert j["error"] == "suspended" and j["params"]["reason"] == "insults"
        for lang in ("en", "de"):
            text = t(lang, "err.api.suspended", **j["params"])
            assert "insults" in text and j["params"]["until_text"] in text
    code = b.call("POST", "/api/tables", sess["Alma"], json=dict(TABLE, name="Alma")
                  ).json()["table"]["code"]
    r = b.call("POST", f"/api/tables/{code}/join", again, json={"name": "Bruno"})
    assert r.status_code == 403 and r.json()["error"] == "suspended"
    assert admin(db, "unban", "Bruno", "--reason", "appeal") == 0
    r = b.call("POST", f"/api/tables/{code}/join", again, json={"name": "Bruno"})
    assert r.status_code == 200, r.text
    actions = [a["action"] for a in b.call("GET", "/api/mod/audit", sess["Mod"]).json()]
    assert actions[:2] == ["unban", "suspend"]


def test_guests_are_banned_by_browser_by_seat_and_by_address(site):
    b, sess, db = site
    r = b.call("POST", "/api/tables", json=dict(TABLE, name="Gus"), headers=GUEST)
    assert r.status_code == 201
    code, token = r.json()["table"]["code"], r.json()["join"]["token"]
    admin(db, "role", "Mod", "moderator", "--reason", "test")
    for body, error in (({"reason": "rude"}, "ban_target"),
                        ({"name": "Alma", "seat": f"{code}:0", "reason": "x"}, "ban_target"),
                        ({"seat": f"{code}:1", "reason": "x"}, "no_seat")):
        r = b.call("POST", "/api/mod/bans", sess["Mod"], json=body)
        assert r.status_code in (404, 422) and r.json()["error"] == error, r.text
    r = b.call("POST", "/api/mod/bans", sess["Mod"], json={"seat": f"{code}:0",
                                                            "reason": "rude"})
    assert r.status_code == 201 and r.json()["name"] == f"seat {code}:0", r.text
    r = b.call("POST", "/api/tables", json=dict(TABLE, name="Gus"), headers=GUEST)
    assert r.status_code == 403 and r.json()["error"] == "banned"
    assert r.json()["params"] == {"reason": "rude", "until": None}
    assert "rude" in t("de", "err.api.banned", **r.json()["params"])
    r = b.call("POST", f"/api/tables/{code}/join", json={"name": "Gus"}, headers=GUEST)
    assert r.status_code == 403 and r.json()["error"] == "banned"
    r = b.call("POST", f"/api/tables/{code}/rematch", json={"token": token}, headers=GUEST)
    assert r.status_code == 403 and r.json()["error"] == "banned"
    r = b.call("POST", "/api/accounts", json={"name": "Gus", "password": "x" * 12},
               headers=GUEST)
    assert r.status_code == 403 and r.json()["error"] == "banned"
    # another browser behind the same address plays on
    assert b.call("POST", "/api/tables", json=TABLE, headers=OTHER).status_code == 201
    assert admin(db, "unban", "--client", GUEST["X-Cardtable-Client"], "--reason", "ok") == 0
    assert b.call("POST", "/api/tables", json=TABLE, headers=GUEST).status_code == 201
    # the address group: everybody behind it, accounts too
    assert admin(db, "ban", "--address", ADDR, "--for", "1h", "--reason", "flood") == 0
    for headers, s in ((OTHER, None), (GUEST, None), ({}, sess["Carl"])):
        r = b.call("POST", "/api/tables", s, json=TABLE, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "suspended"
    assert admin(db, "unban", "--address", ADDR, "--reason", "over") == 0
    assert b.call("POST", "/api/tables", json=TABLE, headers=OTHER).status_code == 201


def test_a_block_ends_friendship_requests_presence_and_joining(site):
    b, sess, _ = site
    assert b.call("POST", "/api/friends/requests", sess["Alma"],
                  json={"name": "Carl"}).status_code == 202
    rid = b.call("GET", "/api/friends", sess["Carl"]).json()["incoming"][0]["id"]
    assert b.call("POST", f"/api/friends/requests/{rid}/accept", sess["Carl"]).status_code == 200
    assert [f["name"] for f in b.call("GET", "/api/friends", sess["Alma"]).json()["friends"]] \
        == ["Carl"]
    r = b.call("POST", "/api/me/blocks", sess["Alma"], json={"name": "carl"})
    assert r.status_code == 201 and r.json()["name"] == "Carl"
    for who in ("Alma", "Carl"):              # no friendship, so no presence either way
        assert b.call("GET", "/api/friends", sess[who]).json()["friends"] == []
    # Carl is not told: his request looks sent, Alma never sees it
    r = b.call("POST", "/api/friends/requests", sess["Carl"], json={"name": "Alma"})
    assert r.status_code == 202 and r.json()["status"] == "sent"
    assert b.call("GET", "/api/friends", sess["Alma"]).json()["incoming"] == []
    # nor can he join a table Alma hosts (Bruno can)
    code = b.call("POST", "/api/tables", sess["Alma"], json=dict(TABLE, name="Alma")
                  ).json()["table"]["code"]
    r = b.call("POST", f"/api/tables/{code}/join", sess["Carl"], json={"name": "Carl"})
    assert r.status_code == 403 and r.json()["error"] == "not_welcome"
    assert "Alma" not in r.text
    assert b.call("GET", "/api/me/blocks", sess["Alma"]).json()[0]["name"] == "Carl"
    assert b.call("GET", "/api/me/blocks", sess["Carl"]).json() == []
    assert [x["name"] for x in b.call("GET", "/api/me/data", sess["Alma"]).json()[
        "moderation"]["blocks"]] == ["Carl"]
    assert b.call("POST", "/api/me/blocks", sess["Alma"],
                  json={"name": "Alma"}).json()["error"] == "block_self"
    assert b.call("POST", "/api/me/blocks", sess["Alma"],
                  json={"name": "Nobody"}).json()["error"] == "no_account"
    assert b.call("DELETE", "/api/me/blocks/Carl", sess["Alma"]).status_code == 204
    assert b.call("DELETE", "/api/me/blocks/Carl", sess["Alma"]).status_code == 404
    r = b.call("POST", f"/api/tables/{code}/join", sess["Carl"], json={"name": "Carl"})
    assert r.status_code == 200, r.text


def test_reports_are_queued_claimed_resolved_and_limited(site, capsys):
    b, sess, db = site
    admin(db, "role", "Mod", "moderator", "--reason", "test")
    admin(db, "role", "Bruno", "moderator", "--reason", "second moderator")
    r = b.call("POST", "/api/reports", sess["Alma"], json={"name": "Carl", "reason": "nice"})
    assert r.status_code == 422
    r = b.call("POST", "/api/reports", sess["Alma"], json={"name": "Alma", "reason": "spam"})
    assert r.json()["error"] == "report_self"
    r = b.call("POST", "/api/reports", sess["Alma"],
               json={"name": "Carl", "reason": "abuse", "note": "  said  things ", "move": 4})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    mine = b.call("GET", "/api/me/reports", sess["Alma"]).json()
    assert mine[0]["id"] == rid and mine[0]["handled"] is False and mine[0]["note"] == "said things"
    queue = b.call("GET", "/api/mod/reports", sess["Mod"]).json()
    assert [(q["id"], q["reporter"], q["name"], q["evidence"]["move"]) for q in queue] == \
        [(rid, "Alma", "Carl", 4)]
    assert b.call("POST", f"/api/mod/reports/{rid}/claim", sess["Mod"]).status_code == 200
    r = b.call("POST", f"/api/mod/reports/{rid}/claim", sess["Bruno"])
    assert r.status_code == 409 and r.json()["params"]["by"] == "Mod"
    r = b.call("POST", f"/api/mod/reports/{rid}/resolve", sess["Mod"],
               json={"outcome": "warned", "note": "   "})
    assert r.status_code == 422 and r.json()["error"] == "no_reason"
    assert t("de", "err.api.no_reason") != "err.api.no_reason"
    r = b.call("POST", f"/api/mod/reports/{rid}/resolve", sess["Mod"],
               json={"outcome": "warned", "note": "talked to Carl"})
    assert r.status_code == 200 and r.json()["outcome"] == "warned"
    assert b.call("GET", "/api/mod/reports", sess["Mod"]).json() == []
    mine = b.call("GET", "/api/me/reports", sess["Alma"]).json()
    assert mine[0]["handled"] is True and mine[0]["outcome"] == "warned"
    assert "resolution" not in mine[0] and "claimed_by" not in mine[0]
    assert b.call("POST", f"/api/mod/reports/{rid}/resolve", sess["Mod"], json={
        "outcome": "warned", "note": "again"}).json()["error"] == "no_report"
    capsys.readouterr()
    assert admin(db, "reports", "--all") == 0
    assert "Alma reports Carl (abuse) [warned]" in capsys.readouterr().out
    # a flood is refused: 5 at once, then 20 a day
    codes = [b.call("POST", "/api/reports", sess["Alma"],
                    json={"name": "Carl", "reason": "spam"}).status_code for _ in range(6)]
    assert codes[:4] == [201] * 4 and codes[-1] == 429


def test_a_blocked_players_lines_do_not_reach_the_blocker(site):
    """Eve and Finn sit at one table; Eve blocks Finn. From her next connection on she gets
    none of Finn's lines (live or in the chat log); Finn gets hers, and his own."""
    b, sess, db = site
    _, eve = b.sign_up("Eve")
    _, finn = b.sign_up("Finn")
    r = b.call("POST", "/api/tables", eve, json=dict(TABLE, name="Eve"))
    code, te = r.json()["table"]["code"], r.json()["join"]["token"]
    tf = b.call("POST", f"/api/tables/{code}/join", finn, json={"name": "Finn"}).json()["token"]
    assert b.call("POST", "/api/me/blocks", eve, json={"name": "Finn"}).status_code == 201

    def until(ws, pred) -> list[dict]:
        got = []
        while True:
            m = ws.receive_json()
            got.append(m)
            if pred(m):
                return got

    def said(text):
        return lambda m: m["type"] == "chat" and m["text"] == text

    h = {"Origin": "http://testserver"}
    with b.client.websocket_connect(f"/ws/{code}?token={tf}", headers=h) as wf, \
            b.client.websocket_connect(f"/ws/{code}?token={te}", headers=h) as we:
        until(wf, lambda m: m["type"] == "chat_log")
        until(we, lambda m: m["type"] == "chat_log")
        wf.send_json({"type": "chat", "channel": "table", "text": "from Finn"})
        until(wf, said("from Finn"))
        we.send_json({"type": "chat", "channel": "table", "text": "from Eve"})
        got = until(we, said("from Eve"))
        assert not any(m["type"] == "chat" and m["text"] == "from Finn" for m in got)
        until(wf, said("from Eve"))
    with b.client.websocket_connect(f"/ws/{code}?token={te}", headers=h) as we:
        log = until(we, lambda m: m["type"] == "chat_log")[-1]["messages"]
        assert [m["text"] for m in log] == ["from Eve"]
    with b.client.websocket_connect(f"/ws/{code}?token={tf}", headers=h) as wf:
        log = until(wf, lambda m: m["type"] == "chat_log")[-1]["messages"]
        assert [m["text"] for m in log] == ["from Finn", "from Eve"]
    # Eve reports Finn's line: the report carries it and the lines around it
    r = b.call("POST", "/api/reports", eve, json={"name": "Finn", "reason": "abuse",
                                                  "table": code.lower(), "line": log[0]["seq"]})
    assert r.status_code == 201 and "evidence" not in r.json()
    r = b.call("POST", "/api/reports", eve, json={"name": "Finn", "reason": "abuse"},
               origin="http://evil.example")
    assert r.status_code == 403 and r.json()["error"] == "cross_origin"
    admin(db, "role", "Mod", "moderator", "--reason", "test")
    queue = b.call("GET", "/api/mod/reports", sess["Mod"]).json()
    ev = next(q for q in queue if q["reporter"] == "Eve")["evidence"]
    assert ev["table"] == code and ev["line"] == log[0]["seq"]
    assert [(x["name"], x["text"]) for x in ev["lines"]] == [("Finn", "from Finn"),
                                                            ("Eve", "from Eve")]


def test_deleting_a_banned_account_lifts_its_ban(site, capsys):
    """An account's id may come again on SQLite: its ban must not pass to a new account."""
    b, _, db = site
    _, gone = b.sign_up("Gone")
    assert admin(db, "ban", "Gone", "--reason", "spam") == 0
    capsys.readouterr()
    admin(db, "bans")
    assert " Gone " in capsys.readouterr().out
    assert b.call("DELETE", "/api/me", gone, json={"password": PASSWORD}).status_code == 204
    admin(db, "bans")
    assert " account " not in capsys.readouterr().out


def test_a_renamed_accounts_old_name_stays_reserved(site, capsys):
    b, _, db = site
    _, rude = b.sign_up("Rude Name")
    assert admin(db, "rename", "rude name", "Polite", "--reason", "offensive name") == 0
    assert b.call("GET", "/api/me", rude).json()["name"] == "Polite"
    r, _ = b.sign_up("Rude  name")
    assert r.status_code == 409 and r.json()["error"] == "account_name_taken"
    r, again = b.log_in("Polite")
    assert r.status_code == 200 and again


def test_a_moderator_removes_a_chat_line(site, capsys):
    """Hana's line is removed by a moderator: the connected players are told at once, a new
    connection's log has "removed" without the text, the report evidence and the audit row
    keep it; a player may not remove lines; the terminal removes another line."""
    b, sess, db = site
    _, hana = b.sign_up("Hana")
    _, ivo = b.sign_up("Ivo")
    r = b.call("POST", "/api/tables", hana, json=dict(TABLE, name="Hana"))
    code, th = r.json()["table"]["code"], r.json()["join"]["token"]
    ti = b.call("POST", f"/api/tables/{code}/join", ivo, json={"name": "Ivo"}).json()["token"]

    def until(ws, pred) -> list[dict]:
        got = []
        while True:
            got.append(ws.receive_json())
            if pred(got[-1]):
                return got

    h = {"Origin": "http://testserver"}
    with b.client.websocket_connect(f"/ws/{code}?token={th}", headers=h) as wh, \
            b.client.websocket_connect(f"/ws/{code}?token={ti}", headers=h) as wi:
        until(wh, lambda m: m["type"] == "chat_log")
        until(wi, lambda m: m["type"] == "chat_log")
        wh.send_json({"type": "chat", "channel": "table", "text": "rude words"})
        line = until(wi, lambda m: m["type"] == "chat")[-1]["seq"]
        wh.send_json({"type": "chat", "channel": "table", "text": "kind words"})
        other = until(wi, lambda m: m["type"] == "chat")[-1]["seq"]
        for body, status, error in (({"name": "Ivo"}, 422, "report_not_author"),   # by Hana
                                    ({"name": "Mod"}, 422, "report_not_author"),
                                    ({"name": "Hana", "table": None}, 422, "report_line"),
                                    ({"name": "Hana", "table": "NOSUCHTABLE"}, 404, "no_line")):
            r = b.call("POST", "/api/reports", hana if body["name"] == "Ivo" else ivo,
                       json=dict({"reason": "abuse", "table": code, "line": line}, **body))
            assert (r.status_code, r.json()["error"]) == (status, error), r.text
        r = b.call("POST", "/api/reports", ivo, json={"name": "Hana", "reason": "abuse",
                                                      "table": code, "line": line})
        assert r.status_code == 201, r.text
        path = f"/api/mod/lines/{line}/remove"
        r = b.call("POST", path, ivo, json={"reason": "insult"})
        assert r.status_code == 403 and r.json()["error"] == "not_moderator"
        admin(db, "role", "Mod", "moderator", "--reason", "test")
        r = b.call("POST", path, sess["Mod"], json={"reason": ""})
        assert r.status_code == 422
        r = b.call("POST", "/api/mod/lines/999999/remove", sess["Mod"], json={"reason": "x"})
        assert r.status_code == 404 and r.json()["error"] == "no_line"
        r = b.call("POST", path, sess["Mod"], json={"reason": "insult"})
        assert r.status_code == 200, r.text
        assert r.json() == {"line": line, "table": code, "name": "Hana", "removed": True}
        for ws in (wh, wi):
            assert until(ws, lambda m: m["type"] == "chat_removed")[-1] == \
                {"type": "chat_removed", "seq": line}
        assert b.call("POST", path, sess["Mod"], json={"reason": "x"}).json()["removed"] is False
    with b.client.websocket_connect(f"/ws/{code}?token={ti}", headers=h) as wi:
        log = until(wi, lambda m: m["type"] == "chat_log")[-1]["messages"]
        assert [(m["kind"], m["text"]) for m in log] == [("removed", None), ("text", "kind words")]
    assert t("de", "chat.removed") != t("en", "chat.removed")
    ev = next(q for q in b.call("GET", "/api/mod/reports?status=all", sess["Mod"]).json()
              if q["reporter"] == "Ivo")["evidence"]
    assert [x["text"] for x in ev["lines"]] == ["rude words", "kind words"]
    admin(db, "role", "Mod", "admin", "--reason", "test")
    row = b.call("GET", "/api/mod/audit", sess["Mod"]).json()[1]
    assert (row["action"], row["actor"], row["reason"], row["detail"]["text"]) == \
        ("remove_line", "Mod", "insult", "rude words")
    capsys.readouterr()
    assert admin(db, "remove-line", str(other), "--reason", "spam") == 0
    assert f"removed line {other} of Hana at table {code}" in capsys.readouterr().out
    assert admin(db, "remove-line", "999999", "--reason", "spam") == 2
    with b.client.websocket_connect(f"/ws/{code}?token={ti}", headers=h) as wi:
        log = until(wi, lambda m: m["type"] == "chat_log")[-1]["messages"]
        assert [m["kind"] for m in log] == ["removed", "removed"]
        assert "words" not in str(log)


def test_a_muted_player_is_refused_saying_until_when(site, capsys):
    """A moderator mutes Jan for an hour: his lines are refused (`chat_muted`, until when, in
    both languages), Kim's are not; the terminal lifts the mute, and mutes a seat's guest."""
    b, sess, db = site
    _, jan = b.sign_up("Jan")
    _, kim = b.sign_up("Kim")
    r = b.call("POST", "/api/tables", jan, json=dict(TABLE, name="Jan"))
    code, tj = r.json()["table"]["code"], r.json()["join"]["token"]
    tk = b.call("POST", f"/api/tables/{code}/join", kim, json={"name": "Kim"}).json()["token"]
    admin(db, "role", "Mod", "moderator", "--reason", "test")
    r = b.call("POST", "/api/mod/mutes", kim, json={"name": "Jan", "reason": "x",
                                                    "until": "1h"})
    assert r.status_code == 403 and r.json()["error"] == "not_moderator"
    for body, error in (({"name": "Jan", "reason": "x", "until": "soon"}, "bad_until"),
                        ({"reason": "x", "until": "1h"}, "mute_target"),
                        ({"name": "Nobody", "reason": "x", "until": "1h"}, "no_account")):
        r = b.call("POST", "/api/mod/mutes", sess["Mod"], json=body)
        assert r.status_code in (404, 422) and r.json()["error"] == error, r.text
    r = b.call("POST", "/api/mod/mutes", sess["Mod"], json={"name": "jan", "reason": "insults",
                                                            "until": "1h"})
    assert r.status_code == 201 and r.json()["name"] == "Jan", r.text
    until = r.json()["until"]

    def until_(ws, pred) -> dict:
        while True:
            m = ws.receive_json()
            if pred(m):
                return m

    h = {"Origin": "http://testserver"}
    with b.client.websocket_connect(f"/ws/{code}?token={tj}", headers=h) as wj, \
            b.client.websocket_connect(f"/ws/{code}?token={tk}", headers=h) as wk:
        until_(wj, lambda m: m["type"] == "chat_log")
        until_(wk, lambda m: m["type"] == "chat_log")
        for msg in ({"type": "chat", "channel": "table", "text": "hello"},
                    {"type": "react", "channel": "table", "code": "gg"}):
            wj.send_json(msg)
            err = until_(wj, lambda m: m["type"] in ("error", "chat"))
            assert err["type"] == "error" and err["code"] == "chat_muted", err
            assert err["params"]["until"] == until and "UTC" in err["message"]
        for lang in ("en", "de"):
            assert err["params"]["until_text"] in t(lang, "chat.err.chat_muted",
                                                    until=err["params"]["until_text"])
        wk.send_json({"type": "chat", "channel": "table", "text": "from Kim"})
        assert until_(wj, lambda m: m["type"] == "chat")["text"] == "from Kim"
        capsys.readouterr()
        assert admin(db, "unmute", "Jan", "--reason", "apologised") == 0
        assert admin(db, "unmute", "Jan", "--reason", "again") == 2
        wj.send_json({"type": "chat", "channel": "table", "text": "sorry"})
        assert until_(wj, lambda m: m["type"] in ("error", "chat"))["text"] == "sorry"
    admin(db, "role", "Mod", "admin", "--reason", "test")
    actions = [a["action"] for a in b.call("GET", "/api/mod/audit", sess["Mod"]).json()[:4]]
    assert "mute" in actions and "unmute" in actions
    guest = {"X-Cardtable-Client": "guest-browser-0000000045"}
    r = b.call("POST", "/api/tables", json=dict(TABLE, name="Gil"), headers=guest)
    code, tg = r.json()["table"]["code"], r.json()["join"]["token"]
    assert admin(db, "mute", "--seat", f"{code}:0", "--reason", "spam") == 2     # no end
    assert admin(db, "mute", "--seat", f"{code}:0", "--for", "2h", "--reason", "spam") == 0
    with b.client.websocket_connect(f"/ws/{code}?token={tg}", headers=h) as wg:
        until_(wg, lambda m: m["type"] == "chat_log")
        wg.send_json({"type": "chat", "channel": "table", "text": "buy now"})
        assert until_(wg, lambda m: m["type"] in ("error", "chat"))["code"] == "chat_muted"


def test_a_warned_player_reads_the_warning_once(site, capsys):
    """A moderator (and the terminal) warn Lea: GET /api/me carries the unread warnings until
    she marks each read; nobody else can; players cannot warn."""
    b, sess, db = site
    _, lea = b.sign_up("Lea")
    assert b.call("GET", "/api/me", lea).json()["warnings"] == []
    r = b.call("POST", "/api/mod/warnings", sess["Alma"], json={"name": "Lea", "text": "x"})
    assert r.status_code == 403 and r.json()["error"] == "not_moderator"
    admin(db, "role", "Mod", "moderator", "--reason", "test")
    r = b.call("POST", "/api/mod/warnings", sess["Mod"], json={"name": "Nobody", "text": "x"})
    assert r.status_code == 404 and r.json()["error"] == "no_account"
    assert b.call("POST", "/api/mod/warnings", sess["Mod"],
                  json={"name": "Lea", "text": ""}).status_code == 422
    r = b.call("POST", "/api/mod/warnings", sess["Mod"],
               json={"name": "lea", "text": "Please keep the talk friendly."})
    assert r.status_code == 201 and r.json()["name"] == "Lea", r.text
    assert admin(db, "warn", "Lea", "--text", "Second warning.") == 0
    assert admin(db, "warn", "Nobody", "--text", "x") == 2
    got = b.call("GET", "/api/me", lea).json()["warnings"]
    assert [w["text"] for w in got] == ["Please keep the talk friendly.", "Second warning."]
    path = f"/api/me/warnings/{got[0]['id']}/read"
    assert b.call("POST", path, sess["Alma"]).json()["error"] == "no_warning"
    assert b.call("POST", path, lea).status_code == 204
    assert [w["text"] for w in b.call("GET", "/api/me", lea).json()["warnings"]] == \
        ["Second warning."]
    admin(db, "role", "Mod", "admin", "--reason", "test")
    rows = b.call("GET", "/api/mod/audit", sess["Mod"]).json()
    assert [(a["action"], a["target"]) for a in rows if a["action"] == "warn"][:2] == \
        [("warn", "account Lea"), ("warn", "account Lea")]


def test_admins_post_and_end_the_announcement(site, capsys):
    """An admin posts the banner in both languages (anybody reads it, logged in or not), a
    new one replaces it, the terminal ends it; moderators and players cannot post."""
    b, sess, db = site
    admin(db, "role", "Mod", "moderator", "--reason", "test")
    banner = {"en": "Maintenance at 22:00", "de": "Wartung um 22:00", "until": "3h"}
    r = b.call("POST", "/api/mod/announcement", sess["Mod"], json=banner)
    assert r.status_code == 403 and r.json()["error"] == "not_admin"
    admin(db, "role", "Mod", "admin", "--reason", "test")
    for bad, error in ((dict(banner, until="later"), "bad_until"),
                       (dict(banner, de="   "), "bad_announcement")):
        r = b.call("POST", "/api/mod/announcement", sess["Mod"], json=bad)
        assert r.status_code == 422 and r.json()["error"] == error, r.text
    assert b.call("GET", "/api/announcement").json() == {"announcement": None}
    r = b.call("POST", "/api/mod/announcement", sess["Mod"], json=banner)
    assert r.status_code == 201, r.text
    got = b.call("GET", "/api/announcement").json()["announcement"]
    assert (got["en"], got["de"]) == ("Maintenance at 22:00", "Wartung um 22:00")
    assert got["until"] is not None
    assert admin(db, "announce", "--en", "Back soon", "--de", "Gleich zurück") == 0
    assert admin(db, "announce", "--en", "only English") == 2
    got = b.call("GET", "/api/announcement").json()["announcement"]
    assert (got["en"], got["de"], got["until"]) == ("Back soon", "Gleich zurück", None)
    assert admin(db, "announce", "--end") == 0
    assert admin(db, "announce", "--end") == 2
    assert b.call("GET", "/api/announcement").json() == {"announcement": None}
    assert b.call("DELETE", "/api/mod/announcement", sess["Mod"]).json()["error"] == \
        "no_announcement"
    actions = [a["action"] for a in b.call("GET", "/api/mod/audit", sess["Mod"]).json()[:4]]
    assert actions.count("announce") == 2 and "end_announcement" in actions
