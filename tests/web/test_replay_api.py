"""POST /api/replay (src/cardtable/server/http/replay.py): the views of a record, step by step.

Every view is checked against the engine (`load_record(record, upto=i).view(seat)`); malformed
bodies and records get 413/422 with the reason, never a 5xx (also under a hypothesis fuzz)."""

from __future__ import annotations

import json
import random

import pytest
from helpers import run_async
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.core.record import load_record, new_game
from cardtable.narration import web_why
from cardtable.server import Settings, create_app
from cardtable.server.guard.security import Limits
from cardtable.server.http.replay import MAX_ACTIONS, MAX_BODY


@pytest.fixture(scope="module")
def rr_client(tmp_path_factory):
    db = tmp_path_factory.mktemp("replay-api") / "cardtable.db"
    app = create_app(Settings(database=str(db), announce=False, limits=Limits.off()))
    with TestClient(app) as client:
        yield client


def random_record(game: str, seed: int, **opts) -> dict:
    """A finished game of random legal decisions."""
    state = new_game(game, seed=seed, **opts)
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal()))
    return state.record()


@pytest.fixture(scope="module")
def ab_record():
    return random_record("abluxxen", 5, players=4)


@pytest.fixture(scope="module")
def ko_record():
    return random_record("kombio", 6, players=3, target=40)


@pytest.fixture(scope="module")
def duel_record():
    return random_record("abluxxen", 7, variant="duel", players=2)


def post(client, body, **kw):
    return client.post("/api/replay", json=body, **kw)


# -- the views --------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["ab_record", "ko_record", "duel_record"])
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_every_step_is_the_engines_view(rr_client, request, which, seat):
    rec = request.getfixturevalue(which)
    r = post(rr_client, {"record": rec, "seat": seat})
    assert r.status_code == 200, r.text
    out = r.json()
    final = load_record(rec)
    assert out["game"] == rec["game"] and out["players"] == final.players
    assert out["seat"] == seat and out["over"] is True
    assert out["actions"] == len(rec["actions"])
    assert out["scores"] == final.scores() and out["winners"] == final.winners()
    steps = out["steps"]
    assert [s["index"] for s in steps] == list(range(len(rec["actions"]) + 1))
    assert steps[0]["seat"] is None and steps[0]["decision"] is None
    state = load_record(dict(rec, actions=[]))
    assert steps[0]["view"] == json.loads(json.dumps(state.view(seat)))
    for i, action in enumerate(rec["actions"]):
        actor = state.to_move
        state.apply(action)
        step = steps[i + 1]
        assert step["seat"] == actor
        assert step["decision"] == state.history[-1]
        assert step["view"] == json.loads(json.dumps(state.view(seat))), f"step {i + 1}"
        assert set(step["text"]) == {"en", "de"}


@pytest.mark.parametrize("which", ["ab_record", "ko_record", "duel_record"])
def test_every_step_carries_its_move_as_json(rr_client, request, which):
    """Each step's decision comes also as JSON (`move`: text, kind, args; docs/notation.md),
    the engine's own, for the seat that took it: the replay viewer reads no notation."""
    rec = request.getfixturevalue(which)
    steps = post(rr_client, {"record": rec, "seat": 1}).json()["steps"]
    assert steps[0]["move"] is None
    state = load_record(dict(rec, actions=[]))
    kinds = set()
    for i, action in enumerate(rec["actions"]):
        actor = state.to_move
        state.apply(action)
        move = steps[i + 1]["move"]
        assert move == state.decision_json(state.history[-1], actor), f"step {i + 1}"
        assert move["text"] == steps[i + 1]["decision"]
        kinds.add(move["kind"])
    assert len(kinds) >= 3, kinds


def test_a_seat_sees_only_its_own_hand(rr_client, ab_record):
    out = post(rr_client, {"record": ab_record, "seat": 2}).json()
    for step in out["steps"]:
        hands = step["view"]["hands"]
        assert isinstance(hands[2], list)
        assert all(isinstance(h, int) for s, h in enumerate(hands) if s != 2), hands
    full = post(rr_client, {"record": ab_record, "seat": None}).json()
    assert all(isinstance(h, list) for h in full["steps"][5]["view"]["hands"])


