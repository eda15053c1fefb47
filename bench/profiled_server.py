"""The game server (`python -m cardtable.server ARGS`) under cProfile, for
`bench/bench_server.py --profile DIR`: `python bench/profiled_server.py OUT ARGS`.

The profiler is off until the process gets SIGUSR1 (the bench sends it when its measured
seconds begin) and SIGUSR2 stops it and writes the statistics to OUT (read them with
`python -m pstats OUT`). Only the event loop's thread is profiled (not the SQLite writer's or
worker threads), in its own CPU time (`time.thread_time`: a busy machine does not inflate it).
cProfile slows the profiled code, so CPU figures of such a run are not comparable with a run
without it; its shares are what to read."""

from __future__ import annotations

import cProfile
import signal
import sys
import time

from cardtable.server import main

out = sys.argv.pop(1)
profile = cProfile.Profile(time.thread_time)     # CPU time of the loop, not wall time


def _start(*_) -> None:
    profile.enable()


def _stop(*_) -> None:
    profile.disable()
    profile.dump_stats(out)


signal.signal(signal.SIGUSR1, _start)
signal.signal(signal.SIGUSR2, _stop)
sys.exit(main())
