"""The moderators' queue in the browser (js/mod.js, /mod) and reporting from table talk
(js/chat.js, js/report.js), in Chromium against a live server: Ben (a German phone) insults
Ann at her table; Ann (an English laptop) reports his line from the chat. Ben opening /mod is
told it is for moderators. Mo, made a moderator from the terminal (`cardtable admin role`),
finds the queue in his account menu, sees the report with the line among the lines around it,
takes it on, removes the line and mutes Ben: Ann's chat shows the line as removed, Ben's next
line is refused (muted), and the report, resolved, says so. Screenshots of the queue at both
sizes in both languages go to the artifacts directory; axe-core finds nothing on the queue.
Ann then finds the outcome in her "My reports"."""

from __future__ import annotations

import re
import secrets
from concurrent.futures import ThreadPoolExecutor

from a11y import assert_accessible
from playwright.sync_api import expect
from policy import send_chat
from test_web_friends import open_table, sign_up

from cardtable.cli.main import main

LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 375, "height": 740}
INSULT = "you play like an idiot"
HANDLED = "handled: the player was muted"      # i18n en mod.handled.muted


def _fits(page, selector: str) -> None:
    """Nothing inside `selector` is wider than the page (no sideways scrolling on a phone)."""
    over = page.evaluate("""(sel) => { const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll(sel + ' *')].filter((e) => e.getBoundingClientRect().right > w + 1)
          .map((e) => e.tagName + '#' + e.id + '.' + e.className); }""", selector)
    assert not over, over


def test_a_moderator_removes_a_reported_line_and_mutes_its_author(new_page, server, artifacts):
    n = secrets.randbelow(10**6)
    ann, ben, mo = f"Ann{n}", f"Ben{n}", f"Mo{n}"
    a = new_page("en", **LAPTOP)
    b = new_page("de", phone=True, **PHONE)
    sign_up(a, ann)
    sign_up(b, ben)
    code = open_table(a, ann)
    b.goto(f"/t/{code}")
    expect(b.locator("#tj-name-as")).to_contain_text(ben)         # logged in: the account's
    b.tap("#take-seat")
    b.tap("#chat-toggle")
    send_chat(b, INSULT)

    # Ann reports Ben's line from her chat: the dialog quotes it
    a.click("#chat-toggle")
    line = a.locator("#chat-list li[data-who='s1']", has_text=INSULT)
    line.locator(".chat-report").click()
    expect(a.locator("#report-quote")).to_have_text(f"{ben}: {INSULT}")
    expect(a.locator("#report-reason")).to_have_value("abuse")
    a.fill("#report-note", "insulted me")
    a.screenshot(path=str(artifacts / "mod-queue-chat-report-en-laptop.png"))
    a.click("#report-dialog-submit")
    expect(a.locator("#chat-status")).to_have_text(
        f"Thank you: the moderators will look at your report about {ben}.")
    assert a.locator("#chat-list li[data-who='s0'] .chat-report").count() == 0   # her own

    # a player's menu has no queue, and the page tells him it is not his
    b.tap("#account-btn")
    expect(b.locator("#acct-reports")).to_be_visible()
    assert b.locator("#acct-mod").count() == 0
    assert b.goto("/mod").status == 200                          # a page of the site
    expect(b.locator("#mq-refused")).to_contain_text("Diese Seite ist für die Moderation.")

    # Mo becomes a moderator and finds the queue in his menu
    m = new_page("en", **LAPTOP)
    sign_up(m, mo)
    with ThreadPoolExecutor(1) as pool:         # (the CLI runs its own event loop)
        assert pool.submit(main, ["admin", "role", mo, "moderator", "--reason", "test",
                                  "--database", server.database]).result() == 0
    m.reload()
    expect(m.locator("#account-btn .acct-name")).to_have_text(mo)  # the session (and role) known
    m.click("#account-btn")
    m.click("#acct-mod")
    found = m.locator(".mq-report", has_text=f"{ben}: Insults or harassment")
    expect(found).to_have_count(1)
    card = m.locator("#" + found.get_attribute("id"))           # (its words change with the language)
    expect(card.locator(".mq-line-hit")).to_contain_text(f"{ben}: {INSULT}")
    expect(card.locator(".mq-note")).to_have_text("insulted me")
    expect(card.locator(".mq-meta")).to_contain_text(f"Reported by {ann}")
    expect(card.locator("a", has_text="Open the replay")).to_have_attribute(
        "href", re.compile(f"^/replay/{code}"))
    expect(card.locator(".mq-state")).to_have_text("Open: nobody has taken it on.")
    card.locator(".mq-claim").click()
    expect(card.locator(".mq-state")).to_have_text(f"Taken on by {mo}.")

    card.locator("[id^=mq-remove-]").click()                  # no reason yet: refused here
    expect(card.locator(".mq-error")).to_have_text("Write a reason first.")
    card.locator("[id^=mq-reason-]").fill("insults at the table")
    card.locator("[id^=mq-remove-]").click()
    expect(card.locator(".mq-done li")).to_have_text([f"The line of {ben} is removed."])
    card.locator("[id^=mq-until-]").select_option("12h")
    card.locator("[id^=mq-mute-]").click()
    expect(card.locator(".mq-done li").nth(1)).to_contain_text(f"{ben} is muted until ")
    expect(card.locator("[id^=mq-outcome-]")).to_have_value("muted")
    assert_accessible(m, "moderators' queue")
    m.screenshot(path=str(artifacts / "mod-queue-en-laptop.png"), full_page=True)

    # the line is gone for Ann; Ben's next line is refused
    expect(line).to_have_count(0)
    expect(a.locator("#chat-list li[data-who='s1'] .chat-removed")).to_have_text(
        "removed by a moderator")
    b.go_back()
    b.wait_for_selector("#chat-toggle")
    b.tap("#chat-toggle")
    send_chat(b, "still here")
    expect(b.locator("#chat-status")).to_contain_text(
        "Ein Moderator hat dich im Chat stummgeschaltet, bis")
    assert b.locator("#chat-list", has_text="still here").count() == 0
    b.screenshot(path=str(artifacts / "mod-queue-muted-de-phone.png"))

    # the queue on a phone, in German too; then resolved
    m.set_viewport_size(PHONE)
    m.click("#lang-switch [data-lang='de']")
    expect(card.locator(".mq-state")).to_have_text(f"In Bearbeitung von {mo}.")
    expect(card.locator(".mq-done li").first).to_have_text(f"Die Nachricht von {ben} ist entfernt.")
    _fits(m, "#main")
    m.screenshot(path=str(artifacts / "mod-queue-de-phone.png"), full_page=True)
    card.locator("[id^=mq-note-]").fill("Zeile entfernt, 12 h stumm")
    card.locator("[id^=mq-resolve-]").click()
    expect(card.locator(".mq-state")).to_have_text(
        "Erledigt: stummgeschaltet. Zeile entfernt, 12 h stumm")
    expect(card.locator("[id^=mq-resolve-]")).to_have_count(0)
    m.click("#lang-switch [data-lang='en']")
    _fits(m, "#main")
    m.screenshot(path=str(artifacts / "mod-queue-en-phone.png"), full_page=True)
    m.set_viewport_size(LAPTOP)
    m.click("#lang-switch [data-lang='de']")
    m.screenshot(path=str(artifacts / "mod-queue-de-laptop.png"), full_page=True)

    # the reporter sees the outcome in "My reports", in English on her laptop
    a.click("#chat-close")                       # (the open chat drawer covers the menu)
    a.click("#account-btn")
    a.click("#acct-reports")
    expect(a.locator("#my-reports li")).to_contain_text(HANDLED)
