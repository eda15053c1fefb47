"""The admins' banner in Chromium against a live server: posted from the terminal, it shows
in the lobby in German and at a table in English, and is gone once ended. A moderator's
warning shows once, in the player's language, until the player marks it read."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import expect
from test_web_friends import LAPTOP, PHONE, open_table, sign_up

from cardtable.cli.main import main


def admin(*args: str) -> int:
    """`cardtable admin ...` (in a thread: Playwright's loop runs in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(main, ["admin", *args]).result()


def test_the_banner_shows_in_the_lobby_and_at_the_table(new_page, server):
    db = server.database
    assert admin("announce", "--en", "Maintenance at 22:00", "--de", "Wartung um 22:00",
                 "--for", "1h", "--database", db) == 0
    try:
        de = new_page("de", phone=True, **PHONE)
        de.goto("/")
        expect(de.locator("#announcement")).to_have_text("Wartung um 22:00")
        en = new_page("en", **LAPTOP)
        open_table(en, "Ada", guest=True)
        expect(en.locator("#announcement")).to_have_text("Maintenance at 22:00")
    finally:
        assert admin("announce", "--end", "--database", db) == 0
    de.goto("/")
    de.wait_for_selector("#create-btn")
    expect(de.locator("#announcement")).to_have_count(0)


def test_a_warning_shows_once_and_is_marked_read(new_page, server):
    import secrets

    name = f"Wanda{secrets.randbelow(10**6)}"
    p = new_page("de", phone=True, **PHONE)
    sign_up(p, name)
    assert admin("warn", name, "--text", "Bitte freundlich bleiben.", "--database",
                 server.database) == 0
    p.goto("/")
    dialog = p.locator("#warning-dialog")
    expect(dialog.locator("h2")).to_have_text("Eine Verwarnung der Moderation")
    expect(dialog.locator("blockquote")).to_have_text("Bitte freundlich bleiben.")
    p.locator("#warning-dialog-submit").click()
    expect(dialog).to_have_count(0)
    assert p.evaluate("fetch('/api/me').then((r) => r.json())")["warnings"] == []
    p.goto("/")
    p.wait_for_selector("#create-btn")
    expect(p.locator("#account-btn .acct-name")).to_have_text(name)
    expect(dialog).to_have_count(0)
