"""E-mail of accounts: an address verified by a link, password reset by e-mail through a real
SMTP server the test starts (aiosmtpd), the same answer for names and addresses that have no
account, links that work once and expire (on the app's clock, moved by the test), every
session ended by a reset, the limits, a site without SMTP, and recovery codes of accounts
that log in with passkeys only."""

from __future__ import annotations

import queue
import re
import sys
import time
from contextlib import contextmanager
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import PASSWORD, Browser
from helpers import free_port

from cardtable.server import Settings, create_app
from cardtable.server.clock import FakeClock
from cardtable.server.guard.security import Limits
from cardtable.server.people import email as E
from cardtable.server.people.passwords import Passwords

SITE = "http://testserver"
NEW_PASSWORD = "a brand new passphrase"
#: the longest a test waits for a message the server sends (it comes much sooner)
MAIL_WAIT = 60.0


class Inbox:
    """aiosmtpd's handler: every message received, in a queue."""

    def __init__(self):
        self.q: queue.Queue = queue.Queue()

    async def handle_DATA(self, server, session, envelope):
        self.q.put((envelope.rcpt_tos, message_from_bytes(envelope.content,
                                                          policy=policy.default)))
        return "250 OK"

    def next(self):
        return self.q.get(timeout=MAIL_WAIT)

    def link(self, kind: str) -> tuple[str, object]:
        """The next message's link to the page `kind` (reset, verify-email) and the message."""
        rcpt, msg = self.next()
        body = msg.get_body(("plain",)).get_content()
        found = re.search(rf"{re.escape(SITE)}/{kind}#token=([A-Za-z0-9_-]+)", body)
        assert found, body
        return found.group(0), msg


@pytest.fixture(scope="module")
def smtp():
    inbox = Inbox()
    ctl = Controller(inbox, hostname="127.0.0.1", port=free_port())
    ctl.start()
    yield ctl, inbox
    ctl.stop()


@contextmanager
def site(database: str, smtp=None, limits: Limits | None = None, security: str = "none"):
    mail = {} if smtp is None else dict(
        smtp_host="127.0.0.1", smtp_port=smtp[0].port, smtp_security=security,
        mail_from="cardtable@example.org", site_url=SITE)
    clock = FakeClock(time.time())
    app = create_app(Settings(database=database, announce=False, bot_workers=0, bot_delay=0,
                              limits=limits or Limits.off(), **mail), clock=clock)
    # a cheap Argon2 (what is tested here is not the hash): the tests log in a lot
    app.state.accounts.passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=1024,
                                                            parallelism=1))
    with TestClient(app) as client:
        b = Browser(client)
        b.clock = clock
        b.inbox = smtp[1] if smtp else None
        yield b


def settled(web) -> None:
    """Wait until the messages under way are sent (or found to be none)."""
    web.client.portal.call(web.app.state.mail.mailer.close)


def token_of(link: str) -> str:
    return link.split("#token=")[1]


def with_address(web, name: str, address: str, lang: str = "en") -> str:
    """A new account `name` whose address `address` is verified; its session."""
    r, sess = web.sign_up(name)
    assert r.status_code == 201, r.text
    r = web.call("PUT", "/api/me/email", sess, {"address": address, "password": PASSWORD,
                                                "lang": lang})
    assert r.status_code == 202, r.text
    link, _ = web.inbox.link("verify-email")
    assert web.call("POST", "/api/email/verify", json={"token": token_of(link)}).status_code \
        == 200
    return sess


@pytest.fixture(scope="module")
def web(database, smtp):
    with site(database, smtp) as b:
        yield b


