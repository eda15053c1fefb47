"""numba's compiler with an on-disk cache that cannot go stale.

numba's `cache=True` checks only the file of the function it compiles: a kernel cached from
abluxxen_kernels.py would keep the old rules after a change to abluxxen_rules.py it calls. So
every function of the batched simulators is cached in a directory named after a digest of all
their sources (this package's .py files): any change compiles everything afresh, once. The
base directory is NUMBA_CACHE_DIR if set, else the user's cache directory (platformdirs).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent


def _digest() -> str:
    h = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("cardtable")
    return Path(base) / "numba" / _digest()


CACHE_DIR = str(cache_dir())


def njit(fn):
    """`numba.njit(cache=True)` with the cache in CACHE_DIR (numba reads the directory when
    it wraps the function, so the global setting is restored at once)."""
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = CACHE_DIR
    try:
        return numba.njit(cache=True)(fn)
    finally:
        numba.config.CACHE_DIR = old
