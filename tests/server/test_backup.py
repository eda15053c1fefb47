"""The restore drill (docs/deploy.md, "Backups, restore and rollback"), on SQLite (the online
backup API) and PostgreSQL (pg_dump / pg_restore): a server with a game in progress (decisions
made, table talk), accounts that are friends and have ratings; `cardtable backup` while it
runs; play on; stop it; `cardtable restore` into a fresh file / an empty database; a server on
the restored copy: the game goes on from the backed-up point (the clients get that state and
play on; its record starts with the backed-up actions and replays), the accounts log
in with their friends, ratings and the talk of before the backup. Also the checks a restore
makes first. Both databases run in `make test`."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import PASSWORD, app_client, session_of
from helpers import Client, Replay, ServerProc, assert_clean_log, call, database_url, play
from helpers import run_async as run
from sizes import database_kinds
from test_ratings import play_out, rated_table

from cardtable.cli.main import main as cli
from cardtable.server.config import DatabaseURL
from cardtable.server.store import migrate as M


def actions(database: str, code: str) -> list[str]:
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(sa.text(
                "SELECT a.text FROM actions a JOIN game_tables t ON t.id = a.table_id "
                "WHERE t.code = :c ORDER BY a.idx"), {"c": code})]
    finally:
        engine.dispose()


def base(database: str, code: str) -> dict:
    """The table's record without its actions (game_tables.base)."""
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            got = conn.execute(sa.text("SELECT base FROM game_tables WHERE code = :c"),
                               {"c": code}).scalar()
            return json.loads(got) if isinstance(got, str) else got
    finally:
        engine.dispose()


def people(database: str) -> dict[str, str]:
    """Mia and Max, friends, who played a rated game: their session cookies."""
    with app_client(database, round_break=0) as web:
        _, mia = web.sign_up("Mia")
        _, max_ = web.sign_up("Max")
        assert web.call("POST", "/api/friends/requests", mia, json={"name": "Max"}) \
            .json()["status"] == "sent"
        req = web.call("GET", "/api/friends", max_).json()["incoming"][0]["id"]
        assert web.call("POST", f"/api/friends/requests/{req}/accept", max_).status_code == 200
        code = rated_table(web, mia, public=False).json()["table"]["code"]
        assert web.call("POST", f"/api/tables/{code}/join", max_, json={"name": "x"},
                        headers={"X-Cardtable-Client": "f" * 32}).status_code == 200
        play_out(web, code)
    return {"Mia": mia, "Max": max_}


async def play_until(clients: list[Client], n: int) -> None:
    """Both seats play (random legal decisions) until the game has `n` actions or is over."""
    rng = random.Random(n)

    def reached() -> bool:
        return any((c.last_state() or {}).get("index", 0) >= n for c in clients)
    await asyncio.gather(*(play(c, "abluxxen", rng, stop=reached) for c in clients))


