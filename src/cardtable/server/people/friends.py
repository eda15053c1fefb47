"""Friends (docs/api.md, "Friends"): the store side of http/friend.py, who is
online, and the limits.

Why requests and not one-sided follows: a friend sees when you are online and may invite you
to a table (with a browser notification). Both are things one person does to another, so both
people must want them: a follow would let anybody who knows a name watch when its owner is
online. A request gives nothing until the other accepts it.

Requests are kept by name (`friend_requests`): the name as typed and its two lookalike keys
(security.name_keys), whether or not an account has that name. So the answer to a request,
the requester's list of sent requests and the work done are the same for a name nobody has,
for an account that declined, and for one that has not answered yet: no route tells which
names have accounts. The addressee sees the request (an account whose name has either key);
a declined request stays declined (the requester is not told and cannot ask again: asking
again changes nothing the addressee sees). Requests nobody answered lapse after
`REQUEST_DAYS` days.

Presence: an account is online while the table `presence` says it was seen in the last
`online_seconds` (every server process reads and writes the same rows, so it works with
several processes on PostgreSQL, with no messages between them). Seen means: a page of the
site polled GET /api/friends (the lobby does, every 10 s; written at most every `beat`
seconds), or the account has an open WebSocket to a table in some process (`Presence`
renews those every `beat` seconds). So a friend shows as online up to `online_seconds` after
their last page closed. Only friends see it.

Every operation is a generator of SQL statements run by accounts.read / accounts.write.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, OrderedDict

from cardtable.server.people.accounts import Op, write
from cardtable.server.guard.login_limits import Buckets

#: days a request nobody answered stays; pending requests one account may have out
REQUEST_DAYS = 30.0
MAX_SENT = 50
#: friends, requests and invitations listed at most
MAX_LIST = 500
MAX_INVITES = 20
#: Web Push subscriptions of an account for invitations
PUSH_PER_ACCOUNT = 4
DAY = 86400.0


class FriendLimits:
    """Per account, in this process (each process counts its own, as the other rates):
    friend requests (`request_burst`, then `requests_per_day`) and invitations
    (`invite_burst`, then `invites_per_hour`). 0 switches one off."""

    def __init__(self, requests_per_day: float = 20.0, request_burst: int = 10,
                 invites_per_hour: float = 60.0, invite_burst: int = 20,
                 max_keys: int = 100_000):
        self.requests = Buckets(requests_per_day / DAY, request_burst, max_keys)
        self.invites = Buckets(invites_per_hour / 3600.0, invite_burst, max_keys)


# -- requests ------------------------------------------------------------------------------------
def _friend_ids(me: int, other: int) -> Op:
    rows = yield ("SELECT 1 FROM friends WHERE account_id = :me AND friend_id = :o",
                  {"me": me, "o": other})
    return bool(rows)


def _befriend(a: int, b: int, now: float, keys_a: tuple[str, str], keys_b: tuple[str, str]
              ) -> Op:
    """Make `a` and `b` friends; their requests to each other go."""
    for x, y in ((a, b), (b, a)):
        yield ("INSERT INTO friends (account_id, friend_id, since) VALUES (:x, :y, :t) "
               "ON CONFLICT (account_id, friend_id) DO NOTHING", {"x": x, "y": y, "t": now})
    for x, keys in ((a, keys_b), (b, keys_a)):
        yield ("DELETE FROM friend_requests WHERE from_id = :x AND (to_key = :k OR "
               "to_key2 = :k2)", {"x": x, "k": keys[0], "k2": keys[1]})


def request(me: int, my_keys: tuple[str, str], name: str, keys: tuple[str, str]) -> Op:
    """`me` asks for the name `name` (lookalike keys `keys`). ("friends", their name) if
    they are friends now (already, or they had asked `me`: both want it); ("full", None) if
    `me` has `MAX_SENT` requests out; else ("sent", the request row). The same statements
    run whether or not an account has the name."""
    now = time.time()
    since = now - REQUEST_DAYS * DAY
    rows = yield ("SELECT id, name FROM accounts WHERE name_key = :a OR name_key2 = :b",
                  {"a": keys[0], "b": keys[1]})
    target, target_name = (rows[0][0], rows[0][1]) if rows else (-1, None)
    if (yield from _friend_ids(me, target)):
        return "friends", target_name
    asked = yield ("SELECT id FROM friend_requests WHERE from_id = :t AND (to_key = :k OR "
                   "to_key2 = :k2) AND (declined_at IS NOT NULL OR created_at > :since)",
                   {"t": target, "k": my_keys[0], "k2": my_keys[1], "since": since})
    if asked:                               # they asked me (even if I declined): friends now
        yield from _befriend(me, target, now, my_keys, keys)
        return "friends", target_name
    yield ("DELETE FROM friend_requests WHERE from_id = :me AND declined_at IS NULL AND "
           "created_at <= :since", {"me": me, "since": since})
    out = yield ("SELECT count(*) FROM friend_requests WHERE from_id = :me AND "
                 "withdrawn_at IS NULL AND created_at > :since AND to_key <> :k",
                 {"me": me, "k": keys[0], "since": since})
    if out[0][0] >= MAX_SENT:
        return "full", None
    # asking again: shown again to the requester (a lapsed one as new); a declined one
    # stays declined, so its addressee never sees it again
    yield ("INSERT INTO friend_requests (from_id, to_name, to_key, to_key2, created_at) "
           "VALUES (:me, :n, :k, :k2, :t) ON CONFLICT (from_id, to_key) DO UPDATE SET "
           "withdrawn_at = NULL, created_at = CASE WHEN friend_requests.created_at <= :since "
           "THEN :t ELSE friend_requests.created_at END",
           {"me": me, "n": name, "k": keys[0], "k2": keys[1], "t": now, "since": since})
    rows = yield ("SELECT id, to_name, created_at FROM friend_requests WHERE from_id = :me "
                  "AND to_key = :k", {"me": me, "k": keys[0]})
    return "sent", {"id": rows[0][0], "name": rows[0][1], "created_at": rows[0][2]}


#: a request to `me` (keys :k, :k2) that waits for an answer (params :me, :since), not from
#: an account `me` blocks (mod/moderation.py; the requester is not told)
_INCOMING = ("(r.to_key = :k OR r.to_key2 = :k2) AND r.declined_at IS NULL AND r.from_id <> :me "
             "AND r.created_at > :since AND NOT EXISTS (SELECT 1 FROM friends f WHERE "
             "f.account_id = :me AND f.friend_id = r.from_id) AND NOT EXISTS (SELECT 1 FROM "
             "blocks b WHERE b.blocker_id = :me AND b.blocked_id = r.from_id)")


def answer(me: int, my_keys: tuple[str, str], request_id: int, accept: bool) -> Op:
    """Accept or decline the request `request_id` addressed to `me`: the requester's name,
    or None if there is no such request (not `me`'s, answered, lapsed)."""
    now = time.time()
    p = {"id": request_id, "me": me, "k": my_keys[0], "k2": my_keys[1],
         "since": now - REQUEST_DAYS * DAY}
    rows = yield ("SELECT r.from_id, a.name, a.name_key, a.name_key2 FROM friend_requests r "
                  "JOIN accounts a ON a.id = r.from_id WHERE r.id = :id AND " + _INCOMING, p)
    if not rows:
        return None
    other, name, k, k2 = rows[0]
    if accept:
        yield from _befriend(me, other, now, my_keys, (k, k2))
    else:
        yield ("UPDATE friend_requests SET declined_at = :t WHERE id = :id",
               {"t": now, "id": request_id})
    return name


def withdraw(me: int, request_id: int) -> Op:
    """`me` takes back a request: gone from their list. A declined one stays declined (kept
    out of sight), so that asking again does not show it to its addressee again."""
    rows = yield ("SELECT declined_at FROM friend_requests WHERE id = :id AND from_id = :me "
                  "AND withdrawn_at IS NULL", {"id": request_id, "me": me})
    if not rows:
        return False
    if rows[0][0] is None:
        yield "DELETE FROM friend_requests WHERE id = :id", {"id": request_id}
    else:
        yield ("UPDATE friend_requests SET withdrawn_at = :t WHERE id = :id",
               {"t": time.time(), "id": request_id})
    return True


def remove(me: int, keys: tuple[str, str]) -> Op:
    """End the friendship of `me` with the friend whose name has these keys (both sides, and
    their invitations to each other). False if `me` has no such friend."""
    rows = yield ("SELECT f.friend_id FROM friends f JOIN accounts a ON a.id = f.friend_id "
                  "WHERE f.account_id = :me AND (a.name_key = :k OR a.name_key2 = :k2)",
                  {"me": me, "k": keys[0], "k2": keys[1]})
    if not rows:
        return False
    other = rows[0][0]
    p = {"me": me, "o": other}
    yield ("DELETE FROM friends WHERE (account_id = :me AND friend_id = :o) OR "
           "(account_id = :o AND friend_id = :me)", p)
    yield ("DELETE FROM invites WHERE (from_id = :me AND to_id = :o) OR "
           "(from_id = :o AND to_id = :me)", p)
    return True


def overview(me: int, my_keys: tuple[str, str], online_seconds: float) -> Op:
    """What the friends panel shows: friends (online or not), requests in and out, and the
    invitations to tables that still wait for players."""
    now = time.time()
    since = now - REQUEST_DAYS * DAY
    p = {"me": me, "k": my_keys[0], "k2": my_keys[1], "n": MAX_LIST, "since": since}
    rows = yield ("SELECT a.name, f.since, p.seen_at FROM friends f JOIN accounts a ON "
                  "a.id = f.friend_id LEFT JOIN presence p ON p.account_id = a.id WHERE "
                  "f.account_id = :me ORDER BY a.name LIMIT :n", p)
    friends = [{"name": n, "since": s, "online": seen is not None and seen > now - online_seconds}
               for n, s, seen in rows]
    rows = yield ("SELECT r.id, a.name, r.created_at FROM friend_requests r JOIN accounts a "
                  "ON a.id = r.from_id WHERE " + _INCOMING + " ORDER BY r.created_at DESC LIMIT :n", p)
    incoming = [{"id": i, "name": n, "created_at": t} for i, n, t in rows]
    # declined or not alike (the requester is never told)
    rows = yield ("SELECT id, to_name, created_at FROM friend_requests WHERE from_id = :me "
                  "AND withdrawn_at IS NULL AND created_at > :since "
                  "ORDER BY created_at DESC LIMIT :n", p)
    sent = [{"id": i, "name": n, "created_at": t} for i, n, t in rows]
    invites = yield from invites_of(me)
    return {"friends": friends, "incoming": incoming, "sent": sent, "invites": invites}


# -- invitations ---------------------------------------------------------------------------------
_OPEN_TABLE = ("t.status = 'waiting' AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id "
               "AND s.kind = 'human' AND s.joined_at IS NULL)")


def invites_of(me: int) -> Op:
    """Invitations to `me` from friends to tables that wait for players with a free seat (each
    says whether its table is rated)."""
    rows = yield ("SELECT i.id, a.name, t.code, t.game, i.created_at, t.rated FROM invites i JOIN "
                  "game_tables t ON t.id = i.table_id JOIN accounts a ON a.id = i.from_id "
                  "WHERE i.to_id = :me AND " + _OPEN_TABLE + " AND EXISTS (SELECT 1 FROM "
                  "friends f WHERE f.account_id = :me AND f.friend_id = i.from_id) "
                  "ORDER BY i.created_at DESC LIMIT :n", {"me": me, "n": MAX_INVITES})
    return [{"id": i, "from": n, "code": c, "game": g, "link": f"/t/{c}", "created_at": at,
             "rated": bool(r)} for i, n, c, g, at, r in rows]


class InviteRefused(Exception):
    def __init__(self, status: int, error: str, detail: str):
        super().__init__(detail)
        self.status, self.error = status, error


def invite(me: int, code: str, keys: tuple[str, str]) -> Op:
    """`me`, seated at the table `code` that waits for players with a free seat, invites the
    friend whose name has `keys`: (invite id, friend id, friend name, game, new); `new` is
    False if that invitation was there already. InviteRefused otherwise."""
    rows = yield ("SELECT t.id, t.game, t.status FROM game_tables t WHERE t.code = :c",
                  {"c": code})
    if not rows:
        raise InviteRefused(404, "no_table", "no such table")
    table_id, game, status = rows[0]
    seated = yield ("SELECT account_id FROM seats WHERE table_id = :t AND kind = 'human' "
                    "AND account_id IS NOT NULL", {"t": table_id})
    if me not in {r[0] for r in seated}:
        raise InviteRefused(403, "not_seated_here", "your account holds no seat at this table")
    free = yield ("SELECT count(*) FROM seats WHERE table_id = :t AND kind = 'human' AND "
                  "joined_at IS NULL", {"t": table_id})
    if status != "waiting" or not free[0][0]:
        raise InviteRefused(409, "no_free_seat", "this table has no free seat (any more)")
    rows = yield ("SELECT a.id, a.name FROM friends f JOIN accounts a ON a.id = f.friend_id "
                  "WHERE f.account_id = :me AND (a.name_key = :k OR a.name_key2 = :k2)",
                  {"me": me, "k": keys[0], "k2": keys[1]})
    if not rows:
        raise InviteRefused(404, "not_friend", "you have no friend of that name")
    friend, name = rows[0]
    if friend in {r[0] for r in seated}:
        raise InviteRefused(409, "friend_seated", "your friend sits at this table already")
    # invitations to tables that started or closed meanwhile go now
    yield ("DELETE FROM invites WHERE table_id IN (SELECT id FROM game_tables WHERE "
           "status <> 'waiting')", {})
    added = yield ("INSERT INTO invites (table_id, from_id, to_id, created_at) VALUES "
                   "(:t, :me, :f, :now) ON CONFLICT (table_id, to_id) DO NOTHING RETURNING id",
                   {"t": table_id, "me": me, "f": friend, "now": time.time()})
    if added:
        return added[0][0], friend, name, game, True
    rows = yield ("SELECT id FROM invites WHERE table_id = :t AND to_id = :f",
                  {"t": table_id, "f": friend})
    return rows[0][0], friend, name, game, False


def take_invite(me: int, invite_id: int, accept: bool) -> Op:
    """`me` accepts (the table's code, if it still waits with a free seat) or dismisses an
    invitation; either way it is gone. None: no such invitation, or its table filled up,
    started or closed."""
    rows = yield ("SELECT t.code FROM invites i JOIN game_tables t ON t.id = i.table_id "
                  "WHERE i.id = :id AND i.to_id = :me AND " + _OPEN_TABLE,
                  {"id": invite_id, "me": me})
    gone = yield ("DELETE FROM invites WHERE id = :id AND to_id = :me RETURNING id",
                  {"id": invite_id, "me": me})
    if not accept:
        return bool(gone)
    return rows[0][0] if rows else None


# -- Web Push for invitations ----------------------------------------------------------------------
def push_subscribe(me: int, endpoint: str, p256dh: str, auth: str, lang: str) -> Op:
    """Keep a subscription (the same endpoint again: its new keys); False if the account has
    `PUSH_PER_ACCOUNT` others."""
    p = {"me": me, "e": endpoint, "k": p256dh, "a": auth, "l": lang, "t": time.time(),
         "most": PUSH_PER_ACCOUNT}
    yield "DELETE FROM account_push WHERE account_id = :me AND endpoint = :e", p
    rows = yield ("SELECT count(*) FROM account_push WHERE account_id = :me", p)
    if rows[0][0] >= PUSH_PER_ACCOUNT:
        return False
    yield ("INSERT INTO account_push (account_id, endpoint, p256dh, auth, lang, created_at) "
           "VALUES (:me, :e, :k, :a, :l, :t)", p)
    return True


def push_unsubscribe(me: int, endpoint: str) -> Op:
    rows = yield ("DELETE FROM account_push WHERE account_id = :me AND endpoint = :e "
                  "RETURNING id", {"me": me, "e": endpoint})
    return len(rows)


def push_subs(account_id: int) -> Op:
    rows = yield ("SELECT id, endpoint, p256dh, auth, lang FROM account_push WHERE "
                  "account_id = :a", {"a": account_id})
    return [dict(zip(("id", "endpoint", "p256dh", "auth", "lang"), r)) for r in rows]


def push_drop(sub_id: int) -> Op:
    yield "DELETE FROM account_push WHERE id = :i", {"i": sub_id}


# -- presence --------------------------------------------------------------------------------------
def touch(account_ids: list[int], now: float) -> Op:
    for a in account_ids:
        yield ("INSERT INTO presence (account_id, seen_at) VALUES (:a, :t) ON CONFLICT "
               "(account_id) DO UPDATE SET seen_at = excluded.seen_at", {"a": a, "t": now})


class Presence:
    """Who is online as this process sees it: the accounts with an open WebSocket here
    (counted by http/friend.py PresenceMiddleware), renewed in the table `presence` every
    `beat` seconds while any is open, and the accounts whose pages polled (written at most
    every `beat` seconds an account)."""

    def __init__(self, store, beat: float = 20.0, online_seconds: float = 45.0):
        self.store = store                      # a callable: the Store, once started
        self.beat = beat
        self.online_seconds = online_seconds
        self.open: Counter[int] = Counter()
        self._written: OrderedDict[int, float] = OrderedDict()
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()

    async def seen(self, account_id: int) -> None:
        """A page of the account polled: written unless it was less than `beat` ago."""
        now = time.monotonic()
        last = self._written.get(account_id)
        if last is not None and now - last < self.beat:
            return
        self._written[account_id] = now
        self._written.move_to_end(account_id)
        while len(self._written) > 100_000:
            self._written.popitem(last=False)
        await write(self.store(), lambda: touch([account_id], time.time()))

    async def opened(self, account_id: int) -> None:
        self.open[account_id] += 1
        self._written.pop(account_id, None)
        await self.seen(account_id)
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.create_task(self._beat())

    def closed(self, account_id: int) -> None:
        self.open[account_id] -= 1
        if self.open[account_id] <= 0:
            del self.open[account_id]
        if not self.open:
            self._wake.set()

    async def _beat(self) -> None:
        while self.open:
            self._wake.clear()                # set again when the last connection closes
            try:
                await asyncio.wait_for(self._wake.wait(), self.beat)
            except TimeoutError:
                pass
            ids = sorted(self.open)
            if not ids:
                break
            try:
                await write(self.store(), lambda: touch(ids, time.time()))
            except Exception:                 # noqa: BLE001 -- the next beat tries again
                continue
            now = time.monotonic()
            for a in ids:
                self._written[a] = now
