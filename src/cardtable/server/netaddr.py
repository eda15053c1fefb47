"""Which clients the limits count together (docs/deploy.md, "Under attack").

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

import ipaddress
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
