"""A training run's CPU-time budget that holds the whole run: `over()` answers True once the
longest stretch seen between two checks, plus the time reserved for what comes after the last
check (the closing evaluation or export), no longer fits in what is left. So a run that checks
between its steps ends inside the budget unless one step is longer than all before it."""

from __future__ import annotations

import time
from typing import Callable


class CpuBudget:
    """`seconds` of this process's CPU time (`clock`, default `time.process_time`) from now."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.process_time):
        self.seconds = seconds
        self.clock = clock
        self.start = self.last = clock()
        self.longest = 0.0
        self.tail = 0.0

    def spent(self) -> float:
        """CPU seconds since the start."""
        return self.clock() - self.start

    def reserve(self, seconds: float) -> None:
        """Keep at least `seconds` for the run's closing work (the largest reservation holds)."""
        self.tail = max(self.tail, seconds)

    def over(self) -> bool:
        """Is it time to stop (the next stretch like the longest so far would not fit with the
        reservation)? Each call also measures the stretch since the previous one."""
        now = self.clock()
        self.longest = max(self.longest, now - self.last)
        self.last = now
        return now - self.start + self.longest + self.tail >= self.seconds

    def restart_stretch(self) -> None:
        """The time since the last check is not a stretch of the run's steps (it was reserved
        work, e.g. an export measured for `reserve`)."""
        self.last = self.clock()
