"""A training run's CPU-time budget that holds the whole run: `over()` answers True once the
longest stretch seen between two checks, plus the time reserved for what comes after the last
check (the closing evaluation or export), no longer fits in what is left. So a run that checks
between its steps ends inside the budget unless one step is longer than all before it.

`CpuBudget.whole_process` counts from the process's start (its imports and warm-up included,
and the CPU of the child processes it waited for) and keeps `CLOSING` seconds for what a run
does after its last check besides its reserved work (saving, the curve, the log)."""

from __future__ import annotations

import os
from typing import Callable

CLOSING = 5.0


def process_cpu() -> float:
    """CPU seconds of this process since it started, with those of the children it waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class CpuBudget:
    """`seconds` of CPU time on `clock` (default `process_cpu`) from `start` (default now)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = process_cpu,
                 start: float | None = None, closing: float = 0.0):
        self.seconds = seconds
        self.clock = clock
        self.last = clock()
        self.start = self.last if start is None else start
        self.longest = 0.0
        self.tail = 0.0
        self.closing = closing

    @classmethod
    def whole_process(cls, seconds: float) -> "CpuBudget":
        """The run is the whole process: counted from its start, `CLOSING` kept for its end."""
        return cls(seconds, process_cpu, start=0.0, closing=CLOSING)

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
        return now - self.start + self.longest + self.tail + self.closing >= self.seconds

    def restart_stretch(self) -> None:
        """The time since the last check is not a stretch of the run's steps (it was reserved
        work, e.g. an export measured for `reserve`)."""
        self.last = self.clock()
