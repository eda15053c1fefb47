"""Unit tests of the server's parts that need no running server: the public view, the token
bucket, the message models, database URLs, the migrations, the `serve` command."""

from __future__ import annotations

import json
import random

import pytest
from helpers import run_async
import typer
from pydantic import ValidationError
from typer.testing import CliRunner

from cardtable.core.errors import ConfigError
from cardtable.core.record import new_game
from cardtable.server.config import DatabaseURL
from cardtable.server.protocol import Auth, Decide, Ping, Sync, parse_client
from cardtable.server.tables.views import merge_views, public_view
from cardtable.server.guard.security import BadJSON, TokenBucket


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, path + (i,))
    else:
        yield path, obj


def _get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


GAMES = [("abluxxen", {"variant": "basic", "players": 4}),
         ("abluxxen", {"variant": "duel", "players": 2}),
         ("abluxxen", {"variant": "classic", "players": 3}),
         ("kombio", {"players": 3, "target": 30}),
         ("kombio", {"players": 2, "target": 20})]


@pytest.mark.parametrize("game,opts", GAMES)
def test_public_view_shows_only_what_every_seat_sees(game, opts):
    rng = random.Random(3)
    st = new_game(game, seed=5, **opts)
    steps = 0
    while not st.over and steps < 400:
        views = [st.view(s) for s in range(st.players)]
        pv = public_view(st)
        assert pv["seat"] is None and pv["legal"] == []
        for path, value in _leaves(pv):
            if path in (("seat",),) or value in ("?", None):
                continue
            for v in views:
                try:
                    seen = _get(v, path)
                except (KeyError, IndexError, TypeError):
                    pytest.fail(f"{path} is in the public view but not in a seat's view")
                if isinstance(seen, list):              # a seat's own hand, shown as a count
                    assert path[0] == "hands" and value == len(seen), (path, value)
                else:
                    assert seen == value, (path, value, seen)
        if game == "abluxxen":
            assert pv["hands"] == pv["hand_counts"]
        else:
            assert pv["drawn"] is None
        st.apply(rng.choice(st.legal()))
        steps += 1


def test_merge_views_rules():
    assert merge_views([[1, 2], 2, 2]) == 2                 # own cards vs a count
    assert merge_views([5, "?", 5]) == "?"
    assert merge_views([7, None]) is None
    assert merge_views([{"a": [1, "?"]}, {"a": [1, 3]}]) == {"a": [1, "?"]}
    assert merge_views([[{"seat": 0}], []]) == []
    assert merge_views([True, 1]) is None                   # no bool/int confusion


def test_token_bucket():
    now = [0.0]
    b = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert b.take() and not b.take()
    now[0] += 100
    assert sum(b.take() for _ in range(10)) == 3


def test_client_messages():
    assert isinstance(parse_client('{"type":"decide","decision":"play 7 7","index":3}'), Decide)
    assert isinstance(parse_client('{"type":"ping","id":"a"}'), Ping)
    assert isinstance(parse_client('{"type":"sync","since":0}'), Sync)
    assert isinstance(parse_client(b'{"type":"auth","token":"t"}'), Auth)
    for bad in ('{"type":"decide","decision":"x","index":"3"}',     # strict: no coercion
                '{"type":"decide","decision":"x","index":true}',
                '{"type":"decide","decision":"x","extra":1}',        # no unknown keys
                '{"type":"decide","decision":""}',
                '{"type":"decide","decision":"' + "x" * 65 + '"}',
                '{"type":"decide"}', '{"type":"nope"}', '{"decision":"x"}', '[]', '"ping"',
                '{"type":"sync","since":-1}', '{"type":"ping","id":[1]}'):
        with pytest.raises(ValidationError):
            parse_client(bad)
    # not JSON as the protocol means it: refused before the models see it
    for bad in ('not json', '{"type":"ping","id":NaN}', '{"type":"ping","id":-Infinity}',
                '{"type":"ping","id":1e400}', '{"type":"ping","id":"\\ud800"}',
                '{"type":"ping","type":"ping"}', '{"type":"ping","id":' + "9" * 50 + '}',
                b'{"type":"ping","id":"\xff"}', '[' * 100 + ']' * 100):
        with pytest.raises(BadJSON):
            parse_client(bad)


