"""The table talk's store: the table `chat` (schema.py; migration 0005_chat), one row per
message, reaction or change of the chat's mode, kept with the game (deleted with its table).

PostgreSQL: each insert sends NOTIFY `cardtable` with "table_id:chat", so the other processes
serving the table send the new row to their clients (chat.notified). SQLite: the writer thread
(one process)."""

from __future__ import annotations

import time

from sqlalchemy import insert, select, text

from cardtable.server.store.schema import NOTIFY_CHANNEL, row_dict, chat

_COLS = ("id", "channel", "seat", "spectator", "name", "kind", "text", "n", "at")


async def insert_chat(store, table_id: int, values: dict) -> dict:
    """Store one row (channel, seat, spectator, name, kind, text, n); the row with its id."""
    row = dict(values, table_id=table_id, at=time.time())
    if store.url.is_postgres:
        async with store.engine.begin() as conn:
            res = await conn.execute(insert(chat).values(**row).returning(chat.c.id))
            row["id"] = res.scalar_one()
            await conn.execute(text("SELECT pg_notify(:ch, :payload)"),
                               {"ch": NOTIFY_CHANNEL, "payload": f"{table_id}:chat"})
        return row
    cols = list(row)

    def run(cur) -> int:
        cur.execute(f"INSERT INTO chat ({', '.join(cols)}) VALUES "
                    f"({', '.join('?' for _ in cols)})", [row[c] for c in cols])
        return cur.lastrowid
    row["id"] = await store.write(run)
    return row


async def recent_chat(store, table_id: int, limit: int, channels: tuple[str, ...] | None = None
                      ) -> list[dict]:
    """The last `limit` rows of the table (of `channels`), oldest first."""
    q = select(chat).where(chat.c.table_id == table_id)
    if channels is not None:
        q = q.where(chat.c.channel.in_(channels))
    q = q.order_by(chat.c.id.desc()).limit(limit)
    async with store.engine.connect() as conn:
        rows = [row_dict(r) for r in await conn.execute(q)]
    return rows[::-1]


async def last_mode(store, table_id: int) -> bool:
    """True if the host's last change of the chat's mode turned it off."""
    q = (select(chat.c.kind).where(chat.c.table_id == table_id, chat.c.kind.in_(("off", "on")))
         .order_by(chat.c.id.desc()).limit(1))
    async with store.engine.connect() as conn:
        return (await conn.execute(q)).scalar() == "off"


async def blocked_seats(store, table_id: int, seat: int) -> set[int]:
    """The seats of the table held by accounts that the account holding `seat` blocks
    (mod/moderation.py, blocks): their lines are not sent to that seat."""
    q = text("SELECT s2.seat FROM seats s1 JOIN blocks b ON b.blocker_id = s1.account_id "
             "JOIN seats s2 ON s2.table_id = s1.table_id AND s2.account_id = b.blocked_id "
             "WHERE s1.table_id = :t AND s1.seat = :s")
    async with store.engine.connect() as conn:
        return {r[0] for r in await conn.execute(q, {"t": table_id, "s": seat})}


async def muted_until(store, table_id: int, seat: int) -> tuple[float, str] | None:
    """Until when and why the player at `seat` is muted in table talk (mod/moderation.py,
    mutes: its account's mute or, as bans name a guest, the person half of its seats.client;
    the one that ends last), or None."""
    q = text("SELECT m.until, m.reason FROM seats s JOIN mutes m ON m.lifted_at IS NULL AND "
             "m.until > :now AND ((m.kind = 'account' AND m.target = CAST(s.account_id AS "
             "TEXT)) OR (m.kind = 'person' AND length(s.client) = 64 AND "
             "m.target = substr(s.client, 33))) WHERE s.table_id = :t AND s.seat = :s "
             "ORDER BY m.until DESC LIMIT 1")
    async with store.engine.connect() as conn:
        row = (await conn.execute(q, {"t": table_id, "s": seat, "now": time.time()})).first()
    return (row[0], row[1]) if row else None


async def spectator_muted_until(store, account_id: int | None, person: str | None
                                ) -> tuple[float, str] | None:
    """Until when and why a spectator is muted in table talk (the mute that ends last), or
    None: what a spectator (no seat) is held to: the mute of its session's account and the
    mute of its browser's person (a guest muted from a line, as at a seat)."""
    targets = [("account", str(account_id))] if account_id is not None else []
    targets += [("person", person)] if person else []
    if not targets:
        return None
    cond = " OR ".join(f"(kind = :k{i} AND target = :g{i})" for i in range(len(targets)))
    params: dict = {"now": time.time()}
    for i, (k, g) in enumerate(targets):
        params[f"k{i}"], params[f"g{i}"] = k, g
    q = text(f"SELECT until, reason FROM mutes WHERE lifted_at IS NULL AND until > :now AND "
             f"({cond}) ORDER BY until DESC LIMIT 1")
    async with store.engine.connect() as conn:
        row = (await conn.execute(q, params)).first()
    return (row[0], row[1]) if row else None
