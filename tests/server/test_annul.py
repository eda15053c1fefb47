"""Annulled rated games: a moderator annuls a finished rated game (HTTP or `cardtable admin
annul`); it stays in the records, marked annulled, and the ratings it touched, and those of
the games played after it, are what a fresh rating of the remaining games gives."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accounts_helpers import app_client
from test_ratings import play_out, rated_table

from cardtable.cli.main import main
from cardtable.server.people import ratings as R


@pytest.fixture(scope="module")
def web(database):
    with app_client(database, round_break=0) as w:
        yield w


def game(web, host, guest, n: int) -> str:
    code = rated_table(web, host).json()["table"]["code"]
    r = web.call("POST", "/api/join", guest, json={"table": f"/t/{code}", "name": "x"},
                 headers={"X-Cardtable-Client": f"{n:032d}"})
    assert r.status_code == 200, r.text
    play_out(web, code)
    return code


def test_annulling_a_game_recomputes_the_ratings_it_touched(web, database, capsys):
    s = {n: web.sign_up(n)[1] for n in ("Anna", "Bert", "Cleo", "Moritz")}
    assert main(["admin", "role", "Moritz", "moderator", "--reason", "t",
                 "--database", database]) == 0
    order = [("Anna", "Bert"), ("Anna", "Cleo"), ("Bert", "Cleo"), ("Anna", "Bert")]
    codes = [game(web, s[a], s[b], i) for i, (a, b) in enumerate(order)]

    def profile(n):
        return web.call("GET", f"/api/players/{n}", s[n]).json()

    before = {n: profile(n)["ratings"][0] for n in ("Anna", "Bert", "Cleo")}
    rank = {(n, h["code"]): h["rank"] for n in before for h in before[n]["history"]}
    # a fresh rating of the games that remain, in order
    want = {n: (R.MU, R.SIGMA) for n in before}
    for (a, b), code in zip(order[1:], codes[1:]):
        (want[a], want[b]) = R.rate([want[a], want[b]], [rank[a, code], rank[b, code]])

    path = f"/api/mod/tables/{codes[0]}/annul"
    r = web.call("POST", path, s["Anna"], json={"reason": "collusion"})
    assert r.status_code == 403 and r.json()["error"] == "not_moderator"
    r = web.call("POST", path, s["Moritz"], json={"reason": "collusion"})
    assert r.status_code == 200, r.text
    assert r.json() == {"table": codes[0], "game": "kombio", "recomputed": 3}

    after = {n: profile(n)["ratings"][0] for n in before}
    for n, (mu, sigma) in want.items():
        assert (after[n]["mu"], after[n]["sigma"]) == pytest.approx((mu, sigma)), n
        assert (after[n]["mu"], after[n]["sigma"]) != pytest.approx(
            (before[n]["mu"], before[n]["sigma"])), n
        assert after[n]["history"][-1]["rating"] == pytest.approx(R.conservative(mu, sigma)), \
            (n, [(h["code"], h["rating"]) for h in after[n]["history"]], codes, mu, sigma)
    assert [after[n]["games"] for n in ("Anna", "Bert", "Cleo")] == [2, 2, 2]
    assert [before[n]["games"] for n in ("Anna", "Bert", "Cleo")] == [3, 3, 2]
    assert all(after[n]["provisional"] and after[n]["opponents"] == 2 for n in after)
    # the game stays in the records, marked annulled
    assert web.call("GET", f"/api/tables/{codes[0]}/record").json()["actions"]
    assert web.call("GET", f"/api/tables/{codes[0]}").json()["annulled"] is True
    assert web.call("GET", f"/api/tables/{codes[1]}").json()["annulled"] is False
    (old,) = [h for h in after["Anna"]["history"] if h["code"] == codes[0]]
    assert old["annulled"] and not after["Anna"]["history"][-1]["annulled"]
    assert [g["annulled"] for g in profile("Bert")["recent"]] == [False, False, True]
    # annulling again changes nothing
    r = web.call("POST", path, s["Moritz"], json={"reason": "again"})
    assert r.status_code == 409 and r.json()["error"] == "annulled"
    assert main(["admin", "annul", codes[0], "--reason", "again",
                 "--database", database]) == 2
    assert {n: profile(n)["ratings"][0] for n in before} == after
    # bad requests change nothing
    r = web.call("POST", f"/api/mod/tables/{codes[1]}/annul", s["Moritz"], json={"reason": " "})
    assert r.status_code == 422 and r.json()["error"] == "no_reason"
    r = web.call("POST", "/api/mod/tables/NOSUCH99/annul", s["Moritz"], json={"reason": "x"})
    assert r.status_code == 404 and r.json()["error"] == "no_table"
    assert web.call("GET", f"/api/tables/{codes[1]}").json()["annulled"] is False
    assert {n: profile(n)["ratings"][0] for n in before} == after
    # from the terminal too: the last game of Anna and Bert
    assert main(["admin", "annul", codes[3], "--reason", "collusion again",
                 "--database", database]) == 0
    assert [profile(n)["ratings"][0]["games"] for n in ("Anna", "Bert", "Cleo")] == [1, 1, 2]
    capsys.readouterr()
    assert main(["admin", "audit", "--json", "--database", database]) == 0
    rows = [r for r in map(json.loads, capsys.readouterr().out.splitlines())
            if r["action"] == "annul"]
    assert [(r["actor"].split(":")[0], r["target"], r["reason"]) for r in rows] == [
        ("terminal", f"table {codes[3]}", "collusion again"),
        ("Moritz", f"table {codes[0]}", "collusion")]