def test_an_address_counts_once_its_link_is_followed(web):
    _, sess = web.sign_up("Mirja")
    body = {"address": "mirja@example.org", "lang": "de"}
    assert web.call("PUT", "/api/me/email", sess, body).json()["error"] == "wrong_password"
    assert web.call("PUT", "/api/me/email", sess, dict(body, address="not an address",
                                                       password=PASSWORD)).status_code == 422
    r = web.call("PUT", "/api/me/email", sess, dict(body, password=PASSWORD))
    assert r.status_code == 202, r.text
    assert r.json()["address"] is None and r.json()["pending"] == "mirja@example.org"
    link, msg = web.inbox.link("verify-email")
    assert msg["To"] == "mirja@example.org" and "Bestätige" in msg["Subject"]   # its language
    # the link opens the site's page (the token stays in the fragment, never sent)
    page = web.client.get(link.removeprefix(SITE))
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    # before it is followed, the address does not count: no reset reaches it
    r = web.call("POST", "/api/password-reset", json={"who": "mirja@example.org"})
    assert r.status_code == 202
    settled(web)
    assert web.inbox.q.empty()
    r = web.call("POST", "/api/email/verify", json={"token": token_of(link)})
    assert r.status_code == 200 and r.json()["address"] == "mirja@example.org"
    again = web.call("POST", "/api/email/verify", json={"token": token_of(link)})
    assert again.status_code == 400 and again.json()["error"] == "bad_link"
    assert web.call("GET", "/api/me/email", sess).json()["address"] == "mirja@example.org"
    assert web.call("GET", "/api/me/data", sess).json()["email"]["email"]["address"] == \
        "mirja@example.org"
    assert web.call("DELETE", "/api/me/email", sess).status_code == 204
    assert web.call("GET", "/api/me/email", sess).json()["address"] is None


def test_a_reset_link_sets_the_password_once_and_ends_every_session(web):
    sess = with_address(web, "Pekka", "Pekka@Example.org")
    _, other = web.log_in("Pekka")
    r = web.call("POST", "/api/password-reset", json={"who": "pekka@example.ORG"})
    assert r.status_code == 202, r.text
    link, msg = web.inbox.link("reset")
    assert msg["To"] == "Pekka@Example.org" and NEW_PASSWORD not in msg.get_content()
    assert web.client.get(link.removeprefix(SITE)).status_code == 200        # the page
    token = token_of(link)
    short = web.call("POST", "/api/password-reset/confirm",
                     json={"token": token, "password": "short"})
    assert short.status_code == 422                                   # the link stays good
    r = web.call("POST", "/api/password-reset/confirm",
                 json={"token": token, "password": NEW_PASSWORD})
    assert r.status_code == 200 and r.json()["ended"] == 2, r.text
    assert web.call("GET", "/api/me", sess).status_code == 401
    assert web.call("GET", "/api/me", other).status_code == 401
    assert web.log_in("Pekka")[0].status_code == 401
    assert web.log_in("Pekka", NEW_PASSWORD)[0].status_code == 200
    replay = web.call("POST", "/api/password-reset/confirm",
                      json={"token": token, "password": "yet another password"})
    assert replay.status_code == 400 and replay.json()["error"] == "bad_link"
    # by name too; the database holds only the token's hash
    web.call("POST", "/api/password-reset", json={"who": "PEKKA"})
    link, _ = web.inbox.link("reset")
    import sqlalchemy as sa

    from cardtable.server.config import DatabaseURL

    engine = sa.create_engine(DatabaseURL(web.app.state.settings.database).sync_url)
    with engine.connect() as conn:
        stored = [r[0] for r in conn.execute(sa.text("SELECT token_hash FROM email_tokens"))]
    engine.dispose()
    assert token_of(link) not in stored and E.token_hash(token_of(link)) in stored


def test_the_answer_is_the_same_whether_or_not_the_name_or_address_exists(web):
    with_address(web, "Saara", "saara@example.org")
    answers = [web.call("POST", "/api/password-reset", json={"who": who})
               for who in ("nobody@example.org", "Nobody", "not@an@address",
                           "saara@example.org")]
    assert {(r.status_code, r.content) for r in answers} == {(answers[0].status_code,
                                                              answers[0].content)}
    assert answers[0].status_code == 202
    settled(web)
    rcpt, msg = web.inbox.next()                           # one message only, to Saara
    assert rcpt == ["saara@example.org"] and web.inbox.q.empty()


