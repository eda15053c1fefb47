"""A push service for the tests that speaks the real protocol, as a browser's push service
and the browser would: it makes each subscription's key pair and auth secret itself, accepts
POSTs per RFC 8030 (a TTL header, Content-Encoding: aes128gcm), checks the VAPID
Authorization header of RFC 8292 (`vapid t=JWT,k=KEY`: the JWT's ES256 signature verified
with KEY, its `aud` this service's origin, `exp` in the future and at most 24 hours away,
`sub` present, KEY the server's key when the test names it), decrypts the body per RFC 8291
with RFC 8188's aes128gcm coding (written out here with `cryptography`'s primitives, not with
the http_ece library the sender uses) and keeps what it decrypted. Anything wrong: 400/401,
and the error is kept too. A test waits for messages on a condition, never a sleep."""

from __future__ import annotations

import base64
import json
import secrets
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class Subscription:
    """What a browser keeps of one subscription: its private key and auth secret."""

    def __init__(self, receiver: PushReceiver, name: str):
        self.name = name
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = secrets.token_bytes(16)
        self.endpoint = f"{receiver.origin}/push/{name}"
        self.status = 201                       # what the service answers (410: gone)

    def json(self) -> dict:
        """As PushSubscription.toJSON() in a browser."""
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64u(self.public), "auth": b64u(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 section 3.4 with the aes128gcm coding of RFC 8188."""
        salt, rs, idlen = body[:16], struct.unpack("!I", body[16:20])[0], body[20]
        sender = body[21:21 + idlen]
        if idlen != 65 or rs < 18:
            raise ValueError(f"keyid of {idlen} bytes (65: the sender's P-256 key), rs {rs}")
        sender_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender)
        ecdh = self.key.exchange(ec.ECDH(), sender_key)
        ikm = _hkdf(self.auth, ecdh, b"WebPush: info\x00" + self.public + sender, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        data = body[21 + idlen:]
        records = [data[i:i + rs] for i in range(0, len(data), rs)]
        out = b""
        for seq, rec in enumerate(records):
            iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
            plain = AESGCM(cek).decrypt(iv, rec, None).rstrip(b"\x00")
            last = seq == len(records) - 1
            if not plain or plain[-1] != (2 if last else 1):
                raise ValueError("bad record delimiter")
            out += plain[:-1]
        return out


class PushReceiver:
    """A push service on 127.0.0.1 (a thread); `start()`, `stop()`."""

    def __init__(self):
        self.subs: dict[str, Subscription] = {}
        self.messages: list[dict] = []          # {"sub", "payload"} or {"sub", "error"}
        self.server_key: str | None = None      # the VAPID key every push must carry
        self._cond = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                receiver._post(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> PushReceiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def subscribe(self, name: str) -> Subscription:
        sub = self.subs[name] = Subscription(self, name)
        return sub

    def received(self, name: str | None = None) -> list[dict]:
        with self._cond:
            return [m for m in self.messages if name is None or m["sub"] == name]

    def wait(self, pred, timeout: float = 60.0) -> list[dict]:
        """Wait until pred(all messages) is true; the messages."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not pred(self.messages):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"push receiver: still waiting; got {self.messages}")
                self._cond.wait(left)
            return list(self.messages)

    # -- RFC 8030 / 8292 / 8291 ----------------------------------------------------------------------
    def _check_vapid(self, header: str) -> str:
        scheme, _, params = header.partition(" ")
        if scheme.lower() != "vapid":
            raise PermissionError(f"Authorization scheme {scheme!r}, not vapid")
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        token, key = parts["t"], parts["k"]
        if self.server_key is not None and key != self.server_key:
            raise PermissionError("not the server's VAPID key")
        head_b64, claims_b64, sig_b64 = token.split(".")
        head = json.loads(unb64u(head_b64))
        if head.get("alg") != "ES256":
            raise PermissionError(f"JWT alg {head.get('alg')}")
        sig = unb64u(sig_b64)
        if len(sig) != 64:
            raise PermissionError("an ES256 signature is 64 bytes")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(key))
        try:
            public.verify(encode_dss_signature(int.from_bytes(sig[:32], "big"),
                                               int.from_bytes(sig[32:], "big")),
                          f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise PermissionError("bad JWT signature") from None
        claims = json.loads(unb64u(claims_b64))
        now = time.time()
        if claims.get("aud") != self.origin:
            raise PermissionError(f"aud {claims.get('aud')!r}, not {self.origin}")
        if not now < claims.get("exp", 0) <= now + 24 * 3600:
            raise PermissionError(f"exp {claims.get('exp')} not within 24 hours")
        if not claims.get("sub"):
            raise PermissionError("no sub claim")
        return key

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        name = h.path.rsplit("/", 1)[-1]
        body = h.rfile.read(int(h.headers.get("Content-Length") or 0))
        sub = self.subs.get(name)
        status, record = 201, {"sub": name, "headers": dict(h.headers)}
        try:
            if sub is None:
                status = 404
                raise LookupError("no such subscription")
            ttl = h.headers.get("TTL")
            if ttl is None or not ttl.isdigit():
                raise ValueError("RFC 8030: a push message needs a TTL header")
            if h.headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError("Content-Encoding must be aes128gcm")
            try:
                self._check_vapid(h.headers.get("Authorization", ""))
            except (PermissionError, KeyError, ValueError) as e:
                status = 401
                raise PermissionError(str(e)) from None
            record["payload"] = json.loads(sub.decrypt(body).decode("utf-8"))
            status = sub.status
        except (ValueError, InvalidTag, PermissionError, LookupError) as e:
            if status == 201:
                status = 400
            record["error"] = f"{type(e).__name__}: {e}"
        record["status"] = status
        h.send_response(status)
        if status == 201:
            h.send_header("Location", f"{self.origin}/message/{secrets.token_hex(8)}")
        h.send_header("Content-Length", "0")
        h.end_headers()
        with self._cond:
            self.messages.append(record)
            self._cond.notify_all()
