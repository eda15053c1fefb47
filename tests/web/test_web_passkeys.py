"""Passkeys in the browser (issue 32), in Chromium with its virtual authenticator (CDP
`WebAuthn.*`: a CTAP2 platform authenticator with resident keys and user verification)
against a live server opened as http://localhost:PORT (a secure context; an IP address
cannot be a WebAuthn RP ID).

A guest on a laptop (English) starts a game against a bot, signs up with a passkey alone
(name, no password) and logs out. On a phone (a second browser context, German) whose
authenticator holds the same credential (WebAuthn.getCredentials / addCredential), they log
in with the passkey by keyboard, without typing a name, find the running table in "My games"
and play on in their seat. There they add a second passkey, remove the first, and cannot
remove the last one. Where the browser has no PublicKeyCredential, or the site is opened by
its IP address, no passkey button shows. Screenshots at 375x740 and 1366x657 in de and en
(tests/web/artifacts/passkeys-*.png), checked with axe."""

from __future__ import annotations

import re

import pytest
from a11y import assert_accessible
from pages import page_factory
from playwright.sync_api import Page, expect
from test_web_accounts import LAPTOP, PHONE, _fits, my_games, new_kombio

AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}


@pytest.fixture
def local_page(browser, server):
    """Pages on http://localhost:PORT (the same server as `new_page`)."""
    with page_factory(browser, server.base.replace("127.0.0.1", "localhost")) as make:
        yield make


