"""Helpers of the server tests: real server processes (uvicorn, `python -m cardtable.server`) on
free loopback ports, real WebSocket clients (the `websockets` library), and the checks of what
the clients received against the engine (the downloaded record replayed)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from cardtable.core.record import load_record
from cardtable.narration import web_why
from cardtable.server.protocol import server_message
from cardtable.server.tables.views import describe, public_view, seat_names

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
#: seconds a test waits for an answer or an event before it calls the server hung: only a
#: guard (every wait ends at the event; a busy CI machine may be many times slower)
GUARD = 60.0


def run_async(coro):
    """asyncio.run(coro), in a thread of its own when this thread already has a running event
    loop (an xdist worker that ran a browser test first: Playwright keeps a loop in the main
    thread, and asyncio.run refuses to start a second one there). Returns the coroutine's
    value."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


#: every server process a test started (conftest kills any left at the end of the session)
STARTED: list = []


def kill_started() -> None:
    """Kill every server process a test started that is still running."""
    for proc in STARTED:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


class ServerProc:
    """`python -m cardtable.server` on 127.0.0.1:port."""

    def __init__(self, database: str, port: int | None = None, args: tuple = (),
                 log_dir: Path | None = None):
        self.database = database
        self.port = port or free_port()
        self.args = list(args)
        self.log_dir = log_dir
        self.proc: subprocess.Popen | None = None
        self._log = None

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://{HOST}:{self.port}"

    def start(self, timeout: float = 300.0) -> ServerProc:
        """Start the server and wait until it answers its health check (`timeout`: a guard
        against a hang, not a budget: a busy machine takes long to import the server)."""
        cmd = [sys.executable, "-m", "cardtable.server", "--host", HOST, "--port",
               str(self.port), "--database", self.database, "--bot-delay", "0",
               "--rate", "200", "--burst", "400", "--client-limits", "off",
               # no Kombio round breaks unless a test asks for them (test_table_life.py)
               "--round-break", "0", *self.args]
        if self.log_dir is not None:
            self._log = open(self.log_dir / f"server-{self.port}-{time.time():.0f}.log", "ab")
            out = self._log
        else:
            out = subprocess.DEVNULL
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                     cwd=str(ROOT))
        STARTED.append(self.proc)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                r = httpx.get(self.base + "/api/health", timeout=1.0, trust_env=False)
                if r.status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        stacks = ""
        spy = Path(sys.executable).with_name("py-spy")
        if spy.exists():
            stacks = subprocess.run([str(spy), "dump", "--pid", str(self.proc.pid)],
                                    capture_output=True, text=True).stdout
        self.kill9()
        raise RuntimeError(f"server did not start\n{stacks}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()
        if self._log:
            self._log.close()
            self._log = None

    # -- HTTP --------------------------------------------------------------------------------------
    def post(self, path: str, body: Any, **kw) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=GUARD, trust_env=False, **kw)

    def get(self, path: str, **kw) -> httpx.Response:
        return httpx.get(self.base + path, timeout=GUARD, trust_env=False, **kw)

    def create(self, **body) -> dict:
        r = self.post("/api/tables", body)
        assert r.status_code == 201, r.text
        return r.json()

    def join(self, code: str, name: str, seat: int | None = None) -> dict:
        r = self.post(f"/api/tables/{code}/join", {"name": name, "seat": seat})
        assert r.status_code == 200, r.text
        return r.json()

    def record(self, code: str) -> dict:
        r = self.get(f"/api/tables/{code}/record")
        assert r.status_code == 200, r.text
        return r.json()