def test_database_urls(tmp_path):
    u = DatabaseURL(str(tmp_path / "x.db"))
    assert u.kind == "sqlite" and not u.is_postgres
    assert u.async_url.drivername == "sqlite+aiosqlite"
    assert DatabaseURL("sqlite:///rel.db").sync_url.database.startswith("/")
    p = DatabaseURL("postgres://u:secret@127.0.0.1:5/db")
    assert p.is_postgres and p.sync_url.drivername == "postgresql+psycopg"
    assert p.libpq() == "postgresql://u:secret@127.0.0.1:5/db"
    # a password with spaces and URL characters reaches libpq whole (psycopg parses it back)
    from psycopg.conninfo import conninfo_to_dict

    odd = DatabaseURL("postgresql://u@127.0.0.1:5/db", "a b/c@d:e%f")
    assert conninfo_to_dict(odd.libpq()) == {"user": "u", "password": "a b/c@d:e%f",
                                              "host": "127.0.0.1", "port": "5", "dbname": "db"}
    assert "secret" not in p.display()
    for bad in ("sqlite:///:memory:", "mysql://h/db"):
        with pytest.raises(ValueError):
            DatabaseURL(bad)


def test_migrations_match_the_models_and_are_idempotent(tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine

    from cardtable.server.store.db import metadata
    from cardtable.server.store.migrate import alembic_config, upgrade

    db = tmp_path / "m.db"
    upgrade(str(db))
    upgrade(str(db))                                       # a second start changes nothing
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table":
                                                     "cardtable_alembic_version"})
        diff = compare_metadata(ctx, metadata)
        assert diff == [], diff
        assert conn.exec_driver_sql("SELECT version_num FROM cardtable_alembic_version") \
            .scalar() == ScriptDirectory.from_config(alembic_config()).get_current_head()
    engine.dispose()


def test_migration_0002_keeps_the_tables_of_0001(tmp_path):
    """A database of the first schema upgrades in place: its tables, seats and actions stay,
    and the widened code column takes a private table's 26-letter code."""
    from sqlalchemy import create_engine

    from cardtable.server.store.migrate import upgrade

    db = tmp_path / "old.db"
    upgrade(str(db), "0001")
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO game_tables (id, code, game, settings, base, public, status, n_actions, "
            "version, created_at, updated_at) VALUES (1, 'ABCDEFGH', 'kombio', '{}', '{}', 1, "
            "'over', 1, 3, 0, 0)")
        conn.exec_driver_sql("INSERT INTO seats (table_id, seat, kind, away) VALUES (1, 0, 'bot', 0)")
        conn.exec_driver_sql("INSERT INTO actions (table_id, idx, seat, text, by, at) "
                             "VALUES (1, 0, 0, 'draw', 'bot', 0)")
    upgrade(str(db))
    with engine.begin() as conn:
        assert conn.exec_driver_sql("SELECT code, creator FROM game_tables").all() == \
            [("ABCDEFGH", None)]
        assert conn.exec_driver_sql("SELECT client FROM seats").all() == [(None,)]
        assert conn.exec_driver_sql("SELECT text FROM actions").all() == [("draw",)]
        conn.exec_driver_sql("UPDATE game_tables SET code = ?", ("Q" * 26,))
    engine.dispose()


