"""Moderation in the database: roles, the audit log, bans and suspensions, blocks and
reports (what moderators do about table talk, warnings and the banner: mod/notices.py) (docs/deploy.md, "Moderation"; migration 0013). Used by the HTTP routes
(http/moderation.py) and by the operator's `cardtable admin` (cli/admin_cmd.py), which runs
them on the database directly, without the server.

Roles (accounts.role): `player` (everybody), `moderator` (reports, bans, suspensions,
renames), `admin` (also roles and the audit log). Every moderator action writes one row of
`audit_log` in the same transaction as the action: who (`actor`: an account's name, or
`terminal:<user>` for the operator's command line), what (`action`), the target, when, why.

Bans (`bans`): a row with no `until` is a ban, one with `until` a suspension until then; it
is in force while it is not lifted and `until` has not passed. What it names (`kind`):
- `account`: an account (its id), refused wherever an account plays;
- `person`: the person half of seats.client (AddressKeys.seat_client's last 32 digits: a
  hash of the browser's client identity, or, for a guest without one, of its address), so a
  guest seen at a seat can be banned without anybody reading an address;
- `address`: an address group as the rate limits count it (netaddr.addr_group: an IPv4
  address, an IPv6 /64), as the operator typed it: everybody behind it.

Blocks (`blocks`): one row per (blocker, blocked); private to the blocker.

A ban or suspension made on PostgreSQL notifies every server process ("ban:<id>" on the
channel the tables use, tables/driver.py's Listener), which closes the open connections it
names (ws/bans.py); on SQLite the one server process does it at once.

Every operation is a generator of SQL statements run by people.accounts.read / write.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from datetime import datetime, timezone

from cardtable.server.people.accounts import Op, sql_marks
from cardtable.server.store.schema import NOTIFY_CHANNEL

ROLES = ("player", "moderator", "admin")
#: the reasons a report may give
REPORT_REASONS = ("abuse", "cheating", "spam", "name", "other")
#: the outcomes of a resolved report
OUTCOMES = ("no_action", "warned", "muted", "suspended", "banned", "renamed")
#: the kinds of bans
KINDS = ("account", "person", "address")
#: audit rows and reports listed at most
MAX_LIST = 500
REASON_MAX = 500
#: days the old name of a renamed account stays reserved (no new account may take it)
RESERVE_DAYS = 30

_DURATION = re.compile(r"^\s*(\d{1,6})\s*([mhdw])\s*$")
_UNIT = {"m": 60.0, "h": 3600.0, "d": 86400.0, "w": 7 * 86400.0}


class ModError(ValueError):
    """A moderation request that cannot be done: `error` is its code, `params` the details."""

    def __init__(self, message: str, error: str, **params):
        super().__init__(message)
        self.error = error
        self.params = params


def parse_until(text: str, now: float | None = None) -> float:
    """The end of a suspension: a duration (`30m`, `12h`, `3d`, `2w`) from now, or a date and
    time in ISO 8601 (`2026-12-24`, `2026-12-24T18:00Z`; UTC unless it names a zone), which
    must lie in the future. `ModError` (`bad_until`) otherwise."""
    now = time.time() if now is None else now
    m = _DURATION.match(text)
    if m:
        seconds = int(m.group(1)) * _UNIT[m.group(2)]
        if seconds <= 0:
            raise ModError("a suspension lasts at least a minute", "bad_until")
        return now + seconds
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ModError(f"{text!r} is neither a duration (30m, 12h, 3d, 2w) nor a date and time "
                       "(2026-12-24T18:00Z)", "bad_until") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    at = when.timestamp()
    if at <= now:
        raise ModError(f"{text!r} has passed already: a suspension ends in the future",
                       "bad_until")
    return at


def person_of_client(identity: str) -> str:
    """The person half of seats.client for a browser's client identity (as
    AddressKeys.seat_client makes it): what a `person` ban names."""
    return hashlib.sha256(b"cardtable person " + identity.encode("ascii")).hexdigest()[:32]


def clean_reason(reason: str) -> str:
    """`reason` with its spaces tidied; `ModError` if it is blank or too long."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ModError("give a reason (it goes into the audit log and, for a ban, to the "
                       "player)", "no_reason")
    if len(reason) > REASON_MAX:
        raise ModError(f"a reason has at most {REASON_MAX} characters", "long_reason",
                       most=REASON_MAX)
    return reason


