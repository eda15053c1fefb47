"""Who may create a table now (docs/deploy.md, "Under attack"): the quotas per client address
(an IPv6 client by its /56, netaddr.quota_group) and the caps in all, which hold however many
addresses a client has.

Per address (security.Limits): `tables` unfinished live tables and `turn_tables` unfinished
turn-based ones, counted apart (a turn-based game lasts days, a live one an evening), of all of
them `search_tables` with searching bots (`429 too_many_tables`, `too_many_turn_tables`,
`too_many_search_tables`), and a bucket of `new_tables_per_minute` tables created (`429
new_tables_rate`: creating and cancelling tables in a loop would take the budget in all alone).
A logged-in creator's tables are the account's (`account_key`): counted per account with the
same numbers (`too_many_account_tables`, `too_many_account_turn_tables`), not with the
address's, so the people of one household or NAT each have their own once logged in; the
bucket of new tables stays the address's.

In all: `all_tables` unfinished tables (`503 server_tables`); `all_search_tables_per_worker`
clients with unfinished tables with searching bots per bot worker process (`503
server_search_tables`): the bot pool serves its clients in turn (botpool.py), so a client's
second and third such table take nobody's place, and a client that has one may always make
another within its own quota; a
bucket of `all_new_tables_per_minute` tables created (`503 server_new_tables`; per server
process, the others are counted in the database). One client with many addresses meets
these caps, and then everybody does: they keep the server, its lobby and its bots usable for
the tables already there, at the price of new tables waiting a while. Rematches are not
counted: a finished game's rematch takes the place of its table.

The checks and the new table's insert run under one lock, so concurrent requests of one
process cannot pass a cap together (with several PostgreSQL processes, each checks the
database's counts before its insert: the caps in all may be passed by the few requests that
run at the same moment).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from sqlalchemy import String, cast, func, or_, select

from cardtable.server.store.db import Store, game_tables
from cardtable.server.guard.security import ClientLimits, Limits, TokenBucket

#: bots that search (their decisions cost up to seconds of CPU: limited per client and in all)
SEARCH_BOTS = ("ismcts", "pimc", "hard", "expert")
UNFINISHED = ("waiting", "playing")


def account_key(account_id: int) -> str:
    """The quota key (`game_tables.creator`) of the tables a logged-in account creates."""
    return f"account:{account_id}"


def is_turn(settings: dict) -> bool:
    """True if a table's settings make it turn-based (pace.py)."""
    return settings.get("pace") == "turn"


def searching(settings: dict) -> bool:
    """True if a table's settings seat a searching bot."""
    return any(s.get("bot") in SEARCH_BOTS for s in settings.get("seats") or [])


