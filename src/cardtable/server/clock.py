"""The server's clock, a dependency of the app (`create_app(settings, clock=...)`): every time
the game runtime reads (deadlines, turn timers, round breaks, reminders, expiry, the
`server_time` of the messages) and every wait of its drivers and sweeper go through one object,
so a test can play a week of a turn-based table in a second by advancing a `FakeClock`.

`Clock` is real time: `now()` is `time.time()`, `sleep` and `wait` use the event loop's
timers, exactly as the server did before it had a clock. What is not the game's time stays on
the real clock: the transport's timeouts (connections.py), the rate limits' token buckets,
sessions and the VAPID token's expiry (checked by real push services)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time


class Clock:
    """Real time."""

    def now(self) -> float:
        """Epoch seconds."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def wait(self, event: asyncio.Event, timeout: float | None) -> bool:
        """Wait until `event` is set (True) or `timeout` seconds passed (False)."""
        if timeout is None:
            await event.wait()
            return True
        try:
            await asyncio.wait_for(event.wait(), max(0.0, timeout))
            return True
        except TimeoutError:
            return False


class FakeClock(Clock):
    """A clock that stands still until `advance` moves it (tests): the sleeps and waits whose
    time has come then wake, in the order of their ends. Use it on one event loop."""

    def __init__(self, start: float = 1_800_000_000.0):
        self.t = float(start)
        self._sleepers: list[tuple[float, int, asyncio.Future]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.t

    def _timer(self, seconds: float) -> asyncio.Future:
        fut = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.t + max(0.0, seconds), next(self._seq), fut))
        self._fire()
        return fut

    def _fire(self) -> None:
        while self._sleepers and self._sleepers[0][0] <= self.t:
            _, _, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut = self._timer(seconds)
        try:
            await fut
        finally:
            fut.cancel()

    async def wait(self, event: asyncio.Event, timeout: float | None) -> bool:
        if event.is_set():
            return True
        if timeout is None:
            await event.wait()
            return True
        timer = self._timer(timeout)
        waiter = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait({timer, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            waiter.cancel()
        return event.is_set()

    def next_wake(self) -> float | None:
        """When the next pending sleep or wait ends (None: nothing waits on time)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def advance(self, seconds: float) -> None:
        """Move the time on by `seconds` and wake whoever's time has come."""
        self.t += seconds
        self._fire()
        await asyncio.sleep(0)
