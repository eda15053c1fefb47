"""The review of a finished game (`cardtable.bots.review`, docs/review.md): hand-made positions
with a clearly losing option are marked and the good decision is not; the review never uses
what the seat did not see (twin records); its JSON shape; determinism; errors."""

from __future__ import annotations

import copy
import math
import random

import pytest

from cardtable.bots import act, make_bot
from cardtable.bots.review import (MARK, ReviewError, accuracy_of, budget_for, human_seats,
                                   interval, judge, review)
from cardtable.core.record import load_record
from cardtable.core.errors import RecordError

X = "X"


def finish(rec: dict, seed: int = 0) -> dict:
    """`rec` played on to the end by medium bots: the record of a finished game."""
    s = load_record(rec)
    bots = [make_bot("medium", seed + i) for i in range(s.players)]
    while not s.over:
        s.apply(act(bots[s.to_move], s))
    out = s.record()
    for k in ("deal", "seats"):
        if k in rec:
            out[k] = copy.deepcopy(rec[k])
    return out


# -- hand-made positions --------------------------------------------------------------------------
#: Abluxxen: seat 1 leads with a layer of seven 9s; seat 0 holds seven 10s. Playing six of them
#: breaks up the set, and the leader is not abluxxed (AB-8).
ABLUXXEN = {"game": "abluxxen", "players": 4, "seed": 1, "start": 1,
            "deal": {"hands": [[10] * 7 + [2, 3, 4, 5, 6, 7], [9] * 7 + [1, 2, 3, 4, 5, 6],
                               [1, 2, 3, 4, 5, 6, 7, 8, 11, 11, 12, 12, 13],
                               [1, 2, 3, 4, 5, 6, 7, 8, 11, 11, 12, 12, 13]]},
            "actions": ["play 9 9 9 9 9 9 9", "pass", "play 1", "pass", "play 1", "pass"]}
BREAK_UP = "play " + " ".join(["10"] * 6)

#: Kombio, 2 players, one round (target 10): seat 1 called Kombio, seat 0 has its last turn and
#: drew a 12; it knows its bottom row, a 0 and a 1. Replacing the known 0 with the 12 loses.
KOMBIO = {"game": "kombio", "players": 2, "seed": 1, "target": 10, "start": 1,
          "deal": {"grids": [[4, 4, 0, 1], [3, 3, 2, 5]], "deck": [12]},
          "actions": ["kombio", "draw"]}


def the_decision(out: dict, index: int) -> dict | None:
    (seat,) = out["seats"]
    found = [d for d in seat["decisions"] if d["index"] == index]
    return found[0] if found else None


def test_abluxxen_breaking_up_the_set_is_marked():
    state = load_record(ABLUXXEN)
    assert state.to_move == 0 and BREAK_UP in state.legal()
    bad = judge(state, BREAK_UP, rollouts=24, seed=3)
    assert bad["marked"] and bad["best"] != BREAK_UP
    assert bad["loss"] >= MARK and bad["interval"][0] > 0
    good = judge(state, bad["best"], rollouts=24, seed=3)
    assert not good["marked"]
    # through the whole record: the hand-made decision is marked, the good one is not
    idx = len(ABLUXXEN["actions"])
    for choice, marked in ((BREAK_UP, True), (bad["best"], False)):
        rec = finish({**ABLUXXEN, "actions": ABLUXXEN["actions"] + [choice]})
        d = the_decision(review(rec, seats=[0], rollouts=24, seed=0), idx)
        assert d is not None and d["chosen"] == choice and d["marked"] is marked, d


def test_kombio_replacing_a_known_0_with_a_drawn_12_is_marked():
    idx = len(KOMBIO["actions"])
    state = load_record(KOMBIO)
    assert state.to_move == 0 and state.view(0)["drawn"] == 12
    out = {}
    for choice in ("replace 3", "discard"):
        rec = finish({**KOMBIO, "actions": KOMBIO["actions"] + [choice]})
        out[choice] = the_decision(review(rec, seats=[0], rollouts=80, seed=0), idx)
    bad, good = out["replace 3"], out["discard"]
    assert bad["marked"] and bad["best"] == "discard" and bad["interval"][0] > 0
    assert not good["marked"] and good["loss"] <= 0 and good["accuracy"] == 100.0
    assert bad["accuracy"] < 80


