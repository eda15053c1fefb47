"""numba's compiler with an on-disk cache that cannot go stale.

numba's `cache=True` checks only the file of the function it compiles: a kernel cached from a
game's batch/kernels.py would keep the old rules after a change to the batch/rules.py it calls.
So every compiled function is cached in a directory named after a digest of all the sources it
may call: the .py files of its own folder (a game's `batch` package, e.g.
cardtable/abluxxen/batch/) and of this package (the shared random numbers, rng.py). Any change
to either compiles those functions afresh, once. The base directory is NUMBA_CACHE_DIR if set,
else the user's cache directory (platformdirs).

The cache files are found by the digest alone (`DigestLocator`, put first in numba's list of
cache locators): numba's own locators name a cache after the absolute path of the source's
folder, so every clone or install in another place compiled everything again (about 185 CPU s
for the suite's kernels) although the sources were the same.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba
from numba.core import caching

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


class DigestLocator(caching._CacheLocator):
    """numba's cache locator for the functions of the folders `njit` compiled: the cache
    directory is the folder's digest directory (`cache_dir`), and the sources' freshness is
    that digest, whatever the path of the files (another clone, another install)."""

    def __init__(self, py_func, path: str):
        self._lineno = py_func.__code__.co_firstlineno
        self._path = path

    def get_cache_path(self) -> str:
        return self._path

    def get_source_stamp(self) -> str:
        return Path(self._path).name           # the digest of every source it may call

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        path = _DIRS.get(Path(py_file).resolve().parent)
        if path is None:                       # not one of ours: numba's own locators
            return None
        self = cls(py_func, path)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


if DigestLocator not in caching.CacheImpl._locator_classes:
    caching.CacheImpl._locator_classes.insert(0, DigestLocator)


def njit(fn):
    """`numba.njit(cache=True)` with the cache in the directory of `fn`'s sources
    (`cache_dir`, found by `DigestLocator`)."""
    folder = Path(fn.__code__.co_filename).resolve().parent
    if folder not in _DIRS:
        _DIRS[folder] = str(cache_dir(folder))
    return numba.njit(cache=True)(fn)
