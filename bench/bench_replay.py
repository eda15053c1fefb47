"""POST /api/replay against the other players (issue 29): a player's WebSocket ping round trip,
p50/p99/max, while `--clients` clients each post a big record about once a second, against a
real server process on loopback (SQLite).

    python bench/bench_replay.py                          # this checkout's server
    python bench/bench_replay.py --src /work/main/src     # another checkout's (before/after)
    python bench/bench_replay.py --actions 200000,20000 --seconds 15

Runs, per record length in `--actions`: the ping alone (no replays), then with the replays at
the server's default limits, then with the replay budget switched off (`--limit
replays_per_minute=0`; a server without that limit ignores nothing: it then reports the
limit as unknown and the run is skipped). The records are legal Kombio games of random play
(cached in the temp directory; beyond 20,000 actions the legal 20,000 repeated). Printed: the answers' status codes and the ping figures.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from bench_server import HOST, ROOT, free_port  # noqa: E402  (bench/ is the script's folder)


def pct(v: list[float], p: float) -> float:
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")


#: records longer than this are the legal record of this length with its actions repeated: the
#: body is as big (its parsing costs as much), the engine stops at the first illegal action
#: (random play to 200,000 actions takes many minutes on a busy machine)
LEGAL = 20_000


def record(actions: int) -> bytes:
    """A Kombio record of `actions` actions (cut from a long game of random play)."""
    path = Path(tempfile.gettempdir()) / f"cardtable-bench-replay-{actions}.json"
    if path.exists():
        return path.read_bytes()
    if actions > LEGAL:
        body = json.loads(record(LEGAL))
        acts = body["record"]["actions"]
        body["record"]["actions"] = (acts * (actions // len(acts) + 1))[:actions]
        body["from"] = 0
        data = json.dumps(body).encode()
        path.write_bytes(data)
        return data
    sys.path.insert(0, str(ROOT / "src"))
    from cardtable.core.rng import Rng
    from cardtable.kombio import new_game

    s = new_game(players=6, seed=2**100 + 7, target=10**6)
    r = Rng(3)
    while len(s.history) < actions and not s.over:
        legal = s.legal_decisions()
        if any(d.text == "kombio" for d in legal) and r.below(60) == 0:
            s.apply("kombio")
            continue
        legal = [d for d in legal if d.text != "kombio"] or legal
        s.apply(legal[r.below(len(legal))])
    rec = s.record()
    rec["target"] = 10**6
    body = json.dumps({"record": rec, "seat": 0, "from": actions - 1, "count": 2}).encode()
    path.write_bytes(body)
    return body


class Server:
    def __init__(self, src: str, args: list[str]):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="cardtable-bench-replay-")
        cmd = [sys.executable, "-m", "cardtable.server", "--host", HOST, "--port",
               str(self.port), "--database", os.path.join(self.dir, "c.db"), *args]
        env = dict(os.environ, PYTHONPATH=src, PYTHONUNBUFFERED="1")
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {Path(self.log.name).read_text()[-500:]}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1, trust_env=False).is_success:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()


async def run(server: Server, body: bytes | None, clients: int, seconds: float) -> dict:
    async with httpx.AsyncClient(trust_env=False, timeout=120) as http:
        r = await http.post(server.base + "/api/tables", json={
            "game": "abluxxen", "players": 3, "name": "Ann", "public": False})
        assert r.is_success, r.text
        code = r.json()["table"]["code"]
        statuses: collections.Counter = collections.Counter()
        rtts: list[float] = []
        stop = time.perf_counter() + seconds

        async def poster(i: int) -> None:
            await asyncio.sleep(i / max(1, clients))
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                try:
                    r = await http.post(server.base + "/api/replay", content=body,
                                        headers={"content-type": "application/json"})
                    statuses[r.status_code] += 1
                except httpx.HTTPError as e:
                    statuses[type(e).__name__] += 1
                await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - t0)))

        async def pinger() -> None:
            async with websockets.connect(f"ws://{HOST}:{server.port}/ws/{code}", proxy=None,
                                          max_size=None) as ws:
                i = 0
                while time.perf_counter() < stop:
                    i += 1
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "ping", "id": i}))
                    while True:
                        m = json.loads(await ws.recv())
                        if m.get("type") == "pong" and m.get("id") == i:
                            break
                    rtts.append((time.perf_counter() - t0) * 1000)
                    await asyncio.sleep(0.05)

        jobs = [pinger()] + ([poster(i) for i in range(clients)] if body else [])
        await asyncio.gather(*jobs)
    return {"pings": len(rtts), "p50": pct(rtts, 0.5), "p99": pct(rtts, 0.99),
            "max": max(rtts), "answers": dict(statuses)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--src", default=str(ROOT / "src"), help="the server's source (PYTHONPATH)")
    p.add_argument("--actions", default="200000,20000")
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--seconds", type=float, default=15.0)
    a = p.parse_args()
    bodies = {n: record(int(n)) for n in a.actions.split(",")}
    print(f"server from {a.src}; {a.clients} clients post about 1 replay/s each; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    runs = [("alone", [], None)]
    for n, body in bodies.items():
        runs.append((f"{n} actions ({len(body) / 1e6:.2f} MB), default limits", [], body))
        runs.append((f"{n} actions, no replay budget", ["--limit", "replays_per_minute=0"],
                     body))
    for label, args, body in runs:
        try:
            server = Server(a.src, args)
        except RuntimeError as e:
            print(f"{label:48} skipped ({str(e)[-120:].strip()})")
            continue
        try:
            out = asyncio.run(run(server, body, a.clients, a.seconds))
        finally:
            server.stop()
        print(f"{label:48} ping p50 {out['p50']:7.1f} ms  p99 {out['p99']:7.1f} ms  "
              f"max {out['max']:7.1f} ms  ({out['pings']} pings)  answers {out['answers']}",
              flush=True)


if __name__ == "__main__":
    main()
