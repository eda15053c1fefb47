"""Accounts in the browser (issue 32), in Chromium against a live server.

A guest on a laptop (English) plays a Kombio game against a bot to its end and opens a second
table, then signs up from the lobby's header: both games are in "My games" (the finished one
with its replay, the running one with whose turn it is). They log out; on a phone (a second
browser context, German) they log in, find both games again and play on at the running table
in its seat. The dialogs and the menu are
used with the keyboard, checked with axe, and photographed at both sizes in both languages
(tests/web/artifacts/accounts-*.png)."""

from __future__ import annotations

import re

from a11y import assert_accessible
from playwright.sync_api import Page, expect
from policy import KombioPlayer, play_to_end

TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")
LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 375, "height": 740}
PASSWORD = "Kartenhaus im Regen 7"


def new_kombio(page: Page, name: str, target: int | None = 1) -> str:
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.select_option("#f-game", "kombio")
    page.select_option("#f-players", "2")
    page.select_option("#seat-kind-1", "bot")
    page.select_option("#seat-bot-1", "easy")
    if target is not None:
        page.fill("#f-target", str(target))
    page.fill("#f-name", name)
    page.uncheck("#f-public")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#board .game")
    return TABLE_URL.match(page.url).group(1)


def sign_in(page: Page, name: str, signup: bool, artifacts=None, shot: str = "") -> None:
    page.click("#account-btn")
    dialog = page.locator("#signin-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#acct-name")).to_be_focused()          # focus moves into the dialog
    if signup:
        page.click("#acct-mode")
        expect(page.locator("#acct-pw-hint")).to_be_visible()
    page.fill("#acct-name", name)
    page.fill("#acct-password", PASSWORD)
    if artifacts is not None:
        assert_accessible(page, f"{shot} dialog")
        page.screenshot(path=str(artifacts / f"accounts-{shot}-dialog.png"))
    page.keyboard.press("Enter")                                 # submits the form
    expect(dialog).to_have_count(0)
    expect(page.locator("#account-btn .acct-name")).to_have_text(name)
    expect(page.locator("#account-btn")).to_be_focused()         # focus back where it was


def my_games(page: Page) -> dict[str, str]:
    panel = page.locator("#my-games")
    expect(panel).to_be_visible()
    page.wait_for_selector("#my-games .table-item")
    return {li.get_attribute("data-code"): li.get_attribute("data-status")
            for li in panel.locator(".table-item").all()}


