"""A moderator's mute of a guest watching a table (talk/chat.py, http/moderation.py): a
guest spectator's line is reported, the moderator mutes its writer through the line, and the
guest's next line is refused with the reason and until when, as a spectator and at a seat of
another table taken from the same browser (its client identity); the other spectators still
chat. A guest whose browser gave no identity cannot be muted (a ban is the moderator's
choice: a mute by address would silence everybody behind it). Through the app's HTTP and
WebSocket routes; the tests wait on messages, never on time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import site_with_moderator
from accounts_helpers import ws_until as _until


GUEST = "guest-browser-0123456789"          # a browser's client identity (X-Cardtable-Client)
OTHER = "other-browser-9876543210"
ORIGIN = {"Origin": "http://testserver"}


def _said(ws, channel: str, text: str) -> dict:
    """Write `text`; what comes back first: the line (`chat`) or the refusal (`error`)."""
    ws.send_json({"type": "chat", "channel": channel, "text": text})
    return _until(ws, lambda m: m["type"] in ("error", "chat"))


@pytest.fixture(scope="module")
def site(database):
    with site_with_moderator(database, "Rea") as got:
        yield got


def test_a_reported_guest_spectator_is_muted_by_their_line_wherever_they_write(site):
    b, sess = site
    code, _ = b.guest_table("Gil")
    rea = dict(ORIGIN, Cookie=f"cardtable_session={sess['Rea']}")
    with b.client.websocket_connect(f"/ws/{code}?client={GUEST}", headers=ORIGIN) as wg, \
            b.client.websocket_connect(f"/ws/{code}?client={OTHER}", headers=ORIGIN) as wo, \
            b.client.websocket_connect(f"/ws/{code}", headers=rea) as wr:
        for ws in (wg, wo, wr):
            _until(ws, lambda m: m["type"] == "chat_log")
        sent = _said(wg, "spectators", "buy cheap coins")
        assert sent["type"] == "chat", sent
        seen = _until(wr, lambda m: m["type"] == "chat")
        assert seen["seq"] == sent["seq"]
        assert "person" not in seen and "account_id" not in seen     # who wrote it stays here
        _until(wo, lambda m: m["type"] == "chat")
        # the reporter (an account) reports the guest's line: the report names the spectator
        r = b.call("POST", "/api/reports", sess["Rea"], json={
            "name": "Whoever", "reason": "spam", "table": code, "line": sent["seq"]})
        assert r.status_code == 201, r.text
        assert r.json()["name"] == f"spectator {sent['spectator']}"
        [rep] = [x for x in b.call("GET", "/api/mod/reports", sess["Mod"]).json()
                 if x["id"] == r.json()["id"]]
        assert rep["evidence"]["line"] == sent["seq"]
        assert [x["text"] for x in rep["evidence"]["lines"]] == ["buy cheap coins"]
        # the line says which spectator wrote it (the queue names them in its reader's language)
        assert [(x["name"], x["spectator"]) for x in rep["evidence"]["lines"]] == [
            (None, sent["spectator"])]
        # a player may not mute; the moderator mutes the line's writer
        body = {"line": sent["seq"], "reason": "selling coins", "until": "2h"}
        assert b.call("POST", "/api/mod/mutes", sess["Rea"], json=body).status_code == 403
        bad = b.call("POST", "/api/mod/mutes", sess["Mod"], json=dict(body, name="Rea"))
        assert (bad.status_code, bad.json()["error"]) == (422, "mute_target"), bad.text
        gone = b.call("POST", "/api/mod/mutes", sess["Mod"], json=dict(body, line=99999999))
        assert (gone.status_code, gone.json()["error"]) == (404, "no_line"), gone.text
        m = b.call("POST", "/api/mod/mutes", sess["Mod"], json=body)
        assert m.status_code == 201, m.text
        assert m.json()["name"] == f"line {sent['seq']}"
        # the guest's next line is refused, with the reason and until when
        err = _said(wg, "spectators", "still selling")
        assert err["type"] == "error" and err["code"] == "chat_muted", err
        assert err["params"]["until"] == m.json()["until"]
        assert err["params"]["reason"] == "selling coins"
        assert err["params"]["until_text"] in err["message"]
        # the others still chat, and the refused line reached nobody
        assert _said(wo, "spectators", "nice move")["text"] == "nice move"
        assert _until(wr, lambda m: m["type"] == "chat")["text"] == "nice move"
    # the same browser at a seat of another table: held too
    r = b.call("POST", "/api/tables", origin=None, headers={"X-Cardtable-Client": GUEST},
               json={"game": "kombio", "public": False, "name": "Gil", "players": 2,
                     "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    code2, token = r.json()["table"]["code"], r.json()["join"]["token"]
    with b.client.websocket_connect(f"/ws/{code2}?token={token}", headers=ORIGIN) as ws:
        _until(ws, lambda m: m["type"] == "chat_log")
        err = _said(ws, "table", "hello")
        assert err["type"] == "error" and err["code"] == "chat_muted", err
        assert err["params"]["reason"] == "selling coins"
    # lifted through the line, the guest writes again
    r = b.call("POST", "/api/mod/unmutes", sess["Mod"],
               json={"line": sent["seq"], "reason": "paid their dues"})
    assert r.status_code == 200 and r.json() == {"lifted": 1}, r.text
    with b.client.websocket_connect(f"/ws/{code}?client={GUEST}", headers=ORIGIN) as wg:
        _until(wg, lambda m: m["type"] == "chat_log")
        assert _said(wg, "spectators", "sorry")["type"] == "chat"


def test_a_guest_spectator_without_an_identity_is_not_muted_by_address(site):
    b, sess = site
    code, _ = b.guest_table("Ola")
    with b.client.websocket_connect(f"/ws/{code}", headers=ORIGIN) as wn, \
            b.client.websocket_connect(f"/ws/{code}?client={OTHER}", headers=ORIGIN) as wo:
        _until(wn, lambda m: m["type"] == "chat_log")
        _until(wo, lambda m: m["type"] == "chat_log")
        line = _said(wn, "spectators", "spam spam")["seq"]
        r = b.call("POST", "/api/mod/mutes", sess["Mod"],
                   json={"line": line, "reason": "spam", "until": "1h"})
        assert (r.status_code, r.json()["error"]) == (409, "mute_no_identity"), r.text
        # nobody behind the same address was muted by it
        assert _said(wo, "spectators", "hello")["type"] == "chat"
        assert _said(wn, "spectators", "hello again")["type"] == "chat"


def test_a_malformed_client_identity_is_refused(site):
    b, _ = site
    code, _ = b.guest_table("Pia")
    with b.client.websocket_connect(f"/ws/{code}?client=short", headers=ORIGIN) as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "bad_client", m
