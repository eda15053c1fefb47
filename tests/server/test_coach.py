"""The coach at bot tables and the review of finished games over HTTP (issue 34; server/tables/coach.py,
http/coach.py): the coach answers at a table of one person and bots, computed in the bot pool
(a real worker process here), and is refused at a table with two people, at a rated table, for
a token of another table and when it is not the seat's decision; the review refuses a game
being played and a bot's seat, runs in the pool with its progress, gives exactly what
`bots.review` gives for the same budget, and is kept once made."""

from __future__ import annotations

import json
import tempfile
import time
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from helpers import plant_finished_game

from cardtable.bots.review import review as review_of
from cardtable.core.record import load_record, new_game
from cardtable.core.rng import Rng
from cardtable.server import Settings, create_app
from cardtable.server.tables.coach import coach_allowed, review_words
from cardtable.server.tables.views import seat_names
from cardtable.server.guard.security import Limits

DEADLINE = 300.0            # a hang guard, not a time budget


@pytest.fixture(scope="module")
def app_db():
    with tempfile.TemporaryDirectory() as d:
        db = f"{d}/coach.db"
        with TestClient(create_app(Settings(database=db, announce=False, limits=Limits.off(),
                                            bot_workers=1, bot_delay=0))) as client:
            yield client, db


def _table(client, seats, name="Ann", **body) -> dict:
    r = client.post("/api/tables", json={"game": "abluxxen", "variant": "duel", "public": False,
                                         "seats": seats, **({"name": name} if name else {}),
                                         **body})
    assert r.status_code == 201, r.text
    return r.json()


def _until(fn, what: str):
    end = time.monotonic() + DEADLINE
    while True:
        out = fn()
        if out is not None:
            return out
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.05)


def test_the_coach_answers_at_a_bot_table(app_db):
    client, _ = app_db
    made = _table(client, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code, token = made["table"]["code"], made["join"]["token"]

    def ask():
        r = client.post(f"/api/tables/{code}/coach", json={"token": token, "budget": 24})
        if r.status_code == 409 and r.json()["error"] == "coach_not_your_turn":
            return None                 # the bot moves first: wait for our turn
        return r
    r = _until(ask, "the seat's turn")
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["seat"] == 0 and out["budget"] == {"rollouts": 24} and out["level"] == "expert"
    watch = client.get(f"/api/tables/{code}/watch").json()
    assert out["index"] == watch["index"]
    legal = sorted(d.text for d in _state_of(client, code, out["index"]).legal_decisions())
    assert sorted(o["decision"] for o in out["options"]) == legal
    for o in out["options"]:
        assert 0.0 <= o["win_chance"] <= 1.0 and o["rollouts"] >= 1
        assert o["move"]["text"] == o["decision"]
        # the option in the table log's words, in both languages (the duel opens with a play)
        assert set(o["text"]) == {"en", "de"} and o["text"]["en"] != o["text"]["de"]
    plays = [o for o in out["options"] if o["decision"].startswith("play ")]
    assert plays and all(o["text"]["en"].startswith("You play ")
                         and o["text"]["de"].startswith("Du spielst ") for o in plays)
    assert sum(o["level_choice"] for o in out["options"]) == 1
    well = [o for o in out["options"] if o["rollouts"] >= 10]
    assert [o["win_chance"] for o in well] == sorted((o["win_chance"] for o in well),
                                                     reverse=True)
    again = client.post(f"/api/tables/{code}/coach", json={"token": token, "budget": 24})
    assert again.json() == out                      # the same decision: the cached answer
    assert client.app.state.drivers().pool.stats()["decisions"] >= 1   # it ran in the pool
    # another table's token, a budget beyond the expert's, no such table
    other = _table(client, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    r = client.post(f"/api/tables/{code}/coach", json={"token": other["join"]["token"]})
    assert (r.status_code, r.json()["error"]) == (403, "bad_token")
    r = client.post(f"/api/tables/{code}/coach", json={"token": token, "budget": 99_999})
    assert (r.status_code, r.json()["error"]) == (422, "coach_budget")
    r = client.post("/api/tables/NOSUCH22/coach", json={"token": token})
    assert (r.status_code, r.json()["error"]) == (404, "no_table")
    for body in ({}, {"token": token, "budget": "40"}, {"token": token, "seat": 1}):
        r = client.post(f"/api/tables/{code}/coach", json=body)      # strict: refused alike
        assert (r.status_code, r.json()["error"]) == (422, "invalid"), body


def _state_of(client, code, n):
    """The table's game after `n` actions, from the server's database (the test's own look)."""
    hub = client.app.state.hub()
    rt = next(rt for rt in hub.rts.values() if rt.code == code)
    return load_record(rt.record(), upto=n)


def test_the_coach_is_refused_at_a_table_with_two_people(app_db):
    client, _ = app_db
    made = _table(client, [{"kind": "human"}, {"kind": "human"}])
    code, token = made["table"]["code"], made["join"]["token"]
    bob = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()["token"]
    for tok in (token, bob):
        r = client.post(f"/api/tables/{code}/coach", json={"token": tok})
        assert r.status_code == 403, r.text
        assert r.json()["error"] == "coach_humans"


def test_coach_allowed_reads_the_table_generically():
    bots = [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "bot"}]
    assert coach_allowed(SimpleNamespace(seats=bots, settings={}), 0) is None
    assert coach_allowed(SimpleNamespace(seats=bots, settings={}, rated=True), 0) == "coach_rated"
    assert coach_allowed(SimpleNamespace(seats=bots, settings={"rated": True}), 0) == "coach_rated"
    rated_row = SimpleNamespace(seats=bots, settings={}, row={"rated": True})   # ratings' tables
    assert coach_allowed(rated_row, 0) == "coach_rated"
    two = [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "human"}]
    assert coach_allowed(SimpleNamespace(seats=two, settings={}), 0) == "coach_humans"


