"""Passkeys (WebAuthn) of accounts: the store side and the ceremonies' checks of
http/passkey.py.

The WebAuthn checks themselves (the attestation and assertion: challenge, origin, RP ID hash,
user presence and verification, the signature, the sign counter) are py_webauthn's (Duo
Labs, `webauthn` on PyPI): maintained, complete (every attestation format, every COSE
algorithm browsers use) and small; this module only decides what to expect.

Tables (schema.py; migration 0009)
  passkeys            one row per credential: `account_id`, `credential_id` (base64url,
                      unique: one credential belongs to one account), `public_key` (COSE),
                      `sign_count`, `transports` (JSON list), `user_handle` (the account's
                      random WebAuthn user id, base64url, the same for all its passkeys),
                      `label` (the player's words), `created_at`, `last_used`.
  passkey_challenges  a ceremony under way: `id_hash` (SHA-256 of the random value of the
                      short-lived HttpOnly cookie `cardtable_webauthn` that binds it to one
                      browser), `challenge` (32 random bytes, base64url), `purpose` (signup,
                      login, add, confirm: deleting the account, email: setting its
                      address), `account_id` (add, confirm, email), `name` (signup),
                      `user_handle` (signup, add), `expires` (CHALLENGE_SECONDS on).

A challenge is single-use: the answer's request takes (deletes) its row before anything is
checked, in one statement, so two answers with one challenge, in one process or several,
find it once. Expired rows go whenever a new ceremony begins.

The relying party (RP) is the page's own site: the RP ID is the host name of the origin the
browser's request names (the request's own origin, or one of `--allowed-origins`), and an
answer is accepted only from those origins. Browsers refuse an IP address as RP ID: a
server reached by address (http://127.0.0.1:8000) offers no passkeys (`passkey_no_domain`);
http://localhost is a secure context, so passkeys work there.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import secrets
import time
from typing import Any
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    decode_credential_public_key,
    decoded_public_key_to_cryptography,
    parse_attestation_object,
    parse_authenticator_data,
    parse_client_data_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from cardtable.server.people.accounts import Op, name_free
from cardtable.server.errors import ApiError
from cardtable.server.people.origin import normal_origin, own_origin

#: seconds a ceremony's challenge (and its cookie) is good for
CHALLENGE_SECONDS = 300.0
#: passkeys one account may have
MAX_PASSKEYS = 20
RP_NAME = "cardtable"
COOKIE = "cardtable_webauthn"
SECURE_COOKIE = "__Host-cardtable_webauthn"
_TRANSPORTS = {t.value: t for t in AuthenticatorTransport}


def cookie_hash(value: str) -> str:
    return hashlib.sha256(b"cardtable webauthn " + value.encode("utf-8", "replace")).hexdigest()


# -- the relying party: who we are for the browser -----------------------------------------------
def relying_party(scope: dict, allowed: frozenset[str]) -> tuple[str, list[str]]:
    """(RP ID, the origins an answer may come from) of a request (see the module's text);
    400 `passkey_no_domain` when the site is reached by an IP address."""
    own = own_origin(scope)
    origins = sorted({o for o in (own, *allowed) if o})
    page = None
    for k, v in scope.get("headers", []):
        if k == b"origin":
            page = normal_origin(v.decode("latin-1"))
    origin = page if page in origins else own
    host = urlsplit(origin).hostname if origin else None
    try:
        ipaddress.ip_address(host or "")
        is_ip = True
    except ValueError:
        is_ip = False
    if not host or is_ip:
        raise ApiError(400, "passkeys need the site to be opened by its name (such as "
                            "localhost), not by an IP address", "passkey_no_domain")
    return host, origins


# -- options ------------------------------------------------------------------------------------
def _descriptors(rows: list[dict]) -> list[PublicKeyCredentialDescriptor]:
    return [PublicKeyCredentialDescriptor(
        id=base64url_to_bytes(r["credential_id"]),
        transports=[_TRANSPORTS[t] for t in json.loads(r["transports"]) if t in _TRANSPORTS])
        for r in rows]


def registration_options(rp_id: str, name: str, user_handle: str, challenge: bytes,
                         exclude: list[dict]) -> dict:
    """The options of navigator.credentials.create: a discoverable credential (a passkey:
    log-in needs no name) with user verification (a PIN, a fingerprint: the passkey is the
    only factor)."""
    opts = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_display_name=name,
        user_id=base64url_to_bytes(user_handle), challenge=challenge,
        timeout=int(CHALLENGE_SECONDS * 1000),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED),
        exclude_credentials=_descriptors(exclude))
    return json.loads(options_to_json(opts))


def authentication_options(rp_id: str, challenge: bytes, allow: list[dict]) -> dict:
    """The options of navigator.credentials.get: no credentials named at log-in (the browser
    offers the passkeys it has for this site: nothing tells which names have accounts); the
    account's own when a logged-in player confirms with a passkey."""
    opts = generate_authentication_options(
        rp_id=rp_id, challenge=challenge, timeout=int(CHALLENGE_SECONDS * 1000),
        allow_credentials=_descriptors(allow),
        user_verification=UserVerificationRequirement.REQUIRED)
    return json.loads(options_to_json(opts))


# -- checking the answers -----------------------------------------------------------------------
_B64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")


def _malformed(field: str, what: str) -> ApiError:
    return ApiError(400, f"the passkey answer is malformed: {field} {what}",
                    "passkey_malformed", {"field": field})


def _b64(obj: dict, key: str, path: str, required: bool = True) -> bytes | None:
    """The bytes of the base64url text `obj[key]` (None if it is absent or null and not
    `required`); 400 `passkey_malformed` naming `path.key` if it is missing, not a text or not
    base64url."""
    field = f"{path}.{key}"
    v = obj.get(key)
    if v is None and not required:
        return None
    if v is None:
        raise _malformed(field, "is missing")
    if not isinstance(v, str):
        raise _malformed(field, "is not a text")
    if not v or not _B64URL.fullmatch(v) or len(v.rstrip("=")) % 4 == 1:
        raise _malformed(field, "is not base64url")
    return base64url_to_bytes(v)


def _parsed(field: str, parse, data: bytes):
    """`parse(data)` by py_webauthn; 400 `passkey_malformed` naming `field` if it fails (its
    parsers of CBOR and JSON raise whatever the malformed bytes make them raise)."""
    try:
        return parse(data)
    except Exception as e:                      # noqa: BLE001 -- untrusted bytes, any error
        raise _malformed(field, f"cannot be read ({type(e).__name__})") from None


def _public_key(cbor: bytes):
    return decoded_public_key_to_cryptography(decode_credential_public_key(cbor))


def check_shape(credential: dict, kind: str) -> None:
    """The structure of a browser's answer, before anything is looked up or verified:
    `kind` "create" (registration: clientDataJSON, attestationObject with a public key that
    can be used, transports) or "get" (an assertion: clientDataJSON, authenticatorData,
    signature, userHandle); id, rawId and type for both. A field that is missing, of the
    wrong type, not base64url or whose bytes cannot be read is answered 400
    `passkey_malformed` with its name (`credential.response.clientDataJSON`), so the same
    for any account. Whether the answer is valid (challenge, origin, signature) is
    `check_registration`'s and `check_assertion`'s."""
    _b64(credential, "id", "credential")
    _b64(credential, "rawId", "credential")
    if not isinstance(credential.get("type"), str):
        raise _malformed("credential.type", "is not a text")
    response = credential.get("response")
    if not isinstance(response, dict):
        raise _malformed("credential.response", "is not an object")
    path = "credential.response"
    _parsed(f"{path}.clientDataJSON", parse_client_data_json,
            _b64(response, "clientDataJSON", path))
    if kind == "create":
        att = _parsed(f"{path}.attestationObject", parse_attestation_object,
                      _b64(response, "attestationObject", path))
        attested = att.auth_data.attested_credential_data
        if attested is None:
            raise _malformed(f"{path}.attestationObject", "holds no credential")
        _parsed(f"{path}.attestationObject", _public_key, attested.credential_public_key)
        transports = response.get("transports")
        if transports is not None and not (isinstance(transports, list) and all(
                isinstance(t, str) for t in transports)):
            raise _malformed(f"{path}.transports", "is not a list of texts")
    else:
        _parsed(f"{path}.authenticatorData", parse_authenticator_data,
                _b64(response, "authenticatorData", path))
        _b64(response, "signature", path)
        _b64(response, "userHandle", path, required=False)


def check_registration(credential: dict, challenge: str, rp_id: str, origins: list[str]
                       ) -> dict:
    """The new passkey of a registration answer whose structure was checked (`check_shape`):
    its credential_id, public_key, sign_count and transports; 400 `passkey_refused` when it
    is not a valid answer to this challenge from this site."""
    try:
        v = verify_registration_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id, expected_origin=origins, require_user_verification=True)
    except (WebAuthnException, ValueError, TypeError, KeyError) as e:
        raise ApiError(400, f"the passkey was not accepted: {str(e)[:200]}",
                       "passkey_refused") from None
    response = credential.get("response")
    transports = response.get("transports") if isinstance(response, dict) else None
    transports = transports if isinstance(transports, list) else []
    transports = [t for t in transports if isinstance(t, str) and t in _TRANSPORTS][:8]
    return {"credential_id": bytes_to_base64url(v.credential_id),
            "public_key": v.credential_public_key, "sign_count": v.sign_count,
            "transports": json.dumps(transports)}


