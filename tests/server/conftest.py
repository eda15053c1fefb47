"""Fixtures of the server tests: databases (a SQLite file, a throwaway PostgreSQL cluster from
scripts/ensure-postgres.sh) and real server processes on free loopback ports.

The tests that take the `database` fixture run on both databases in `make test-full`; `make
test` runs each such test on one of them, chosen by its name (tests/sizes.py,
`database_sample`), so that every module still runs on both and the full run has the rest."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from helpers import ROOT, ServerProc, assert_clean_log, database_url, kill_started
from sizes import database_sample

DATABASES = ["sqlite", "postgresql"]


def pytest_collection_modifyitems(config, items):
    """Marks `full` the database cells `make test` leaves to `make test-full`."""
    database_sample(items, DATABASES)


@pytest.fixture(scope="session", autouse=True)
def _no_server_left():
    """Whatever happens in a test, no server process outlives the session."""
    yield
    kill_started()


@pytest.fixture(scope="session")
def pg_url(_no_server_left):
    """A PostgreSQL cluster for this test session (one per xdist worker), stopped at the end."""
    cluster = tempfile.mkdtemp(prefix="cardtable-pg-", dir="/tmp")
    env = dict(os.environ, CARDTABLE_PG_DIR=cluster, CARDTABLE_PG_FAST="1")
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh")], env=env,
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh"), "--stop", cluster])
        pytest.fail(f"scripts/ensure-postgres.sh failed:\n{proc.stderr}")
    url = proc.stdout.strip().splitlines()[-1]
    assert url.startswith("postgresql://cardtable@127.0.0.1:"), url
    yield url
    subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh"), "--stop", cluster],
                   timeout=120)


@pytest.fixture(scope="module", params=DATABASES)
def database(request, tmp_path_factory) -> str:
    return database_url(request.param, request, tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("logs")


@pytest.fixture(scope="module")
def server(database, logs):
    """One server process per test module and database."""
    srv = ServerProc(database, log_dir=logs).start()
    yield srv
    srv.stop()
    assert_clean_log(logs)