def test_migration_0003_keeps_old_duel_tables_replaying(tmp_path):  # DU-4
    """Duel tables stored before shadow_partial became the default get it named false, so
    their actions replay as played; other tables and bases that name it stay as they were."""
    import sqlalchemy as sa

    from cardtable.core.record import load_record
    from cardtable.server.store.migrate import upgrade

    db = tmp_path / "old.db"
    upgrade(str(db), "0002")
    old = {"game": "abluxxen", "variant": "duel", "players": 2, "seed": 0, "start": 0,
           "deal": {"hands": [["X", "X", 7, 7], []],
                    "shadow": [1, 2, 3, 4, 5, 5, 5, 6, 8, 9, 10, 11, 12]}}
    bases = {"OLDDUEL": old,
             "OLDOPTS": dict(old, options={"optional_draw": False}),
             "NEWDUEL": dict(old, options={"shadow_partial": True}),
             "BASIC": {"game": "abluxxen", "variant": "basic", "players": 4, "seed": 1},
             "KOMBIO": {"game": "kombio", "players": 2, "seed": 1}}
    engine = sa.create_engine(f"sqlite:///{db}")
    gt = sa.table("game_tables", *(sa.column(c) for c in (
        "code", "game", "public", "status", "n_actions", "version", "created_at",
        "updated_at")), sa.column("settings", sa.JSON), sa.column("base", sa.JSON))
    with engine.begin() as conn:
        for code, base in bases.items():
            conn.execute(gt.insert().values(
                code=code, game=base["game"], settings={}, base=base, public=False,
                status="playing", n_actions=2, version=1, created_at=0.0, updated_at=0.0))
    # the old duel's actions (the three 5s were no shadow option then) fail under the new default
    actions = ["play 7 7", "pass"]
    with pytest.raises(Exception, match="shadow_partial"):
        load_record(dict(old, actions=actions))
    upgrade(str(db))
    with engine.connect() as conn:
        got = dict(conn.execute(sa.select(gt.c.code, gt.c.base)).all())
    engine.dispose()
    assert got["OLDDUEL"]["options"] == {"shadow_partial": False}
    assert got["OLDOPTS"]["options"] == {"optional_draw": False, "shadow_partial": False}
    assert load_record(dict(got["OLDDUEL"], actions=actions)).awaiting == "play"
    for code in ("NEWDUEL", "BASIC", "KOMBIO"):
        assert got[code] == bases[code], code


def test_serve_command_registers():
    from cardtable.cli import serve_cmd

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        pass

    serve_cmd.register(app)
    res = CliRunner().invoke(app, ["serve", "--help"])
    assert res.exit_code == 0 and "--database" in res.output and "--port" in res.output
    with pytest.raises(ConfigError):
        serve_cmd.run_serve("127.0.0.1", 70000, "x.db", 0.5, "medium")
    with pytest.raises(ConfigError):
        serve_cmd.run_serve("127.0.0.1", 8000, "mysql://h/db", 0.5, "medium")
    with pytest.raises(ConfigError):
        serve_cmd.run_serve("127.0.0.1", 8000, "x.db", 0.5, "nobody")


def test_server_models_describe_what_the_server_sends():
    from cardtable.server.protocol import server_message

    server_message.validate_python({"type": "error", "code": "x", "message": "y", "id": None})
    with pytest.raises(ValidationError):
        server_message.validate_python({"type": "event", "index": 1})
    json.dumps(server_message.json_schema())                   # documented schema exists


# -- SQLite group commit (db.GroupWriter, Store.write) --------------------------------------------
def _store(tmp_path):
    from cardtable.server.store.db import Store
    from cardtable.server.store.migrate import upgrade

    url = DatabaseURL(str(tmp_path / "g.db"))
    upgrade(url)
    return url, Store(url)


def _new_table(code: str) -> tuple[dict, list[dict]]:
    values = {"code": code, "game": "abluxxen", "settings": {"a": 1}, "base": {"seed": 1},
              "public": False, "status": "playing", "deadline": None, "snap": None,
              "rematch_code": None}
    rows = [{"seat": s, "kind": "human", "bot": None, "name": None, "token_hash": None,
             "away": False, "joined_at": None} for s in range(2)]
    return values, rows


def _held_batch(store):
    """Block the writer thread until the returned event is set, so that the writes submitted
    meanwhile go into one batch. Returns (gate, the held write, an async wait until the writer
    thread is inside the held write)."""
    import asyncio
    import threading

    gate, inside = threading.Event(), threading.Event()

    def hold(cur):
        inside.set()
        return gate.wait(60)

    async def held_now() -> None:
        assert await asyncio.to_thread(inside.wait, 60), "the writer never took the held write"

    return gate, store.write(hold), held_now


async def _queued(store, n: int) -> None:
    """Wait (yielding to the loop, a hang guard of 60 s) until `n` writes wait for the writer."""
    import asyncio
    import time

    deadline = time.monotonic() + 60
    while len(store._writer._pending) < n:
        assert time.monotonic() < deadline, f"{len(store._writer._pending)} of {n} writes queued"
        await asyncio.sleep(0)


