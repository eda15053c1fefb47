"""Account passwords: what a password may be, and its Argon2id hash.

The library: argon2-cffi (hynek/argon2-cffi, maintained since 2015, with every release on
PyPI): bindings to the reference C implementation of Argon2, the Password Hashing
Competition's winner, and its `PasswordHasher` defaults to Argon2id with RFC 9106's
"second recommended" parameters (3 passes, 64 MiB, 4 lanes). It writes PHC strings
(`$argon2id$v=19$m=65536,t=3,p=4$salt$hash`), so parameters can be raised later and old
hashes are re-hashed at the next log-in (`check_needs_rehash`). Hand-written hashing (or
hashlib.scrypt with parameters of our own choosing) would be code to get wrong.

What a password may be (`clean_password`):
- Unicode, normalised to NFKC, so the same password typed on another keyboard or input
  method (a composed "é" or "e" with a combining accent, full-width digits from a Japanese
  IME) is the same password (NIST SP 800-63B §5.1.1.2 asks for a normalisation; NFKC is the
  one RFC 8265's OpaqueString profile builds on). Control characters other than tab are
  refused: nobody types them, and a password that cannot be typed again locks its owner out.
- At least `PASSWORD_MIN` = 10 characters (after normalisation). Log-in is throttled online
  (login_limits.py), so the minimum is for the day the database leaks: 10 characters of a
  passphrase or of a password manager are far beyond an offline search at Argon2id's cost,
  8 (NIST's floor) are within reach for the usual human choices. Longer is always allowed.
- At most `PASSWORD_MAX` = 1024 characters: room for any passphrase or manager, while one
  request can still not make the server hash megabytes (Argon2 reads the password once, so
  the cost of 1024 characters is the cost of 10; the cap is for the request body).

An account without a password (one signed up with a passkey: its stored hash is '') and an
unknown name are checked against the hash of a random secret made when the process starts
and never kept: the same work and the same answer as a wrong password, and no password can
match it (nor would a match count: `verify` is True only for a stored Argon2 hash).

Hashing runs in a worker thread (64 MiB and tens of milliseconds each), at most
`HASH_CONCURRENCY` at a time in a process, so a burst of log-ins cannot take the server's
memory or both its cores; the others queue for it.
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

PASSWORD_MIN = 10
PASSWORD_MAX = 1024
#: password hashes computed at once in one process (each takes 64 MiB and about a tenth of a second of one core)
HASH_CONCURRENCY = 2


class BadPassword(ValueError):
    """A password `clean_password` refuses: `why` is `short`, `long` or `char`."""

    def __init__(self, message: str, why: str, **params):
        super().__init__(message)
        self.why = why
        self.params = params


def clean_password(raw: str) -> str:
    """The password as it is hashed: NFKC; `BadPassword` if it is too short or too long or
    holds a control character (see the module docstring)."""
    pw = unicodedata.normalize("NFKC", raw)
    for ch in pw:
        if ch != "\t" and unicodedata.category(ch) in ("Cc", "Cs"):
            raise BadPassword(f"a password may not contain the character U+{ord(ch):04X}",
                              "char", char=f"U+{ord(ch):04X}")
    if len(pw) < PASSWORD_MIN:
        raise BadPassword(f"a password has at least {PASSWORD_MIN} characters", "short",
                          least=PASSWORD_MIN)
    if len(pw) > PASSWORD_MAX:
        raise BadPassword(f"a password has at most {PASSWORD_MAX} characters", "long",
                          most=PASSWORD_MAX)
    return pw


def is_password_hash(stored: str | None) -> bool:
    """Whether an account's stored `password_hash` is a password's (an Argon2 PHC string),
    not '' (an account signed up with a passkey) or None."""
    return isinstance(stored, str) and stored.startswith("$argon2")


class Passwords:
    """Hash and verify passwords off the event loop, `HASH_CONCURRENCY` at a time.
    `hasher`: argon2-cffi's PasswordHasher (tests may pass a cheaper one)."""

    def __init__(self, hasher: PasswordHasher | None = None):
        self.hasher = hasher or PasswordHasher()
        self._sem = asyncio.Semaphore(HASH_CONCURRENCY)
        # the hash an unknown name or an account without a password is checked against: the
        # same work as a real check (so the time of the answer does not tell which names
        # exist), of a random secret nobody knows (it is forgotten at once)
        self._unmatchable = self.hasher.hash(secrets.token_urlsafe(32))

    async def hash(self, password: str) -> str:
        async with self._sem:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """True if `password` is the one of the Argon2 hash `stored`. Anything else (None: an
        unknown account; '': an account without a password) is checked against the hash of
        a random secret, so that it costs the same, and is always False."""
        async with self._sem:
            return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> bool:
        real = is_password_hash(stored)
        try:
            ok = self.hasher.verify(stored if real else self._unmatchable, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok is True and real

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)