class Client:
    """A WebSocket client that keeps every message it receives (validated against the
    protocol's server models)."""

    def __init__(self, ws_base: str, code: str, token: str | None = None, lang: str = "en",
                 since: int | None = None, headers: dict | None = None):
        q = []
        if token:
            q.append(f"token={token}")
        if lang != "en":
            q.append(f"lang={lang}")
        if since is not None:
            q.append(f"since={since}")
        self.url = f"{ws_base}/ws/{code}" + ("?" + "&".join(q) if q else "")
        self.headers = headers
        self.token = token
        self.lang = lang
        self.messages: list[dict] = []
        self.ws = None
        self._reader: asyncio.Task | None = None
        self._cond = asyncio.Condition()
        self.closed = False
        self.close_code: int | None = None

    async def connect(self) -> Client:
        # proxy=None: loopback only, whatever the environment says
        self.ws = await websockets.connect(self.url, max_size=None, open_timeout=GUARD, proxy=None,
                                           compression=None, additional_headers=self.headers)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                server_message.validate_python(msg)          # every message is well formed
                async with self._cond:
                    self.messages.append(msg)
                    self._cond.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.close_code = self.ws.close_code if self.ws else None
            async with self._cond:
                self._cond.notify_all()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    async def wait_for(self, pred: Callable[[dict], bool], timeout: float = GUARD,
                       start: int = 0) -> dict:
        """The first message from index `start` on that satisfies `pred`."""
        deadline = asyncio.get_running_loop().time() + timeout
        i = start
        async with self._cond:
            while True:
                while i < len(self.messages):
                    if pred(self.messages[i]):
                        return self.messages[i]
                    i += 1
                if self.closed:
                    raise ConnectionError(f"closed ({self.close_code}) while waiting")
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    raise TimeoutError(f"no such message; last: {self.messages[-3:]}")
                try:
                    await asyncio.wait_for(self._cond.wait(), left)
                except TimeoutError:
                    pass

    async def reply(self, obj: dict, kinds=("ack", "error", "pong", "state"),
                    timeout: float = GUARD) -> dict:
        """Send `obj` and wait for the answer of those kinds that arrives after it."""
        start = len(self.messages)
        await self.send(obj)
        return await self.wait_for(lambda m: m["type"] in kinds, timeout, start)

    def states(self) -> list[dict]:
        return [m for m in self.messages if m["type"] == "state"]

    def last_state(self) -> dict | None:
        for m in reversed(self.messages):
            if m["type"] == "state":
                return m
        return None

    def errors(self) -> list[dict]:
        return [m for m in self.messages if m["type"] == "error"]


def choose(rng: random.Random, legal: list[str], game: str, call: bool = True) -> str:
    """A scripted player's choice among the legal decisions it received (Kombio: mostly
    passes in snap windows, now and then a call if `call`)."""
    if game == "kombio":
        if "pass" in legal and rng.random() < 0.9:
            return "pass"
        if "kombio" in legal:
            if call and rng.random() < 0.05:
                return "kombio"
            if len(legal) > 1:
                legal = [d for d in legal if d != "kombio"]
    return rng.choice(legal)


#: errors a well-behaved client may get when the game moved on under it (another connection
#: of the seat, a timer, a window that closed)
RACES = {"stale", "not_your_turn", "already_answered", "game_over"}


async def play(client: Client, game: str, rng: random.Random,
               stop: Callable[[], bool] | None = None,
               timeout: float = 600.0, call_after: int = 0) -> None:
    """Decide whenever the client's latest state asks for it, until the game is over."""
    acted: set = set()
    deadline = asyncio.get_running_loop().time() + timeout
    seen = 0
    while True:
        if stop is not None and stop():
            return
        st = client.last_state()
        if st is not None and st["status"] == "over":
            return
        if st is not None and st["legal"] and (st["index"], st["window"] is not None) not in acted:
            acted.add((st["index"], st["window"] is not None))
            text = choose(rng, st["legal"], game, call=st["index"] >= call_after)
            await client.send({"type": "decide", "decision": text, "index": st["index"]})
        bad = [e for e in client.errors() if e["code"] not in RACES]
        assert not bad, bad
        seen = len(client.messages)
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise TimeoutError(f"game not over; errors {client.errors()[-3:]}; "
                               f"last messages {client.messages[-6:]}")
        try:
            await client.wait_for(lambda m: m["type"] == "state", min(left, 5.0), seen)
        except TimeoutError:
            pass