def authenticator(page: Page):
    """A virtual authenticator for the page's browser context: (CDP session, its id)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    got = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, got["authenticatorId"]


def credentials(cdp, auth_id: str) -> list[dict]:
    return cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth_id})["credentials"]


def test_sign_up_with_a_passkey_and_log_in_with_it_on_a_phone(local_page, artifacts):
    a = local_page("en", **LAPTOP)
    cdp_a, auth_a = authenticator(a)
    running = new_kombio(a, "Mara", target=None)
    a.goto("/")
    a.click("#account-btn")
    expect(a.locator("#pk-login")).to_have_text("Log in with a passkey")
    a.click("#acct-mode")
    expect(a.locator("#pk-signup")).to_have_text("Sign up with a passkey")
    # no name: the dialog says so and asks nothing of the authenticator
    a.click("#pk-signup")
    expect(a.locator("#signin-dialog .acct-error")).to_have_text(
        "Enter the name your account shall have.")
    expect(a.locator("#acct-name")).to_be_focused()
    a.fill("#acct-name", "Mara")
    expect(a.locator("#signin-dialog .acct-error")).to_be_empty()      # said, and gone
    assert_accessible(a, "sign-up dialog with a passkey")
    _fits(a, "#signin-dialog")
    a.screenshot(path=str(artifacts / "passkeys-laptop-en-signup.png"))
    a.click("#pk-signup")
    expect(a.locator("#signin-dialog")).to_have_count(0)
    expect(a.locator("#account-btn .acct-name")).to_have_text("Mara")
    assert my_games(a) == {running: "playing"}             # the guest's game came along
    [cred] = credentials(cdp_a, auth_a)
    assert cred["isResidentCredential"] and cred["rpId"] == "localhost"
    # a password-less account: no "Change password", but "Passkeys"
    a.click("#account-btn")
    expect(a.locator("#acct-change-pw")).to_have_count(0)
    expect(a.locator("#acct-passkeys")).to_be_visible()
    a.click("#acct-logout")
    expect(a.locator("#account-btn")).to_have_text("Sign in")

    # a phone in German with the same passkey (a synced passkey, as a password manager's)
    b = local_page("de", phone=True, **PHONE)
    cdp_b, auth_b = authenticator(b)
    cdp_b.send("WebAuthn.addCredential", {"authenticatorId": auth_b, "credential": cred})
    b.goto("/")
    b.wait_for_selector("#create-btn")
    b.click("#account-btn")
    expect(b.locator("#pk-login")).to_have_text("Mit einem Passkey anmelden")
    _fits(b, "#signin-dialog")
    assert_accessible(b, "phone log-in dialog")
    b.screenshot(path=str(artifacts / "passkeys-phone-de-login.png"))
    b.focus("#pk-login")                                     # the keyboard, no name typed
    b.keyboard.press("Enter")
    expect(b.locator("#signin-dialog")).to_have_count(0)
    expect(b.locator("#account-btn .acct-name")).to_have_text("Mara")
    assert my_games(b) == {running: "playing"}
    _fits(b, "#my-games")
    b.screenshot(path=str(artifacts / "passkeys-phone-de-my-games.png"))
    assert credentials(cdp_b, auth_b)[0]["signCount"] > cred["signCount"]

    # the passkeys dialog: the one passkey; the phone adds its own, removes the first
    b.click("#account-btn")
    b.click("#acct-passkeys")
    dialog = b.locator("#passkeys-dialog")
    expect(dialog.locator(".pk-item")).to_have_count(1)
    first = dialog.locator(".pk-item").first.get_attribute("data-id")
    # removing it would leave no way in
    dialog.locator(f"#pk-remove-{first}").click()
    expect(dialog.locator(".acct-error")).to_have_text(
        "Dieser Passkey ist der einzige Weg in dein Konto: füge zuerst einen weiteren hinzu")
    # this authenticator holds that credential: the browser refuses to make a second one
    # for the same account on it (excludeCredentials) ...
    b.fill("#pk-label", "Handy")
    b.click("#passkeys-dialog-submit")
    expect(dialog.locator(".acct-error")).to_have_text("Dieser Passkey gehört schon zu einem Konto")
    # ... so the synced copy goes and the phone makes its own
    cdp_b.send("WebAuthn.removeCredential", {"authenticatorId": auth_b,
                                             "credentialId": cred["credentialId"]})
    b.click("#passkeys-dialog-submit")
    expect(b.locator("#passkeys-dialog")).to_have_count(0)
    b.click("#account-btn")
    b.click("#acct-passkeys")
    expect(dialog.locator(".pk-item")).to_have_count(2)
    expect(dialog.locator(".pk-label").nth(1)).to_have_text("Handy")
    _fits(b, "#passkeys-dialog")
    assert_accessible(b, "phone passkeys dialog")
    b.screenshot(path=str(artifacts / "passkeys-phone-de-list.png"))
    dialog.locator(f"#pk-remove-{first}").click()
    expect(dialog.locator(".pk-item")).to_have_count(1)
    expect(dialog.locator(".pk-label")).to_have_text("Handy")
    b.keyboard.press("Escape")
    # the laptop's passkey (the first) no longer logs in
    a.click("#account-btn")
    a.click("#pk-login")
    expect(a.locator("#signin-dialog .acct-error")).to_have_text("this passkey was not accepted")
    a.keyboard.press("Escape")

    # play on at the running table from the phone, in its seat
    b.locator(f"#mg-{running}").tap()
    b.wait_for_url(re.compile(f".*/t/{running}$"))
    b.wait_for_function("() => { const x = document.getElementById('board'); "
                        "return !!x && x.dataset.seat === '0'; }")


@pytest.mark.parametrize("lang,size", [("de", LAPTOP), ("en", PHONE)])
def test_the_passkey_buttons_in_the_other_language_and_size(local_page, artifacts, lang, size):
    p = local_page(lang, phone=size is PHONE, **size)
    p.goto("/")
    p.wait_for_selector("#create-btn")
    p.click("#account-btn")
    expect(p.locator("#pk-login")).to_be_visible()
    where = f"{'phone' if size is PHONE else 'laptop'}-{lang}"
    p.screenshot(path=str(artifacts / f"passkeys-{where}-login.png"))
    p.click("#acct-mode")
    expect(p.locator("#pk-signup")).to_have_text(
        "Mit einem Passkey registrieren" if lang == "de" else "Sign up with a passkey")
    _fits(p, "#signin-dialog")
    assert_accessible(p, f"{where} sign-up dialog")
    p.screenshot(path=str(artifacts / f"passkeys-{where}-signup.png"))


def test_no_passkey_button_without_passkeys(local_page, new_page):
    # the same dialog where passkeys are possible has the button (so the absences below are
    # the checks', not a missing feature's)
    o = local_page("en")
    o.goto("/")
    o.wait_for_selector("#create-btn")
    o.click("#account-btn")
    expect(o.locator("#pk-login")).to_be_visible()
    # a browser without WebAuthn
    p = local_page("en")
    p.add_init_script("delete window.PublicKeyCredential;")
    p.goto("/")
    p.wait_for_selector("#create-btn")
    p.click("#account-btn")
    expect(p.locator("#acct-password")).to_be_visible()
    expect(p.locator("#pk-login")).to_have_count(0)
    # a site opened by its IP address (no RP ID possible)
    q = new_page("en")
    q.goto("/")
    q.wait_for_selector("#create-btn")
    q.click("#account-btn")
    expect(q.locator("#acct-password")).to_be_visible()
    expect(q.locator("#pk-login")).to_have_count(0)
