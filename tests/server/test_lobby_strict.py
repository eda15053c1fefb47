"""The lobby's request bodies are as strict as the WebSocket messages (issue 29): `"players":
"4"`, `"public": "no"` and a bot `" HARD "` were accepted (coerced, stripped, lower-cased) and
`max_turns` took 2^62. Each such body now gets `422` naming its field, and changes nothing;
the bodies the browser sends (numbers as numbers, true/false, exact level names) still work.
"""

from __future__ import annotations

import tempfile

import pytest
from fastapi.testclient import TestClient

from cardtable.server import Settings, create_app
from cardtable.server import protocol as P
from cardtable.server.guard.security import Limits


@pytest.fixture(scope="module")
def lobby():
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
            database=f"{d}/strict.db", announce=False, limits=Limits.off(),
            bot_workers=0))) as client:
        yield client


def listed(lobby) -> int:
    return len(lobby.get("/api/tables?limit=200").json())


KOMBIO = {"game": "kombio", "name": "Ann"}
BOTS = [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}]

#: (body of POST /api/tables, error, field)
BAD_CREATES = [
    (dict(KOMBIO, players="4"), "bad_players", "players"),
    (dict(KOMBIO, players=4.0), "bad_players", "players"),
    (dict(KOMBIO, players=True), "bad_players", "players"),
    (dict(KOMBIO, public="no"), "invalid", "public"),
    (dict(KOMBIO, public=0), "invalid", "public"),
    (dict(KOMBIO, memory="yes"), "invalid", "memory"),
    (dict(KOMBIO, memory=1), "invalid", "memory"),
    (dict(KOMBIO, target=True), "bad_target", "target"),
    (dict(KOMBIO, target=1001), "bad_target", "target"),
    (dict(KOMBIO, target=50.0), "bad_target", "target"),
    (dict(KOMBIO, snap_seconds=0.1), "bad_snap", "snap_seconds"),
    (dict(KOMBIO, game_settings={"snap_seconds": 61}), "bad_snap", "snap_seconds"),
    ({"game": "abluxxen", "name": "Ann", "target": 50}, "settings", "target"),
    ({"game": "abluxxen", "name": "Ann", "game_settings": {"nope": 1}}, "settings", "nope"),
    (dict(KOMBIO, nope=1), "invalid", "nope"),
    (dict(KOMBIO, target="100"), "bad_target", "target"),
    (dict(KOMBIO, turn_seconds="30"), "bad_timer", "turn_seconds"),
    (dict(KOMBIO, snap_seconds="5"), "bad_snap", "snap_seconds"),
    (dict(KOMBIO, name=5), "bad_name", "name"),
    (dict(KOMBIO, options={"max_turns": 2 ** 62}), "bad_option", "max_turns"),
    (dict(KOMBIO, options={"max_turns": 1001}), "bad_option", "max_turns"),
    (dict(KOMBIO, options={"max_turns": 0}), "bad_option", "max_turns"),
    (dict(KOMBIO, options={"max_turns": "50"}), "bad_option", "max_turns"),
    (dict(KOMBIO, options={"max_turns": 50.0}), "bad_option", "max_turns"),
    ({"game": "abluxxen", "name": "Ann", "options": {"optional_draw": "true"}}, "bad_option",
     "optional_draw"),
    (dict(KOMBIO, players=3, seats=[{"kind": "human"}, {"kind": 1}, {"kind": "bot"}]),
     "invalid", "kind"),
    (dict(KOMBIO, players=3, seats=[{"kind": "human"}, {"kind": "bot", "bot": 2},
                                    {"kind": "bot"}]), "invalid", "bot"),
]


@pytest.mark.parametrize("body,error,field", BAD_CREATES,
                         ids=[f"{f}={b.get(f, b.get('options', b.get('seats')))!r}"[:40]
                              for b, _, f in BAD_CREATES])
def test_a_lax_create_body_is_refused_naming_its_field(lobby, body, error, field):
    before = listed(lobby)
    r = lobby.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == error, r.text
    assert r.json()["params"]["field"] == field, r.text
    assert listed(lobby) == before


@pytest.mark.parametrize("level", [" HARD ", "HARD", "Hard", "hard ", "\thard", "EASY"])
def test_a_bot_level_is_its_exact_name(lobby, level):
    before = listed(lobby)
    r = lobby.post("/api/tables", json=dict(KOMBIO, players=3, seats=[
        {"kind": "human"}, {"kind": "bot", "bot": level}, {"kind": "bot", "bot": "easy"}]))
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "bot"
    assert r.json()["params"] == {"bot": level, "field": "bot"}
    assert listed(lobby) == before


