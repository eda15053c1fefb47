"""Client addresses as the limits count them."""

from __future__ import annotations

import ipaddress


def addr_group(addr: str) -> str:
    """The group an address counts in: an IPv4 address (also one written as IPv6,
    ::ffff:a.b.c.d) is its own group, an IPv6 address counts as its /64 (one household or
    machine gets a /64 or more, and can pick any address of it), anything else (a Unix socket,
    "unknown") as itself."""
    try:
        ip = ipaddress.ip_address(addr.split("%", 1)[0])
    except ValueError:
        return addr
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
