"""Friends across server processes (issue 32): two processes on one PostgreSQL database. A
friend whose table is open through one process is online for the friend who asks the other
(presence lives in the database), and an invitation made through one process is in the
lobby the other process serves."""

from __future__ import annotations

import asyncio
import time

from helpers import Client, ServerProc, assert_clean_log, call, database_url, run_async

GUARD = 60.0


def sign_up(srv: ServerProc, name: str) -> str:
    r = call(srv, "POST", "/api/accounts", json={"name": name, "password": "a long password"})
    assert r.status_code == 201, r.text
    return r.cookies["cardtable_session"]


def test_presence_and_invitations_cross_processes(request, tmp_path, logs):
    url = database_url("postgresql", request, tmp_path)
    a_srv = ServerProc(url, log_dir=logs).start()
    b_srv = ServerProc(url, log_dir=logs).start()
    try:
        ann, ben = sign_up(a_srv, "Annabel"), sign_up(b_srv, "Benedikt")
        # friends without Ben polling his friends (which would count as being online)
        assert call(b_srv, "POST", "/api/friends/requests", ben,
                    json={"name": "Annabel"}).json()["status"] == "sent"
        assert call(a_srv, "POST", "/api/friends/requests", ann,
                    json={"name": "Benedikt"}).json()["status"] == "friends"

        def ben_online() -> bool:
            friends = call(a_srv, "GET", "/api/friends", ann).json()["friends"]
            assert [f["name"] for f in friends] == ["Benedikt"]
            return friends[0]["online"]
        assert ben_online() is False
        # Ben's table, open through process B (a WebSocket with his session cookie)
        r = call(b_srv, "POST", "/api/tables", ben, json={
            "game": "kombio", "public": False, "name": "Benedikt", "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        code, token = r.json()["table"]["code"], r.json()["join"]["token"]

        async def at_the_table():
            c = await Client(b_srv.ws_base, code, token, headers={
                "Cookie": f"cardtable_session={ben}", "Origin": b_srv.base}).connect()
            await c.wait_for(lambda m: m["type"] == "state")
            deadline = time.monotonic() + GUARD
            while not ben_online():                   # asked through process A
                assert time.monotonic() < deadline, "Ben is not online for Ann"
                await asyncio.sleep(0.05)
            # Ben invites Ann through B; Ann's lobby, served by A, has it
            r = call(b_srv, "POST", "/api/friends/invites", ben, json={"table": code,
                                                                       "to": "Annabel"})
            assert r.status_code == 201, r.text
            inv = call(a_srv, "GET", "/api/friends", ann).json()["invites"]
            assert [(i["from"], i["code"]) for i in inv] == [("Benedikt", code)]
            await c.close()
        run_async(at_the_table())
    finally:
        a_srv.stop()
        b_srv.stop()
    assert_clean_log(logs)
