"""A ban or suspension closes the open table connections it names at once (ws/bans.py):
in this process (TestClient) a moderator suspends one of two players at a running table:
his socket gets the reason and until when and closes with 4403, his seat goes to the
stand-in bot as when a player leaves, the other player stays connected; a spectator's socket
is named by its session's account; a new connection is refused the same way. Across two
server processes on PostgreSQL, a ban made through one closes the socket open on the other
(the NOTIFY "ban:<id>"). A chat mute holds an account watching as a spectator too. The
tests wait on messages, never on time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from helpers import Client, ServerProc, assert_clean_log, call, database_url, run_async

from cardtable.cli.main import main
from cardtable.i18n import t

TABLE = {"game": "kombio", "public": False, "players": 2,
         "seats": [{"kind": "human"}, {"kind": "human"}]}


def _until(ws, pred) -> dict:
    while True:
        m = ws.receive_json()
        if pred(m):
            return m


def _closed(ws) -> tuple[list[dict], int]:
    """The messages until the server closes `ws`, and the close code."""
    got = []
    while True:
        try:
            got.append(ws.receive_json())
        except WebSocketDisconnect as e:
            return got, e.code


@pytest.fixture(scope="module")
def site(database):
    with app_client(database) as b:
        sess = {}
        for name in ("Mod", "Ann", "Bob", "Cid"):
            r, sess[name] = b.sign_up(name)
            assert r.status_code == 201, r.text
        assert main(["admin", "role", "Mod", "moderator", "--reason", "test",
                     "--database", database]) == 0
        yield b, sess


def test_a_suspension_closes_the_players_socket_and_his_seat_is_left(site):
    b, sess = site
    r = b.call("POST", "/api/tables", sess["Ann"], json=dict(TABLE, name="Ann"))
    code, ta = r.json()["table"]["code"], r.json()["join"]["token"]
    tb = b.call("POST", f"/api/tables/{code}/join", sess["Bob"],
                json={"name": "Bob"}).json()["token"]

    def h(who):
        return {"Origin": "http://testserver", "Cookie": f"cardtable_session={sess[who]}"}

    with b.client.websocket_connect(f"/ws/{code}?token={ta}", headers=h("Ann")) as wa, \
            b.client.websocket_connect(f"/ws/{code}?token={tb}", headers=h("Bob")) as wb:
        _until(wa, lambda m: m["type"] == "chat_log")
        _until(wb, lambda m: m["type"] == "chat_log")
        assert b.call("GET", f"/api/tables/{code}").json()["status"] == "playing"
        r = b.call("POST", "/api/mod/bans", sess["Mod"], json={"name": "Bob", "reason": "insults",
                                                                "until": "3d"})
        assert r.status_code == 201, r.text
        got, close = _closed(wb)
        assert close == 4403
        err = got[-1]
        assert err["type"] == "error" and err["code"] == "suspended", got[-3:]
        assert err["params"]["reason"] == "insults"
        assert err["params"]["until"] == r.json()["until"]
        for lang in ("en", "de"):
            text = t(lang, "table.cut.suspended", **err["params"])
            assert "insults" in text and err["params"]["until_text"] in text
        # Ann plays on: Bob's seat is the stand-in bot's now, as when a player leaves
        state = _until(wa, lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "bot")
        assert state["status"] == "playing"
        wa.send_json({"type": "ping", "id": 7})
        assert _until(wa, lambda m: m["type"] == "pong")["id"] == 7
    # a new connection of Bob's (a spectator now: his token holds no seat) is refused so
    with b.client.websocket_connect(f"/ws/{code}", headers=h("Bob")) as wb:
        got, close = _closed(wb)
        assert close == 4403 and got[-1]["code"] == "suspended"
    with b.client.websocket_connect(f"/ws/{code}", headers=h("Cid")) as wc:
        _until(wc, lambda m: m["type"] == "chat_log")              # Cid watches


def test_a_ban_closes_a_spectators_socket_by_its_session(site):
    b, sess = site
    code, _ = b.guest_table("Gus")
    watch = {"Origin": "http://testserver", "Cookie": f"cardtable_session={sess['Cid']}"}
    with b.client.websocket_connect(f"/ws/{code}", headers=watch) as wc, \
            b.client.websocket_connect(f"/ws/{code}", headers={"Origin": "http://testserver"}
                                       ) as wg:
        _until(wc, lambda m: m["type"] == "chat_log")
        _until(wg, lambda m: m["type"] == "chat_log")
        r = b.call("POST", "/api/mod/bans", sess["Mod"], json={"name": "Cid", "reason": "spam"})
        assert r.status_code == 201, r.text
        got, close = _closed(wc)
        assert close == 4403
        assert (got[-1]["code"], got[-1]["params"]) == ("banned", {"reason": "spam",
                                                                   "until": None})
        wg.send_json({"type": "ping", "id": 1})                   # the other one stays
        assert _until(wg, lambda m: m["type"] == "pong")["id"] == 1
    assert "spam" in t("de", "table.cut.banned", reason="spam")


def test_a_ban_through_one_process_closes_a_socket_on_the_other(request, tmp_path, logs):
    url = database_url("postgresql", request, tmp_path)
    a_srv = ServerProc(url, log_dir=logs).start()
    b_srv = ServerProc(url, log_dir=logs).start()
    try:
        sess = {}
        for name in ("Moda", "Ann", "Bob"):
            r = call(a_srv, "POST", "/api/accounts", json={"name": name,
                                                           "password": "a long password"})
            assert r.status_code == 201, r.text
            sess[name] = r.cookies["cardtable_session"]
        assert main(["admin", "role", "Moda", "moderator", "--reason", "test",
                     "--database", url]) == 0
        r = call(b_srv, "POST", "/api/tables", sess["Ann"], json=dict(TABLE, name="Ann"))
        code, ta = r.json()["table"]["code"], r.json()["join"]["token"]
        tb = call(b_srv, "POST", f"/api/tables/{code}/join", sess["Bob"],
                  json={"name": "Bob"}).json()["token"]

        async def play():
            def h(who):
                return {"Cookie": f"cardtable_session={sess[who]}", "Origin": b_srv.base}
            ca = await Client(b_srv.ws_base, code, ta, headers=h("Ann")).connect()
            cb = await Client(b_srv.ws_base, code, tb, headers=h("Bob")).connect()
            for c in (ca, cb):
                await c.wait_for(lambda m: m["type"] == "chat_log")
            r = call(a_srv, "POST", "/api/mod/bans", sess["Moda"],
                     json={"name": "Bob", "reason": "cheating"})
            assert r.status_code == 201, r.text
            with pytest.raises(ConnectionError):
                await cb.wait_for(lambda m: False)
            assert cb.close_code == 4403
            assert cb.messages[-1]["code"] == "banned"
            assert cb.messages[-1]["params"]["reason"] == "cheating"
            await ca.wait_for(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "bot")
            assert not ca.closed
            await ca.close()
        run_async(play())
    finally:
        a_srv.stop()
        b_srv.stop()
    assert_clean_log(logs)


def test_a_muted_account_is_refused_as_a_spectator_too(site):
    """Dee, muted, watches a table: her lines to the spectators' chat are refused
    (`chat_muted`, until when); another spectator's are not."""
    b, sess = site
    _, dee = b.sign_up("Dee")
    r = b.call("POST", "/api/mod/mutes", sess["Mod"], json={"name": "Dee", "reason": "spam",
                                                            "until": "1h"})
    assert r.status_code == 201, r.text
    code, _ = b.guest_table("Gil")
    h = {"Origin": "http://testserver"}
    with b.client.websocket_connect(f"/ws/{code}", headers=dict(
            h, Cookie=f"cardtable_session={dee}")) as wd, \
            b.client.websocket_connect(f"/ws/{code}", headers=h) as wo:
        _until(wd, lambda m: m["type"] == "chat_log")
        _until(wo, lambda m: m["type"] == "chat_log")
        wd.send_json({"type": "chat", "channel": "spectators", "text": "buy coins"})
        err = _until(wd, lambda m: m["type"] in ("error", "chat"))
        assert err["type"] == "error" and err["code"] == "chat_muted", err
        assert err["params"]["until"] == r.json()["until"]
        wo.send_json({"type": "chat", "channel": "spectators", "text": "nice move"})
        assert _until(wd, lambda m: m["type"] == "chat")["text"] == "nice move"
