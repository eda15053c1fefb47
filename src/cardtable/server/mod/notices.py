"""What moderators do about table talk and what every player is told: removing a chat line,
muting, warnings, the banner (announcements). Used by http/moderation.py and `cardtable
admin`, as mod/moderation.py is.

Chat lines (`chat.removed_at`, migration 0015): a removed line keeps its text for the
evidence; players get "removed by a moderator" instead of it. Mutes (`mutes`): an account
or a guest (`person`, as bans name one: a seat's client, or a spectator's browser as its
line keeps it, `line_writer`) may not write in table talk until `until` (talk/chat_store.py,
muted_until and spectator_muted_until read them).

Warnings (`warnings`, migration 0015): a moderator's text to an account, shown to it until it
marks it read. Announcements (`announcements`): the one banner shown in the lobby and at the
tables, in both languages, until it is ended or its `until` passes.

Every operation is a generator of SQL statements run by people.accounts.read / write.
"""

from __future__ import annotations

import time

from cardtable.server.mod.moderation import (ModError, audit, clean_reason, lift, named_account,
                                             restrict)
from cardtable.server.people.accounts import Op


# -- table talk ------------------------------------------------------------------------------------
def remove_line(actor: str, line: int, reason: str, notify: bool = False) -> Op:
    """Remove the chat line `line` (a player's or spectator's text or reaction): players get
    "removed by a moderator" instead of it (talk/chat.py), the row keeps its text for the
    evidence and the audit row carries it. `notify` (PostgreSQL): NOTIFY the servers'
    processes, which tell their connected clients. {"line", "table_id", "code", "name",
    "removed"} (`removed`: False if it had been removed already); `ModError` `no_line`."""
    reason = clean_reason(reason)
    rows = yield ("SELECT c.id, c.table_id, t.code, c.name, c.kind, c.text, c.removed_at, "
                  "c.seat, c.spectator FROM chat c JOIN game_tables t ON t.id = c.table_id "
                  "WHERE c.id = :l", {"l": line})
    if not rows or rows[0][4] not in ("text", "react"):
        raise ModError(f"there is no chat line {line}", "no_line", line=line)
    ident, table_id, code, name, kind, said, gone, seat, spectator = rows[0]
    out = {"line": ident, "table_id": table_id, "code": code,
           "name": name or f"spectator {spectator}", "removed": gone is None}
    if gone is not None:
        return out
    yield ("UPDATE chat SET removed_at = :t, removed_by = :a WHERE id = :l",
           {"t": time.time(), "a": actor[:80], "l": ident})
    yield from audit(actor, "remove_line", f"table {code} line {ident}", reason,
                     {"name": out["name"], "seat": seat, "kind": kind, "text": said})
    if notify:
        yield ("SELECT pg_notify(:ch, :p)", {"ch": "cardtable", "p": f"{table_id}:chat"})
    return out


def mute(actor: str, kind: str, target: str, shown: str, reason: str, until: float) -> Op:
    """Mute the `kind` (`account`, `person`) `target` in table talk until `until` (`shown`:
    how the audit log names it); a mute in force of the same target is replaced. The mute."""
    if kind not in ("account", "person"):
        raise ModError(f"unknown kind {kind!r}", "bad_kind")
    ident, reason, _ = yield from restrict("mutes", actor, "mute", kind, target, shown, reason,
                                           until)
    return {"id": ident, "kind": kind, "target": target, "reason": reason, "until": until}


def line_writer(line: int) -> Op:
    """Who wrote the chat line `line`, as a mute names them: ("account", id, how the audit
    log names it, how the moderator's answer names it) for an account's line (its seat's, or
    a spectator's session's), ("person", the person half, ...) for a guest's (its seat's
    client, or a spectator's browser: chat.person), ("none", ...) for a guest spectator whose
    browser gave no identity; None if there is no such line."""
    rows = yield ("SELECT t.code, c.seat, c.spectator, c.person, s.client, a.id, a.name "
                  "FROM chat c JOIN game_tables t ON t.id = c.table_id "
                  "LEFT JOIN seats s ON c.seat IS NOT NULL AND s.table_id = c.table_id AND "
                  "s.seat = c.seat LEFT JOIN accounts a ON a.id = COALESCE(s.account_id, "
                  "c.account_id) WHERE c.id = :l", {"l": line})
    if not rows:
        return None
    code, seat, spectator, person, client, account_id, name = rows[0]
    where = f"table {code} seat {seat}" if seat is not None else \
        f"table {code} spectator {spectator}"
    if account_id is not None:
        return ("account", str(account_id), f"account {name} (line {line})", name)
    if seat is not None and client and len(client) == 64:
        person = client[32:]
    if not person:
        return ("none", "", "", f"line {line}")
    return ("person", person, f"person {person[:8]} ({where}, line {line})", f"line {line}")