def test_a_reset_link_expires(web):
    with_address(web, "Ilmari", "ilmari@example.org")
    web.call("POST", "/api/password-reset", json={"who": "Ilmari"})
    link, _ = web.inbox.link("reset")
    web.clock.t += E.RESET_SECONDS + 1
    r = web.call("POST", "/api/password-reset/confirm",
                 json={"token": token_of(link), "password": NEW_PASSWORD})
    assert r.status_code == 400 and r.json()["error"] == "bad_link"
    assert web.log_in("Ilmari")[0].status_code == 200                  # the old password


def test_mail_is_limited_per_address_group_and_per_account(database, smtp):
    limits = Limits.off()
    limits.mails_per_hour, limits.mail_burst = 1.0, 4
    limits.account_mails_per_hour, limits.account_mail_burst = 1.0, 2
    with site(database, smtp, limits) as web:
        with_address(web, "Ronja", "ronja@example.org")              # 1 of each
        assert web.call("POST", "/api/password-reset", json={"who": "Ronja"}).status_code \
            == 202
        web.inbox.link("reset")                                       # 2 of the account's
        r = web.call("POST", "/api/password-reset", json={"who": "Ronja"})
        assert r.status_code == 202                                   # answered alike...
        settled(web)
        assert web.inbox.q.empty()                                    # ...but nothing sent
        web.call("POST", "/api/password-reset", json={"who": "nobody@example.org"})
        r = web.call("POST", "/api/password-reset", json={"who": "nobody@example.org"})
        assert r.status_code == 429 and r.json()["error"] == "mail_limited"
        assert int(r.headers["Retry-After"]) > 0