def audit(actor: str, action: str, target: str, reason: str, detail: dict | None = None
          ) -> Op:
    """One row of the audit log."""
    yield ("INSERT INTO audit_log (at, actor, action, target, reason, detail) VALUES "
           "(:at, :actor, :action, :target, :reason, :detail)",
           {"at": time.time(), "actor": actor[:80], "action": action, "target": target[:120],
            "reason": reason, "detail": json.dumps(detail or {}, sort_keys=True)})


def audit_rows(limit: int = 100, action: str | None = None) -> Op:
    """The latest rows of the audit log, newest first."""
    where, p = ("WHERE action = :a", {"a": action}) if action else ("", {})
    rows = yield (f"SELECT id, at, actor, action, target, reason, detail FROM audit_log {where} "
                  "ORDER BY id DESC LIMIT :n", dict(p, n=min(limit, MAX_LIST)))
    return [{"id": r[0], "at": r[1], "actor": r[2], "action": r[3], "target": r[4],
             "reason": r[5], "detail": json.loads(r[6])} for r in rows]


# -- accounts and roles ----------------------------------------------------------------------------
def account_by_keys(keys: tuple[str, str]) -> Op:
    """(id, name, role) of the account named like `keys`, or None."""
    rows = yield ("SELECT id, name, role FROM accounts WHERE name_key = :a OR name_key2 = :b",
                  {"a": keys[0], "b": keys[1]})
    return tuple(rows[0]) if rows else None


def role_of(account_id: int) -> Op:
    rows = yield "SELECT role FROM accounts WHERE id = :i", {"i": account_id}
    return rows[0][0] if rows else None


def named_account(keys: tuple[str, str], name: str) -> Op:
    """The account named `name` (found by its name keys); `ModError` `no_account`."""
    found = yield from account_by_keys(keys)
    if found is None:
        raise ModError(f"no account is named {name!r}", "no_account", name=name)
    return found


def set_role(actor: str, keys: tuple[str, str], name: str, role: str, reason: str) -> Op:
    """Give the account named `name` the role `role`: (name, the role before)."""
    if role not in ROLES:
        raise ModError(f"unknown role {role!r}: one of {', '.join(ROLES)}", "bad_role")
    reason = clean_reason(reason)
    account_id, shown, before = yield from named_account(keys, name)
    if before != role:
        yield "UPDATE accounts SET role = :r WHERE id = :i", {"r": role, "i": account_id}
        yield from audit(actor, "role", shown, reason, {"from": before, "to": role})
    return shown, before


def staff() -> Op:
    """The accounts that are moderators or admins: (name, role), by name."""
    rows = yield ("SELECT name, role FROM accounts WHERE role <> 'player' ORDER BY role, name",
                  {})
    return [tuple(r) for r in rows]


def rename(actor: str, keys: tuple[str, str], name: str, new: str,
           new_keys: tuple[str, str], reason: str) -> Op:
    """Rename an account (its seats at unfinished tables keep their names; the account's
    name is what its friends, the leaderboard and new seats show): (old name, new name).
    The old name stays reserved for `RESERVE_DAYS` days: no new account may take it.
    `ModError` `name_taken` if another account has a name like `new`."""
    reason = clean_reason(reason)
    account_id, old, _ = yield from named_account(keys, name)
    other = yield from account_by_keys(new_keys)
    if other is not None and other[0] != account_id:
        raise ModError(f"the name {new!r} (or one that looks like it) has an account",
                       "name_taken", name=new)
    old_keys = tuple((yield ("SELECT name_key, name_key2 FROM accounts WHERE id = :i",
                             {"i": account_id}))[0])
    yield ("UPDATE accounts SET name = :n, name_key = :a, name_key2 = :b WHERE id = :i",
           {"n": new, "a": new_keys[0], "b": new_keys[1], "i": account_id})
    keys = old_keys
    if keys != new_keys:                    # the old name: nobody's to sign up with for a time
        yield ("DELETE FROM name_reservations WHERE name_key = :a OR until <= :t",
               {"a": keys[0], "t": time.time()})
        yield ("INSERT INTO name_reservations (name_key, name_key2, until) VALUES (:a, :b, :u)",
               {"a": keys[0], "b": keys[1], "u": time.time() + RESERVE_DAYS * 86400.0})
    yield from audit(actor, "rename", old, reason, {"to": new})
    return old, new