# -- the review ------------------------------------------------------------------------------------
def _finished_duel(seed: int) -> dict:
    s = new_game("abluxxen", variant="duel", seed=seed)
    r = Rng(seed)
    while not s.over:
        legal = s.legal_decisions()
        s.apply(legal[r.below(len(legal))])
    return s.record()


def _plant(db: str, code: str, rec: dict) -> None:
    """`rec` as the finished game of the waiting table `code` (its seats as they are)."""
    plant_finished_game(db, code, rec, bots=False)


def test_the_review_route(app_db):
    client, db = app_db
    made = _table(client, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
    code = made["table"]["code"]
    r = client.get(f"/api/tables/{code}/review", params={"seat": 0, "budget": 4})
    assert (r.status_code, r.json()["error"]) == (409, "not_over")     # being played
    waiting = _table(client, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}], name=None)
    code = waiting["table"]["code"]
    rec = _finished_duel(5)
    _plant(db, code, rec)
    r = client.get(f"/api/tables/{code}/review", params={"seat": 1, "budget": 4})
    assert (r.status_code, r.json()["error"]) == (422, "review_seat")   # the bot's seat
    r = client.get(f"/api/tables/{code}/review", params={"seat": 0, "budget": 99_999})
    assert (r.status_code, r.json()["error"]) == (422, "review_budget")
    seen = []

    def ask():
        r = client.get(f"/api/tables/{code}/review", params={"seat": 0, "budget": 4})
        assert r.status_code in (200, 202), r.text
        seen.append(r.json())
        return r if r.status_code == 200 else None
    out = _until(ask, "the review's end").json()
    running = [x for x in seen if x["status"] == "running"]
    assert running, "the first ask starts it and answers with its progress"
    # total 0: the decisions are being counted; then the progress counts up to them
    assert all(0 <= x["done"] <= x["total"] in (0, out["total"]) for x in running)
    dones = [x["done"] for x in running]
    assert dones == sorted(dones)
    assert out["status"] == "done" and out["done"] == out["total"] > 0
    # bots.review's own, each decision worded in both languages from the seat's view
    seats = client.get(f"/api/tables/{code}").json()["seats"]
    names = {lang: seat_names(seats, lang) for lang in ("en", "de")}
    assert out["review"] == review_words(review_of(rec, seats=[0], rollouts=4), rec, 0, names)
    for d in out["review"]["seats"][0]["decisions"]:
        for part in ("chosen", "best"):
            words = d[part + "_text"]
            assert set(words) == {"en", "de"} and all(words.values()), d
            assert words["en"].startswith("You ") and words["de"].startswith("Du "), words
    assert out["review"]["seats"][0]["accuracy"] is not None
    cached = client.app.state.coaching.stats["reviews_cached"]
    assert client.get(f"/api/tables/{code}/review",
                      params={"seat": 0, "budget": 4}).json() == out
    assert client.app.state.coaching.stats["reviews_cached"] == cached + 1


def test_unknown_codes_count_as_guesses():
    """The coach's and the review's routes count an unknown code against the address's
    look-ups of unknown codes, as the lobby's do: then 429 guessing (not 404)."""
    limits = Limits.off()
    limits.misses_per_minute, limits.miss_burst = 1, 3
    with tempfile.TemporaryDirectory() as d, TestClient(create_app(Settings(
            database=f"{d}/g.db", announce=False, limits=limits, bot_workers=0))) as client:
        answers = [client.post(f"/api/tables/NOSUCH{i:02d}/coach", json={"token": "x"})
                   .status_code for i in range(2)]
        answers += [client.get(f"/api/tables/NOSUCH{i:02d}/review", params={"seat": 0})
                    .status_code for i in range(2, 5)]
        assert answers == [404, 404, 404, 429, 429]
        assert client.get("/api/tables/NOSUCH99/review",
                          params={"seat": 0}).json()["error"] == "guessing"


def test_the_coach_spends_the_expert_levels_budget_in_kombio(app_db):
    """Without a budget the coach spends what the expert level spends in the game: in Kombio,
    whose rollouts run compiled, the whole 1,200 (docs/bots.md)."""
    client, _ = app_db
    r = client.post("/api/tables", json={"game": "kombio", "players": 2, "public": False,
                                         "name": "Ann", "seats": [{"kind": "human"},
                                                                  {"kind": "bot", "bot": "easy"}]})
    assert r.status_code == 201, r.text
    code, token = r.json()["table"]["code"], r.json()["join"]["token"]

    def ask():
        r = client.post(f"/api/tables/{code}/coach", json={"token": token})
        return None if r.status_code == 409 else r
    out = _until(ask, "the seat's turn").json()
    assert out["budget"] == {"rollouts": 1200}
    searched = sum(o["rollouts"] for o in out["options"])
    # 1200 rollouts for the searched options, a tenth of them (at least one each) for the rest
    assert 1200 <= searched <= 1200 + max(120, len(out["options"])) + len(out["options"])
