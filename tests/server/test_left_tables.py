"""A game everyone has left (the `leave` message): the stand-in bots play it to its end with
nobody connected, at bot speed, and it finishes like any other game (driver.left_by_players):
its record and result are stored, and its creator's quota of unfinished tables is free again.

One real server process (SQLite or PostgreSQL), light WebSocket clients; the test waits on the
table's status, never on time."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from helpers import GUARD, Client, ServerProc, assert_clean_log, run_async

from cardtable.server.config import DatabaseURL

#: one unfinished table per address (the creator's quota), and bots slow enough that the
#: game is still being played when its last player has left and closed the page
ARGS = ("--limit", "tables=1", "--bot-delay", "0.02")
TABLE = {"game": "kombio", "players": 2, "target": 1, "public": False, "name": "Ann"}


@pytest.fixture(scope="module")
def srv(database, logs):
    proc = ServerProc(database, args=ARGS, log_dir=logs).start()
    yield proc
    proc.stop()
    assert_clean_log(logs)


async def _leave(srv: ServerProc, code: str, token: str) -> None:
    """Connect as the seat's player, leave the game, close the page."""
    c = await Client(srv.ws_base, code, token).connect()
    try:
        await c.wait_for(lambda m: m["type"] == "state" and m["seat"] is not None)
        await c.send({"type": "leave", "id": 1})
        await c.wait_for(lambda m: m["type"] == "state" and m["seat"] is None)
    finally:
        await c.close()


def _until_over(srv: ServerProc, code: str) -> dict:
    """The table once its status is `over` (polled: nobody may connect to it, a client would
    be somebody watching; GUARD is a guard against a hang, not a budget)."""
    deadline = time.monotonic() + 3 * GUARD
    while True:
        table = srv.get(f"/api/tables/{code}").json()
        if table["status"] == "over":
            return table
        assert time.monotonic() < deadline, f"the left game stands still: {table}"
        time.sleep(0.1)


def test_a_game_both_players_left_is_played_to_its_end(srv, database):
    made = srv.create(**TABLE)
    code = made["table"]["code"]
    bob = srv.join(code, "Bob")
    # the creator's quota is taken while the table is unfinished
    refused = srv.post("/api/tables", TABLE)
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_tables"

    async def both_leave() -> None:
        await _leave(srv, code, made["join"]["token"])
        await _leave(srv, code, bob["token"])

    run_async(both_leave())
    table = _until_over(srv, code)                       # nobody connected since
    assert [s["kind"] for s in table["seats"]] == ["bot", "bot"]
    record = srv.record(code)
    assert record["actions"] and table["actions"] == len(record["actions"])
    url = DatabaseURL(database)
    engine = sa.create_engine(url.sync_url)
    try:
        with engine.connect() as conn:
            status, result = conn.execute(sa.text(
                "SELECT status, result FROM game_tables WHERE code = :c"), {"c": code}).one()
    finally:
        engine.dispose()
    assert status == "over" and result is not None                  # the result is stored
    # the creator's quota is free again
    assert srv.post("/api/tables", TABLE).status_code == 201

