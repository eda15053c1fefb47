""""Play now" in Chromium against a live server: two strangers, one on a laptop in English
and one on a phone (375 px) in German, each press "Play now" for a rated duel; the server
pairs them at one table that opens by itself in both pages, and they play it to the end."""

from __future__ import annotations

import re
import secrets

import httpx
from a11y import assert_accessible
from playwright.sync_api import expect
from policy import AbluxxenPlayer
from test_web_friends import LAPTOP, PHONE, POLLED, TABLE_URL, playing, sign_up
from test_web_ratings import play_together


def test_two_strangers_play_now_a_rated_duel_to_its_end(new_page, server, artifacts):
    n = secrets.randbelow(10**6)
    ann, bob = f"Quinn{n}", f"Rosa{n}"
    a = new_page("en", **LAPTOP)
    b = new_page("de", phone=True, **PHONE)
    for page, name in ((a, ann), (b, bob)):
        sign_up(page, name)
        page.goto("/")
        page.wait_for_selector("#pn-go")
        page.select_option("#pn-game", "abluxxen")
        page.select_option("#pn-variant", "duel")
        page.select_option("#pn-rated", "rated")
        expect(page.locator("#pn-bots")).to_have_count(0)        # a rated game has no bots
    a.click("#pn-go")
    expect(a.locator("#pn-status")).to_contain_text("Looking for players")
    expect(a.locator("#pn-cancel")).to_be_visible()
    assert_accessible(a, "play now: waiting")
    # the phone's panel fits its screen, in German
    expect(b.locator("#pn-h")).to_have_text("Sofort spielen")
    assert b.evaluate("document.documentElement.scrollWidth") <= 375
    assert_accessible(b, "play now: the form on a phone")
    b.locator("#play-now").screenshot(path=str(artifacts / "play-now-phone-de.png"))
    b.locator("#pn-go").tap()
    for page in (a, b):
        page.wait_for_url(TABLE_URL, timeout=POLLED)
    code = TABLE_URL.match(a.url).group(1)
    assert re.match(f".*/t/{code}$", b.url)
    t = httpx.get(f"{server.base}/api/tables/{code}", trust_env=False).json()
    assert t["rated"] and sorted(s["name"] for s in t["seats"]) == sorted([ann, bob])
    playing(a)
    playing(b)
    play_together([(a, AbluxxenPlayer(a, seed=3)), (b, AbluxxenPlayer(b, seed=4))])
    prof = httpx.get(f"{server.base}/api/players/{ann}", trust_env=False).json()
    assert prof["ratings"][0]["games"] == 1