def check_assertion(credential: dict, challenge: str, rp_id: str, origins: list[str],
                    key: dict) -> int | None:
    """The new sign count of a valid assertion by the passkey `key`, or None (a wrong
    origin, challenge, signature or user handle; a sign count that did not grow: a cloned
    authenticator). Its structure was checked (`check_shape`)."""
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if handle and handle != key["user_handle"]:
        return None
    try:
        v = verify_authentication_response(
            credential=credential, expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id, expected_origin=origins,
            credential_public_key=key["public_key"],
            credential_current_sign_count=key["sign_count"], require_user_verification=True)
    except (WebAuthnException, ValueError, TypeError, KeyError):
        return None
    return v.new_sign_count


def credential_id_of(credential: dict) -> str | None:
    """The credential id an answer names (base64url, as stored), or None."""
    raw = credential.get("rawId") or credential.get("id")
    if not isinstance(raw, str) or not raw or len(raw) > 1400:
        return None
    try:
        return bytes_to_base64url(base64url_to_bytes(raw))
    except (ValueError, TypeError):
        return None


def new_challenge() -> bytes:
    return secrets.token_bytes(32)


def new_user_handle() -> str:
    return bytes_to_base64url(secrets.token_bytes(32))


# -- the store ----------------------------------------------------------------------------------
KEY_COLS = ("id", "account_id", "credential_id", "public_key", "sign_count", "transports",
            "user_handle", "label", "created_at", "last_used")