@pytest.mark.parametrize("kind", database_kinds("test_restore_drill"))     # make test: one
def test_restore_drill(kind, request, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    db = database_url(kind, request, tmp_path / "a")
    sess = people(db)
    srv = ServerProc(db, log_dir=tmp_path).start()
    backup = str(tmp_path / ("backup.db" if kind == "sqlite" else "backup.dump"))
    # a duel of Mia and Max under way: decisions made, a line of table talk
    r = call(srv, "POST", "/api/tables", sess["Mia"], json={
        "game": "abluxxen", "variant": "duel", "public": False, "name": "Mia"})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["table"]["code"], [r.json()["join"]["token"]]
    r = call(srv, "POST", f"/api/tables/{code}/join", sess["Max"], json={"name": "Max"})
    assert r.status_code == 200, r.text
    tokens.append(r.json()["token"])

    async def before_and_after():
        clients = [await Client(srv.ws_base, code, t).connect() for t in tokens]
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "chat_log")
        await clients[0].send({"type": "chat", "channel": "table", "text": "before"})
        await clients[1].wait_for(lambda m: m["type"] == "chat" and m["text"] == "before")
        await play_until(clients, 6)
        # the backup, while the server runs and the players are connected
        assert cli(["backup", "--database", db, "--to", backup]) == 0
        n = clients[0].last_state()["index"]
        await play_until(clients, n + 6)
        await clients[0].send({"type": "chat", "channel": "table", "text": "after"})
        await clients[1].wait_for(lambda m: m["type"] == "chat" and m["text"] == "after")
        for c in clients:
            await c.close()
    run(before_and_after())
    srv.stop()
    played = actions(db, code)
    # the restore: into a fresh file / a new, empty database
    fresh = database_url(kind, request, tmp_path / "b")
    assert cli(["restore", "--from", backup, "--database", fresh]) == 0
    assert M.current_and_head(fresh) == (M.head(), M.head())
    kept = actions(fresh, code)
    assert 6 <= len(kept) < len(played) and played[:len(kept)] == kept
    srv = ServerProc(fresh, log_dir=tmp_path).start()
    try:
        # the accounts log in, with their friends and ratings
        r = call(srv, "POST", "/api/session", json={"name": "Mia", "password": PASSWORD})
        assert r.status_code == 200, r.text
        mia = session_of(r)
        friends = call(srv, "GET", "/api/friends", mia).json()["friends"]
        assert [f["name"] for f in friends] == ["Max"]
        assert call(srv, "GET", "/api/players/Mia").json()["ratings"][0]["games"] == 1
        assert call(srv, "GET", "/api/players/Max").json()["ratings"][0]["games"] == 1

        async def goes_on():
            clients = [await Client(srv.ws_base, code, t).connect() for t in tokens]
            log = await clients[0].wait_for(lambda m: m["type"] == "chat_log")
            assert [x["text"] for x in log["messages"]] == ["before"]
            st = await clients[0].wait_for(lambda m: m["type"] == "state")
            assert st["index"] == len(kept)
            await play_until(clients, len(kept) + 4)           # the players go on
            for c in clients:
                await c.close()
        run(goes_on())
    finally:
        srv.stop()
    now = actions(fresh, code)
    assert len(now) >= len(kept) + 4 and now[:len(kept)] == kept
    Replay(dict(base(fresh, code), actions=now))        # every action legal, in order
    assert_clean_log(tmp_path)


def test_a_restore_checks_the_backup_first(tmp_path, capsys):
    db = str(tmp_path / "c.db")
    M.upgrade(db)
    # not a database at all; a database of no cardtable; a newer release's
    (tmp_path / "junk.db").write_bytes(b"not a database" * 100)
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.commit()
    newer = tmp_path / "newer.db"
    assert cli(["backup", "--database", db, "--to", str(newer)]) == 0
    with sqlite3.connect(newer) as conn:
        conn.execute(f"UPDATE {M.VERSION_TABLE} SET version_num = '0999'")
    capsys.readouterr()
    target = tmp_path / "target.db"
    for name, words in (("junk.db", "not a usable SQLite database"),
                        ("other.db", "not a cardtable database"),
                        ("newer.db", "revision 0999, which this release does not know"),
                        ("missing.db", "no backup file")):
        assert cli(["restore", "--from", str(tmp_path / name), "--database",
                    str(target)]) == 2, name
        assert words in capsys.readouterr().err, name
        assert not target.exists() and not list(tmp_path.glob("target.db*")), name
    # an existing file is replaced only with --replace, and kept aside
    target.write_bytes(b"x")
    assert cli(["restore", "--from", str(db), "--database", str(target)]) == 2
    assert "--replace" in capsys.readouterr().err and target.read_bytes() == b"x"
    assert cli(["restore", "--from", str(db), "--database", str(target), "--replace"]) == 0
    assert (tmp_path / "target.db.before-restore").read_bytes() == b"x"
    assert M.current_and_head(str(target))[0] == M.head()
    # a backup never overwrites
    assert cli(["backup", "--database", db, "--to", str(target)]) == 2
    assert "exists" in capsys.readouterr().err
