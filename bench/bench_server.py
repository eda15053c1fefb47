"""Server benchmark (`make bench-server`): N tables played at once through real WebSocket
clients on loopback, against a real server process, on SQLite and on PostgreSQL.

    python bench/bench_server.py                       # the default run (about 2 minutes)
    python bench/bench_server.py --tables 50 --seconds 10 --database sqlite
    python bench/bench_server.py --database postgresql://user@127.0.0.1:5432/db
    python bench/bench_server.py --game kombio --players 4
    python bench/bench_server.py --think 0,1000,2000 --bot-tables 0 --seconds 30   # throughput
    python bench/bench_server.py --database postgresql --tables 200 --bot-tables 0 --processes 1,2

The default run measures, on each database, the players' latency alone (PostgreSQL: with one
server process and with two, `--processes`) and then beside busy bots (one process): 100 tables of clients deciding at a player's pace (think 1 s), 15 s, once alone and once
beside `--bot-tables` tables (20) of `--bot-level` bots (expert) that think flat out (no bot
delay), each watched by a spectator (a table of bots only is played only while watched), and
one table of a player with bots of that level (its bots' time per move: they must not wait
behind the bots' tables, issue 29: 14.3 s instead of 0.5 s beside 30 expert tables). It
prints both, their ratio (beside / alone), the machine's cores and its load average before
and after each run: the bots must not slow the players (issue 11: p99 under 100 ms on a 2-core
machine; issue 29: the bots at the lowest CPU priority, on one core fewer than the machine
has), and a busy machine shows in the load average. The bots' decisions are counted from the
server's bot pool (GET /api/stats). `--think` takes a comma-separated list: each value is run
alone and, with `--bot-tables` above 0, beside the bots.

Every seat of every table is a client that decides as soon as it may, at random among the legal
decisions it receives (Kombio: mostly `pass` in snap windows). A finished game is followed by
a rematch (same players, same tokens), so the load stays for the whole run. Reported:
decisions per second (decisions acknowledged by the server), the client round trip of a
decision (sent -> `ack` received), and the server-side latency (decision message received ->
committed and broadcast to every client's queue; GET /api/stats), p50 and p99.

`--processes 1,2` (the default) runs PostgreSQL once with one server process and once with two
on the same database (SQLite: one process only), in the same run, and prints the players' p99
of two processes over one's. Each table's clients go to one process, table i to process
i mod n, as the documented nginx block's `hash $uri consistent` routes them (`--spread`: each
seat to another process instead, as round-robin would; docs/deploy.md "Beyond one machine").

The measured seconds begin `--warmup` seconds after every seat has received its first state
(connecting 800 clients on a busy machine can take longer than the warm-up; before, the
connections were made inside the measured seconds and their cost counted as the players').
The players' clients run in a process of their own (`--client-procs`, default 1; 0: in the
bench's process), optionally niced (`--client-nice`); a seat parses only the messages it acts
on. Reported beside the latencies: the servers' CPU per decision (user + system, from /proc;
far less sensitive to a busy machine than latencies) and the clients' (and their share of
the CPU the bench used). `--profile DIR` runs the servers under cProfile during the measured
seconds (bench/profiled_server.py; CPU time of the event loop's thread).

PostgreSQL comes from scripts/ensure-postgres.sh (a throwaway cluster with default,
durable settings, stopped at the end) unless a URL is given. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
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
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
STATE, EVENT = '{"type":"state"', '{"type":"event"'
YOUR_TURN, OVER = '"your_turn":true', '"status":"over"'


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user + system) a process has used so far: a server process by its pid (from
    /proc, Linux), or this process (the bench's own clients) without one."""
    if pid is None:
        return time.process_time()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))]