def _key(r) -> dict:
    d = dict(zip(KEY_COLS, r))
    d["public_key"] = bytes(d["public_key"])
    return d


def create_account(name: str, keys: tuple[str, str], new: dict, user_handle: str,
                   label: str) -> Op:
    """A new account without a password (its hash '': nothing matches it) and its first
    passkey, in one transaction: the account's id, None if a lookalike name is taken,
    "known" if the credential belongs to an account already."""
    if not (yield from name_free(keys)):
        return None
    if (yield "SELECT 1 FROM passkeys WHERE credential_id = :c",
              {"c": new["credential_id"]}):
        return "known"
    now = time.time()
    rows = yield ("INSERT INTO accounts (name, name_key, name_key2, password_hash, created_at, "
                  "password_at) VALUES (:n, :a, :b, '', :t, :t) RETURNING id",
                  {"n": name, "a": keys[0], "b": keys[1], "t": now})
    account_id = rows[0][0]
    yield from add_key(account_id, new, user_handle, label)
    return account_id


def put_challenge(id_hash: str, challenge: bytes, purpose: str, account_id: int | None = None,
                  name: str | None = None, user_handle: str | None = None) -> Op:
    now = time.time()
    yield "DELETE FROM passkey_challenges WHERE expires <= :t", {"t": now}
    yield ("INSERT INTO passkey_challenges (id_hash, challenge, purpose, account_id, name, "
           "user_handle, expires) VALUES (:h, :c, :p, :a, :n, :u, :e)",
           {"h": id_hash, "c": bytes_to_base64url(challenge), "p": purpose, "a": account_id,
            "n": name, "u": user_handle, "e": now + CHALLENGE_SECONDS})


