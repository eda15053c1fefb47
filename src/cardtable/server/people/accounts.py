"""Accounts in the database: the store side of http/account.py.

Tables (schema.py; migration 0004)
  accounts  id, `name` as shown (security.clean_name: as strict as a seat's name), its two
            lookalike keys `name_key`, `name_key2` (security.name_keys; each unique, so no
            account is named like another, other scripts' lookalikes, case and spaces
            included), `password_hash` (Argon2id, passwords.py; '' for an account signed up
            with a passkey: no password matches it), `created_at`, `password_at`.
  sessions  `id_hash` (SHA-256 of the cookie's random value, sessions.py), `account_id`,
            `created_at`, `last_seen`, `expires`. Deleted with their account.
  seats     `account_id`: the account whose player holds the seat (taken while logged in,
            or a guest's seat claimed with its token at sign-up or log-in); at most one seat
            of a table (a unique index, migration 0012). An account that
            is deleted leaves its seats to nobody and without a name: the games stay in the
            other players' records, the seat named as a free seat is ("Seat 3", "Platz 3").

The data download (GET /api/me/data) reads, besides these, every other table that names the
account or its seats: its own lines of table talk (`chat_lines`), its seats as stored and their
push subscriptions (`seat_details`), its ratings (`ratings_data`), its friends, requests,
invitations, presence and push subscriptions (`friends_data`), and what moderation keeps of
it (`mod/moderation.py`, `account_data`: role, bans, blocks, reports filed).

Every operation is a generator of SQL statements (`yield sql, params` gives the rows), run
by `read` (a connection of the store's engine) or `write` (SQLite: the store's writer
thread, so no write waits on another; PostgreSQL: one transaction). The statements are plain
SQL understood by both databases.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from cardtable.server.store.db import Store, token_hash
from cardtable.server.store.tx import drive_sqlite

Op = Generator[tuple[str, dict], list, Any]

#: seats at most one request may claim with their tokens
MAX_CLAIM = 200
#: games at most listed by "my games" and by the data download
MAX_GAMES = 1000


async def read(store: Store, op: Op) -> Any:
    async with store.engine.connect() as conn:
        return await _drive_async(conn, op)


async def write(store: Store, make_op) -> Any:
    """Run the operation `make_op()` in one transaction (atomic)."""
    if store.url.is_postgres:
        async with store.engine.begin() as conn:
            return await _drive_async(conn, make_op())

    return await store.write(lambda cur: drive_sqlite(cur, make_op()))


async def _drive_async(conn, op: Op) -> Any:
    rows = None
    try:
        while True:
            sql, params = op.send(rows)
            res = await conn.execute(text(sql), params)
            rows = [tuple(r) for r in res.fetchall()] if res.returns_rows else []
    except StopIteration as stop:
        return stop.value


def sql_marks(prefix: str, values: list) -> tuple[str, dict]:
    names = [f"{prefix}{i}" for i in range(len(values))]
    return ", ".join(":" + n for n in names), dict(zip(names, values))


# -- accounts ---------------------------------------------------------------------------------
ACCOUNT_COLS = "id, name, password_hash, created_at, password_at"


def _account(r) -> dict | None:
    if r is None:
        return None
    return dict(zip(("id", "name", "password_hash", "created_at", "password_at"), r))


def by_keys(keys: tuple[str, str]) -> Op:
    """The account whose name looks like one with these keys, or None."""
    rows = yield (f"SELECT {ACCOUNT_COLS} FROM accounts WHERE name_key = :a OR name_key2 = :b",
                  {"a": keys[0], "b": keys[1]})
    return _account(rows[0] if rows else None)


def by_id(account_id: int) -> Op:
    rows = yield (f"SELECT {ACCOUNT_COLS} FROM accounts WHERE id = :id", {"id": account_id})
    return _account(rows[0] if rows else None)


def name_free(keys: tuple[str, str]) -> Op:
    """Whether a new account may take a name with these keys: no account has a lookalike
    name, and none had it before a moderator renamed it, in the last days
    (name_reservations, mod/moderation.py)."""
    if (yield from by_keys(keys)) is not None:
        return False
    rows = yield ("SELECT 1 FROM name_reservations WHERE (name_key = :a OR name_key2 = :b) "
                  "AND until > :t", {"a": keys[0], "b": keys[1], "t": time.time()})
    return not rows


async def create(store: Store, name: str, keys: tuple[str, str], pw_hash: str) -> int | None:
    """The new account's id; None if a lookalike name is taken (or reserved)."""
    now = time.time()

    def op() -> Op:
        if not (yield from name_free(keys)):
            return None
        rows = yield ("INSERT INTO accounts (name, name_key, name_key2, password_hash, "
                      "created_at, password_at) VALUES (:n, :a, :b, :h, :t, :t) RETURNING id",
                      {"n": name, "a": keys[0], "b": keys[1], "h": pw_hash, "t": now})
        return rows[0][0]
    try:
        return await write(store, op)
    except IntegrityError:                  # PostgreSQL: another process took it meanwhile
        return None


