"""numba's compiler with an on-disk cache that cannot go stale.

numba's `cache=True` checks only the file of the function it compiles: a kernel cached from a
game's batch/kernels.py would keep the old rules after a change to the batch/rules.py it calls.
So every compiled function is cached in a directory named after a digest of all the sources it
may call: the .py files of its own folder (a game's `batch` package, e.g.
cardtable/abluxxen/batch/) and of this package (the shared random numbers, rng.py). Any change
to either compiles those functions afresh, once. The base directory is NUMBA_CACHE_DIR if set,
else the user's cache directory (platformdirs).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

#: this package: the shared parts every game's compiled rules call (rng.py)
_HERE = Path(__file__).resolve().parent


def _digest(folder: Path | None) -> str:
    h = hashlib.sha256()
    folders = [_HERE] if folder is None or folder == _HERE else [_HERE, folder]
    for d in folders:
        h.update(d.name.encode())
        for path in sorted(d.glob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir(folder: Path | None = None) -> Path:
    """The cache directory of the compiled functions of the sources in `folder` (None: this
    package's own)."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_cache_dir("cardtable")
    return Path(base) / "numba" / _digest(None if folder is None else Path(folder).resolve())


#: the cache directory of this package's own functions
CACHE_DIR = str(cache_dir())
_DIRS: dict[Path, str] = {_HERE: CACHE_DIR}


def njit(fn):
    """`numba.njit(cache=True)` with the cache in the directory of `fn`'s sources
    (`cache_dir`; numba reads the directory when it wraps the function, so the global setting
    is restored at once)."""
    folder = Path(fn.__code__.co_filename).resolve().parent
    if folder not in _DIRS:
        _DIRS[folder] = str(cache_dir(folder))
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = _DIRS[folder]
    try:
        return numba.njit(cache=True)(fn)
    finally:
        numba.config.CACHE_DIR = old
