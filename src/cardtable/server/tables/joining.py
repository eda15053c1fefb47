"""Taking a seat (POST /api/tables/{code}/join and /api/join).

A join is one change of the table: checked against the table as it is in the database and
written in one transaction. PostgreSQL locks the row for it; SQLite writes optimistically,
guarded by the row's version (db.BatchTx), so a join whose table another writer changed
between its read and its write (another process, a timer) gets `db.Conflict` and nothing
is written. Such a join catches up and is tried again, at most `JOIN_ATTEMPTS` times; one
that still loses is answered `409 table_busy` ("try again"), never a 500.

A join of a logged-in player at a rated table writes the seat's account in the same
transaction, after checking that the account holds no seat there yet; the database's unique
(table, account) index refuses a second one whatever the route (`409 rated_seat_held`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import IntegrityError

from cardtable.server.store.db import Conflict, token_hash
from cardtable.server.errors import ApiError, bad
from cardtable.server.tables.hub import Hub
from cardtable.server.tables.runtime import TableRuntime
from cardtable.server.guard.security import same_name

log = logging.getLogger("cardtable.server")

#: tries of one join that keeps losing the race for its table's row (each after catching up)
JOIN_ATTEMPTS = 8


def _held() -> ApiError:
    return ApiError(409, "your account holds a seat at this table already", "rated_seat_held")


async def join_seat(hub: Hub, rt: TableRuntime, name: str, want: int | None, client: str,
                    check_public_seats: Callable[[TableRuntime, str], Awaitable[None]] | None,
                    account_id: int | None = None) -> tuple[int, str]:
    """(seat, token) of `name` at the table `rt`: the seat `want`, or the first free human
    seat; `account_id`: the seat is that account's from the start (a rated table). ApiError
    409 if the name is taken (`same_name`), the seat or the table is full, the public table's
    limits refuse `client` (`check_public_seats`, None: no limits), the account holds a seat
    there already or the join kept losing the race for the row; 404 for a seat that is not a
    human one."""
    token = secrets.token_urlsafe(32)
    for attempt in range(JOIN_ATTEMPTS):
        try:
            seat = await _join_once(rt, name, want, client, token, check_public_seats,
                                    account_id)
        except IntegrityError:                  # the account took a seat here meanwhile
            raise _held() from None
        except Conflict:
            if attempt >= 2:
                log.warning("table #%d: a join lost the race for the table %d times", rt.id,
                            attempt + 1)
            await rt.refresh()
            continue
        return seat, token
    raise ApiError(409, "the table changed while you joined: try again", "table_busy")


async def _join_once(rt: TableRuntime, name: str, want: int | None, client: str, token: str,
                     check_public_seats, account_id: int | None) -> int:
    async with rt.change(lock_row=True) as ch:
        if account_id is not None and any(
                s.get("account_id") == account_id for s in await ch.tx.seats()):
            raise _held()
        taken = [s for s in rt.seats if s["kind"] == "human" and s["joined_at"]]
        if any(same_name(name, s["name"] or "") for s in taken):
            raise bad(f"the name {name!r} is taken at this table: choose another", 409,
                      "name_taken", name=name)
        if rt.public and check_public_seats is not None:
            await check_public_seats(rt, client)
        free = [s["seat"] for s in rt.seats
                if s["kind"] == "human" and s["joined_at"] is None]
        if want is not None:
            if not 0 <= want < rt.players or rt.seats[want]["kind"] != "human":
                raise bad("no such human seat", 404, "no_seat")
            if want not in free:
                raise bad("that seat is taken", 409, "seat_taken")
            seat = want
        elif free:
            seat = free[0]
        else:
            raise bad("the table is full", 409, "table_full")
        now = rt.hub.clock.now()
        mine = {} if account_id is None else {"account_id": account_id}
        await ch.update_seat(seat, name=name, token_hash=token_hash(token), joined_at=now,
                             client=client, **mine)
        if len(free) == 1 and rt.status == "waiting":
            meta = rt.next_meta(rt.state, rt.n, ch.seats_after(), now)
            meta["status"] = "playing"
            ch.tx.set(**meta)
    return seat
