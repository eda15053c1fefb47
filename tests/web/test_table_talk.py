"""Table talk in a real browser (issue 33, js/chat.js): two players chat, a quick reaction
goes with one tap on a phone (375x740) and reaches the other player (1366x657), HTML shows as
the characters typed (no element, no link), muting hides a player's messages in this browser
only (and survives a reload), the host turns the chat off; a finished game's replay shows its
chat, the spectators' too. Screenshots of both sizes in both languages go to the artifacts
directory; axe-core finds nothing on the open chat."""

from __future__ import annotations

import random

import pytest
from a11y import assert_accessible
from helpers import Client, play, run_async
from playwright.sync_api import expect
from test_table_people import seat_page

PHONE = {"width": 375, "height": 740, "phone": True}
LAPTOP = {"width": 1366, "height": 657}
WORDS = {"en": {"gg": "Good game!", "off": "The host has turned the chat off."},
         "de": {"gg": "Gutes Spiel!", "off": "Der Gastgeber hat den Chat ausgeschaltet."}}


def texts(page) -> list[str]:
    return page.eval_on_selector_all("#chat-list .chat-text", "xs => xs.map(x => x.textContent)")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_two_players_talk(new_page, server, artifacts, lang):
    out = server.create(game="abluxxen", variant="duel", name="Ann")
    code = out["table"]["code"]
    bob_join = server.join(code, "Bob")
    ann = seat_page(new_page, code, out["join"], "abluxxen", lang=lang, **PHONE)
    bob = seat_page(new_page, code, bob_join, "abluxxen", lang=lang, **LAPTOP)

    # a reaction: one tap on the phone once the chat is open
    ann.tap("#chat-toggle")
    expect(ann.locator("#chat-panel")).to_be_visible()
    ann.tap("#chat-reacts [data-react='gg']")
    expect(bob.locator("#chat-unread")).to_have_text("1")
    bob.click("#chat-toggle")
    expect(bob.locator("#chat-list .chat-reaction")).to_have_text(WORDS[lang]["gg"])
    expect(bob.locator("#chat-list .chat-name").first).to_contain_text("Ann")
    expect(bob.locator("#chat-unread")).to_have_count(0)

    # HTML and a link are text
    html = '<b>bold</b> <a href="https://example.org">https://example.org</a> <img src=x onerror=alert(1)>'
    bob.fill("#chat-input", html)
    bob.press("#chat-input", "Enter")
    expect(ann.locator("#chat-list .chat-text").last).to_have_text(html)
    assert ann.locator("#chat-list b, #chat-list a, #chat-list img").count() == 0
    ann.tap("#chat-reacts [data-react='thumbs']")
    ann.fill("#chat-input", "Viel Glück 🍀")
    ann.tap("#chat-send")
    expect(bob.locator("#chat-list .chat-text").last).to_have_text("Viel Glück 🍀")
    assert_accessible(ann, f"chat open, phone, {lang}")
    assert_accessible(bob, f"chat open, laptop, {lang}")
    ann.screenshot(path=str(artifacts / f"chat-{lang}-phone.png"))
    bob.screenshot(path=str(artifacts / f"chat-{lang}-laptop.png"))

    # Ann mutes Bob: his lines go from her page, new ones do not show; Bob sees all
    ann.locator(f"#chat-list li[data-who='s1'] .chat-mute").first.tap()
    expect(ann.locator("#chat-list li[data-who='s1']")).to_have_count(0)
    expect(ann.locator("#chat-muted .chat-unmute")).to_have_text("🔈 Bob")
    bob.fill("#chat-input", "still there?")
    bob.press("#chat-input", "Enter")
    expect(bob.locator("#chat-list .chat-text").last).to_have_text("still there?")
    ann.fill("#chat-input", "marker")                 # after Bob's line: once it is here, so was his
    ann.tap("#chat-send")
    expect(ann.locator("#chat-list .chat-text").last).to_have_text("marker")
    assert "still there?" not in texts(ann) and html not in texts(ann)
    expect(bob.locator("#chat-list .chat-text").last).to_have_text("marker")
    ann.reload()                                      # muting is kept in this browser
    ann.wait_for_selector("#board .game")
    ann.tap("#chat-toggle")
    expect(ann.locator("#chat-list .chat-text").last).to_have_text("marker")
    assert "still there?" not in texts(ann)
    ann.tap("#chat-muted .chat-unmute")
    expect(ann.locator("#chat-list li[data-who='s1']")).to_have_count(2)
    assert "still there?" in texts(ann)

    # the host turns the chat off: Bob is told and cannot write; no switch for him
    assert bob.locator("#chat-switch").count() == 0
    ann.tap("#chat-switch")
    expect(bob.locator("#chat-status")).to_have_text(WORDS[lang]["off"])
    expect(bob.locator("#chat-input")).to_be_disabled()
    expect(bob.locator("#chat-reacts [data-react='gg']")).to_be_disabled()
    ann.screenshot(path=str(artifacts / f"chat-{lang}-phone-off.png"))
    bob.screenshot(path=str(artifacts / f"chat-{lang}-laptop-off.png"))


