"""Blocking in the browser, in Chromium against a live server: Ann (an English laptop) blocks
Ben from his profile with its button; Ben (a German phone) then cannot take the free seat of
Ann's table and is told so in his language, without a word of who or why; their friendship is
gone, so his waiting table no longer offers to invite her (and the route refuses it). Ann
unblocks him and the button says so. The profile with the button is checked with axe. At a
table of his she sits at, no line of his reaches her chat (a German laptop, an English phone)."""

from __future__ import annotations

import secrets

from a11y import assert_accessible
from playwright.sync_api import expect
from test_web_friends import LAPTOP, PHONE, POLLED, open_table, playing, sign_up

def wait_until(page, ready, tries=600):
    """Let the page's events (a route's handler among them) run until `ready()` holds."""
    for _ in range(tries):
        if ready():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page never got there")


FETCH = """([method, path, body]) => fetch(path, {method, body: body ? JSON.stringify(body) : undefined,
    headers: {'Content-Type': 'application/json'}}).then(async (r) => ({status: r.status,
    body: await r.json().catch(() => null)}))"""


def test_a_blocked_player_cannot_take_a_seat_at_the_blockers_table(new_page, artifacts):
    n = secrets.randbelow(10**6)
    ann, ben = f"Ann{n}", f"Ben{n}"
    a = new_page("en", **LAPTOP)
    b = new_page("de", phone=True, **PHONE)
    sign_up(a, ann)
    sign_up(b, ben)

    # friends first: Ben's waiting table offers to invite Ann
    asked = b.evaluate(FETCH, ["POST", "/api/friends/requests", {"name": ann}])
    assert asked["status"] == 202, asked
    rid = a.evaluate(FETCH, ["GET", "/api/friends", None])["body"]["incoming"][0]["id"]
    assert a.evaluate(FETCH, ["POST", f"/api/friends/requests/{rid}/accept", None])[
        "status"] == 200
    bens = open_table(b, ben)
    expect(b.locator(f'#invite-list .fr-item[data-name="{ann}"]')).to_be_visible(timeout=POLLED)

    # The button waits for Ann's blocks: held back here, it stays disabled, so no click can
    # come before a read that would answer after it (and show "Block" again).
    held = []
    a.route("**/api/me/blocks", lambda route: held.append(route)
            if route.request.method == "GET" else route.continue_())
    a.goto(f"/players/{ben}")
    button = a.locator("#rt-block")
    expect(button).to_have_text("Block")
    wait_until(a, lambda: held)
    expect(button).to_be_disabled()
    for route in held:
        route.continue_()
    a.unroute("**/api/me/blocks")
    expect(button).to_be_enabled()
    button.click()
    expect(a.locator("#rt-block-note")).to_have_text(
        f"You block {ben}: no lines, requests, invitations or presence of theirs, and they "
        "cannot join your tables.")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert_accessible(a, "profile of a blocked player")
    a.screenshot(path=str(artifacts / "moderation-profile-blocked-en-laptop.png"))

    code = open_table(a, ann)
    b.goto(f"/t/{code}")
    expect(b.locator("#tj-name-as")).to_contain_text(ben)         # logged in: the account's
    b.click("#take-seat")
    expect(b.get_by_text("Du kannst diesem Tisch nicht beitreten.")).to_be_visible()
    # ... nor invite her: the friendship is gone, and with it the offer and the route
    b.goto(f"/t/{bens}")
    expect(b.locator("#fr-table")).to_be_visible()
    expect(b.locator(f'#invite-list .fr-item[data-name="{ann}"]')).to_have_count(0)
    refused = b.evaluate(FETCH, ["POST", "/api/friends/invites", {"to": ann, "table": bens}])
    assert (refused["status"], refused["body"]["error"]) == (404, "not_friend"), refused

    a.goto(f"/players/{ben}")
    expect(a.locator("#rt-block")).to_have_text("Unblock")
    a.locator("#rt-block").click()
    expect(a.locator("#rt-block")).to_have_text("Block")
    expect(a.locator("#rt-block-note")).to_have_text("")

    # Ben reports Ann from her profile, in German, with a reason and a note
    b.goto(f"/players/{ann}")
    b.locator("#rt-report").tap()
    expect(b.locator("#report-dialog h2")).to_have_text(f"{ann} melden")
    b.select_option("#report-reason", "abuse")
    b.fill("#report-note", "hat mich im Chat beleidigt")
    assert_accessible(b, "report dialog")
    b.screenshot(path=str(artifacts / "moderation-report-de-phone.png"))
    b.locator("#report-dialog-submit").tap()
    expect(b.locator("#rt-block-note")).to_have_text(
        f"Danke: Die Moderation sieht sich deine Meldung über {ann} an.")
    mine = b.evaluate("fetch('/api/me/reports').then((r) => r.json())")
    assert [(r["name"], r["reason"], r["note"], r["handled"]) for r in mine] == [
        (ann, "abuse", "hat mich im Chat beleidigt", False)]
    # ... and sees it waiting in "Meine Meldungen"
    b.locator("#account-btn").tap()
    b.locator("#acct-reports").tap()
    expect(b.locator("#my-reports li")).to_have_text(
        f"{ann} · Beleidigung oder Belästigung · wartet auf die Moderation")
    assert_accessible(b, "my reports")
    b.screenshot(path=str(artifacts / "moderation-my-reports-de-phone.png"))


def test_a_blocker_sees_no_line_of_the_player_she_blocks(new_page):
    n = secrets.randbelow(10**6)
    ann, ben = f"Ann{n}", f"Ben{n}"
    a = new_page("de", **LAPTOP)
    b = new_page("en", phone=True, **PHONE)
    sign_up(a, ann)
    sign_up(b, ben)
    assert a.evaluate(FETCH, ["POST", "/api/me/blocks", {"name": ben}])["status"] == 201
    code = open_table(b, ben)                 # his table: she may sit at it, he not at hers
    a.goto(f"/t/{code}")
    expect(a.locator("#tj-name-as")).to_contain_text(ann)
    a.click("#take-seat")
    playing(a)
    playing(b)
    b.tap("#chat-toggle")
    b.fill("#chat-input", "Hello Ann")
    b.press("#chat-input", "Enter")
    expect(b.locator("#chat-list .chat-text").last).to_have_text("Hello Ann")
    a.click("#chat-toggle")
    a.fill("#chat-input", "Hallo")
    a.press("#chat-input", "Enter")
    expect(a.locator("#chat-list .chat-text").last).to_have_text("Hallo")
    # his line went out before hers: had it reached her, it would stand above hers
    assert a.eval_on_selector_all("#chat-list .chat-text",
                                  "xs => xs.map(x => x.textContent)") == ["Hallo"]
