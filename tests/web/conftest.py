"""Fixtures of the browser tests: Debian's Chromium (scripts/ensure-chromium.sh installs it when
missing) driven headless by Playwright, against a live `cardtable` server on a free loopback port
with a temporary SQLite database. Screenshots go to $CARDTABLE_ARTIFACTS (default
tests/web/artifacts/)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "server"))

from helpers import ServerProc, kill_started  # noqa: E402
from pages import page_factory  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

# Playwright's expect() waits for a state; its default 5 seconds are a hang guard of a minute
# here, as the pages' own waits (pages.py): a busy machine took longer than 5 s to show the
# coach's answer, and a wait ends at the state, so passing tests take no longer
expect.set_options(timeout=60_000)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(os.environ.get("CARDTABLE_ARTIFACTS") or ROOT / "tests" / "web" / "artifacts")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    proc = subprocess.run(["sh", str(ROOT / "scripts" / "ensure-chromium.sh")], capture_output=True,
                          text=True, timeout=900)
    if proc.returncode != 0 or not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"scripts/ensure-chromium.sh failed:\n{proc.stderr[-3000:]}")
    return CHROMIUM


@pytest.fixture(scope="session")
def server():
    """One live server for the session (per xdist worker); bots decide at once."""
    tmp = tempfile.mkdtemp(prefix="cardtable-web-")
    # Kombio round breaks as in production, a short pause at tables without players
    srv = ServerProc(f"{tmp}/web.db", log_dir=Path(tmp),
                     args=("--round-break", "30", "--round-pause", "0.2")).start()
    yield srv
    srv.stop()
    kill_started()


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser, server):
    """new_page(lang="en", width=1280, height=900) -> a page in a fresh browser context (its own
    localStorage: one player), with the server's address as base URL."""
    with page_factory(browser, server.base) as make:
        yield make
