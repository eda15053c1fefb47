"""E-mail of accounts in the database: an optional address verified by a link, the tokens of
the links (verify an address, reset the password), and recovery codes. The routes are
http/email.py's; sending is mail/smtp.py's.

Tables (schema.py; migration 0014)
  account_emails  per account: the verified `address` (the only one that counts: a reset
                  goes only there) and its lower-cased `address_key`, the `pending` address
                  a verification message went to, the `lang` of the account's messages.
  email_tokens    the SHA-256 of a link's random token (`secrets.token_urlsafe(32)`: 256
                  bits; the database never holds the token), its account, its `purpose`
                  (`verify`, `reset`), the address it verifies, until when it is good. A use
                  deletes it (one use); a new link of the same purpose replaces the older.
  recovery_codes  the SHA-256 of each recovery code (80 random bits each: a fast hash is
                  enough, no guess can be tried offline with better odds than online), and
                  when it was used.

Every operation is a generator of SQL statements, run by accounts.read / accounts.write.
"""

from __future__ import annotations

import hashlib
import secrets
from email.errors import HeaderParseError
from email.headerregistry import Address

from cardtable.server.people.accounts import Op

#: seconds a password-reset link is good, and an address's verification link
RESET_SECONDS = 30 * 60.0
VERIFY_SECONDS = 2 * 86400.0
#: recovery codes made at once (the older ones stop working)
RECOVERY_CODES = 10
#: the longest address (RFC 5321's path limit less the brackets)
MAX_ADDRESS = 254
#: accounts at most one reset request by address reaches (an address may be on several)
MAX_RESET_ACCOUNTS = 5


class BadAddress(ValueError):
    """An address `clean_address` refuses."""


def clean_address(raw: str) -> str:
    """The address as stored: trimmed, `local@domain` in ASCII (the standard library's
    RFC 5322 parser), a domain with a dot, at most MAX_ADDRESS characters; BadAddress if not."""
    text = raw.strip()
    if not text or len(text) > MAX_ADDRESS or not text.isascii() or \
            any(c.isspace() or ord(c) < 32 or c in "<>,;\"()[]\\" for c in text):
        raise BadAddress("not an e-mail address like name@example.org")
    try:
        a = Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError):
        raise BadAddress("not an e-mail address like name@example.org") from None
    domain = a.domain
    if not a.username or "." not in domain.strip(".") or domain.startswith(".") or \
            domain.endswith(".") or ".." in domain or a.addr_spec != text:
        raise BadAddress("not an e-mail address like name@example.org")
    return text


def address_key(address: str) -> str:
    return address.lower()


def new_token() -> tuple[str, str]:
    """(token, its hash): the token goes into the link, the hash into the database."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(b"cardtable mail " + token.encode("utf-8", "replace")).hexdigest()


# -- the address ---------------------------------------------------------------------------------
COLS = ("address", "pending", "lang", "verified_at")


def of(account_id: int) -> Op:
    """The account's address row (address, pending, lang, verified_at), or None."""
    rows = yield ("SELECT address, pending, lang, verified_at FROM account_emails WHERE "
                  "account_id = :a", {"a": account_id})
    return dict(zip(COLS, rows[0])) if rows else None


def ask(account_id: int, address: str, lang: str, hashed: str, now: float) -> Op:
    """`address` awaits its verification (the verified one, if any, stays until then); the
    link's token `hashed` replaces any earlier verification link."""
    found = yield ("SELECT account_id FROM account_emails WHERE account_id = :a",
                   {"a": account_id})
    if found:
        yield ("UPDATE account_emails SET pending = :p, lang = :l, updated_at = :t WHERE "
               "account_id = :a", {"p": address, "l": lang, "t": now, "a": account_id})
    else:
        yield ("INSERT INTO account_emails (account_id, pending, lang, updated_at) VALUES "
               "(:a, :p, :l, :t)", {"p": address, "l": lang, "t": now, "a": account_id})
    yield ("DELETE FROM email_tokens WHERE account_id = :a AND purpose = 'verify'",
           {"a": account_id})
    yield ("INSERT INTO email_tokens (token_hash, account_id, purpose, address, created_at, "
           "expires) VALUES (:h, :a, 'verify', :p, :t, :e)",
           {"h": hashed, "a": account_id, "p": address, "t": now, "e": now + VERIFY_SECONDS})


def remove(account_id: int) -> Op:
    """The account has no address any more (nor one awaiting verification, nor links)."""
    yield "DELETE FROM email_tokens WHERE account_id = :a", {"a": account_id}
    yield "DELETE FROM account_emails WHERE account_id = :a", {"a": account_id}


def _take(hashed: str, purpose: str, now: float) -> Op:
    """The token's (account id, address) if it is good, deleting it: one use."""
    rows = yield ("DELETE FROM email_tokens WHERE token_hash = :h AND purpose = :p "
                  "RETURNING account_id, address, expires", {"h": hashed, "p": purpose})
    yield "DELETE FROM email_tokens WHERE expires <= :t", {"t": now}      # the stale ones
    if not rows or rows[0][2] <= now:
        return None
    return rows[0][0], rows[0][1]


