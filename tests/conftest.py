"""The test tree mirrors `src/cardtable/` (tests/core, tests/bots, tests/server, ...); the files
left here test the project as a whole (the house plan, the Makefile, the README).

This file's folder is on `sys.path` (pytest's rootdir-relative import of conftest files), so a
test anywhere may import the shared helpers kept here: `random_games`, `sizes` and the toy games.

Tests marked `full` run only in the full run (`make test-full`, CARDTABLE_FULL=1); in
`make test` they are deselected (reported as such, never counted as passed or skipped). This
hook runs after the folders' own (tests/server/conftest.py marks cells of its database matrix
`full`) and marks `full` what tests/sizes.py's LEFT_TO_FULL leaves to the full run. The slowest folders run first and the browser tests last (tests/sizes.py,
SLOW_FIRST)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sizes import deselect_full, leave_to_full, slow_first


def pytest_configure(config):
    # CARDTABLE_TIMINGS=FILE: per-module wall and CPU seconds (tests/timings.py)
    # (in the workers, not in xdist's controller, which sees every test's report again)
    controller = getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput")
    if os.environ.get("CARDTABLE_TIMINGS") and not controller:
        from timings import Recorder

        config.pluginmanager.register(Recorder(os.environ["CARDTABLE_TIMINGS"]), "timings")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    leave_to_full(items, Path(__file__).parent)
    deselect_full(config, items)
    slow_first(items, Path(__file__).parent)
