"""Leaving a game in the browser (issue 32: "leaving a rated game counts as a loss"; the way
out is for every table): the table's ♪ menu offers "Leave the game" to a seated player of a
game being played, asks once more, and then the page watches: a bot plays the seat to the end.
Checked at 375x740 in German and 1366x657 in English, with screenshots of the menu."""

from __future__ import annotations

import re

import httpx
from a11y import assert_accessible
from playwright.sync_api import expect

TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")
SIZES = [("de", {"width": 375, "height": 740}, True, "Spiel verlassen"),
         ("en", {"width": 1366, "height": 657}, False, "Leave the game")]


def test_a_player_leaves_and_a_bot_plays_the_seat(new_page, server, artifacts):
    for lang, size, phone, label in SIZES:
        page = new_page(lang, phone=phone, **size)
        page.goto("/")
        page.wait_for_selector("#create-btn")
        page.select_option("#f-game", "kombio")
        page.select_option("#f-players", "2")
        page.fill("#f-name", "Lea")
        page.uncheck("#f-public")
        page.click("#create-btn")
        page.wait_for_url(TABLE_URL)
        code = TABLE_URL.match(page.url).group(1)
        page.wait_for_selector("#board .game")
        page.click("#signals-btn")
        button = page.locator("#leave-game")
        expect(button).to_have_text(label)
        assert_accessible(page, f"the table's menu with the way out ({lang})")
        page.screenshot(path=str(artifacts / f"leave-menu-{lang}-{size['width']}.png"))
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        button.click()                             # dismissed: nothing happens
        expect(page.locator("#leave-game")).to_be_visible()
        assert asked and httpx.get(f"{server.base}/api/tables/{code}", trust_env=False) \
            .json()["seats"][0]["kind"] == "human"
        page.once("dialog", lambda d: d.accept())
        page.locator("#leave-game").click()
        page.wait_for_function("() => { const b = document.getElementById('board'); "
                               "return !!b && !document.querySelector('#leave-game'); }")
        seats = httpx.get(f"{server.base}/api/tables/{code}", trust_env=False).json()["seats"]
        assert seats[0]["kind"] == "bot"
        expect(page.locator(".chip-spectator")).to_have_count(1)
        page.screenshot(path=str(artifacts / f"leave-after-{lang}-{size['width']}.png"))


def test_my_games_offers_only_to_watch_a_game_the_player_left(new_page, server):
    """A logged-in player leaves a game; in the lobby's "My games" it says "Just watch" (not
    "Play on": the seat is the bot's for good), and the link opens the table watching."""
    page = new_page("en", width=1366, height=657)
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.click("#account-btn")
    page.click("#acct-mode")
    page.fill("#acct-name", "Leona")
    page.fill("#acct-password", "Kartenhaus im Regen 7")
    page.keyboard.press("Enter")
    expect(page.locator("#account-btn .acct-name")).to_have_text("Leona")
    page.select_option("#f-game", "kombio")
    page.select_option("#f-players", "2")
    page.select_option("#seat-kind-1", "human")
    expect(page.locator("#f-name-as")).to_contain_text("Leona")   # logged in: the account's
    page.uncheck("#f-public")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(page.url).group(1)
    # a guest takes the other seat (and never moves: the game stays unfinished)
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Gast"},
                   headers={"X-Cardtable-Client": "9" * 32}, trust_env=False)
    assert r.status_code == 200, r.text
    page.wait_for_selector("#board .game")
    page.goto("/")
    expect(page.locator(f"#mg-{code}")).to_have_text("Play on")
    page.goto(f"/t/{code}")
    page.wait_for_selector("#board .game")
    page.click("#signals-btn")
    page.once("dialog", lambda d: d.accept())
    page.locator("#leave-game").click()
    expect(page.locator(".chip-spectator")).to_have_count(1)
    page.goto("/")
    link = page.locator(f"#mg-{code}")
    expect(link).to_have_text("Just watch")
    link.click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#board .game")
    expect(page.locator(".chip-spectator")).to_have_count(1)
    expect(page.locator("#leave-game")).to_have_count(0)
