"""E-mail in the browser, in Chromium against a live server that sends through a real SMTP
server the test starts (aiosmtpd): on a laptop (English) a player adds an address and
confirms it from the link of the message received; then, logged out, they forgot their
password: "Forgot your password?" in the log-in dialog sends a link, the reset page sets a
new one, and they log in with it. On a phone (German) the same player resets it again by
their address. Photographed at both sizes (tests/web/artifacts/email-*.png)."""

from __future__ import annotations

import queue
import re
import tempfile
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from a11y import assert_accessible
from aiosmtpd.controller import Controller
from helpers import ServerProc, free_port
from pages import page_factory
from playwright.sync_api import Page, expect

PASSWORD = "Kartenhaus im Regen 7"
NEW = "Ein neuer langer Satz 8"
NEWER = "a third long sentence 9"
LAPTOP = {"width": 1366, "height": 657}
PHONE = {"width": 375, "height": 740}


class Inbox:
    def __init__(self):
        self.q: queue.Queue = queue.Queue()

    async def handle_DATA(self, server, session, envelope):
        self.q.put(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def link(self, page: str) -> str:
        """The link to `page` in the next message (waits for it; 60 s: a hang guard)."""
        msg = self.q.get(timeout=60)
        body = msg.get_body(("plain",)).get_content()
        found = re.search(rf"http://\S+/{page}#token=[A-Za-z0-9_-]+", body)
        assert found, body
        return found.group(0)


@pytest.fixture(scope="module")
def mail_site():
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    tmp = tempfile.mkdtemp(prefix="cardtable-mail-")
    srv = ServerProc(f"{tmp}/mail.db", log_dir=Path(tmp))
    srv.args = ["--smtp-host", "127.0.0.1", "--smtp-port", str(smtp.port), "--smtp-security",
                "none", "--mail-from", "cardtable@example.org", "--site-url", srv.base]
    srv.start()
    yield srv, inbox
    srv.stop()
    smtp.stop()


@pytest.fixture
def pages(browser, mail_site):
    with page_factory(browser, mail_site[0].base) as make:
        yield make


def log_in(page: Page, name: str, password: str) -> None:
    page.click("#account-btn")
    page.fill("#acct-name", name)
    page.fill("#acct-password", password)
    page.keyboard.press("Enter")
    expect(page.locator("#signin-dialog")).to_have_count(0)
    expect(page.locator("#account-btn .acct-name")).to_have_text(name)


def forgot(page: Page, who: str, artifacts: Path, shot: str) -> None:
    page.click("#account-btn")
    page.click("#acct-forgot")
    expect(page.locator("#forgot-dialog")).to_be_visible()
    expect(page.locator("#forgot-who")).to_be_focused()
    page.fill("#forgot-who", who)
    assert_accessible(page, f"{shot} forgot dialog")
    page.screenshot(path=str(artifacts / f"email-{shot}-forgot.png"))
    page.keyboard.press("Enter")
    expect(page.locator("#forgot-sent")).to_be_visible()


def reset(page: Page, link: str, password: str, artifacts: Path, shot: str) -> None:
    page.goto(link)
    expect(page.locator("#reset-password")).to_be_focused()
    page.fill("#reset-password", password)
    assert_accessible(page, f"{shot} reset page")
    page.screenshot(path=str(artifacts / f"email-{shot}-reset.png"))
    page.click("#reset-submit")
    expect(page.locator("#reset-done")).to_be_visible()
    assert "#token" not in page.url                          # the used token is gone


def test_a_player_confirms_an_address_and_resets_a_forgotten_password(pages, mail_site,
                                                                       artifacts):
    _, inbox = mail_site
    a = pages("en", **LAPTOP)
    a.goto("/")
    a.click("#account-btn")
    a.click("#acct-mode")
    a.fill("#acct-name", "Hanna")
    a.fill("#acct-password", PASSWORD)
    a.keyboard.press("Enter")
    expect(a.locator("#account-btn .acct-name")).to_have_text("Hanna")
    a.click("#account-btn")
    a.click("#acct-email")
    expect(a.locator("#email-dialog")).to_be_visible()
    a.fill("#email-address", "hanna@example.org")
    a.fill("#email-password", PASSWORD)
    assert_accessible(a, "e-mail dialog")
    a.screenshot(path=str(artifacts / "email-laptop-en-address.png"))
    a.keyboard.press("Enter")
    expect(a.locator("#email-dialog")).to_have_count(0)
    a.goto(inbox.link("verify-email"))
    expect(a.locator("#verify-status")).to_have_text(
        "Your address hanna@example.org is confirmed.")
    a.click("#account-btn")
    a.click("#acct-logout")
    expect(a.locator("#account-btn")).to_have_text("Sign in")

    forgot(a, "Hanna", artifacts, "laptop-en")
    reset(a, inbox.link("reset"), NEW, artifacts, "laptop-en")
    a.goto("/")
    log_in(a, "Hanna", NEW)

    b = pages("de", phone=True, **PHONE)                      # a phone, in German
    b.goto("/")
    forgot(b, "hanna@example.org", artifacts, "phone-de")
    expect(b.locator("#forgot-sent")).to_contain_text("bestätigte E-Mail-Adresse")
    link = inbox.link("reset")
    reset(b, link, NEWER, artifacts, "phone-de")
    expect(b.locator("#reset-done")).to_contain_text("Passwort ist festgelegt")
    b.goto(link)                                               # the link works once
    b.fill("#reset-password", "one more long sentence")
    b.click("#reset-submit")
    expect(b.locator("#reset-error")).to_contain_text("abgelaufen")
    b.goto("/")
    log_in(b, "Hanna", NEWER)
    a.reload()                                                 # the laptop's session ended
    expect(a.locator("#account-btn")).to_have_text("Sign in")


def test_without_smtp_the_log_in_dialog_says_reset_is_not_available(new_page):
    """The session's server has no SMTP configured: "Forgot your password?" says so, in
    German too, and offers the recovery codes' log-in instead."""
    for lang, words in (("en", "not available"), ("de", "nicht verfügbar")):
        p = new_page(lang)
        p.goto("/")
        p.click("#account-btn")
        p.click("#acct-forgot")
        expect(p.locator("#forgot-unavailable")).to_contain_text(words)
        p.click("#forgot-code")
        expect(p.locator("#recovery-dialog #rc-code")).to_be_visible()


def test_a_passkey_only_account_confirms_its_address_with_a_passkey(browser, mail_site):
    """The e-mail dialog of an account without a password asks the device for a passkey
    (a virtual authenticator) when it sends the link; on a phone, in German."""
    from test_web_passkeys import authenticator, credentials

    srv, inbox = mail_site
    with page_factory(browser, srv.base.replace("127.0.0.1", "localhost")) as make:
        p = make("de", phone=True, **PHONE)
        cdp, auth = authenticator(p)
        p.goto("/")
        p.click("#account-btn")
        p.click("#acct-mode")
        p.fill("#acct-name", "Pekka")
        p.click("#pk-signup")
        expect(p.locator("#account-btn .acct-name")).to_have_text("Pekka")
        [cred] = credentials(cdp, auth)
        p.click("#account-btn")
        p.click("#acct-email")
        expect(p.locator("#email-passkey")).to_contain_text("Passkeys")
        expect(p.locator("#email-password")).to_have_count(0)
        p.fill("#email-address", "pekka@example.org")
        p.keyboard.press("Enter")
        expect(p.locator("#email-dialog")).to_have_count(0)
        assert "/verify-email#token=" in inbox.link("verify-email")
        # the passkey signed once more: the confirmation was its ceremony
        assert credentials(cdp, auth)[0]["signCount"] > cred["signCount"]