class Refused(Exception):
    """A table that may not be created now: the HTTP status, the English `detail`, the error
    code (catalog key `err.api.<error>`), its params and the seconds to wait (Retry-After)."""

    def __init__(self, status: int, detail: str, error: str, params: dict | None = None,
                 retry_after: float | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.error = error
        self.params = params or {}
        self.retry_after = retry_after

    def headers(self) -> dict | None:
        return None if self.retry_after is None else \
            {"Retry-After": str(max(1, math.ceil(self.retry_after)))}


class TableQuotas:
    """The quotas of one server process. `store` gives the Store (it exists from the app's
    start on), `bot_workers` the number of bot worker processes."""

    def __init__(self, limits: Limits, clients: ClientLimits, store: Callable[[], Store],
                 bot_workers: Callable[[], int]):
        self.limits = limits
        self.clients = clients
        self.store = store
        self.bot_workers = bot_workers
        self.lock = asyncio.Lock()
        self.bucket = TokenBucket(limits.all_new_tables_per_minute / 60.0,
                                  limits.all_new_tables_burst)

    def search_cap(self) -> int:
        """Clients with unfinished tables with searching bots in all (0: no cap)."""
        return self.limits.all_search_tables_per_worker * max(1, int(self.bot_workers() or 0))

    @asynccontextmanager
    async def admit(self, addr: str, creator: str | list[str], is_searching: bool,
                    turn: bool = False, account: bool = False) -> AsyncIterator[None]:
        """Hold the block (the new table's insert) if the client `addr` (its quota key
        `creator`, security.AddressKeys.client_key, or its keys under each address key:
        client_keys; a logged-in creator's `account_key`, with `account`) may create a
        (`turn`-based or live) table with(out) searching bots now; `Refused` if not."""
        async with self.lock:
            await self._check(addr, creator, is_searching, turn, account)
            yield

    async def _check(self, addr: str, creator: str | list[str], is_searching: bool,
                     turn: bool = False, account: bool = False) -> None:
        lim = self.limits
        store = self.store()
        most = lim.turn_tables if turn else lim.tables
        if most or lim.search_tables:
            mine = await store.unfinished_by_creator(creator)
            same = [t for t in mine if is_turn(t["settings"] or {}) == turn]
            if most and len(same) >= most:
                pace = "turn-based" if turn else "live"
                whose = "your account has" if account else "you have"
                what = "the most per account" if account else \
                    "the most per address: log in, an account has its own quota"
                raise Refused(429, f"{whose} {len(same)} unfinished {pace} tables ({what}): "
                                   "finish or leave one in My games first",
                              "too_many_" + ("account_" if account else "")
                              + ("turn_" if turn else "") + "tables", {"most": most})
            if is_searching and lim.search_tables and \
                    sum(searching(t["settings"]) for t in mine) >= lim.search_tables:
                raise Refused(429, f"you have {lim.search_tables} unfinished tables with hard "
                                   "or expert bots (the most per player): finish one first",
                              "too_many_search_tables", {"most": lim.search_tables})
        if lim.all_tables:
            n = await self.unfinished()
            if n >= lim.all_tables:
                raise Refused(503, f"the server has {n} unfinished tables (at most "
                                   f"{lim.all_tables}): join one in the lobby, or try again "
                                   "later", "server_tables", {"most": lim.all_tables}, 60)
        cap = self.search_cap()
        if is_searching and cap:
            holders = await self.searching_creators()
            keys = [creator] if isinstance(creator, str) else creator   # under every key
            if not holders.intersection(keys) and len(holders) >= cap:
                raise Refused(503, f"the server's bots are busy: {len(holders)} players have "
                                   f"unfinished tables with hard or expert bots (at most "
                                   f"{cap}); play with easier bots or try again later",
                              "server_search_tables", {"most": cap}, 60)
        if lim.all_new_tables_per_minute:
            self.bucket.take(0)                              # refill
            if self.bucket.tokens < 1.0:
                per = _per_minute(lim.all_new_tables_per_minute)
                raise Refused(503, f"the server makes at most {per} new tables a minute: try "
                                   "again shortly", "server_new_tables", {"most": per},
                              self.bucket.wait())
        wait = self.clients.new_table_ok(addr)
        if wait:
            per = _per_minute(lim.new_tables_per_minute)
            raise Refused(429, f"your address makes at most {per} new tables a minute: try "
                               "again shortly", "new_tables_rate", {"most": per}, wait)
        if lim.all_new_tables_per_minute:
            self.bucket.take()

    async def unfinished(self) -> int:
        """Tables in the database that are not over."""
        async with self.store().engine.connect() as conn:
            return (await conn.execute(select(func.count()).select_from(game_tables).where(
                game_tables.c.status.in_(UNFINISHED)))).scalar_one()

    async def searching_creators(self) -> set[str | None]:
        """The creators (security.client_key) of the tables in the database that are not over
        and have searching bots (the settings' text preselects, `searching` decides)."""
        text = cast(game_tables.c.settings, String)
        async with self.store().engine.connect() as conn:
            res = await conn.execute(select(game_tables.c.creator, game_tables.c.settings).where(
                game_tables.c.status.in_(UNFINISHED),
                or_(*(text.contains(f'"{b}"') for b in SEARCH_BOTS))))
            return {r.creator for r in res if searching(r.settings)}


def _per_minute(rate: float) -> int | float:
    return int(rate) if float(rate).is_integer() else rate
