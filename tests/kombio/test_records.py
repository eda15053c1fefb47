"""Records (NOTATION.md): the replay contract, deals, options and their errors (KO-1, KO-2,
KO-4, KO-16)."""

from __future__ import annotations

import json

import pytest

from cardtable.core import load_record, new_game as core_new_game
from cardtable.core.errors import ConfigError, RecordError
from cardtable.core.record import ReplayError
from cardtable.kombio import from_record, new_game
from cardtable.kombio.cards import VALUE

from .helpers import play, window


def _random_moves(s, n, seed=0):
    import random
    rnd = random.Random(seed)
    for _ in range(n):
        if s.over:
            break
        legal = s.legal_decisions()
        s.apply(legal[rnd.randrange(len(legal))])
    return s


def test_record_reproduces_the_state():  # KO-2, KO-4 (rounds from the seed)
    s = _random_moves(new_game(players=4, seed=11, start=3, target=60), 400, seed=1)
    rec = json.loads(json.dumps(s.record()))
    assert rec["game"] == "kombio" and rec["players"] == 4 and rec["seed"] == 11
    assert rec["options"] == {"max_turns": None}      # every option named, also when off
    assert rec["start"] == 3 and rec["target"] == 60 and len(rec["actions"]) == len(s.history)
    again = load_record(rec)
    assert again.view(None) == s.view(None)
    for k in (0, 17, len(rec["actions"]) // 2):
        part = load_record(rec, upto=k)
        assert part.view(None) == load_record(dict(rec, actions=rec["actions"][:k])).view(None)


def test_record_with_deals_per_round_and_options():  # KO-2, KO-4
    deals = [{"grids": [[1, 2, 3, 4], [5, 6]]}, None, {"deck": [14, 14]}]
    s = new_game(players=2, seed=3, deals=deals, options={"max_turns": 3}, target=200)
    assert s.view(None)["grids"][0] == [1, 2, 3, 4] and s.view(None)["grids"][1][:2] == [5, 6]
    deals[0]["grids"][0][0] = 9                   # the game keeps its own copy
    _random_moves(s, 300, seed=2)
    rec = s.record()
    assert rec["deals"][0]["grids"][0] == [1, 2, 3, 4] and rec["options"] == {"max_turns": 3}
    assert "deal" not in rec
    assert load_record(json.loads(json.dumps(rec))).view(None) == s.view(None)


def test_record_round_three_uses_its_deal():  # KO-2, KO-4
    deals = [None, None, {"grids": [[-1, -1, -1, 0]], "deck": [14]}]
    s = new_game(players=3, seed=5, deals=deals, target=10**6)
    while s.round_no < 3:
        play(s, "kombio")
        while s.caller is not None and s.round_no < 3:
            if s.awaiting == "turn":
                play(s, "draw", "discard")
            elif s.awaiting == "action":
                play(s, "skip")
            else:
                window(s)
    assert s.view(None)["grids"][0] == [-1, -1, -1, 0] and VALUE[s.deck[-1]] == 14


def test_core_new_game_and_from_record():
    s = core_new_game("kombio", players=3, seed=2)
    assert s.game == "kombio" and s.players == 3 and s.to_move == 0 and s.awaiting == "turn"
    r = from_record({"game": "kombio", "players": 5, "seed": 1, "start": 4})
    assert r.players == 5 and r.active == 4 and r.target == 100
    assert from_record({"game": "kombio"}).players == 4


def test_a_pair_is_accepted_in_either_order_and_recorded_canonically():  # KO-6, KO-7
    rec = {"game": "kombio", "players": 2,
           "deal": {"grids": [[1, 2, 3, 4], [5, 6, 7, 8]], "deck": [11]},
           "actions": ["draw", "discard", "swap 1.1 0.2"]}
    s = load_record(rec)
    assert s.history[-1] == "swap 0.2 1.1" and s.view(None)["grids"] == [[1, 5, 3, 4],
                                                                           [2, 6, 7, 8]]


def test_an_illegal_action_in_a_record_names_its_index():
    rec = {"game": "kombio", "players": 2, "actions": ["draw", "take 1"]}
    with pytest.raises(ReplayError) as e:
        load_record(rec)
    assert e.value.index == 1 and "'replace S' or 'discard'" in e.value.reason
    s = new_game(players=2, seed=1, target=1)
    _random_moves(s, 10**5)
    assert s.over
    rec = s.record()
    rec["actions"].append("draw")
    with pytest.raises(ReplayError, match="already over"):
        load_record(rec)


BAD_RECORDS = [
    ({"deal": {"grids": [[1, 2, 3, 4, 5]]}}, "has 5 cards"),
    ({"deal": {"grids": [[1]] * 5}}, "5 grids for 4 players"),
    ({"deal": {"hands": []}}, "unknown part 'hands'"),
    ({"deal": {"grids": [[15]]}}, "not a Kombio card"),
    ({"deal": {"grids": [[True]]}}, "not a Kombio card"),
    ({"deal": {"grids": [["X"]]}}, "not a Kombio card"),
    ({"deal": {"grids": [[1, 2], 3]}}, "must be a list"),
    ({"deal": {"grids": {"0": [1]}}}, "one card list per seat"),
    ({"deal": {"deck": "1 2 3"}}, "must be a list"),
    ({"deal": [[1, 2, 3, 4]]}, "must be an object"),
    ({"deal": {"grids": [[14, 14], [14]]}}, "more 14s"),
    ({"deals": {"grids": []}}, "must be a list"),
    ({"deals": [None, {"grids": [[13, 13, 13]]}]}, "deals[1].grids[0] uses more 13s"),
    ({"deal": {}, "deals": []}, "either"),
    ({"players": 6, "deal": {"deck": [v for v in VALUE][:47]}}, "only 46 are left"),
    ({"players": 7}, "2-6 players"),
    ({"players": 1}, "2-6 players"),
    ({"players": "4"}, "whole number"),
    ({"start": 4}, "start seat 4"),
    ({"seed": 1.5}, "whole number"),
    ({"target": 0}, "at least 1"),
    ({"options": {"max_turns": 0}}, "at least 1"),
    ({"options": {"turbo": True}}, "unknown Kombio option"),
    ({"options": [1]}, "object"),
    ({"variant": "duel"}, "no variant"),
]


@pytest.mark.parametrize("extra,reason", BAD_RECORDS)
def test_malformed_records_fail_with_a_one_line_reason(extra, reason):  # KO-1, KO-2
    rec = {"game": "kombio", "players": 4, **extra, "actions": []}
    with pytest.raises(RecordError) as e:
        load_record(rec)
    msg = str(e.value)
    assert reason in msg and "\n" not in msg


@pytest.mark.parametrize("kw", [{"players": 1}, {"players": 7}, {"players": True},
                                {"start": -1}, {"target": "100"}, {"colour": "red"},
                                {"options": {"max_turns": "x"}}])
def test_bad_settings_are_config_errors(kw):
    with pytest.raises(ConfigError):
        new_game(**kw)


def test_every_player_count_from_2_to_6():  # KO-2
    for n in range(2, 7):
        s = new_game(players=n)
        assert s.counts == [4] * n and len(s.deck) == 70 - 4 * n
