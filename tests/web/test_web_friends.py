"""Friends in the browser (issue 32), in Chromium against a live server.

Two accounts in two browser contexts (a laptop in English, a phone in German) become friends:
one asks for the other by name, the other accepts with the keyboard. The first sees the
second online (a dot and the word), opens a table with a free seat and invites them with one
click in the waiting room; the invitation arrives in the other's lobby, who accepts it, takes
the seat and the game starts at both. The friends panel and the waiting room's invitations
are checked with axe and photographed at 375x740 and 1366x657 in both languages
(tests/web/artifacts/friends-*.png)."""

from __future__ import annotations

import re
import secrets

from a11y import assert_accessible
from playwright.sync_api import Page, expect
from test_web_accounts import PASSWORD, _fits

TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")
LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 375, "height": 740}
POLLED = 30_000          # ms: a guard for what arrives with the next poll (every 5 s)


def sign_up(page: Page, name: str, login: bool = False) -> None:
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.click("#account-btn")
    if not login:
        page.click("#acct-mode")
    page.fill("#acct-name", name)
    page.fill("#acct-password", PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#account-btn .acct-name")).to_have_text(name)
    expect(page.locator("#friends")).to_be_visible()


def open_table(page: Page, name: str, guest: bool = False) -> str:
    """A private Kombio table of two human seats: the creator sits, one seat is free. A
    logged-in creator sits under the account's name (the form has no name box), a `guest`
    under `name`."""
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.select_option("#f-game", "kombio")
    page.select_option("#f-players", "2")
    page.select_option("#seat-kind-1", "human")
    if guest:
        page.fill("#f-name", name)
    else:
        expect(page.locator("#f-name-as")).to_contain_text(name)
    page.uncheck("#f-public")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#fr-table")
    return TABLE_URL.match(page.url).group(1)


def playing(page: Page) -> None:
    page.wait_for_function("() => { const b = document.getElementById('board'); "
                           "return !!b && b.dataset.status === 'playing'; }")
    page.wait_for_selector("#board .game")


def test_two_accounts_become_friends_and_one_invites_the_other_to_play(new_page, artifacts):
    n = secrets.randbelow(10**6)
    ann, bob = f"Ann{n}", f"Bob{n}"
    a = new_page("en", **LAPTOP)
    b = new_page("de", phone=True, **PHONE)
    sign_up(a, ann)
    sign_up(b, bob)
    expect(b.locator("#friends h2")).to_have_text("Freunde")

    # Ann asks for Bob by name (another case of it: one name), with the keyboard
    a.fill("#fr-name", bob.lower())
    a.press("#fr-name", "Enter")
    expect(a.locator("#fr-note")).to_have_text(
        f"Request to {bob.lower()} sent. If that account accepts it, you become friends.")
    expect(a.locator("#fr-sent .fr-item")).to_have_count(1)

    # Bob's lobby shows the request with the next poll; he accepts it by keyboard
    req = b.locator(f'#fr-incoming .fr-item[data-name="{ann}"]')
    expect(req).to_be_visible(timeout=POLLED)
    assert_accessible(b, "phone lobby with a friend request")
    _fits(b, "#friends")
    req.scroll_into_view_if_needed()
    b.screenshot(path=str(artifacts / "friends-phone-de-request.png"))
    accept = req.get_by_role("button", name=f"Anfrage von {ann} annehmen")
    accept.focus()
    b.keyboard.press("Enter")
    expect(b.locator(f'#friend-list .fr-item[data-name="{ann}"]')).to_be_visible()
    expect(b.locator("#fr-note")).to_have_text(f"Du und {ann} seid jetzt Freunde.")

    # Ann sees Bob online: a dot and the word
    item = a.locator(f'#friend-list .fr-item[data-name="{bob}"]')
    expect(item).to_have_attribute("data-online", "true", timeout=POLLED)
    expect(item.locator(".fr-presence")).to_have_text("online")
    expect(a.locator("#fr-sent")).to_have_count(0)
    a.locator("#friends").scroll_into_view_if_needed()
    assert_accessible(a, "lobby with a friend online")
    a.screenshot(path=str(artifacts / "friends-laptop-en-lobby.png"))

    # Ann opens a table and invites Bob with one click
    code = open_table(a, ann)
    row = a.locator(f'#invite-list .fr-item[data-name="{bob}"]')
    expect(row).to_have_attribute("data-online", "true", timeout=POLLED)
    button = row.get_by_role("button", name=f"Invite {bob} to this table")
    button.click()
    expect(row.locator("button")).to_have_text("Invited")
    expect(row.locator("button")).to_be_disabled()
    expect(a.locator("#fr-table-note")).to_have_text(
        f"{bob} is invited: the invitation shows in their lobby.")
    assert_accessible(a, "waiting room with the invitations")
    a.locator("#fr-table").scroll_into_view_if_needed()
    a.screenshot(path=str(artifacts / "friends-laptop-en-table.png"))

    # Bob's lobby shows the invitation; he accepts and takes the free seat
    invite = b.locator(f'#fr-invites .fr-invite[data-code="{code}"]')
    expect(invite).to_be_visible(timeout=POLLED)
    expect(invite.locator(".fr-text")).to_have_text(
        f"{ann} lädt dich zu Kombio an Tisch {code} ein")
    invite.scroll_into_view_if_needed()
    _fits(b, "#fr-invites")
    b.screenshot(path=str(artifacts / "friends-phone-de-invite.png"))
    invite.get_by_role("button", name=f"Einladung von {ann} annehmen und zu Tisch {code} gehen").tap()
    b.wait_for_url(re.compile(f".*/t/{code}$"))
    expect(b.locator("#tj-name-as")).to_contain_text(bob)         # logged in: the account's
    b.click("#take-seat")
    playing(b)
    playing(a)
    expect(b.locator(".chip-spectator")).to_have_count(0)
    b.screenshot(path=str(artifacts / "friends-phone-de-playing.png"))

    # the other sizes and languages: Ann on a German laptop, Bob on an English phone
    c = new_page("de", **LAPTOP)
    sign_up(c, ann, login=True)
    expect(c.locator(f'#friend-list .fr-item[data-name="{bob}"] .fr-presence')).to_have_text(
        re.compile("^(online|offline)$"))
    c.locator("#friends").scroll_into_view_if_needed()
    assert_accessible(c, "German lobby with friends")
    c.screenshot(path=str(artifacts / "friends-laptop-de-lobby.png"))
    d = new_page("en", phone=True, **PHONE)
    sign_up(d, bob, login=True)
    d.locator("#friends").scroll_into_view_if_needed()
    _fits(d, "#friends")
    d.screenshot(path=str(artifacts / "friends-phone-en-lobby.png"))
    open_table(d, bob)
    expect(d.locator(f'#invite-list .fr-item[data-name="{ann}"]')).to_be_visible(timeout=POLLED)
    d.locator("#fr-table").scroll_into_view_if_needed()
    _fits(d, "#fr-table")
    assert_accessible(d, "phone waiting room with the invitations")
    d.screenshot(path=str(artifacts / "friends-phone-en-table.png"))
    c.goto(f"/t/{TABLE_URL.match(d.url).group(1)}")          # a German laptop at a table
    expect(c.locator("#tj-name-as")).to_contain_text(ann)
    c.click("#take-seat")
    playing(c)


def test_a_guest_at_a_table_is_offered_to_log_in_to_invite_friends(new_page, artifacts):
    page = new_page("en", phone=True, **PHONE)
    open_table(page, "Gast", guest=True)
    box = page.locator("#fr-table")
    expect(box).to_contain_text("Log in to invite your friends with one click.")
    expect(page.locator("#friends")).to_have_count(0)
    box.scroll_into_view_if_needed()
    _fits(page, "#fr-table")
    page.screenshot(path=str(artifacts / "friends-phone-en-guest-table.png"))
    page.click("#fr-table-login")
    expect(page.locator("#signin-dialog")).to_be_visible()
    expect(page.locator("#acct-name")).to_be_focused()
