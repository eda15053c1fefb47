"""Human ratings in the browser (issue 32), in Chromium against a live server.

Two accounts in two browser contexts (a laptop in English, a phone in German) sign up; the
first opens a rated Kombio table from the lobby (the "rated" box shows only when logged in),
a guest who opens the invite link is refused a seat (in words), the second account joins by
the link, and both click the game to its end. Both ratings moved (one up, one down); the
leaderboard, reached from the lobby, lists neither among the established ratings (one game
each: provisional ratings) and both at once in its list of provisional ratings below them, under
their own heading; the winner's profile, reached from there, marks the rating provisional and
shows the game with its replay link (which opens the replay) and the rating's chart with its
table. The pages are checked with axe and photographed at 375x740 and
1366x657 in German and English (tests/web/artifacts/ratings-*.png)."""

from __future__ import annotations

import re
import time

import httpx
from a11y import assert_accessible
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PWTimeout
from policy import MY_TURN_OR_OVER, KombioPlayer, board, wait_moved

TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")
LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 375, "height": 740}
PASSWORD = "Kartenhaus im Regen 7"


def sign_up(page: Page, name: str) -> None:
    page.goto("/")
    page.wait_for_selector("#create-btn")
    expect(page.locator("#f-rated")).to_have_count(0)            # a guest: no rated box
    page.click("#account-btn")
    page.click("#acct-mode")
    page.fill("#acct-name", name)
    page.fill("#acct-password", PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#account-btn .acct-name")).to_have_text(name)


def play_together(players: list, timeout: float = 300.0) -> None:
    """Each player clicks whenever the page asks them, until every page shows the game over."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if all(board(p)["status"] == "over" for p, _ in players):
            return
        for page, player in players:
            try:                                   # a wait on the page's state, not a pause
                page.wait_for_function(MY_TURN_OR_OVER, timeout=250)
            except PWTimeout:
                continue
            st = board(page)
            if st["status"] == "over":
                continue
            player.act()
            wait_moved(page, st["index"])
    raise AssertionError(f"game not over: {[board(p) for p, _ in players]}")


def shoot(page: Page, artifacts, name: str, last: str = "de") -> None:
    """The page at both sizes in both languages (the language switch in the header), ending
    in the language `last`."""
    for size_name, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(size)
        for lang in sorted(("de", "en"), key=lambda x: x == last):
            page.locator(f'#lang-switch button[data-lang="{lang}"]').focus()
            page.keyboard.press("Enter")                      # by keyboard
            expect(page.locator("html")).to_have_attribute("lang", lang)
            page.screenshot(path=str(artifacts / f"ratings-{name}-{size_name}-{lang}.png"),
                            full_page=True)


def test_two_accounts_play_a_rated_game_and_the_ratings_show(new_page, server, artifacts):
    a = new_page("en", **LAPTOP)
    sign_up(a, "Rita")
    b = new_page("de", **PHONE, phone=True)
    sign_up(b, "Bodo")
    b.wait_for_selector("#f-rated")                       # logged in: the rated box shows
    expect(b.locator("label:has(#f-rated)")).to_have_text("Gewertetes Spiel")
    b.locator("#f-rated").scroll_into_view_if_needed()
    b.screenshot(path=str(artifacts / "ratings-create-phone-de.png"))

    # Rita opens a rated public Kombio table for two from the lobby
    a.goto("/")
    a.wait_for_selector("#f-rated")
    a.select_option("#f-game", "kombio")
    a.select_option("#f-players", "2")
    a.select_option("#seat-kind-1", "human")
    a.fill("#f-target", "1")
    a.check("#f-public")
    a.check("#f-rated")
    a.locator("#f-rated").scroll_into_view_if_needed()
    a.screenshot(path=str(artifacts / "ratings-create-laptop-en.png"))
    a.click("#create-btn")
    a.wait_for_url(TABLE_URL)
    code = TABLE_URL.match(a.url).group(1)
    link = a.locator("#share-link").input_value()
    assert httpx.get(f"{server.base}/api/tables/{code}", trust_env=False).json()["rated"]

    # a guest opens the invite: told that a rated table needs an account; the seat stays free
    g = new_page("en", **PHONE, phone=True)
    g.goto(link)
    g.wait_for_selector("#tj-name")
    expect(g.locator(".rated-hint")).to_be_visible()
    g.fill("#tj-name", "Gast")
    g.tap("#take-seat")
    expect(g.locator(".join-table .error")).to_have_text(
        "Could not do that: this table is rated: sign in to take a seat (guests may watch)")
    g.screenshot(path=str(artifacts / "ratings-guest-refused-phone-en.png"))
    assert httpx.get(f"{server.base}/api/tables/{code}",
                     trust_env=False).json()["free_seats"] == [1]

    # Bodo joins by the link and both play to the end
    b.goto(link)
    expect(b.locator("#tj-name-as")).to_contain_text("Bodo")      # logged in: the account's
    b.tap("#take-seat")
    b.wait_for_selector("#board .game")
    a.wait_for_selector("#board .game")
    play_together([(a, KombioPlayer(a, seed=1, call_after=1)),
                   (b, KombioPlayer(b, seed=2, call_after=1))])

    # both ratings moved, one up and one down
    prof = {n: httpx.get(f"{server.base}/api/players/{n}", trust_env=False).json()
            for n in ("Rita", "Bodo")}
    mus = {n: p["ratings"][0]["mu"] for n, p in prof.items()}
    assert all(p["ratings"][0]["games"] == 1 for p in prof.values())
    winner = "Rita" if prof["Rita"]["recent"][0]["won"] else "Bodo"
    loser = "Bodo" if winner == "Rita" else "Rita"
    assert mus[winner] > 25 > mus[loser], mus

    # the leaderboard from the lobby lists established ratings: one game is not enough; the
    # provisional ones are listed apart below them at once, each marked
    b.goto("/")
    b.locator("#board-link-kombio").tap()
    b.wait_for_url(re.compile(r".*/leaderboard/kombio$"))
    b.wait_for_selector("#rt-rule")
    expect(b.locator("#rt-rule")).to_contain_text("5")
    for name in (winner, loser):
        expect(b.locator(f'#rt-board tbody tr[data-name="{name}"]')).to_have_count(0)
    expect(b.locator("#rt-prov-h")).to_have_text("Vorläufige Wertungen")
    rows = b.locator("#rt-prov tbody tr")
    for name in (winner, loser):           # other tests of this server may have rated players
        expect(b.locator(f'#rt-prov tbody tr[data-name="{name}"]')).to_have_count(1)
    names = [r.get_attribute("data-name") for r in rows.all()]
    assert [n for n in names if n in (winner, loser)] == [winner, loser]
    expect(b.locator("#rt-prov caption")).to_have_text("Vorläufige Wertungen · Kombio")
    assert_accessible(b, "leaderboard")
    shoot(b, artifacts, "leaderboard")

    # the winner's profile from the leaderboard: the game with its replay, the chart
    b.set_viewport_size(PHONE)
    b.locator(f'#rt-prov a[href="/players/{winner}"]').tap()
    b.wait_for_selector(".rt-recent")
    expect(b.locator(".rt-card .chip-provisional")).to_have_text("vorläufig")
    expect(b.locator(".rt-provisional-why")).to_contain_text(
        "1 gewertetes Spiel gegen 1 Mitspieler")
    item = b.locator(f'.rt-recent .table-item[data-code="{code}"]')
    expect(item.locator(".chip-won")).to_be_visible()
    expect(item.locator(".chip-rated")).to_be_visible()
    svg = b.locator("#rt-chart-0")
    expect(svg).to_be_visible()
    expect(svg.locator("title")).to_have_text("Verlauf der Wertung in Kombio")
    b.locator(".rt-details summary").first.tap()
    expect(b.locator(".rt-details table tbody tr")).to_have_count(1)
    assert_accessible(b, "profile")
    shoot(b, artifacts, "profile")
    b.set_viewport_size(PHONE)
    item.locator(f'a[href="/replay/{code}"]').tap()
    b.wait_for_selector(".replay-controls")

    # Rita's own profile from the account menu, by keyboard
    a.goto("/")
    a.wait_for_selector("#create-btn")
    a.focus("#account-btn")
    a.keyboard.press("Enter")
    a.locator("#acct-profile").focus()
    a.keyboard.press("Enter")
    a.wait_for_url(re.compile(r".*/players/Rita$"))
    a.wait_for_selector(".rt-recent")
    expect(a.locator(f'.rt-recent .table-item[data-code="{code}"] a')).to_have_attribute(
        "href", f"/replay/{code}")


def test_an_unknown_player_page_says_so(new_page):
    p = new_page("de", **PHONE, phone=True)
    p.goto("/players/Niemand%20hier")
    expect(p.locator(".page-profile [role=alert]")).to_have_text(
        "Einen Spieler dieses Namens gibt es nicht.")
