"""Migration 0010 (turn-based tables, issue 33) on SQLite and PostgreSQL: a database of
revision 0006 with a running game upgrades in place; the game is a live one afterwards (its
pace NULL), is played on, and turn-based tables can be made next to it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from helpers import run_async
from pace_helpers import Local

from cardtable.core.record import new_game
from cardtable.server.clock import FakeClock
from cardtable.server.config import DatabaseURL
from cardtable.server.store.migrate import alembic_config, upgrade


def test_a_database_of_revision_0006_upgrades_and_its_game_goes_on(database):
    url = DatabaseURL(database)
    upgrade(url, "0006")
    rec = new_game("abluxxen", variant="duel", seed=5).record()
    base = {k: v for k, v in rec.items() if k != "actions"}
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        cols = {c["name"] for c in sa.inspect(conn).get_columns("game_tables")}
        assert "pace" not in cols and "waiting_for" not in cols
        meta = sa.MetaData()
        tables = sa.Table("game_tables", meta, autoload_with=conn)
        seats = sa.Table("seats", meta, autoload_with=conn)
        table_id = conn.execute(tables.insert().values(
            code="OLDGAME1", game="abluxxen", settings={"players": 2, "turn_seconds": None},
            base=base, public=False, status="playing", n_actions=0, version=1, deadline=None,
            snap=None, rematch_code=None, created_at=1.0, updated_at=1.0, creator=None)
            .returning(tables.c.id)).scalar_one()
        conn.execute(seats.insert(), [
            {"table_id": table_id, "seat": s, "kind": "bot", "bot": "random", "name": None,
             "token_hash": None, "away": False, "joined_at": None, "client": None}
            for s in range(2)])
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM cardtable_alembic_version")) \
            .scalar() == ScriptDirectory.from_config(alembic_config()).get_current_head()
        row = conn.execute(sa.text("SELECT code, pace, moved_at, reminded, waiting_for FROM "
                                   "game_tables WHERE id = :i"), {"i": table_id}).one()
        assert tuple(row) == ("OLDGAME1", None, None, None, None)
    engine.dispose()
    run_async(_goes_on(database))


async def _goes_on(database: str) -> None:
    async with Local(database, FakeClock()) as srv:
        t = (await srv.table("OLDGAME1")).json()
        assert t["pace"] == "live" and t["move_seconds"] is None
        c = await srv.client("OLDGAME1")                    # watched: its bots play on
        await c.wait_for(lambda m: m["type"] == "event" and m["index"] == 3)
        out = await srv.create(game="abluxxen", variant="duel", players=2, public=False,
                               pace="turn", move_seconds=259200, on_timeout="drop", name="Ann")
        assert out["table"]["pace"] == "turn" and out["table"]["move_seconds"] == 259200
        assert out["table"]["on_timeout"] == "drop"
        bad = await srv.http.post("/api/tables", json={"game": "abluxxen", "pace": "turn",
                                                       "move_seconds": 1000})
        assert bad.status_code == 422 and bad.json()["error"]
        bad = await srv.http.post("/api/tables", json={"game": "abluxxen", "pace": "live",
                                                       "on_timeout": "drop"})
        assert bad.status_code == 422 and bad.json()["error"] == "settings"
        bad = await srv.http.post("/api/tables", json={"game": "abluxxen", "pace": "turn",
                                                       "turn_seconds": 60})
        assert bad.status_code == 422 and bad.json()["error"] == "settings"