# -- bans and suspensions --------------------------------------------------------------------------
BAN_COLS = "id, kind, target, reason, until, created_at, created_by"


def _ban(r) -> dict:
    return dict(zip(("id", "kind", "target", "reason", "until", "created_at", "created_by"), r))


#: the tables of restrictions, each row in force until lifted or past its `until`: bans (no
#: `until`: for good) and mutes (mod/notices.py)
RESTRICTIONS = ("bans", "mutes")


def restrict(table: str, actor: str, action: str, kind: str, target: str, shown: str,
             reason: str, until: float | None) -> Op:
    """A row of `table` (RESTRICTIONS) for the `kind` `target` until `until`, in place of the
    one in force, and its audit row `action` (`shown`: how the audit log names the target):
    (its id, the reason as kept, the time)."""
    assert table in RESTRICTIONS
    reason = clean_reason(reason)
    now = time.time()
    yield (f"UPDATE {table} SET lifted_at = :t WHERE kind = :k AND target = :g AND lifted_at "
           "IS NULL", {"t": now, "k": kind, "g": target})
    rows = yield (f"INSERT INTO {table} (kind, target, reason, until, created_at, created_by) "
                  "VALUES (:k, :g, :r, :u, :t, :a) RETURNING id",
                  {"k": kind, "g": target, "r": reason, "u": until, "t": now, "a": actor[:80]})
    yield from audit(actor, action, shown, reason, {"kind": kind, "until": until,
                                                    table[:-1]: rows[0][0]})
    return rows[0][0], reason, now


def lift(table: str, actor: str, action: str, kind: str, target: str, shown: str,
         reason: str) -> Op:
    """Lift the rows of `table` (RESTRICTIONS) in force for the `kind` `target`, with an audit
    row `action` if there were any: how many."""
    assert table in RESTRICTIONS
    reason = clean_reason(reason)
    now = time.time()
    rows = yield (f"UPDATE {table} SET lifted_at = :t WHERE kind = :k AND target = :g AND "
                  "lifted_at IS NULL AND (until IS NULL OR until > :t) RETURNING id",
                  {"t": now, "k": kind, "g": target})
    if rows:
        yield from audit(actor, action, shown, reason, {"kind": kind,
                                                        table: [r[0] for r in rows]})
    return len(rows)


#: the payload of the NOTIFY of a new ban: "ban:<its id>"
BAN_NOTE = "ban"


def ban(actor: str, kind: str, target: str, shown: str, reason: str,
        until: float | None, notify: bool = False) -> Op:
    """Ban (`until` None) or suspend (until `until`) the `kind` `target` (`shown`: how the
    audit log names it). A ban in force of the same target is replaced (lifted). `notify`
    (PostgreSQL): NOTIFY the servers' processes, which close the connections it names
    (ws/bans.py). The ban."""
    if kind not in KINDS:
        raise ModError(f"unknown kind {kind!r}", "bad_kind")
    ident, reason, now = yield from restrict("bans", actor, "suspend" if until is not None
                                             else "ban", kind, target, shown, reason, until)
    if notify:
        yield ("SELECT pg_notify(:ch, :p)", {"ch": NOTIFY_CHANNEL, "p": f"{BAN_NOTE}:{ident}"})
    return {"id": ident, "kind": kind, "target": target, "reason": reason,
            "until": until, "created_at": now, "created_by": actor}