async def set_password(store: Store, account_id: int, pw_hash: str, keep: str | None) -> int:
    """A new password hash; ends every session of the account but `keep` (an id hash) and
    every password-reset link.
    The number of sessions ended."""
    def op() -> Op:
        yield ("UPDATE accounts SET password_hash = :h, password_at = :t WHERE id = :id",
               {"h": pw_hash, "t": time.time(), "id": account_id})
        # a password-reset link sent before stops working (people/email.py; migration 0014)
        yield ("DELETE FROM email_tokens WHERE account_id = :id AND purpose = 'reset'",
               {"id": account_id})
        return (yield from _end_sessions(account_id, keep))
    return await write(store, op)


async def rehash(store: Store, account_id: int, pw_hash: str) -> None:
    """The same password hashed with today's parameters (passwords.Passwords.needs_rehash)."""
    def op() -> Op:
        yield ("UPDATE accounts SET password_hash = :h WHERE id = :id",
               {"h": pw_hash, "id": account_id})
    await write(store, op)


async def delete(store: Store, account_id: int) -> None:
    """Delete the account, its sessions, passkeys, e-mail address and recovery codes. Its seats keep their games without a name and an
    account (its lines of table talk without the name); a table still being played is marked changed (its version), so every server
    process reads the seat's new name before its next change."""
    def op() -> Op:
        rows = yield ("SELECT DISTINCT table_id FROM seats WHERE account_id = :id",
                      {"id": account_id})
        # the player's lines of table talk lose the name too (they show "Seat N")
        yield ("UPDATE chat SET name = NULL WHERE seat IS NOT NULL AND EXISTS (SELECT 1 FROM "
               "seats s WHERE s.table_id = chat.table_id AND s.seat = chat.seat "
               "AND s.account_id = :id)", {"id": account_id})
        yield ("UPDATE seats SET name = NULL, account_id = NULL WHERE account_id = :id",
               {"id": account_id})
        if rows:
            marks, params = sql_marks("t", [r[0] for r in rows])
            yield (f"UPDATE game_tables SET version = version + 1 WHERE id IN ({marks}) "
                   "AND status <> 'over'", params)
        yield "DELETE FROM sessions WHERE account_id = :id", {"id": account_id}
        yield "DELETE FROM passkeys WHERE account_id = :id", {"id": account_id}       # 0009
        yield "DELETE FROM passkey_challenges WHERE account_id = :id", {"id": account_id}
        yield "DELETE FROM email_tokens WHERE account_id = :id", {"id": account_id}   # 0014
        yield "DELETE FROM account_emails WHERE account_id = :id", {"id": account_id}
        yield "DELETE FROM recovery_codes WHERE account_id = :id", {"id": account_id}
        # its bans go with it (a new account may get its id on SQLite); reports about it
        # stay, without the account (0013)
        yield ("UPDATE bans SET lifted_at = :t WHERE kind = 'account' AND target = :k AND "
               "lifted_at IS NULL", {"t": time.time(), "k": str(account_id)})
        yield "DELETE FROM accounts WHERE id = :id", {"id": account_id}
    await write(store, op)


