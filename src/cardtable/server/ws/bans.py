"""What a ban or a suspension does to the table connections (docs/deploy.md, "Moderation";
the bans themselves: mod/moderation.py).

- At once: the connections it names close (`cut`): each gets an `error` `banned` or
  `suspended` with `params` {"reason", "until", "until_text"} (the browser words it from its
  catalog) and is closed with code `BANNED` (4403). It names a connection by the account of
  its session cookie or of the seat it holds, by the person half of the client that took
  that seat or of its own browser (`Conn.persons`: a guest's, seated or watching), or by its
  address group. A seat whose player was cut is then left as a player leaves it (the
  `leave` message: the stand-in bot plays it to the end; a rated game counts as the
  player's loss); a table that waits or is over keeps it.
- On every server process: the moderators' route cuts this process's connections at once
  and, on PostgreSQL, the ban's NOTIFY ("ban:<id>", mod/moderation.py) reaches every process's
  Listener (tables/driver.py), which calls `notified`; on SQLite there is one process.
- Later: a connection that opens while a ban names it is refused the same way
  (`refusal`, ws/endpoint.py).
"""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket

from cardtable.server.guard.netaddr import addr_group
from cardtable.server.mod import moderation as M
from cardtable.server.people import accounts as A
from cardtable.server.people import sessions as S
from cardtable.server.tables.table_base import ProtocolError, log_failure

log = logging.getLogger("cardtable.server.ws")

#: the close code of a connection a ban or suspension names
BANNED = 4403


def message(b: dict) -> dict:
    """The `error` a banned or suspended connection gets before it closes."""
    p = M.ban_params(b)
    if b["until"] is None:
        return {"type": "error", "code": "banned", "message": f"you are banned: {b['reason']}",
                "params": p, "id": None}
    return {"type": "error", "code": "suspended", "params": p, "id": None,
            "message": f"you are suspended until {p['until_text']}: {b['reason']}"}


async def session_account(ws: WebSocket, hub) -> int | None:
    """The account of the connection's session cookie, or None."""
    if not S.has_session_cookie(ws.scope.get("headers", [])):
        return None
    found = await S.current(ws, hub.store, hub.settings.session_days * S.DAY)
    return found[0]["id"] if found else None


def persons(ws: WebSocket, addr: str, identity: str | None) -> tuple[str, ...]:
    """The person halves a `person` ban of the connection's browser names: of its client
    identity (`?client=`), or without one of its address, under each address key (as
    http/refusals.py counts a request's)."""
    keys = getattr(ws.app.state, "address_keys", None)
    return tuple(c[32:] for c in keys.seat_clients(addr, identity)) if keys else ()


async def refusal(hub, account_id: int | None, table_id: int, seat: int | None,
                  addr: str, persons: tuple = ()) -> dict | None:
    """The ban or suspension in force that names a connection opening now, or None."""
    return await A.read(hub.store, M.connection_ban(account_id, table_id, seat,
                                                    addr_group(addr), persons))


async def cut(hub, b: dict) -> int:
    """Close this process's table connections the ban `b` names (see the module's docstring)
    and leave the seats being played whose player was cut: how many connections."""
    rts = [rt for rt in list(hub.rts.values()) if rt.conns]
    if not rts:
        return 0
    kind, target = b["kind"], b["target"]
    seats = set(await A.read(hub.store, M.banned_seats(kind, target, [rt.id for rt in rts])))
    msg = message(b)
    cut_conns, left = 0, []
    for rt in rts:
        for c in list(rt.conns):
            if c.closed:
                continue
            if not ((c.seat is not None and (rt.id, c.seat) in seats)
                    or (kind == "account" and str(c.account_id) == target)
                    or (kind == "person" and target in c.persons)
                    or (kind == "address" and addr_group(c.addr) == target)):
                continue
            c.send(msg)
            c.send_close(BANNED)
            cut_conns += 1
            if c.seat is not None and (rt, c.seat) not in left:
                left.append((rt, c.seat))
    for rt, seat in left:
        if rt.status == "playing" and not rt.state.over and rt.seats[seat]["kind"] == "human":
            try:
                await rt.leave(seat)
            except ProtocolError:                   # over meanwhile, or left already
                pass
    if cut_conns:
        log.info("ban %s: %d connections closed, %d seats left", b["id"], cut_conns,
                 len(left))
    return cut_conns


async def _notified(hub, ident: int) -> None:
    b = await A.read(hub.store, M.ban_by_id(ident))
    if b is not None:
        await cut(hub, b)


def notified(hub, ident: int) -> None:
    """A NOTIFY "ban:<id>" from the database (any process's moderator, or the terminal)."""
    asyncio.ensure_future(_notified(hub, ident)).add_done_callback(log_failure)
