"""Passkeys (issue 32, http/passkey.py) through the HTTP API with a software authenticator
(webauthn_soft.py): sign up with a passkey, log in with it from another browser, add,
list and remove passkeys (never the last way to log in), delete a password-less account
with its passkey; and the attacks: a replayed challenge, an answer made for another site,
another account's passkey, a cloned authenticator (a sign count that does not grow),
cross-site requests, guessing within the log-in limits. On SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import copy
import sys
from pathlib import Path

import cbor2
import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import ORIGIN, PASSWORD, app_client
from webauthn_soft import RP, UP, Agent, SoftKey, b64

from cardtable.server.config import DatabaseURL
from cardtable.server.guard.security import Limits

@pytest.fixture(scope="module")
def web(database):
    with app_client(database) as w:
        yield w


def _error(r, status: int, code: str):
    assert r.status_code == status, r.text
    assert r.json()["error"] == code, r.text


def test_sign_up_with_a_passkey_and_log_in_with_it_from_another_browser(web):
    a = Agent(web)
    code, token = web.guest_table("Pia")
    key = SoftKey(RP)
    r = a.sign_up("Pia", key, claim=[token])
    assert r.status_code == 201, r.text
    assert r.json()["account"]["name"] == "Pia" and r.json()["claimed"] == 1
    assert r.json()["has_password"] is False
    me = a.call("GET", "/api/me").json()
    assert me["name"] == "Pia" and me["has_password"] is False
    # no password opens it: not even the empty one
    assert web.log_in("Pia", "")[0].status_code in (401, 422)
    assert web.log_in("Pia", "x" * 12)[0].status_code == 401
    # another browser logs in with the passkey alone and finds the running table
    b = Agent(web)
    r, _ = b.log_in(key)
    assert r.status_code == 200, r.text
    assert r.json()["account"]["name"] == "Pia"
    assert [g["code"] for g in b.call("GET", "/api/me/games").json()] == [code]
    keys = b.call("GET", "/api/me/passkeys").json()
    assert len(keys) == 1 and keys[0]["credential_id"] == key.id
    assert keys[0]["last_used"] is not None and keys[0]["transports"] == ["internal"]
    # the name is taken for passwords too
    _error(web.sign_up("PIA")[0], 409, "account_name_taken")
    _error(Agent(web).call("POST", "/api/passkeys/signup/options", {"name": "pia"}), 409,
           "account_name_taken")


def test_a_replayed_challenge_is_refused(web):
    a = Agent(web)
    key = SoftKey(RP)
    assert a.sign_up("Rolf", key).status_code == 201
    b = Agent(web)
    r, answer = b.log_in(key)
    assert r.status_code == 200
    # the same answer again: its challenge was taken
    _error(b.call("POST", "/api/passkeys/login", {"credential": answer}), 400, "passkey_expired")
    # ... and with a fresh challenge of this browser it is an answer to another challenge
    assert b.call("POST", "/api/passkeys/login/options").status_code == 200
    _error(b.call("POST", "/api/passkeys/login", {"credential": answer}), 401, "bad_passkey")
    # a sign-up answer cannot be sent twice either
    c = Agent(web)
    opts = c.call("POST", "/api/passkeys/signup/options", {"name": "Rolfine"}).json()
    cred = SoftKey(RP).create(opts, ORIGIN)
    assert c.call("POST", "/api/passkeys/signup", {"credential": cred}).status_code == 201
    c.jar.pop("cardtable_session")
    _error(c.call("POST", "/api/passkeys/signup", {"credential": cred}), 400, "passkey_expired")
    # a log-in ceremony's cookie does not answer a sign-up
    d = Agent(web)
    d.call("POST", "/api/passkeys/login/options")
    _error(d.call("POST", "/api/passkeys/signup", {"credential": cred}), 400, "passkey_expired")


def test_an_answer_made_for_another_site_is_refused(web):
    a = Agent(web)
    key = SoftKey(RP)
    r = a.sign_up("Otto", key, origin="http://evil.example")
    _error(r, 400, "passkey_refused")
    assert web.sign_up("Otto")[0].status_code == 201          # no account was made
    key2 = SoftKey("evil.example")                              # another RP ID
    _error(Agent(web).sign_up("Otta", key2), 400, "passkey_refused")
    b = Agent(web)
    key3 = SoftKey(RP)
    assert b.sign_up("Ottilie", key3).status_code == 201
    r, _ = Agent(web).log_in(key3, origin="http://evil.example")
    _error(r, 401, "bad_passkey")
    # a page of another site cannot even begin (the Origin check, origin.py)
    _error(Agent(web).call("POST", "/api/passkeys/login/options", origin="http://evil.example"),
           403, "cross_origin")
    _error(Agent(web).call("POST", "/api/passkeys/signup/options", {"name": "Evi"},
                           origin="http://evil.example"), 403, "cross_origin")
    _error(b.call("POST", "/api/me/passkeys/options", origin="http://evil.example"),
           403, "cross_origin")
    _error(b.call("DELETE", "/api/me/passkeys/1", origin=None), 403, "origin_missing")


def test_a_passkey_of_another_account_is_refused(web):
    a, b = Agent(web), Agent(web)
    ka, kb = SoftKey(RP), SoftKey(RP)
    assert a.sign_up("Anja", ka).status_code == 201
    assert b.sign_up("Bert", kb).status_code == 201
    # Bert cannot add Anja's passkey to his account
    _error(b.add(ka), 409, "passkey_known")
    # nor delete his account with Anja's passkey
    opts = b.call("POST", "/api/me/passkeys/confirm/options").json()
    assert [c["id"] for c in opts["allowCredentials"]] == [kb.id]
    _error(b.call("DELETE", "/api/me/with-passkey", {"credential": ka.get(opts, ORIGIN)}),
           403, "bad_passkey")
    assert b.call("GET", "/api/me").status_code == 200
    # an answer of Anja's key that claims Bert's user handle logs nobody in
    r, _ = Agent(web).log_in(ka, user_handle=kb.user_handle)
    _error(r, 401, "bad_passkey")
    # a key this site never saw
    r, _ = Agent(web).log_in(SoftKey(RP))
    _error(r, 401, "bad_passkey")
    # nor remove Anja's passkey
    anjas = a.call("GET", "/api/me/passkeys").json()[0]["id"]
    _error(b.call("DELETE", f"/api/me/passkeys/{anjas}"), 404, "no_passkey")


def test_a_sign_count_that_does_not_grow_is_refused(web):
    a = Agent(web)
    key = SoftKey(RP, counter=5)
    assert a.sign_up("Clara", key).status_code == 201
    r, _ = Agent(web).log_in(key)                               # 6
    assert r.status_code == 200
    key.counter = 3                                              # a clone's counter: 4
    r, _ = Agent(web).log_in(key)
    _error(r, 401, "bad_passkey")
    r, _ = Agent(web).log_in(key, flags=UP)                      # without user verification
    _error(r, 401, "bad_passkey")


def test_add_list_remove_and_never_the_last_way_to_log_in(web):
    a = Agent(web)
    k1, k2 = SoftKey(RP), SoftKey(RP)
    assert a.sign_up("Dora", k1).status_code == 201
    only = a.call("GET", "/api/me/passkeys").json()[0]["id"]
    _error(a.call("DELETE", f"/api/me/passkeys/{only}"), 409, "last_login_way")
    r = a.add(k2, " Lap\u200btop\x07 ")
    assert r.status_code == 201, r.text
    assert r.json()["label"] == "Laptop"
    keys = a.call("GET", "/api/me/passkeys").json()
    assert [k["label"] for k in keys][1] == "Laptop"
    assert k2.user_handle == k1.user_handle                   # one user id per account
    assert a.call("DELETE", f"/api/me/passkeys/{only}").status_code == 204
    r, _ = Agent(web).log_in(k1)
    _error(r, 401, "bad_passkey")                                 # removed: no log-in
    assert Agent(web).log_in(k2)[0].status_code == 200
    _error(a.call("DELETE", f"/api/me/passkeys/{keys[1]['id']}"), 409,
           "last_login_way")
    _error(a.call("DELETE", "/api/me/passkeys/999999"), 404, "no_passkey")
    # an account with a password may remove its only passkey
    r, sess = web.sign_up("Emil")
    e = Agent(web)
    e.jar["cardtable_session"] = sess
    assert e.add(SoftKey(RP)).status_code == 201
    assert e.call("GET", "/api/me").json()["has_password"] is True
    emils = e.call("GET", "/api/me/passkeys").json()[0]["id"]
    assert e.call("DELETE", f"/api/me/passkeys/{emils}").status_code == 204
    # bad input: a malformed answer changes nothing
    e.call("POST", "/api/me/passkeys/options")
    _error(e.call("POST", "/api/me/passkeys", {"credential": {"id": "x"}}), 400,
           "passkey_malformed")
    assert e.call("GET", "/api/me/passkeys").json() == []
    assert e.call("POST", "/api/me/passkeys", {"credential": "x"}).status_code == 422


def test_deleting_a_passwordless_account_with_its_passkey(web, database):
    a = Agent(web)
    key = SoftKey(RP)
    code, token = web.guest_table("Fritz")
    assert a.sign_up("Fritz", key, claim=[token]).status_code == 201
    data = a.call("GET", "/api/me/data").json()
    assert [p["credential_id"] for p in data["passkeys"]] == [key.id]
    assert "public_key" not in data["passkeys"][0]
    opts = a.call("POST", "/api/me/passkeys/confirm/options").json()
    r = a.call("DELETE", "/api/me/with-passkey", {"credential": key.get(opts, ORIGIN)})
    assert r.status_code == 204, r.text
    assert a.call("GET", "/api/me").status_code == 401
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM passkeys WHERE credential_id = :c"),
                            {"c": key.id}).scalar() == 0
    engine.dispose()
    r, _ = Agent(web).log_in(key)
    _error(r, 401, "bad_passkey")
    assert web.sign_up("Fritz")[0].status_code == 201               # the name is free


def test_deleting_an_account_with_its_password_removes_its_passkeys(web, database):
    r, sess = web.sign_up("Ilse")
    a = Agent(web)
    a.jar["cardtable_session"] = sess
    key = SoftKey(RP)
    assert a.add(key).status_code == 201
    assert a.call("DELETE", "/api/me", {"password": PASSWORD}).status_code == 204
    engine = sa.create_engine(DatabaseURL(database).sync_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM passkeys WHERE credential_id = :c"),
                            {"c": key.id}).scalar() == 0
    engine.dispose()
    _error(Agent(web).log_in(key)[0], 401, "bad_passkey")


def test_an_ip_address_offers_no_passkeys(web):
    a = Agent(web, origin="http://127.0.0.1:8000")
    _error(a.call("POST", "/api/passkeys/login/options", host="127.0.0.1:8000"), 400,
           "passkey_no_domain")


def test_the_log_in_limits_hold_for_passkeys(tmp_path):
    database = str(tmp_path / "limits.db")
    limits = Limits.off()
    limits.logins_per_minute, limits.login_burst = 0.001, 3
    with app_client(database, limits=limits) as w:
        a = Agent(w)
        for _ in range(3):
            assert a.call("POST", "/api/passkeys/login/options").status_code == 200
        r = a.call("POST", "/api/passkeys/login/options")
        _error(r, 429, "login_limited")
        assert int(r.headers["Retry-After"]) >= 1
    limits = Limits.off()
    limits.account_failures_per_hour, limits.account_failure_burst = 0.001, 2
    with app_client(database, limits=limits) as w:
        key = SoftKey(RP)
        assert Agent(w).sign_up("Gerd", key).status_code == 201
        assert Agent(w).log_in(key)[0].status_code == 200              # its count is 1 now
        for _ in range(2):                                          # a cloned key's answers
            key.counter = 0
            _error(Agent(w).log_in(key)[0], 401, "bad_passkey")
        key.counter = 100
        _error(Agent(w).log_in(key)[0], 429, "login_limited")     # even the right answer


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_passkey_error_has_words_in_both_languages(lang):
    import re

    from cardtable.i18n import t

    src = Path(__file__).parents[2] / "src" / "cardtable" / "server"
    codes = set()
    for name in ("http/passkey.py", "people/passkeys.py"):
        text = (src / name).read_text()
        codes |= set(re.findall(r'ApiError\(\d+,[^;]*?"([a-z_]+)"(?:,|\))', text, re.S))
    assert {"passkey_expired", "passkey_refused", "bad_passkey", "passkey_known",
            "passkey_limit", "last_login_way", "no_passkey", "passkey_no_domain",
            "passkey_malformed"} <= codes
    for code in codes:
        text = t(lang, f"err.api.{code}", most=20, name="Ann", field="credential.id")
        assert text != f"err.api.{code}" and "{" not in text, code


def _cose_list_key(cred: dict) -> dict:
    """The answer with its attestation's public key replaced by a CBOR list (not a COSE
    map), re-encoded: base64url and CBOR well-formed, the key unreadable."""
    raw = cred["response"]["attestationObject"]
    att = cbor2.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    auth = att["authData"]
    n = int.from_bytes(auth[53:55], "big")                      # credential id length
    att["authData"] = auth[:55 + n] + cbor2.dumps([1, 2, 3])
    cred["response"]["attestationObject"] = b64(cbor2.dumps(att))
    return cred


def _junk_ec_key(cred: dict) -> dict:
    """The answer with a COSE EC2 key whose coordinates are no bytes (attestation "none":
    nothing but the server's own check reads the key before it is stored)."""
    raw = cred["response"]["attestationObject"]
    att = cbor2.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    auth = att["authData"]
    n = int.from_bytes(auth[53:55], "big")
    att["authData"] = auth[:55 + n] + cbor2.dumps({1: 2, 3: -7, -1: 1, -2: "x", -3: 5})
    cred["response"]["attestationObject"] = b64(cbor2.dumps(att))
    return cred


def _set(path: str, value):
    """A change to an answer: `path` (dotted, below the credential) set to `value`, or
    removed when `value` is `_GONE`."""
    def change(cred: dict) -> dict:
        *up, last = path.split(".")
        d = cred
        for k in up:
            d = d[k]
        if value is _GONE:
            d.pop(last, None)
        else:
            d[last] = value
        return cred
    return change


_GONE = object()

#: malformed registration answers: (change, the field named)
_BAD_CREATE = [
    (_set("response.transports", 5), "credential.response.transports"),
    (_set("response.transports", ["internal", 7]), "credential.response.transports"),
    (_cose_list_key, "credential.response.attestationObject"),
    (_junk_ec_key, "credential.response.attestationObject"),
    (_set("response.attestationObject", _GONE), "credential.response.attestationObject"),
    (_set("response.clientDataJSON", "not base64!"), "credential.response.clientDataJSON"),
    (_set("response.clientDataJSON", b64(b"[1, 2]")), "credential.response.clientDataJSON"),
    (_set("response", "x"), "credential.response"),
    (_set("rawId", 17), "credential.rawId"),
    (_set("id", _GONE), "credential.id"),
]
#: malformed assertions
_BAD_GET = [
    (_set("response", "x"), "credential.response"),
    (_set("response", [1]), "credential.response"),
    (_set("response.signature", _GONE), "credential.response.signature"),
    (_set("response.signature", "a=b"), "credential.response.signature"),
    (_set("response.authenticatorData", b64(b"short")), "credential.response.authenticatorData"),
    (_set("response.clientDataJSON", 3), "credential.response.clientDataJSON"),
    (_set("response.userHandle", ["x"]), "credential.response.userHandle"),
    (_set("type", None), "credential.type"),
]


def _malformed(r, field: str):
    _error(r, 400, "passkey_malformed")
    assert r.json()["params"] == {"field": field}, r.text


@pytest.mark.parametrize("case", range(len(_BAD_CREATE)))
def test_a_malformed_registration_is_a_400_naming_its_field(web, case):
    """Sign-up and adding a passkey: wrong types, missing fields, bad base64 and unreadable
    bytes each answered 400 with the field; the ceremony is left as it was (the right answer
    to it still works) and no account or passkey is made."""
    change, field = _BAD_CREATE[case]
    name = f"Malformed {case}"
    a = Agent(web)
    opts = a.call("POST", "/api/passkeys/signup/options", {"name": name}).json()
    key = SoftKey(RP)
    good = key.create(opts, ORIGIN)
    _malformed(a.call("POST", "/api/passkeys/signup", {"credential": change(copy.deepcopy(good))}),
               field)
    assert web.log_in(name, "x" * 12)[0].status_code == 401             # no account
    r = a.call("POST", "/api/passkeys/signup", {"credential": good})
    assert r.status_code == 201, r.text
    # adding a passkey to the account: the same checks
    opts = a.call("POST", "/api/me/passkeys/options").json()
    good = SoftKey(RP).create(opts, ORIGIN)
    _malformed(a.call("POST", "/api/me/passkeys", {"credential": change(copy.deepcopy(good))}),
               field)
    assert len(a.call("GET", "/api/me/passkeys").json()) == 1
    assert a.call("POST", "/api/me/passkeys", {"credential": good}).status_code == 201


@pytest.mark.parametrize("case", range(len(_BAD_GET)))
def test_a_malformed_assertion_is_a_400_naming_its_field(web, case):
    """Log-in and confirming a deletion with a passkey: the same for assertions, whatever
    the passkey (a known one, an unknown one: the same answer, before anything is looked
    up); the ceremony is left as it was and nothing counts against the account."""
    change, field = _BAD_GET[case]
    a = Agent(web)
    key = SoftKey(RP)
    assert a.sign_up(f"Asserting {case}", key).status_code == 201
    for k in (key, SoftKey(RP)):
        b = Agent(web)
        opts = b.call("POST", "/api/passkeys/login/options").json()
        good = k.get(opts, ORIGIN)
        _malformed(b.call("POST", "/api/passkeys/login",
                          {"credential": change(copy.deepcopy(good))}), field)
        if k is key:
            assert b.call("POST", "/api/passkeys/login", {"credential": good}).status_code == 200
    opts = a.call("POST", "/api/me/passkeys/confirm/options").json()
    good = key.get(opts, ORIGIN)
    _malformed(a.call("DELETE", "/api/me/with-passkey",
                      {"credential": change(copy.deepcopy(good))}), field)
    assert a.call("GET", "/api/me").status_code == 200                  # not deleted
    assert a.call("DELETE", "/api/me/with-passkey", {"credential": good}).status_code == 204
