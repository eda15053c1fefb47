"""IPv6 clients counted by their networks (issue 29, item 3): every limit per address counted
single IPv6 addresses, and a client has 2^64 of them in its /64. From one /64: 12 of 12 expert
tables accepted, 300 of 300 code guesses answered, 3 more seats at a public table. Now the
rates count an IPv6 client by its /64 and the quotas by its /56 (netaddr.py; docs/deploy.md).

The test clients connect from 127.0.0.1, which this server trusts as a proxy, so an
`X-Forwarded-For` header names each request's client address. Every test speaks from networks
of its own (`net`)."""

from __future__ import annotations

import asyncio
import itertools
import secrets

import httpx
import pytest
from helpers import Client, ServerProc, assert_clean_log, run_async

from cardtable.server.guard.netaddr import addr_group, quota_group
from cardtable.server.guard.security import AddressKeys, same_address, same_person

KEYS = AddressKeys([b"a test's address key"])

LIMITS = ("--client-limits", "on", "--trusted-proxies", "127.0.0.1",
          "--limit", "http_rate=0.01", "--limit", "http_burst=30",
          "--limit", "connections=3",
          "--limit", "misses_per_minute=0.5", "--limit", "miss_burst=5",
          "--limit", "tables=4", "--limit", "search_tables=1",
          "--limit", "new_tables_per_minute=0", "--limit", "all_new_tables_per_minute=0")

_nets = itertools.count(1)


def net() -> str:
    """A /56 of a test's own: '2001:db8:N:' + the /64's 4th group and the rest."""
    n = next(_nets)
    return f"2001:db8:{n:x}:"


def at(prefix: str, subnet: int = 0, host: int | None = None) -> dict:
    """Headers of a client at an address of the /64 `subnet` (0-255) of the /56 `prefix`: a new
    host address each time unless `host` is given."""
    h = secrets.randbits(64) if host is None else host
    groups = ":".join(f"{(h >> s) & 0xffff:x}" for s in (48, 32, 16, 0))
    return {"X-Forwarded-For": f"{prefix}{subnet:x}:{groups}"}


def person(headers: dict) -> dict:
    return dict(headers, **{"X-Cardtable-Client": secrets.token_hex(16)})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ipv6")
    srv = ServerProc(str(tmp / "ipv6.db"), log_dir=tmp, args=LIMITS).start()
    yield srv
    srv.stop()
    assert_clean_log(tmp)


def post(srv, path, body, headers) -> httpx.Response:
    return httpx.post(srv.base + path, json=body, headers=headers, timeout=60, trust_env=False)


def get(srv, path, headers) -> httpx.Response:
    return httpx.get(srv.base + path, headers=headers, timeout=60, trust_env=False)


EXPERT = {"game": "kombio", "players": 2, "seats": [{"kind": "human"},
                                                    {"kind": "bot", "bot": "expert"}]}
PLAIN = {"game": "kombio", "players": 2}


