"""A game's compiled rollout made ready without waiting for the compiler, the one
implementation every game's search uses (kombio/heuristics/search.py and
abluxxen/heuristics.py `playout`, through their `batch` package's `COMPILED`).

Compiling a simulator's rollout costs tens of CPU seconds where numba's cache is cold (after
an install or a change to the simulator's sources; jit.py), loading it from the cache about a
second. So `Compiled(module)()` first starts a separate process, `python -m <module>`, that
compiles the module's functions into the cache or finds them there (the module's `__main__`
calls `warm`), and answers None; a later call imports the module's `playout` once that process
has succeeded, so no decision waits for the compiler. A forked child (a process pool) starts
its own warm-up rather than polling its parent's process. None for good where numba is
missing or the warm-up failed.

`PerThread` keeps a rollout's row and scratch once per thread: the server's searches run in
threads of their own, and two threads writing one row would play a mix of two states (one
that may never end, and the compiled loop holds the interpreter's lock while it runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable

#: the folder cardtable was imported from (put first on the warm-up's import path)
_ROOT = str(Path(__file__).resolve().parents[3])


class Compiled:
    """The compiled function `attr` of `module` (a dotted name) once ready in this process:
    call it (`wait=True`: wait for the warm-up; tests, benchmarks)."""

    def __init__(self, module: str, attr: str = "playout"):
        self.module = module
        self.attr = attr
        #: the function once imported; False where numba is missing or the warm-up failed
        self.loaded: Callable | bool | None = None
        #: (pid, the warm-up process) once started
        self.warming: tuple[int, subprocess.Popen] | None = None

    def __call__(self, wait: bool = False) -> Callable | None:
        if self.loaded is not None:           # loaded (a forked child keeps it) or not to be
            return self.loaded or None
        if self.warming is not None and self.warming[0] != os.getpid():   # a forked child
            self.warming = None
        if self.warming is None:
            try:
                self.warming = (os.getpid(), subprocess.Popen(
                    self.command(), env=self.env(), stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            except OSError:
                self.loaded = False
                return None
        proc = self.warming[1]
        code = proc.wait() if wait else proc.poll()
        if code is None:
            return None
        if code != 0:
            self.loaded = False
            return None
        try:
            import importlib

            fn = getattr(importlib.import_module(self.module), self.attr)
        except (ImportError, AttributeError):
            self.loaded = False
            return None
        self.loaded = fn
        return fn

    def command(self) -> list[str]:
        """The process that compiles the module into numba's cache (or finds it there)."""
        return [sys.executable, "-m", self.module]

    def env(self) -> dict:
        """This process's environment, with the folder cardtable was imported from first on
        the warm-up's import path."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
        return env


#: the decisions a compiled rollout may play before it is given up (its `roll` answers -1, the
#: search plays that rollout in Python): far past any game's length, a guard against a row that
#: would never end, not a cap on the search (both games' batch/rollout.py)
LIMIT = 20_000


class PerThread:
    """`make(*key)` once per thread and key, kept: `rows(*key)` is this thread's."""

    def __init__(self, make: Callable):
        self.make = make
        self.local = threading.local()

    def __call__(self, *key):
        made = self.local.__dict__.setdefault("made", {})
        obj = made.get(key)
        if obj is None:
            obj = made[key] = self.make(*key)
        return obj


def warm(folder: Path, play: Callable[[], bool]) -> None:
    """The warm-up process's work (a module's `__main__`): `play()` one rollout, which
    compiles the module's functions into numba's cache (the cache directory of the sources in
    `folder`, jit.py) or loads them from there; exits with an error if it answers False. One
    process at a time compiles (a lock file in the cache directory): the others wait for it,
    then load what it wrote."""
    from cardtable.rl.batch.jit import cache_dir

    where = cache_dir(Path(folder))
    where.mkdir(parents=True, exist_ok=True)
    with open(where / "warm.lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:                          # no fcntl: each compiles on its own
            pass
        if not play():
            raise SystemExit("cardtable: the compiled rollout could not play a new game")
