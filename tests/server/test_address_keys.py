"""What the database keeps of a client's address: keyed hashes (HMAC-SHA256 under the server's
secret keys, security.AddressKeys), never a plain SHA-256 that anyone can undo by hashing the
2^32 IPv4 addresses. The keys come from `--address-secret-file` (one a line, the current
first: a rotation keeps the previous key on the second line for a grace period), else from a
random key the server keeps in the database (server_keys). On SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import hmac
import secrets

import httpx
import pytest
from helpers import ServerProc, assert_clean_log, database_url
from sqlalchemy import create_engine, text

from cardtable.server.config import DatabaseURL, read_address_secrets
from cardtable.server.guard.security import AddressKeys

ADDR = "127.0.0.1"
LIMITS = ("--client-limits", "on", "--limit", "tables=1",
          "--limit", "http_rate=200", "--limit", "http_burst=400")
OLD, NEW = "old-key-" + "o" * 24, "new-key-" + "n" * 24


def _hmac(key: str | bytes, addr: str) -> str:
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, b"cardtable client " + addr.encode(), hashlib.sha256).hexdigest()


def _plain(addr: str) -> str:
    return hashlib.sha256(b"cardtable client " + addr.encode()).hexdigest()


# -- the hash --------------------------------------------------------------------------------------
def test_an_address_hash_is_keyed_and_differs_under_another_key():
    a, b = AddressKeys([OLD.encode()]), AddressKeys([NEW.encode()])
    for addr in ("192.0.2.7", "2001:db8:5:17::1"):
        assert a.client_key(addr) != b.client_key(addr)
        assert a.seat_client(addr, None) != b.seat_client(addr, None)
        assert a.client_key(addr) not in (_plain(addr), hashlib.sha256(addr.encode()).hexdigest())
    assert a.client_key("192.0.2.7") == _hmac(OLD, "192.0.2.7")
    both = AddressKeys([NEW.encode(), OLD.encode()])             # rotated: the new key first
    assert both.client_key("192.0.2.7") == b.client_key("192.0.2.7")
    assert both.client_keys("192.0.2.7") == [b.client_key("192.0.2.7"), a.client_key("192.0.2.7")]
    assert both.seat_clients("192.0.2.7", "x" * 20) == [b.seat_client("192.0.2.7", "x" * 20),
                                                       a.seat_client("192.0.2.7", "x" * 20)]


def test_the_secret_file_holds_the_keys_current_first(tmp_path):
    f = tmp_path / "keys"
    f.write_text(f"# rotated today\n{NEW}\n\n{OLD}\n")
    assert read_address_secrets(str(f)) == (NEW.encode(), OLD.encode())
    for content, words in (("", "holds no key"), ("# only a comment\n", "holds no key"),
                           ("short\n", "fewer than 16 characters")):
        f.write_text(content)
        with pytest.raises(ValueError, match=words):
            read_address_secrets(str(f))
    with pytest.raises(ValueError, match="cannot read"):
        read_address_secrets(str(tmp_path / "missing"))


# -- the server -------------------------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_db(request, tmp_path) -> str:
    """A new database for each test (the module's `database` is shared by its tests)."""
    return database_url(request.param, request, tmp_path)


def _rows(database: str) -> tuple[list[str], list[str], list[str]]:
    """(game_tables.creator, seats.client of the human seats taken, server_keys 'address')."""
    engine = create_engine(DatabaseURL(database).sync_url)
    try:
        with engine.connect() as conn:
            creators = [r[0] for r in conn.execute(text(
                "SELECT creator FROM game_tables ORDER BY id"))]
            clients = [r[0] for r in conn.execute(text(
                "SELECT client FROM seats WHERE client IS NOT NULL ORDER BY table_id, seat"))]
            keys = [r[0] for r in conn.execute(text(
                "SELECT value FROM server_keys WHERE name = 'address'"))]
    finally:
        engine.dispose()
    return creators, clients, keys


def _create(srv: ServerProc, who: dict) -> httpx.Response:
    return httpx.post(srv.base + "/api/tables", json={"game": "kombio", "players": 2,
                                                      "public": True, "name": "Ann"},
                      headers=who, timeout=60, trust_env=False)


def _join(srv: ServerProc, code: str, who: dict) -> httpx.Response:
    return httpx.post(srv.base + f"/api/tables/{code}/join", json={"name": "Bob"},
                      headers=who, timeout=60, trust_env=False)


def _serve(database, logs, keyfile=None) -> ServerProc:
    args = LIMITS + (("--address-secret-file", str(keyfile)) if keyfile else ())
    return ServerProc(database, log_dir=logs, args=args).start()


def test_the_database_keeps_keyed_hashes_and_a_rotation_keeps_the_old_key_a_while(
        fresh_db, tmp_path):
    """A table made under the old key is the address's (one unfinished table at most) and the
    seat its person took is theirs while the old key is on the file's second line; once the
    old key is dropped, neither matches any more (docs/deploy.md says so)."""
    ann = {"X-Cardtable-Client": secrets.token_hex(16)}
    keyfile = tmp_path / "address.keys"
    keyfile.write_text(OLD + "\n")
    srv = _serve(fresh_db, tmp_path, keyfile)
    try:
        r = _create(srv, ann)
        assert r.status_code == 201, r.text
        code = r.json()["table"]["code"]
    finally:
        srv.stop()
    creators, clients, keys = _rows(fresh_db)
    assert creators == [_hmac(OLD, ADDR)] != [_plain(ADDR)]
    assert clients == [AddressKeys([OLD.encode()]).seat_client(ADDR, ann["X-Cardtable-Client"])]
    assert keys == []                                    # the file's key: none in the database

    keyfile.write_text(f"{NEW}\n{OLD}\n")                # rotated, the old key kept a while
    srv = _serve(fresh_db, tmp_path, keyfile)
    try:
        r = _create(srv, {"X-Cardtable-Client": secrets.token_hex(16)})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables", r.text
        r = _join(srv, code, ann)                        # the same person, the same table
        assert r.status_code == 409 and r.json()["error"] == "seat_held", r.text
    finally:
        srv.stop()

    keyfile.write_text(f"{NEW}\n")                       # the grace period is over
    srv = _serve(fresh_db, tmp_path, keyfile)
    try:
        r = _create(srv, {"X-Cardtable-Client": secrets.token_hex(16)})
        assert r.status_code == 201, r.text              # the old table counts no more
        r = _join(srv, code, ann)
        assert r.status_code == 200, r.text              # nor does the old seat
    finally:
        srv.stop()
    creators, clients, _ = _rows(fresh_db)
    assert creators == [_hmac(OLD, ADDR), _hmac(NEW, ADDR)]
    assert AddressKeys([NEW.encode()]).seat_client(ADDR, ann["X-Cardtable-Client"]) in clients
    assert_clean_log(tmp_path)


def test_without_a_secret_file_the_key_is_made_once_and_kept_in_the_database(fresh_db,
                                                                             tmp_path):
    srv = _serve(fresh_db, tmp_path)
    try:
        assert _create(srv, {}).status_code == 201
    finally:
        srv.stop()
    srv = _serve(fresh_db, tmp_path)                     # a restart: the same key
    try:
        r = _create(srv, {})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables", r.text
    finally:
        srv.stop()
    creators, _, keys = _rows(fresh_db)
    assert len(keys) == 1 and len(bytes.fromhex(keys[0])) == 32
    assert creators == [_hmac(bytes.fromhex(keys[0]), ADDR)] != [_plain(ADDR)]
    assert_clean_log(tmp_path)


def test_a_bad_secret_file_is_one_line_and_exit_status_2(tmp_path):
    import subprocess
    import sys

    from helpers import ROOT

    short = tmp_path / "short"
    short.write_text("tooshort\n")
    for path in (short, tmp_path / "missing"):
        proc = subprocess.run([sys.executable, "-m", "cardtable.server", "--database",
                               str(tmp_path / "x.db"), "--address-secret-file", str(path)],
                              capture_output=True, text=True, cwd=str(ROOT), timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert "address secret file" in proc.stderr and "Traceback" not in proc.stderr
        assert not (tmp_path / "x.db").exists()