# -- no peeking -----------------------------------------------------------------------------------
def _views_at_decisions(rec: dict, seat: int) -> list | None:
    """The seat's view before each of its decisions (None if the record does not replay)."""
    try:
        s = load_record(rec, upto=0)
        out = []
        for a in rec["actions"]:
            if s.to_move == seat:
                out.append(s.view(seat))
            s.apply(a)
        return out if s.over else None
    except RecordError:
        return None
    except Exception:  # noqa: BLE001 - an illegal action in a twin: not a twin
        return None


def twin(rec: dict, seat: int) -> dict:
    """A record that differs from `rec` only in cards `seat` never saw: two cards of the deal
    outside the seat's own hand or grid are swapped, and the seat's view before each of its
    decisions is the same (the first such swap)."""
    part = "hands" if rec["game"] == "abluxxen" else "grids"
    places = [(part, k, i) for k, cards in enumerate(rec["deal"][part]) if k != seat
              for i in range(len(cards))]
    places += [("deck", None, i) for i in range(len(rec["deal"].get("deck", [])))]
    want = _views_at_decisions(rec, seat)
    final = load_record(rec).view(None)

    def cell(deal, p):
        return deal[p[0]] if p[1] is None else deal[p[0]][p[1]]

    for a in range(len(places)):
        for b in range(a + 1, len(places)):
            other = copy.deepcopy(rec)
            la, lb = cell(other["deal"], places[a]), cell(other["deal"], places[b])
            ia, ib = places[a][2], places[b][2]
            if la[ia] == lb[ib]:
                continue
            la[ia], lb[ib] = lb[ib], la[ia]
            if _views_at_decisions(other, seat) == want and \
                    load_record(other).view(None) != final:
                return other
    raise AssertionError("no twin found")


def full_deal_abluxxen(seed: int) -> dict:
    cards = [n for n in range(1, 14) for _ in range(8)] + [X] * 5
    random.Random(seed).shuffle(cards)
    return {"hands": [cards[13 * k: 13 * k + 13] for k in range(4)],
            "pool": cards[52:58], "deck": cards[58:]}


@pytest.mark.parametrize("rec", [
    finish({"game": "abluxxen", "players": 4, "seed": 2, "deal": full_deal_abluxxen(2),
            "actions": []}, seed=4),
    finish({"game": "kombio", "players": 3, "seed": 2, "target": 10,
            "deal": {"grids": [[1, 5, 9, 12], [2, 6, 10, 13], [3, 7, 11, 0]],
                     "deck": [4, 8, 12, 5, 1, 6]}, "actions": []}, seed=4),
], ids=["abluxxen", "kombio"])
def test_the_review_never_uses_what_the_seat_did_not_see(rec):
    seat = 0
    other = twin(rec, seat)
    assert other["deal"] != rec["deal"]
    a = review(rec, seats=[seat], rollouts=6, seed=5)
    b = review(other, seats=[seat], rollouts=6, seed=5)
    assert a["seats"][0]["reviewed"] > 0
    assert a["seats"] == b["seats"]


def test_the_twins_would_tell_a_peeking_review(monkeypatch):
    """The twin test has teeth: a review whose determinization kept the true cards (peeking)
    tells the twins apart."""
    rec = finish({"game": "abluxxen", "players": 4, "seed": 2, "deal": full_deal_abluxxen(2),
                  "actions": []}, seed=4)
    other = twin(rec, 0)
    cls = type(load_record(rec, upto=0))
    monkeypatch.setattr(cls, "determinize", lambda self, seat, seed=0: self.copy())
    a = review(rec, seats=[0], rollouts=6, seed=5)
    b = review(other, seats=[0], rollouts=6, seed=5)
    assert a["seats"] != b["seats"]