def test_without_smtp_the_site_works_and_says_reset_is_not_available(database):
    with site(database) as web:
        assert web.call("GET", "/api/password-reset").json() == {"available": False}
        r = web.call("POST", "/api/password-reset", json={"who": "Anybody"})
        assert r.status_code == 409 and r.json()["error"] == "mail_unavailable"
        r, sess = web.sign_up("Toivo")
        assert r.status_code == 201
        r = web.call("PUT", "/api/me/email", sess, {"address": "toivo@example.org",
                                                    "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"] == "mail_unavailable"
        assert web.call("GET", "/api/me/email", sess).json()["mail"] is False



def test_a_passkey_only_account_logs_in_once_with_each_recovery_code(web):
    import sqlalchemy as sa

    from cardtable.server.config import DatabaseURL

    _, sess = web.sign_up("Veikko")
    assert web.call("POST", "/api/me/recovery-codes", sess).json()["error"] == "has_password"
    engine = sa.create_engine(DatabaseURL(web.app.state.settings.database).sync_url)
    with engine.begin() as conn:                      # as an account signed up with a passkey
        conn.execute(sa.text("UPDATE accounts SET password_hash = '' WHERE name = 'Veikko'"))
    engine.dispose()
    r = web.call("POST", "/api/me/recovery-codes", sess)
    assert r.status_code == 201, r.text
    codes = r.json()["codes"]
    assert len(codes) == E.RECOVERY_CODES and len(set(codes)) == len(codes)
    assert web.call("GET", "/api/me/email", sess).json()["recovery_codes_left"] == len(codes)
    body = {"name": "veikko", "code": codes[0].upper().replace("-", " "),
            "password": NEW_PASSWORD}
    r = web.call("POST", "/api/recovery", json=body)
    assert r.status_code == 200 and r.json()["ended"] == 1, r.text
    assert web.call("GET", "/api/me", sess).status_code == 401      # the other session ended
    assert web.log_in("Veikko", NEW_PASSWORD)[0].status_code == 200
    again = web.call("POST", "/api/recovery", json=body)
    assert again.status_code == 401 and again.json()["error"] == "bad_recovery"
    wrong = web.call("POST", "/api/recovery", json=dict(body, name="Nobody Here"))
    assert wrong.status_code == 401 and wrong.content == again.content


def test_a_passkey_only_account_confirms_an_address_change_with_a_fresh_passkey(web):
    from webauthn_soft import RP, Agent, SoftKey

    a, key = Agent(web), SoftKey(RP)
    assert a.sign_up("Saija", key).status_code == 201
    body = {"address": "saija@example.org", "lang": "en"}

    def confirm(purpose: str = "email") -> dict:
        r = a.call("POST", f"/api/me/passkeys/confirm/options?for={purpose}")
        assert r.status_code == 200, r.text
        assert [c["id"] for c in r.json()["allowCredentials"]] == [key.id]
        return key.get(r.json(), a.origin)

    def refused(r, status: int, code: str) -> None:
        assert (r.status_code, r.json()["error"]) == (status, code), r.text
        assert a.call("GET", "/api/me/email").json()["pending"] is None      # nothing changed

    # the session alone does not redirect the account's mail
    refused(a.call("PUT", "/api/me/email", body), 403, "passkey_needed")
    # an answer to a ceremony begun for deleting the account does not confirm this
    refused(a.call("PUT", "/api/me/email", dict(body, credential=confirm("delete"))), 400,
            "passkey_expired")
    # a fresh answer to this purpose's ceremony does, once
    answer = confirm()
    r = a.call("PUT", "/api/me/email", dict(body, credential=answer))
    assert r.status_code == 202, r.text
    assert r.json()["pending"] == "saija@example.org"
    link, _ = web.inbox.link("verify-email")
    refused_again = a.call("PUT", "/api/me/email", dict(body, address="thief@example.org",
                                                        credential=answer))
    assert (refused_again.status_code, refused_again.json()["error"]) == \
        (400, "passkey_expired"), refused_again.text
    # replayed under a new ceremony of this purpose: an answer to another challenge
    a.call("POST", "/api/me/passkeys/confirm/options?for=email")
    r = a.call("PUT", "/api/me/email", dict(body, address="thief@example.org",
                                            credential=answer))
    assert (r.status_code, r.json()["error"]) == (403, "bad_passkey"), r.text
    # another account's passkey does not confirm it either
    b, other = Agent(web), SoftKey(RP)
    assert b.sign_up("Saijan", other).status_code == 201
    r = a.call("POST", "/api/me/passkeys/confirm/options?for=email")
    r = a.call("PUT", "/api/me/email", dict(body, address="thief@example.org",
                                            credential=other.get(r.json(), a.origin)))
    assert (r.status_code, r.json()["error"]) == (403, "bad_passkey"), r.text
    assert a.call("GET", "/api/me/email").json()["pending"] == "saija@example.org"
    # bad input changes nothing and leaves the ceremony: a malformed answer, an unknown purpose
    a.call("POST", "/api/me/passkeys/confirm/options?for=email")
    r = a.call("PUT", "/api/me/email", dict(body, credential={"id": "x"}))
    assert (r.status_code, r.json()["error"]) == (400, "passkey_malformed"), r.text
    assert a.call("POST", "/api/me/passkeys/confirm/options?for=mail").status_code == 422
    assert web.call("POST", "/api/email/verify", json={"token": token_of(link)}).status_code \
        == 200
    assert a.call("GET", "/api/me/email").json()["address"] == "saija@example.org"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_e_mail_error_and_message_has_words_in_both_languages(lang):
    from cardtable.i18n import t

    src = (Path(__file__).parents[2] / "src/cardtable/server/http/email.py").read_text()
    codes = set(re.findall(r'ApiError\(\d+,[^;]*?"([a-z_]+)"(?:,|\))', src, re.S))
    assert {"mail_unavailable", "bad_link", "bad_address", "has_password",
            "bad_recovery", "passkey_needed"} <= codes
    for code in codes | {"mail_limited"}:
        assert t(lang, f"err.api.{code}", seconds=3) != f"err.api.{code}", code
    body = t(lang, "mail.reset.body", name="Ann", link="LINK", minutes=30)
    assert "LINK" in body and "Ann" in body and "30" in body


def test_the_smtp_password_comes_from_a_file_and_the_site_address_is_checked(tmp_path):
    from cardtable.server.options import OPTION, SettingError, load

    secret = tmp_path / "smtp-password"
    secret.write_text("s3cret pass\n")
    loaded = load({"smtp_password_file": str(secret)}, environ={})
    assert loaded.settings.smtp_password == "s3cret pass"
    assert "s3cret" not in repr(loaded.settings)
    assert "smtp_password" not in OPTION                  # no flag that would show it in ps
    with pytest.raises(SettingError, match="--smtp-password-file"):
        load({"smtp_password_file": str(tmp_path / "missing")}, environ={})
    with pytest.raises(SettingError, match="CARDTABLE_SITE_URL"):
        load({}, environ={"CARDTABLE_SITE_URL": "cards.example.org"})


def test_a_password_change_ends_a_reset_link_and_deletion_forgets_the_address(web):
    import sqlalchemy as sa

    from cardtable.server.config import DatabaseURL

    sess = with_address(web, "Aino", "aino@example.org")
    web.call("POST", "/api/password-reset", json={"who": "Aino"})
    link, _ = web.inbox.link("reset")
    r = web.call("POST", "/api/me/password", sess, {"old": PASSWORD, "new": NEW_PASSWORD})
    assert r.status_code == 200, r.text
    r = web.call("POST", "/api/password-reset/confirm",
                 json={"token": token_of(link), "password": "somebody else's password"})
    assert r.status_code == 400 and r.json()["error"] == "bad_link"
    _, sess = web.log_in("Aino", NEW_PASSWORD)
    web.call("POST", "/api/password-reset", json={"who": "Aino"})      # a link out again
    web.inbox.link("reset")
    assert web.call("DELETE", "/api/me", sess, {"password": NEW_PASSWORD}).status_code == 204
    engine = sa.create_engine(DatabaseURL(web.app.state.settings.database).sync_url)
    with engine.connect() as conn:
        left = [conn.execute(sa.text(f"SELECT count(*) FROM {table} WHERE account_id NOT IN "
                                     "(SELECT id FROM accounts)")).scalar()
                for table in ("account_emails", "email_tokens", "recovery_codes")]
    engine.dispose()
    assert left == [0, 0, 0]


def test_the_routes_without_a_cookie_are_checked_for_this_sites_origin(web):
    for path, body in (("/api/password-reset", {"who": "Anybody"}),
                       ("/api/password-reset/confirm", {"token": "x", "password": PASSWORD}),
                       ("/api/email/verify", {"token": "x"}),
                       ("/api/recovery", {"name": "A", "code": "x", "password": PASSWORD})):
        r = web.call("POST", path, json=body, origin="https://evil.example")
        assert r.status_code == 403 and r.json()["error"] == "cross_origin", path


def test_each_message_is_logged_with_its_ids_and_never_its_token(web, caplog):
    with caplog.at_level("INFO", logger="cardtable.mail"):
        with_address(web, "Eero", "eero@example.org")
        web.call("POST", "/api/password-reset", json={"who": "Eero"})
        link, msg = web.inbox.link("reset")
        settled(web)
    lines = [r.getMessage() for r in caplog.records if r.name == "cardtable.mail"]
    sent = [line for line in lines if line.startswith("mail reset to account ")]
    assert sent and msg["Message-ID"] in sent[-1], lines
    assert not any(token_of(link) in line or "eero@" in line for line in lines), lines


def test_starttls_sends_nothing_to_a_server_that_offers_no_tls(database, smtp):
    """`starttls` never falls back to plain text: the test's SMTP server offers no STARTTLS,
    so the message is not sent (and the failure is logged)."""
    with site(database, smtp, security="starttls") as web:
        _, sess = web.sign_up("Kaisa")
        r = web.call("PUT", "/api/me/email", sess, {"address": "kaisa@example.org",
                                                    "password": PASSWORD})
        assert r.status_code == 202
        settled(web)
        assert web.inbox.q.empty()
        assert web.app.state.mail.mailer.failed == 1 and web.app.state.mail.mailer.sent == 0
