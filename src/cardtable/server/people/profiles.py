"""A player's identity in the database: the store side of http/profile.py.

Table (schema.py; migration 0018)
  profiles  `account_id` (deleted with its account), `avatar` (an index into the browser's
            generated avatars: AVATARS of them, a colour and a shape each, no picture is ever
            uploaded; NULL none), `line` (the profile line: plain text, at most LINE_MAX
            characters; '' none), `country` (an ISO 3166-1 alpha-2 code; NULL none),
            `updated_at`.

An account's identity is public where its name is: at the tables it sits at and in the
lobby; a moderator sees the line of a reported player. `clean_line` makes the line plain
text (controls and format characters out, spaces collapsed) and refuses markup.

Every operation is a generator of SQL statements run by accounts.read / accounts.write.
"""

from __future__ import annotations

import re
import time
import unicodedata

from babel import Locale

from cardtable.server.people.accounts import Op, sql_marks

#: the generated avatars to choose from (web/static/js/person.js draws avatar i: colour
#: i % 8, shape i // 8)
AVATARS = 24
#: the profile line's most characters (as a person counts them: code points after NFC)
LINE_MAX = 80
#: CLDR's two-letter territories that are not ISO 3166-1 alpha-2 country codes (exceptionally
#: reserved, user-assigned and macro-regions)
_NOT_ISO = frozenset({"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA",
                      "XB", "XK", "ZZ"})
#: the ISO 3166-1 alpha-2 codes a player may choose (Babel's CLDR territories)
COUNTRIES: tuple[str, ...] = tuple(sorted(
    c for c in Locale("en").territories if len(c) == 2 and c.isalpha() and c not in _NOT_ISO))
_COUNTRY_SET = frozenset(COUNTRIES)
#: text that looks like markup: a tag, a comment or a character reference
_MARKUP = re.compile(r"<\s*[/!?A-Za-z]|&(?:#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);")


class BadIdentity(ValueError):
    """A refused field: `field` and `why` (its catalog word), `params` for the message."""

    def __init__(self, field: str, why: str, msg: str, **params):
        super().__init__(msg)
        self.field, self.why, self.params = field, why, params


def clean_line(raw: str) -> str:
    """The profile line as stored: NFC, control and format characters gone, runs of spaces
    one space, trimmed. BadIdentity when it is longer than LINE_MAX or looks like markup."""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(" " if unicodedata.category(ch) in ("Zl", "Zp") or ch in "\t\r\n"
                   else ch for ch in text
                   if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
                   or ch in "\t\r\n")
    text = re.sub(r"\s+", " ", text).strip()
    if len(text) > LINE_MAX:
        raise BadIdentity("line", "long", f"the profile line has {len(text)} characters, "
                          f"at most {LINE_MAX}", most=LINE_MAX, n=len(text))
    if _MARKUP.search(text):
        raise BadIdentity("line", "markup", "the profile line is plain text, no HTML")
    return text


def check_avatar(avatar: int | None) -> int | None:
    if avatar is not None and not 0 <= avatar < AVATARS:
        raise BadIdentity("avatar", "unknown", f"avatar {avatar} is not one of 0 to "
                          f"{AVATARS - 1}", most=AVATARS - 1)
    return avatar


def check_country(country: str | None) -> str | None:
    if country is None or country == "":
        return None
    if country not in _COUNTRY_SET:
        raise BadIdentity("country", "unknown", f"{country[:8]!r} is not an ISO 3166-1 "
                          "alpha-2 country code")
    return country


def flag(country: str | None) -> str:
    """The country's flag: its code as two regional-indicator symbols ('' for none)."""
    return "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in country) if country else ""


def _out(row) -> dict:
    return {"avatar": row[0], "line": row[1] or "", "country": row[2]}


NONE = {"avatar": None, "line": "", "country": None}


def of_account(account_id: int) -> Op:
    """The account's identity (NONE when it chose none)."""
    rows = yield ("SELECT avatar, line, country FROM profiles WHERE account_id = :a",
                  {"a": account_id})
    return _out(rows[0]) if rows else dict(NONE)


def of_name(name: str) -> Op:
    """The identity of the account named `name` (NONE for no such account or none chosen)."""
    rows = yield ("SELECT p.avatar, p.line, p.country FROM accounts a "
                  "JOIN profiles p ON p.account_id = a.id WHERE a.name = :n", {"n": name})
    return _out(rows[0]) if rows else dict(NONE)


def put(account_id: int, avatar: int | None, line: str, country: str | None) -> Op:
    """Set the account's identity (every field: checked by the caller)."""
    p = {"a": account_id, "v": avatar, "l": line, "c": country, "t": time.time()}
    rows = yield ("UPDATE profiles SET avatar = :v, line = :l, country = :c, updated_at = :t "
                  "WHERE account_id = :a RETURNING account_id", p)
    if not rows:
        yield ("INSERT INTO profiles (account_id, avatar, line, country, updated_at) "
               "VALUES (:a, :v, :l, :c, :t) RETURNING account_id", p)
    return {"avatar": avatar, "line": line, "country": country}


def of_tables(codes: list[str]) -> Op:
    """The identities of the accounts seated at the tables `codes`: {code: {seat: identity}}
    (seats without an account, or whose account chose nothing, left out)."""
    if not codes:
        return {}
    marks, p = sql_marks("c", codes)
    rows = yield ("SELECT t.code, s.seat, p.avatar, p.line, p.country FROM game_tables t "
                  "JOIN seats s ON s.table_id = t.id "
                  "JOIN profiles p ON p.account_id = s.account_id "
                  f"WHERE t.code IN ({marks})", p)
    out: dict[str, dict[int, dict]] = {}
    for code, seat, *rest in rows:
        out.setdefault(code, {})[seat] = _out(rest)
    return out


def lines_of(names: list[str]) -> Op:
    """The profile lines of the accounts named `names` (a moderator's queue): {name: line}."""
    if not names:
        return {}
    marks, p = sql_marks("n", names)
    rows = yield ("SELECT a.name, p.line FROM accounts a JOIN profiles p ON p.account_id = a.id "
                  f"WHERE a.name IN ({marks})", p)
    return {name: line for name, line in rows if line}
