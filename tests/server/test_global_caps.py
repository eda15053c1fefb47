"""Caps on new tables that hold whatever the addresses (issue 29, item 3): from one /64, 1,007
public tables were made in 4.3 s and the lobby became all spam, and 30 expert tables slowed
every player's expert bot. Limits per address cannot stop a client with many addresses; the
server now also caps its unfinished tables, its tables with searching bots, and the tables
made a minute, in all (quotas.py, docs/deploy.md); and a client making and cancelling tables
in a loop meets its own bucket of new tables first.

Each test runs its own server on a fresh database (SQLite and PostgreSQL: the counts are
queries) with small caps, and speaks from many addresses (`X-Forwarded-For`: the server trusts
the test clients' 127.0.0.1 as a proxy)."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys

import httpx
import pytest
from helpers import GUARD, Client, ServerProc, assert_clean_log, database_url, run_async

#: as tests/server/conftest.py (`conftest` is not one module when other folders are collected)
DATABASES = ["sqlite", "postgresql"]

_hosts = itertools.count(1)


def somebody() -> dict:
    """Headers of a client at an address of its own: IPv4 and IPv6 in turn, each in another
    /8 or /56 (no limit per address is met)."""
    n = next(_hosts)
    addr = f"{n % 200 + 11}.{n // 200 % 256}.0.1" if n % 2 else f"2001:db8:{n:x}::1"
    return {"X-Forwarded-For": addr}


@pytest.fixture(params=DATABASES)
def start(request, tmp_path):
    """start(*args): a server with the limits on and `args`, on a fresh database."""
    servers = []

    def run(*args: str) -> ServerProc:
        db = database_url(request.param, request, tmp_path)
        srv = ServerProc(db, log_dir=tmp_path,
                         args=("--client-limits", "on", "--trusted-proxies", "127.0.0.1",
                               "--limit", "http_rate=1000", "--limit", "http_burst=1000",
                               *args)).start()
        servers.append(srv)
        return srv
    yield run
    for srv in servers:
        srv.stop()
    assert_clean_log(tmp_path)


def create(srv, body: dict, headers: dict | None = None) -> httpx.Response:
    return httpx.post(srv.base + "/api/tables", json=body, headers=headers or somebody(),
                      timeout=GUARD, trust_env=False)


def lobby(srv) -> list[str]:
    r = httpx.get(srv.base + "/api/tables?limit=200", headers=somebody(), timeout=GUARD,
                  trust_env=False)
    return [t["code"] for t in r.json()]


def cancel(srv, out: dict, headers: dict) -> None:
    """The host (the creator, seated) cancels the table: it is deleted."""
    async def main():
        c = await Client(srv.ws_base, out["table"]["code"], out["join"]["token"],
                         headers=headers).connect()
        await c.wait_for(lambda m: m["type"] == "welcome")
        await c.send({"type": "cancel"})
        await c.wait_for(lambda m: m["type"] == "cancelled")
        await c.close()
    run_async(main())


def refused(r: httpx.Response, status: int, error: str, most) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == error and body["params"] == {"most": most}, body
    assert int(r.headers["retry-after"]) >= 1


KOMBIO = {"game": "kombio", "players": 2}
EXPERT = {"game": "kombio", "players": 2, "seats": [{"kind": "human"},
                                                    {"kind": "bot", "bot": "expert"}]}


def test_unfinished_tables_in_all_hold_against_many_addresses_at_once(start):
    """20 clients of 20 addresses ask for a table at the same moment; the server holds 5."""
    srv = start("--limit", "all_tables=5", "--limit", "all_new_tables_per_minute=0")
    who = [somebody() for _ in range(20)]

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=srv.base, timeout=GUARD, trust_env=False) as h:
            return await asyncio.gather(*(h.post("/api/tables", json=dict(KOMBIO, name="Ann"),
                                                 headers=w) for w in who))
    answers = run_async(burst())
    made = [(r.json(), w) for r, w in zip(answers, who) if r.status_code == 201]
    assert len(made) == 5, [r.status_code for r in answers]
    for r in answers:
        if r.status_code != 201:
            refused(r, 503, "server_tables", 5)
    assert sorted(lobby(srv)) == sorted(out["table"]["code"] for out, _ in made)
    refused(create(srv, KOMBIO), 503, "server_tables", 5)
    # the cap counts unfinished tables: a cancelled one makes room for one more
    cancel(srv, *made[0])
    assert len(lobby(srv)) == 4
    assert create(srv, KOMBIO).status_code == 201
    refused(create(srv, KOMBIO), 503, "server_tables", 5)


def test_tables_with_searching_bots_in_all(start):
    """At most `all_search_tables_per_worker` x bot workers clients with unfinished tables with
    hard or expert bots; tables with other bots are still made."""
    srv = start("--bot-workers", "1", "--limit", "all_search_tables_per_worker=2",
                "--limit", "all_new_tables_per_minute=0")
    for _ in range(2):
        assert create(srv, EXPERT).status_code == 201
    refused(create(srv, EXPERT), 503, "server_search_tables", 2)
    hard = {"game": "abluxxen", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "hard"}] * 3}
    refused(create(srv, hard), 503, "server_search_tables", 2)
    easy = {"game": "abluxxen", "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3}
    assert create(srv, easy).status_code == 201
    assert len(lobby(srv)) == 3


def test_expert_tables_of_two_addresses_leave_room_for_others(start):
    """The cap in all counts the clients with searching tables, not the tables: two addresses
    with four expert tables (the default cap of one bot worker) used to lock everybody else
    out of hard and expert tables. Each client's own quota (`search_tables`) still holds."""
    srv = start("--bot-workers", "1", "--limit", "all_search_tables_per_worker=3",
                "--limit", "all_new_tables_per_minute=0")
    x, y = somebody(), somebody()
    for _ in range(3):
        assert create(srv, EXPERT, x).status_code == 201
    assert create(srv, EXPERT, y).status_code == 201
    r = create(srv, EXPERT, x)                                   # x's own quota
    assert r.status_code == 429 and r.json()["error"] == "too_many_search_tables", r.text
    assert create(srv, EXPERT).status_code == 201                # a third client: room
    refused(create(srv, EXPERT), 503, "server_search_tables", 3)  # a fourth: the cap
    assert create(srv, EXPERT, y).status_code == 201             # y's second takes no place