def test_group_commit_batches_and_isolates_each_write(tmp_path):
    """Writes that queue up go into one transaction; one that raises (here after writing) is
    rolled back alone, the others are committed; each caller gets its own result."""
    import asyncio
    import sqlite3

    url, store = _store(tmp_path)

    def insert(code, fail=False):
        def fn(cur):
            cur.execute("INSERT INTO actions (table_id, idx, seat, text, \"by\", at) "
                        "VALUES (?, ?, 0, ?, 'player', 0)", (tid, int(code), code))
            if fail:
                raise ValueError("boom")
            return code
        return fn

    async def main():
        nonlocal tid
        tid = await store.create_table(*_new_table("GC1"))
        gate, held, held_now = _held_batch(store)
        held = asyncio.ensure_future(held)
        await held_now()                                # the writer thread is now held
        before = store._writer.batches
        futs = [asyncio.ensure_future(store.write(insert(str(i), fail=(i == 2))))
                for i in range(5)]
        await _queued(store, 5)
        gate.set()
        results = await asyncio.gather(*futs, return_exceptions=True)
        await held
        assert store._writer.batches - before == 2        # the held one, then all five
        assert results[:2] == ["0", "1"] and results[3:] == ["3", "4"]
        assert isinstance(results[2], ValueError)
        await store.close()

    tid = 0
    run_async(main())
    con = sqlite3.connect(url.sync_url.database)
    assert [r[0] for r in con.execute("SELECT text FROM actions ORDER BY idx")] == \
        ["0", "1", "3", "4"]


def test_group_commit_conflict_fails_only_its_decision(tmp_path):
    """Two optimistic changes of one table from the same version in one batch: the first is
    committed, the second gets Conflict and writes nothing; another table's change in the same
    batch is not affected. A taken table code is an IntegrityError (the lobby retries)."""
    import asyncio

    import pytest as _pytest
    from sqlalchemy.exc import IntegrityError

    from cardtable.server.store.db import Conflict

    _url, store = _store(tmp_path)

    async def change(tid, row, idx, text):
        async with store.locked(tid, row) as tx:
            await tx.append(idx, [(0, text, "player")])
            tx.set(status="playing")
        return tx.row["version"]

    async def main():
        a = await store.create_table(*_new_table("AAA"))
        b = await store.create_table(*_new_table("BBB"))
        ra, rb = await store.table_row(a), await store.table_row(b)
        gate, held, held_now = _held_batch(store)
        held = asyncio.ensure_future(held)
        await held_now()
        futs = [asyncio.ensure_future(change(a, ra, 0, "first")),
                asyncio.ensure_future(change(a, ra, 0, "second")),
                asyncio.ensure_future(change(b, rb, 0, "other")),
                asyncio.ensure_future(store.create_table(*_new_table("AAA")))]
        await _queued(store, 4)
        gate.set()
        res = await asyncio.gather(*futs, return_exceptions=True)
        await held
        assert res[0] == ra["version"] + 1 and res[2] == rb["version"] + 1
        assert isinstance(res[1], Conflict)
        assert isinstance(res[3], IntegrityError)
        assert await store.all_actions(a) == ["first"]
        assert await store.all_actions(b) == ["other"]
        assert (await store.table_row(a))["version"] == ra["version"] + 1
        # and the next change after the conflict goes through as usual
        ra2 = await store.table_row(a)
        assert await change(a, ra2, 1, "third") == ra2["version"] + 1
        assert await store.all_actions(a) == ["first", "third"]
        with _pytest.raises(Conflict):
            await change(a, ra2, 2, "stale")
        await store.close()

    run_async(main())


def test_group_commit_acknowledges_only_after_commit(tmp_path):
    """When a write's await returns, another connection already sees it (committed); a batch
    whose COMMIT fails gives every write of it the error."""
    import asyncio
    import sqlite3

    url, store = _store(tmp_path)
    path = url.sync_url.database

    async def main():
        tid = await store.create_table(*_new_table("CCC"))
        row = await store.table_row(tid)
        for i in range(20):
            async with store.locked(tid, row) as tx:
                await tx.append(i, [(0, f"d{i}", "player")])
            row = dict(tx.row)
            other = sqlite3.connect(path)
            n = other.execute("SELECT count(*) FROM actions WHERE table_id = ?",
                              (tid,)).fetchone()[0]
            other.close()
            assert n == i + 1
        # a failing COMMIT (a deferred foreign key violated): nothing of the batch is kept
        gate, held, held_now = _held_batch(store)
        held = asyncio.ensure_future(held)
        await held_now()

        def bad(cur):
            cur.execute("PRAGMA defer_foreign_keys = ON")
            cur.execute("INSERT INTO actions (table_id, idx, seat, text, \"by\", at) "
                        "VALUES (999, 0, 0, 'x', 'player', 0)")

        def good(cur):
            cur.execute("INSERT INTO actions (table_id, idx, seat, text, \"by\", at) "
                        "VALUES (?, 100, 0, 'y', 'player', 0)", (tid,))

        futs = [asyncio.ensure_future(store.write(good)), asyncio.ensure_future(store.write(bad))]
        await _queued(store, 2)
        gate.set()
        res = await asyncio.gather(*futs, return_exceptions=True)
        await held
        assert all(isinstance(r, Exception) for r in res)
        assert "y" not in await store.all_actions(tid)
        await store.close()

    run_async(main())


