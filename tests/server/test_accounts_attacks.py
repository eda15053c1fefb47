"""Attacks on accounts (issue 32), on SQLite and PostgreSQL: cross-site request forgery,
cross-site WebSocket hijacking, password guessing and name enumeration through the limits
(lookalike spellings of a name count as one), a password log-in to an account that has
none (signed up with a passkey), and the Secure cookie behind a TLS proxy (a cookie of the
plain name, which another site of the domain could plant, is not read over TLS)."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import ORIGIN, PASSWORD, app_client, session_of, spy_on_verify
from argon2 import extract_parameters
from helpers import ServerProc
from webauthn_soft import RP, Agent, SoftKey

from cardtable.server.guard.login_limits import LoginLimits
from cardtable.server.people.passwords import Passwords
from cardtable.server.guard.security import Limits

EVIL = "https://evil.example"


@pytest.fixture(scope="module")
def web(database):
    with app_client(database, allowed_origins="https://cards.example.org") as b:
        yield b


def test_state_changes_with_the_cookie_need_this_sites_origin(web):
    _, sess = web.sign_up("Olga")
    body = {"old": PASSWORD, "new": "another password"}
    for origin, error in ((None, "origin_missing"), (EVIL, "cross_origin"),
                          ("null", "origin_missing"), ("http://testserver.evil", "cross_origin"),
                          ("http://testserver:8080", "cross_origin")):
        r = web.call("POST", "/api/me/password", sess, json=body, origin=origin)
        assert r.status_code == 403, (origin, r.text)
        assert r.json() == {"detail": r.json()["detail"], "error": error, "params": {}}
        assert r.headers["x-frame-options"] == "DENY"          # the guard's headers too
    for method, path in (("DELETE", "/api/me/sessions"), ("DELETE", "/api/session"),
                         ("DELETE", "/api/me"), ("POST", "/api/tables")):
        r = web.call(method, path, sess, json={"password": PASSWORD} if path == "/api/me"
                     else {"game": "kombio"}, origin=EVIL)
        assert r.status_code == 403 and r.json()["error"] == "cross_origin", path
    # nothing changed: the session lives, the password is the old one, no table was made
    assert web.call("GET", "/api/me", sess).status_code == 200
    assert web.log_in("Olga")[0].status_code == 200
    # a Referer of this site stands in for a missing Origin; a configured origin is allowed
    r = web.call("POST", "/api/me/seats", sess, json={"claim": []}, origin=None,
                 headers={"Referer": "http://testserver/t/ABC"})
    assert r.status_code == 200, r.text
    r = web.call("POST", "/api/me/seats", sess, json={"claim": []},
                 origin="https://cards.example.org")
    assert r.status_code == 200, r.text
    # reading needs no Origin (GET changes nothing); a client without cookie is unconcerned
    assert web.call("GET", "/api/me", sess, origin=None).status_code == 200
    assert web.call("POST", "/api/tables", json={"game": "kombio", "public": False},
                    origin=None).status_code == 201


def test_another_site_cannot_log_its_visitor_in_or_sign_them_up(web):
    web.sign_up("Paula")
    r, sess = web.log_in("Paula", origin=EVIL)
    assert r.status_code == 403 and r.json()["error"] == "cross_origin" and sess is None
    r, sess = web.sign_up("Quentin", origin=EVIL)
    assert r.status_code == 403 and sess is None
    assert web.sign_up("Quentin")[0].status_code == 201      # the name was not taken


def test_a_websocket_with_the_cookie_from_another_site_is_refused(web):
    code, token = web.guest_table("Rita")
    _, sess = web.sign_up("Rita", claim=[token])
    c = web.client
    cookie = {"Cookie": f"cardtable_session={sess}"}
    with pytest.raises(WebSocketDisconnect) as e:
        with c.websocket_connect(f"/ws/{code}?token={token}",
                                 headers={**cookie, "Origin": EVIL}):
            pass
    assert e.value.code == 1008
    with pytest.raises(WebSocketDisconnect):
        with c.websocket_connect(f"/ws/{code}", headers=cookie):       # no Origin at all
            pass
    # from this site's page it is served; without a cookie any page may watch (as before)
    for headers in ({**cookie, "Origin": ORIGIN}, {"Origin": EVIL}):
        with c.websocket_connect(f"/ws/{code}?token={token}", headers=headers) as ws:
            msg = ws.receive_json()
            assert msg["type"] in ("welcome", "state"), msg


def test_password_guessing_is_limited_per_name_alike_for_unknown_names(database):
    limits = Limits.off()
    limits.account_failures_per_hour, limits.account_failure_burst = 1.0, 3
    with app_client(database, limits) as web:
        web.sign_up("Sara")
        answers = {}
        for name in ("Sara", "Nobody"):
            got = []
            for _ in range(4):
                r = web.call("POST", "/api/session", json={"name": name, "password": "guess" * 3})
                got.append((r.status_code, r.json()["error"]))
            answers[name] = got
        assert answers["Sara"] == answers["Nobody"] == [(401, "bad_login")] * 3 + [
            (429, "login_limited")]
        # once limited, even the right password waits (lookalike spellings count as one)
        r, sess = web.log_in("SARA")
        assert r.status_code == 429 and sess is None and int(r.headers["retry-after"]) >= 1
        assert web.log_in("Nobody")[0].status_code == 429
        assert web.log_in("Other")[0].status_code == 401        # other names are not locked


def test_the_limit_per_name_counts_every_spelling_that_finds_the_account(database):
    """"VIC" and "Vic" are one name (a capital I and a small l look alike, so their first
    lookalike keys differ): failures with one spelling lock the others out, for the owner
    too, and alike for a name without an account; a failed passkey log-in counts against
    the same account."""
    limits = Limits.off()
    limits.account_failures_per_hour, limits.account_failure_burst = 0.001, 3
    with app_client(database, limits) as web:
        web.sign_up("Vic")
        for name in ("VIC", "vIc", "VIC"):
            assert web.log_in(name, "x" * 12)[0].status_code == 401
        for name in ("Vic", "vic", "VIC", "V I C"):
            r, sess = web.log_in(name)                          # the right password
            assert r.status_code == 429 and r.json()["error"] == "login_limited", name
            assert sess is None
        # a name without an account: the same answers
        got = [web.log_in(n, "x" * 12)[0].status_code for n in ("KIM", "kIm", "KIM", "Kim")]
        assert got == [401, 401, 401, 429]
        assert web.log_in("Kira", "x" * 12)[0].status_code == 401          # another name
        # a passkey's failures count against its account, whatever spelling logs in after
        key = SoftKey(RP)
        assert Agent(web).sign_up("Ilka", key).status_code == 201
        assert Agent(web).log_in(key)[0].status_code == 200     # its count is 1 now
        for _ in range(3):                                      # a cloned key's answers
            key.counter = 0
            assert Agent(web).log_in(key)[0].status_code == 401
        key.counter = 100
        assert Agent(web).log_in(key)[0].status_code == 429
        assert web.log_in("ILKA", "x" * 12)[0].status_code == 429


def test_attempts_are_limited_per_address(database):
    limits = Limits.off()
    limits.logins_per_minute, limits.login_burst = 1.0, 4
    with app_client(database, limits, client_kw={"client": ("2001:db8:1:2::7", 5000)}) as web:
        got = [web.log_in(f"Name{i}")[0].status_code for i in range(5)]
        assert got == [401] * 4 + [429]
        r, _ = web.sign_up("Tina")                 # sign-up costs a hash too: same budget
        assert r.status_code == 429 and r.json()["error"] == "signup_limited"


def test_the_address_limits_count_a_whole_ipv6_64_and_signups_a_56():
    limits = Limits.off()
    limits.logins_per_minute, limits.login_burst = 1.0, 2
    limits.signups_per_hour, limits.signup_burst = 1.0, 1
    ll = LoginLimits(limits)
    assert ll.attempt("2001:db8:1:2::1") == 0 and ll.attempt("2001:db8:1:2:ffff::9") == 0
    assert ll.attempt("2001:db8:1:2::abcd") > 0                   # the same /64
    assert ll.attempt("2001:db8:1:3::1") == 0                     # another /64
    ll.signed_up("2001:db8:1:2::1")
    assert ll.signup_open("2001:db8:1:ff::1") > 0                 # the same /56
    assert ll.signup_open("2001:db8:2::1") == 0


def test_over_tls_only_the_host_cookie_is_read(database):
    """Over TLS the session cookie is read only under its `__Host-` name, which no other site
    can set: a `cardtable_session` (as a sibling sub-domain, or a page over plain HTTP, can
    plant one) opens no session; the passkey ceremony's cookie alike. Over plain HTTP the
    plain name is the cookie."""
    with app_client(database, client_kw={"base_url": "https://testserver"}) as web:
        site = "https://testserver"
        r = web.call("POST", "/api/accounts", json={"name": "Tessa", "password": PASSWORD},
                     origin=site)
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-cardtable_session=") and "Secure" in cookie
        value = session_of(r)
        for name, status in (("cardtable_session", 401), ("__Host-cardtable_session", 200)):
            r = web.call("GET", "/api/me", headers={"Cookie": f"{name}={value}"})
            assert r.status_code == status, (name, r.text)
        # logging out with a planted plain cookie ends nobody's session
        r = web.call("DELETE", "/api/session", origin=site,
                     headers={"Cookie": f"cardtable_session={value}"})
        assert r.status_code == 204
        r = web.call("GET", "/api/me", headers={"Cookie": f"__Host-cardtable_session={value}"})
        assert r.status_code == 200
        # a ceremony begun over TLS is answered only with its __Host- cookie
        r = web.call("POST", "/api/passkeys/login/options", origin=site)
        assert r.status_code == 200, r.text
        ceremony = r.headers["set-cookie"]
        assert ceremony.startswith("__Host-cardtable_webauthn=")
        cvalue = ceremony.split(";")[0].split("=", 1)[1]
        r = web.call("POST", "/api/passkeys/login", origin=site,
                     json={"credential": SoftKey(RP).get(r.json(), site)},
                     headers={"Cookie": f"cardtable_webauthn={cvalue}"})
        assert r.status_code == 400 and r.json()["error"] == "passkey_expired", r.text
    with app_client(database) as web:                           # plain HTTP
        _, sess = web.sign_up("Theo")
        assert web.call("GET", "/api/me", sess).status_code == 200


def test_behind_a_tls_proxy_the_cookie_is_secure(tmp_path):
    """A real server behind a trusted proxy that says the client came over TLS
    (X-Forwarded-Proto: https): the cookie is Secure and __Host- prefixed."""
    srv = ServerProc(str(tmp_path / "p.db"), args=("--trusted-proxies", "127.0.0.1")).start()
    try:
        r = httpx.post(srv.base + "/api/accounts", trust_env=False, timeout=60,
                       json={"name": "Ulla", "password": PASSWORD},
                       headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.5",
                                "Host": "cards.example", "Origin": "https://cards.example"})
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-cardtable_session=") and "Secure" in cookie
        # over TLS (the trusted proxy says so) the plain name is not read
        value = session_of(r)
        tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.5",
               "Host": "cards.example"}
        for name, status in (("cardtable_session", 401), ("__Host-cardtable_session", 200)):
            r = httpx.get(srv.base + "/api/me", trust_env=False, timeout=60,
                          headers={**tls, "Cookie": f"{name}={value}"})
            assert r.status_code == status, (name, r.text)
        # the same request straight from a client that is no trusted proxy: plain HTTP
        srv2 = ServerProc(str(tmp_path / "q.db")).start()
        try:
            r = httpx.post(srv2.base + "/api/accounts", trust_env=False, timeout=60,
                           json={"name": "Ulla", "password": PASSWORD},
                           headers={"X-Forwarded-Proto": "https"})
            assert r.status_code == 201 and "Secure" not in r.headers["set-cookie"]
            assert session_of(r)
        finally:
            srv2.stop()
    finally:
        srv.stop()


#: the password of the dummy hash an unknown name was once checked against (in the source)
OLD_DUMMY = "not the password of anybody: " + "x" * 16


def test_no_password_opens_an_account_signed_up_with_a_passkey(web):
    """A passkey-only account has no password hash: a password log-in to it fails exactly
    as a wrong password does (the same answer after one Argon2id check of the same cost),
    whatever the password: the former dummy's too, the empty one."""
    assert Agent(web).sign_up("Pascal", SoftKey(RP)).status_code == 201
    web.sign_up("Petra")
    answers = {}
    with spy_on_verify(web) as calls:
        for name, pw in (("Pascal", OLD_DUMMY), ("Pascal", "x" * 12), ("Petra", "x" * 12),
                         ("Nobody", OLD_DUMMY)):
            r = web.call("POST", "/api/session", json={"name": name, "password": pw})
            answers[name, pw] = (r.status_code, r.json(), session_of(r))
    refused = (401, {"detail": "wrong name or password", "error": "bad_login", "params": {}},
               None)
    assert all(a == refused for a in answers.values()), answers
    # the same work each time: one check against an Argon2id hash of today's parameters
    assert len(calls) == 4
    assert all(extract_parameters(h) == extract_parameters(calls[2]) for h in calls)
    assert calls[0].startswith("$argon2id$")
    # the empty password too
    r = web.call("POST", "/api/session", json={"name": "Pascal", "password": ""})
    assert r.status_code == 401 and session_of(r) is None