class Seat:
    def __init__(self, bench: Clients, code: str, seat: int, token: str, seed: float,
                 port: int | None = None):
        self.bench = bench
        self.port = bench.port if port is None else port     # the server process it talks to
        self.code = code
        self.seat = seat
        self.token = token
        self.seed = seed
        self.rng = random.Random(seed)
        self.sent: dict = {}
        self.acted: set = set()
        self.bot_moves: list[float] | None = None     # a table with bots: their moves' times
        self._last_event = 0.0
        self.connected = False        # its first state came: the bench's warm-up waits for all

    async def run(self) -> None:
        b = self.bench
        while not b.stopping:
            url = f"ws://{HOST}:{self.port}/ws/{self.code}?token={self.token}"
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
        events = self.bot_moves is not None
        async for raw in ws:
            if b.stopping:
                return None
            # the server's messages are compact JSON with "type" first: what a seat would
            # ignore is not parsed (others' events; states that neither ask it to decide nor
            # end the game: 3 of 4 states at a table of 4)
            if raw.startswith(STATE):
                if not self.connected:
                    self.connected = True
                    b.seat_connected()
                if YOUR_TURN not in raw and OVER not in raw:
                    continue
            elif not events and raw.startswith(EVENT):
                continue
            m = orjson.loads(raw)
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
                    await ws.send(orjson.dumps({"type": "decide", "decision": text,
                                                "index": m["index"], "id": ident}).decode())
            elif t == "event" and self.bot_moves is not None:
                now = time.perf_counter()
                if m["by"] == "bot" and self._last_event and b.measuring:
                    self.bot_moves.append(now - self._last_event)   # since the move before
                self._last_event = now
            elif t == "rematch":
                return m["table"]
        return None


class Clients:
    """What the seats of one process share: the counters of the measured seconds, the
    connected seats, message ids and the HTTP client for rematches (the bench's own process,
    or one of its client processes, `--client-procs`)."""

    def __init__(self, args):
        self.args = args
        self.stopping = False
        self.measuring = False
        self.decisions = 0
        self.rtt: list[float] = []
        self.errors: list[str] = []
        self.games = 0
        self._id = 0
        self.connected_seats = 0
        self.seats_total = 0
        self.all_connected: asyncio.Event | None = None
        self.http: httpx.AsyncClient | None = None

    def seat_connected(self) -> None:
        self.connected_seats += 1
        if self.connected_seats >= self.seats_total:
            self.all_connected.set()

    def next_id(self) -> int:
        self._id += 1
        return self._id

    async def rematch(self, code: str, token: str) -> None:
        if self.stopping:
            return
        r = await self.http.post(f"/api/tables/{code}/rematch", json={"token": token})
        if r.status_code == 200:
            self.games += 1
        elif not self.stopping:
            self.errors.append(f"rematch: {r.status_code} {r.text[:100]}")

    async def connect_all(self, seats: list[Seat]) -> list[asyncio.Task]:
        """Start the seats; returns their tasks once every seat has its first state (or
        after --connect-timeout, with an error)."""
        self.all_connected = asyncio.Event()
        self.seats_total = len(seats)
        if not seats:
            self.all_connected.set()
        tasks = [asyncio.create_task(s.run()) for s in seats]
        try:
            await asyncio.wait_for(self.all_connected.wait(), self.args.connect_timeout)
        except TimeoutError:
            self.errors.append(f"only {self.connected_seats} of {self.seats_total} seats "
                               f"connected in {self.args.connect_timeout:g} s")
        return tasks


