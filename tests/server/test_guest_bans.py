"""Bans and warnings of guests (ws/bans.py, http/moderation.py): a guest's browser banned or
suspended (by the seat it took, or through a line of table talk it wrote) is cut and refused
when it only watches a table, as at a seat (`error` `banned`/`suspended` with the reason and
until when, close code 4403), while other spectators stay; a moderator warns, suspends and
bans a line's writer through the line (an account: its account; a guest: its browser; a
guest cannot be warned, `409 warn_guest`; a guest without an identity cannot be banned
through its line, `409 ban_no_identity`). Through the app's HTTP and WebSocket routes; the
tests wait on messages, never on time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import site_with_moderator
from accounts_helpers import ws_until as _until


GUEST = "guest-browser-0123456789"          # a browser's client identity (X-Cardtable-Client)
OTHER = "other-browser-9876543210"
THIRD = "third-browser-5555555555"
ORIGIN = {"Origin": "http://testserver"}


def _closed(ws) -> int:
    """Read `ws` until the server closes it: the close code."""
    while True:
        try:
            ws.receive_json()
        except WebSocketDisconnect as e:
            return e.code


def _cut(ws) -> dict:
    """What `ws` gets first after a ping: the ban's `error` (then the close, 4403) if the
    connection was cut, else the `pong`."""
    ws.send_json({"type": "ping", "id": 1})
    m = _until(ws, lambda m: m["type"] in ("error", "pong"))
    if m["type"] == "error":
        assert _closed(ws) == 4403
    return m


def _said(ws, text: str) -> dict:
    ws.send_json({"type": "chat", "channel": "spectators", "text": text})
    return _until(ws, lambda m: m["type"] == "chat" and m["text"] == text)


@pytest.fixture(scope="module")
def site(database):
    with site_with_moderator(database, "Wes") as got:
        yield got


def test_a_suspended_guest_watching_is_cut_and_refused(site):
    b, sess = site
    r = b.call("POST", "/api/tables", origin=None, headers={"X-Cardtable-Client": GUEST},
               json={"game": "kombio", "public": False, "name": "Gil", "players": 2,
                     "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    seat_code = r.json()["table"]["code"]
    code, _ = b.guest_table("Ida")
    with b.client.websocket_connect(f"/ws/{code}?client={GUEST}", headers=ORIGIN) as wg, \
            b.client.websocket_connect(f"/ws/{code}?client={OTHER}", headers=ORIGIN) as wo:
        _until(wg, lambda m: m["type"] == "chat_log")
        _until(wo, lambda m: m["type"] == "chat_log")
        r = b.call("POST", "/api/mod/bans", sess["Mod"], json={
            "seat": f"{seat_code}:0", "reason": "coins", "until": "3d"})
        assert r.status_code == 201, r.text
        err = _cut(wg)
        assert err["type"] == "error" and err["code"] == "suspended", err
        assert err["params"]["reason"] == "coins"
        assert err["params"]["until"] == r.json()["until"]
        assert _cut(wo)["type"] == "pong"                          # another browser stays
    # the same browser watching again: refused as it opens
    with b.client.websocket_connect(f"/ws/{code}?client={GUEST}", headers=ORIGIN) as wg:
        m = wg.receive_json()
        assert (m["type"], m["code"], m["params"]["reason"]) == ("error", "suspended",
                                                                 "coins"), m
        assert _closed(wg) == 4403


def test_warn_suspend_and_ban_go_to_a_lines_writer(site):
    b, sess = site
    code, _ = b.guest_table("Jo")
    wes = dict(ORIGIN, Cookie=f"cardtable_session={sess['Wes']}")
    with b.client.websocket_connect(f"/ws/{code}?client={THIRD}", headers=ORIGIN) as wg, \
            b.client.websocket_connect(f"/ws/{code}", headers=ORIGIN) as wn, \
            b.client.websocket_connect(f"/ws/{code}", headers=wes) as ww:
        for ws in (wg, wn, ww):
            _until(ws, lambda m: m["type"] == "chat_log")
        guest_line = _said(wg, "cheap coins")["seq"]
        anon_line = _said(wn, "more coins")["seq"]
        wes_line = _said(ww, "you all stink")["seq"]

        def mod(path, body):
            return b.call("POST", path, sess["Mod"], json=body)

        # warnings: an account's line warns the account; a guest has no account to warn
        w = mod("/api/mod/warnings", {"line": wes_line, "text": "be kind"})
        assert w.status_code == 201 and w.json()["name"] == "Wes", w.text
        me = b.call("GET", "/api/me", sess["Wes"]).json()
        assert [x["text"] for x in me["warnings"]] == ["be kind"]
        for line in (guest_line, anon_line):
            r = mod("/api/mod/warnings", {"line": line, "text": "stop"})
            assert (r.status_code, r.json()["error"]) == (409, "warn_guest"), r.text
        for body in ({"text": "stop"}, {"name": "Wes", "line": wes_line, "text": "stop"}):
            r = mod("/api/mod/warnings", body)
            assert (r.status_code, r.json()["error"]) == (422, "warn_target"), r.text
        r = mod("/api/mod/warnings", {"line": 99999999, "text": "stop"})
        assert (r.status_code, r.json()["error"]) == (404, "no_line"), r.text
        # bans: bad targets change nothing
        r = mod("/api/mod/bans", {"line": anon_line, "reason": "spam"})
        assert (r.status_code, r.json()["error"]) == (409, "ban_no_identity"), r.text
        r = mod("/api/mod/bans", {"name": "Wes", "line": wes_line, "reason": "spam"})
        assert (r.status_code, r.json()["error"]) == (422, "ban_target"), r.text
        r = mod("/api/mod/bans", {"line": 99999999, "reason": "spam"})
        assert (r.status_code, r.json()["error"]) == (404, "no_line"), r.text
        assert _cut(wn)["type"] == "pong" and _cut(wg)["type"] == "pong"
        # a guest's line suspends the guest's browser: its spectator connection is cut
        r = mod("/api/mod/bans", {"line": guest_line, "reason": "coins", "until": "1h"})
        assert r.status_code == 201, r.text
        assert r.json()["name"] == f"line {guest_line}"
        err = _cut(wg)
        assert (err["code"], err["params"]["reason"]) == ("suspended", "coins"), err
        assert _cut(wn)["type"] == "pong"
        # an account's line bans the account
        r = mod("/api/mod/bans", {"line": wes_line, "reason": "insults"})
        assert r.status_code == 201 and r.json()["name"] == "Wes", r.text
        err = _cut(ww)
        assert (err["code"], err["params"]) == ("banned", {"reason": "insults",
                                                           "until": None}), err
        assert _cut(wn)["type"] == "pong"
    r = b.call("POST", "/api/tables", sess["Wes"], json={
        "game": "kombio", "public": False, "name": "Wes", "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert (r.status_code, r.json()["error"]) == (403, "banned"), r.text
