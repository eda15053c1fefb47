"""A refused "Create table" on a phone (375x740, German): the refusal shows in view, beside the
button, as an alert, and says what the player can do. It used to appear 600 px below the
screen, so the button seemed to do nothing. A server of its own whose address quota is one
unfinished live table, taken before the page opens."""

from __future__ import annotations

import tempfile
from pathlib import Path

import httpx
import pytest
from helpers import ServerProc
from pages import page_factory
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def quota_server():
    tmp = tempfile.mkdtemp(prefix="cardtable-web-quota-")
    srv = ServerProc(f"{tmp}/web.db", log_dir=Path(tmp),
                     args=("--client-limits", "on", "--limit", "tables=1")).start()
    yield srv
    srv.stop()


def test_a_refused_table_shows_why_in_view_on_a_phone(browser, quota_server, artifacts):
    r = httpx.post(f"{quota_server.base}/api/tables", trust_env=False, json={
        "game": "kombio", "players": 2, "public": False, "name": "Ida"})
    assert r.status_code == 201, r.text                     # the address's one live table
    with page_factory(browser, quota_server.base) as make:
        page = make("de", width=375, height=740, phone=True)
        page.goto("/")
        page.wait_for_selector("#create-btn")
        page.fill("#f-name", "Ida")
        page.uncheck("#f-public")
        page.locator("#create-btn").scroll_into_view_if_needed()
        page.click("#create-btn")
        alert = page.locator(".create-form [role=alert]")
        expect(alert).to_contain_text("Meine Spiele")       # what the player can do
        expect(alert).to_contain_text("melde dich an")
        expect(alert).to_be_in_viewport()
        expect(page.locator("#create-btn")).to_be_in_viewport()
        page.screenshot(path=str(artifacts / "create-refused-de-375.png"))