# -- sessions ----------------------------------------------------------------------------------
async def new_session(store: Store, account_id: int, id_hash: str, lifetime: float,
                      replaces: str | None = None) -> None:
    """Store a session (`id_hash`); the session `replaces` (the cookie the client came with,
    if any) ends: a log-in always gets a new id (no session fixation)."""
    now = time.time()

    def op() -> Op:
        if replaces:
            yield "DELETE FROM sessions WHERE id_hash = :h", {"h": replaces}
        # the account's expired sessions go at its next log-in
        yield ("DELETE FROM sessions WHERE account_id = :a AND expires <= :t",
               {"a": account_id, "t": now})
        yield ("INSERT INTO sessions (id_hash, account_id, created_at, last_seen, expires) "
               "VALUES (:h, :a, :t, :t, :e)",
               {"h": id_hash, "a": account_id, "t": now, "e": now + lifetime})
    await write(store, op)


def session(id_hash: str, now: float) -> Op:
    """(account, session row) of a session that has not expired, or None."""
    rows = yield ("SELECT a.id, a.name, a.password_hash, a.created_at, a.password_at, "
                  "s.created_at, s.last_seen, s.expires FROM sessions s JOIN accounts a "
                  "ON a.id = s.account_id WHERE s.id_hash = :h AND s.expires > :now",
                  {"h": id_hash, "now": now})
    if not rows:
        return None
    r = rows[0]
    return _account(r[:5]), {"id_hash": id_hash, "created_at": r[5], "last_seen": r[6],
                             "expires": r[7]}


async def touch(store: Store, id_hash: str, expires: float) -> None:
    def op() -> Op:
        yield ("UPDATE sessions SET last_seen = :t, expires = :e WHERE id_hash = :h",
               {"t": time.time(), "e": expires, "h": id_hash})
    await write(store, op)


async def end_session(store: Store, id_hash: str) -> None:
    def op() -> Op:
        yield "DELETE FROM sessions WHERE id_hash = :h", {"h": id_hash}
    await write(store, op)


def _end_sessions(account_id: int, keep: str | None) -> Op:
    rows = yield ("DELETE FROM sessions WHERE account_id = :a AND id_hash <> :k "
                  "RETURNING id_hash", {"a": account_id, "k": keep or ""})
    return len(rows)


async def end_sessions(store: Store, account_id: int, keep: str | None = None) -> int:
    """End every session of the account (but `keep`); how many ended."""
    return await write(store, lambda: _end_sessions(account_id, keep))


def sessions_of(account_id: int) -> Op:
    rows = yield ("SELECT created_at, last_seen, expires FROM sessions WHERE account_id = :a "
                  "ORDER BY created_at", {"a": account_id})
    return [dict(zip(("created_at", "last_seen", "expires"), r)) for r in rows]


# -- seats -------------------------------------------------------------------------------------
async def claim(store: Store, account_id: int, tokens: list[str]) -> int:
    """Give the account the seats whose tokens the client holds (a guest's games, or a seat
    just taken while logged in); seats that belong to an account already stay as they are,
    and so does a seat at a table where the account holds a seat already (also a deleted
    account's seat there): an account holds at most one seat of a table (the unique
    (table, account) index, migration 0012). How many seats changed."""
    hashes = sorted({token_hash(t) for t in tokens[:MAX_CLAIM]})
    if not hashes:
        return 0

    def op() -> Op:
        marks, params = sql_marks("h", hashes)
        rows = yield (f"SELECT table_id, seat FROM seats WHERE account_id IS NULL AND "
                      f"kind = 'human' AND token_hash IN ({marks}) ORDER BY table_id, seat",
                      params)
        if not rows:
            return 0
        tmarks, tparams = sql_marks("t", sorted({r[0] for r in rows}))
        held = {r[0] for r in (yield (
            f"SELECT DISTINCT table_id FROM seats WHERE account_id = :a AND table_id IN "
            f"({tmarks})", dict(tparams, a=account_id)))}
        n = 0
        for table_id, seat in rows:
            if table_id in held:
                continue
            held.add(table_id)
            done = yield ("UPDATE seats SET account_id = :a WHERE table_id = :t AND "
                          "seat = :s AND account_id IS NULL RETURNING seat",
                          {"a": account_id, "t": table_id, "s": seat})
            n += len(done)
        return n
    for _ in range(2):
        try:
            return await write(store, op)
        except IntegrityError:      # PostgreSQL: a seat here became the account's meanwhile
            continue                # (read again: that table is held now)
    return await write(store, op)