def test_a_line_written_without_a_connection_stays_until_it_can_be_sent(new_page, server,
                                                                          artifacts):
    """Ann's phone loses its connection: the line she sends stays in the field and the
    status line says it was not sent (it used to vanish unsent); back online, she sends it
    and Bob gets it."""
    from cardtable.i18n import t

    out = server.create(game="abluxxen", variant="duel", name="Ann")
    code = out["table"]["code"]
    bob_join = server.join(code, "Bob")
    ann = seat_page(new_page, code, out["join"], "abluxxen", lang="de", **PHONE)
    bob = seat_page(new_page, code, bob_join, "abluxxen", lang="en", **LAPTOP)
    ann.tap("#chat-toggle")
    bob.click("#chat-toggle")
    ann.context.set_offline(True)
    expect(ann.locator("#conn-status")).to_contain_text("Offline")
    ann.fill("#chat-input", "bin gleich zurück")
    ann.tap("#chat-send")
    expect(ann.locator("#chat-status")).to_have_text(t("de", "chat.not_sent"))
    expect(ann.locator("#chat-input")).to_have_value("bin gleich zurück")
    ann.screenshot(path=str(artifacts / "chat-de-phone-not-sent.png"))
    ann.context.set_offline(False)
    expect(ann.locator("#conn-status")).to_have_count(0)      # connected again: no badge
    ann.tap("#chat-send")
    expect(bob.locator("#chat-list .chat-text").last).to_have_text("bin gleich zurück")
    expect(ann.locator("#chat-input")).to_have_value("")
    expect(ann.locator("#chat-status")).not_to_have_text(t("de", "chat.not_sent"))


def test_replay_shows_the_chat(new_page, server, artifacts):
    """A game of Ann and a bot, watched by a spectator; its replay lists both chats."""
    out = server.create(game="abluxxen", variant="duel", name="Ann",
                        seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code, token = out["table"]["code"], out["join"]["token"]

    async def game():
        ann = await Client(server.ws_base, code, token).connect()
        spec = await Client(server.ws_base, code).connect()
        await ann.send({"type": "chat", "channel": "table", "text": "<i>hi</i> bot"})
        await ann.wait_for(lambda m: m["type"] == "chat" and m["text"] == "<i>hi</i> bot")
        await spec.send({"type": "chat", "channel": "spectators", "text": "go Ann"})
        await spec.wait_for(lambda m: m["type"] == "chat" and m["text"] == "go Ann")
        await play(ann, "abluxxen", random.Random(5))
        await ann.close()
        await spec.close()
    run_async(game())
    page = new_page(**PHONE)
    page.goto(f"/replay/{code}")
    page.click("#replay-chat summary")
    items = page.locator("#replay-chat .chat-text")
    expect(items).to_have_text(["<i>hi</i> bot", "go Ann"])
    assert page.locator("#replay-chat i").count() == 0
    expect(page.locator("#replay-chat .chat-spec")).to_have_count(1)
    page.locator("#replay-chat").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "chat-replay-en-phone.png"))