def test_join_and_rematch_bodies_are_strict(lobby):
    code = lobby.post("/api/tables", json={"game": "kombio", "players": 2,
                                           "public": False}).json()["table"]["code"]
    for body, field in (({"name": "Ann", "seat": "1"}, "seat"),
                        ({"name": "Ann", "seat": 1.0}, "seat"),
                        ({"name": "Ann", "seat": True}, "seat"),
                        ({"name": ["Ann"]}, "name")):
        r = lobby.post(f"/api/tables/{code}/join", json=body)
        assert r.status_code == 422 and r.json()["params"]["field"] == field, (body, r.text)
    r = lobby.post("/api/join", json={"table": code, "name": "Ann", "seat": "0"})
    assert r.status_code == 422 and r.json()["params"]["field"] == "seat", r.text
    r = lobby.post("/api/join", json={"table": 12345678, "name": "Ann"})
    assert r.status_code == 422 and r.json()["error"] == "not_a_code", r.text
    assert lobby.get(f"/api/tables/{code}").json()["free_seats"] == [0, 1]   # nothing changed
    r = lobby.post(f"/api/tables/{code}/rematch", json={"token": 12345})
    assert r.status_code == 422 and r.json()["params"]["field"] == "token", r.text


def test_the_browsers_bodies_still_work(lobby):
    """What app.js sends (its create form and joins): numbers as numbers, booleans as true or
    false, levels by their exact names; a whole number of seconds for a float field."""
    levels = lobby.get("/api/games").json()[0]["levels"]
    for level in levels:
        body = {"game": "kombio", "players": 3, "public": False, "name": "Ann",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": level}, {"kind": "human"}],
                "target": 100, "snap_seconds": 5, "turn_seconds": 30, "memory": True}
        r = lobby.post("/api/tables", json=body)
        assert r.status_code == 201, (level, r.text)
        t = r.json()["table"]
        assert (t["players"], t["turn_seconds"], t["snap_seconds"], t["memory"]) == \
            (3, 30.0, 5.0, True)
        assert t["seats"][1]["bot"] == level
        r = lobby.post("/api/join", json={"table": t["code"], "name": "Bea"})
        assert r.status_code == 200 and r.json()["seat"] == 2, r.text
    r = lobby.post("/api/tables", json={"game": "abluxxen", "variant": "basic", "players": 4,
                                        "public": True, "name": "Ann", "seats": [
                                            {"kind": "human"}, *BOTS[1:], {"kind": "human"}],
                                        "options": {"optional_draw": True},
                                        "turn_seconds": 60})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["options"] == {"optional_draw": True}
    r = lobby.post("/api/tables", json=dict(KOMBIO, public=False,
                                            options={"max_turns": P.MAX_OPTION_NUMBER}))
    assert r.status_code == 201 and r.json()["table"]["options"] == {
        "max_turns": P.MAX_OPTION_NUMBER}, r.text


def test_every_lobby_body_is_strict_as_the_websocket_messages():
    bodies = [P.SeatSpec, P.CreateTable, P.JoinTable, P.JoinByLink, P.Rematch]
    for model in bodies + [P.Decide, P.SetSeat]:
        assert model.model_config.get("strict") is True, model
        assert model.model_config.get("extra") == "forbid", model


def test_a_duel_table_takes_the_former_du6_reading(lobby):  # DU-6
    """The create form's rule option `shadow_blocks_draw` reaches the table's record; in a
    rule set without it, it is refused (422 settings) naming the option."""
    duel = {"game": "abluxxen", "variant": "duel", "players": 2, "public": False, "name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}
    r = lobby.post("/api/tables", json=dict(duel, options={"shadow_blocks_draw": True}))
    assert r.status_code == 201, r.text
    assert r.json()["table"]["options"] == {"shadow_blocks_draw": True}
    r = lobby.post("/api/tables", json=dict(duel, variant="basic", players=4, seats=[
        {"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3,
        options={"shadow_blocks_draw": True}))
    assert r.status_code == 422 and r.json()["error"] == "settings", r.text
    assert "shadow_blocks_draw" in r.json()["detail"]