class Bench(Clients):
    def __init__(self, args, database: str, label: str, bot_tables: int = 0,
                 processes: int = 1):
        super().__init__(args)
        self.bot_tables = bot_tables
        self.database = database
        self.label = label
        self.processes = processes
        self.ports = [free_port() for _ in range(processes)]
        self.port = self.ports[0]
        self.procs: list[subprocess.Popen] = []
        self._logs: list = []
        self.connect_s: float | None = None
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start_server(self, log: Path) -> None:
        """The server's processes (one per port), all on the bench's database."""
        for k, port in enumerate(self.ports):
            prof = ([str(ROOT / "bench" / "profiled_server.py"),
                     str(Path(self.args.profile) / f"{log.stem}-{k}.prof")]
                    if self.args.profile else ["-m", "cardtable.server"])
            cmd = [sys.executable, *prof, "--host", HOST, "--port",
                   str(port), "--database", self.database, "--bot-delay", "0",
                   "--rate", "1000", "--burst", "1000", "--client-limits", "off",
                   "--max-connections", "0",    # 200 tables of 4 players: 800 sockets and more
                   "--processes", str(self.processes)]
            if self.args.bot_workers is not None:
                cmd += ["--bot-workers", str(self.args.bot_workers)]
            out = open(log.with_name(f"{log.stem}-{k}{log.suffix}"), "wb")
            self._logs.append(out)
            self.procs.append(subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                               cwd=str(ROOT)))
        self.proc = self.procs[0]
        for proc, port in zip(self.procs, self.ports):
            for _ in range(600):
                if proc.poll() is not None:
                    raise SystemExit(f"server exited; see {log}")
                try:
                    if httpx.get(f"http://{HOST}:{port}/api/health", timeout=1,
                                 trust_env=False).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            else:
                raise SystemExit("server did not start")

    def profile(self, sig: int) -> None:
        """--profile: start (SIGUSR1) or stop and write (SIGUSR2) the servers' profiles."""
        if self.args.profile:
            for proc in self.procs:
                proc.send_signal(sig)

    def stop_server(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for out in self._logs:
            out.close()

    async def watch(self, code: str) -> None:
        """A spectator of a bots' table (reads everything; the table is played while watched)."""
        url = f"ws://{HOST}:{self.port}/ws/{code}"
        while not self.stopping:
            try:
                async with websockets.connect(url, max_size=None, proxy=None, compression=None,
                                              open_timeout=30, ping_interval=None) as ws:
                    async for raw in ws:
                        if self.stopping:
                            return
                        if '"status":"over"' in raw:    # the game ended: nothing more to watch
                            return
            except (TimeoutError, OSError, websockets.WebSocketException) as e:
                self.errors.append(f"watcher: {type(e).__name__}: {e}")
                await asyncio.sleep(0.5)

    def start_clients(self, seats: list[Seat]) -> list[tuple]:
        """--client-procs N: the seats' clients in N processes of their own (spawned, at
        --client-nice), table k's seats in process k mod N; (process, pipe) each."""
        n = min(self.args.client_procs, len(seats))
        if not n:
            return []
        ctx = multiprocessing.get_context("spawn")
        tables: dict[str, int] = {}
        parts: list[list[tuple]] = [[] for _ in range(n)]
        for s in seats:
            k = tables.setdefault(s.code, len(tables))
            parts[k % n].append((s.code, s.seat, s.token, s.seed, s.port))
        workers = []
        for part in parts:
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=client_process, args=(self.args, self.base, part, theirs),
                               daemon=True)
            proc.start()
            theirs.close()
            workers.append((proc, mine))
        return workers

    async def make_table(self, rng: random.Random, k: int = 0) -> list[Seat]:
        """Table number k: made through, and played on, process k mod n (--spread: its seats
        on the processes in turn)."""
        a = self.args
        n = self.processes
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
            port = self.ports[(k + i) % n if a.spread else k % n]
            seats.append(Seat(self, code, i, j.json()["token"], rng.random(), port))
        return seats

    async def run(self) -> dict:
        a = self.args
        self.http = httpx.AsyncClient(base_url=self.base, trust_env=False, timeout=60,
                                      limits=httpx.Limits(max_connections=20))
        rng = random.Random(a.seed)
        t0 = time.perf_counter()
        seats: list[Seat] = []
        sem = asyncio.Semaphore(16)

        async def one(k: int):
            async with sem:
                seats.extend(await self.make_table(rng, k))

        await asyncio.gather(*(one(k) for k in range(a.tables)))
        mixed = None
        if self.bot_tables:                       # a player with bots of that level
            body = {"game": a.game, "players": a.players, "public": False, "name": "P0",
                    "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": a.bot_level}]
                    * (a.players - 1)}
            if a.game == "abluxxen":
                body["variant"] = a.variant
            r = await self.http.post("/api/tables", json=body)
            r.raise_for_status()
            out = r.json()
            mixed = Seat(self, out["table"]["code"], 0, out["join"]["token"], rng.random())
            mixed.bot_moves = []
            seats.append(mixed)
        watchers = []
        for i in range(self.bot_tables):          # bots only: they think flat out
            body = {"game": a.game, "players": a.players, "public": False,
                    "seats": [{"kind": "bot", "bot": a.bot_level}] * a.players}
            if a.game == "abluxxen":
                body["variant"] = a.variant
            r = await self.http.post("/api/tables", json=body)
            r.raise_for_status()
            watchers.append(self.watch(r.json()["table"]["code"]))
        setup = time.perf_counter() - t0
        t1 = time.perf_counter()
        # --client-procs: the players' seats in client processes of their own (a table's
        # seats together), the bench's process keeps the player among bots and the watchers
        far = [s for s in seats if s.bot_moves is None] if a.client_procs else []
        workers = self.start_clients(far)
        near = [s for s in seats if s not in far]
        # the warm-up begins once every seat has its first state: connecting hundreds of
        # clients (on a busy machine, for longer than the warm-up) is not what is measured
        tasks = await self.connect_all(near)
        for _, pipe in workers:
            await asyncio.to_thread(pipe.recv)                  # "connected"
        tasks += [asyncio.create_task(w) for w in watchers]
        self.connect_s = time.perf_counter() - t1
        await asyncio.sleep(a.warmup)
        self.measuring = True
        for _, pipe in workers:
            pipe.send("measure")
        start = time.perf_counter()
        load0 = load()
        others = [f"http://{HOST}:{p}" for p in self.ports[1:]]
        stats0 = (await self.http.get("/api/stats")).json()
        others0 = [(await self.http.get(b + "/api/stats")).json() for b in others]
        cpu0 = [cpu_seconds(p.pid) for p in self.procs], cpu_seconds()
        self.profile(signal.SIGUSR1)
        await asyncio.sleep(a.seconds)
        self.profile(signal.SIGUSR2)
        cpu1 = [cpu_seconds(p.pid) for p in self.procs], cpu_seconds()
        for _, pipe in workers:
            pipe.send("stop")
        clients_cpu = cpu1[1] - cpu0[1]
        for proc, pipe in workers:                  # their counts join the bench's own
            out = await asyncio.to_thread(pipe.recv)
            self.rtt += out["rtt"]
            self.decisions += out["decisions"]
            self.errors += out["errors"]
            self.games += out["games"]
            clients_cpu += out["cpu"]
        for proc, pipe in workers:
            await asyncio.to_thread(proc.join, 30)
            if proc.is_alive():
                proc.terminate()
        self.measuring = False
        load1 = load()
        elapsed = time.perf_counter() - start
        stats = (await self.http.get("/api/stats",
                                     params={"since": stats0["decisions"]})).json()
        for b, s0 in zip(others, others0):    # a second process: the worse of their figures
            s1 = (await self.http.get(b + "/api/stats",
                                      params={"since": s0["decisions"]})).json()
            for key in ("p50_ms", "p99_ms"):
                if s1.get(key) is not None and (stats.get(key) is None
                                                or s1[key] > stats[key]):
                    stats[key] = s1[key]
            stats["decisions"] += s1["decisions"] - s0["decisions"]
        pool0, pool1 = stats0.get("bot_pool") or {}, stats.get("bot_pool") or {}
        self.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.http.aclose()
        return {
            "database": self.label, "processes": self.processes, "tables": a.tables,
            "clients": len(seats),
            "game": a.game + (f" {a.variant}" if a.game == "abluxxen" else ""),
            "players": a.players, "seconds": round(elapsed, 1), "setup_s": round(setup, 1),
            "connect_s": round(self.connect_s, 1),
            "decisions": self.decisions,
            "decisions_per_s": round(self.decisions / elapsed, 1),
            "rtt_p50_ms": _ms(pct(self.rtt, 0.5)), "rtt_p99_ms": _ms(pct(self.rtt, 0.99)),
            "server_p50_ms": stats.get("p50_ms"), "server_p99_ms": stats.get("p99_ms"),
            "server_decisions": stats["decisions"] - stats0["decisions"],
            # CPU per decision (user + system, all server processes; the bench's own clients
            # apart): the server's cost, much less dependent on the machine's load than latency
            "server_cpu_ms_per_decision": round(1000 * sum(b - a for a, b in zip(cpu0[0], cpu1[0]))
                                                / max(1, self.decisions), 3),
            "clients_cpu_ms_per_decision": round(1000 * clients_cpu / max(1, self.decisions),
                                                 3),
            # the clients' share of the CPU the bench used (clients + servers; PostgreSQL's
            # own processes not counted)
            "clients_cpu_share": round(clients_cpu / max(1e-9, clients_cpu + sum(
                b - a for a, b in zip(cpu0[0], cpu1[0]))), 3),
            "client_procs": len(workers),
            "games_finished": self.games, "errors": len(self.errors),
            "bot_tables": self.bot_tables, "bot_workers": pool1.get("workers"),
            "bot_decisions": pool1.get("decisions", 0) - pool0.get("decisions", 0),
            "load_before": load0, "load_after": load1, "cores": cores(),
            "their_bot_moves": len(mixed.bot_moves) if mixed else None,
            "their_bot_mean_s": round(sum(mixed.bot_moves) / len(mixed.bot_moves), 2)
            if mixed and mixed.bot_moves else None,
            "their_bot_max_s": round(max(mixed.bot_moves), 2) if mixed and mixed.bot_moves
            else None,
            "first_errors": self.errors[:3],
        }