#: new_seat_token's answer for an account whose seat a bot took for good (the player left)
LEFT = "left"


async def new_seat_token(store: Store, account_id: int, code: str, token: str
                         ) -> tuple[int, str | None, str] | str | None:
    """Give the account's seat at the unfinished table `code` a new token (the old one stops
    working): (seat, name, game); None if the account holds no seat there; `LEFT` if a bot
    took the seat for good (the player left the game, or a turn-based table dropped them:
    the seat row's kind is 'bot', so this holds after a restart and in every process)."""
    def op() -> Op:
        rows = yield ("SELECT s.table_id, s.seat, s.name, t.game, s.kind FROM seats s JOIN "
                      "game_tables t ON t.id = s.table_id WHERE t.code = :c AND "
                      "t.status <> 'over' AND s.account_id = :a ORDER BY s.seat",
                      {"c": code, "a": account_id})
        if not rows:
            return None
        table_id, seat, name, game, kind = rows[0]
        if kind != "human":
            return LEFT
        # the kind again in the write: a leave committed since the read wins
        done = yield ("UPDATE seats SET token_hash = :h WHERE table_id = :t AND seat = :s "
                      "AND kind = 'human' RETURNING seat",
                      {"h": token_hash(token), "t": table_id, "s": seat})
        return (seat, name, game) if done else LEFT
    return await write(store, op)


GAME_COLS = ("table_id", "code", "game", "settings", "status", "n_actions", "created_at",
             "updated_at", "seat", "version", "waiting_for", "deadline")

#: SQL: 0 where it is the seat `s.seat`'s move at table `t` (game_tables.waiting_for, pace.py)
YOUR_MOVE_FIRST = ("CASE WHEN t.status = 'playing' AND COALESCE(t.waiting_for, '') LIKE "
                   "'%,' || CAST(s.seat AS TEXT) || ',%' THEN 0 ELSE 1 END")


def games(account_id: int, limit: int = MAX_GAMES) -> Op:
    """The tables where the account holds a seat, those where it is the account's move first,
    then the latest changed first, with all their seats (kind, bot, name)."""
    rows = yield ("SELECT t.id, t.code, t.game, t.settings, t.status, t.n_actions, "
                  "t.created_at, t.updated_at, s.seat, t.version, t.waiting_for, t.deadline "
                  "FROM seats s JOIN game_tables t ON "
                  "t.id = s.table_id WHERE s.account_id = :a "
                  f"ORDER BY {YOUR_MOVE_FIRST}, t.updated_at DESC, t.id DESC LIMIT :n",
                  {"a": account_id, "n": limit})
    out = [dict(zip(GAME_COLS, r)) for r in rows]
    if not out:
        return out
    marks, params = sql_marks("t", [g["table_id"] for g in out])
    seat_rows = yield (f"SELECT table_id, seat, kind, bot, name, joined_at FROM seats "
                       f"WHERE table_id IN ({marks}) ORDER BY table_id, seat", params)
    by_table: dict[int, list[dict]] = {}
    for r in seat_rows:
        by_table.setdefault(r[0], []).append(dict(zip(
            ("seat", "kind", "bot", "name", "joined_at"), r[1:])))
    for g in out:
        if isinstance(g["settings"], str):               # SQLite through plain SQL
            g["settings"] = json.loads(g["settings"])
        g["seats"] = by_table.get(g["table_id"], [])
    return out


