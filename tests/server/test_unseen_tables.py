"""A table whose creator never shows up (Settings.unseen_ttl, driver.Sweeper): a table at which a
seat was taken and no seat's player ever connected is deleted 10 minutes after it was made. It
used to last up to 7 days (`idle_ttl`), holding its creator's quotas and, with hard or expert
bots, a place among the tables with searching bots in all.

The whole server runs in the test's event loop with a `FakeClock` (pace_helpers.Local): the
minutes pass when the test advances the clock, nothing sleeps. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from helpers import database_url, run_async
from pace_helpers import Local, settle, until

from cardtable.server.clock import FakeClock
from cardtable.server.config import DatabaseURL
from cardtable.server.store.db import Store
from cardtable.server.store.migrate import upgrade

MINUTE = 60.0
EXPERT = {"game": "kombio", "players": 2, "name": "Ann",
          "seats": [{"kind": "human"}, {"kind": "bot", "bot": "expert"}]}
EASY = {"game": "kombio", "players": 2, "name": "Bob",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}


def test_a_table_nobody_connected_to_expires_within_minutes(database):
    run_async(_unseen(database))


async def _unseen(database: str) -> None:
    clock = FakeClock()
    async with Local(database, clock) as srv:
        hub = srv.app.state.hub()
        sweeper = srv.app.state.drivers().sweeper
        never = (await srv.create(**EXPERT))["table"]["code"]          # Ann never connects
        watched = (await srv.create(**EXPERT))["table"]["code"]        # only a spectator
        played = await srv.create(**EASY)                               # Bob connects once
        lobby = (await srv.create(game="kombio", players=3))["table"]["code"]   # no seat taken
        bob = await srv.client(played["table"]["code"], played["join"]["token"])
        await bob.wait_for(lambda m: m["type"] == "welcome")
        spectator = await srv.client(watched)
        await spectator.wait_for(lambda m: m["type"] == "welcome")
        for c in (bob, spectator):
            await c.close()
        srv.clients.clear()
        await until(lambda: not any(rt.conns for rt in hub.rts.values()), "the clients left")
        codes = {"never": never, "watched": watched, "played": played["table"]["code"],
                 "lobby": lobby}

        async def there() -> set[str]:
            return {name for name, code in codes.items()
                    if (await srv.table(code)).status_code == 200}

        await clock.advance(9 * MINUTE)
        await settle(srv)
        await sweeper.sweep()
        assert await there() == set(codes)
        await clock.advance(2 * MINUTE)
        await settle(srv)
        await sweeper.sweep()              # (its own loop may have swept them first: woken too)
        gone = {rt.id for rt in hub.rts.values() if rt.code in (never, watched)}
        await until(lambda: not gone & set(hub.rts), "dropped")     # (PostgreSQL: notified)
        assert await there() == {"played", "lobby"}
        # Ann's quota of tables with searching bots is hers again
        assert (await srv.create(**EXPERT))["table"]["status"] == "playing"


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_tables_made_before_migration_0011_count_as_seen(kind, request, tmp_path):
    """A table of revision 0010 (its creator's seat taken, made long ago) is not taken for one
    nobody connected to: it keeps the expiry it had."""
    url = DatabaseURL(database_url(kind, request, tmp_path))
    upgrade(url, "0010")
    engine = sa.create_engine(url.sync_url)
    with engine.begin() as conn:
        meta = sa.MetaData()
        tables = sa.Table("game_tables", meta, autoload_with=conn)
        seats = sa.Table("seats", meta, autoload_with=conn)
        table_id = conn.execute(tables.insert().values(
            code="OLDTABLE", game="kombio", settings={"players": 2}, base={}, public=False,
            status="playing", n_actions=0, version=1, deadline=None, snap=None,
            rematch_code=None, created_at=1.0, updated_at=5.0, creator=None)
            .returning(tables.c.id)).scalar_one()
        conn.execute(seats.insert(), [
            {"table_id": table_id, "seat": 0, "kind": "human", "bot": None, "name": "Ann",
             "token_hash": "x" * 64, "away": False, "joined_at": 1.0, "client": None},
            {"table_id": table_id, "seat": 1, "kind": "bot", "bot": "easy", "name": None,
             "token_hash": None, "away": False, "joined_at": None, "client": None}])
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT seen_at FROM game_tables WHERE id = :i"),
                            {"i": table_id}).scalar() == 5.0
    engine.dispose()

    async def sweep() -> list[int]:
        store = Store(url)
        try:
            return await store.sweep(0.0, 0.0, unseen_before=1e12)
        finally:
            await store.close()
    assert run_async(sweep()) == []
