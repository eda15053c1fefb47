"""A logged-in player in the browser, in Chromium against a live server: one journey on a phone
(375x740) in German, then in English.

The header keeps the brand, the account and the languages on one row; the lobby's forms ask for
no name (a line says the account's name is used) and a new turn-based table seats the account's
name; a table's own join form does the same; "My games" says by when the move is due, in the
reader's language and time format (Intl), German and then English; the leaderboard lists the
established ratings and the provisional ones apart, each list under its heading."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

PHONE = {"width": 375, "height": 740, "phone": True}
NAME = "Walburga"
PASSWORD = "Kartenhaus im Regen 7"
TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")


def _sign_up(page: Page, name: str) -> None:
    """An account made from this page (its session cookie is the page's), the page reloaded
    with the hint that it was logged in (account.js: it then asks the server who it is)."""
    status = page.evaluate("""async ([name, password]) => (await fetch("/api/accounts", {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name, password})})).status""", [name, PASSWORD])
    assert status == 201
    page.evaluate("(name) => localStorage.setItem('cardtable.account', name)", name)  # the hint
    page.reload()
    expect(page.locator("#account-btn .acct-name")).to_have_text(name)


def _one_row(page: Page) -> None:
    """The brand, the account menu and the language switch share one row of the header."""
    boxes = [page.locator(sel).bounding_box() for sel in (".brand", "#account-btn", "#lang-switch")]
    top = max(b["y"] for b in boxes)
    bottom = min(b["y"] + b["height"] for b in boxes)
    assert top < bottom, boxes                  # every box crosses one horizontal line


def test_a_logged_in_player_on_a_phone(new_page, server):
    page = new_page("de", **PHONE)
    page.goto("/")
    page.wait_for_selector("#create-btn")
    _sign_up(page, NAME)
    _one_row(page)

    # no name boxes: the account's name, said once in each form
    expect(page.locator("#f-name")).to_have_count(0)
    expect(page.locator("#j-name")).to_have_count(0)
    expect(page.locator("#f-name-as")).to_have_text(f"Du spielst als {NAME}")
    page.select_option("#f-pace", "turn")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(page.url).group(1)
    seats = httpx.get(f"{server.base}/api/tables/{code}", trust_env=False).json()["seats"]
    assert seats[0]["name"] == NAME

    # "My games": whose turn, and by when, in German, then in English
    page.goto("/")
    item = page.locator(f'#my-games .table-item[data-code="{code}"]')
    expect(item.locator(".chip-turn")).to_have_text("du bist dran")
    expect(item.locator(".ti-deadline")).to_have_text(
        re.compile(r"^bis (Mo|Di|Mi|Do|Fr|Sa|So)\., \d\d:\d\d$"))
    page.click('#lang-switch [data-lang="en"]')
    expect(item.locator(".ti-deadline")).to_have_text(
        re.compile(r"^until (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d$"))
    _one_row(page)

    # a table's own join form: no name box either, the seat under the account's name
    other = server.create(game="abluxxen", variant="duel", name="Ann", public=False,
                          seats=[{"kind": "human"}, {"kind": "human"}])
    page.goto(f"/t/{other['table']['code']}")
    expect(page.locator("#tj-name-as")).to_have_text(f"You play as {NAME}")
    expect(page.locator("#tj-name")).to_have_count(0)
    page.click("#take-seat")
    page.wait_for_selector("#board .game")
    seats = httpx.get(f"{server.base}/api/tables/{other['table']['code']}",
                      trust_env=False).json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", NAME]

    # the leaderboard: the established ratings, then the provisional ones apart
    page.goto("/leaderboard/kombio")
    expect(page.locator("#rt-board-h")).to_have_text("Established ratings (the leaderboard)")
    expect(page.locator("#rt-prov-h")).to_have_text("Provisional ratings")