def ban_account(actor: str, keys: tuple[str, str], name: str, reason: str,
                until: float | None, notify: bool = False) -> Op:
    """Ban or suspend the account named `name`; its sessions stay (it keeps its data
    download), every route where it plays refuses it, its open connections close."""
    account_id, shown, _ = yield from named_account(keys, name)
    out = yield from ban(actor, "account", str(account_id), f"account {shown}", reason, until,
                         notify)
    return dict(out, name=shown)


def unban(actor: str, kind: str, target: str, shown: str, reason: str) -> Op:
    """Lift the bans in force of `target`: how many."""
    return (yield from lift("bans", actor, "unban", kind, target, shown, reason))


def unban_account(actor: str, keys: tuple[str, str], name: str, reason: str) -> Op:
    account_id, shown, _ = yield from named_account(keys, name)
    return (yield from unban(actor, "account", str(account_id), f"account {shown}", reason))


def active_bans(kind: str | None = None) -> Op:
    """The bans and suspensions in force, newest first (an account's with its name)."""
    now = time.time()
    where, p = ("AND b.kind = :k", {"k": kind}) if kind else ("", {})
    rows = yield (f"SELECT b.id, b.kind, b.target, b.reason, b.until, b.created_at, "
                  "b.created_by, a.name FROM bans b LEFT JOIN accounts a ON b.kind = 'account' "
                  "AND CAST(a.id AS TEXT) = b.target WHERE b.lifted_at IS NULL AND (b.until IS "
                  f"NULL OR b.until > :now) {where} ORDER BY b.id DESC LIMIT :n",
                  dict(p, now=now, n=MAX_LIST))
    return [dict(_ban(r[:7]), name=r[7]) for r in rows]