# -- the groups ---------------------------------------------------------------------------------
def test_the_groups_of_an_address():
    assert addr_group("192.0.2.7") == quota_group("192.0.2.7") == "192.0.2.7"
    assert addr_group("::ffff:192.0.2.7") == quota_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert addr_group("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64"
    assert addr_group("2001:DB8:1:2::1") == "2001:db8:1:2::/64"
    assert quota_group("2001:db8:1:2ff:aaaa::1") == "2001:db8:1:200::/56"
    assert addr_group("fe80::1%eth0") == "fe80::/64"
    assert addr_group("testclient") == quota_group("testclient") == "testclient"
    assert addr_group("") == ""


def test_what_the_database_keeps_of_an_ipv6_client():
    """The quota key is the /56's; a client without an identity is its own address (two
    machines of one home are two people, whose seats count for one address)."""
    a, b = "2001:db8:5:17::1", "2001:db8:5:42::2"            # one /56, two /64s
    assert KEYS.client_key(a) == KEYS.client_key(b) != KEYS.client_key("2001:db8:6::1")
    sa, sb = KEYS.seat_client(a, None), KEYS.seat_client(b, None)
    assert same_address(sa, sb) and not same_person(sa, sb)
    assert same_person(sa, KEYS.seat_client(a, None))
    assert same_address(KEYS.seat_client(a, "x" * 20), sb)
    assert a not in sa and "2001:db8" not in KEYS.client_key(a)


# -- quotas: per /56 ------------------------------------------------------------------------------
def test_unfinished_tables_count_a_whole_64_as_one_client(server):
    """Before: every new address of the /64 had 12 tables of its own."""
    p = net()
    for _ in range(4):
        r = post(server, "/api/tables", PLAIN, at(p))
        assert r.status_code == 201, r.text
    r = post(server, "/api/tables", PLAIN, at(p))
    assert r.status_code == 429, r.text
    assert r.json()["error"] == "too_many_tables" and r.json()["params"] == {"most": 4}
    # another /64 of the same /56 (one home's network) shares the quota ...
    r = post(server, "/api/tables", PLAIN, at(p, subnet=0x80))
    assert (r.status_code, r.json()["error"]) == (429, "too_many_tables")
    # ... another /56 has its own
    assert post(server, "/api/tables", PLAIN, at(net())).status_code == 201


def test_expert_tables_count_a_whole_64_as_one_client(server):
    """Before: 12 of 12 expert tables from one /64 were accepted."""
    p = net()
    assert post(server, "/api/tables", EXPERT, at(p)).status_code == 201
    r = post(server, "/api/tables", EXPERT, at(p))
    assert r.status_code == 429, r.text
    assert r.json()["error"] == "too_many_search_tables" and r.json()["params"] == {"most": 1}
    assert post(server, "/api/tables", EXPERT, at(net())).status_code == 201


def test_public_seats_count_a_whole_64_as_one_address(server):
    """Before: each address of the /64 took 3 more seats of a public table."""
    p = net()
    code = post(server, "/api/tables", {"game": "kombio", "players": 6},
                at(net())).json()["table"]["code"]
    for name in ("Ann", "Bob", "Cy"):
        r = post(server, f"/api/tables/{code}/join", {"name": name}, person(at(p)))
        assert r.status_code == 200, r.text
    for headers in (person(at(p)), person(at(p, subnet=0x33)), at(p)):
        r = post(server, f"/api/tables/{code}/join", {"name": "Di"}, headers)
        assert r.status_code == 409, r.text
        assert r.json()["error"] == "address_seats" and r.json()["params"] == {"most": 3}
    t = get(server, f"/api/tables/{code}", at(net())).json()
    assert t["free_seats"] == [3, 4, 5]
    r = post(server, f"/api/tables/{code}/join", {"name": "Di"}, person(at(net())))
    assert r.status_code == 200, r.text


# -- rates: per /64 --------------------------------------------------------------------------------
def test_code_guesses_count_a_whole_64_as_one_client(server):
    """Before: 300 of 300 guesses from one /64 were answered (404). Now the /64's bucket of
    unknown codes empties after 5; the next /64 of the same /56 has a bucket of its own."""
    p = net()
    answers = [get(server, f"/api/tables/NOSUCH{i:02d}", at(p)).status_code for i in range(8)]
    assert answers == [404] * 5 + [429] * 3, answers
    r = get(server, "/api/tables/NOSUCH99", at(p))
    assert r.json()["error"] == "guessing" and "retry-after" in r.headers
    assert get(server, "/api/tables/NOSUCH99", at(p, subnet=1)).status_code == 404

    async def ws() -> dict:                      # the WebSocket counts the same bucket
        c = await Client(server.ws_base, "NOSUCH77", headers=at(p)).connect()
        m = await c.wait_for(lambda m: m["type"] == "error")
        await c.close()
        return m
    assert run_async(ws())["code"] == "rate_limited"


def test_http_requests_count_a_whole_64_as_one_client(server):
    p = net()
    codes = [get(server, "/api/tables", at(p)).status_code for _ in range(32)]
    assert codes[:30] == [200] * 30 and codes[30:] == [429, 429], codes
    assert get(server, "/api/tables", at(p, subnet=1)).status_code == 200


def test_websocket_connections_count_a_whole_64_as_one_client(server):
    p = net()
    code = post(server, "/api/tables", PLAIN, at(net())).json()["table"]["code"]

    async def main():
        clients = [await Client(server.ws_base, code, headers=at(p)).connect()
                   for _ in range(4)]
        try:
            # the four are counted in the order the server gets to them, not the order they
            # connected in: three are welcome, one (any) is refused
            first = [await c.wait_for(lambda m: m["type"] in ("welcome", "error"))
                     for c in clients]
            assert sorted(m["type"] for m in first) == ["error", "welcome", "welcome", "welcome"]
            assert [m["code"] for m in first if m["type"] == "error"] == ["rate_limited"], first
            other = await Client(server.ws_base, code, headers=at(p, subnet=9)).connect()
            assert (await other.wait_for(lambda m: m["type"] in ("welcome", "error")))["type"] \
                == "welcome"
            await other.close()
        finally:
            await asyncio.gather(*(c.close() for c in clients))
    run_async(main())
