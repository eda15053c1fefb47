"""Journeys of people playing with friends, in a real browser (Debian's Chromium through
Playwright) against a live server that runs with the limits per client address on, as a public
server does (issue 28). Every browser context comes from 127.0.0.1: one address, as for a
household behind one router.

- Friends: A creates a private table on a laptop (English), reads the invite link in the waiting
  room, B opens it on a phone (touch, German), first under a name that is taken (the refusal is
  German), C opens it too and watches; A and B click the game to its end, take the rematch (both
  land on the new table) and open the replay of the first game. For Abluxxen (3 players with a
  bot), the duel and Kombio (a low target).
- Two people behind one address sit at the same public table and the game starts.
- Every route the client builds (/t/..., resume links, /replay/..., /rules/..., invite links of
  public and private tables, the lobby's watch box) renders its page for codes as long as the
  server issues (26 letters for a private table) and as long as it accepts (32)."""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from pages import page_factory
from helpers import ServerProc
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PWTimeout

from cardtable.server.guard.security import MAX_CODE_LEN, PRIVATE_CODE_LEN, PUBLIC_CODE_LEN
from policy import MY_TURN_OR_OVER, AbluxxenPlayer, KombioPlayer, board, wait_moved

TABLE_URL = re.compile(r".*/t/([A-Z0-9]+)$")
LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 375, "height": 740}


@pytest.fixture(scope="module")
def limited(browser):
    """A server with the limits per address on (one seat per person at a public table, 3 per
    address; unknown codes slowed), the request rates raised: every context of these tests
    and the test itself share 127.0.0.1."""
    tmp = tempfile.mkdtemp(prefix="cardtable-journeys-")
    srv = ServerProc(f"{tmp}/journeys.db", log_dir=Path(tmp),
                     args=("--client-limits", "on", "--round-break", "30",
                           "--round-pause", "0.2", "--limit", "http_rate=200",
                           "--limit", "http_burst=1000", "--limit", "ws_rate=1000",
                           "--limit", "ws_burst=2000", "--limit", "tables=100",
                           "--limit", "search_tables=100",
                           "--limit", "new_tables_per_minute=100")).start()
    yield srv
    srv.stop()


@pytest.fixture
def person(browser, limited):
    """person(lang="en", phone=False) -> a page in a browser context of its own (its own
    localStorage: its own client identity): a laptop (1366x657) or a phone (375x740, touch)."""
    with page_factory(browser, limited.base) as make:
        def person_page(lang: str = "en", phone: bool = False) -> Page:
            size = PHONE if phone else LAPTOP
            return make(lang, size["width"], size["height"], phone)
        yield person_page


def api(srv, method: str, path: str, body=None) -> httpx.Response:
    return httpx.request(method, srv.base + path, json=body, timeout=60, trust_env=False)


def not_a_404_page(page: Page) -> None:
    assert page.locator(".not-found").count() == 0, page.url


def create_in_lobby(page: Page, game: str, variant: str | None, players: int, seats: list[str],
                    name: str, public: bool, target: int | None = None) -> str:
    """The lobby's form: `seats` for seats 1.. ("human" or a bot level)."""
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.select_option("#f-game", game)
    if variant:
        page.select_option("#f-variant", variant)
    page.select_option("#f-players", str(players))
    for i, s in enumerate(seats, start=1):
        page.select_option(f"#seat-kind-{i}", "human" if s == "human" else "bot")
        if s != "human":
            page.select_option(f"#seat-bot-{i}", s)
    if target is not None:
        page.fill("#f-target", str(target))
    page.fill("#f-name", name)
    if public:
        page.check("#f-public")
    else:
        page.uncheck("#f-public")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    return TABLE_URL.match(page.url).group(1)


def play_together(players: list, timeout: float = 240.0) -> None:
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


GAMES = {
    # game, variant, players, the other seats after A's, target, player class
    "abluxxen": ("abluxxen", "basic", 3, ["human", "easy"], None, AbluxxenPlayer),
    "duel": ("abluxxen", "duel", 2, ["human"], None, AbluxxenPlayer),
    "kombio": ("kombio", None, 2, ["human"], 1, KombioPlayer),
}