def test_tables_made_a_minute_in_all(start):
    srv = start("--limit", "all_new_tables_per_minute=0.5", "--limit", "all_new_tables_burst=4")
    for _ in range(4):
        assert create(srv, KOMBIO).status_code == 201
    refused(create(srv, KOMBIO), 503, "server_new_tables", 0.5)
    refused(create(srv, EXPERT), 503, "server_new_tables", 0.5)
    assert len(lobby(srv)) == 4


def test_making_and_cancelling_tables_in_a_loop_meets_the_address_bucket(start):
    """A cancelled table frees its place among the address's unfinished tables, but not its
    bucket of new tables, counted by /56: one network cannot use up the budget in all."""
    srv = start("--limit", "new_tables_per_minute=0.5", "--limit", "new_tables_burst=3",
                "--limit", "all_new_tables_per_minute=0")
    for subnet in range(3):                       # three /64s of one /56
        h = {"X-Forwarded-For": f"2001:db8:77:{subnet:x}::5"}
        r = create(srv, dict(KOMBIO, name="Ann"), h)
        assert r.status_code == 201, r.text
        cancel(srv, r.json(), h)
    assert lobby(srv) == []
    refused(create(srv, KOMBIO, {"X-Forwarded-For": "2001:db8:77:ff::9"}), 429,
            "new_tables_rate", 0.5)
    assert lobby(srv) == []
    assert create(srv, KOMBIO, {"X-Forwarded-For": "2001:db8:78::9"}).status_code == 201


@pytest.mark.parametrize("value", ["all_tables=-1", "all_new_tables_per_minute=nan",
                                   "all_search_tables_per_worker=x", "tables=-1"])
def test_a_bad_limit_is_refused_at_start(value, tmp_path):
    """`--limit all_tables=-1` used to be taken (and refuse every table)."""
    proc = subprocess.run([sys.executable, "-m", "cardtable.server", "--database",
                           str(tmp_path / "x.db"), "--port", "0", "--limit", value],
                          capture_output=True, text=True, timeout=GUARD)
    name = value.split("=")[0]
    assert proc.returncode == 2 and "--limit" in proc.stderr and f"limit {name}:" in proc.stderr, \
        proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "x.db").exists()