def ban_params(b: dict) -> dict:
    """What the player is told of a ban: the reason and, for a suspension, until when
    (epoch seconds and as UTC text)."""
    out = {"reason": b["reason"], "until": b["until"]}
    if b["until"] is not None:
        out["until_text"] = datetime.fromtimestamp(b["until"], timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC")
    return out


def ban_by_id(ident: int) -> Op:
    """The ban or suspension `ident` if it is in force, else None."""
    rows = yield (f"SELECT {BAN_COLS} FROM bans WHERE id = :i AND lifted_at IS NULL AND "
                  "(until IS NULL OR until > :now)", {"i": ident, "now": time.time()})
    return _ban(rows[0]) if rows else None


def ban_of(account_id: int | None, persons: list[str], address: str | None,
           accounts: tuple = ()) -> Op:
    """The ban or suspension in force of any of these (an account and `accounts`, the
    person halves of a client under each address key, an address group), or None: a ban
    before a suspension, else the suspension that ends last."""
    now = time.time()
    ids = {i for i in (account_id, *accounts) if i is not None}
    targets = [("account", str(i)) for i in sorted(ids)]
    targets += [("person", p) for p in persons if p]
    if address:
        targets.append(("address", address))
    if not targets:
        return None
    conds, params = [], {"now": now}
    for i, (k, g) in enumerate(targets):
        conds.append(f"(kind = :k{i} AND target = :g{i})")
        params.update({f"k{i}": k, f"g{i}": g})
    rows = yield (f"SELECT {BAN_COLS} FROM bans WHERE lifted_at IS NULL AND (until IS NULL OR "
                  f"until > :now) AND ({' OR '.join(conds)}) ORDER BY CASE WHEN until IS NULL "
                  "THEN 0 ELSE 1 END, until DESC LIMIT 1", params)
    return _ban(rows[0]) if rows else None


def connection_ban(account_id: int | None, table_id: int, seat: int | None,
                   address: str | None, persons: tuple = ()) -> Op:
    """The ban or suspension in force of a table connection (ws/bans.py): of its session's
    account, of the account and the person half of the client holding its seat, of the
    person halves of its own browser (`persons`: its client identity, or a guest without one,
    its address, as http/refusals.py counts them; a spectator's too), of its address group;
    or None."""
    persons, accounts = list(persons), []
    if seat is not None:
        rows = yield ("SELECT account_id, client FROM seats WHERE table_id = :t AND seat = :s",
                      {"t": table_id, "s": seat})
        if rows:
            accounts.append(rows[0][0])
            client = rows[0][1]
            if client and len(client) == 64:
                persons.append(client[32:])
    return (yield from ban_of(account_id, persons, address, tuple(accounts)))


def banned_seats(kind: str, target: str, table_ids: list[int]) -> Op:
    """The seats of the tables `table_ids` held by the account (`kind` account) or taken by
    the person (`kind` person) a ban names: [(table id, seat)]."""
    if kind not in ("account", "person") or not table_ids:
        return []
    marks, params = sql_marks("t", list(table_ids))
    if kind == "account":
        if not target.isdigit():
            return []
        cond, params["g"] = "account_id = :g", int(target)
    else:
        cond, params["g"] = "length(client) = 64 AND substr(client, 33) = :g", target
    rows = yield (f"SELECT table_id, seat FROM seats WHERE table_id IN ({marks}) AND {cond}",
                  params)
    return [(r[0], r[1]) for r in rows]


def seat_person(code: str, seat: int) -> Op:
    """The person half of the client that took seat `seat` of table `code` (seats.client),
    or None."""
    rows = yield ("SELECT s.client FROM seats s JOIN game_tables t ON t.id = s.table_id "
                  "WHERE t.code = :c AND s.seat = :s", {"c": code, "s": seat})
    client = rows[0][0] if rows else None
    return client[32:] if client and len(client) == 64 else None


# -- blocks ----------------------------------------------------------------------------------------
def block(me: int, keys: tuple[str, str]) -> Op:
    """`me` blocks the account named like `keys`: its name, or None if there is none (or
    it is `me`). The friendship ends, requests both ways and invitations both ways go."""
    rows = yield ("SELECT id, name FROM accounts WHERE name_key = :a OR name_key2 = :b",
                  {"a": keys[0], "b": keys[1]})
    if not rows or rows[0][0] == me:
        return None
    other, name = rows[0]
    yield ("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (:me, :o, :t) "
           "ON CONFLICT (blocker_id, blocked_id) DO NOTHING", {"me": me, "o": other,
                                                               "t": time.time()})
    p = {"me": me, "o": other}
    yield ("DELETE FROM friends WHERE (account_id = :me AND friend_id = :o) OR "
           "(account_id = :o AND friend_id = :me)", p)
    yield "DELETE FROM invites WHERE (from_id = :me AND to_id = :o) OR (from_id = :o AND to_id = :me)", p
    mine = yield "SELECT name_key, name_key2 FROM accounts WHERE id = :me", p
    yield ("DELETE FROM friend_requests WHERE from_id = :me AND (to_key = :a OR to_key2 = :b)",
           dict(p, a=keys[0], b=keys[1]))
    if mine:
        yield ("DELETE FROM friend_requests WHERE from_id = :o AND declined_at IS NULL AND "
               "(to_key = :a OR to_key2 = :b)", dict(p, a=mine[0][0], b=mine[0][1]))
    return name


def unblock(me: int, keys: tuple[str, str]) -> Op:
    """`me` no longer blocks the account named like `keys`: whether it was blocked."""
    rows = yield ("DELETE FROM blocks WHERE blocker_id = :me AND blocked_id IN (SELECT id FROM "
                  "accounts WHERE name_key = :a OR name_key2 = :b) RETURNING blocked_id",
                  {"me": me, "a": keys[0], "b": keys[1]})
    return bool(rows)


def blocked_by(me: int) -> Op:
    """The accounts `me` blocks: (name, since), by name."""
    rows = yield ("SELECT a.name, b.created_at FROM blocks b JOIN accounts a ON a.id = "
                  "b.blocked_id WHERE b.blocker_id = :me ORDER BY a.name", {"me": me})
    return [{"name": r[0], "since": r[1]} for r in rows]


def blocks_between(blocker_ids: list[int], blocked: int) -> Op:
    """Whether any of `blocker_ids` blocks `blocked`."""
    ids = [i for i in blocker_ids if i is not None]
    if not ids:
        return False
    marks, params = sql_marks("b", ids)
    rows = yield (f"SELECT 1 FROM blocks WHERE blocked_id = :x AND blocker_id IN ({marks})",
                  dict(params, x=blocked))
    return bool(rows)


def host_account(code: str, host_seat: int) -> Op:
    """The account holding the seat `host_seat` of the table `code`, or None."""
    rows = yield ("SELECT s.account_id FROM seats s JOIN game_tables t ON t.id = s.table_id "
                  "WHERE t.code = :c AND s.seat = :s", {"c": code, "s": host_seat})
    return rows[0][0] if rows else None


# -- reports ---------------------------------------------------------------------------------------
REPORT_COLS = ("id", "reporter", "target_name", "reason", "note", "evidence", "created_at",
               "claimed_by", "claimed_at", "resolved_at", "outcome", "resolution")


def _report(r) -> dict:
    out = dict(zip(REPORT_COLS, r))
    out["evidence"] = json.loads(out["evidence"])
    return out


_REPORT_SELECT = ("SELECT r.id, a.name, r.target_name, r.reason, r.note, r.evidence, "
                  "r.created_at, r.claimed_by, r.claimed_at, r.resolved_at, r.outcome, "
                  "r.resolution FROM reports r JOIN accounts a ON a.id = r.reporter_id ")


def file_report(reporter: int, target_id: int | None, target_name: str, reason: str,
                note: str, evidence: dict) -> Op:
    """A new report: its id."""
    if reason not in REPORT_REASONS:
        raise ModError(f"unknown reason {reason!r}: one of {', '.join(REPORT_REASONS)}",
                       "bad_reason")
    rows = yield ("INSERT INTO reports (reporter_id, target_id, target_name, reason, note, "
                  "evidence, created_at) VALUES (:r, :t, :n, :why, :note, :e, :at) RETURNING id",
                  {"r": reporter, "t": target_id, "n": target_name, "why": reason,
                   "note": note, "e": json.dumps(evidence, ensure_ascii=False, sort_keys=True),
                   "at": time.time()})
    return rows[0][0]


def report_list(open_only: bool = True, reason: str | None = None) -> Op:
    """Reports, oldest open first (or with `open_only` false: newest first, resolved too)."""
    where = ["r.resolved_at IS NULL"] if open_only else []
    p: dict = {"n": MAX_LIST}
    if reason:
        where.append("r.reason = :why")
        p["why"] = reason
    clause = ("WHERE " + " AND ".join(where)) if where else ""
    order = "r.created_at, r.id" if open_only else "r.id DESC"
    rows = yield (_REPORT_SELECT + f"{clause} ORDER BY {order} LIMIT :n", p)
    return [_report(r) for r in rows]


def reports_of(reporter: int) -> Op:
    """The reports `reporter` filed, newest first: whether and how they were handled (not
    who handled them, nor the moderator's note)."""
    rows = yield (_REPORT_SELECT + "WHERE r.reporter_id = :r ORDER BY r.id DESC LIMIT :n",
                  {"r": reporter, "n": MAX_LIST})
    return [_report(r) for r in rows]


def claim_report(actor: str, report_id: int) -> Op:
    """`actor` takes the open report `report_id` on (again, if they had it): the report, or
    `ModError` (`no_report`, `report_claimed` by somebody else)."""
    rows = yield (_REPORT_SELECT + "WHERE r.id = :i", {"i": report_id})
    if not rows or rows[0][9] is not None:
        raise ModError("no such open report", "no_report")
    if rows[0][7] not in (None, actor):
        raise ModError(f"{rows[0][7]} has claimed this report", "report_claimed",
                       by=rows[0][7])
    yield ("UPDATE reports SET claimed_by = :a, claimed_at = :t WHERE id = :i",
           {"a": actor, "t": time.time(), "i": report_id})
    yield from audit(actor, "claim", f"report {report_id}", "claimed", {})
    rows = yield (_REPORT_SELECT + "WHERE r.id = :i", {"i": report_id})
    return _report(rows[0])


def resolve_report(actor: str, report_id: int, outcome: str, note: str) -> Op:
    """Close the open report `report_id` with `outcome` and a note (the action itself is a
    separate call, with its own audit row): the report."""
    if outcome not in OUTCOMES:
        raise ModError(f"unknown outcome {outcome!r}: one of {', '.join(OUTCOMES)}",
                       "bad_outcome")
    note = clean_reason(note)
    rows = yield ("UPDATE reports SET resolved_at = :t, outcome = :o, resolution = :n, "
                  "claimed_by = COALESCE(claimed_by, :a) WHERE id = :i AND resolved_at IS NULL "
                  "RETURNING id", {"t": time.time(), "o": outcome, "n": note, "a": actor,
                                   "i": report_id})
    if not rows:
        raise ModError("no such open report", "no_report")
    yield from audit(actor, "resolve", f"report {report_id}", note, {"outcome": outcome})
    rows = yield (_REPORT_SELECT + "WHERE r.id = :i", {"i": report_id})
    return _report(rows[0])


def account_data(account_id: int) -> Op:
    """What moderation keeps of an account, for its data download: its role, its bans and
    suspensions (reason, end, when, lifted; not who made them), the players it blocks, and
    the reports it filed (as GET /api/me/reports shows them)."""
    role = yield from role_of(account_id)
    rows = yield ("SELECT reason, until, created_at, lifted_at FROM bans WHERE kind = "
                  "'account' AND target = :k ORDER BY id", {"k": str(account_id)})
    bans = [dict(zip(("reason", "until", "created_at", "lifted_at"), r)) for r in rows]
    blocks = yield from blocked_by(account_id)
    reports = [{k: r[k] for k in ("target_name", "reason", "note", "created_at", "resolved_at",
                                  "outcome")} for r in (yield from reports_of(account_id))]
    return {"role": role, "bans": bans, "blocks": blocks, "reports": reports}


# -- annulled games ----------------------------------------------------------------------------
def annul_game(actor: str, code: str, reason: str, postgres: bool) -> Op:
    """Annul the finished rated game of table `code` (collusion, a fixed game): it stays in
    the records and the replay, marked annulled, but no longer counts: the ratings it touched
    are recomputed without it (people/ratings.py `recompute_without`), in this transaction,
    with one audit row. ModError `no_table` (no such table), `not_rated` (not a finished rated
    game), `annulled` (already annulled: nothing changes). Returns {code, game, players}."""
    from cardtable.core import registry
    from cardtable.server.people import ratings as R

    reason = clean_reason(reason)
    code = code.strip().upper()
    rows = yield ("SELECT id, game, status, rated, annulled_at FROM game_tables WHERE code = :c"
                  + (" FOR UPDATE" if postgres else ""), {"c": code})
    if not rows:
        raise ModError(f"there is no table {code}", "no_table", table=code)
    table_id, game, status, rated, annulled_at = rows[0]
    if not rated or status != "over":
        raise ModError(f"table {code} is not a finished rated game", "not_rated", table=code)
    if annulled_at is not None:
        raise ModError(f"the game of table {code} is already annulled", "annulled", table=code)
    yield ("UPDATE game_tables SET annulled_at = :t WHERE id = :i",
           {"t": time.time(), "i": table_id})
    players = yield from R.recompute_without(table_id, game,
                                             registry.info(game).lower_is_better, postgres)
    yield from audit(actor, "annul", f"table {code}", reason,
                     {"game": game, "players": players})
    return {"code": code, "game": game, "players": players}
