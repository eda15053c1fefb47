"""The greedy heuristics (cardtable.kombio.heuristics) on fixed positions, and their promise to
use only what the seat to move may know (KO-2, KO-6, KO-11)."""

from __future__ import annotations

import random

from cardtable.bots import act, make_bot
from cardtable.core.rng import Rng
from cardtable.kombio import new_game
from cardtable.kombio.heuristics import greedy

from .helpers import deal_game, play, window


def decide(state, seed=0):
    return greedy(state, Rng(seed)).text


def test_greedy_reads_only_what_the_seat_knows():  # KO-11
    rnd = random.Random(4)
    checked = 0
    for g in range(12):
        s = new_game(players=2 + g % 5, seed=g)
        while not s.over:
            seat = s.to_move
            mine = decide(s, g)
            for k in range(2):
                assert decide(s.determinize(seat, seed=rnd.randrange(2**32)), g) == mine
            checked += 1
            legal = s.legal_decisions()
            s.apply(legal[rnd.randrange(len(legal))])
    assert checked > 500


def test_greedy_bots_play_whole_games():  # KO-1..KO-16
    for g in range(6):
        s = new_game(players=2 + g % 5, seed=50 + g)
        bots = [make_bot("greedy", seed=g * 10 + i) for i in range(s.players)]
        while not s.over:
            d = act(bots[s.to_move], s)
            assert d in s.legal_decisions()
            s.apply(d)
        s.check_invariants()
        assert s.winners()


def test_greedy_beats_random():
    wins = 0
    games = 0
    for g in range(12):
        players = 2 + g % 3
        s = new_game(players=players, seed=200 + g)
        bots = [make_bot("greedy" if i == g % players else "random", seed=g * 10 + i)
                for i in range(players)]
        while not s.over:
            s.apply(act(bots[s.to_move], s))
        games += 1
        wins += (g % players) in s.winners()
    assert wins >= 9, f"greedy won {wins} of {games}"


def test_greedy_snaps_a_card_it_knows_is_identical():  # KO-8
    s = deal_game([[1, 2, 6, 4], [5, 6, 7, 8]], deck=[6])
    play(s, "draw", "discard")
    assert decide(s) == "snap 0.3"                                # its own seen 6
    play(s, "pass")
    assert decide(s) == "pass"                                    # seat 1 never saw 0.3


def test_greedy_snaps_another_players_card_it_has_seen_and_gives_its_worst():  # KO-8, KO-6
    s = deal_game([[1, 2, 3, 12], [5, 6, 7, 8]], deck=[9, 1, 6])
    play(s, "draw", "discard")                                    # a 9: look at another's card
    assert decide(s).startswith("peek 1.")
    play(s, "peek 1.2")                                           # it is a 6
    window(s)
    play(s, "draw", "discard")                                    # seat 1 discards a 1
    window(s)
    play(s, "draw", "discard")                                    # seat 0 discards a 6
    assert decide(s) == "snap 1.2"
    play(s, "snap 1.2", "pass")
    assert s.awaiting == "give" and decide(s) == "give 4"         # its known 12


def test_greedy_replaces_its_worst_card_with_a_low_drawn_card():  # KO-5.1
    s = deal_game([[1, 2, 3, 11], [5, 6, 7, 8]], deck=[0])
    assert decide(s) == "draw"
    play(s, "draw")
    assert decide(s) == "replace 4"


def test_greedy_uses_a_7_to_learn_an_own_unseen_card():  # KO-6
    s = deal_game([[1, 2, 3, 4], [5, 6, 7, 8]], deck=[7])
    play(s, "draw")
    assert decide(s) == "discard"                                 # 7 is no better than a guess
    play(s, "discard")
    assert decide(s) in ("peek 0.1", "peek 0.2")


def test_greedy_swaps_a_known_high_card_away():  # KO-6
    s = deal_game([[1, 2, 3, 12], [5, 6, 7, 8]], deck=[11])
    play(s, "draw", "discard")
    assert decide(s).startswith("swap 0.4 1.")


def test_greedy_calls_kombio_when_its_sum_is_low():  # KO-5.3, KO-12
    s = deal_game([[0, -1, 0, -1], [5, 6, 7, 8]], deck=[14])
    play(s, "draw", "discard", "peek 0.1 0.2", "keep")
    window(s)
    play(s, "draw", "discard")
    if s.awaiting == "action":
        play(s, "skip")
    window(s)
    assert decide(s) == "kombio"


def test_greedy_hands_over_a_high_card_and_keeps_a_low_one():  # KO-8
    s = deal_game([[1, 2, 3, 4], [9, 0, 7, 8]], deck=[6])
    play(s, "draw", "discard", "snap 1.1", "pass")                # wrong: a 9
    assert s.awaiting == "hand_over" and decide(s) == "hand-over"
    s = deal_game([[1, 2, 3, 4], [9, 0, 7, 8]], deck=[6])
    play(s, "draw", "discard", "snap 1.2", "pass")                # wrong: a 0
    assert decide(s) == "penalty"
