"""Attacks on seats held by accounts, on SQLite and PostgreSQL: a player who left a game
cannot take its seat back (no new token, no view beyond a spectator's, no table talk as a
player), also after a restart and by every route that hands out or honours a seat token, nor
comes back in a rematch; and one account never holds two seats of one table (not by claiming
a deleted second account's seat either), so no game shows twice in its history."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.websockets import WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import PASSWORD, app_client
from test_ratings import play_out, rated_table

from cardtable.server.config import DatabaseURL
from cardtable.server.store.db import token_hash

OTHER = {"X-Cardtable-Client": "e" * 32}          # another browser (a seat per person)


def _until(ws, pred):
    while not pred(m := ws.receive_json()):
        pass
    return m


def _refused(web, code: str, token: str) -> None:
    """The token opens no seat at table `code`: the WebSocket closes with 4401 bad_token."""
    with pytest.raises(WebSocketDisconnect) as e:
        with web.client.websocket_connect(f"/ws/{code}?token={token}") as ws:
            assert ws.receive_json()["code"] == "bad_token"
            ws.receive_json()
    assert e.value.code == 4401


def _set_token(database: str, code: str, seat: int, token: str) -> None:
    """Give a seat a token behind the server's back (as the old seat route did)."""
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                "UPDATE seats SET token_hash = :h WHERE seat = :s AND table_id = "
                "(SELECT id FROM game_tables WHERE code = :c)"),
                {"h": token_hash(token), "s": seat, "c": code})
    finally:
        engine.dispose()


def _leave(web, code: str, token: str) -> None:
    """Sit down with `token`, see the seat's own view, send `leave`; the connection watches
    from then on: no seat, the public view, and it cannot talk on the players' channel."""
    with web.client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        m = _until(ws, lambda m: m["type"] == "state")
        assert m["seat"] == 0 and m["view"]["seat"] == 0
        ws.send_json({"type": "leave", "id": 1})
        m = _until(ws, lambda m: m["type"] == "state" and m["seat"] is None)
        assert m["view"].get("seat") is None and m["seats"][0]["kind"] == "bot"
        ws.send_json({"type": "chat", "channel": "table", "text": "still me", "id": 2})
        m = _until(ws, lambda m: m["type"] == "error")
        assert (m["code"], m["id"]) == ("wrong_channel", 2)


