"""How much the sampled tests play. `make test` runs a sample of the long runs (the property
test's seeded games, the batched simulators' differential games, OpenSpiel's perfect-recall
games, one cell per row of each browser matrix) so that the suite can run often;
`make test-full` sets CARDTABLE_FULL=1 and runs every test at its full size, and the tests
marked `full` (tests/conftest.py deselects them otherwise).
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