def test_kombio_unseen_cards_stay_hidden(rr_client, ko_record):
    out = post(rr_client, {"record": ko_record, "seat": 0}).json()
    first = out["steps"][0]["view"]["grids"]
    assert first[0][:2] == ["?", "?"] and all(isinstance(v, int) for v in first[0][2:4])  # KO-2
    assert all(v == "?" for v in first[1] + first[2])
    full = post(rr_client, {"record": ko_record}).json()
    assert all(isinstance(v, int) for g in full["steps"][0]["view"]["grids"] for v in g)


def test_words_use_the_names_and_both_languages(rr_client, ab_record):
    names = ["Ann", "Bo", "Cy", "Di"]
    out = post(rr_client, {"record": ab_record, "seat": None, "names": names}).json()
    assert out["names"] == names
    s1 = out["steps"][1]
    assert names[s1["seat"]] in s1["text"]["en"] and names[s1["seat"]] in s1["text"]["de"]
    assert s1["text"]["en"] != s1["text"]["de"]
    default = post(rr_client, {"record": ab_record}).json()
    assert default["names"] == [f"Seat {s + 1}" for s in range(4)]     # counted from 1


@pytest.mark.parametrize("which", ["ab_record", "ko_record", "duel_record"])
@pytest.mark.parametrize("seat", [None, 1])
def test_each_step_has_the_why_of_its_view_in_both_languages(rr_client, request, which, seat):
    """Every step carries the "whose turn and why" line (narration `web_why`, issue 30) in
    English and German, worded from that step's view (the seat's, or the full view) with the
    names in each language; the browser shows it as sent."""
    rec = request.getfixturevalue(which)
    names = ["Ann", "Bo", "Cy", "Di"][:load_record(rec).players]
    out = post(rr_client, {"record": rec, "seat": seat, "names": names}).json()
    state = load_record(dict(rec, actions=[]))
    mine = 0
    for i, step in enumerate(out["steps"]):
        if i:
            state.apply(rec["actions"][i - 1])
        view = state.view(seat)
        assert set(step["why"]) == {"en", "de"}
        for lang in ("en", "de"):
            assert step["why"][lang] == web_why(rec["game"], view, seat, names, lang), (i, lang)
        if seat is not None and view["to_move"] == seat and not view["over"] \
                and view["awaiting"] != "snap":          # (a window: "the others decide")
            mine += 1
            assert step["why"]["en"].startswith(("Your", "You")), step["why"]
            assert step["why"]["de"].startswith(("Du ", "Deine")), step["why"]
        if seat is None and not view["over"]:
            assert names[view["to_move"]] in step["why"]["en"] or view["awaiting"] == "snap"
    assert mine > 0 or seat is None
    assert out["steps"][-1]["why"] == {"en": "The game is over.", "de": "Die Partie ist vorbei."}
    # a page later in the game has the same lines as the whole answer
    page = post(rr_client, {"record": rec, "seat": seat, "names": names, "from": 5,
                            "count": 3}).json()
    assert [s["why"] for s in page["steps"]] == [s["why"] for s in out["steps"][5:8]]


def test_an_unfinished_record_is_fine(rr_client, ab_record):
    rec = dict(ab_record, actions=ab_record["actions"][:7])
    out = post(rr_client, {"record": rec, "seat": 1}).json()
    assert len(out["steps"]) == 8 and out["over"] is False
    assert out["scores"] is None and out["winners"] is None


def test_a_record_with_a_fixed_deal(rr_client):
    rec = {"game": "abluxxen", "variant": "basic", "players": 3, "seed": 1,
           "deal": {"hands": [[1, 1, 5, "X"], [7, 7], []], "pool": [3, 8, 8, 10, 12, 13]},
           "actions": ["play 5", "pass"]}
    out = post(rr_client, {"record": rec, "seat": 0}).json()
    hand = out["steps"][0]["view"]["hands"][0]
    assert len(hand) == 13 and all(hand.count(c) >= 1 for c in (1, 5, "X")) and hand.count(1) >= 2
    assert out["steps"][2]["view"]["displays"][0] == [[5]]