def test_a_guest_signs_up_keeps_the_games_and_finds_them_on_a_phone(new_page, artifacts):
    a = new_page("en", **LAPTOP)
    finished = new_kombio(a, "Lena")
    play_to_end(a, KombioPlayer(a, seed=3, call_after=1))
    running = new_kombio(a, "Lena", target=None)
    a.goto("/")
    expect(a.locator("#my-games")).to_be_hidden()               # a guest: no account panel
    expect(a.locator("#account-btn")).to_have_text("Sign in")
    sign_in(a, "Lena", signup=True, artifacts=artifacts, shot="laptop-en-signup")
    games = my_games(a)
    assert games == {finished: "over", running: "playing"}, games
    item = a.locator(f'#my-games .table-item[data-code="{finished}"]')
    expect(item.locator("a")).to_have_attribute("href", f"/replay/{finished}")
    live = a.locator(f'#my-games .table-item[data-code="{running}"]')
    expect(live.locator(".chip-turn, .chip-status")).to_have_text(
        re.compile(r"^(your turn|Bot 2's turn)$"))
    assert_accessible(a, "lobby with my games")
    a.screenshot(path=str(artifacts / "accounts-laptop-en-lobby.png"))

    # the account menu by keyboard: open, move, Escape closes it and focus returns
    a.focus("#account-btn")
    a.keyboard.press("Enter")
    expect(a.locator("#account-list")).to_be_visible()
    expect(a.locator("#acct-my-games")).to_be_focused()
    a.keyboard.press("ArrowDown")
    expect(a.locator("#acct-change-pw")).to_be_focused()
    a.screenshot(path=str(artifacts / "accounts-laptop-en-menu.png"))
    a.keyboard.press("Escape")
    expect(a.locator("#account-list")).to_have_count(0)
    expect(a.locator("#account-btn")).to_be_focused()
    # log out
    a.click("#account-btn")
    a.click("#acct-logout")
    expect(a.locator("#account-btn")).to_have_text("Sign in")
    expect(a.locator("#my-games")).to_be_hidden()

    # a phone in German, a browser that never saw these games: log in, find them
    b = new_page("de", phone=True, **PHONE)
    b.goto("/")
    b.wait_for_selector("#create-btn")
    expect(b.locator("#account-btn")).to_have_text("Anmelden")
    # a wrong password first: a German refusal in the dialog, nothing else said
    b.click("#account-btn")
    b.fill("#acct-name", "Lena")
    b.fill("#acct-password", "falsch falsch")
    b.click("#signin-dialog-submit")
    expect(b.locator("#signin-dialog .acct-error")).to_have_text("Name oder Passwort falsch")
    b.keyboard.press("Escape")
    expect(b.locator("#signin-dialog")).to_have_count(0)
    sign_in(b, "Lena", signup=False, artifacts=artifacts, shot="phone-de-login")
    assert my_games(b) == {finished: "over", running: "playing"}
    expect(b.locator("#my-games h2")).to_have_text("Meine Spiele")
    b.locator("#my-games").scroll_into_view_if_needed()
    assert_accessible(b, "phone lobby with my games")
    _fits(b, "#my-games")
    _fits(b, "#site-header")
    b.screenshot(path=str(artifacts / "accounts-phone-de-lobby.png"))
    b.click("#account-btn")
    expect(b.locator("#account-list")).to_be_visible()
    _fits(b, "#account-list")
    b.screenshot(path=str(artifacts / "accounts-phone-de-menu.png"))
    b.click("#acct-delete")
    expect(b.locator("#delete-dialog")).to_be_visible()
    _fits(b, "#delete-dialog")
    b.screenshot(path=str(artifacts / "accounts-phone-de-delete.png"))
    b.keyboard.press("Escape")
    # play on at the running table from the phone: its seat, not a spectator's place
    b.locator(f"#mg-{running}").tap()
    b.wait_for_url(re.compile(f".*/t/{running}$"))
    b.wait_for_function("() => { const x = document.getElementById('board'); "
                        "return !!x && x.dataset.seat === '0'; }")
    expect(b.locator(".chip-spectator")).to_have_count(0)
    b.screenshot(path=str(artifacts / "accounts-phone-de-play-on.png"))
    b.goto("/")
    b.locator(f'#my-games a[href="/replay/{finished}"]').tap()
    b.wait_for_selector(".replay-controls")

    # the other two: the laptop in German, the phone in English
    c = new_page("de", **LAPTOP)
    c.goto("/")
    c.wait_for_selector("#create-btn")
    sign_in(c, "Lena", signup=False, artifacts=artifacts, shot="laptop-de-login")
    my_games(c)
    c.screenshot(path=str(artifacts / "accounts-laptop-de-lobby.png"))
    d = new_page("en", phone=True, **PHONE)
    d.goto("/")
    d.wait_for_selector("#create-btn")
    d.click("#account-btn")
    d.click("#acct-mode")
    _fits(d, "#signin-dialog")
    d.screenshot(path=str(artifacts / "accounts-phone-en-signup.png"))


def _fits(page: Page, selector: str) -> None:
    """The element lies within the viewport's width (nothing cut off sideways)."""
    box = page.locator(selector).bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, \
        (selector, box, width)


def test_the_account_button_pressed_while_the_session_is_asked_opens_the_menu(new_page):
    """A logged-in player who opens the site and presses the header's button before the server
    has said who is logged in (GET /api/me held back here) gets the account menu once it has,
    not the log-in dialog."""
    p = new_page("en", **LAPTOP)
    p.goto("/")
    p.wait_for_selector("#create-btn")
    sign_in(p, "Quirin", signup=True)
    held = []
    p.route("**/api/me", lambda route: held.append(route))
    with p.expect_request("**/api/me"):
        p.reload()
    for _ in range(1000):                      # each round trip lets the route's event in
        if held:
            break
        p.evaluate("1")
    assert len(held) == 1                                    # the session is being asked
    p.wait_for_selector("#create-btn")
    expect(p.locator("#account-btn")).to_have_text("Sign in")
    p.focus("#account-btn")
    p.keyboard.press("Enter")
    held[0].continue_()
    p.unroute("**/api/me")
    expect(p.locator("#account-list")).to_be_visible()
    expect(p.locator("#acct-my-games")).to_be_focused()     # the menu's first item
    expect(p.locator("#signin-dialog")).to_have_count(0)
    expect(p.locator("#account-btn .acct-name")).to_have_text("Quirin")
