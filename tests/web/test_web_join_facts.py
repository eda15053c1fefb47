"""The join page says what a newcomer agrees to by taking a seat: the table's rule set and its
pace (a turn-based table's time per move; a real-time one says so), and each bot's level, in
both languages. (That an invitation says "rated": tests/web/test_web_friends_rated.py.)"""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from cardtable.i18n import t


def open_table(server, body: dict) -> str:
    r = httpx.post(server.base + "/api/tables", json=body, trust_env=False, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["table"]["code"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_join_page_names_the_rule_set_and_the_pace(server, new_page, artifacts, lang):
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]
    turn = open_table(server, {"game": "abluxxen", "variant": "expert", "players": 3, "seats": seats,
                               "pace": "turn", "move_seconds": 86400, "on_timeout": "bot_move"})
    live = open_table(server, {"game": "abluxxen", "variant": "classic", "players": 3, "seats": seats})
    page = new_page(lang, 375, 740, phone=True)
    page.goto(f"/t/{turn}")
    page.wait_for_selector("#tj-name")
    expect(page.locator("#join-variant")).to_have_text(
        t(lang, "table.join_variant", variant=t(lang, "variant.expert")))
    expect(page.locator("#join-pace")).to_have_text(
        t(lang, "table.join_pace_turn", move=t(lang, "pace.move_86400")))
    # a bot's chip says its level (the seats a newcomer would play against)
    expect(page.locator(".seat-chips li").nth(2)).to_have_text(
        f"{t(lang, 'seat.bot', n=3)} · {t(lang, 'level.easy')}")
    page.screenshot(path=str(artifacts / f"join-facts-375x740-{lang}.png"))
    page.goto(f"/t/{live}")
    page.wait_for_selector("#tj-name")
    expect(page.locator("#join-variant")).to_have_text(
        t(lang, "table.join_variant", variant=t(lang, "variant.classic")))
    expect(page.locator("#join-pace")).to_have_text(t(lang, "table.join_pace_live"))
