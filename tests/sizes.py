"""How much the sampled tests play. `make test` runs a sample of the long runs (the property
test's seeded games, the batched simulators' differential games, OpenSpiel's perfect-recall
games, one cell per row of each browser matrix, each server test on one of its two databases)
so that the suite can run often; `make test-full` sets CARDTABLE_FULL=1 and runs every test at
its full size, and the tests marked `full` (tests/conftest.py deselects them otherwise). A
sample is the start of the full run's seeds, or a fixed choice of its cells, so `make
test-full` covers all that `make test` plays and the rest. SLOW_FIRST orders the folders.
"""

from __future__ import annotations

import os

#: True in `make test-full` (CARDTABLE_FULL=1)
FULL = os.environ.get("CARDTABLE_FULL", "") not in ("", "0")


def sample(full: int, quick: int) -> int:
    """`full` in the full run, else `quick` (the number a test plays in `make test`)."""
    return full if FULL else quick


def deselect_full(config, items: list, full: bool | None = None) -> None:
    """Unless this is the full run, drop the tests marked `full` from `items` and report them
    as deselected (never counted as passed or skipped). tests/conftest.py calls it."""
    if FULL if full is None else full:
        return
    dropped = [it for it in items if it.get_closest_marker("full")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [it for it in items if not it.get_closest_marker("full")]


def database_sample(items: list, databases: list[str]) -> None:
    """Mark `full` the cells of the database matrix that `make test` leaves out: each test that
    takes the `database` (or `fresh_db`) fixture runs there on one database, picked by a checksum of its module
    and name (the same on every xdist worker and every run), so that the tests of a module are
    spread over both; `make test-full` runs every test on every database."""
    import zlib

    import pytest

    for item in items:
        spec = getattr(item, "callspec", None)
        param = next((p for p in DATABASE_FIXTURES if spec is not None and p in spec.params),
                     None)
        if param is None:
            continue
        name = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
        if spec.params[param] != databases[zlib.crc32(name.encode()) % len(databases)]:
            item.add_marker(pytest.mark.full)


#: the fixtures whose parameter is the database (a module's shared one, a test's fresh one)
DATABASE_FIXTURES = ("database", "fresh_db")


def database_kinds(test: str) -> list:
    """The parameters of a test's own database matrix (not the `database` fixture, which
    `database_sample` samples): SQLite and PostgreSQL, one of them marked `full`, picked by a
    checksum of `test` (its name), so that `make test` runs it on one database and `make
    test-full` on both."""
    import zlib

    import pytest

    kinds = ["sqlite", "postgresql"]
    keep = kinds[zlib.crc32(test.encode()) % 2]
    return [k if k == keep else pytest.param(k, marks=pytest.mark.full) for k in kinds]


#: the folders whose tests take longest, run first (tests/conftest.py), so that the workers do
#: not end on one of them; the browser tests (web) run after every other test, as the last
#: folder: Playwright keeps an event loop running in a worker's main thread from its first
#: browser test on, where a later `asyncio.run` would be refused (pytest-xdist's default `load`
#: hands each worker its tests in this order)
SLOW_FIRST = ("server", "rl", "core", "cli", "kombio", "bots", "sim")
LAST = "web"


def slow_first(items: list, root) -> None:
    """Sort `items` (stably) by the folder under tests/ they are in: SLOW_FIRST's first, LAST's
    last, the others between."""
    def rank(item) -> int:
        try:
            folder = item.path.relative_to(root).parts[0]
        except ValueError:
            folder = ""
        if folder == LAST:
            return len(SLOW_FIRST) + 1
        return SLOW_FIRST.index(folder) if folder in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)
