"""A player's identity (http/profile.py, people/profiles.py): an account sets its avatar,
profile line and country; bad input is refused with its field and changes nothing; the
identity is public at the tables the account sits at (GET /api/people), a moderator sees the
line of a reported player, and the data download has it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client

from cardtable.cli.main import main
from cardtable.i18n import t
from cardtable.server.people.profiles import AVATARS, COUNTRIES, LINE_MAX

TABLE = {"game": "kombio", "public": False, "players": 2,
         "seats": [{"kind": "human"}, {"kind": "human"}]}
GOOD = {"avatar": 5, "line": "  Kombio  am\tAbend ", "country": "DE"}


@pytest.fixture(scope="module")
def site(database):
    with app_client(database) as b:
        sess = {}
        for name in ("Alma", "Bruno", "Mod"):
            r, sess[name] = b.sign_up(name)
            assert r.status_code == 201, r.text
        yield b, sess, database


def test_an_account_sets_its_identity(site):
    b, sess, _ = site
    assert b.call("GET", "/api/me/profile").status_code == 401
    assert b.call("PUT", "/api/me/profile", json=GOOD).status_code == 401
    r = b.call("GET", "/api/me/profile", sess["Alma"])
    assert r.status_code == 200
    got = r.json()
    assert (got["avatar"], got["line"], got["country"], got["flag"]) == (None, "", None, "")
    assert got["avatars"] == AVATARS and got["line_max"] == LINE_MAX
    assert len(got["countries"]) == 249 and {"DE", "CH", "AT", "US"} <= set(got["countries"])
    assert not {"EU", "XK", "ZZ", "UN"} & set(got["countries"])
    r = b.call("PUT", "/api/me/profile", sess["Alma"], json=GOOD)
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["avatar"], got["line"], got["country"], got["flag"]) == \
        (5, "Kombio am Abend", "DE", "\U0001F1E9\U0001F1EA")
    assert b.call("GET", "/api/me/profile", sess["Alma"]).json()["line"] == "Kombio am Abend"
    # the line is counted in characters, not bytes: 80 umlauts are fine
    r = b.call("PUT", "/api/me/profile", sess["Bruno"], json={"avatar": AVATARS - 1,
                                                               "line": "ä" * LINE_MAX})
    assert r.status_code == 200 and r.json()["country"] is None
    data = b.call("GET", "/api/me/data", sess["Alma"]).json()
    assert data["identity"] == {"avatar": 5, "line": "Kombio am Abend", "country": "DE"}


@pytest.mark.parametrize("body, field, why", [
    ({"line": "x" * (LINE_MAX + 1)}, "line", "long"),
    ({"line": "hi <b>there</b>"}, "line", "markup"),
    ({"line": "<script>alert(1)</script>"}, "line", "markup"),
    ({"line": "Tom &amp; Jerry"}, "line", "markup"),
    ({"country": "XX"}, "country", "unknown"),
    ({"country": "EU"}, "country", "unknown"),
    ({"country": "de"}, "country", "unknown"),
    ({"avatar": AVATARS}, "avatar", "unknown"),
    ({"avatar": -1}, "avatar", "unknown"),
])
def test_bad_input_is_refused_with_its_field_and_changes_nothing(site, body, field, why):
    b, sess, _ = site
    b.call("PUT", "/api/me/profile", sess["Alma"], json=GOOD)
    r = b.call("PUT", "/api/me/profile", sess["Alma"], json=dict(GOOD, **body))
    assert r.status_code == 422, r.text
    j = r.json()
    assert j["error"] == "bad_profile" and j["params"]["field"] == field and \
        j["params"]["why"] == why, j
    for lang in ("en", "de"):
        text = t(lang, f"err.api.bad_profile.{field}.{why}", **j["params"])
        assert text and not text.startswith("err.api"), text
    got = b.call("GET", "/api/me/profile", sess["Alma"]).json()
    assert (got["avatar"], got["line"], got["country"]) == (5, "Kombio am Abend", "DE")


@pytest.mark.parametrize("body", [{"avatar": "3"}, {"avatar": 1.5}, {"line": 7},
                                  {"country": "D" * 17}, {"colour": "red"}])
def test_malformed_bodies_are_422(site, body):
    b, sess, _ = site
    r = b.call("PUT", "/api/me/profile", sess["Alma"], json=dict(GOOD, **body))
    assert r.status_code == 422 and r.json()["params"]["field"], r.text


def test_the_people_at_a_table_and_the_moderators_queue(site):
    b, sess, db = site
    b.call("PUT", "/api/me/profile", sess["Alma"], json=GOOD)
    r = b.call("POST", "/api/tables", sess["Alma"], json=dict(TABLE, name="Alma"))
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    assert b.call("POST", f"/api/tables/{code}/join", json={"name": "Gus"}).status_code == 200
    r = b.call("GET", f"/api/people?tables={code},NOSUCHTABLE")
    assert r.status_code == 200
    assert r.json() == {code: {"0": {"avatar": 5, "line": "Kombio am Abend", "country": "DE",
                                     "flag": "\U0001F1E9\U0001F1EA"}}}
    assert b.call("GET", "/api/people?tables=" + ",".join(["A"] * 101)).status_code == 200
    many = ",".join(f"T{i}" for i in range(101))
    r = b.call("GET", f"/api/people?tables={many}")
    assert r.status_code == 422 and r.json()["params"]["field"] == "tables"
    assert b.call("GET", "/api/people?tables=<b>").status_code == 422
    # a moderator's queue shows the reported player's line
    assert main(["admin", "role", "Mod", "moderator", "--reason", "test", "--database", db]) == 0
    r = b.call("POST", "/api/reports", sess["Bruno"], json={"name": "Alma", "reason": "spam"})
    assert r.status_code == 201, r.text
    queue = b.call("GET", "/api/mod/reports", sess["Mod"]).json()
    assert [(q["name"], q["profile_line"]) for q in queue] == [("Alma", "Kombio am Abend")]


def test_a_players_identity_by_name(site):
    b, sess, _ = site
    b.call("PUT", "/api/me/profile", sess["Alma"], json=GOOD)
    assert b.call("GET", "/api/identity/Alma").json() == {
        "avatar": 5, "line": "Kombio am Abend", "country": "DE", "flag": "\U0001F1E9\U0001F1EA"}
    none = {"avatar": None, "line": "", "country": None, "flag": ""}
    assert b.call("GET", "/api/identity/Nobody").json() == none
    assert b.call("GET", "/api/identity/Mod").json() == none
