"""A software authenticator for the passkey tests: makes the answers a browser gives to
navigator.credentials.create (attestation "none") and .get (an ECDSA P-256 assertion),
as JSON the way PublicKeyCredential.toJSON() writes them; and `Agent`, one browser with its
own cookies that runs the ceremonies through the HTTP API. It signs with `cryptography`;
the server checks with py_webauthn, which knows nothing of this helper."""

from __future__ import annotations

import hashlib
import json
import os
import struct

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url

from accounts_helpers import ORIGIN

UP, UV, AT = 0x01, 0x04, 0x40


def b64(b: bytes) -> str:
    return bytes_to_base64url(b)


def client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                       "crossOrigin": False}).encode()


class SoftKey:
    """One passkey: a credential id, a P-256 key, a sign counter and its user handle."""

    def __init__(self, rp_id: str, counter: int = 0):
        self.rp_id = rp_id
        self.cred_id = os.urandom(32)
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.counter = counter
        self.user_handle: str | None = None

    @property
    def id(self) -> str:
        return b64(self.cred_id)

    def _cose(self) -> bytes:
        n = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: n.x.to_bytes(32, "big"),
                            -3: n.y.to_bytes(32, "big")})

    def _auth_data(self, flags: int, attested: bool) -> bytes:
        data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + \
            struct.pack(">I", self.counter)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.cred_id)) + self.cred_id + \
                self._cose()
        return data

    def create(self, options: dict, origin: str, flags: int = UP | UV) -> dict:
        """The answer to navigator.credentials.create(options)."""
        self.user_handle = options["user"]["id"]
        cdj = client_data("webauthn.create", options["challenge"], origin)
        att = cbor2.dumps({"fmt": "none", "attStmt": {},
                           "authData": self._auth_data(flags | AT, True)})
        return {"id": self.id, "rawId": self.id, "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(cdj), "attestationObject": b64(att),
                             "transports": ["internal"]}}

    def get(self, options: dict, origin: str, flags: int = UP | UV, step: int = 1,
            user_handle: str | None = None) -> dict:
        """The answer to navigator.credentials.get(options); the counter grows by `step`."""
        self.counter += step
        cdj = client_data("webauthn.get", options["challenge"], origin)
        auth = self._auth_data(flags, False)
        sig = self.key.sign(auth + hashlib.sha256(cdj).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": self.id, "rawId": self.id, "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(cdj), "authenticatorData": b64(auth),
                             "signature": b64(sig),
                             "userHandle": user_handle or self.user_handle}}


RP = "testserver"
COOKIES = ("cardtable_session", "cardtable_webauthn")


class Agent:
    """One browser: its own cookies (session and ceremony), requests from this site's pages."""

    def __init__(self, web, origin: str = ORIGIN):
        self.web, self.origin, self.jar = web, origin, {}

    def call(self, method: str, path: str, json=None, origin: str | None = "page",
             host: str | None = None):
        h = {}
        if origin is not None:
            h["Origin"] = self.origin if origin == "page" else origin
        if host:
            h["Host"] = host
        if self.jar:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        c = self.web.client
        c.cookies.clear()
        r = c.request(method, path, json=json, headers=h)
        c.cookies.clear()
        for raw in r.headers.get_list("set-cookie"):
            name, _, rest = raw.partition("=")
            value = rest.split(";")[0].strip('"')
            if name in COOKIES:
                if value and "Max-Age=0" not in raw:
                    self.jar[name] = value
                else:
                    self.jar.pop(name, None)
        return r

    def sign_up(self, name: str, key: SoftKey, claim=(), origin: str | None = None):
        r = self.call("POST", "/api/passkeys/signup/options", {"name": name})
        assert r.status_code == 200, r.text
        opts = r.json()
        assert opts["authenticatorSelection"]["residentKey"] == "required"
        assert opts["rp"]["id"] == RP
        return self.call("POST", "/api/passkeys/signup", {
            "credential": key.create(opts, origin or self.origin), "claim": list(claim)})

    def log_in(self, key: SoftKey, **kw):
        r = self.call("POST", "/api/passkeys/login/options")
        assert r.status_code == 200, r.text
        opts = r.json()
        assert opts["allowCredentials"] == [] and opts["userVerification"] == "required"
        answer = key.get(opts, kw.pop("origin", None) or self.origin, **kw)
        return self.call("POST", "/api/passkeys/login", {"credential": answer}), answer

    def add(self, key: SoftKey, label: str = ""):
        r = self.call("POST", "/api/me/passkeys/options")
        assert r.status_code == 200, r.text
        return self.call("POST", "/api/me/passkeys",
                         {"credential": key.create(r.json(), self.origin), "label": label})