def actions_of(table_id: int) -> Op:
    rows = yield ("SELECT text FROM actions WHERE table_id = :t ORDER BY idx", {"t": table_id})
    return [r[0] for r in rows]


def base_of(table_id: int) -> Op:
    rows = yield "SELECT base FROM game_tables WHERE id = :t", {"t": table_id}
    if not rows:
        return None
    base = rows[0][0]
    return json.loads(base) if isinstance(base, str) else base


# -- the data download (GET /api/me/data) ------------------------------------------------------
#: lines of table talk at most in the data download (the latest)
MAX_LINES = 20_000


def _rows(cols: tuple[str, ...], rows: list) -> list[dict]:
    return [dict(zip(cols, r)) for r in rows]


def chat_lines(account_id: int, limit: int = MAX_LINES) -> Op:
    """The lines of table talk the account's player wrote at their seats (messages,
    reactions, the host's switching the talk off and on), oldest first: only their own, and
    only those written since they took the seat (a seat left before the start may have had
    another player). Lines written while watching as a spectator name no account: not here."""
    rows = yield ("SELECT t.code, c.channel, c.seat, c.name, c.kind, c.text, c.n, c.at "
                  "FROM chat c JOIN seats s ON s.table_id = c.table_id AND s.seat = c.seat "
                  "JOIN game_tables t ON t.id = c.table_id WHERE s.account_id = :a AND "
                  "c.seat IS NOT NULL AND (s.joined_at IS NULL OR c.at >= s.joined_at) "
                  "ORDER BY c.id DESC LIMIT :n", {"a": account_id, "n": limit})
    return _rows(("table", "channel", "seat", "name", "kind", "text", "actions_before", "at"),
                 rows)[::-1]


def seat_details(account_id: int) -> Op:
    """Per table code, what the account's seat row keeps beyond "my games": when it was
    taken, whether a bot plays it now, the address hash (seats.client: HMAC of the address
    group, then of the person; docs/deploy.md), and the seat's Web Push subscriptions (their
    endpoints and languages; the subscriptions' keys are the browser's secrets, not listed)."""
    rows = yield ("SELECT t.code, s.kind, s.away, s.joined_at, s.client, t.rated, t.pace "
                  "FROM seats s JOIN game_tables t ON t.id = s.table_id "
                  "WHERE s.account_id = :a", {"a": account_id})
    out = {r[0]: {"kind": r[1], "away": bool(r[2]), "joined_at": r[3], "address_hash": r[4],
                  "rated": bool(r[5]), "pace": r[6] or "live", "push": []} for r in rows}
    rows = yield ("SELECT t.code, p.endpoint, p.lang, p.created_at FROM push_subscriptions p "
                  "JOIN seats s ON s.table_id = p.table_id AND s.seat = p.seat "
                  "JOIN game_tables t ON t.id = p.table_id WHERE s.account_id = :a "
                  "ORDER BY p.id", {"a": account_id})
    for code, endpoint, lang, at in rows:
        out[code]["push"].append({"endpoint": endpoint, "lang": lang, "created_at": at})
    return out


def _player_names(keys: set[str]) -> Op:
    """Names of rating players ("a:<account id>": the account's name, None if deleted;
    "b:<bot>": the bot's name)."""
    ids = sorted({int(k[2:]) for k in keys if k.startswith("a:") and k[2:].isdigit()})
    names: dict[str, str | None] = {k: k[2:] for k in keys if k.startswith("b:")}
    if ids:
        marks, params = sql_marks("i", ids)
        for i, n in (yield (f"SELECT id, name FROM accounts WHERE id IN ({marks})", params)):
            names[f"a:{i}"] = n
    return names