def test_hub_keeps_a_runtime_while_anyone_holds_it(tmp_path):
    """Hub.runtime pins; a runtime is dropped only when every holder has released it. (A
    WebSocket that was still looking up its token lost its runtime to a lobby poll's release
    and then heard nothing of the table.)"""
    import asyncio

    from cardtable.server.config import Settings
    from cardtable.server.tables.hub import Hub

    url, store = _store(tmp_path)
    rec = new_game("abluxxen", variant="duel", seed=3).record()
    values, rows = _new_table("PIN1")
    values["base"] = {k: v for k, v in rec.items() if k != "actions"}
    values["settings"] = {}

    async def main():
        tid = await store.create_table(values, rows)
        hub = Hub(store, Settings(database=url))
        a = await hub.runtime(tid)                       # e.g. a connecting WebSocket
        b = await hub.runtime(tid)                       # e.g. the lobby listing tables
        assert a is b and a.pins == 2
        hub.release(b)
        assert hub.rts.get(tid) is a                     # still held by the first
        c = await hub.runtime(tid)
        assert c is a                                    # no second runtime of the table
        hub.release(c)
        hub.release(a)
        assert tid not in hub.rts                        # nobody holds it: dropped
        # loads that overlap share one runtime
        d, e = await asyncio.gather(hub.runtime(tid), hub.runtime(tid))
        assert d is e and d.pins == 2 and hub.rts[tid] is d
        hub.release(d)
        hub.release(e)
        assert tid not in hub.rts
        await store.close()

    run_async(main())


def test_bots_offered_per_game():
    """A trained policy plays only the game and player count it learned: the server offers
    it there and refuses it elsewhere with a reason."""
    import tempfile

    from fastapi.testclient import TestClient

    from cardtable.server import Settings, create_app
    from cardtable.server.guard.security import Limits

    with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
            database=f"{d}/b.db", announce=False, limits=Limits.off(), bot_workers=0))) as c:
        games = {g["game"]: g for g in c.get("/api/games").json()}
        assert "ppo" in games["abluxxen"]["bots"] and "ppo" not in games["kombio"]["bots"]
        r = c.post("/api/tables", json={"game": "kombio", "players": 2,
                                        "seats": [{"kind": "bot", "bot": "ppo"}] * 2})
        assert r.status_code == 422 and "does not play kombio" in r.json()["detail"]
        r = c.post("/api/tables", json={"game": "abluxxen", "players": 3,
                                        "seats": [{"kind": "bot", "bot": "ppo"}] * 3})
        assert r.status_code == 422 and "with 3 players" in r.json()["detail"]


def test_seat_names_and_event_words_in_the_players_language():
    """Issue 14: bots and free seats are named in each language, and a German log line of a
    bot's play has no English in it ('Bot 1 (easy) spielt 2×13' was the slip)."""
    from cardtable.core import new_game
    from cardtable.server.tables.views import describe, seat_names

    rows = [{"seat": 0, "kind": "human", "name": "Ann"}, {"seat": 1, "kind": "bot", "bot": "easy"},
            {"seat": 2, "kind": "human", "name": None}]
    assert seat_names(rows, "en") == ["Ann", "Bot 2", "Seat 3"]      # counted from 1
    assert seat_names(rows, "de") == ["Ann", "Bot 2", "Platz 3"]
    g = new_game("abluxxen", players=3, seed=1)
    before = g.view(0)
    actor = g.to_move
    g.apply(g.legal()[0])
    line = describe("abluxxen", before, g.history[-1], g.view(0), actor, 0,
                    seat_names(rows, "de"), "de")
    assert line and "easy" not in line and " plays" not in line
