"""People who share one address (a household, a dorm, a school, a carrier's NAT) with the limits
per address on, as a public server runs (issue 28): one seat per person at a public table, where
a person is the browser's own client identity (`X-Cardtable-Client`), a few seats per address for
volume; mistyped codes slow down only the look-ups of codes that do not exist; and every error
of the HTTP API carries a stable code and its parameters besides the English `detail`.

Every request here comes from 127.0.0.1 (no X-Forwarded-For): one address for all."""

from __future__ import annotations

import json
import secrets

import httpx
import pytest
import websockets
from helpers import ServerProc, assert_clean_log, run_async

from cardtable.server.guard.security import (
    PRIVATE_CODE_LEN,
    AddressKeys,
    same_address,
    same_person,
)

KEYS = AddressKeys([b"a test's address key"])

LIMITS = ("--client-limits", "on",            # 3 seats per address at a public table
          "--trusted-proxies", "127.0.0.1",     # X-Forwarded-For names another address
          "--limit", "misses_per_minute=1", "--limit", "miss_burst=20",
          "--limit", "http_rate=200", "--limit", "http_burst=400")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("shared")
    srv = ServerProc(str(tmp / "shared.db"), log_dir=tmp, args=LIMITS).start()
    yield srv
    srv.stop()
    assert_clean_log(tmp)


def person() -> dict:
    """The headers of a new browser (its own client identity, as app.js makes it)."""
    return {"X-Cardtable-Client": secrets.token_hex(16)}


def post(srv, path, body, headers=None) -> httpx.Response:
    return httpx.post(srv.base + path, json=body, headers=headers or {}, timeout=30,
                      trust_env=False)


def get(srv, path, headers=None) -> httpx.Response:
    return httpx.get(srv.base + path, headers=headers or {}, timeout=30, trust_env=False)


def public_table(srv, players: int = 4) -> str:
    r = post(srv, "/api/tables", {"game": "kombio", "players": players}, person())
    assert r.status_code == 201, r.text
    return r.json()["table"]["code"]


def seats_taken(srv, code: str) -> list[int]:
    t = get(srv, f"/api/tables/{code}").json()
    return [i for i in range(t["players"]) if i not in t["free_seats"]]


# -- one seat per person ----------------------------------------------------------------------------
def test_two_people_behind_one_address_sit_at_one_public_table(server):
    """Before, the second person of a household got 'you already hold a seat at this public
    table'."""
    code = public_table(server, players=2)
    ann, bob = person(), person()
    r1 = post(server, f"/api/tables/{code}/join", {"name": "Ann"}, ann)
    r2 = post(server, f"/api/tables/{code}/join", {"name": "Bob"}, bob)
    assert r1.status_code == 200, r1.text
    assert r2.status_code == 200, r2.text
    assert {r1.json()["seat"], r2.json()["seat"]} == {0, 1}
    assert get(server, f"/api/tables/{code}").json()["status"] == "playing"


def test_the_same_person_twice_is_refused_and_nothing_changes(server):
    code = public_table(server)
    ann = person()
    assert post(server, f"/api/tables/{code}/join", {"name": "Ann"}, ann).status_code == 200
    r = post(server, f"/api/tables/{code}/join", {"name": "Ann2"}, ann)
    assert r.status_code == 409
    body = r.json()
    assert body["error"] == "seat_held" and "already hold a seat" in body["detail"]
    assert seats_taken(server, code) == [0]
    # the creator's seat counts too: creating with a name, then joining again, is refused
    r = post(server, "/api/tables", {"game": "kombio", "players": 3, "name": "Cy"}, ann)
    own = r.json()["table"]["code"]
    r = post(server, f"/api/tables/{own}/join", {"name": "Cy2"}, ann)
    assert r.status_code == 409 and r.json()["error"] == "seat_held"


