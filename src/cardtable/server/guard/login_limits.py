"""The limits of log-in and sign-up (docs/deploy.md, "Accounts"), in this process:

- per address (an IPv6 client by its /64, netaddr.addr_group): `logins_per_minute` attempts
  of log-in or sign-up, `login_burst` at once. Every attempt costs a password hash (64 MiB,
  a tenth of a second), so this is also what one address can make the server work.
- per account name: `account_failure_burst` failed log-ins, then
  `account_failures_per_hour`. A failure counts against both lookalike keys of the name as
  typed (security.name_keys: TR39 skeletons with case and width folded, so "Vic", "VIC" and
  "vic" are one) and, if the name has an account, against the account itself (`limit_keys`),
  so any spelling that finds the account finds its count; an attempt waits while any of
  them is used up. Counted alike for names that have no account: the answer never tells
  whether a name exists.
- per address (/56, netaddr.quota_group): `signup_burst` accounts, then `signups_per_hour`.

A refused attempt is answered 429 `login_limited` (or `signup_limited`) with Retry-After,
before any password is looked at. The state is kept for at most `max_keys` addresses and
names (the least recently seen forgotten first).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from cardtable.server.guard.netaddr import addr_group, quota_group
from cardtable.server.guard.security import Limits, TokenBucket


class Buckets:
    def __init__(self, rate: float, burst: int, max_keys: int):
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._b: OrderedDict[str, TokenBucket] = OrderedDict()

    def get(self, key: str) -> TokenBucket:
        b = self._b.get(key)
        if b is None:
            b = self._b[key] = TokenBucket(self.rate, self.burst)
            if len(self._b) > self.max_keys:
                self._b.popitem(last=False)
        else:
            self._b.move_to_end(key)
        return b

    def wait(self, key: str) -> float:
        """0 if a token is there (not taken), else the seconds until one is."""
        if not self.rate:
            return 0.0
        b = self.get(key)
        b.take(0)
        return 0.0 if b.tokens >= 1.0 else max(1.0, b.wait())

    def take(self, key: str) -> float:
        """0 if a token was taken, else the seconds until one is there."""
        if not self.rate:
            return 0.0
        b = self.get(key)
        return 0.0 if b.take() else max(1.0, b.wait())


class LoginLimits:
    def __init__(self, limits: Limits, max_keys: int = 100_000):
        self.attempts = Buckets(limits.logins_per_minute / 60.0, limits.login_burst, max_keys)
        self.failures = Buckets(limits.account_failures_per_hour / 3600.0,
                                 limits.account_failure_burst, max_keys)
        self.signups = Buckets(limits.signups_per_hour / 3600.0, limits.signup_burst,
                                max_keys)

    def attempt(self, addr: str) -> float:
        """An attempt of log-in or sign-up from `addr`: 0 if it may go on (counted)."""
        return self.attempts.take(addr_group(addr))

    def account_open(self, keys: Iterable[str]) -> float:
        """0 if the account name of these keys (`limit_keys`) may be tried now (nothing is
        counted), else the seconds to wait."""
        return max((self.failures.wait(k) for k in keys), default=0.0)

    def failed(self, keys: Iterable[str]) -> None:
        """A failed log-in: it counts against each of the keys (`limit_keys`)."""
        for k in keys:
            self.failures.take(k)

    def signup_open(self, addr: str) -> float:
        return self.signups.wait(quota_group(addr))

    def signed_up(self, addr: str) -> None:
        self.signups.take(quota_group(addr))


def limit_keys(name_keys: tuple[str, str], account_id: int | None) -> tuple[str, ...]:
    """What a log-in's failures count against: both lookalike keys of the name as typed
    (security.name_keys) and, if it found an account, the account's id."""
    keys = tuple(dict.fromkeys(k for k in name_keys if k))
    return keys + ((f"account {account_id}",) if account_id is not None else ())
