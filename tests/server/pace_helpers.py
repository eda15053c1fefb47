"""The whole server in the test's own event loop (uvicorn on a free loopback port) with a
`FakeClock` (server/clock.py): a turn-based table's days pass when the test advances the clock,
never by sleeping. Real WebSocket clients (helpers.Client) and HTTP (httpx)."""

from __future__ import annotations

import asyncio

import httpx
import uvicorn
from helpers import GUARD, HOST, Client, free_port

from cardtable.server import Settings, create_app
from cardtable.server.clock import FakeClock
from cardtable.server.guard.security import Limits

HOUR = 3600.0
DAY = 24 * HOUR


class Local:
    """`async with Local(database, clock) as srv:` the app serving on srv.base."""

    def __init__(self, database: str, clock: FakeClock, **settings):
        self.clock = clock
        self.port = free_port()
        opts = dict(database=database, announce=False, bot_workers=0, bot_delay=0.0,
                    round_break=0.0, limits=Limits.off(), push_allow_local=True,
                    public_turn_seconds=0, host=HOST, port=self.port)
        opts.update(settings)
        self.settings = Settings(**opts)
        self.app = create_app(self.settings, clock=clock)
        self.base = f"http://{HOST}:{self.port}"
        self.ws_base = f"ws://{HOST}:{self.port}"
        self.http: httpx.AsyncClient | None = None
        self._task: asyncio.Task | None = None
        self._server: uvicorn.Server | None = None
        self.clients: list[Client] = []

    async def __aenter__(self) -> Local:
        config = uvicorn.Config(self.app, host=HOST, port=self.port, log_level="warning",
                                lifespan="on", ws_per_message_deflate=False)
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        await until(lambda: self._server.started or self._task.done(), "server start")
        assert not self._task.done(), "the server did not start"
        self.http = httpx.AsyncClient(base_url=self.base, trust_env=False, timeout=GUARD)
        return self

    async def __aexit__(self, *exc) -> None:
        for c in self.clients:
            await c.close()
        await self.http.aclose()
        self._server.should_exit = True
        await asyncio.wait_for(self._task, GUARD)

    async def client(self, code: str, token: str | None = None, lang: str = "en") -> Client:
        c = await Client(self.ws_base, code, token, lang).connect()
        self.clients.append(c)
        return c

    async def create(self, **body) -> dict:
        r = await self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    async def join(self, code: str, name: str) -> dict:
        r = await self.http.post(f"/api/tables/{code}/join", json={"name": name})
        assert r.status_code == 200, r.text
        return r.json()

    async def table(self, code: str) -> httpx.Response:
        return await self.http.get(f"/api/tables/{code}")


async def until(cond, what: str, guard: float = GUARD) -> None:
    """Poll `cond` (on the event loop) until it is true; a guard, not a budget."""
    loop = asyncio.get_running_loop()
    end = loop.time() + guard
    while not cond():
        if loop.time() > end:
            raise TimeoutError(what)
        await asyncio.sleep(0.01)


async def settle(local: Local) -> None:
    """Wait until the drivers have nothing to do but wait on time or on a player."""
    hub = local.app.state.hub()
    await until(lambda: all(not rt.lock.locked() for rt in hub.rts.values()), "locks")
    for _ in range(20):
        await asyncio.sleep(0)
