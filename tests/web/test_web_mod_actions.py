"""The moderators' queue acts on players (js/mod.js, /mod), in Chromium against a live server
(English; the German words are checked in the catalog): Mo reports Wes and Ben, becomes a
moderator, and warns Wes and suspends Ben from the queue. Ben's table page, open all along, shows
at once why and until when (the server closed his connection, 4403: ws/bans.py), and a new
load of it is refused with the same words."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import expect
from test_web_friends import PASSWORD, open_table, sign_up

from cardtable.cli.main import main
from cardtable.i18n import t

REPORT = """(body) => fetch('/api/reports', {method: 'POST', body: JSON.stringify(body),
    headers: {'Content-Type': 'application/json'}}).then((r) => r.status)"""
SIGN_UP = """(body) => fetch('/api/accounts', {method: 'POST', body: JSON.stringify(body),
    credentials: 'omit', headers: {'Content-Type': 'application/json'}}).then((r) => r.status)"""


def test_a_moderator_warns_one_player_and_suspends_another(new_page, server):
    n = secrets.randbelow(10**6)
    wes, ben, mo = f"Wes{n}", f"Ben{n}", f"Mo{n}"
    b = new_page("en")
    sign_up(b, ben)
    code = open_table(b, ben)                      # Ben waits at his table: its socket open
    m = new_page("en")
    sign_up(m, mo)                                 # (a player still: he reports them first)
    assert m.evaluate(SIGN_UP, {"name": wes, "password": PASSWORD, "claim": []}) == 201
    for who, why in ((wes, "spam"), (ben, "abuse")):
        assert m.evaluate(REPORT, {"name": who, "reason": why, "note": f"about {who}"}) == 201
    with ThreadPoolExecutor(1) as pool:          # (the CLI runs its own event loop)
        assert pool.submit(main, ["admin", "role", mo, "moderator", "--reason", "test",
                                  "--database", server.database]).result() == 0
    m.goto("/mod")

    def take(name: str, reason: str):
        card = m.locator(".mq-report", has_text=f"about {name}")
        expect(card).to_have_count(1)
        card = m.locator("#" + card.get_attribute("id"))
        card.locator(".mq-claim").click()
        expect(card.locator(".mq-state")).to_have_text(f"Taken on by {mo}.")
        card.locator("[id^=mq-reason-]").fill(reason)
        return card

    card = take(wes, "selling coins in the chat")
    card.locator("[id^=mq-warn-]").click()
    expect(card.locator(".mq-done li")).to_have_text([f"{wes} has been warned."])
    expect(card.locator("[id^=mq-outcome-]")).to_have_value("warned")

    card = take(ben, "insults at the table")
    card.locator("[id^=mq-until-]").select_option("3d")
    card.locator("[id^=mq-suspend-]").click()
    expect(card.locator(".mq-done li")).to_contain_text([f"{ben} is suspended until "])
    expect(card.locator("[id^=mq-outcome-]")).to_have_value("suspended")

    # Ben's open page: the connection is closed and the page says why and until when
    told = b.locator("#table-cut [role=alert]")
    expect(told).to_contain_text("The moderators have suspended you until ")
    expect(told).to_contain_text(": insults at the table")
    expect(b.locator("#table-cut")).to_contain_text("You can no longer play or chat")
    b.reload()                                     # a new load is refused the same way
    assert b.url.endswith(f"/t/{code}")
    expect(told).to_contain_text("insults at the table")
    expect(told).to_contain_text(" UTC")
    for key in ("table.cut.banned", "table.cut.suspended", "table.cut.note"):
        assert t("de", key, reason="x", until_text="y") != t("en", key, reason="x",
                                                             until_text="y")