# -- shape, determinism, the accuracy -------------------------------------------------------------
@pytest.fixture(scope="module")
def played():
    rec = finish({"game": "abluxxen", "players": 3, "seed": 7, "actions": []}, seed=1)
    rec["seats"] = [{"name": "Ann"}, {"name": "Ben", "bot": "medium"}, {"name": "Cy"}]
    return rec


def test_json_shape_and_determinism(played):
    out = review(played, rollouts=8, seed=2)
    assert out == review(played, rollouts=8, seed=2)
    assert {"game", "variant", "players", "actions", "lower_is_better", "scores", "winners",
            "budget", "seed", "mark", "seats"} <= set(out)
    assert out["budget"]["rollouts"] == 8 and out["lower_is_better"] is False
    assert [s["seat"] for s in out["seats"]] == [0, 2]           # the human seats
    state = load_record(played, upto=0)
    for s in out["seats"]:
        assert s["name"] == played["seats"][s["seat"]]["name"] and s["bot"] is None
        rows = s["decisions"]
        assert s["reviewed"] == len(rows) > 0
        assert s["marked"] == [d["index"] for d in rows if d["marked"]]
        assert s["accuracy"] == pytest.approx(
            sum(accuracy_of(d["loss"]) for d in rows) / len(rows), abs=0.051)
        for d in rows:
            at = load_record(played, upto=d["index"])
            assert at.to_move == s["seat"] and d["seat"] == s["seat"]
            assert d["chosen"] == played["actions"][d["index"]]
            assert sorted(o["decision"] for o in d["options"]) == at.legal()
            assert d["best"] in [o["decision"] for o in d["options"] if o["rollouts"]]
            assert d["marked"] == (d["loss"] >= MARK and d["interval"][0] is not None
                                   and d["interval"][0] > 0)
            est = [o for o in d["options"] if o["win_chance"] is not None]
            assert [o["win_chance"] for o in est] == sorted(
                (o["win_chance"] for o in est), reverse=True)
            assert {"decision", "rollouts", "win_chance", "score"} == set(d["options"][0])
    assert state.players == 3
    other = review(played, rollouts=8, seed=3)
    assert other != out                               # the seed matters


def test_seats_and_progress(played):
    calls = []
    out = review(played, seats=[1], rollouts=4, progress=lambda d, n: calls.append((d, n)))
    assert [s["seat"] for s in out["seats"]] == [1] and out["seats"][0]["bot"] == "medium"
    n = calls[-1][1]
    assert calls == [(i, n) for i in range(1, n + 1)] and n >= out["seats"][0]["reviewed"]
    bots = dict(played, seats=[{"name": f"B{i}", "bot": "medium"} for i in range(3)])
    assert human_seats(bots, 3) == [0, 1, 2]          # a game of bots: every seat
    assert human_seats({"game": "abluxxen"}, 3) == [0, 1, 2]


def test_accuracy_and_interval():
    assert accuracy_of(0.0) == 100.0 and accuracy_of(-0.2) == 100.0
    assert 79 < accuracy_of(0.05) < 81 and 63 < accuracy_of(0.10) < 65
    assert accuracy_of(1.0) == 0.0
    mean, low, high = interval([0.1, 0.3, 0.2, 0.2])
    assert mean == pytest.approx(0.2) and low < 0.2 < high and high - 0.2 == pytest.approx(
        0.2 - low)
    assert interval([0.5])[1] == -math.inf
    assert budget_for("abluxxen") == 400 and budget_for("kombio") == 1000


def test_errors(played):
    unfinished = {"game": "abluxxen", "players": 3, "seed": 7,
                  "actions": played["actions"][:10]}
    with pytest.raises(ReviewError) as e:
        review(unfinished)
    assert e.value.code == "review.unfinished" and e.value.params == {"n": 10}
    with pytest.raises(ReviewError) as e:
        review(played, seats=[3])
    assert e.value.code == "review.seat" and e.value.params == {"seat": 3, "max": 2}
    with pytest.raises(ValueError):
        review(played, rollouts=1)
    with pytest.raises(RecordError):
        review({"game": "nope", "actions": []})