@pytest.mark.parametrize("which", list(GAMES))
def test_friends_at_a_private_table(person, limited, artifacts, which):
    game, variant, players, seats, target, Player = GAMES[which]
    a = person("en")
    code = create_in_lobby(a, game, variant, players, seats, "Ann", public=False, target=target)
    assert len(code) == PRIVATE_CODE_LEN
    # the waiting room shows the invite link (the router took the 26-letter code)
    share = a.locator("#share-link")
    expect(share).to_have_value(re.compile(f"/t/{code}$"))
    link = share.input_value()
    not_a_404_page(a)
    a.screenshot(path=str(artifacts / f"journey-{which}-waiting.png"))

    # B opens the invite on a phone, in German; the name Ann is taken: a German refusal
    b = person("de", phone=True)
    b.goto(link)
    b.wait_for_selector("#tj-name")
    not_a_404_page(b)
    b.fill("#tj-name", "ann")
    b.tap("#take-seat")
    expect(b.locator(".join-table .error")).to_have_text(
        "Das ging nicht: Der Name „ann“ ist an diesem Tisch schon vergeben: wähle einen anderen")
    b.fill("#tj-name", "Bea")
    b.tap("#take-seat")
    b.wait_for_selector("#board .game")
    a.wait_for_selector("#board .game")
    assert board(a)["seat"] == "0" and board(b)["seat"] == "1"

    # C opens the same link and watches
    c = person("en")
    c.goto(link)
    c.wait_for_selector("#board .game, #just-watch")
    if c.locator("#just-watch").count():
        c.click("#just-watch")
    expect(c.locator(".chip-spectator")).to_be_visible()
    assert c.locator(".my-area, .hand button.card").count() == 0

    play_together([(a, Player(a, seed=1)), (b, Player(b, seed=2))])
    for p in (a, b, c):
        p.wait_for_selector("#result")
    b.screenshot(path=str(artifacts / f"journey-{which}-phone-end.png"), full_page=True)
    actions = len(api(limited, "GET", f"/api/tables/{code}/record").json()["actions"])

    # the rematch: A asks for it, B follows; both land on the new table, in their seats
    a.click("#rematch-btn")
    a.wait_for_url(re.compile(rf".*/t/(?!{code}$)[A-Z0-9]+$"))
    new = TABLE_URL.match(a.url).group(1)
    assert new != code and len(new) == PRIVATE_CODE_LEN
    b.locator("#to-rematch").tap()
    b.wait_for_url(re.compile(f".*/t/{new}$"))
    for p, seat in ((a, "0"), (b, "1")):
        p.wait_for_selector("#board .game")
        p.wait_for_function("(s) => document.getElementById('board').dataset.seat === s", arg=seat)
        not_a_404_page(p)
    c.click("#to-rematch")                                  # the spectator follows too
    c.wait_for_url(re.compile(f".*/t/{new}$"))
    expect(c.locator(".chip-spectator")).to_be_visible()

    # the replay of the first game, from a link and from the player's own list
    a.goto(f"/replay/{code}")
    a.wait_for_selector(".replay-controls")
    expect(a.locator(".replay-counter")).to_contain_text(str(actions))
    not_a_404_page(a)
    b.goto("/")
    b.locator(f'.my-tables a[href="/replay/{code}"]').tap()
    b.wait_for_selector(".replay-controls")
    expect(b.locator(".replay-counter")).to_contain_text(f"Schritt 0 von {actions}")
    b.screenshot(path=str(artifacts / f"journey-{which}-phone-replay.png"))


