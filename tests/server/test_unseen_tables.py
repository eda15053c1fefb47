"""A table whose creator never shows up (Settings.unseen_ttl, driver.Sweeper): a table at which a
seat was taken and no seat's player ever connected is deleted 10 minutes after it was made. It
used to last up to 7 days (`idle_ttl`), holding its creator's quotas and, with hard or expert
bots, a place among the tables with searching bots in all.

The whole server runs in the test's event loop with a `FakeClock` (pace_helpers.Local): the
minutes pass when the test advances the clock, nothing sleeps. SQLite and PostgreSQL."""

from __future__ import annotations

from helpers import run_async
from pace_helpers import Local, settle, until

from cardtable.server.clock import FakeClock

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