def take_challenge(id_hash: str) -> Op:
    """The ceremony of this cookie, taken (single-use), or None (none, or expired)."""
    rows = yield ("DELETE FROM passkey_challenges WHERE id_hash = :h RETURNING challenge, "
                  "purpose, account_id, name, user_handle, expires", {"h": id_hash})
    if not rows or rows[0][5] <= time.time():
        return None
    return dict(zip(("challenge", "purpose", "account_id", "name", "user_handle"), rows[0][:5]))


def keys_of(account_id: int) -> Op:
    rows = yield (f"SELECT {', '.join(KEY_COLS)} FROM passkeys WHERE account_id = :a "
                  "ORDER BY created_at, id", {"a": account_id})
    return [_key(r) for r in rows]


def key_by_credential(credential_id: str) -> Op:
    rows = yield (f"SELECT {', '.join(KEY_COLS)} FROM passkeys WHERE credential_id = :c",
                  {"c": credential_id})
    return _key(rows[0]) if rows else None


def add_key(account_id: int, new: dict, user_handle: str, label: str) -> Op:
    """Store a new passkey: its id; None if the credential is known already (to this
    account or another) or the account has `MAX_PASSKEYS`."""
    rows = yield ("SELECT count(*) FROM passkeys WHERE account_id = :a", {"a": account_id})
    if rows[0][0] >= MAX_PASSKEYS:
        return "limit"
    rows = yield ("SELECT 1 FROM passkeys WHERE credential_id = :c", {"c": new["credential_id"]})
    if rows:
        return "known"
    rows = yield ("INSERT INTO passkeys (account_id, credential_id, public_key, sign_count, "
                  "transports, user_handle, label, created_at, last_used) VALUES (:a, :c, :k, "
                  ":s, :t, :u, :l, :now, NULL) RETURNING id",
                  {"a": account_id, "c": new["credential_id"], "k": new["public_key"],
                   "s": new["sign_count"], "t": new["transports"], "u": user_handle,
                   "l": label, "now": time.time()})
    return rows[0][0]


def used(key_id: int, old_count: int, sign_count: int) -> Op:
    """A log-in with the passkey: its new sign count and when. False if another log-in with
    it counted meanwhile (the counter must grow: the same assertion twice is refused)."""
    rows = yield ("UPDATE passkeys SET sign_count = :s, last_used = :t WHERE id = :i AND "
                  "sign_count = :old RETURNING id",
                  {"s": sign_count, "t": time.time(), "i": key_id, "old": old_count})
    return bool(rows)


def remove_key(account_id: int, key_id: int) -> Op:
    """Remove one of the account's passkeys: "gone" (no such passkey of the account), "last"
    (it is the account's last way to log in: no password and no other passkey), or "ok"."""
    rows = yield ("SELECT a.password_hash, (SELECT count(*) FROM passkeys p WHERE "
                  "p.account_id = a.id) FROM accounts a WHERE a.id = :a", {"a": account_id})
    if not rows:
        return "gone"
    has_password, n = bool(rows[0][0]), rows[0][1]
    found = yield ("SELECT 1 FROM passkeys WHERE id = :i AND account_id = :a",
                   {"i": key_id, "a": account_id})
    if not found:
        return "gone"
    if not has_password and n <= 1:
        return "last"
    yield "DELETE FROM passkeys WHERE id = :i AND account_id = :a", {"i": key_id, "a": account_id}
    return "ok"


def public(key: dict) -> dict[str, Any]:
    """A passkey as the account's owner sees it (no key material: its public id at most)."""
    return {"id": key["id"], "label": key["label"], "credential_id": key["credential_id"],
            "transports": json.loads(key["transports"]), "created_at": key["created_at"],
            "last_used": key["last_used"]}
