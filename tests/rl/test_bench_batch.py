"""bench/bench_batch.py bounds each row by CPU time: a warm-up call that is not measured, then
the row's loop until the process has used at least the bound (on a busy core, where a wall
second gives less than a CPU second, over more than one call). Checked on a simulated clock."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_batch  # noqa: E402


class Clock:
    """Wall and CPU clocks that a fake row advances: `share` CPU seconds per wall second."""

    def __init__(self, share: float):
        self.share, self.wall, self.cpu = share, 100.0, 7.0
        self.calls: list[float] = []

    def row(self, name, *, seconds):
        assert name == "game"
        self.calls.append(seconds)
        self.wall += seconds
        self.cpu += seconds * self.share
        return int(1000 * seconds * self.share), 3, seconds


@pytest.mark.parametrize("share", [1.0, 0.3])
def test_rows_are_bounded_by_cpu_time_after_a_warm_up(monkeypatch, share):
    clock = Clock(share)
    monkeypatch.setattr(bench_batch.time, "perf_counter", lambda: clock.wall)
    monkeypatch.setattr(bench_batch.time, "process_time", lambda: clock.cpu)
    count, games, wall, cpu = bench_batch.timed(2.0, clock.row, "game")
    assert clock.calls[0] == bench_batch.WARMUP              # the warm-up comes first
    assert 2.0 <= cpu < 2.1                                  # the bound, not far past it
    assert count / cpu == pytest.approx(1000, rel=0.01)      # the warm-up is not counted
    assert wall == pytest.approx(cpu / share)
    assert games == 3 * (len(clock.calls) - 1)
    if share < 1:                    # a busy core: the first call falls short, more follow
        assert len(clock.calls) > 2
