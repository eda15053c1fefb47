"""The PostgreSQL connection budget (store/budget.py) against a PostgreSQL server with its
default `max_connections` of 100 (a cluster of this module's own, scripts/ensure-postgres.sh):

- two server processes (`--processes 2`, the default budget of 32 each) and 400 players at
  100 tables, each a light WebSocket client making decisions, their tables' seats spread over
  both processes: no connection is refused by PostgreSQL, no client and no server log sees an
  error, neither process ever holds more than its 32 connections open (counted from /proc), and once the players
  are gone the processes release their idle pool connections (`--db-idle-seconds`) and keep
  only their LISTEN and lock connections. Before, a process held 42 connections idle and could
  open 52: two of them exhausted the 97 slots with 400 players.
- a start whose processes do not fit is refused with one line that gives the formula, the
  numbers and what to change, exit status 2, before anything is served.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psycopg
import pytest
import websockets
from helpers import GUARD, HOST, ROOT, ServerProc, free_port, run_async

TABLES = 100              # 4 seats each: 400 players
DECISIONS = 12            # a table is done when its game has this many decisions
# --db-idle-seconds of the servers: a quiet process lets go quickly. Not 1 s: PostgreSQL ends a
# session idle that long, and on a loaded machine the event loop can stall longer than that
# between the pool's pre-ping and the query (a read failed with "server closed the connection")
IDLE = 5.0


@pytest.fixture(scope="module")
def pg100():
    """A PostgreSQL cluster of this module with max_connections=100 (PostgreSQL's default):
    (its URL, its log file)."""
    cluster = tempfile.mkdtemp(prefix="cardtable-pg100-", dir="/tmp")
    env = dict(os.environ, CARDTABLE_PG_DIR=cluster, CARDTABLE_PG_FAST="1",
               CARDTABLE_PG_MAX_CONNECTIONS="100")
    script = str(ROOT / "scripts" / "ensure-postgres.sh")
    proc = subprocess.run(["bash", script], env=env, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        subprocess.run(["bash", script, "--stop", cluster])
        pytest.fail(f"scripts/ensure-postgres.sh failed:\n{proc.stderr}")
    url = proc.stdout.strip().splitlines()[-1]
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SHOW max_connections").fetchone()[0] == "100"
    yield url, Path(cluster) / "server.log"
    subprocess.run(["bash", script, "--stop", cluster], timeout=120)


def _connections(url: str) -> int:
    """The connections to the database of `url`, this one left out."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                            "current_database() AND pid <> pg_backend_pid()").fetchone()[0]


def _held(pid: int, port: int) -> int:
    """The TCP connections process `pid` holds open (ESTABLISHED) to the database's `port`, as
    Linux's /proc shows them: what the process itself counts against its budget. A connection
    it closed leaves this count at once; PostgreSQL's pg_stat_activity still lists it until its
    backend has exited, a moment later on a busy machine (a sample of the database once saw 65
    beside a pool's replaced connection), so the budget is measured here, per process."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:                  # closed while we looked
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    held = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            f = line.split()
            remote_port, state, inode = int(f[2].rsplit(":", 1)[1], 16), f[3], f[9]
            held += remote_port == port and state == "01" and inode in inodes
    return held


def test_a_start_that_does_not_fit_is_refused(pg100):
    url, _ = pg100
    cmd = [sys.executable, "-m", "cardtable.server", "--host", HOST, "--port", "0",
           "--database", url, "--processes", "4"]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT), timeout=300)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "cardtable server on" not in p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    line = lines[0]
    # the formula with its numbers: 4 × 32 + 1 = 129 > 100 - 3
    for part in ("4 processes × 32 (pool 10 + overflow 10 + decisions 10 + listen 1 + "
                 "locks 1) + 1 for a migration = 129", "allows 97",
                 "max_connections 100", "superuser_reserved_connections 3",
                 "--db-pool-size", "raise max_connections in postgresql.conf to at least 132"):
        assert part in line, line
    # the same processes with smaller pools fit: 4 × (5 + 5 + 5 + 2) + 1 = 69
    ok = subprocess.run([sys.executable, "-c", (
        "import sys; from cardtable.server.config import Settings; "
        "from cardtable.server.store.budget import check_fits; "
        "check_fits(Settings(database=sys.argv[1], processes=4, pool_size=5, "
        "max_overflow=5, decision_pool=5)); print('fits')"), url],
        capture_output=True, text=True, cwd=str(ROOT), timeout=300)
    assert ok.stdout.strip() == "fits", ok.stderr


class Player:
    """One seat's light client: decides at random whenever it may, until its table's game has
    DECISIONS decisions."""

    def __init__(self, base: str, code: str, token: str, rng: random.Random, errors: list):
        self.url = f"{base}/ws/{code}?token={token}"
        self.rng = rng
        self.errors = errors
        self.decided = 0
        self.seen: list = []              # the last messages (what a stuck player waits after)

    async def run(self) -> None:
        try:
            async with websockets.connect(self.url, max_size=None, proxy=None,
                                          compression=None, open_timeout=GUARD,
                                          ping_interval=None) as ws:
                acted, ident = set(), 0
                async for raw in ws:
                    m = json.loads(raw)
                    self.seen = self.seen[-4:] + [{k: m.get(k) for k in (
                        "type", "index", "code", "status", "legal", "decision")}]
                    if m["type"] == "error" and m["code"] not in (
                            "stale", "not_your_turn", "already_answered", "game_over"):
                        self.errors.append(m)
                    if m["type"] != "state":
                        continue
                    if m["status"] == "over" or m["index"] >= DECISIONS:
                        return
                    key = (m["index"], m["window"] is not None)
                    if m["legal"] and key not in acted:
                        acted.add(key)
                        ident += 1
                        await ws.send(json.dumps({"type": "decide", "index": m["index"],
                                                  "decision": self.rng.choice(m["legal"]),
                                                  "id": ident}))
                        self.decided += 1
        except (OSError, websockets.WebSocketException) as e:     # refused, closed
            self.errors.append(f"{type(e).__name__}: {e}")


def test_two_processes_and_400_players_fit_the_default_max_connections(pg100, tmp_path):
    url, pg_log = pg100
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE budget")
    db = url.rsplit("/", 1)[0] + "/budget"
    args = ("--processes", "2", "--db-idle-seconds", str(IDLE), "--bot-workers", "0")
    servers = [ServerProc(db, free_port(), args, log_dir=tmp_path).start() for _ in range(2)]
    try:
        run_async(_play(servers, db))
        # the players are gone: each process keeps its LISTEN and lock connections only
        deadline = time.monotonic() + GUARD
        while (n := _connections(db)) > 2 * 2:
            assert time.monotonic() < deadline, f"{n} connections held idle"
            time.sleep(0.1)
    finally:
        for s in servers:
            s.stop()
    text = pg_log.read_text(errors="replace")
    assert "too many clients" not in text and "remaining connection slots" not in text
    for f in tmp_path.glob("server-*.log"):
        log = f.read_text(errors="replace")
        assert ("database connections: at most 32 (pool 10 + overflow 10 + decisions 10 + "
                "listen 1 + locks 1)") in log, log
        bad = [line for line in log.splitlines()
               if re.search(r"traceback|error|warning|too many", line, re.I)]
        assert bad == [], bad


async def _play(servers: list[ServerProc], db: str) -> None:
    errors: list = []
    rng = random.Random(44)
    peak = [0] * len(servers)
    port = int(db.rsplit(":", 1)[1].split("/")[0])
    done = asyncio.Event()

    async def sample() -> None:
        """The most connections each process held to the database (every 50 ms while the
        players play)."""
        while not done.is_set():
            for i, s in enumerate(servers):
                peak[i] = max(peak[i], await asyncio.to_thread(_held, s.proc.pid, port))
            try:
                await asyncio.wait_for(done.wait(), 0.05)
            except TimeoutError:
                pass

    # a connection for each request, none kept: on a busy machine the server's keep-alive timer
    # (5 s from its answer) fired while a request on a kept connection was under way (a
    # ReadError), even with the client letting its connections go after 1 s
    https = [httpx.AsyncClient(base_url=s.base, trust_env=False, timeout=GUARD,
                               limits=httpx.Limits(max_keepalive_connections=0))
             for s in servers]
    sampler = asyncio.create_task(sample())
    try:
        async def table(i: int) -> list[Player]:
            http = https[i % 2]
            r = await http.post("/api/tables", json={"game": "abluxxen", "players": 4,
                                                     "public": False})
            assert r.status_code == 201, r.text
            code = r.json()["table"]["code"]
            players = []
            for seat in range(4):        # the seats of a table on both processes
                srv = servers[(i + seat) % 2]
                j = await https[(i + seat) % 2].post(f"/api/tables/{code}/join",
                                                     json={"name": f"P{seat}"})
                assert j.status_code == 200, j.text
                players.append(Player(srv.ws_base, code, j.json()["token"],
                                      random.Random(rng.random()), errors))
            return players

        made = await asyncio.gather(*(table(i) for i in range(TABLES)))
        players = [p for ps in made for p in ps]
        assert len(players) == 4 * TABLES
        runs = [asyncio.create_task(p.run()) for p in players]
        _, stuck = await asyncio.wait(runs, timeout=10 * GUARD)     # a hang guard
        for t in stuck:
            t.cancel()
        assert not stuck, "\n".join(f"{p.url.split('?')[0]}: {p.seen}"
                                     for p, t in zip(players, runs) if t in stuck)
    finally:
        done.set()
        await sampler
        for h in https:
            await h.aclose()
    assert errors == [], errors[:5]
    assert sum(p.decided for p in players) >= TABLES * DECISIONS
    assert max(peak) <= 32, peak             # each process within its budget
    assert min(peak) > 2, peak               # and the count saw its pools at work