def test_two_people_behind_one_address_at_a_public_table(person, limited):
    """Both contexts come from 127.0.0.1; the second used to get 'you already hold a seat at
    this public table'."""
    a = person("en")
    code = create_in_lobby(a, "abluxxen", "basic", 3, ["human", "easy"], "Ann", public=True)
    assert len(code) == PUBLIC_CODE_LEN
    b = person("de", phone=True)
    b.goto("/")
    b.fill("#j-name", "Bea")
    join = b.locator(f'.open-tables li[data-code="{code}"] button')
    join.tap()
    b.wait_for_function("() => location.pathname.startsWith('/t/') "
                        "|| !!document.querySelector('.page-lobby .error')")
    assert b.locator(".page-lobby .error").count() == 0, b.locator(".page-lobby .error").inner_text()
    b.wait_for_url(re.compile(f".*/t/{code}$"))
    b.wait_for_selector("#board .game")
    a.wait_for_selector("#board .game")
    assert board(a)["seat"] == "0" and board(b)["seat"] == "1"
    assert api(limited, "GET", f"/api/tables/{code}").json()["status"] == "playing"
    # the same person (B's browser) cannot take a second seat of a public table: in German
    b.goto("/")
    code2 = api(limited, "POST", "/api/tables", {"game": "kombio", "players": 3}).json()
    code2 = code2["table"]["code"]
    b.fill("#j-code", code2)
    b.fill("#j-name", "Bea")
    b.tap("#join-btn")
    b.wait_for_url(re.compile(f".*/t/{code2}$"))
    b.goto("/")
    b.fill("#j-code", code2)
    b.fill("#j-name", "Bea 2")
    b.tap("#join-btn")
    expect(b.locator(".join-form .error, .create-form .error").first).to_contain_text(
        "Du hast an diesem öffentlichen Tisch schon einen Platz")


def test_every_route_renders_for_the_longest_codes(person, limited):
    """The router accepted codes of at most 16 letters: a private table (26) was 'Page not
    found' at /t/, at its resume link and at /replay/."""
    # a finished private game (bots only) for /replay/, a waiting private table for /t/
    done = api(limited, "POST", "/api/tables", {
        "game": "kombio", "players": 2, "target": 1, "public": False,
        "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}]}).json()
    done = done["table"]["code"]
    r = api(limited, "POST", "/api/tables", {"game": "kombio", "players": 2, "public": False,
                                             "name": "Ann"}).json()
    waiting, token = r["table"]["code"], r["join"]["token"]
    assert len(done) == len(waiting) == PRIVATE_CODE_LEN
    page = person("en")
    # /t/CODE: the join form
    page.goto(f"/t/{waiting}")
    page.wait_for_selector("#tj-name")
    not_a_404_page(page)
    # the resume link (/t/CODE#token=...): asked before taking the seat
    page.goto(f"/t/{waiting}#token={token}")
    page.wait_for_selector("#link-confirm")
    not_a_404_page(page)
    # the invite link a private and a public table show in the waiting room
    host = person("en")
    for public in (False, True):
        code = create_in_lobby(host, "kombio", None, 2, ["human"], "Ann", public=public)
        link = host.locator("#share-link").input_value()
        assert link.endswith(f"/t/{code}") and len(code) == (PUBLIC_CODE_LEN if public
                                                              else PRIVATE_CODE_LEN)
        page.goto(link)
        page.wait_for_selector("#tj-name")
        not_a_404_page(page)
    # the lobby's watch box takes a pasted private link
    page.goto("/")
    page.fill("#j-code", f"{limited.base}/t/{waiting}")
    page.click("#watch-btn")
    page.wait_for_url(re.compile(f".*/t/{waiting}$"))
    page.wait_for_selector("#tj-name")
    # the bots' private game, watched to its end; its replay link and /replay/CODE
    page.goto(f"/t/{done}")
    page.wait_for_selector("#result")
    not_a_404_page(page)
    expect(page.locator("#replay-link")).to_have_attribute("href", f"/replay/{done}")
    page.click("#replay-link")
    page.wait_for_selector(".replay-controls")
    page.goto(f"/replay/{done}")
    page.wait_for_selector(".replay-controls")
    not_a_404_page(page)
    # /rules/GAME
    for game in ("abluxxen", "kombio"):
        page.goto(f"/rules/{game}")
        page.wait_for_selector("#rules-title")
        not_a_404_page(page)
    # the longest code the server accepts (32): the table page answers (no such table), not
    # the router's "Page not found"; the same for the replay page
    longest = "Z" * MAX_CODE_LEN
    page.goto(f"/t/{longest}")
    expect(page.locator("#main")).to_contain_text(f"There is no table {longest}.")
    not_a_404_page(page)
    page.goto(f"/replay/{longest}")
    expect(page.locator("#main")).to_contain_text(f"There is no table {longest}.")
    not_a_404_page(page)
    # longer than any code: the router's "Page not found"
    page.goto(f"/t/{longest}Z")
    expect(page.locator(".not-found")).to_be_visible()