# -- refusals ---------------------------------------------------------------------------------------
def test_an_illegal_action_names_its_index(rr_client, ab_record):
    rec = dict(ab_record, actions=ab_record["actions"][:4] + ["play 99"])
    r = post(rr_client, {"record": rec})
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "illegal_action" and body["index"] == 4 and body["action"] == "play 99"
    assert "99" in body["reason"] and "action 4" in body["detail"]


def test_an_action_after_the_end(rr_client, ab_record):
    rec = dict(ab_record, actions=ab_record["actions"] + ["pass"])
    body = post(rr_client, {"record": rec}).json()
    assert body["error"] == "illegal_action" and body["index"] == len(ab_record["actions"])
    assert "over" in body["reason"]


@pytest.mark.parametrize("record, words", [
    ({"game": "abluxxen", "variant": "nope"}, "variant"),
    ({"game": "abluxxen", "players": 9}, "player"),
    ({"game": "abluxxen", "players": "3"}, "players"),
    ({"game": "kombio", "deal": {"grids": [[1, 2, 3, 4, 5, 6]]}}, "deal"),
    ({"game": "abluxxen", "players": 3, "deal": {"hands": [["X"] * 6]}}, ""),
    ({"game": "abluxxen", "players": 3, "seed": "x"}, ""),
    ({"game": "abluxxen", "players": 3, "deal": "all of them"}, ""),
    ({"game": "kombio", "players": 3, "target": -5}, ""),
])
def test_a_malformed_record(rr_client, record, words):
    r = post(rr_client, {"record": record})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "bad_record" and words in body["detail"].lower()


@pytest.mark.parametrize("body, status", [
    ({}, 422),                                                     # no record
    ({"record": {"game": "chess"}}, 422),                          # unknown game
    ({"record": {"game": "abluxxen"}, "seat": "1"}, 422),          # strict: not a number
    ({"record": {"game": "abluxxen"}, "seat": True}, 422),
    ({"record": {"game": "abluxxen"}, "seat": -1}, 422),
    ({"record": {"game": "abluxxen"}, "seat": 8}, 422),
    ({"record": {"game": "abluxxen"}, "extra": 1}, 422),           # unknown key
    ({"record": {"game": "abluxxen", "actions": "play 5"}}, 422),
    ({"record": {"game": "abluxxen", "actions": [5]}}, 422),
    ({"record": {"game": "abluxxen", "actions": ["x" * 65]}}, 422),
    ({"record": {"game": "abluxxen", "actions": [""]}}, 422),
    ({"record": {"game": "abluxxen"}, "names": []}, 422),
    ({"record": {"game": "abluxxen"}, "names": ["x" * 41]}, 422),
    ({"record": [1, 2]}, 422),
])
def test_a_malformed_body(rr_client, body, status):
    r = post(rr_client, body)
    assert r.status_code == status, r.text
    assert "detail" in r.json()


def test_seat_and_names_must_fit_the_game(rr_client, ab_record):
    r = post(rr_client, {"record": ab_record, "seat": 4})
    assert r.status_code == 422 and r.json()["error"] == "bad_seat"
    r = post(rr_client, {"record": ab_record, "names": ["a", "b"]})
    assert r.status_code == 422 and r.json()["error"] == "bad_seat"


