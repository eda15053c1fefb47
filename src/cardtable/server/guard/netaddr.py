"""Which clients the limits count together (docs/deploy.md, "Under attack"), and what the
database keeps of them: keyed hashes (`AddressKeys`), never the address.

An IPv4 address is one client (one home, one NAT). An IPv6 client has a whole network: one
home or phone gets a /64 (stateless autoconfiguration needs one; a device makes up new
addresses in it at will), and a home usually gets a /56 of 256 such networks from its
provider (RIPE-690, RFC 6177). Counted by single IPv6 addresses, every limit was worth
nothing: one /64 opened 12 of 12 expert tables, had 300 of 300 code guesses answered and took
a public table's every seat.

- `addr_group` names the client the **rates** count (HTTP requests, WebSocket messages and
  connections, look-ups of unknown codes, raw connections): an IPv4 address as it is, an
  IPv6 address's /64. A /64 is one network, which may also be a phone's own (mobile
  carriers give every phone a /64 out of pools shared by strangers), so grouping rates wider
  would let one busy neighbour slow strangers down all the time.
- `quota_group` names the client the **quotas** count (unfinished tables, tables with
  searching bots, seats at one public table, tables created a minute): an IPv4 address, an
  IPv6 address's /56. A quota is a stock an attacker keeps: by /64, one home would hold 256
  homes' shares. Strangers within one /56 (a carrier's or a host's neighbouring /64s) share
  it, as people behind one IPv4 NAT do.

An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, a dual-stack socket's view of an IPv4
client) counts as its IPv4 address; a text that is no address (`testclient`, `unknown`) as it
is.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from functools import lru_cache

#: prefix lengths of the IPv6 networks the rates and the quotas count as one client
RATE_PREFIX = 64
QUOTA_PREFIX = 56


@lru_cache(maxsize=4096)
def _group(addr: str, prefix: int) -> str:
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return addr
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    bits = 128 - prefix
    net = ipaddress.IPv6Network((int(ip) >> bits << bits, prefix))   # drops a %zone too
    return str(net)


def addr_group(addr: str) -> str:
    """The client the rate limits count: IPv4 as it is, IPv6 by its /64
    (`2001:db8:1:2::/64`), IPv4-mapped IPv6 as IPv4, anything else as it is."""
    return _group(addr, RATE_PREFIX)


def quota_group(addr: str) -> str:
    """The client the quotas count: IPv4 as it is, IPv6 by its /56 (`2001:db8:1::/56`),
    IPv4-mapped IPv6 as IPv4, anything else as it is."""
    return _group(addr, QUOTA_PREFIX)


class AddressKeys:
    """The secret keys of the address hashes the database keeps (HMAC-SHA256). The first key
    makes every new hash; the others, earlier keys kept for a rotation's grace period, still
    recognise the hashes made with them (`client_keys`, `seat_clients`: one per key, the
    current first). A plain hash of an IPv4 address is undone by hashing all 2^32 addresses
    (seconds); a keyed one needs the key, which is not in the database when the operator
    gives it in a file (docs/deploy.md, "Addresses in the database")."""

    def __init__(self, keys):
        self.keys = tuple(bytes(k) for k in keys)
        if not self.keys or not all(self.keys):
            raise ValueError("AddressKeys needs at least one non-empty key")

    def _hash(self, key: bytes, addr: str) -> str:
        return hmac.new(key, b"cardtable client " + addr.encode("utf-8", "replace"),
                        hashlib.sha256).hexdigest()

    def client_key(self, addr: str) -> str:
        """What the database keeps of a client address for its quotas (the tables it created,
        the seats its people hold at a public table): a keyed hash of its quota group (an IPv4
        address, an IPv6 address's /56: netaddr.quota_group), never the address."""
        return self._hash(self.keys[0], quota_group(addr))

    def client_keys(self, addr: str) -> list[str]:
        """`client_key` under each key, the current first: what matches this address."""
        group = quota_group(addr)
        return [self._hash(k, group) for k in self.keys]

    def seat_client(self, addr: str, identity: str | None) -> str:
        """What a seat keeps of who took it (seats.client, 64 hex digits): the first half names
        the address (32 digits of `client_key`, of its /56 for IPv6: the cap of seats per
        address), the second the person: 32 digits of a hash of the client identity, or, for
        a client without one, of its own address (then the address is the person)."""
        return self._seat(self.keys[0], addr, identity)

    def seat_clients(self, addr: str, identity: str | None) -> list[str]:
        """`seat_client` under each key, the current first: what matches this person."""
        return [self._seat(k, addr, identity) for k in self.keys]

    def _seat(self, key: bytes, addr: str, identity: str | None) -> str:
        group = self._hash(key, quota_group(addr))
        if identity is None:
            return group[:32] + self._hash(key, addr)[32:]
        # the identity is the browser's own random id, not an address: a plain hash
        person = hashlib.sha256(b"cardtable person " + identity.encode("ascii")).hexdigest()
        return group[:32] + person[:32]


def address_keys(raw: str) -> AddressKeys:
    """The AddressKeys of a key kept in the database (server_keys, hex: the default when the
    operator gives no secret file)."""
    return AddressKeys([bytes.fromhex(raw)])


def new_address_key() -> str:
    """A new random key for `address_keys` (256 bits, hex)."""
    return secrets.token_hex(32)


def same_address(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and a[:32] == b[:32]


def same_person(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and len(a) == 64 and a == b