def test_a_left_seat_is_gone_for_good_also_after_a_restart(database):
    """A rated three-player Kombio table: Vic leaves; the seat route refuses him a new token
    (409 seat_left), a token given to the seat anyway opens nothing (WebSocket, coach),
    joining and claiming give him nothing; all the same after a restart of the server."""
    with app_client(database, round_break=0) as web:
        _, vic = web.sign_up("Vic")
        made = rated_table(web, vic, players=3, seats=[
            {"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}])
        assert made.status_code == 201, made.text
        code, token = made.json()["table"]["code"], made.json()["join"]["token"]
        # before leaving, the route serves its purpose: a new token for this device
        r = web.call("POST", f"/api/me/games/{code}/seat", vic)
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text
        token = r.json()["token"]
        _leave(web, code, token)
        r = web.call("POST", f"/api/me/games/{code}/seat", vic)
        assert r.status_code == 409 and r.json()["error"] == "seat_left", r.text
        _refused(web, code, token)
    forged = "forged-token-of-a-left-seat-0123456789"
    _set_token(database, code, 0, forged)
    with app_client(database, round_break=0) as web:               # a restarted server
        for _ in range(2):
            r = web.call("POST", f"/api/me/games/{code}/seat", vic)
            assert r.status_code == 409 and r.json()["error"] == "seat_left", r.text
        for t in (token, forged):
            _refused(web, code, t)
            with web.client.websocket_connect(f"/ws/{code}?auth=1") as ws:
                ws.send_json({"type": "auth", "token": t})
                m = _until(ws, lambda m: m["type"] in ("error", "welcome"))
                assert m["type"] == "error" and m["code"] == "bad_token", m
            r = web.call("POST", f"/api/tables/{code}/coach", json={"token": t}, origin=None)
            assert r.status_code == 403 and r.json()["error"] == "bad_token", r.text
        # no other way back in: the table is full, the account holds its (left) seat
        r = web.call("POST", "/api/join", vic, json={"table": code, "name": "Vic"},
                     headers=OTHER)
        assert r.status_code == 409, r.text
        r = web.call("POST", "/api/me/seats", vic, json={"claim": [token, forged]})
        assert r.status_code == 200 and r.json()["claimed"] == 0
        # the game is played out by the bots and counts as Vic's loss
        play_out(web, code)
        (rating,) = web.call("GET", "/api/players/Vic").json()["ratings"]
        assert rating["history"][-1]["left"] is True


def test_a_left_seat_at_an_unrated_table_gives_no_token_nor_coach(database):
    """The same at a table of a logged-in player and a bot (where the coach would advise
    the seat from its hidden cards)."""
    with app_client(database, round_break=0) as web:
        _, ute = web.sign_up("Ute")
        r = web.call("POST", "/api/tables", ute, json={
            "game": "kombio", "players": 2, "target": 1, "public": False, "name": "Ute",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
        code, token = r.json()["table"]["code"], r.json()["join"]["token"]
        r = web.call("POST", f"/api/tables/{code}/coach", json={"token": token}, origin=None)
        assert r.status_code != 403, r.text                  # the seat's coach, before
        _leave(web, code, token)
        r = web.call("POST", f"/api/me/games/{code}/seat", ute)
        if r.status_code == 404:
            # the bots play a game everyone left at their speed: it may be over already, and
            # then the account holds no seat at a running table (a game cannot start again)
            assert r.json()["error"] == "not_your_seat", r.text
            assert web.call("GET", f"/api/tables/{code}").json()["status"] == "over"
        else:
            assert r.status_code == 409 and r.json()["error"] == "seat_left", r.text
        r = web.call("POST", f"/api/tables/{code}/coach", json={"token": token}, origin=None)
        assert r.status_code == 403 and r.json()["error"] == "bad_token", r.text


def _listed(web, sess, code: str) -> tuple[int, int]:
    """How often table `code` shows in the account's games and in its profile's games."""
    games = web.call("GET", "/api/me/games", sess).json()
    me = web.call("GET", "/api/me", sess).json()["name"]
    recent = web.call("GET", f"/api/players/{me}", sess).json()["recent"]
    return (sum(g["code"] == code for g in games), sum(g["code"] == code for g in recent))


def test_an_account_never_holds_two_seats_of_a_table(database):
    """Ann sits at her rated table, her second account Ann2 takes the other seat and is
    deleted; Ann claims Ann2's seat with its token (the claim route, a log-in with `claim`):
    nothing is claimed, and the game shows once in her history. At an unrated table she may
    take two seats, but only the first is her account's."""
    with app_client(database, round_break=0) as web:
        _, ann = web.sign_up("Ann")
        _, ann2 = web.sign_up("Ann Zwei")
        code = rated_table(web, ann).json()["table"]["code"]
        r = web.call("POST", f"/api/tables/{code}/join", ann2, json={"name": "x"},
                     headers=OTHER)
        assert r.status_code == 200, r.text
        second = r.json()["token"]
        assert web.call("DELETE", "/api/me", ann2, json={"password": PASSWORD}) \
            .status_code == 204
        r = web.call("POST", "/api/me/seats", ann, json={"claim": [second]})
        assert r.status_code == 200 and r.json()["claimed"] == 0, r.text
        r, ann = web.log_in("Ann", claim=[second])
        assert r.status_code == 200 and r.json()["claimed"] == 0, r.text
        play_out(web, code)
        assert _listed(web, ann, code) == (1, 1)
        (rating,) = web.call("GET", "/api/players/Ann").json()["ratings"]
        assert rating["games"] == 1 and len(rating["history"]) == 1

        # an unrated table: two seats from one session, the second stays a guest's
        r = web.call("POST", "/api/tables", ann, json={
            "game": "kombio", "players": 2, "target": 1, "public": False, "name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        code2, first = r.json()["table"]["code"], r.json()["join"]["token"]
        r = web.call("POST", f"/api/tables/{code2}/join", ann, json={"name": "Bea"})
        assert r.status_code == 200, r.text
        r = web.call("POST", "/api/me/seats", ann, json={"claim": [first, r.json()["token"]]})
        assert r.status_code == 200 and r.json()["claimed"] == 0
        assert _listed(web, ann, code2)[0] == 1
        (g,) = [g for g in web.call("GET", "/api/me/games", ann).json() if g["code"] == code2]
        assert g["seat"] == 0

    # the database itself refuses a second seat of one account at one table
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with pytest.raises(sa.exc.IntegrityError):
            with engine.begin() as conn:
                conn.execute(sa.text(
                    "UPDATE seats SET account_id = (SELECT account_id FROM seats s2 WHERE "
                    "s2.table_id = seats.table_id AND s2.seat = 0) WHERE seat = 1 AND "
                    "table_id = (SELECT id FROM game_tables WHERE code = :c)"), {"c": code2})
    finally:
        engine.dispose()


def test_a_rematch_gives_a_left_seat_to_a_plain_bot(database):
    """Bob leaves a rated game with Ann; Ann's rematch seats a plain bot in Bob's place: the
    new table is not in Bob's games, and its end does not count as another loss of his."""
    with app_client(database, round_break=0) as web:
        _, ann = web.sign_up("Anna")
        _, bob = web.sign_up("Bob")
        made = rated_table(web, ann).json()
        code, ann_token = made["table"]["code"], made["join"]["token"]
        r = web.call("POST", f"/api/tables/{code}/join", bob, json={"name": "x"},
                     headers=OTHER)
        assert r.status_code == 200, r.text
        with web.client.websocket_connect(f"/ws/{code}?token={r.json()['token']}") as ws:
            _until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "leave", "id": 1})
            _until(ws, lambda m: m["type"] == "state" and m["seat"] is None)
        play_out(web, code)
        r = web.call("POST", f"/api/tables/{code}/rematch", json={"token": ann_token},
                     origin=None)
        assert r.status_code == 200, r.text
        again = r.json()["code"]
        assert [s["kind"] for s in r.json()["seats"]] == ["human", "bot"]
        assert again not in {g["code"] for g in web.call("GET", "/api/me/games", bob).json()}
        play_out(web, again)
        (rating,) = web.call("GET", "/api/players/Bob").json()["ratings"]
        assert rating["games"] == 1


def test_two_joins_of_one_account_at_once_give_it_one_seat(database):
    """Two joins of one account at a rated table at the same moment (past the route's early
    check): the join's own transaction sees the first seat, the second join is refused
    (409 rated_seat_held); the table keeps its third seat free."""
    import asyncio

    from cardtable.server.errors import ApiError
    from cardtable.server.tables.joining import join_seat

    with app_client(database, round_break=0) as web:
        _, ann = web.sign_up("Annika")
        web.sign_up("Bert")
        code = rated_table(web, ann, players=3, seats=[{"kind": "human"}] * 3) \
            .json()["table"]["code"]
        hub = web.app.state.accounts.hub()

        async def both():
            async with hub.store.engine.connect() as conn:
                bert = (await conn.execute(sa.text(
                    "SELECT id FROM accounts WHERE name = 'Bert'"))).scalar_one()
            rt = await hub.runtime_by_code(code)
            try:
                return await asyncio.gather(*(
                    join_seat(hub, rt, "Bert", None, f"{i:064x}", None, bert)
                    for i in range(2)), return_exceptions=True)
            finally:
                hub.release(rt)
        got = web.client.portal.call(both)
        ok = [g for g in got if isinstance(g, tuple)]
        refused = [g for g in got if isinstance(g, ApiError)]
        assert len(ok) == 1 and len(refused) == 1, got
        assert refused[0].status_code == 409 and refused[0].error == "rated_seat_held"
        assert web.call("GET", f"/api/tables/{code}").json()["free_seats"] == [2]