def ratings_data(account_id: int) -> Op:
    """The account's ratings, one per game: mu, sigma, games, wins, the different players
    rated against (names), and the history (one entry per rated game: the table, the seat,
    the rank, whether the player left, the rating before and after)."""
    rows = yield ("SELECT game, mu, sigma, games, wins, opponents, updated_at FROM ratings "
                  "WHERE account_id = :a ORDER BY game", {"a": account_id})
    out = _rows(("game", "mu", "sigma", "games", "wins", "opponents", "updated_at"), rows)
    hist = yield ("SELECT h.game, t.code, h.seat, h.rank, h.left_game, h.mu_before, "
                  "h.sigma_before, h.mu_after, h.sigma_after, h.at FROM rating_history h "
                  "JOIN game_tables t ON t.id = h.table_id WHERE h.account_id = :a "
                  "ORDER BY h.id", {"a": account_id})
    opp = yield ("SELECT game, opponent FROM rating_opponents WHERE account_id = :a "
                 "ORDER BY game, opponent", {"a": account_id})
    names = yield from _player_names({o for _, o in opp})
    for r in out:
        r["history"] = [dict(zip(("table", "seat", "rank", "left_game", "mu_before",
                                  "sigma_before", "mu_after", "sigma_after", "at"), h[1:]),
                             left_game=bool(h[4])) for h in hist if h[0] == r["game"]]
        r["opponent_names"] = sorted((names.get(o) for g, o in opp
                                      if g == r["game"] and names.get(o)), key=str.casefold)
    return out


def friends_data(account_id: int, keys: tuple[str, str], request_days: float) -> Op:
    """The account's friends, its friend requests both ways, its invitations both ways, when
    it was last seen online and its Web Push subscriptions for invitations (endpoints and
    languages, not the browser's keys). A sent request is listed as the friends panel lists
    it (a declined one like any other: the requester is never told; one withdrawn after its
    decline not at all, as that would tell it); a received one with `declined_at` if the
    account declined it."""
    p = {"me": account_id, "k": keys[0], "k2": keys[1],
         "since": time.time() - request_days * 86400.0}
    friends = yield ("SELECT a.name, f.since FROM friends f JOIN accounts a ON "
                     "a.id = f.friend_id WHERE f.account_id = :me ORDER BY a.name", p)
    sent = yield ("SELECT to_name, created_at FROM friend_requests WHERE from_id = :me AND "
                  "withdrawn_at IS NULL AND created_at > :since ORDER BY created_at", p)
    received = yield ("SELECT a.name, r.created_at, r.declined_at FROM friend_requests r "
                      "JOIN accounts a ON a.id = r.from_id WHERE (r.to_key = :k OR "
                      "r.to_key2 = :k2) AND r.from_id <> :me AND (r.declined_at IS NOT NULL "
                      "OR r.created_at > :since) AND NOT EXISTS (SELECT 1 FROM friends f "
                      "WHERE f.account_id = :me AND f.friend_id = r.from_id) "
                      "ORDER BY r.created_at", p)
    invites = yield ("SELECT i.from_id = :me, a1.name, a2.name, t.code, t.game, i.created_at "
                     "FROM invites i JOIN accounts a1 ON a1.id = i.from_id JOIN accounts a2 "
                     "ON a2.id = i.to_id JOIN game_tables t ON t.id = i.table_id WHERE "
                     "i.from_id = :me OR i.to_id = :me ORDER BY i.id", p)
    seen = yield "SELECT seen_at FROM presence WHERE account_id = :me", p
    push = yield ("SELECT endpoint, lang, created_at FROM account_push WHERE account_id = :me "
                  "ORDER BY id", p)
    return {
        "friends": _rows(("name", "since"), friends),
        "requests_sent": _rows(("name", "created_at"), sent),
        "requests_received": _rows(("name", "created_at", "declined_at"), received),
        "invites_sent": [{"to": b, "table": c, "game": g, "created_at": t}
                         for mine, a, b, c, g, t in invites if mine],
        "invites_received": [{"from": a, "table": c, "game": g, "created_at": t}
                             for mine, a, b, c, g, t in invites if not mine],
        "last_seen_online": seen[0][0] if seen else None,
        "push_subscriptions": _rows(("endpoint", "lang", "created_at"), push),
    }
