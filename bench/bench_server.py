"""Server benchmark (`make bench-server`): N tables played at once through real WebSocket
clients on loopback, against a real server process, on SQLite and on PostgreSQL.

    python bench/bench_server.py                       # 200 tables, 30 s, both databases
    python bench/bench_server.py --tables 50 --seconds 10 --database sqlite
    python bench/bench_server.py --database postgresql://user@127.0.0.1:5432/db
    python bench/bench_server.py --game kombio --players 4
    python bench/bench_server.py --think 1000 --bot-tables 20 --bot-level expert

Besides the human-paced tables, the default run adds, on each database, a run at a player's
pace (think 1 s) beside `--bot-tables` tables (default 20) of `--bot-level` bots (default
expert) that think flat out (no bot delay): the server's searching bots must not slow the
players (issue 11: human decisions' p99 under 100 ms on a 2-core machine). Their decisions
are counted from the server's bot pool (GET /api/stats).

Every seat of every table is a client that decides as soon as it may, at random among the legal
decisions it receives (Kombio: mostly `pass` in snap windows). A finished game is followed by
a rematch (same players, same tokens), so the load stays for the whole run. Reported:
decisions per second (decisions acknowledged by the server), the client round trip of a
decision (sent -> `ack` received), and the server-side latency (decision message received ->
committed and broadcast to every client's queue; GET /api/stats), p50 and p99.

PostgreSQL comes from scripts/ensure-postgres.sh (a throwaway cluster with default,
durable settings, stopped at the end) unless a URL is given. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))]


class Seat:
    def __init__(self, bench: Bench, code: str, seat: int, token: str, rng: random.Random):
        self.bench = bench
        self.code = code
        self.seat = seat
        self.token = token
        self.rng = rng
        self.sent: dict = {}
        self.acted: set = set()

    async def run(self) -> None:
        b = self.bench
        while not b.stopping:
            url = f"ws://{HOST}:{b.port}/ws/{self.code}?token={self.token}"
            try:
                async with websockets.connect(url, max_size=None, proxy=None, compression=None,
                                              open_timeout=30, ping_interval=None) as ws:
                    nxt = await self._play(ws)
            except (TimeoutError, OSError, websockets.WebSocketException) as e:
                b.errors.append(f"{type(e).__name__}: {e}")
                await asyncio.sleep(0.5)
                continue
            if nxt is None:
                return
            self.code, self.acted, self.sent = nxt, set(), {}

    async def _play(self, ws) -> str | None:
        b = self.bench
        game = b.args.game
        async for raw in ws:
            if b.stopping:
                return None
            m = json.loads(raw)
            t = m["type"]
            if t == "ack":
                sent = self.sent.pop(m.get("id"), None)
                if sent is not None and b.measuring:
                    b.rtt.append(time.perf_counter() - sent)
                    b.decisions += 1
            elif t == "error":
                self.sent.pop(m.get("id"), None)
                if m["code"] not in ("stale", "not_your_turn", "already_answered", "game_over"):
                    b.errors.append(m["code"] + ": " + m["message"])
            elif t == "state":
                if m["status"] == "over":
                    if self.seat == 0:
                        asyncio.ensure_future(b.rematch(self.code, self.token))
                    continue
                key = (m["index"], m["window"] is not None)
                if m["legal"] and key not in self.acted:
                    self.acted.add(key)
                    legal = m["legal"]
                    if game == "kombio" and "pass" in legal and self.rng.random() < 0.9:
                        text = "pass"
                    else:
                        if game == "kombio" and "kombio" in legal and len(legal) > 1 \
                                and self.rng.random() > 0.05:
                            legal = [d for d in legal if d != "kombio"]
                        text = self.rng.choice(legal)
                    if b.args.think > 0:          # a player's pace (default: at once)
                        await asyncio.sleep(b.args.think / 1000 * (0.5 + self.rng.random()))
                    ident = b.next_id()
                    self.sent[ident] = time.perf_counter()
                    await ws.send(json.dumps({"type": "decide", "decision": text,
                                              "index": m["index"], "id": ident}))
            elif t == "rematch":
                return m["table"]
        return None


class Bench:
    def __init__(self, args, database: str, label: str, bot_tables: int = 0):
        self.args = args
        self.bot_tables = bot_tables
        self.database = database
        self.label = label
        self.port = free_port()
        self.stopping = False
        self.measuring = False
        self.decisions = 0
        self.rtt: list[float] = []
        self.errors: list[str] = []
        self.games = 0
        self._id = 0
        self.proc: subprocess.Popen | None = None
        self.http: httpx.AsyncClient | None = None

    def next_id(self) -> int:
        self._id += 1
        return self._id

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start_server(self, log: Path) -> None:
        cmd = [sys.executable, "-m", "cardtable.server", "--host", HOST, "--port",
               str(self.port), "--database", self.database, "--bot-delay", "0",
               "--rate", "1000", "--burst", "1000", "--client-limits", "off",
               "--max-connections", "0",        # 200 tables of 4 players: 800 sockets and more
               "--bot-workers", str(self.args.bot_workers)]
        self._log = open(log, "wb")
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT,
                                     cwd=str(ROOT))
        for _ in range(600):
            if self.proc.poll() is not None:
                raise SystemExit(f"server exited; see {log}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1, trust_env=False) \
                        .status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise SystemExit("server did not start")

    def stop_server(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._log.close()

    async def rematch(self, code: str, token: str) -> None:
        if self.stopping:
            return
        r = await self.http.post(f"/api/tables/{code}/rematch", json={"token": token})
        if r.status_code == 200:
            self.games += 1
        elif not self.stopping:
            self.errors.append(f"rematch: {r.status_code} {r.text[:100]}")

    async def make_table(self, rng: random.Random) -> list[Seat]:
        a = self.args
        body = {"game": a.game, "players": a.players, "public": False}
        if a.game == "abluxxen":
            body["variant"] = a.variant
        else:
            body["snap_seconds"] = 1.0
            body["target"] = 100
        r = await self.http.post("/api/tables", json=body)
        r.raise_for_status()
        code = r.json()["table"]["code"]
        seats = []
        for i in range(a.players):
            j = await self.http.post(f"/api/tables/{code}/join", json={"name": f"P{i}"})
            j.raise_for_status()
            seats.append(Seat(self, code, i, j.json()["token"], random.Random(rng.random())))
        return seats

    async def run(self) -> dict:
        a = self.args
        self.http = httpx.AsyncClient(base_url=self.base, trust_env=False, timeout=60,
                                      limits=httpx.Limits(max_connections=20))
        rng = random.Random(a.seed)
        t0 = time.perf_counter()
        seats: list[Seat] = []
        sem = asyncio.Semaphore(16)

        async def one():
            async with sem:
                seats.extend(await self.make_table(rng))

        await asyncio.gather(*(one() for _ in range(a.tables)))
        for i in range(self.bot_tables):          # bots only: they think flat out
            body = {"game": a.game, "players": a.players, "public": False,
                    "seats": [{"kind": "bot", "bot": a.bot_level}] * a.players}
            if a.game == "abluxxen":
                body["variant"] = a.variant
            (await self.http.post("/api/tables", json=body)).raise_for_status()
        setup = time.perf_counter() - t0
        tasks = [asyncio.create_task(s.run()) for s in seats]
        await asyncio.sleep(a.warmup)
        self.measuring = True
        start = time.perf_counter()
        stats0 = (await self.http.get("/api/stats")).json()
        await asyncio.sleep(a.seconds)
        self.measuring = False
        elapsed = time.perf_counter() - start
        stats = (await self.http.get("/api/stats",
                                     params={"since": stats0["decisions"]})).json()
        pool0, pool1 = stats0.get("bot_pool") or {}, stats.get("bot_pool") or {}
        self.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.http.aclose()
        return {
            "database": self.label, "tables": a.tables, "clients": len(seats),
            "game": a.game + (f" {a.variant}" if a.game == "abluxxen" else ""),
            "players": a.players, "seconds": round(elapsed, 1), "setup_s": round(setup, 1),
            "decisions": self.decisions,
            "decisions_per_s": round(self.decisions / elapsed, 1),
            "rtt_p50_ms": _ms(pct(self.rtt, 0.5)), "rtt_p99_ms": _ms(pct(self.rtt, 0.99)),
            "server_p50_ms": stats.get("p50_ms"), "server_p99_ms": stats.get("p99_ms"),
            "server_decisions": stats["decisions"] - stats0["decisions"],
            "games_finished": self.games, "errors": len(self.errors),
            "bot_tables": self.bot_tables,
            "bot_decisions": pool1.get("decisions", 0) - pool0.get("decisions", 0),
            "first_errors": self.errors[:3],
        }


def _ms(x: float | None) -> float | None:
    return None if x is None else round(x * 1000, 2)


def ensure_postgres() -> tuple[str, str]:
    cluster = tempfile.mkdtemp(prefix="cardtable-bench-pg-", dir="/tmp")
    env = dict(os.environ, CARDTABLE_PG_DIR=cluster)
    p = subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh")], env=env,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("scripts/ensure-postgres.sh failed:\n" + p.stderr)
    return p.stdout.strip().splitlines()[-1], cluster


def stop_postgres(cluster: str) -> None:
    subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh"), "--stop", cluster])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--database", default="both",
                    help="sqlite, postgresql, both (default) or a database URL")
    ap.add_argument("--game", choices=["abluxxen", "kombio"], default="abluxxen")
    ap.add_argument("--variant", default="basic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", default="0,1000,2000",
                    help="mean milliseconds a client waits before deciding; a comma-separated "
                         "list runs once per value (default 0,1000,2000: at once, then at a "
                         "bot's and at a quick player's pace)")
    ap.add_argument("--bot-tables", type=int, default=20,
                    help="tables of bots only, thinking flat out, in one more run per "
                         "database at think 1000 ms (0: no such run; default %(default)s)")
    ap.add_argument("--bot-level", default="expert", help="their bots (default %(default)s)")
    ap.add_argument("--bot-workers", type=int, default=2,
                    help="the server's bot worker processes (0: threads of the server "
                         "process, as before issue 11; default %(default)s)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON lines")
    args = ap.parse_args()

    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass

    try:
        thinks = [float(x) for x in args.think.split(",")]
    except ValueError:
        ap.error(f"--think: milliseconds, comma-separated, not {args.think!r}")
    if any(t < 0 for t in thinks) or args.tables < 1 or args.seconds <= 0:
        ap.error("--think must not be negative, --tables and --seconds must be positive")
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    runs = [(kind, think, 0) for kind in kinds for think in thinks]
    if args.bot_tables > 0:
        runs += [(kind, 1000.0, args.bot_tables) for kind in kinds]
        runs.sort(key=lambda r: kinds.index(r[0]))
    results = []
    tmp = Path(tempfile.mkdtemp(prefix="cardtable-bench-"))
    try:
        for i, (kind, think, bot_tables) in enumerate(runs):
            args.think = think
            cluster = None
            if kind == "sqlite":
                url, label = str(tmp / f"bench-{i}.db"), "sqlite"
            elif kind == "postgresql":
                url, cluster = ensure_postgres()
                label = "postgresql"
            else:
                url, label = kind, kind.split(":")[0]
            bench = Bench(args, url, label, bot_tables)
            bench.start_server(tmp / f"server-{label}-{i}.log")
            try:
                res = asyncio.run(bench.run())
            finally:
                bench.stop_server()
                if cluster:
                    stop_postgres(cluster)
            res["think_ms"] = think
            results.append(res)
            if args.json:
                print(json.dumps(res), flush=True)
            else:
                busy = (f" + {bot_tables} {args.bot_level}-bot tables ({res['bot_decisions']} bot "
                        f"decisions)" if bot_tables else "")
                print(f"{res['database']:>10}, think {think:g} ms{busy}: {res['tables']} tables ({res['clients']} clients, "
                      f"{res['game']}, {res['players']} seats), {res['seconds']} s: "
                      f"{res['decisions']} decisions = {res['decisions_per_s']}/s; "
                      f"round trip p50 {res['rtt_p50_ms']} ms p99 {res['rtt_p99_ms']} ms; "
                      f"server p50 {res['server_p50_ms']} ms p99 {res['server_p99_ms']} ms; "
                      f"{res['games_finished']} games finished, {res['errors']} errors",
                      flush=True)
                for e in res["first_errors"]:
                    print("            error:", e)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.json:
        print("\n| database | think ms | tables | bot tables (bot decisions) | decisions/s "
              "| server p50 ms | server p99 ms | round trip p50 ms | round trip p99 ms | errors |"
              "\n|---|---|---|---|---|---|---|---|---|---|")
        for r in results:
            bots = f"{r['bot_tables']} ({r['bot_decisions']})" if r["bot_tables"] else "—"
            print(f"| {r['database']} | {r['think_ms']:g} | {r['tables']} | {bots} | {r['decisions_per_s']} "
                  f"| {r['server_p50_ms']} | {r['server_p99_ms']} | {r['rtt_p50_ms']} "
                  f"| {r['rtt_p99_ms']} | {r['errors']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
