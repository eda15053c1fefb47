"""An account's "my games" with turn-based tables (issue 33): the tables where it is the
account's move come first (whatever changed last), each with its pace and deadline, and agree
with what the guest's route (POST /api/my-moves) says for the same seat tokens."""

from __future__ import annotations

from accounts_helpers import app_client

BODY = {"game": "abluxxen", "variant": "duel", "players": 2, "public": False,
        "name": "Hanna", "pace": "turn", "move_seconds": 86400}


def test_my_games_lists_the_tables_where_it_is_your_move_first(tmp_path):
    with app_client(str(tmp_path / "acc.db")) as web:
        r, sess = web.sign_up("Hanna")
        assert r.status_code == 201, r.text
        tokens = {}
        for _ in range(40):              # until the newest table is not Hanna's move, and
            r = web.call("POST", "/api/tables", sess, json=BODY)   # an older one is
            assert r.status_code == 201, r.text
            code = r.json()["table"]["code"]
            tokens[code] = r.json()["join"]["token"]
            j = web.call("POST", f"/api/tables/{code}/join", json={"name": "Ivo"}, origin=None)
            assert j.status_code == 200, j.text
            games = web.call("GET", "/api/me/games", sess).json()
            newest = max(games, key=lambda g: g["updated_at"])
            if not newest["your_turn"] and any(g["your_turn"] for g in games):
                break
        else:
            raise AssertionError("the first player is drawn by lot: 40 tables and no mix")
        assert [g["your_turn"] for g in games] == sorted((g["your_turn"] for g in games),
                                                        reverse=True)
        assert games[0]["code"] != newest["code"]
        assert all(g["pace"] == "turn" and g["deadline"] for g in games)
        guest = web.call("POST", "/api/my-moves", json={"tokens": list(tokens.values())},
                         origin=None).json()
        assert {g["code"]: g["your_move"] for g in guest} == \
            {g["code"]: g["your_turn"] for g in games}