def test_an_address_holds_a_few_seats_of_a_public_table(server):
    """Three people behind one address sit together; a fourth identity from the same address
    (a script making up identities) is refused: the cap per address is for volume."""
    code = public_table(server, players=6)
    for name in ("Ann", "Bob", "Cy"):
        r = post(server, f"/api/tables/{code}/join", {"name": name}, person())
        assert r.status_code == 200, r.text
    r = post(server, f"/api/tables/{code}/join", {"name": "Di"}, person())
    assert r.status_code == 409
    assert r.json()["error"] == "address_seats" and r.json()["params"] == {"most": 3}
    assert seats_taken(server, code) == [0, 1, 2]
    # from another address (a trusted proxy names it) there is room
    other = dict(person(), **{"X-Forwarded-For": "10.9.8.7"})
    assert post(server, f"/api/tables/{code}/join", {"name": "Di"}, other).status_code == 200


def test_without_an_identity_the_address_is_the_person(server):
    """API users who send no identity: one seat per address, as before."""
    code = public_table(server)
    assert post(server, f"/api/tables/{code}/join", {"name": "Ann"}).status_code == 200
    r = post(server, f"/api/tables/{code}/join", {"name": "Bob"})
    assert r.status_code == 409 and r.json()["error"] == "seat_held"
    # a browser behind the same address is another person
    assert post(server, f"/api/tables/{code}/join", {"name": "Bob"}, person()).status_code == 200


def test_private_tables_have_no_seat_limit(server):
    ann = person()
    r = post(server, "/api/tables", {"game": "kombio", "players": 4, "public": False}, ann)
    code = r.json()["table"]["code"]
    for name in ("Ann", "Bob", "Cy", "Di"):              # one device, four players: fine
        assert post(server, f"/api/tables/{code}/join", {"name": name}, ann).status_code == 200


def test_what_a_seat_keeps_of_who_took_it():
    """Hashes only; the address half decides the cap per address, the whole the person. A
    seat taken before identities (the address's full hash) reads as that address's client
    without an identity."""
    a1, a2 = KEYS.seat_client("10.0.0.1", "a" * 32), KEYS.seat_client("10.0.0.1", "b" * 32)
    assert len(a1) == len(a2) == 64 and "10.0.0.1" not in a1 and "a" * 32 not in a1
    assert same_address(a1, a2) and not same_person(a1, a2)
    assert same_person(a1, KEYS.seat_client("10.0.0.1", "a" * 32))
    assert not same_address(a1, KEYS.seat_client("10.0.0.2", "a" * 32))
    old = KEYS.client_key("10.0.0.1")
    assert same_person(old, KEYS.seat_client("10.0.0.1", None)) and same_address(old, a1)
    assert not same_person(None, None) and not same_address(None, a1)


@pytest.mark.parametrize("value", ["short", "x" * 65, "has space in it!!", "ä".encode() * 20, ""])
def test_a_malformed_identity_is_refused_and_changes_nothing(server, value):
    code = public_table(server)
    r = post(server, f"/api/tables/{code}/join", {"name": "Ann"}, {"X-Cardtable-Client": value})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_client" and "X-Cardtable-Client".lower() in r.json()["detail"]
    assert seats_taken(server, code) == []
    r = post(server, "/api/tables", {"game": "kombio", "name": "Ann"}, {"X-Cardtable-Client": value})
    assert r.status_code == 400 and r.json()["error"] == "bad_client"