def client_process(args, base: str, specs: list[tuple], pipe) -> None:
    """A client process (--client-procs): plays the seats `specs` (code, seat, token, seed,
    port) against the servers; told over `pipe` when the measured seconds begin ("measure")
    and end ("stop"), it then sends back its counts and its CPU seconds in between."""
    if args.client_nice:
        os.nice(args.client_nice)
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_client_main(args, base, specs, pipe))


async def _client_main(args, base: str, specs: list[tuple], pipe) -> None:
    c = Clients(args)
    c.http = httpx.AsyncClient(base_url=base, trust_env=False, timeout=60,
                               limits=httpx.Limits(max_connections=4))
    seats = [Seat(c, code, seat, token, seed, port) for code, seat, token, seed, port in specs]
    tasks = await c.connect_all(seats)
    pipe.send("connected")
    await asyncio.to_thread(pipe.recv)                          # "measure"
    c.measuring = True
    cpu0 = time.process_time()
    await asyncio.to_thread(pipe.recv)                          # "stop"
    cpu = time.process_time() - cpu0
    c.measuring = False
    pipe.send({"rtt": c.rtt, "decisions": c.decisions, "errors": c.errors,
               "games": c.games, "cpu": cpu})
    c.stopping = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await c.http.aclose()


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


def new_database(url: str, i: int) -> str:
    """A fresh database in the cluster of `url` (no run takes up another run's tables)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE bench_{i}")
    return url.rsplit("/", 1)[0] + f"/bench_{i}"


def ratio(a, b) -> str:
    return f"x{b / a:.2f}" if a and b is not None else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--warmup", type=float, default=3.0,
                    help="seconds played before the measured ones, once every seat has "
                         "connected (default %(default)s)")
    ap.add_argument("--connect-timeout", type=float, default=120.0,
                    help="seconds the clients may take to connect before the warm-up begins "
                         "anyway (an error is reported; default %(default)s)")
    ap.add_argument("--database", default="both",
                    help="sqlite, postgresql, both (default) or a database URL")
    ap.add_argument("--game", choices=["abluxxen", "kombio"], default="abluxxen")
    ap.add_argument("--variant", default="basic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", default="1000",
                    help="mean milliseconds a client waits before deciding; a comma-separated "
                         "list runs once per value (default 1000: a player's pace; 0 measures "
                         "the saturation throughput)")
    ap.add_argument("--bot-tables", type=int, default=20,
                    help="tables of bots only, thinking flat out, each watched by a spectator: "
                         "every think value is run again beside them (0: no such runs; "
                         "default %(default)s)")
    ap.add_argument("--bot-level", default="expert", help="their bots (default %(default)s)")
    ap.add_argument("--bot-workers", type=int, default=None,
                    help="the server's bot worker processes (0: threads of the server "
                         "process, as before issue 11; default: the server's, one fewer "
                         "than the cores)")
    ap.add_argument("--processes", default="1,2",
                    help="server processes on one database, a comma-separated list: each "
                         "PostgreSQL run once per value (SQLite: 1 only; default %(default)s)")
    ap.add_argument("--spread", action="store_true",
                    help="with several processes, a table's seats on the processes in turn "
                         "(as round-robin); default: a table's clients on one process")
    ap.add_argument("--profile", metavar="DIR", default=None,
                    help="run each server process under cProfile during the measured seconds "
                         "(bench/profiled_server.py) and write DIR/server-DATABASE-RUN-PROCESS"
                         ".prof; the profiler slows the server: its figures are not the "
                         "server's")
    ap.add_argument("--client-procs", type=int, default=1,
                    help="processes the players' clients run in, apart from the bench's own "
                         "(0: in the bench's process, as before; default %(default)s)")
    ap.add_argument("--client-nice", type=int, default=0,
                    help="niceness added to those processes (e.g. 10: the servers get the "
                         "CPU first; their round trips then include their own wait; default "
                         "%(default)s)")
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
    if any(t < 0 for t in thinks) or args.tables < 1 or args.seconds <= 0 \
            or args.bot_tables < 0 or args.client_procs < 0 or not 0 <= args.client_nice <= 19:
        ap.error("--think, --bot-tables and --client-procs must not be negative, --tables and "
                 "--seconds must be positive, --client-nice 0 to 19")
    try:
        processes = [int(x) for x in args.processes.split(",")]
    except ValueError:
        ap.error(f"--processes: numbers, comma-separated, not {args.processes!r}")
    if any(n < 1 for n in processes):
        ap.error("--processes must be 1 or more")
    if args.profile:
        args.profile = str(Path(args.profile).resolve())
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    # several processes: PostgreSQL only, players alone (the bots' runs on one process)
    runs = [(kind, think, n, bots) for kind in kinds for think in thinks
            for n in (processes if kind != "sqlite" else [1])
            for bots in ([0, args.bot_tables] if args.bot_tables and n == 1 else [0])]
    if not args.json:
        print(f"{cores()} cores, load average {load()} (1, 5, 15 min) at the start", flush=True)
    results = []
    tmp = Path(tempfile.mkdtemp(prefix="cardtable-bench-"))
    clusters: dict[str, tuple[str, str]] = {}
    try:
        for i, (kind, think, n_procs, bot_tables) in enumerate(runs):
            args.think = think
            if kind == "sqlite":
                url, label = str(tmp / f"bench-{i}.db"), "sqlite"
            elif kind == "postgresql":
                if kind not in clusters:
                    clusters[kind] = ensure_postgres()
                url, label = new_database(clusters[kind][0], i), "postgresql"
            else:
                url, label = kind, kind.split(":")[0]
            bench = Bench(args, url, label, bot_tables, n_procs)
            bench.start_server(tmp / f"server-{label}-{i}.log")
            try:
                res = asyncio.run(bench.run())
            finally:
                bench.stop_server()
            res["think_ms"] = think
            results.append(res)
            if args.json:
                print(json.dumps(res), flush=True)
            else:
                busy = (f" + {bot_tables} watched {args.bot_level}-bot tables "
                        f"({res['bot_decisions']} bot decisions, {res['bot_workers']} workers; "
                        f"one more table of a player and {args.players - 1} {args.bot_level} "
                        f"bots: {res['their_bot_moves']} bot moves, mean "
                        f"{res['their_bot_mean_s']} s, max {res['their_bot_max_s']} s)"
                        if bot_tables else " alone")
                print(f"{res['database']:>10} ({n_procs} process{'es' if n_procs > 1 else ''}), "
                      f"think {think:g} ms{busy}: {res['tables']} tables "
                      f"({res['clients']} clients, {res['game']}, {res['players']} seats), "
                      f"{res['seconds']} s: {res['decisions']} decisions = "
                      f"{res['decisions_per_s']}/s; round trip p50 {res['rtt_p50_ms']} ms p99 "
                      f"{res['rtt_p99_ms']} ms; server p50 {res['server_p50_ms']} ms p99 "
                      f"{res['server_p99_ms']} ms; server CPU {res['server_cpu_ms_per_decision']} ms a "
                      f"decision (the bench's clients {res['clients_cpu_ms_per_decision']} ms, "
                      f"{res['clients_cpu_share']:.0%} of the CPU the bench used, in "
                      f"{res['client_procs']} process(es) of their own); "
                      f"clients connected in {res['connect_s']} s; "
                      f"{res['games_finished']} games finished, "
                      f"{res['errors']} errors; load average {res['load_before']} -> "
                      f"{res['load_after']} on {res['cores']} cores", flush=True)
                for e in res["first_errors"]:
                    print("            error:", e)
    finally:
        for _, cluster in clusters.values():
            stop_postgres(cluster)
        shutil.rmtree(tmp, ignore_errors=True)
    pairs = []
    for r in results:
        if r["bot_tables"]:
            alone = next((x for x in results if not x["bot_tables"] and x["processes"] == 1
                          and (x["database"], x["think_ms"]) == (r["database"], r["think_ms"])),
                         None)
            if alone is not None:
                pairs.append((alone, r))
    if args.json:
        for alone, busy in pairs:
            print(json.dumps({"ratio": True, "database": busy["database"],
                              "think_ms": busy["think_ms"], "bot_tables": busy["bot_tables"],
                              "rtt_p50": busy["rtt_p50_ms"] / alone["rtt_p50_ms"]
                              if alone["rtt_p50_ms"] and busy["rtt_p50_ms"] else None,
                              "rtt_p99": busy["rtt_p99_ms"] / alone["rtt_p99_ms"]
                              if alone["rtt_p99_ms"] and busy["rtt_p99_ms"] else None}))
        return 0
    print(f"\n{cores()} cores; load average {load()} (1, 5, 15 min) at the end; "
          "a load above the cores means other work shared the CPU with the runs")
    print("\n| database | processes | think ms | tables | bot tables (bot decisions) "
          "| decisions/s | server p50 ms | server p99 ms | round trip p50 ms "
          "| round trip p99 ms | server CPU ms a decision | load 1 min (before → after) "
          "| errors |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        bots = f"{r['bot_tables']} ({r['bot_decisions']})" if r["bot_tables"] else "—"
        print(f"| {r['database']} | {r['processes']} | {r['think_ms']:g} | {r['tables']} "
              f"| {bots} "
              f"| {r['decisions_per_s']} | {r['server_p50_ms']} | {r['server_p99_ms']} "
              f"| {r['rtt_p50_ms']} | {r['rtt_p99_ms']} | {r['server_cpu_ms_per_decision']} "
              f"| {r['load_before'].split()[0]} → {r['load_after'].split()[0]} | {r['errors']} |")
    for r in results:                 # several processes / one, players alone, same run
        one = next((x for x in results if x["processes"] == 1 and not x["bot_tables"]
                    and (x["database"], x["think_ms"]) == (r["database"], r["think_ms"])),
                   None)
        if r["processes"] > 1 and one is not None:
            print(f"\n{r['database']}, think {r['think_ms']:g} ms, {r['tables']} tables: "
                  f"{r['processes']} processes / 1: round trip p99 {one['rtt_p99_ms']} → "
                  f"{r['rtt_p99_ms']} ms ({ratio(one['rtt_p99_ms'], r['rtt_p99_ms'])}), p50 "
                  f"{one['rtt_p50_ms']} → {r['rtt_p50_ms']} ms "
                  f"({ratio(one['rtt_p50_ms'], r['rtt_p50_ms'])}); server p99 "
                  f"{one['server_p99_ms']} → {r['server_p99_ms']} ms")
    if pairs:
        print("\nThe players beside the bots / alone (round trip; server-side in brackets):")
        for alone, busy in pairs:
            print(f"  {busy['database']}, think {busy['think_ms']:g} ms, beside "
                  f"{busy['bot_tables']} {args.bot_level}-bot tables: p50 {alone['rtt_p50_ms']} → "
                  f"{busy['rtt_p50_ms']} ms ({ratio(alone['rtt_p50_ms'], busy['rtt_p50_ms'])}), "
                  f"p99 {alone['rtt_p99_ms']} → {busy['rtt_p99_ms']} ms "
                  f"({ratio(alone['rtt_p99_ms'], busy['rtt_p99_ms'])}) "
                  f"[server p99 {alone['server_p99_ms']} → {busy['server_p99_ms']} ms "
                  f"({ratio(alone['server_p99_ms'], busy['server_p99_ms'])})]; the player's "
                  f"{args.bot_level} opponents: {busy['their_bot_mean_s']} s per move "
                  f"(max {busy['their_bot_max_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