def mute_account(actor: str, keys: tuple[str, str], name: str, reason: str,
                 until: float) -> Op:
    """Mute the account named `name` in table talk until `until`."""
    account_id, shown, _ = yield from named_account(keys, name)
    out = yield from mute(actor, "account", str(account_id), f"account {shown}", reason, until)
    return dict(out, name=shown)


def unmute(actor: str, kind: str, target: str, shown: str, reason: str) -> Op:
    """Lift the mutes in force of `target`: how many."""
    return (yield from lift("mutes", actor, "unmute", kind, target, shown, reason))


def unmute_account(actor: str, keys: tuple[str, str], name: str, reason: str) -> Op:
    account_id, shown, _ = yield from named_account(keys, name)
    return (yield from unmute(actor, "account", str(account_id), f"account {shown}", reason))


# -- warnings --------------------------------------------------------------------------------------
def warn(actor: str, keys: tuple[str, str], name: str, text: str) -> Op:
    """Warn the account named `name` with `text` (it sees it at its next GET /api/me, until
    it marks it read): {"id", "name"}. The text is the audit row's reason too."""
    text = clean_reason(text)
    account_id, shown, _ = yield from named_account(keys, name)
    return (yield from warn_account(actor, account_id, f"account {shown}", shown, text))


def warn_account(actor: str, account_id: int, target: str, shown: str, text: str) -> Op:
    """Warn the account `account_id` with `text` (`target`: how the audit log names it,
    `shown`: its name): {"id", "name"}."""
    text = clean_reason(text)
    rows = yield ("INSERT INTO warnings (account_id, text, created_at, created_by) VALUES "
                  "(:i, :x, :t, :a) RETURNING id",
                  {"i": account_id, "x": text, "t": time.time(), "a": actor[:80]})
    yield from audit(actor, "warn", target, text, {"warning": rows[0][0]})
    return {"id": rows[0][0], "name": shown}


def unread_warnings(account_id: int) -> Op:
    """The account's unread warnings, oldest first: [{"id", "text", "at"}]."""
    rows = yield ("SELECT id, text, created_at FROM warnings WHERE account_id = :i AND "
                  "read_at IS NULL ORDER BY id", {"i": account_id})
    return [{"id": r[0], "text": r[1], "at": r[2]} for r in rows]


def read_warning(account_id: int, warning: int) -> Op:
    """The account has read its warning `warning`: whether it had one of that number."""
    rows = yield ("UPDATE warnings SET read_at = coalesce(read_at, :t) WHERE id = :w AND "
                  "account_id = :i RETURNING id", {"t": time.time(), "w": warning,
                                                   "i": account_id})
    return bool(rows)


# -- announcements ---------------------------------------------------------------------------------
ANNOUNCE_MAX = 300


def announce(actor: str, en: str, de: str, until: float | None) -> Op:
    """Post the banner (English and German words; shown until `until`, None: until ended) in
    place of the one before: {"id", "en", "de", "until"}. `ModError` `bad_announcement`."""
    en, de = " ".join((en or "").split()), " ".join((de or "").split())
    for lang, words in (("en", en), ("de", de)):
        if not words or len(words) > ANNOUNCE_MAX:
            raise ModError(f"the {lang} text has 1 to {ANNOUNCE_MAX} characters",
                           "bad_announcement", field=lang, most=ANNOUNCE_MAX)
    now = time.time()
    yield "UPDATE announcements SET ended_at = :t WHERE ended_at IS NULL", {"t": now}
    rows = yield ("INSERT INTO announcements (text_en, text_de, until, created_at, created_by) "
                  "VALUES (:e, :d, :u, :t, :a) RETURNING id",
                  {"e": en, "d": de, "u": until, "t": now, "a": actor[:80]})
    yield from audit(actor, "announce", "everybody", en, {"de": de, "until": until,
                                                          "announcement": rows[0][0]})
    return {"id": rows[0][0], "en": en, "de": de, "until": until}


def end_announcement(actor: str) -> Op:
    """End the banner shown: whether there was one."""
    now = time.time()
    rows = yield ("UPDATE announcements SET ended_at = :t WHERE ended_at IS NULL AND (until "
                  "IS NULL OR until > :t) RETURNING id", {"t": now})
    if rows:
        yield from audit(actor, "end_announcement", "everybody", "ended",
                         {"announcement": rows[0][0]})
    return bool(rows)


def current_announcement() -> Op:
    """The banner shown now ({"id", "en", "de", "until"}), or None."""
    rows = yield ("SELECT id, text_en, text_de, until FROM announcements WHERE ended_at IS NULL "
                  "AND (until IS NULL OR until > :t) ORDER BY id DESC LIMIT 1",
                  {"t": time.time()})
    return dict(zip(("id", "en", "de", "until"), rows[0])) if rows else None