# -- mistyped codes -----------------------------------------------------------------------------------
def test_wrong_codes_do_not_lock_an_address_out_of_real_tables(server):
    """20 mistyped codes from one address blocked every look-up and WebSocket of that whole
    address for minutes. Now only unknown codes are slowed; tables that exist are found."""
    home = {"X-Forwarded-For": "10.20.30.40"}          # this test's own address

    def at_home(h: dict | None = None) -> dict:
        return dict(h or {}, **home)

    r = post(server, "/api/tables", {"game": "kombio", "players": 2, "public": False},
             at_home(person()))
    code = r.json()["table"]["code"]
    assert len(code) == PRIVATE_CODE_LEN
    wrong = [f"WRONG{i:02d}".ljust(PRIVATE_CODE_LEN, "Z") for i in range(25)]
    answers = [get(server, f"/api/tables/{c}", at_home()).status_code for c in wrong]
    assert answers[:20] == [404] * 20 and set(answers[20:]) == {429}, answers
    r = get(server, f"/api/tables/{wrong[0]}", at_home())
    assert r.status_code == 429 and r.json()["error"] == "guessing"
    assert "retry-after" in r.headers
    # a real code: found over HTTP, joined by code and by link, watched
    assert get(server, f"/api/tables/{code}", at_home()).status_code == 200
    j = post(server, f"/api/tables/{code}/join", {"name": "Bob"}, at_home(person()))
    assert j.status_code == 200, j.text
    r = post(server, "/api/join", {"table": f"http://x/t/{code}", "name": "Cy"},
             at_home(person()))
    assert r.status_code == 200, r.text
    assert get(server, f"/api/tables/{code}/watch", at_home()).status_code == 200

    async def ws(c: str, token: str | None = None) -> dict:
        url = f"{server.ws_base}/ws/{c}" + (f"?token={token}" if token else "")
        sock = await websockets.connect(url, proxy=None, additional_headers=home)
        try:
            return json.loads(await sock.recv())
        finally:
            await sock.close()

    # ... and over WebSocket, as a player and as a spectator
    assert run_async(ws(code, j.json()["token"]))["type"] == "welcome"
    assert run_async(ws(code))["type"] == "welcome"
    m = run_async(ws(wrong[1]))                          # unknown codes stay slowed
    assert m["type"] == "error" and m["code"] == "rate_limited"


# -- errors with codes --------------------------------------------------------------------------------
def test_errors_carry_a_code_and_parameters(server):
    ann = person()
    code = post(server, "/api/tables", {"game": "kombio", "players": 2, "public": False,
                                        "name": "ann"}, ann).json()["table"]["code"]
    r = post(server, f"/api/tables/{code}/join", {"name": "ANN"}, person())
    assert r.status_code == 409
    assert r.json() == {"detail": "the name 'ANN' is taken at this table: choose another",
                        "error": "name_taken", "params": {"name": "ANN"}}
    r = post(server, f"/api/tables/{code}/join", {"name": "Bob", "seat": 0}, person())
    assert (r.status_code, r.json()["error"]) == (409, "seat_taken")
    assert post(server, f"/api/tables/{code}/join", {"name": "Bob"}, person()).status_code == 200
    r = post(server, f"/api/tables/{code}/join", {"name": "Cy"}, person())
    assert (r.status_code, r.json()["error"]) == (409, "table_full")
    r = get(server, "/api/tables/NOSUCHTABLE")
    assert (r.status_code, r.json()["error"]) == (404, "no_table")
    r = post(server, "/api/join", {"table": "no code here!", "name": "Cy"}, person())
    assert (r.status_code, r.json()["error"]) == (404, "not_a_code")
    # validation errors of the lobby form: the field's code, a refused name says why
    r = post(server, "/api/tables", {"game": "kombio", "name": "Bot 7"}, person())
    body = r.json()
    assert r.status_code == 422 and body["error"] == "bad_name"
    assert body["params"] == {"field": "name", "why": "impostor"}
    assert isinstance(body["detail"], list) and body["detail"][0]["loc"] == ["body", "name"]
    r = post(server, "/api/tables", {"game": "kombio", "name": "A\u0000B"}, person())
    assert r.json()["params"] == {"field": "name", "why": "char", "char": "U+0000"}
    r = post(server, "/api/tables", {"game": "kombio", "target": 0, "name": "Ann"}, person())
    assert (r.status_code, r.json()["error"]) == (422, "bad_target")
    r = post(server, "/api/tables", {"game": "kombio", "target": 50, "variant": "duel"}, person())
    assert (r.status_code, r.json()["error"]) == (422, "settings")