def verify(hashed: str, now: float) -> Op:
    """Verify the address of a verification link: it becomes the account's address. The
    account's id, or None (an unknown, used or expired link, or an address changed since)."""
    found = yield from _take(hashed, "verify", now)
    if found is None:
        return None
    account_id, address = found
    done = yield ("UPDATE account_emails SET address = :p, address_key = :k, pending = NULL, "
                  "verified_at = :t, updated_at = :t WHERE account_id = :a AND pending = :p "
                  "RETURNING account_id",
                  {"p": address, "k": address_key(address), "t": now, "a": account_id})
    return account_id if done else None


# -- password reset ------------------------------------------------------------------------------
def by_address(address: str) -> Op:
    """The accounts whose verified address is `address` (case folded): [(id, address, lang)]."""
    rows = yield ("SELECT account_id, address, lang FROM account_emails WHERE address_key = "
                  ":k AND address IS NOT NULL ORDER BY account_id LIMIT :n",
                  {"k": address_key(address), "n": MAX_RESET_ACCOUNTS})
    return [tuple(r) for r in rows]


def by_name(keys: tuple[str, str]) -> Op:
    """The account of this name (its lookalike keys) if it has a verified address."""
    rows = yield ("SELECT e.account_id, e.address, e.lang FROM accounts a JOIN account_emails "
                  "e ON e.account_id = a.id WHERE (a.name_key = :a OR a.name_key2 = :b) AND "
                  "e.address IS NOT NULL", {"a": keys[0], "b": keys[1]})
    return [tuple(r) for r in rows]


def new_reset(account_id: int, hashed: str, now: float) -> Op:
    """A reset link's token (it replaces the account's earlier ones)."""
    yield ("DELETE FROM email_tokens WHERE account_id = :a AND purpose = 'reset'",
           {"a": account_id})
    yield ("INSERT INTO email_tokens (token_hash, account_id, purpose, created_at, expires) "
           "VALUES (:h, :a, 'reset', :t, :e)",
           {"h": hashed, "a": account_id, "t": now, "e": now + RESET_SECONDS})


def reset(hashed: str, pw_hash: str, now: float) -> Op:
    """Use a reset link: the account's new password hash, and every session of the account
    ends. (account id, sessions ended), or None for an unknown, used or expired link."""
    found = yield from _take(hashed, "reset", now)
    if found is None:
        return None
    account_id = found[0]
    yield ("UPDATE accounts SET password_hash = :h, password_at = :t WHERE id = :id",
           {"h": pw_hash, "t": now, "id": account_id})
    yield ("DELETE FROM email_tokens WHERE account_id = :a AND purpose = 'reset'",
           {"a": account_id})
    ended = yield "DELETE FROM sessions WHERE account_id = :a RETURNING id_hash", \
        {"a": account_id}
    return account_id, len(ended)


# -- recovery codes ------------------------------------------------------------------------------
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"          # no 0/o, 1/l/i


def new_codes() -> list[str]:
    """RECOVERY_CODES codes of 16 characters (about 79 bits), written in groups of four."""
    out = []
    for _ in range(RECOVERY_CODES):
        raw = "".join(secrets.choice(_ALPHABET) for _ in range(16))
        out.append("-".join(raw[i:i + 4] for i in range(0, 16, 4)))
    return out


def code_hash(code: str) -> str:
    """The hash of a code as typed: case, spaces and dashes do not matter."""
    bare = "".join(c for c in code.lower() if c.isalnum())
    return hashlib.sha256(b"cardtable recovery " + bare.encode("utf-8", "replace")).hexdigest()


def store_codes(account_id: int, codes: list[str], now: float) -> Op:
    """The account's recovery codes are these (the older ones stop working)."""
    yield "DELETE FROM recovery_codes WHERE account_id = :a", {"a": account_id}
    for c in codes:
        yield ("INSERT INTO recovery_codes (account_id, code_hash, created_at) VALUES "
               "(:a, :h, :t)", {"a": account_id, "h": code_hash(c), "t": now})


def codes_left(account_id: int) -> Op:
    rows = yield ("SELECT count(*) FROM recovery_codes WHERE account_id = :a AND used_at IS "
                  "NULL", {"a": account_id})
    return int(rows[0][0])


def recover(account_id: int, code: str, pw_hash: str, now: float) -> Op:
    """Use one recovery code of the account: its new password, every session ended. The
    sessions ended, or None if the code is not one of its unused codes."""
    done = yield ("UPDATE recovery_codes SET used_at = :t WHERE account_id = :a AND "
                  "code_hash = :h AND used_at IS NULL RETURNING id",
                  {"t": now, "a": account_id, "h": code_hash(code)})
    if not done:
        return None
    yield ("UPDATE accounts SET password_hash = :h, password_at = :t WHERE id = :id",
           {"h": pw_hash, "t": now, "id": account_id})
    ended = yield "DELETE FROM sessions WHERE account_id = :a RETURNING id_hash", \
        {"a": account_id}
    return len(ended)


def data(account_id: int) -> Op:
    """The data download's part: the address, the one awaiting verification, the language of
    the messages, when verified, and how many recovery codes are left (not the codes)."""
    row = yield from of(account_id)
    left = yield from codes_left(account_id)
    return {"email": row, "recovery_codes_left": left}
