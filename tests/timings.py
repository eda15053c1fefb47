"""Per-module timings of a test run, for finding what makes the suite slow.

With CARDTABLE_TIMINGS=FILE each pytest process (each xdist worker) appends one JSON line to
FILE per run of a module's tests, when the run's last test is done: the module, its tests, the
wall seconds from the first test's setup to the last test's teardown, and the CPU seconds of the
worker process itself and of its waited-for children (servers, browsers) in that time.
`python tests/timings.py FILE` prints the modules by wall time (a module's runs added up) and
the totals.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time


def _cpu() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


class Recorder:
    """A pytest plugin writing one line per module (see the module's docstring)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.module = None
        self.start = (0.0, 0.0, 0.0)
        self.tests = 0
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "main")

    def _flush(self) -> None:
        if self.module is None:
            return
        wall0, me0, kids0 = self.start
        me, kids = _cpu()
        line = {"module": self.module, "tests": self.tests, "worker": self.worker,
                "wall": round(time.monotonic() - wall0, 2), "cpu": round(me - me0, 2),
                "children_cpu": round(kids - kids0, 2)}
        with open(self.path, "a") as f:
            f.write(json.dumps(line) + "\n")
        self.module = None

    def pytest_runtest_logstart(self, nodeid, location):
        module = nodeid.split("::")[0]
        if module != self.module:
            self._flush()
            self.module = module
            self.tests = 0
            self.start = (time.monotonic(), *_cpu())
        self.tests += 1

    def pytest_sessionfinish(self, session):
        self._flush()


def main(path: str) -> None:
    rows: dict[str, dict] = {}
    for line in open(path):
        r = json.loads(line)
        row = rows.setdefault(r["module"], {"module": r["module"], "tests": 0, "wall": 0.0,
                                             "cpu": 0.0, "children_cpu": 0.0})
        for key in ("tests", "wall", "cpu", "children_cpu"):
            row[key] += r[key]
    rows = list(rows.values())
    rows.sort(key=lambda r: -r["wall"])
    print(f"{'wall s':>8} {'cpu s':>8} {'kids s':>8} {'tests':>5}  module")
    for r in rows:
        print(f"{r['wall']:8.1f} {r['cpu']:8.1f} {r['children_cpu']:8.1f} {r['tests']:5}  "
              f"{r['module']}")
    print(f"{sum(r['wall'] for r in rows):8.1f} {sum(r['cpu'] for r in rows):8.1f} "
          f"{sum(r['children_cpu'] for r in rows):8.1f} {sum(r['tests'] for r in rows):5}  in all")


if __name__ == "__main__":
    main(sys.argv[1])