def test_the_hash_an_account_without_a_password_is_checked_against_matches_nothing():
    """The hash a missing password is checked against is of a random secret made at
    start-up (another in every process), and `verify` is never True without a stored
    Argon2 hash, whatever that hash would accept."""
    import asyncio

    checked = []

    class Spy:
        def __init__(self, real, accept=False):
            self.real, self.accept = real, accept

        def verify(self, h, p):
            checked.append(h)
            return True if self.accept else self.real.verify(h, p)

    a, b = Passwords(), Passwords()
    a.hasher, b.hasher = Spy(a.hasher), Spy(b.hasher)
    for stored in (None, "", "plain text"):
        for pw in (OLD_DUMMY, "", "x" * 12):
            assert asyncio.run(a.verify(stored, pw)) is False
    assert asyncio.run(b.verify("", OLD_DUMMY)) is False
    assert checked[0].startswith("$argon2id$") and len(set(checked[:9])) == 1
    assert checked[9] != checked[0]                         # a random secret each
    a.hasher = Spy(None, accept=True)                       # a hasher that accepts anything
    assert asyncio.run(a.verify("", OLD_DUMMY)) is False
    assert asyncio.run(a.verify(None, OLD_DUMMY)) is False
    assert asyncio.run(a.verify("$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", "x")) is True
