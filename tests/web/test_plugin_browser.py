"""The example game plugin (examples/higher-lower, docs/adding-a-game.md) in the browser: a
server started with the game installed (pip, into a folder of its own) offers it in the lobby
with its declared rule option and setting, plays it at a table through its own module (served
from its package) and shows its rules page, which links to every other game's rules; no file
of the browser client names it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import ServerProc  # noqa: E402  (tests/server, put on sys.path by conftest.py)
from pages import page_factory  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)")


@pytest.fixture(scope="module")
def plugin_server():
    """A server of its own, with the example game installed beside cardtable."""
    where = tempfile.mkdtemp(prefix="cardtable-plugin-")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--disable-pip-version-check", "--target", f"{where}/site",
                           str(ROOT / "examples" / "higher-lower")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(x for x in (f"{where}/site", old) if x)
    try:
        srv = ServerProc(f"{where}/web.db", log_dir=Path(where)).start()
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = old
    yield srv
    srv.stop()


@pytest.fixture
def plugin_page(browser, plugin_server):
    with page_factory(browser, plugin_server.base) as make:
        yield make


def test_the_plugin_game_is_offered_played_and_explained(plugin_page):
    page = plugin_page("en")
    page.goto("/")
    page.wait_for_selector("#create-btn")
    assert "Higher or Lower" in page.inner_text("#f-game")
    page.select_option("#f-game", "higher_lower")
    page.wait_for_selector("#f-turns")                    # its declared setting
    assert page.input_value("#f-turns") == "4"
    assert page.is_visible("#opt-equal_scores")           # its declared rule option
    page.fill("#f-turns", "2")
    page.select_option("#seat-kind-1", "bot")
    page.fill("#f-name", "Ann")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    while True:                                          # its own module draws the table
        page.wait_for_selector("#action-bar button, #result", timeout=30000)
        if page.query_selector("#result"):
            break
        before = page.inner_text("#hl-up")               # the deck's size: one less a guess
        page.click("#action-bar button[data-decision='higher']")
        page.wait_for_function("(b) => document.querySelector('#result') || "
                               "(document.querySelector('#hl-up') || {}).innerText !== b",
                               arg=before, timeout=30000)
    assert "point" in page.inner_text("#result")
    page.goto("/rules/higher_lower")
    page.wait_for_selector("#HL-4")
    others = [a.get_attribute("href") for a in page.query_selector_all(".rules-other")]
    assert others == ["/rules/abluxxen", "/rules/kombio"]