# -- checks ------------------------------------------------------------------------------------------
FORBIDDEN_KEYS = {"seed", "deal", "deals", "token_hash"}


def _scan(obj, path="") -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert k not in FORBIDDEN_KEYS, f"{path}.{k} sent to a client"
            if k == "deck":
                assert not isinstance(v, list), f"{path}.deck lists cards"
            _scan(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _scan(v, f"{path}[{i}]")


class Replay:
    """The downloaded record replayed: every seat's view after each action."""

    def __init__(self, record: dict):
        self.record = record
        st = load_record(dict(record, actions=[]))
        self.players = st.players
        self.game = record["game"]
        self.states = []
        self.views: list[dict] = []
        self.actors: list[int] = []
        self._snap(st)
        for a in record["actions"]:
            self.actors.append(st.to_move)
            st.apply(a)
            self._snap(st)

    def _snap(self, st) -> None:
        seat_views = {s: st.view(s) for s in range(st.players)}
        seat_views[None] = public_view(st, dict(seat_views))
        self.views.append(seat_views)
        self.states.append(st.copy())


def check_messages(client: Client, seat: int | None, rp: Replay, names_rows: list[dict]) -> int:
    """Everything `client` (at `seat`, None = spectator) received matches what the engine lets
    that seat see. Returns the number of messages checked."""
    names = {lang: seat_names(names_rows, lang) for lang in ("en", "de")}
    checked = 0
    for m in client.messages:
        _scan(m)
        if m["type"] == "state":
            i = m["index"]
            expect = rp.views[i][seat]
            assert m["view"] == expect, f"state view at {i} differs for seat {seat}"
            st = rp.states[i]
            if seat is None:
                assert m["legal"] == []
                v = m["view"]
                if rp.game == "abluxxen":
                    assert all(isinstance(h, int) for h in v["hands"]), v["hands"]
                    assert v["legal"] == []
                else:
                    assert v["drawn"] is None
                    for p, grid in enumerate(v["grids"]):
                        for s, val in enumerate(grid):
                            if val not in ("?", None):
                                assert all(rp.views[i][q]["grids"][p][s] == val
                                           for q in range(rp.players)), (p, s)
            elif m["legal"] and m["status"] == "playing":
                if st.awaiting == "snap":
                    c = st.copy()
                    for q in m["window"]["seats"]:
                        if q == seat:
                            break
                        c.apply("pass")
                    assert m["legal"] == c.legal()
                else:
                    assert st.to_move == seat and m["legal"] == st.legal()
            # the same decisions as JSON, the engine's, in the same order (issue 30)
            assert m["decisions"] == [st.decision_json(d, seat) for d in m["legal"]], i
            # the "why" line: from this viewer's own view, in the connection's language
            assert m["why"] == expected_why(rp.game, m, seat, names[client.lang], client.lang)
            checked += 1
        elif m["type"] == "event":
            i = m["index"]
            assert m["decision"] == rp.record["actions"][i]
            assert m["seat"] == rp.actors[i]
            assert m["move"] == rp.states[i].decision_json(m["decision"], m["seat"])
            lang = client.lang
            want = describe(rp.game, rp.views[i][seat], m["decision"], rp.views[i + 1][seat],
                            m["seat"], seat, names[lang], lang)
            assert m["text"] == want, (m, want)
            checked += 1
    return checked


def expected_why(game: str, state: dict, seat: int | None, names: list[str], lang: str) -> str:
    """The "why" a state message should carry: narration's line for the message's own view
    (the seat's, or the public one), window part and legal decisions; "" while waiting."""
    if state["status"] == "waiting":
        return ""
    return web_why(game, state["view"], seat, names, lang, state["window"], bool(state["legal"]))


def event_log(client: Client) -> dict[int, str]:
    return {m["index"]: m["decision"] for m in client.messages if m["type"] == "event"}


# -- shared by the fixtures (conftest.py) and the tests ------------------------------------------
def database_url(kind: str, request, tmp_dir: Path) -> str:
    """A fresh database: a SQLite file, or a new database in the session's cluster (so no
    module's server takes up the unfinished games of another module)."""
    if kind == "sqlite":
        return str(tmp_dir / "cardtable.db")
    import uuid

    import psycopg

    url = request.getfixturevalue("pg_url")
    name = "ct_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name


def assert_clean_log(logs: Path) -> None:
    """No server process logged a traceback (an unexpected exception)."""
    for f in logs.glob("server-*.log"):
        text = f.read_text(errors="replace")
        assert "Traceback" not in text, f"{f.name}:\n{text[-4000:]}"


def echo_think(name: str, seed: int, state) -> str:
    """A stand-in for botpool.think (run in the pool's worker processes): answers the job's
    name, so a test sees the order in which jobs were made."""
    return name


def watch_to_the_end(ws_base: str, code: str, guard: float = 600.0) -> None:
    """Watch a table as a spectator until its game is over (a table of bots only is played
    only while somebody watches it: driver.py). `guard`: seconds without a message before the
    server is called hung."""
    from websockets.sync.client import connect

    with connect(f"{ws_base}/ws/{code}", proxy=None, max_size=None) as ws:
        while True:
            m = json.loads(ws.recv(timeout=guard))
            if m["type"] == "state" and m["status"] == "over":
                return


# -- long finished games -------------------------------------------------------------------------
def long_kombio_record(seed: int, rng_seed: int, target: int) -> dict:
    """The record of a finished 4-player Kombio game of random play with Kombio called rarely
    (about one turn in 60), so that it runs to thousands of actions."""
    from cardtable.core.rng import Rng
    from cardtable.kombio import new_game as kombio_game

    s = kombio_game(players=4, seed=seed, target=target)
    r = Rng(rng_seed)
    while not s.over:
        legal = s.legal_decisions()
        if any(d.text == "kombio" for d in legal) and r.below(60) == 0:
            s.apply("kombio")
            continue
        legal = [d for d in legal if d.text != "kombio"] or legal
        s.apply(legal[r.below(len(legal))])
    return s.record()


def plant_finished_game(db: str, code: str, rec: dict, bots: bool = True) -> None:
    """Write `rec` into the SQLite database `db` as the finished game of the waiting table
    `code`, as the server would have stored it: its seats made bots (`bots`), or left as they
    are, the decisions then the players'."""
    import sqlite3

    base = dict(rec)
    actions = base.pop("actions")
    st = load_record(dict(base, actions=[]))
    rows = []
    for i, a in enumerate(actions):
        rows.append((i, st.to_move, a))
        st.apply(a)
    by = "bot" if bots else "player"
    with sqlite3.connect(db) as conn:
        tid = conn.execute("SELECT id FROM game_tables WHERE code = ?", (code,)).fetchone()[0]
        conn.executemany('INSERT INTO actions (table_id, idx, seat, text, "by", at) '
                         "VALUES (?, ?, ?, ?, ?, 0)", [(tid, *r, by) for r in rows])
        conn.execute("UPDATE game_tables SET base = ?, n_actions = ?, status = 'over', "
                     "version = version + 1 WHERE id = ?", (json.dumps(base), len(rows), tid))
        if bots:
            conn.execute("UPDATE seats SET kind = 'bot', bot = 'easy' WHERE table_id = ?",
                         (tid,))


def call(srv: ServerProc, method: str, path: str, sess: str | None = None, json=None):
    """A request as this site's page makes it (its Origin), with the session cookie `sess`."""
    headers = {"Origin": srv.base}
    if sess:
        headers["Cookie"] = f"cardtable_session={sess}"
    return httpx.request(method, srv.base + path, json=json, headers=headers, timeout=GUARD,
                         trust_env=False)
