"""Turn-based tables in the browser (issue 33, js/pace.js): the host chooses the pace in the
create form (turn-based, 3 days a move, drop on timeout) and the table is made so; at the table
the clock says "your move until <weekday> <time>" instead of counting seconds; the lobby's own
tables put "your move" first (POST /api/my-moves with this browser's tokens). In English and
German, on a phone (375x740) and a laptop (1366x657); screenshots in the artifacts."""

from __future__ import annotations

import re

import httpx
from a11y import assert_accessible
from playwright.sync_api import expect

SIZES = ((375, 740, True), (1366, 657, False))
UNTIL = {"en": "your move until", "de": "du bist dran bis"}
YOUR_MOVE = {"en": "Your move", "de": "Du bist dran"}


def test_pace_in_the_create_form_and_the_deadline_at_the_table(new_page, server, artifacts):
    for lang in ("en", "de"):
        for width, height, phone in SIZES:
            page = new_page(lang=lang, width=width, height=height, phone=phone)
            page.goto("/")
            page.wait_for_selector("#f-pace")
            expect(page.locator("#f-timer")).to_be_visible()
            page.select_option("#f-pace", "turn")
            expect(page.locator("#f-timer")).to_have_count(0)      # no seconds timer
            page.select_option("#f-move", "259200")
            page.select_option("#f-on-timeout", "drop")
            page.fill("#f-name", "Ann")
            tag = f"{lang}-{width}x{height}"
            page.locator("#f-pace").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"pace-form-{tag}.png"))
            assert_accessible(page, f"create form, turn-based {tag}")
            page.click("#create-btn")
            page.wait_for_url("**/t/*")
            code = page.url.rsplit("/", 1)[-1].split("#")[0]
            t = httpx.get(f"{server.base}/api/tables/{code}", trust_env=False, timeout=10).json()
            assert (t["pace"], t["move_seconds"], t["on_timeout"]) == ("turn", 259200, "drop")
            assert t["turn_seconds"] is None
            # the bots play until it is Ann's move: the clock names a day and a time
            expect(page.locator("#clock")).to_contain_text(UNTIL[lang], timeout=60_000)
            text = page.locator("#clock").inner_text()
            assert re.search(UNTIL[lang] + r" \w+\.?,? \d\d:\d\d$", text), text   # "Tue 14:00"
            page.screenshot(path=str(artifacts / f"pace-table-{tag}.png"))
            assert_accessible(page, f"turn-based table {tag}")
            page.goto("/")
            item = page.locator(f'.my-tables .table-item[data-code="{code}"]')
            expect(item.locator(".chip-your-move")).to_have_text(YOUR_MOVE[lang])
            item.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"pace-lobby-{tag}.png"))
            assert_accessible(page, f"lobby with a turn-based move {tag}")