def test_not_json(rr_client):
    r = rr_client.post("/api/replay", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"


def test_too_many_actions(rr_client):
    rec = {"game": "abluxxen", "players": 3, "actions": ["pass"] * (MAX_ACTIONS + 1)}
    r = post(rr_client, {"record": rec})
    assert r.status_code == 422 and r.json()["error"] == "record_too_long"


def test_a_body_over_the_limit(rr_client):
    big = json.dumps({"record": {"game": "abluxxen", "pad": "x" * MAX_BODY}}).encode()
    r = rr_client.post("/api/replay", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"

    def chunks():                                   # no Content-Length: chunked transfer
        for i in range(0, len(big), 65536):
            yield big[i:i + 65536]
    r = rr_client.post("/api/replay", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_the_endpoint_is_in_the_openapi_description(rr_client):
    spec = rr_client.get("/openapi.json").json()
    assert "post" in spec["paths"]["/api/replay"]


# -- fuzz -------------------------------------------------------------------------------------------
JSONS = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)
CARDS = st.one_of(st.integers(-3, 16), st.just("X"), st.just("?"), st.none())
WORDS = st.sampled_from(["play", "draw", "pool", "deck", "pass", "take", "leave", "keep", "discard",
                         "shadow", "replace", "peek", "swap", "snap", "give", "kombio", "skip",
                         "1", "7", "X", "13", "0.1", "1.2", "2.4", "+", "hand-over", "penalty"])
ACTIONS = st.lists(st.lists(WORDS, min_size=1, max_size=4).map(" ".join), max_size=12)
RECORDS = st.fixed_dictionaries(
    {"game": st.sampled_from(["abluxxen", "kombio"])},
    optional={
        "variant": st.sampled_from(["basic", "advanced", "expert", "duel", "classic", "x"]) | JSONS,
        "players": st.integers(-1, 9) | JSONS,
        "seed": st.integers(-5, 2**70) | JSONS,
        "start": st.integers(-2, 9) | JSONS,
        "target": st.integers(-5, 200) | JSONS,
        "options": st.dictionaries(st.sampled_from(["optional_draw", "ones_beat_top", "duel",
                                                    "shadow_partial", "max_turns", "x"]),
                                   JSONS, max_size=3) | JSONS,
        "deal": st.fixed_dictionaries({}, optional={
            "hands": st.lists(st.lists(CARDS, max_size=14), max_size=6) | JSONS,
            "pool": st.lists(CARDS | st.lists(CARDS, max_size=3), max_size=8) | JSONS,
            "shadow": st.lists(CARDS, max_size=14) | JSONS,
            "deck": st.lists(CARDS, max_size=10) | JSONS,
            "grids": st.lists(st.lists(CARDS, max_size=6), max_size=7) | JSONS,
        }) | JSONS,
        "deals": st.lists(JSONS, max_size=3),
        "actions": ACTIONS | JSONS,
    })
BODIES = st.one_of(
    st.fixed_dictionaries({"record": RECORDS},
                          optional={"seat": st.none() | st.integers(-2, 9) | JSONS,
                                    "names": st.lists(st.text(max_size=45), max_size=9) | JSONS}),
    JSONS,
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES)
def test_fuzz_never_a_server_error(rr_client, body):
    r = post(rr_client, body)
    assert r.status_code in (200, 413, 422), (r.status_code, r.text[:500])
    out = r.json()
    if r.status_code == 200:
        assert len(out["steps"]) == out["actions"] + 1
    else:
        assert out["detail"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(cut=st.integers(0, 400), junk=ACTIONS, seat=st.none() | st.integers(0, 3))
def test_fuzz_a_real_record_with_junk_at_the_end(rr_client, ab_record, cut, junk, seat):
    rec = dict(ab_record, actions=ab_record["actions"][:cut] + junk)
    r = post(rr_client, {"record": rec, "seat": seat})
    assert r.status_code in (200, 422), r.text[:500]
    if r.status_code == 422:
        assert r.json()["error"] == "illegal_action"
        assert r.json()["index"] >= min(cut, len(ab_record["actions"]))


def test_replays_hold_at_most_their_slots_of_worker_threads(monkeypatch):
    """Concurrent replays wait on the event loop, not in the worker threads that the bots and
    table loads share: at most REPLAY_SLOTS are computed at once, and every one is answered."""
    import asyncio
    import threading

    from cardtable.server.http import replay as replay_api

    lock, active, peak = threading.Lock(), [0], [0]
    full = threading.Event()            # REPLAY_SLOTS builds have run at once

    def slow_build(record, seat, names, first, count):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
            if active[0] >= replay_api.REPLAY_SLOTS:
                full.set()
        # the first builds stay until the slots are all taken (so more would be seen), not
        # for a fixed time; 60 s: a hang guard
        assert full.wait(60), "the slots were never all taken"
        with lock:
            active[0] -= 1
        return {"ok": True}

    monkeypatch.setattr(replay_api, "_safe_build", slow_build)

    async def main():
        return await asyncio.gather(*(replay_api.replay_page({}, None, None)
                                      for _ in range(6)))

    answers = run_async(main())
    assert [a.status_code for a in answers] == [200] * 6
    assert peak[0] == replay_api.REPLAY_SLOTS
