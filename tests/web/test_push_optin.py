"""The table's opt-in to "your move" alerts while the page is closed (Web Push; js/push.js,
sw.js): a seated player finds it in the ♪ menu in either language, the page registers the
service worker at the site's root, a spectator gets no opt-in.

What this cannot test: a real subscription. Chromium without a browser vendor's push service
(headless, no Google API keys) refuses PushManager.subscribe; the server's side of delivery is
tested end to end in tests/server/test_push.py against a push service that decrypts."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from test_table_signals_focus import new_table

WORKER = """() => navigator.serviceWorker.ready.then((r) => [r.scope, r.active && r.active.scriptURL])"""


def test_push_optin_and_service_worker(new_page, server):
    r = httpx.get(server.base + "/sw.js", trust_env=False, timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert "showNotification" in r.text
    for lang, label in (("en", "alerts when this page is closed (Web Push)"),
                        ("de", "benachrichtigen, wenn diese Seite geschlossen ist (Web Push)")):
        page = new_page(lang=lang)
        code = new_table(page, server)
        page.click("#signals-btn")
        box = page.locator("#pref-push")
        expect(box).to_be_visible()
        expect(box).to_be_enabled()
        expect(box).not_to_be_checked()
        expect(page.locator(".push-optin label")).to_have_text(label)
        expect(page.locator("#push-note")).to_contain_text(code)
        scope, script = page.evaluate(WORKER)
        assert scope == server.base + "/" and script == server.base + "/sw.js"
        # a spectator of the same table: no opt-in
        other = new_page(lang=lang)
        other.goto(f"/t/{code}")
        other.wait_for_selector("#board .game")
        other.click("#signals-btn")
        expect(other.locator(".signals-menu")).to_be_visible()
        expect(other.locator("#pref-push")).to_have_count(0)
