"""Kombio's snap window as the core protocol's window of simultaneous decisions (core/game.py
`Window`, `round()`): the seats still to answer in the rules' order, silence is `pass`, on the
scenarios of test_clauses.py (KO-10, KO-12)."""

from __future__ import annotations

from cardtable.core.game import Window

from .helpers import deal_game, play, window


def snap(*seats):
    return Window(tuple(seats), "pass", "snap")


def test_ko10_the_window_names_the_seats_still_to_answer_in_seat_order():  # KO-10
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9], [1, 1, 1, 1]], deck=[5, 5, 5])
    assert s.window() is None                                     # a turn: one seat decides
    play(s, "draw")
    assert s.window() is None
    play(s, "discard")
    assert s.window() == snap(0, 1, 2, 3)                         # the active player first
    play(s, "pass")
    assert s.window() == snap(1, 2, 3)
    play(s, "snap 1.1")                                           # a claim: the others answer
    assert s.window() == snap(2, 3) and s.to_move == 2
    play(s, "pass", "pass")
    assert s.window() is None and s.awaiting != "snap"
    play(s, "draw", "discard")
    assert s.window() == snap(1, 2, 3, 0)
    assert window(s) == [1, 2, 3, 0]


def test_ko10_silence_is_a_pass_and_asking_a_seat_passes_the_seats_before_it():  # KO-10
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 9, 9, 9]], deck=[5])
    play(s, "draw", "discard")
    w = s.window()
    assert w.silence == "pass" and w.silence in s.legal()
    asked = w.ask(s, 2)
    assert asked.to_move == 2 and asked.history[-2:] == ["pass", "pass"]
    assert "snap 1.1" in asked.legal() and asked.window() == snap(2)
    assert s.to_move == 0 and s.window() == snap(0, 1, 2)        # the original is untouched


def test_ko12_the_callers_seat_is_not_in_the_window():  # KO-12
    s = deal_game([[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]], deck=[5, 6], start=0)
    play(s, "draw", "discard")
    window(s)
    play(s, "kombio", "draw", "discard")                          # seat 1 calls, seat 2 plays
    assert s.window() == snap(2, 0)


def test_ko12_two_players_the_caller_is_in_the_window_and_the_round_goes_on():  # KO-12, KO-4
    s = deal_game([[1, 1, 1, 1], [2, 2, 2, 2]], deck=[9, 2])
    assert s.round() == 1
    play(s, "kombio", "draw", "discard", "peek 0.1")              # seat 1: a 9
    assert s.window() == snap(1, 0)
    play(s, "pass")
    assert s.round() == 1
    play(s, "pass")                                               # the round ends: the next dealt
    assert s.window() is None and s.round() == 2 == s.view(0)["round"]
