"""Moderating a guest in the browser, in Chromium against a live server: Gus, a guest
watching Ann's table, insults the spectators; Rea, an account watching too, reports his line
from the chat (the line's report button comes when her session is known, also after the
chat's log). Mo, a moderator, mutes him from the queue (through the line: the mute holds
Gus's browser), and Gus's next line is refused with the reason and until when, in his
language; Rea still chats. Gus then opens a table of his own, and a ban of that seat's guest
(`cardtable admin ban --seat`) refuses his table page with the reason. One cell in `make
test` (a German phone); the crossed cell (an English laptop) in `make test-full`."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect
from policy import send_chat
from test_web_friends import LAPTOP, PHONE, TABLE_URL, open_table, playing, sign_up

from cardtable.cli.main import main

WORDS = {"de": {"muted": "Ein Moderator hat dich im Chat stummgeschaltet, bis",
                "why": "Grund: beleidigt die Zuschauer", "banned": "ausgeschlossen"},
         "en": {"muted": "A moderator has muted you in the chat until",
                "why": "Reason: beleidigt die Zuschauer", "banned": "banned"}}


def _game_with_a_bot(page) -> str:
    """Ann's private Kombio game against a bot, running: its code."""
    page.goto("/")
    page.wait_for_selector("#create-btn")
    page.select_option("#f-game", "kombio")
    page.select_option("#f-players", "2")
    page.select_option("#seat-kind-1", "bot")
    page.uncheck("#f-public")
    page.click("#create-btn")
    page.wait_for_url(TABLE_URL)
    playing(page)
    return TABLE_URL.match(page.url).group(1)


def _cli(*args: str) -> None:
    with ThreadPoolExecutor(1) as pool:          # (the CLI runs its own event loop)
        assert pool.submit(main, list(args)).result() == 0


@pytest.mark.parametrize("lang,size", [
    pytest.param("de", PHONE, id="375x740-de"),
    pytest.param("en", LAPTOP, id="1366x657-en", marks=pytest.mark.full)])
def test_a_guest_spectator_is_muted_from_a_reported_line_and_banned_by_seat(
        new_page, server, lang, size):
    n = secrets.randbelow(10**6)
    ann, rea, mo = f"Ann{n}", f"Rea{n}", f"Mo{n}"
    insult = f"you all play like fools {n}"       # (one server for every cell: its own line)
    a = new_page("en", **LAPTOP)
    sign_up(a, ann)
    code = _game_with_a_bot(a)
    g = new_page(lang, phone=size is PHONE, **size)          # Gus: a guest, watching
    g.goto(f"/t/{code}")
    g.click("#chat-toggle")
    send_chat(g, insult)
    expect(g.locator("#chat-list li", has_text=insult)).to_have_count(1)     # stored
    r = new_page("en", **LAPTOP)                             # Rea: an account, watching
    sign_up(r, rea)
    held = []                     # (her session is told after the chat's log: held till then)
    r.route("**/api/me", lambda route: held.append(route))
    r.goto(f"/t/{code}")
    r.click("#chat-toggle")
    line = r.locator("#chat-list li", has_text=insult)
    expect(line).to_have_count(1)
    expect(line.locator(".chat-report")).to_have_count(0)      # (no account known yet)
    assert held
    for route in held:
        route.continue_()
    r.unroute("**/api/me")
    writer = line.locator(".chat-name").inner_text()           # "Spectator N", as chat names it
    line.locator(".chat-report").click()
    r.click("#report-dialog-submit")
    expect(r.locator("#chat-status")).to_contain_text("Thank you")

    m = new_page("en", **LAPTOP)
    sign_up(m, mo)
    _cli("admin", "role", mo, "moderator", "--reason", "test", "--database", server.database)
    m.goto("/mod")
    card = m.locator(".mq-report", has_text=insult)
    expect(card).to_have_count(1)
    card = m.locator("#" + card.get_attribute("id"))
    # the queue names the spectator as the chat does, in the moderator's language, in the
    # report's head and on the line
    expect(card.locator("h2")).to_contain_text(f"{writer}: ")
    expect(card.locator(".mq-line-hit strong")).to_have_text(f"{writer}: ")
    card.locator(".mq-claim").click()
    card.locator("[id^=mq-reason-]").fill("beleidigt die Zuschauer")
    card.locator("[id^=mq-mute-]").click()
    expect(card.locator(".mq-done li")).to_contain_text(["is muted until"])

    # Gus's next line is refused, saying why and until when; Rea still chats
    g.fill("#chat-input", "fools, all of you")
    g.press("#chat-input", "Enter")
    expect(g.locator("#chat-status")).to_contain_text(WORDS[lang]["muted"])
    expect(g.locator("#chat-status")).to_contain_text(WORDS[lang]["why"])
    r.fill("#chat-input", "calm down")
    r.press("#chat-input", "Enter")
    expect(g.locator("#chat-list li", has_text="calm down")).to_have_count(1)
    expect(r.locator("#chat-list li", has_text="fools, all of you")).to_have_count(0)

    # Gus opens a table of his own; banned as that seat's guest, his page is refused with the
    # reason
    mine = open_table(g, "Gus", guest=True)
    _cli("admin", "ban", "--seat", f"{mine}:0", "--reason", "spam im Chat",
         "--database", server.database)
    g.reload()                                   # (another process: the next connection)
    told = g.locator("#table-cut [role=alert]")
    expect(told).to_contain_text(WORDS[lang]["banned"])
    expect(told).to_contain_text("spam im Chat")
